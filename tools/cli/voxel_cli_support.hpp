#pragma once
// Shared pieces of the `wayfinder voxel` commands: loading a world by its file extension,
// "X,Y,Z" positions. (The picture of a query is render_voxel_svg, in the library.)

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/voxel/voxel_pathfinder.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::cli {

/// A .vox (MagicaVoxel) or .3dmap (MovingAI voxel benchmark) file; throws LoadError for
/// unreadable or malformed files and for other extensions.
VoxelWorld load_voxel_world(const std::string& path);

/// "X,Y,Z" (spaces allowed around the numbers); nullopt unless all three are integers.
std::optional<VoxelCoord> parse_voxel_coord(std::string_view text);
std::string format_voxel_coord(VoxelCoord at);
/// `--name X,Y,Z`, stored in `target`.
CLI::Option* add_voxel_coord_option(CLI::App& command, const std::string& name, VoxelCoord& target,
                                    const std::string& description);

}  // namespace wayfinder::cli
