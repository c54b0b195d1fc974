#pragma once
// Debug pictures of voxel searches: a top-down view of the world, each column shaded by the
// height of its highest block (water and ladders in their own colours), the columns a search
// expanded tinted, the path drawn over them and the start and goal marked.

#include <filesystem>
#include <string>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

struct VoxelSvgOptions {
  std::string title;
  /// A search's trace: the columns of its expanded nodes are tinted. May be null.
  const SearchTrace* trace = nullptr;
};

/// The picture as SVG text. `result.nodes` are the path's node ids (may be empty).
std::string render_voxel_svg(const VoxelWorld& world, const PathResult& result, VoxelCoord start, VoxelCoord goal,
                             const VoxelSvgOptions& options = {});

/// Writes render_voxel_svg() to a file; throws std::runtime_error if it cannot be written.
void write_voxel_svg(const std::filesystem::path& path, const VoxelWorld& world, const PathResult& result,
                     VoxelCoord start, VoxelCoord goal, const VoxelSvgOptions& options = {});

}  // namespace wayfinder
