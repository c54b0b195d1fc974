#pragma once
// Debug pictures of voxel searches: a top-down view of the world, each column shaded by the
// height of its highest block (water and ladders in their own colours), the columns a search
// expanded tinted, the path drawn over them, the start and goal marked with the grid picture's
// markers (a dark disc for the start, a dark diamond for the goal), and a legend below.
//
// A height range limits the view to one floor or cave level: a column is shaded by its highest
// block inside the range, and only the explored blocks and path steps inside it are marked
// (the rest of the path is drawn dashed and faint, so the route stays readable).

#include <filesystem>
#include <limits>
#include <string>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

struct VoxelSvgOptions {
  std::string title;
  /// A search's trace: the columns of its expanded nodes are tinted. May be null.
  const SearchTrace* trace = nullptr;
  /// Only blocks with min_y <= y <= max_y are drawn (see above); the defaults show them all.
  int min_y = std::numeric_limits<int>::min();
  int max_y = std::numeric_limits<int>::max();
  bool show_legend = true;
};

/// The picture as SVG text. `result.nodes` are the path's node ids (may be empty).
std::string render_voxel_svg(const VoxelWorld& world, const PathResult& result, VoxelCoord start, VoxelCoord goal,
                             const VoxelSvgOptions& options = {});

/// Writes render_voxel_svg() to a file; throws std::runtime_error if it cannot be written.
void write_voxel_svg(const std::filesystem::path& path, const VoxelWorld& world, const PathResult& result,
                     VoxelCoord start, VoxelCoord goal, const VoxelSvgOptions& options = {});

}  // namespace wayfinder
