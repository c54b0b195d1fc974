#include "wayfinder/grid/grid_replanner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wayfinder {

namespace {
constexpr int move_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int move_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
}  // namespace

GridReplanner::GridReplanner(const GridMap& map, Cell start, Cell goal, DiagonalMode diagonal)
    : map_(map), start_(start), goal_(goal), diagonal_(diagonal), last_start_(start), seen_revision_(map.revision()) {}

Cost GridReplanner::heuristic(NodeId from, NodeId to) const {
  const Cell a = map_.cell_of(from), b = map_.cell_of(to);
  return heuristic_scale_ * grid_distance(resolve_heuristic(Heuristic::automatic, diagonal_), a.x - b.x, a.y - b.y);
}

template <class Visit>
void GridReplanner::for_each_move(NodeId node, Visit&& visit) const {
  const Cell at = map_.cell_of(node);
  if (!map_.passable(at)) return;  // a blocked cell has no moves, in or out
  const std::uint16_t allowed = allowed_moves(diagonal_, map_.neighbourhood(at.x, at.y));
  for (int i = 0; i < 8; ++i) {
    const int dx = move_dx[i], dy = move_dy[i];
    if (!((allowed >> ((dy + 1) * 3 + (dx + 1))) & 1u)) continue;
    const NodeId next = map_.id_of(at.x + dx, at.y + dy);
    visit(next, grid_move_cost(map_, node, next, dx != 0 && dy != 0));
  }
}

Cost GridReplanner::lookahead(NodeId node) const {
  Cost best = infinite_cost;
  for_each_move(node, [&](NodeId next, Cost step) { best = std::min(best, step + g_[next]); });
  return best;
}

GridReplanner::Key GridReplanner::key_of(NodeId node) const {
  const Cost best = std::min(g_[node], rhs_[node]);
  return {best + heuristic(map_.id_of(start_), node) + key_modifier_, best};
}

void GridReplanner::initialise() {
  const std::size_t cells = map_.cell_count();
  g_.assign(cells, infinite_cost);
  rhs_.assign(cells, infinite_cost);
  queue_position_.assign(cells, not_queued);
  queue_.clear();
  stale_.clear();
  key_modifier_ = 0.0;
  last_start_ = start_;
  heuristic_scale_ = static_cast<double>(map_.min_cost());
  const NodeId goal = map_.id_of(goal_);
  rhs_[goal] = 0.0;
  queue_push(goal, key_of(goal));
  initialised_ = true;
  restart_ = false;
}

void GridReplanner::update_vertex(NodeId node) {
  if (g_[node] != rhs_[node]) {
    if (queued(node))
      queue_update(node, key_of(node));
    else
      queue_push(node, key_of(node));
  } else if (queued(node)) {
    queue_remove(node);
  }
}

void GridReplanner::compute_shortest_path() {
  const NodeId start = map_.id_of(start_);
  const NodeId goal = map_.id_of(goal_);
  // The paper's loop runs while the top key is below the agent's. Keys tie often on grids (an
  // octile estimate is exact along straight runs), and sums of the same moves in another order
  // differ in the last bits; a cell on the best path whose key ties the agent's, or exceeds it
  // by a rounding error, would be left unexpanded with a stale g, and following the costs from
  // the agent could wander into it. So the loop also expands keys up to the agent's plus a
  // relative 1e-9: a little more work, never a wrong path.
  auto before_agent = [&](const Key& key) {
    const Key agent = key_of(start);
    return key.primary <= agent.primary + 1e-9 * std::max(1.0, std::abs(agent.primary));
  };
  while (!queue_.empty() && (before_agent(queue_.front().key) || rhs_[start] != g_[start])) {
    const NodeId node = queue_.front().node;
    const Key old_key = queue_.front().key;
    const Key new_key = key_of(node);
    ++last_expansions_;
    if (old_key < new_key) {
      queue_update(node, new_key);  // the agent moved since this key was made: requeue
    } else if (g_[node] > rhs_[node]) {
      // Overconsistent: its cost-to-goal is now known; neighbours may get cheaper through it.
      g_[node] = rhs_[node];
      queue_remove(node);
      for_each_move(node, [&](NodeId next, Cost step) {
        if (next != goal && step + g_[node] < rhs_[next]) {
          rhs_[next] = step + g_[node];
          update_vertex(next);
        }
      });
    } else {
      // Underconsistent: its old cost is gone; it and its neighbours look again.
      g_[node] = infinite_cost;
      if (node != goal) rhs_[node] = lookahead(node);
      update_vertex(node);
      for_each_move(node, [&](NodeId next, Cost) {
        if (next != goal) {
          rhs_[next] = lookahead(next);
          update_vertex(next);
        }
      });
    }
  }
}

SearchStatus GridReplanner::plan() {
  last_expansions_ = 0;
  message_.clear();
  if (static_cast<unsigned>(diagonal_) > static_cast<unsigned>(DiagonalMode::always)) {
    message_ = "unknown diagonal mode " + std::to_string(static_cast<unsigned>(diagonal_));
    return SearchStatus::invalid_input;
  }
  if (!map_.contains(start_) || !map_.contains(goal_)) {
    message_ = std::string(map_.contains(start_) ? "goal " + cell_text(goal_) : "start " + cell_text(start_)) +
               " is outside the " + std::to_string(map_.width()) + "x" + std::to_string(map_.height()) + " map";
    return SearchStatus::invalid_input;
  }
  if (!initialised_ || restart_) {
    initialise();
  } else {
    // Every move into or out of a changed cell, or past it as a corner of a diagonal, has both
    // ends among the cell and its eight neighbours: their lookaheads are recomputed.
    const NodeId goal = map_.id_of(goal_);
    for (const NodeId changed : stale_) {
      const Cell c = map_.cell_of(changed);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!map_.contains(c.x + dx, c.y + dy)) continue;
          const NodeId node = map_.id_of(c.x + dx, c.y + dy);
          if (node == goal) continue;
          rhs_[node] = lookahead(node);
          update_vertex(node);
        }
    }
    stale_.clear();
  }
  compute_shortest_path();
  total_expansions_ += last_expansions_;
  if (!map_.passable(start_) || !map_.passable(goal_)) {
    message_ = std::string(map_.passable(start_) ? "goal " + cell_text(goal_) : "start " + cell_text(start_)) +
               " is blocked";
    return SearchStatus::no_path;
  }
  if (cost() == infinite_cost) {
    message_ = "the goal " + cell_text(goal_) + " cannot be reached from " + cell_text(start_);
    return SearchStatus::no_path;
  }
  return SearchStatus::found;
}

