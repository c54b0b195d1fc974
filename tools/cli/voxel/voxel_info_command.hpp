#pragma once
// `wayfinder voxel info FILE`: a first look at a voxel world (.vox or .3dmap): its size, how
// many blocks of each kind it holds, the .vox palette colours it uses, and a few places spread
// over it where the agent can be, ready to paste into `wayfinder voxel path --from ... --to ...`.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <ostream>
#include <string>

#include "voxel/voxel_cli_support.hpp"

namespace wayfinder::cli {

struct VoxelInfoArguments {
  std::string world_path;
  VoxelProfileArguments profile;
  VoxelColourArguments colours;
  std::optional<int> places;  ///< how many places to list (default 10)
  bool json = false;
};

void configure_voxel_info_command(CLI::App& command, VoxelInfoArguments& arguments);

/// Returns 0; throws LoadError for unreadable or malformed files and std::invalid_argument for
/// options that do not fit the file.
int run_voxel_info_command(const VoxelInfoArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
