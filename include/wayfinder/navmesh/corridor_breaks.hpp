#pragma once
// Has the mesh changed under a corridor? An agent walking a planned path asks, after edits to
// polygons' areas and flags (a door closing, a swamp flooding), whether and where its
// corridor is broken for its filter, and replans only then. Only the polygons the change log
// lists since the corridor was planned are looked at, so the check costs O(changes + corridor)
// and nothing when nothing changed. The mesh's counterpart of grid/path_breaks.hpp.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

enum class CorridorBreak : std::uint8_t {
  excluded_polygon,  ///< the polygon's area or flags are now ones the filter excludes
  cost_grew,         ///< the polygon's area now costs more under the filter than when planned
  unknown_history,   ///< the change log no longer reaches back to the planning revision, and
                     ///< every polygon passes the filter as the mesh is: costs may have
                     ///< changed unseen
  tile_replaced,     ///< the polygon's tile was replaced or removed (NavMesh::replace_tile): the
                     ///< polygon may now be another, or none
};

struct BrokenCorridor {
  /// The index in the corridor of the first polygon affected (0 is the start's polygon).
  std::size_t index = 0;
  CorridorBreak reason = CorridorBreak::excluded_polygon;
};

/// The first polygon of `corridor` (polygon ids of `mesh`, start first, as NavMeshQuery's
/// PathResult::nodes) that edits made after `planned_revision` (the mesh's revision() when the
/// corridor was planned) broke for `filter`, the filter the corridor was planned with (null:
/// none, so that only a filter's view of areas and flags can break a corridor, and without one
/// nothing does): a polygon the filter now excludes, or one whose area's multiplier grew.
/// Nullopt when no polygon is affected (a cheaper area does not break a corridor, though a
/// better one may now exist). When the change log no longer reaches back that far, the whole
/// corridor is checked against the mesh as it is: an excluded polygon is reported as such,
/// otherwise the answer is unknown_history at index 0 (replan to be sure).
/// An agent partway along checks the rest: corridor.subspan(k).
/// On a tiled mesh, a polygon whose tile changed after `planned_revision` is reported first
/// (tile_replaced); when the log no longer reaches back, consecutive polygons that are no longer
/// neighbours are (a tile between them changed).
/// Throws std::invalid_argument if a polygon id is outside the mesh, consecutive polygons are
/// not neighbours (of an untiled mesh, or of tiles that did not change), or the filter has a
/// problem (AreaFilter::problem).
[[nodiscard]] std::optional<BrokenCorridor> first_blocked_polygon(const NavMesh& mesh,
                                                                  std::span<const PolygonId> corridor,
                                                                  std::uint64_t planned_revision,
                                                                  const AreaFilter* filter = nullptr);

}  // namespace wayfinder
