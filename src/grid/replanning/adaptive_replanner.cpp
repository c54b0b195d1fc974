#include "wayfinder/grid/replanning/adaptive_replanner.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <utility>

namespace wayfinder {

namespace {

/// Heuristics and path costs are sums of the same moves in different orders; they agree to the
/// last few bits, not exactly.
bool same_cost(Cost a, Cost b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// The open list's order: smallest f first, and among equal f the larger g (the cell nearer the
/// goal), the usual tie-break that keeps A* from expanding whole plateaus of equal f; the same
/// keys as the library's A* (heap_key rounds f so that ties are ties).
std::uint64_t open_key(Cost g, Cost f) { return heap_key(f, f > 0.0 ? g / f : 1.0); }
}  // namespace

Cost GridAdaptiveReplanner::octile(NodeId node) const {
  const Cell a = map_.cell_of(node);
  return heuristic_scale_ * grid_distance(distance_, a.x - goal_.x, a.y - goal_.y);
}

Cost GridAdaptiveReplanner::heuristic(NodeId node) const { return std::max(octile(node), learned_h_[node]); }

Cost GridAdaptiveReplanner::move_cost(NodeId from, NodeId to) const {
  const Cell a = map_.cell_of(from), b = map_.cell_of(to);
  const int dx = b.x - a.x, dy = b.y - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) || !map_.passable(a)) return infinite_cost;
  const std::uint16_t allowed = allowed_moves(diagonal_, map_.neighbourhood(a.x, a.y));
  if (!((allowed >> ((dy + 1) * 3 + (dx + 1))) & 1u)) return infinite_cost;
  return grid_move_cost(map_, from, to, dx != 0 && dy != 0);
}

void GridAdaptiveReplanner::forget_everything() {
  const std::size_t cells = map_.cell_count();
  learned_h_.assign(cells, 0.0);
  next_.assign(cells, invalid_node);
  cells_.assign(cells, SearchCell{});
  search_counter_ = 0;
  started_over();
}

void GridAdaptiveReplanner::touch(NodeId node) {
  if (cells_[node].search == search_counter_) return;
  cells_[node] = {infinite_cost, invalid_node, search_counter_, not_queued, 0};
}

