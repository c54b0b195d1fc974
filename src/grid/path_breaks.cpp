#include "wayfinder/grid/path_breaks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace wayfinder {

namespace {

// Whether the move from `from` to `to` is allowed on the map as it is now: the target passable
// and, for a diagonal, the corner cells as the diagonal rule asks.
std::optional<PathBreak> step_blocked(const GridMap& map, Cell from, Cell to, DiagonalMode diagonal) {
  if (!map.passable(to)) return PathBreak::blocked_cell;
  const int dx = to.x - from.x, dy = to.y - from.y;
  if (dx != 0 && dy != 0 && !diagonal_allowed(diagonal, map.neighbourhood(from.x, from.y), dx, dy))
    return PathBreak::blocked_corner;
  return std::nullopt;
}

}  // namespace

std::optional<BrokenStep> first_blocked_step(const GridMap& map, std::span<const NodeId> path,
                                             std::uint64_t planned_revision, DiagonalMode diagonal) {
  for (std::size_t i = 0; i < path.size(); ++i)
    if (path[i] >= map.cell_count())
      throw std::invalid_argument("path cell id " + std::to_string(path[i]) + " at index " + std::to_string(i) +
                                  " is outside the map");
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Cell a = map.cell_of(path[i]), b = map.cell_of(path[i + 1]);
    if (std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)) != 1)
      throw std::invalid_argument("path steps " + std::to_string(i) + " and " + std::to_string(i + 1) +
                                  " are not neighbouring cells");
  }
  const auto changes = map.changes_since(planned_revision);
  if (!changes) {
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
      if (const auto reason = step_blocked(map, map.cell_of(path[i]), map.cell_of(path[i + 1]), diagonal))
        return BrokenStep{i, *reason};
    return BrokenStep{0, PathBreak::unknown_history};
  }
  if (changes->empty() || path.size() < 2) return std::nullopt;

  // Each changed cell's cost when the path was planned: the first change after the planning
  // revision says what was there then (0: blocked).
  std::unordered_map<NodeId, float> planned_cost;
  planned_cost.reserve(changes->size());
  for (const GridCellChange& change : *changes) planned_cost.emplace(map.id_of(change.cell), change.cost_before);

  auto changed = [&](int x, int y) { return map.contains(x, y) && planned_cost.contains(map.id_of(x, y)); };
  auto cost_then = [&](NodeId id) {
    const auto found = planned_cost.find(id);
    return found == planned_cost.end() ? map.cost(id) : found->second;
  };
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Cell a = map.cell_of(path[i]), b = map.cell_of(path[i + 1]);
    const bool diagonal_step = a.x != b.x && a.y != b.y;
    const bool touched = changed(a.x, a.y) || changed(b.x, b.y) ||
                         (diagonal_step && (changed(b.x, a.y) || changed(a.x, b.y)));
    if (!touched) continue;
    if (const auto reason = step_blocked(map, a, b, diagonal)) return BrokenStep{i, *reason};
    // The step's cost is its length times the mean of its two cells' costs (grid_move_cost).
    if (map.cost(path[i]) + map.cost(path[i + 1]) > cost_then(path[i]) + cost_then(path[i + 1]))
      return BrokenStep{i, PathBreak::cost_grew};
  }
  return std::nullopt;
}

}  // namespace wayfinder
