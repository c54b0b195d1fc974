#include "wayfinder/grid/grid_flow_field.hpp"

#include <memory>

#include "wayfinder/core/bit_copy.hpp"
#include "wayfinder/core/indexed_heap.hpp"

namespace wayfinder {

namespace {

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

// Move lengths by direction bit (dy + 1) * 3 + (dx + 1).
constexpr Cost move_lengths[9] = {sqrt2, 1.0, sqrt2, 1.0, 0.0, 1.0, sqrt2, 1.0, sqrt2};

}  // namespace

std::string_view to_string(FlowFieldStatus status) {
  switch (status) {
    case FlowFieldStatus::empty: return "empty";
    case FlowFieldStatus::built: return "built";
    case FlowFieldStatus::invalid_input: return "invalid_input";
  }
  return "unknown";
}

FlowFieldStatus GridFlowField::reject(std::string why) {
  // Nothing of an earlier build may survive a rejected one: with the sides at 0 every cell is
  // outside the field, so every query answers "unreachable".
  status_ = FlowFieldStatus::invalid_input;
  message_ = std::move(why);
  width_ = 0;
  height_ = 0;
  goals_.clear();
  costs_.clear();
  directions_.clear();
  goal_indices_.clear();
  reachable_count_ = 0;
  return status_;
}

FlowFieldStatus GridFlowField::build(const GridMap& map, std::span<const Cell> goals, const GridFlowFieldOptions& options) {
  // Options may come from casts of untrusted numbers (bindings, files): check the enum.
  if (static_cast<unsigned>(options.diagonal) > static_cast<unsigned>(DiagonalMode::always))
    return reject("unknown diagonal mode " + std::to_string(static_cast<unsigned>(options.diagonal)));
  if (map.cell_count() == 0) return reject("the map is empty");
  if (goals.empty()) return reject("a flow field needs at least one goal");
  // Goal indices are stored in 32 bits. A longer list must repeat goals (a map has at most
  // 2^28 cells); it is refused rather than have indices wrap around.
  if (goals.size() > std::size_t{0xFFFFFFFFu}) return reject("more than 2^32 - 1 goals");
  const std::string size_text = std::to_string(map.width()) + "x" + std::to_string(map.height());
  for (std::size_t i = 0; i < goals.size(); ++i) {
    const Cell goal = goals[i];
    if (!map.contains(goal))
      return reject("goal " + std::to_string(i) + " " + cell_text(goal) + " is outside the " + size_text + " map");
    if (!map.passable(goal)) return reject("goal " + std::to_string(i) + " " + cell_text(goal) + " is blocked");
  }

  status_ = FlowFieldStatus::built;
  message_.clear();
  width_ = map.width();
  height_ = map.height();
  diagonal_ = options.diagonal;
  goals_.assign(goals.begin(), goals.end());
  const std::size_t count = map.cell_count();
  costs_.assign(count, infinite_cost);
  directions_.resize(count);
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x)
      directions_[map.id_of(x, y)] = map.passable_unchecked(x, y) ? unreachable_cell : blocked_cell;
  if (goals.size() > 1)
    goal_indices_.assign(count, 0);
  else
    goal_indices_.clear();
  reachable_count_ = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      // Unsigned wrap-around makes id + offset the neighbour for negative steps too.
      offsets_[(dy + 1) * 3 + (dx + 1)] = static_cast<NodeId>(dy) * static_cast<NodeId>(width_) + static_cast<NodeId>(dx);

  if (map.uniform_cost())
    search<true>(map);
  else
    search<false>(map);
  return status_;
}

