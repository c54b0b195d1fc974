#include "wayfinder/navmesh/corridor_breaks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace wayfinder {

namespace {

// The corridor must be one a query could have returned, or the answer means nothing.
void check_polygon_ids(const NavMesh& mesh, std::span<const PolygonId> corridor) {
  for (std::size_t i = 0; i < corridor.size(); ++i)
    if (corridor[i] >= mesh.polygon_count())
      throw std::invalid_argument("corridor polygon " + std::to_string(corridor[i]) + " at index " +
                                  std::to_string(i) + " is outside the mesh (it has " +
                                  std::to_string(mesh.polygon_count()) + " polygons)");
}

// The index of the first polygon not followed by one of its neighbours, if any.
std::optional<std::size_t> first_unjoined(const NavMesh& mesh, std::span<const PolygonId> corridor) {
  for (std::size_t i = 0; i + 1 < corridor.size(); ++i) {
    const auto neighbours = mesh.polygon_neighbours(corridor[i]);
    if (std::find(neighbours.begin(), neighbours.end(), corridor[i + 1]) == neighbours.end()) return i;
  }
  return std::nullopt;
}

void check_joined(const NavMesh& mesh, std::span<const PolygonId> corridor) {
  if (const auto i = first_unjoined(mesh, corridor))
    throw std::invalid_argument("corridor polygons " + std::to_string(corridor[*i]) + " and " +
                                std::to_string(corridor[*i + 1]) + " (indices " + std::to_string(*i) + " and " +
                                std::to_string(*i + 1) + ") are not neighbours");
}

}  // namespace

std::optional<BrokenCorridor> first_blocked_polygon(const NavMesh& mesh, std::span<const PolygonId> corridor,
                                                    std::uint64_t planned_revision, const AreaFilter* filter) {
  check_polygon_ids(mesh, corridor);
  const auto changes = mesh.changes_since(planned_revision);
  if (changes) {
    // A replaced tile first: the corridor's polygons there may not even be neighbours now.
    std::unordered_set<PolygonId> replaced;
    for (const NavMeshPolygonChange& change : *changes)
      if (change.tile_replaced) replaced.insert(change.polygon);
    if (!replaced.empty())
      for (std::size_t i = 0; i < corridor.size(); ++i)
        if (replaced.contains(corridor[i])) return BrokenCorridor{i, CorridorBreak::tile_replaced};
  } else if (mesh.is_tiled()) {
    if (const auto i = first_unjoined(mesh, corridor)) return BrokenCorridor{*i, CorridorBreak::tile_replaced};
  }
  check_joined(mesh, corridor);
  const AreaFilter no_filter;
  const AreaFilter& used = filter != nullptr ? *filter : no_filter;
  if (const auto problem = used.problem()) throw std::invalid_argument(*problem);
  auto excluded_now = [&](PolygonId polygon) { return !used.passes(mesh.area(polygon), mesh.flags(polygon)); };

  if (!changes) {
    for (std::size_t i = 0; i < corridor.size(); ++i)
      if (excluded_now(corridor[i])) return BrokenCorridor{i, CorridorBreak::excluded_polygon};
    return BrokenCorridor{0, CorridorBreak::unknown_history};
  }
  if (changes->empty()) return std::nullopt;

  // Each changed polygon's area when the corridor was planned: the first change after the
  // planning revision says what was there then.
  std::unordered_map<PolygonId, AreaId> planned_area;
  planned_area.reserve(changes->size());
  for (const NavMeshPolygonChange& change : *changes) planned_area.emplace(change.polygon, change.area_before);
  for (std::size_t i = 0; i < corridor.size(); ++i) {
    const auto then = planned_area.find(corridor[i]);
    if (then == planned_area.end()) continue;
    if (excluded_now(corridor[i])) return BrokenCorridor{i, CorridorBreak::excluded_polygon};
    if (used.cost(mesh.area(corridor[i])) > used.cost(then->second)) return BrokenCorridor{i, CorridorBreak::cost_grew};
  }
  return std::nullopt;
}

}  // namespace wayfinder
