#include "wayfinder/grid/breadth_first_wave.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

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
  status_ = SearchStatus::in_progress;
  reason_ = StopReason::none;
  message_.clear();
  if (start >= map_.cell_count() || goal >= map_.cell_count()) {
    message_ = "start or goal cell id out of range";
    finish(SearchStatus::invalid_input, StopReason::invalid_input, invalid_node);
    return status_;
  }
  if (std::isnan(options.budget.max_cost)) {
    message_ = "budget max_cost is NaN";
    finish(SearchStatus::invalid_input, StopReason::invalid_input, invalid_node);
    return status_;
  }
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
  if (start == goal) finish(SearchStatus::found, StopReason::goal_reached, goal);
  return status_;
}

SearchStatus BreadthFirstWave::step(const StepBudget& step_budget) {
  if (status_ != SearchStatus::in_progress) return status_;
  const std::uint64_t max_expansions = step_budget.max_expansions;
  const auto started = std::chrono::steady_clock::now();
  const Budget& budget = options_.budget;
  const double time_limit_us = std::chrono::duration<double, std::micro>(budget.max_time).count();
  std::vector<NodeId>& frontier = state_.frontier();
  const Cell goal_cell = map_.cell_of(goal_);
  const bool check_cost = budget.max_cost != infinite_cost;
  // Every move costs at least the cheapest cell's cost (a cardinal move between two such cells).
  const double cheapest_move = map_.uniform_cost() ? 1.0 : static_cast<double>(map_.min_cost());
  std::uint64_t done = 0;
  while (status_ == SearchStatus::in_progress) {
    if (head_ == frontier.size()) {
      if (options_.partial_when_unreachable)
        finish(SearchStatus::partial, StopReason::open_list_empty, closest_);
      else
        finish(SearchStatus::no_path, StopReason::open_list_empty, invalid_node);
      break;
    }
    if (head_ == ring_end_) {  // the ring is done: the frontier now holds exactly the next one
      ++ring_moves_;
      ring_end_ = frontier.size();
    }
    if (stats_.expanded >= budget.max_expansions) {
      finish(options_.return_partial ? SearchStatus::partial : SearchStatus::budget_exhausted,
             StopReason::expansion_limit, options_.return_partial ? closest_ : invalid_node);
      break;
    }
    // Every path of up to ring_moves_ moves has been tried, so any path to the goal still to be
    // found has at least ring_moves_ + 1 moves, each costing at least the cheapest move.
    if (check_cost && static_cast<double>(ring_moves_ + 1) * cheapest_move > budget.max_cost) {
      finish(options_.return_partial ? SearchStatus::partial : SearchStatus::budget_exhausted, StopReason::cost_limit,
             options_.return_partial ? closest_ : invalid_node);
      break;
    }
    if (time_limit_us > 0.0 && (stats_.expanded % Budget::time_check_interval) == 0 &&
        stats_.microseconds + std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count() >=
            time_limit_us) {
      finish(options_.return_partial ? SearchStatus::partial : SearchStatus::budget_exhausted, StopReason::time_limit,
             options_.return_partial ? closest_ : invalid_node);
      break;
    }
    if (done >= max_expansions || step_time_is_up(step_budget, done, started)) break;
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
        finish(SearchStatus::found, StopReason::goal_reached, goal_);
        break;
      }
    }
    stats_.peak_open = std::max<std::uint64_t>(stats_.peak_open, frontier.size() - head_);
  }
  stats_.microseconds += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  return status_;
}

void BreadthFirstWave::finish(SearchStatus status, StopReason reason, NodeId end) {
  status_ = status;
  reason_ = reason;
  end_ = end;
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
  out.reset();
  out.status = status_;
  out.reason = reason_;
  out.stats = stats_;
  out.message = message_;
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
