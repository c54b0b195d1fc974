#pragma once
// A mesh polygon's edges in order: edge j runs from vertex j to vertex j + 1 (the last one back
// to vertex 0), counter-clockwise seen from above, so the polygon lies to the left of each.

#include <cstddef>
#include <cstdint>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

struct PolygonEdge {
  const Point& a;       ///< where the edge starts
  const Point& b;       ///< where it ends
  PolygonId neighbour;  ///< the polygon across it, or invalid_polygon for a wall
  std::uint32_t index;  ///< j
};

/// Calls visit(PolygonEdge) for every edge of `polygon` (an id below mesh.polygon_count()).
template <class Visit>
inline void for_each_polygon_edge(const NavMesh& mesh, PolygonId polygon, Visit&& visit) {
  const auto indices = mesh.polygon_vertices(polygon);
  const auto neighbours = mesh.polygon_neighbours(polygon);
  for (std::size_t j = 0, n = indices.size(); j < n; ++j)
    visit(PolygonEdge{mesh.vertex(indices[j]), mesh.vertex(indices[j + 1 == n ? 0 : j + 1]), neighbours[j],
                      static_cast<std::uint32_t>(j)});
}

}  // namespace wayfinder
