#include "local_walls.hpp"

#include <algorithm>

namespace wayfinder::crowd_detail {

void gather_walls(const NavMesh& mesh, PolygonId polygon, PlanarVector centre, double range, const AreaFilter* filter,
                  std::size_t max_polygons, WallSearchScratch& scratch, std::vector<WallSegment>& walls) {
  scratch.open.assign(1, polygon);
  scratch.seen.assign(1, polygon);
  const double range_squared = range * range;
  for (std::size_t next = 0; next < scratch.open.size(); ++next) {
    const PolygonId current = scratch.open[next];
    const auto corners = mesh.polygon_vertices(current);
    const auto neighbours = mesh.polygon_neighbours(current);
    for (std::size_t j = 0; j < corners.size(); ++j) {
      const Point& from = mesh.vertex(corners[j]);
      const Point& to = mesh.vertex(corners[(j + 1) % corners.size()]);
      const PlanarVector a{from.x, from.z}, b{to.x, to.z};
      if (distance_squared_to_segment(centre, a, b) > range_squared) continue;
      const PolygonId beyond = neighbours[j];
      const bool open = beyond != invalid_polygon && (filter == nullptr || filter->passes(mesh.area(beyond), mesh.flags(beyond)));
      if (!open) {
        if (determinant(b - a, centre - a) >= 0.0) walls.push_back({a, b});
        continue;
      }
      if (std::find(scratch.seen.begin(), scratch.seen.end(), beyond) != scratch.seen.end()) continue;
      if (scratch.seen.size() >= max_polygons) continue;
      scratch.seen.push_back(beyond);
      scratch.open.push_back(beyond);
    }
  }
}

}  // namespace wayfinder::crowd_detail