// Dijkstra's algorithm from every goal at once. The open list is the library's indexed binary
// heap with decrease-key (core/indexed_heap.hpp), so it holds at most one entry per open cell
// (the frontier, not every relaxation as a lazy-deletion queue would). A bucket queue (Dial
// 1969) needs integer costs, and terrain costs here are any positive floats times 1 or sqrt 2;
// a radix heap (Ahuja, Mehlhorn, Orlin & Tarjan 1990) would fit Dijkstra's monotone keys but is
// one more structure to keep for a build that is already a few milliseconds on 512 x 512.
//
// The key is the exact bit pattern of the cost (non-negative doubles sort like their bit
// patterns), not the rounded priority A* uses: the settling order is then exactly by cost, so
// every cell is settled at its cheapest cost and never again.
template <bool UniformCost>
void GridFlowField::search(const GridMap& map) {
  const std::size_t count = map.cell_count();
  // Heap positions are written for every entry the heap moves and read only for open cells, so
  // the array needs no initialisation.
  // (What std::make_unique_for_overwrite does, which emscripten 3.1.6's libc++ lacks.)
  const auto positions = std::unique_ptr<std::uint32_t[]>(new std::uint32_t[count]);
  const auto set_position = [&positions](NodeId node, std::uint32_t position) { positions[node] = position; };
  IndexedHeap open;
  const bool several_goals = goals_.size() > 1;

  for (std::size_t i = 0; i < goals_.size(); ++i) {
    const NodeId id = map.id_of(goals_[i]);
    if (directions_[id] == at_goal) continue;  // a repeated goal: cells lead to its first occurrence
    costs_[id] = 0.0;
    directions_[id] = at_goal;
    if (several_goals) goal_indices_[id] = static_cast<std::uint32_t>(i);
    open.push({0, id}, set_position);
  }

  while (!open.empty()) {
    const NodeId node = open.pop(set_position).node;
    ++reachable_count_;
    const Cost here = costs_[node];
    const Cell at = map.cell_of(node);
    // Cells are settled in order of cost and every move costs more than 0, so a settled cell
    // never passes the test below: no closed flags are needed.
    std::uint32_t moves = allowed_moves(diagonal_, map.neighbourhood(at.x, at.y));
    while (moves != 0) {
      const int bit = std::countr_zero(moves);
      moves &= moves - 1;
      const NodeId next = node + offsets_[bit];
      // The same expression as GridDomain's, so the costs agree with A*'s to the last bit of
      // each move.
      Cost step = move_lengths[bit];
      if constexpr (!UniformCost)
        step = step * 0.5 * (static_cast<double>(map.cost(node)) + static_cast<double>(map.cost(next)));
      const Cost candidate = here + step;
      Cost& best = costs_[next];
      if (!(candidate < best)) continue;
      const bool unseen = best == infinite_cost;
      best = candidate;
      // The agent at `next` moves back along this move: the opposite bit.
      directions_[next] = static_cast<std::uint8_t>(8 - bit);
      if (several_goals) goal_indices_[next] = goal_indices_[node];
      const std::uint64_t key = bit_copy<std::uint64_t>(candidate);
      if (unseen)
        open.push({key, next}, set_position);
      else
        open.decrease(positions[next], key, set_position);
    }
  }
}

PathResult GridFlowField::path_from(Cell start) const {
  if (status_ != FlowFieldStatus::built)
    return PathResult::invalid("the flow field is not built (status " + std::string(to_string(status_)) + ")");
  if (!contains(start))
    return PathResult::invalid("start " + cell_text(start) + " is outside the " + std::to_string(width_) + "x" +
                               std::to_string(height_) + " map");
  PathResult result;
  const NodeId first = static_cast<NodeId>(id_of(start));
  if (directions_[first] == blocked_cell) return PathResult::invalid("start " + cell_text(start) + " is blocked");
  if (directions_[first] == unreachable_cell) {
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    return result;
  }
  for (NodeId id = first;; id = next_node(id)) {
    result.nodes.push_back(id);
    if (directions_[id] == at_goal) break;
  }
  result.points.reserve(result.nodes.size());
  for (const NodeId id : result.nodes)
    result.points.push_back(GridMap::centre({static_cast<int>(id % static_cast<NodeId>(width_)),
                                             static_cast<int>(id / static_cast<NodeId>(width_))}));
  result.status = SearchStatus::found;
  result.reason = StopReason::goal_reached;
  result.cost = costs_[first];
  return result;
}

}  // namespace wayfinder