void GridReplanner::move_to(Cell cell) {
  if (cell == start_) return;
  // Keys already queued were made with the old position's heuristic; raising k_m by the
  // distance moved keeps them lower bounds (the paper's k_m), so the queue need not be rebuilt.
  if (initialised_ && map_.contains(cell) && map_.contains(last_start_))
    key_modifier_ += heuristic(map_.id_of(last_start_), map_.id_of(cell));
  last_start_ = cell;
  start_ = cell;
  if (initialised_ && !map_.contains(cell)) restart_ = true;
}

std::size_t GridReplanner::notify_changes() {
  const auto changes = map_.changes_since(seen_revision_);
  seen_revision_ = map_.revision();
  if (!changes) {
    restart_ = true;  // the log no longer reaches back: start over
    return 0;
  }
  for (const GridCellChange& change : *changes) stale_.push_back(map_.id_of(change.cell));
  // A cell cheaper than the cheapest one the heuristic was scaled by would make it overestimate.
  if (static_cast<double>(map_.min_cost()) < heuristic_scale_) restart_ = true;
  return changes->size();
}

Cost GridReplanner::cost() const {
  if (!initialised_ || !map_.contains(start_) || !map_.passable(start_) || !map_.passable(goal_)) return infinite_cost;
  // rhs: the best move plus its neighbour's cost-to-goal (0 at the goal); plan() leaves the
  // agent's cell consistent, so it equals g there.
  return rhs_[map_.id_of(start_)];
}

Cell GridReplanner::next_cell() const {
  const PathResult route = path();
  return route.nodes.size() >= 2 ? map_.cell_of(route.nodes[1]) : start_;
}

PathResult GridReplanner::path() const {
  PathResult result;
  result.reason = StopReason::goal_reached;
  result.stats.expanded = last_expansions_;
  if (cost() == infinite_cost) {
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    result.message = message_.empty() ? "no plan: call plan() first" : message_;
    return result;
  }
  // Walk down the costs-to-goal: from each cell, the move that minimises move cost + g.
  NodeId at = map_.id_of(start_);
  const NodeId goal = map_.id_of(goal_);
  result.nodes.push_back(at);
  Cost total = 0.0;
  while (at != goal && result.nodes.size() <= map_.cell_count()) {
    NodeId best = invalid_node;
    Cost best_value = infinite_cost;
    Cost best_step = 0.0;
    for_each_move(at, [&](NodeId next, Cost step) {
      if (step + g_[next] < best_value) {
        best_value = step + g_[next];
        best = next;
        best_step = step;
      }
    });
    if (best == invalid_node) break;
    total += best_step;
    at = best;
    result.nodes.push_back(at);
  }
  if (at != goal) {
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    result.message = "the plan is stale: call plan() after move_to() or notify_changes()";
    result.nodes.clear();
    return result;
  }
  result.status = SearchStatus::found;
  result.cost = total;
  result.points.reserve(result.nodes.size());
  for (const NodeId node : result.nodes) result.points.push_back(GridMap::centre(map_.cell_of(node)));
  return result;
}

// ---- The open list ------------------------------------------------------------------------

void GridReplanner::place(std::size_t index, QueueEntry entry) {
  queue_[index] = entry;
  queue_position_[entry.node] = static_cast<std::uint32_t>(index);
}

void GridReplanner::sift_up(std::size_t index) {
  const QueueEntry entry = queue_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / 2;
    if (!(entry.key < queue_[parent].key)) break;
    place(index, queue_[parent]);
    index = parent;
  }
  place(index, entry);
}

void GridReplanner::sift_down(std::size_t index) {
  const QueueEntry entry = queue_[index];
  const std::size_t count = queue_.size();
  while (true) {
    std::size_t child = 2 * index + 1;
    if (child >= count) break;
    if (child + 1 < count && queue_[child + 1].key < queue_[child].key) ++child;
    if (!(queue_[child].key < entry.key)) break;
    place(index, queue_[child]);
    index = child;
  }
  place(index, entry);
}

void GridReplanner::queue_push(NodeId node, Key key) {
  queue_.push_back({key, node});
  queue_position_[node] = static_cast<std::uint32_t>(queue_.size() - 1);
  sift_up(queue_.size() - 1);
}

void GridReplanner::queue_remove(NodeId node) {
  const std::size_t index = queue_position_[node];
  queue_position_[node] = not_queued;
  const QueueEntry last = queue_.back();
  queue_.pop_back();
  if (index == queue_.size()) return;  // it was the last entry
  place(index, last);
  sift_up(index);
  sift_down(queue_position_[last.node]);
}

void GridReplanner::queue_update(NodeId node, Key key) {
  const std::size_t index = queue_position_[node];
  queue_[index].key = key;
  sift_up(index);
  sift_down(queue_position_[node]);
}

}  // namespace wayfinder
