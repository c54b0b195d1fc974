#pragma once
// Shared pieces of the `wayfinder voxel` commands: loading a world by its file extension (with
// the .vox colour mapping options), the movement profile options, "X,Y,Z" positions. (The
// picture of a query is render_voxel_svg, in the library.)

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::cli {

/// True for a MovingAI voxel benchmark map (.3dmap), whose worlds are made for flying agents.
bool is_voxel_benchmark_map(const std::string& path);

/// A .vox (MagicaVoxel) or .3dmap (MovingAI voxel benchmark) file; throws LoadError for
/// unreadable or malformed files and for other extensions.
VoxelWorld load_voxel_world(const std::string& path);

/// `--water-colours LIST` and `--ladder-colours LIST`: .vox colour indices read as water or
/// ladder blocks instead of solid ones.
struct VoxelColourArguments {
  std::vector<int> water;
  std::vector<int> ladder;
};
void add_voxel_colour_options(CLI::App& command, VoxelColourArguments& arguments);

struct LoadedVoxelWorld {
  VoxelWorld world;
  /// The palette and colour counts of a .vox file; empty for a .3dmap.
  std::optional<VoxFileInfo> vox;
  /// The block kind each colour index was read as.
  VoxReadOptions colours;
  /// Things the user may want to know, e.g. a mapped colour that the file does not use.
  std::vector<std::string> warnings;
};

/// Loads a world with the colour mapping applied. Throws LoadError as load_voxel_world, and
/// std::invalid_argument for a colour in both lists or colour options on a .3dmap.
LoadedVoxelWorld load_voxel_world(const std::string& path, const VoxelColourArguments& colours);

/// `--profile walker|flyer`, the agent's width and the walking agent's fields.
struct VoxelProfileArguments {
  std::string profile;  ///< empty: the file type's default (flyer for .3dmap, walker otherwise)
  std::optional<int> agent_height;
  std::optional<int> agent_width;  ///< walkers and flyers alike
  std::optional<int> step_height;
  std::optional<int> jump_height;
  std::optional<int> jump_gap;  ///< MovementProfile::jump_distance
  std::optional<int> max_fall;
  std::optional<bool> swim;
  std::optional<bool> climb;
};
void add_voxel_profile_options(CLI::App& command, VoxelProfileArguments& arguments);

struct ResolvedProfile {
  MovementProfile profile;
  std::string name;          ///< walker or flyer
  bool by_file_type = false;  ///< no --profile was given: the file type chose
};

/// The named profile (or the file type's default) with the options applied. Throws
/// std::invalid_argument for walking options on a flyer.
ResolvedProfile resolve_voxel_profile(const VoxelProfileArguments& arguments, const std::string& world_path);

/// "X,Y,Z" (spaces allowed around the numbers); nullopt unless all three are integers.
std::optional<VoxelCoord> parse_voxel_coord(std::string_view text);
std::string format_voxel_coord(VoxelCoord at);
/// `--name X,Y,Z`, stored in `target`.
/// The positional FILE of the commands that read a voxel world (required), stored in `target`.
CLI::Option* add_voxel_world_argument(CLI::App& command, std::string& target);

CLI::Option* add_voxel_coord_option(CLI::App& command, const std::string& name, VoxelCoord& target,
                                    const std::string& description);
/// `--algo,-a A[,A...]`: voxel algorithms by name (parse_voxel_algorithm), stored in `target` in
/// the order given; an unknown name is a usage error.
CLI::Option* add_voxel_algorithms_option(CLI::App& command, std::vector<VoxelAlgorithm>& target,
                                         const std::string& description);
/// `--name N`: a whole number from `low` to `high`, stored in `target`; the error names the
/// range in words ("--max-fall: must be a whole number of blocks from 0 to 256, got '-1'").
CLI::Option* add_block_count_option(CLI::App& command, const std::string& name, std::optional<int>& target, int low,
                                    int high, const std::string& description);

}  // namespace wayfinder::cli
