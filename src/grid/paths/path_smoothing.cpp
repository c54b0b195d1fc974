#include "wayfinder/grid/paths/path_smoothing.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace wayfinder {

bool line_of_sight(const GridMap& map, Cell from, Cell to) {
  if (!map.passable(from) || !map.passable(to)) return false;
  // Walk the cells the centre-to-centre segment crosses (Amanatides & Woo 1987, "A fast voxel
  // traversal algorithm"), comparing boundary crossing times exactly in integers: the next
  // vertical boundary is crossed at t = (1 + 2i) / (2|dx|), the next horizontal one at
  // (1 + 2j) / (2|dy|). A tie is a corner, where both side cells must be free too.
  const std::int64_t ax = std::abs(to.x - from.x);
  const std::int64_t ay = std::abs(to.y - from.y);
  const int sx = to.x > from.x ? 1 : -1;
  const int sy = to.y > from.y ? 1 : -1;
  Cell at = from;
  std::int64_t i = 0;
  std::int64_t j = 0;
  while (!(at == to)) {
    const std::int64_t x_time = ax == 0 ? INT64_MAX : (1 + 2 * i) * ay;
    const std::int64_t y_time = ay == 0 ? INT64_MAX : (1 + 2 * j) * ax;
    if (x_time < y_time) {
      at.x += sx;
      ++i;
    } else if (y_time < x_time) {
      at.y += sy;
      ++j;
    } else {
      if (!map.passable(at.x + sx, at.y) || !map.passable(at.x, at.y + sy)) return false;
      at.x += sx;
      at.y += sy;
      ++i;
      ++j;
    }
    if (!map.passable(at)) return false;
  }
  return true;
}

std::vector<Point> smooth_path(const GridMap& map, const std::vector<NodeId>& cells) {
  std::vector<Point> waypoints;
  if (cells.empty()) return waypoints;
  Cell anchor = map.cell_of(cells.front());
  waypoints.push_back(GridMap::centre(anchor));
  for (std::size_t k = 1; k + 1 < cells.size(); ++k) {
    // Keep cells[k] as a waypoint only if the anchor cannot see the cell after it.
    if (!line_of_sight(map, anchor, map.cell_of(cells[k + 1]))) {
      anchor = map.cell_of(cells[k]);
      waypoints.push_back(GridMap::centre(anchor));
    }
  }
  if (cells.size() > 1) waypoints.push_back(GridMap::centre(map.cell_of(cells.back())));
  return waypoints;
}

}  // namespace wayfinder
