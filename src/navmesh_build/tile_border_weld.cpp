#include "navmesh_build/tile_border_weld.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace wayfinder {

std::size_t split_edges_at_border_vertices(std::vector<std::vector<std::uint32_t>>& polygons,
                                           const std::vector<VoxelCorner>& corners, int tile_size, int climb) {
  if (tile_size <= 0) return 0;
  // The corners on each border line, sorted along it: lines x = k * tile run along z, lines
  // z = k * tile along x.
  std::map<int, std::vector<std::uint32_t>> on_x_line, on_z_line;
  for (std::uint32_t id = 0; id < corners.size(); ++id) {
    if (corners[id][0] % tile_size == 0) on_x_line[corners[id][0]].push_back(id);
    if (corners[id][2] % tile_size == 0) on_z_line[corners[id][2]].push_back(id);
  }
  for (auto& [line, ids] : on_x_line)
    std::sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) { return corners[a][2] < corners[b][2]; });
  for (auto& [line, ids] : on_z_line)
    std::sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) { return corners[a][0] < corners[b][0]; });

  std::size_t added = 0;
  std::vector<std::uint32_t> split;
  for (auto& polygon : polygons) {
    split.clear();
    for (std::size_t j = 0; j < polygon.size(); ++j) {
      const std::uint32_t a = polygon[j], b = polygon[(j + 1) % polygon.size()];
      split.push_back(a);
      const VoxelCorner& from_corner = corners[a];
      const VoxelCorner& to_corner = corners[b];
      const std::vector<std::uint32_t>* line = nullptr;
      int axis = 0;  // the coordinate that varies along the edge
      if (from_corner[0] == to_corner[0] && from_corner[0] % tile_size == 0) {
        line = &on_x_line[from_corner[0]];
        axis = 2;
      } else if (from_corner[2] == to_corner[2] && from_corner[2] % tile_size == 0) {
        line = &on_z_line[from_corner[2]];
        axis = 0;
      }
      if (line == nullptr) continue;
      const int from = from_corner[axis], to = to_corner[axis];
      const std::size_t before = split.size();
      for (const std::uint32_t c : *line) {
        const int at = corners[c][axis];
        if (!(std::min(from, to) < at && at < std::max(from, to))) continue;
        const double edge_height = from_corner[1] + static_cast<double>(to_corner[1] - from_corner[1]) *
                                                        static_cast<double>(at - from) / static_cast<double>(to - from);
        if (std::abs(corners[c][1] - edge_height) > climb) continue;
        split.push_back(c);
      }
      // The line's corners come in increasing order; the edge may run the other way.
      if (from > to) std::reverse(split.begin() + static_cast<std::ptrdiff_t>(before), split.end());
      added += split.size() - before;
    }
    if (split.size() != polygon.size()) polygon = split;
  }
  return added;
}

}  // namespace wayfinder
