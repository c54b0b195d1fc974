#include "wayfinder/grid/walkers/midpoint_walker.hpp"

#include <bit>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "grid/walkers/grid_walker_lines.hpp"
#include "grid/walkers/walker_step_clock.hpp"

namespace wayfinder {

using walker_detail::octile_distance;
using walker_detail::may_move;

namespace {

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

}  // namespace

SearchStatus MidpointWalker::start(NodeId start, NodeId goal, const SearchOptions& options, std::uint64_t step_limit) {
  options_ = options;
  if (step_limit != 0) {
    step_limit_ = step_limit;
  } else {
    const std::uint64_t cells = map_.cell_count();
    const std::uint64_t most = std::numeric_limits<std::uint64_t>::max() / default_walker_moves_per_cell;
    step_limit_ = cells > most ? std::numeric_limits<std::uint64_t>::max() : cells * default_walker_moves_per_cell;
  }
  // Halving a segment as long as the map is wide and high takes log2(width + height) levels;
  // the rest is room for midpoints moved off obstacles.
  const auto span = static_cast<unsigned>(map_.width()) + static_cast<unsigned>(map_.height());
  depth_limit_ = 2 * static_cast<int>(std::bit_width(span)) + 16;
  goal_ = goal;
  pending_.clear();
  path_.clear();
  stats_ = {};
  report_.begin();
  if (start >= map_.cell_count() || goal >= map_.cell_count())
    return report_.finish(RunOutcome::invalid_input(), "start or goal cell id out of range");
  if (std::optional<std::string> problem = budget_problem(options.budget))
    return report_.finish(RunOutcome::invalid_input(), std::move(*problem));
  path_.push_back(start);
  if (options_.trace != nullptr) options_.trace->record(TraceEvent::opened, start, invalid_node, 0.0);
  if (start == goal) return report_.finish(RunOutcome::goal_reached());
  pending_.push_back({map_.cell_of(start), map_.cell_of(goal), 0});
  return report_.status();
}

bool MidpointWalker::free_cell_near(Cell middle, Cell from, Cell to, Cell& found) {
  // Ring by ring outwards (a square spiral). A usable cell lies beside the segment's middle
  // third or so (its projection on the segment between 0.2 and 0.8 of the way): the first free
  // cell of the spiral is often just next to one end, on the near side of the obstacle, and
  // splitting there would leave the other half as hard as the whole. Within the first ring that
  // has usable cells, the one that makes the detour shortest. When no cell of the map is
  // usable, the nearest free cell of any kind.
  const double along_x = to.x - from.x;
  const double along_y = to.y - from.y;
  const double length_squared = along_x * along_x + along_y * along_y;
  const int widest = std::max(map_.width(), map_.height());
  bool have_fallback = false;
  Cell fallback;
  double fallback_detour = 0.0;
  int fallback_radius = 0;
  for (int radius = 0; radius <= widest; ++radius) {
    bool any = false;
    double best = 0.0;
    auto consider = [&](int x, int y) {
      ++stats_.generated;
      const Cell cell{x, y};
      if (!map_.passable(cell) || cell == from || cell == to) return;
      const double detour = octile_distance(from, cell) + octile_distance(cell, to);
      const double fraction = ((x - from.x) * along_x + (y - from.y) * along_y) / length_squared;
      if (fraction < 0.2 || fraction > 0.8) {
        // Keep the nearest ring's best as the fallback.
        if (!have_fallback || (radius == fallback_radius && detour < fallback_detour)) {
          have_fallback = true;
          fallback = cell;
          fallback_detour = detour;
          fallback_radius = radius;
        }
        return;
      }
      if (!any || detour < best) {
        any = true;
        best = detour;
        found = cell;
      }
    };
    if (radius == 0) {
      consider(middle.x, middle.y);
    } else {
      for (int dx = -radius; dx <= radius; ++dx) {
        consider(middle.x + dx, middle.y - radius);
        consider(middle.x + dx, middle.y + radius);
      }
      for (int dy = -radius + 1; dy <= radius - 1; ++dy) {
        consider(middle.x - radius, middle.y + dy);
        consider(middle.x + radius, middle.y + dy);
      }
    }
    if (any) return true;
  }
  if (have_fallback) found = fallback;
  return have_fallback;
}

void MidpointWalker::examine(const Segment& segment) {
  ++stats_.expanded;
  walker_detail::straight_line(segment.from, segment.to, diagonal_, line_);
  stats_.generated += line_.size();
  if (walker_detail::line_is_free(map_, diagonal_, line_)) {
    // The path so far ends at this segment's first cell (segments are joined in order).
    for (std::size_t k = 1; k < line_.size(); ++k) {
      const NodeId cell = map_.id_of(line_[k]);
      if (options_.trace != nullptr) options_.trace->record(TraceEvent::closed, cell, path_.back(), 0.0);
      path_.push_back(cell);
    }
    return;
  }
  if (segment.depth >= depth_limit_) {
    report_.finish({SearchStatus::no_path, StopReason::gave_up},
                   "could not join " + cell_text(segment.from) + " to " + cell_text(segment.to) + " in " +
               std::to_string(depth_limit_) + " halvings: the midpoints do not lead round the obstacle");
    return;
  }
  const Cell middle{(segment.from.x + segment.to.x) / 2, (segment.from.y + segment.to.y) / 2};
  Cell detour;
  if (!free_cell_near(middle, segment.from, segment.to, detour)) {
    report_.finish({SearchStatus::no_path, StopReason::gave_up},
                   "no passable cell near the midpoint " + cell_text(middle) + " of " + cell_text(segment.from) + " to " +
               cell_text(segment.to));
    return;
  }
  // The second half below the first, so that the first is joined first.
  pending_.push_back({detour, segment.to, segment.depth + 1});
  pending_.push_back({segment.from, detour, segment.depth + 1});
}

SearchStatus MidpointWalker::step(const StepBudget& step_budget) {
  if (!report_.running()) return report_.status();
  const SearchClock clock(options_.budget, step_budget, stats_.microseconds);
  std::uint64_t done = 0;
  while (report_.running()) {
    if (pending_.empty()) {
      report_.finish(RunOutcome::goal_reached());
      break;
    }
    if (!may_move(clock, done, stats_.expanded, options_, report_, "segments")) break;
    if (stats_.expanded >= step_limit_) {
      report_.finish({SearchStatus::budget_exhausted, StopReason::expansion_limit},
             "step limit reached: " + std::to_string(step_limit_) + " segments examined without joining the start to "
             "the goal");
      break;
    }
    const Segment segment = pending_.back();
    pending_.pop_back();
    examine(segment);
    ++done;
  }
  stats_.microseconds = clock.microseconds();
  return report_.status();
}

void MidpointWalker::result(PathResult& out) const {
  report_.write(out, stats_);
  std::size_t count = 0;
  if (report_.status() == SearchStatus::found) {
    count = path_.size();
  } else if (report_.status() == SearchStatus::partial && !path_.empty()) {
    // The path joined so far, up to its cell closest to the goal.
    const Cell goal = map_.cell_of(goal_);
    double closest = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < path_.size(); ++k) {
      const double distance = octile_distance(map_.cell_of(path_[k]), goal);
      if (distance < closest) {
        closest = distance;
        count = k + 1;
      }
    }
  }
  out.nodes.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(count));
  out.cost = walker_detail::walk_cost(map_, out.nodes, out.nodes.size());
}

}  // namespace wayfinder
