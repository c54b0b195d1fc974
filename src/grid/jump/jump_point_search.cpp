#include "wayfinder/grid/jump/jump_point_search.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace wayfinder {

std::vector<NodeId> expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points) {
  std::vector<NodeId> cells;
  expand_jump_points(map, jump_points, cells);
  return cells;
}

void expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points, std::vector<NodeId>& cells) {
  cells.clear();
  if (jump_points.empty()) return;
  std::size_t length = 1;
  for (std::size_t i = 1; i < jump_points.size(); ++i) {
    const Cell a = map.cell_of(jump_points[i - 1]);
    const Cell b = map.cell_of(jump_points[i]);
    length += static_cast<std::size_t>(std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)));
  }
  cells.reserve(length);
  cells.push_back(jump_points.front());
  for (std::size_t i = 1; i < jump_points.size(); ++i) {
    Cell at = map.cell_of(jump_points[i - 1]);
    const Cell to = map.cell_of(jump_points[i]);
    // Legs are straight, diagonal, or diagonal then straight (a jump point found by a straight
    // scan from a diagonal step): step diagonally while both coordinates differ.
    while (!(at == to)) {
      at.x += (to.x > at.x) - (to.x < at.x);
      at.y += (to.y > at.y) - (to.y < at.y);
      cells.push_back(map.id_of(at));
    }
  }
}

}  // namespace wayfinder
