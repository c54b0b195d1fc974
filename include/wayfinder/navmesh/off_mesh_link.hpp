#pragma once
// Off-mesh links: connections between two points of a navigation mesh that agents take without
// walking the floor between them (a jump down a ledge, a ladder, a teleporter), after Detour's
// off-mesh connections (Mononen, dtOffMeshConnection). A link is given by its two end points;
// NavMesh::build (or NavMesh::add_off_mesh_link) puts each end on the polygon under it, and the
// corridor search may then go from the polygon holding the start to the polygon holding the
// end (and back, for a two-way link) at the link's cost.

#include <cstdint>
#include <optional>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

using OffMeshLinkId = std::uint32_t;

/// A link as a program or a file gives it (MeshGeometry::off_mesh_links,
/// NavMesh::add_off_mesh_link).
struct OffMeshLink {
  Point start;
  Point end;
  /// How far (3D) an end may lie from the mesh and still be put onto it: an end within the
  /// mesh's height tolerance above or below a polygon stands on that polygon; otherwise it moves
  /// to the nearest mesh point within this radius (Detour's connection radius).
  double radius = 1.0;
  /// Two-way (a ladder) or one-way, start to end only (a jump down a ledge).
  bool bidirectional = true;
  /// What taking the link costs before its area's multiplier. Nothing: its length (the 3D
  /// distance between its placed ends), as Detour prices its connections. A cost below that
  /// length is raised to it, so that the corridor search's straight-line heuristic stays
  /// admissible (docs/navmesh.md, "Off-mesh links"). Must be finite and non-negative.
  std::optional<double> cost;
  /// The link's area and flags, read by a query's AreaFilter like a polygon's: a filter that
  /// excludes them keeps the link out of the search, and the area's multiplier scales its cost.
  AreaId area = 0;
  AreaFlags flags = 0;
  /// The caller's own number for the link (returned as it was given).
  std::uint32_t user_id = 0;
  /// The file line the link came from, 0 when unknown; errors name it.
  int line = 0;
};

/// A link as the mesh keeps it: as given, with its ends placed on polygons and its cost settled.
struct PlacedOffMeshLink {
  OffMeshLink input;
  std::uint32_t start_polygon = invalid_node;  ///< the polygon (PolygonId) holding the start
  std::uint32_t end_polygon = invalid_node;    ///< the polygon holding the end
  Point start;  ///< the start, on the mesh
  Point end;    ///< the end, on the mesh
  /// The cost of taking the link in either direction, before its area's multiplier: the given
  /// cost raised to the 3D distance between the placed ends, or that distance.
  double cost = 0.0;
};

}  // namespace wayfinder
