#include "wayfinder/grid/replanning/grid_replanner.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wayfinder {

Cost GridReplanner::heuristic(NodeId from, NodeId to) const {
  const Cell a = map_.cell_of(from), b = map_.cell_of(to);
  return heuristic_scale_ * grid_distance(resolve_heuristic(Heuristic::automatic, diagonal_), a.x - b.x, a.y - b.y);
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
  started_over();
  key_modifier_ = 0.0;
  const NodeId goal = map_.id_of(goal_);
  rhs_[goal] = 0.0;
  queue_push(goal, key_of(goal));
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
  while (!queue_.empty() && (before_agent(queue_.top().key) || rhs_[start] != g_[start])) {
    const NodeId node = queue_.top().node;
    const Key old_key = queue_.top().key;
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
  if (!ends_on_the_map()) return SearchStatus::invalid_input;
  if (!initialised_ || start_over_) {
    initialise();
  } else {
    // Every move into or out of a changed cell, or past it as a corner of a diagonal, has both
    // ends among the cell and its eight neighbours: their lookaheads are recomputed.
    const NodeId goal = map_.id_of(goal_);
    for (const NodeId changed : changed_cells_) {
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
    changed_cells_.clear();
  }
  compute_shortest_path();
  total_expansions_ += last_expansions_;
  if (!ends_passable()) return SearchStatus::no_path;
  if (cost() == infinite_cost) {
    say_unreachable();
    return SearchStatus::no_path;
  }
  return SearchStatus::found;
}

void GridReplanner::moved(Cell from) {
  if (from == start_) return;
  // Keys already queued were made with the old position's heuristic; raising k_m by the
  // distance moved keeps them lower bounds (the paper's k_m), so the queue need not be rebuilt.
  if (initialised_ && map_.contains(start_) && map_.contains(from))
    key_modifier_ += heuristic(map_.id_of(from), map_.id_of(start_));
  if (initialised_ && !map_.contains(start_)) start_over_ = true;
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

bool GridReplanner::has_plan() const { return cost() != infinite_cost; }

std::pair<NodeId, Cost> GridReplanner::next_move(NodeId at) const {
  std::pair<NodeId, Cost> best{invalid_node, 0.0};
  Cost best_value = infinite_cost;
  for_each_move(at, [&](NodeId next, Cost step) {
    if (step + g_[next] < best_value) {
      best_value = step + g_[next];
      best = {next, step};
    }
  });
  return best;
}

// ---- The open list ------------------------------------------------------------------------

void GridReplanner::queue_push(NodeId node, Key key) { queue_.push({key, node}, position_writer()); }

void GridReplanner::queue_remove(NodeId node) {
  queue_.remove(queue_position_[node], position_writer());
  queue_position_[node] = not_queued;
}

void GridReplanner::queue_update(NodeId node, Key key) { queue_.update(queue_position_[node], key, position_writer()); }

}  // namespace wayfinder
