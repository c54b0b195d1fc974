#include "voxel/voxel_cli_support.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "command_line_values.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder::cli {

namespace {

std::string extension_of(const std::string& path) { return std::filesystem::path(path).extension().string(); }

/// A comma-separated list of colour indices 1 to 255, or nullopt.
std::optional<std::vector<int>> parse_colour_list(std::string_view text) {
  const auto values = parse_integer_list(text);
  if (!values) return std::nullopt;
  for (const int value : *values)
    if (value < 1 || value > 255) return std::nullopt;
  return values;
}

CLI::Option* add_colour_list_option(CLI::App& command, const std::string& name, std::vector<int>& target,
                                    const std::string& description) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name](const std::string& text) {
            const std::optional<std::vector<int>> colours = parse_colour_list(text);
            if (!colours)
              throw CLI::ValidationError(name, "expected colour indices from 1 to 255 separated by commas, got '" + text + "'");
            target = *colours;
          },
          description)
      ->type_name("LIST");
}

}  // namespace

bool is_voxel_benchmark_map(const std::string& path) { return extension_of(path) == ".3dmap"; }

VoxelWorld load_voxel_world(const std::string& path) { return load_voxel_world(path, VoxelColourArguments{}).world; }

void add_voxel_colour_options(CLI::App& command, VoxelColourArguments& arguments) {
  add_colour_list_option(command, "--water-colours", arguments.water,
                         ".vox colour indices (1-255, comma-separated) to read as water instead of solid blocks");
  add_colour_list_option(command, "--ladder-colours", arguments.ladder,
                         ".vox colour indices (1-255, comma-separated) to read as ladders instead of solid blocks");
}

LoadedVoxelWorld load_voxel_world(const std::string& path, const VoxelColourArguments& colours) {
  const std::string extension = extension_of(path);
  LoadedVoxelWorld loaded;
  if (extension == ".3dmap") {
    if (!colours.water.empty() || !colours.ladder.empty())
      throw std::invalid_argument("--water-colours and --ladder-colours apply to .vox files; " + path +
                                  " is a .3dmap, whose blocks have no colours");
    loaded.world = read_voxel_benchmark_map(path);
    return loaded;
  }
  if (extension != ".vox")
    throw LoadError(path, 0, 0, "unknown voxel file type '" + extension + "' (expected .vox or .3dmap)");
  for (const int water : colours.water)
    if (std::find(colours.ladder.begin(), colours.ladder.end(), water) != colours.ladder.end())
      throw std::invalid_argument("colour " + std::to_string(water) + " is in both --water-colours and --ladder-colours");
  for (const int index : colours.water) loaded.colours.set_kind(static_cast<std::uint8_t>(index), BlockKind::water);
  for (const int index : colours.ladder) loaded.colours.set_kind(static_cast<std::uint8_t>(index), BlockKind::ladder);
  VoxFileInfo info;
  loaded.world = read_vox_file(path, loaded.colours, &info);
  // A mapped colour the file never uses is most likely a typo or the wrong file.
  for (const auto& [list, option] : {std::pair{&colours.water, "--water-colours"}, std::pair{&colours.ladder, "--ladder-colours"}})
    for (const int index : *list)
      if (info.voxel_counts[static_cast<std::size_t>(index)] == 0)
        loaded.warnings.push_back("colour " + std::to_string(index) + " (" + option + ") is not used in " + path);
  loaded.vox = info;
  return loaded;
}

void add_voxel_profile_options(CLI::App& command, VoxelProfileArguments& arguments) {
  command
      .add_option("--profile", arguments.profile,
                  "walker (2 blocks tall, walks, jumps, swims, climbs) or flyer (1 block, 26 directions); "
                  "default: flyer for .3dmap worlds, walker for .vox")
      ->check(CLI::IsMember({"walker", "flyer"}));
  using Limits = MovementProfile;
  add_block_count_option(command, "--agent-height", arguments.agent_height, 1, Limits::agent_height_limit,
                         "walker: blocks of clearance it needs, feet included (default 2)");
  add_block_count_option(command, "--agent-width", arguments.agent_width, 1, Limits::agent_width_limit,
                         "walker or flyer: columns across its square footprint (default 1); positions name the "
                         "footprint's corner of lowest x and z (and y, for a flyer, whose body is a cube)");
  add_block_count_option(command, "--step-height", arguments.step_height, 0, Limits::step_height_limit,
                         "walker: highest ledge it walks up without jumping (default 1)");
  add_block_count_option(command, "--jump-height", arguments.jump_height, 0, Limits::jump_height_limit,
                         "walker: how high a jump lifts it, 0 for no jumping (default 1)");
  add_block_count_option(command, "--jump-gap", arguments.jump_gap, 0, Limits::jump_distance_limit,
                         "walker: widest gap a jump crosses (default 2)");
  add_block_count_option(command, "--max-fall", arguments.max_fall, 0, Limits::max_fall_limit,
                         "walker: deepest safe fall (default 3)");
  command.add_flag_function(
      "--swim,!--no-swim", [&arguments](std::int64_t count) { arguments.swim = count > 0; },
      "walker: swim through water (the default), or avoid it with --no-swim");
  command.add_flag_function(
      "--climb,!--no-climb", [&arguments](std::int64_t count) { arguments.climb = count > 0; },
      "walker: climb ladders (the default), or not with --no-climb");
}