void GridAdaptiveReplanner::repair_after_changes() {
  // Every move into or out of a changed cell, or past it as a corner of a diagonal, has both
  // ends among the cell and its eight neighbours.
  std::vector<NodeId> touched;
  touched.reserve(changed_cells_.size() * 9);
  for (const NodeId changed : changed_cells_) {
    const Cell c = map_.cell_of(changed);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (map_.contains(c.x + dx, c.y + dy)) touched.push_back(map_.id_of(c.x + dx, c.y + dy));
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  // A previous path through a move that no longer exists is cut here (intact_path_cost would
  // also reject it, but only after following the chain up to the break).
  for (const NodeId node : touched)
    if (next_[node] != invalid_node && move_cost(node, next_[node]) == infinite_cost) next_[node] = invalid_node;
  repair_heuristics(touched);
  changed_cells_.clear();
}

// GAA*'s consistency procedure (Sun, Koenig & Yeoh 2008, as used by MPGAA*): a move that got
// cheaper, or appeared (a cell opened, a diagonal freed), can leave h(s) > c(s, s') + h(s'), and
// a learned h(s) may then exceed the true cost to the goal. Lowering h(s) to c(s, s') + h(s')
// and propagating the decrease to s's neighbours in order of increasing h (a Dijkstra over the
// decreases) makes h consistent again, with as little lowering as consistency needs: the
// learned values far from the change survive. Cost increases (blocking) keep h consistent and
// need nothing. As in MPGAA*, the lowered cell's `next` points at the neighbour that lowered it,
// so that the opened way is reused like a found path (intact_path_cost still checks it). The
// alternative, forgetting every learned value when anything gets cheaper, is simpler but throws
// away all learning whenever a door reopens (about one change in four in the experiment).
// Moves have the same cost both ways (grid_move_cost), so a cell's predecessors are its
// neighbours.
void GridAdaptiveReplanner::repair_heuristics(const std::vector<NodeId>& touched) {
  struct Lowered {
    Cost h;
    NodeId node;
    bool operator>(const Lowered& other) const { return h > other.h; }
  };
  std::priority_queue<Lowered, std::vector<Lowered>, std::greater<>> queue;
  const NodeId goal = map_.id_of(goal_);
  auto lower_through = [&](NodeId node, NodeId via, Cost step) {
    const Cost through = step + heuristic(via);
    if (node != goal && through < heuristic(node) && !same_cost(through, heuristic(node))) {
      learned_h_[node] = through;  // >= octile(node) but for rounding: octile distances are consistent
      next_[node] = via;
      queue.push({heuristic(node), node});
      ++last_heuristic_repairs_;
    }
  };
  for (const NodeId node : touched)
    for_each_move(node, [&](NodeId neighbour, Cost step) { lower_through(node, neighbour, step); });
  while (!queue.empty()) {
    const Lowered top = queue.top();
    queue.pop();
    if (top.h != heuristic(top.node)) continue;  // lowered again since it was queued
    for_each_move(top.node, [&](NodeId neighbour, Cost step) { lower_through(neighbour, top.node, step); });
  }
}

Cost GridAdaptiveReplanner::intact_path_cost(NodeId node, NodeId goal) {
  // MPAA*'s GoalCondition: follow `next` while every step is still a move of the map with
  // h(s) = c(s, next(s)) + h(next(s)). Reaching the goal proves a path of cost h(node). Chains
  // found broken are flagged for the rest of this search, so that cells leading into the same
  // broken path are not followed again (each cell is followed at most once per search).
  chain_.clear();
  Cost along = 0.0;
  NodeId at = node;
  bool intact = false;
  while (true) {
    if (at == goal) {
      intact = true;
      break;
    }
    if (flagged(at, chain_broken)) break;
    chain_.push_back(at);
    const NodeId next = next_[at];
    if (next == invalid_node) break;
    const Cost step = move_cost(at, next);
    if (step == infinite_cost || !same_cost(heuristic(at), step + heuristic(next))) break;
    along += step;
    at = next;
    // h falls by a positive step at every accepted step, so a chain cannot come back to a
    // cell; the bound only guards against that reasoning failing to rounding.
    if (chain_.size() > map_.cell_count()) break;
  }
  if (intact) return along;
  for (const NodeId walked : chain_) {
    touch(walked);
    cells_[walked].flags |= chain_broken;
  }
  return infinite_cost;
}

bool GridAdaptiveReplanner::search(NodeId start, NodeId goal) {
  if (++search_counter_ == 0) {  // the counter wrapped: every stamp may look current
    for (SearchCell& cell : cells_) cell.search = 0;
    search_counter_ = 1;
  }
  const auto set_position = [this](NodeId node, std::uint32_t index) { cells_[node].heap_position = index; };
  open_.clear();
  expanded_.clear();
  touch(start);
  cells_[start].g = 0.0;
  open_.push({open_key(0.0, heuristic(start)), start}, set_position);
  NodeId end = invalid_node;
  Cost rest = 0.0;  // the cost of the reused path from `end` to the goal
  while (!open_.empty()) {
    const NodeId node = open_.pop(set_position).node;
    cells_[node].heap_position = not_queued;
    // MPAA*'s termination: the goal, or a cell on a previous path that still reaches it.
    if (node == goal) {
      end = node;
      break;
    }
    if (next_[node] != invalid_node) {
      const Cost reused = intact_path_cost(node, goal);
      if (reused != infinite_cost) {
        end = node;
        rest = reused;
        break;
      }
    }
    cells_[node].flags |= expanded;
    expanded_.push_back(node);
    const Cost g = cells_[node].g;
    for_each_move(node, [&](NodeId neighbour, Cost step) {
      touch(neighbour);
      SearchCell& cell = cells_[neighbour];
      // A consistent heuristic never finds a cheaper way to an expanded cell: no reopening.
      if ((cell.flags & expanded) || !(g + step < cell.g)) return;
      cell.g = g + step;
      cell.parent = node;
      const std::uint64_t key = open_key(cell.g, cell.g + heuristic(neighbour));
      if (cell.heap_position == not_queued)
        open_.push({key, neighbour}, set_position);
      else
        open_.decrease(cell.heap_position, key, set_position);
    });
  }
  last_expansions_ += expanded_.size();
  if (end == invalid_node) return false;  // nothing is learned from a failed search

  // Adaptive A*'s update (Koenig & Likhachev 2005): with f the cost of the path found, every
  // expanded cell s learns h(s) = f - g(s); g(s) is exact for an expanded cell, so f - g(s) is
  // a lower bound of its cost to the goal, and a consistent one.
  const Cost found = cells_[end].g + (end == goal ? 0.0 : heuristic(end));
  for (const NodeId node : expanded_) learned_h_[node] = std::max(learned_h_[node], found - cells_[node].g);
  // The new path joins the reused one (MPAA*'s path building): next(parent(s)) = s.
  for (NodeId node = end; node != start; node = cells_[node].parent) next_[cells_[node].parent] = node;
  plan_cost_ = cells_[end].g + rest;
  last_reused_path_ = end != goal;
  return true;
}

SearchStatus GridAdaptiveReplanner::plan() {
  last_expansions_ = 0;
  last_heuristic_repairs_ = 0;
  last_reused_path_ = false;
  plan_cost_ = infinite_cost;
  status_ = SearchStatus::no_path;
  message_.clear();
  if (!ends_on_the_map()) {
    status_ = SearchStatus::invalid_input;
    return status_;
  }
  if (!initialised_ || start_over_)
    forget_everything();
  else
    repair_after_changes();
  last_expansions_ = last_heuristic_repairs_;
  if (ends_passable()) {
    if (search(map_.id_of(start_), map_.id_of(goal_)))
      status_ = SearchStatus::found;
    else
      say_unreachable();
  }
  total_expansions_ += last_expansions_;
  return status_;
}

Cost GridAdaptiveReplanner::cost() const { return status_ == SearchStatus::found ? plan_cost_ : infinite_cost; }

Cell GridAdaptiveReplanner::next_cell() const {
  if (status_ != SearchStatus::found || !map_.contains(start_) || start_ == goal_) return start_;
  const NodeId next = next_[map_.id_of(start_)];
  return next == invalid_node ? start_ : map_.cell_of(next);
}

bool GridAdaptiveReplanner::has_plan() const { return status_ == SearchStatus::found && map_.contains(start_); }

std::pair<NodeId, Cost> GridAdaptiveReplanner::next_move(NodeId at) const {
  const NodeId next = next_[at];
  return {next, next == invalid_node ? infinite_cost : move_cost(at, next)};
}

}  // namespace wayfinder
