#include "wayfinder/grid/breadth_first_wave.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "wayfinder/core/search_clock.hpp"

namespace wayfinder {

namespace {
// The eight moves; a cell stores the index of the move that entered it.
constexpr int move_dx[8] = {0, -1, 1, 0, -1, 1, -1, 1};
constexpr int move_dy[8] = {-1, 0, 0, 1, -1, -1, 1, 1};
}  // namespace

void WaveState::prepare(std::size_t cells) {
  frontier_.clear();
  if (generation_ == std::numeric_limits<std::uint32_t>::max()) {
    // Wrapped: old stamps could alias. Fresh zeroed arrays rather than rewriting every stamp.
    const std::size_t size = std::max(stamps_.size(), cells);
    stamps_.reset_zeroed(size);
    directions_.reset_zeroed(size);
    generation_ = 0;
  } else if (stamps_.size() < cells) {
    stamps_.reset_zeroed(cells);
    directions_.reset_zeroed(cells);
  }
  ++generation_;
}

SearchStatus BreadthFirstWave::start(NodeId start, NodeId goal, const SearchOptions& options) {
  options_ = options;
  start_ = start;
  goal_ = goal;
  head_ = 0;
  ring_end_ = 1;
  ring_moves_ = 0;
  stats_ = {};
  end_ = invalid_node;
  closest_ = start;
  closest_h_ = infinite_cost;  // set from the start's distance once the ids are checked
  report_.begin();
  if (start >= map_.cell_count() || goal >= map_.cell_count())
    return report_.finish(RunOutcome::invalid_input(), "start or goal cell id out of range");
  if (std::optional<std::string> problem = budget_problem(options.budget))
    return report_.finish(RunOutcome::invalid_input(), std::move(*problem));
  const Cell s = map_.cell_of(start);
  const Cell g = map_.cell_of(goal);
  closest_h_ = grid_distance(Heuristic::octile, s.x - g.x, s.y - g.y);
  // Sizing the state for a bigger map counts in the stats and against max_time.
  if (state_.ready_for(map_.cell_count())) {
    state_.prepare(map_.cell_count());
  } else {
    const auto began = std::chrono::steady_clock::now();
    state_.prepare(map_.cell_count());
    stats_.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
  }
  state_.reach(start, 0);
  state_.frontier().push_back(start);
  if (options_.trace != nullptr) options_.trace->record(TraceEvent::opened, start, invalid_node, 0.0);
  if (start == goal) finish(RunOutcome::goal_reached(), goal);
  return report_.status();
}

SearchStatus BreadthFirstWave::step(const StepBudget& step_budget) {
  if (!report_.running()) return report_.status();
  const SearchClock clock(options_.budget, step_budget, stats_.microseconds);
  std::vector<NodeId>& frontier = state_.frontier();
  const Cell goal_cell = map_.cell_of(goal_);
  // Every move costs at least the cheapest cell's cost (a cardinal move between two such cells).
  const double cheapest_move = map_.uniform_cost() ? 1.0 : static_cast<double>(map_.min_cost());
  // Every path of up to ring_moves_ moves has been tried, so any path to the goal still to be
  // found has at least ring_moves_ + 1 moves, each costing at least the cheapest move.
  const auto over_cost = [&] { return static_cast<double>(ring_moves_ + 1) * cheapest_move > options_.budget.max_cost; };
  std::uint64_t done = 0;
  while (report_.running()) {
    if (head_ == frontier.size()) {
      finish(RunOutcome::unreachable(options_.partial_when_unreachable), closest_);
      break;
    }
    if (head_ == ring_end_) {  // the ring is done: the frontier now holds exactly the next one
      ++ring_moves_;
      ring_end_ = frontier.size();
    }
    const StopReason budget_stop =
        clock.budget_stop(stats_.expanded, over_cost, [&] { return state_.memory_bytes(); });
    if (budget_stop != StopReason::none) {
      finish(RunOutcome::budget_spent(budget_stop, options_.return_partial), closest_);
      break;
    }
    if (clock.step_over(done)) break;
    ++done;
    const NodeId node = frontier[head_++];
    ++stats_.expanded;
    const Cell at = map_.cell_of(node);
    const double h = grid_distance(Heuristic::octile, at.x - goal_cell.x, at.y - goal_cell.y);
    if (h < closest_h_) {
      closest_h_ = h;
      closest_ = node;
    }
    if (options_.trace != nullptr) options_.trace->record(TraceEvent::closed, node, invalid_node, 0.0);
    const std::uint32_t around = map_.neighbourhood(at.x, at.y);
    const int moves = diagonal_ == DiagonalMode::never ? 4 : 8;
    for (int move = 0; move < moves; ++move) {
      const int dx = move_dx[move];
      const int dy = move_dy[move];
      if (!((around >> ((dy + 1) * 3 + dx + 1)) & 1u)) continue;
      if (dx != 0 && dy != 0 && !diagonal_allowed(diagonal_, around, dx, dy)) continue;
      ++stats_.generated;
      const NodeId next = map_.id_of(at.x + dx, at.y + dy);
      if (state_.reached(next)) continue;
      state_.reach(next, static_cast<std::uint8_t>(move));
      frontier.push_back(next);
      if (options_.trace != nullptr) options_.trace->record(TraceEvent::opened, next, node, 0.0);
      if (next == goal_) {
        finish(RunOutcome::goal_reached(), goal_);
        break;
      }
    }
    stats_.peak_open = std::max<std::uint64_t>(stats_.peak_open, frontier.size() - head_);
  }
  stats_.microseconds += clock.step_microseconds();
  return report_.status();
}

void BreadthFirstWave::finish(RunOutcome outcome, NodeId end) {
  report_.finish(outcome);
  end_ = outcome.has_path() ? end : invalid_node;
}

void BreadthFirstWave::walk_back(NodeId from, std::vector<NodeId>& path) const {
  path.clear();
  Cell at = map_.cell_of(from);
  NodeId node = from;
  path.push_back(node);
  while (node != start_) {
    const int move = state_.direction(node);
    at.x -= move_dx[move];
    at.y -= move_dy[move];
    node = map_.id_of(at);
    path.push_back(node);
  }
  std::reverse(path.begin(), path.end());
}

PathResult BreadthFirstWave::result() const {
  PathResult out;
  result(out);
  return out;
}

void BreadthFirstWave::result(PathResult& out) const {
  report_.write(out, stats_);
  if (end_ != invalid_node) {
    walk_back(end_, out.nodes);
    for (std::size_t i = 1; i < out.nodes.size(); ++i) {
      const Cell a = map_.cell_of(out.nodes[i - 1]);
      const Cell b = map_.cell_of(out.nodes[i]);
      out.cost += grid_move_cost(map_, out.nodes[i - 1], out.nodes[i], a.x != b.x && a.y != b.y);
    }
  }
}

}  // namespace wayfinder