ResolvedProfile resolve_voxel_profile(const VoxelProfileArguments& arguments, const std::string& world_path) {
  ResolvedProfile resolved;
  resolved.by_file_type = arguments.profile.empty();
  resolved.name = !arguments.profile.empty() ? arguments.profile : is_voxel_benchmark_map(world_path) ? "flyer" : "walker";
  resolved.profile = resolved.name == "flyer" ? MovementProfile::flyer() : MovementProfile::walker();
  const std::pair<const char*, bool> walking_options[] = {
      {"--agent-height", arguments.agent_height.has_value()}, {"--step-height", arguments.step_height.has_value()},
      {"--jump-height", arguments.jump_height.has_value()},   {"--jump-gap", arguments.jump_gap.has_value()},
      {"--max-fall", arguments.max_fall.has_value()},         {"--swim/--no-swim", arguments.swim.has_value()},
      {"--climb/--no-climb", arguments.climb.has_value()}};
  MovementProfile& profile = resolved.profile;
  profile.agent_width = arguments.agent_width.value_or(profile.agent_width);
  if (resolved.name == "flyer") {
    for (const auto& [option, given] : walking_options)
      if (given)
        throw std::invalid_argument(std::string(option) + " describes a walking agent, but the agent is a flyer" +
                                    (resolved.by_file_type ? " (the default for .3dmap worlds)" : "") +
                                    "; add --profile walker");
    return resolved;
  }
  profile.agent_height = arguments.agent_height.value_or(profile.agent_height);
  profile.step_height = arguments.step_height.value_or(profile.step_height);
  profile.jump_height = arguments.jump_height.value_or(profile.jump_height);
  profile.jump_distance = arguments.jump_gap.value_or(profile.jump_distance);
  profile.max_fall = arguments.max_fall.value_or(profile.max_fall);
  profile.swim = arguments.swim.value_or(profile.swim);
  profile.climb = arguments.climb.value_or(profile.climb);
  return resolved;
}

std::optional<VoxelCoord> parse_voxel_coord(std::string_view text) {
  const auto values = parse_integer_list(text);
  if (!values || values->size() != 3) return std::nullopt;
  return VoxelCoord{(*values)[0], (*values)[1], (*values)[2]};
}

std::string format_voxel_coord(VoxelCoord at) {
  return std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z);
}

CLI::Option* add_voxel_world_argument(CLI::App& command, std::string& target) {
  return add_required_file_argument(command, "FILE", target, "a MagicaVoxel .vox or a MovingAI .3dmap file");
}

CLI::Option* add_voxel_coord_option(CLI::App& command, const std::string& name, VoxelCoord& target,
                                    const std::string& description) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name](const std::string& text) {
            const std::optional<VoxelCoord> at = parse_voxel_coord(text);
            if (!at) throw CLI::ValidationError(name, "expected X,Y,Z integers, got '" + text + "'");
            target = *at;
          },
          description)
      ->type_name("X,Y,Z");
}

CLI::Option* add_voxel_algorithms_option(CLI::App& command, std::vector<VoxelAlgorithm>& target,
                                         const std::string& description) {
  return command.add_option_function<std::string>(
      "--algo,-a",
      [&target](const std::string& text) {
        target.clear();
        std::size_t begin = 0;
        while (begin <= text.size()) {
          const std::size_t comma = std::min(text.find(',', begin), text.size());
          const std::optional<VoxelAlgorithm> algorithm = parse_voxel_algorithm(text.substr(begin, comma - begin));
          if (!algorithm)
            throw CLI::ValidationError("--algo", "expected dijkstra, astar, weighted-astar, greedy, jps or hpa");
          target.push_back(*algorithm);
          begin = comma + 1;
        }
      },
      description);
}

CLI::Option* add_block_count_option(CLI::App& command, const std::string& name, std::optional<int>& target, int low,
                                    int high, const std::string& description) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name, low, high](const std::string& text) {
            const auto values = parse_integer_list(text);
            if (!values || values->size() != 1 || values->front() < low || values->front() > high)
              throw CLI::ValidationError(name, "must be a whole number of blocks from " + std::to_string(low) + " to " +
                                                   std::to_string(high) + ", got '" + text + "'");
            target = values->front();
          },
          description + "; " + std::to_string(low) + " to " + std::to_string(high))
      ->type_name("N");
}

}  // namespace wayfinder::cli
