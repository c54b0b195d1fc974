#pragma once
// `wayfinder voxel path FILE --from X,Y,Z --to X,Y,Z ...`: one query in a voxel world (.vox or
// .3dmap), for a walking or a flying agent, printed as text or JSON, optionally drawn as SVG.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "voxel/voxel_cli_support.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder::cli {

struct VoxelPathArguments {
  std::string world_path;
  VoxelCoord from;
  VoxelCoord to;
  VoxelProfileArguments profile;
  VoxelColourArguments colours;
  VoxelSearchOptions search;
  bool weight_given = false;  ///< --weight was given (jump point search refuses it)
  /// hpa: the side of the hierarchy's clusters (the hierarchy is built before the query).
  std::uint64_t cluster_size = 16;
  std::uint64_t max_expansions = Budget::unlimited_expansions;
  /// Move a start or goal where the agent cannot be to the nearest place within this many blocks.
  std::optional<int> snap;
  bool full_path = false;  ///< --full-path: every move in the text output
  std::string svg_path;
  /// Heights drawn in the picture (`--y-range MIN,MAX`).
  std::optional<std::pair<int, int>> y_range;
  bool json = false;
};

void configure_voxel_path_command(CLI::App& command, VoxelPathArguments& arguments);

/// Returns 0 when a path was found, 1 when not, 2 for an invalid query; throws LoadError for
/// unreadable files and std::invalid_argument for options that do not fit the world.
int run_voxel_path_command(const VoxelPathArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
