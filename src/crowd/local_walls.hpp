#pragma once
// The walls around an agent: the boundary edges of the navigation mesh near it (edges with no
// neighbour polygon, or whose neighbour the agent's filter excludes), found by walking from the
// agent's polygon across shared edges that come within the search range, as Detour's crowd
// gathers its local boundary. Walking only across open edges keeps the walls of other floors
// and of rooms behind a wall out.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/crowd/orca.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::crowd_detail {

/// A wall edge, walkable side on the left of a -> b.
struct WallSegment {
  PlanarVector a;
  PlanarVector b;
};

/// Scratch memory for gather_walls, reused across calls.
struct WallSearchScratch {
  std::vector<PolygonId> open;
  std::vector<PolygonId> seen;
};

/// The squared distance (x-z) from `p` to the segment a-b (inline: the wall searches call it
/// for every edge they look at).
[[nodiscard]] inline double distance_squared_to_segment(PlanarVector p, PlanarVector a, PlanarVector b) {
  const PlanarVector edge = b - a;
  const double edge_squared = edge.length_squared();
  const double t = edge_squared > 0.0 ? std::clamp(dot(p - a, edge) / edge_squared, 0.0, 1.0) : 0.0;
  return (a + t * edge - p).length_squared();
}

/// Appends to `walls` every wall edge within `range` (x-z) of `centre` reachable from `polygon`
/// (which holds `centre`) that faces the centre (the centre on its walkable side), looking at
/// no more than `max_polygons` polygons. Edges are listed in the order the walk meets them.
void gather_walls(const NavMesh& mesh, PolygonId polygon, PlanarVector centre, double range, const AreaFilter* filter,
                  std::size_t max_polygons, WallSearchScratch& scratch, std::vector<WallSegment>& walls);

}  // namespace wayfinder::crowd_detail
