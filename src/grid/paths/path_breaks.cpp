#include "wayfinder/grid/paths/path_breaks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace wayfinder {

namespace {

// Passable on the map as it is now, and not excluded by the filter.
bool usable(const GridMap& map, Cell c, const AreaFilter* filter) {
  return map.passable(c) && (filter == nullptr || filter->passes(map.area(c), map.flags(c)));
}

// Whether the move from `from` to `to` is allowed on the map as it is now: the target usable
// and, for a diagonal, the corner cells as the diagonal rule asks (excluded cells count as
// blocked there too, as GridDomain counts them).
std::optional<PathBreak> step_blocked(const GridMap& map, Cell from, Cell to, DiagonalMode diagonal,
                                      const AreaFilter* filter) {
  if (!usable(map, to, filter)) return PathBreak::blocked_cell;
  const int dx = to.x - from.x, dy = to.y - from.y;
  if (dx != 0 && dy != 0) {
    std::uint32_t around = map.neighbourhood(from.x, from.y);
    if (!usable(map, {from.x + dx, from.y}, filter)) around &= ~(1u << (4 + dx));
    if (!usable(map, {from.x, from.y + dy}, filter)) around &= ~(1u << (4 + 3 * dy));
    if (!diagonal_allowed(diagonal, around, dx, dy)) return PathBreak::blocked_corner;
  }
  return std::nullopt;
}

// A cell's cost to a query: terrain times the filter's area multiplier.
double filtered_cost(float terrain, AreaId area, const AreaFilter* filter) {
  return static_cast<double>(terrain) * (filter == nullptr ? 1.0 : static_cast<double>(filter->cost(area)));
}

}  // namespace

std::optional<BrokenStep> first_blocked_step(const GridMap& map, std::span<const NodeId> path,
                                             std::uint64_t planned_revision, DiagonalMode diagonal,
                                             const AreaFilter* filter) {
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
      if (const auto reason = step_blocked(map, map.cell_of(path[i]), map.cell_of(path[i + 1]), diagonal, filter))
        return BrokenStep{i, *reason};
    return BrokenStep{0, PathBreak::unknown_history};
  }
  if (changes->empty() || path.size() < 2) return std::nullopt;

  // Each changed cell's cost when the path was planned: the first change after the planning
  // revision says what was there then (terrain 0: blocked).
  std::unordered_map<NodeId, double> planned_cost;
  planned_cost.reserve(changes->size());
  for (const GridCellChange& change : *changes)
    planned_cost.emplace(map.id_of(change.cell), filtered_cost(change.cost_before, change.area_before, filter));

  auto changed = [&](int x, int y) { return map.contains(x, y) && planned_cost.contains(map.id_of(x, y)); };
  auto cost_now = [&](NodeId id) { return filtered_cost(map.cost(id), map.area(map.cell_of(id)), filter); };
  auto cost_then = [&](NodeId id) {
    const auto found = planned_cost.find(id);
    return found == planned_cost.end() ? cost_now(id) : found->second;
  };
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Cell a = map.cell_of(path[i]), b = map.cell_of(path[i + 1]);
    const bool diagonal_step = a.x != b.x && a.y != b.y;
    const bool touched = changed(a.x, a.y) || changed(b.x, b.y) ||
                         (diagonal_step && (changed(b.x, a.y) || changed(a.x, b.y)));
    if (!touched) continue;
    if (const auto reason = step_blocked(map, a, b, diagonal, filter)) return BrokenStep{i, *reason};
    // The step's cost is its length times the mean of its two cells' costs (grid_move_cost).
    if (cost_now(path[i]) + cost_now(path[i + 1]) > cost_then(path[i]) + cost_then(path[i + 1]))
      return BrokenStep{i, PathBreak::cost_grew};
  }
  return std::nullopt;
}

}  // namespace wayfinder
