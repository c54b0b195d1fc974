#include "voxel/voxel_info_command.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <nlohmann/json.hpp>

#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "text_table.hpp"
#include "wayfinder/voxel/voxel_connected_parts.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder::cli {

namespace {

constexpr int default_places = 10;
constexpr int max_places = 1000;

std::string_view kind_name(BlockKind kind) {
  switch (kind) {
    case BlockKind::air: return "air";
    case BlockKind::solid: return "solid";
    case BlockKind::water: return "water";
    case BlockKind::ladder: return "ladder";
  }
  return "unknown";
}

std::string hex_colour(const VoxColour& colour) {
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x%02x", colour.r, colour.g, colour.b, colour.a);
  return text;
}

/// The options of this command that `voxel path` needs to see the same world and agent.
std::string same_world_and_agent(const VoxelInfoArguments& arguments) {
  std::string text;
  auto list = [](const std::vector<int>& values) {
    std::string joined;
    for (const int value : values) joined += (joined.empty() ? "" : ",") + std::to_string(value);
    return joined;
  };
  if (!arguments.colours.water.empty()) text += " --water-colours " + list(arguments.colours.water);
  if (!arguments.colours.ladder.empty()) text += " --ladder-colours " + list(arguments.colours.ladder);
  const VoxelProfileArguments& profile = arguments.profile;
  if (!profile.profile.empty()) text += " --profile " + profile.profile;
  const std::pair<const char*, const std::optional<int>*> counts[] = {
      {"--agent-height", &profile.agent_height}, {"--agent-width", &profile.agent_width},
      {"--step-height", &profile.step_height},
      {"--jump-height", &profile.jump_height},   {"--jump-gap", &profile.jump_gap},
      {"--max-fall", &profile.max_fall}};
  for (const auto& [name, value] : counts)
    if (value->has_value()) text += std::string(" ") + name + " " + std::to_string(**value);
  if (profile.swim) text += *profile.swim ? " --swim" : " --no-swim";
  if (profile.climb) text += *profile.climb ? " --climb" : " --no-climb";
  return text;
}

/// Two of the listed places in one connected part, so that the suggested command finds a
/// path: places can lie on roofs or islands the agent cannot leave.
std::optional<std::pair<VoxelCoord, VoxelCoord>> connected_pair(const VoxelConnectedParts& parts,
                                                                 const std::vector<VoxelCoord>& places) {
  for (std::size_t i = 0; i < places.size(); ++i)
    for (std::size_t j = i + 1; j < places.size(); ++j)
      if (parts.part_of(places[i]) == parts.part_of(places[j])) return std::pair{places[i], places[j]};
  return std::nullopt;
}

/// How many of the largest parts' sizes the command shows.
constexpr std::size_t largest_parts_shown = 5;

}  // namespace

void configure_voxel_info_command(CLI::App& command, VoxelInfoArguments& arguments) {
  add_voxel_world_argument(command, arguments.world_path);
  add_voxel_profile_options(command, arguments.profile);
  add_voxel_colour_options(command, arguments.colours);
  add_block_count_option(command, "--places", arguments.places, 0, max_places,
                         "how many places where the agent can be to list, spread over the world (default " +
                             std::to_string(default_places) + ")")
      ->type_name("N");
  add_json_flag(command, arguments.json);
  command.footer(
      "Places are feet blocks for the walker (the default for .vox) and free blocks for the flyer (the default\n"
      "for .3dmap); pass two of them to `wayfinder voxel path FILE --from X,Y,Z --to X,Y,Z`.");
}

int run_voxel_info_command(const VoxelInfoArguments& arguments, std::ostream& out, std::ostream& err) {
  const LoadedVoxelWorld loaded = load_voxel_world(arguments.world_path, arguments.colours);
  for (const std::string& warning : loaded.warnings) report_error(err, "warning: " + warning);
  const VoxelWorld& world = loaded.world;
  const ResolvedProfile agent = resolve_voxel_profile(arguments.profile, arguments.world_path);
  const std::array<std::uint64_t, 4> counts = world.block_counts();
  const VoxelPlaceSample sample =
      sample_voxel_places(world, agent.profile, static_cast<std::size_t>(arguments.places.value_or(default_places)));
  const VoxelConnectedParts parts(world, agent.profile);
  const std::optional<std::pair<VoxelCoord, VoxelCoord>> example = connected_pair(parts, sample.places);
  const std::vector<std::uint64_t> largest_parts(
      parts.part_sizes().begin(),
      parts.part_sizes().begin() + static_cast<std::ptrdiff_t>(std::min(parts.part_count(), largest_parts_shown)));
  constexpr BlockKind kinds[] = {BlockKind::air, BlockKind::solid, BlockKind::water, BlockKind::ladder};

  struct UsedColour {
    int index;
    VoxColour colour;
    std::uint64_t voxels;
    BlockKind kind;
  };
  std::vector<UsedColour> colours;
  if (loaded.vox)
    for (int index = 1; index < 256; ++index) {
      const auto i = static_cast<std::size_t>(index);
      if (loaded.vox->voxel_counts[i] > 0)
        colours.push_back({index, loaded.vox->palette[i], loaded.vox->voxel_counts[i], loaded.colours.kinds[i]});
    }
  const std::string palette_source = !loaded.vox ? "" : loaded.vox->palette_from_file ? "file" : "default";
  const std::string profile_note = agent.by_file_type ? " (the default for " + std::string(is_voxel_benchmark_map(arguments.world_path) ? ".3dmap" : ".vox") + " worlds)" : "";

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["world"] = arguments.world_path;
    json["size"] = {world.size_x(), world.size_y(), world.size_z()};
    json["block_count"] = world.block_count();
    json["stored_chunks"] = world.stored_chunk_count();
    json["memory_bytes"] = world.memory_bytes();
    nlohmann::ordered_json blocks;
    for (const BlockKind kind : kinds) blocks[std::string(kind_name(kind))] = counts[static_cast<std::size_t>(kind)];
    json["blocks"] = blocks;
    json["palette_source"] = palette_source.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(palette_source);
    nlohmann::ordered_json colour_list = nlohmann::ordered_json::array();
    for (const UsedColour& used : colours) {
      nlohmann::ordered_json entry;
      entry["index"] = used.index;
      entry["rgba"] = {used.colour.r, used.colour.g, used.colour.b, used.colour.a};
      entry["hex"] = hex_colour(used.colour);
      entry["voxels"] = used.voxels;
      entry["block"] = kind_name(used.kind);
      colour_list.push_back(entry);
    }
    json["colours"] = colour_list;
    json["profile"] = agent.name;
    json["place_count"] = sample.place_count;
    nlohmann::ordered_json places = nlohmann::ordered_json::array();
    nlohmann::ordered_json place_parts = nlohmann::ordered_json::array();
    for (const VoxelCoord& at : sample.places) {
      places.push_back({at.x, at.y, at.z});
      place_parts.push_back(parts.part_of(at));
    }
    json["places"] = places;
    json["place_parts"] = place_parts;
    json["part_count"] = parts.part_count();
    json["largest_parts"] = largest_parts;
    if (example)
      json["example_query"] = {{"from", {example->first.x, example->first.y, example->first.z}},
                               {"to", {example->second.x, example->second.y, example->second.z}}};
    else
      json["example_query"] = nullptr;
    out << json.dump() << '\n';
    return exit_ok;
  }

  out << "world:    " << arguments.world_path << '\n';
  out << "size:     " << world.size_x() << " x " << world.size_y() << " x " << world.size_z()
      << " (x, y up, z): " << world.block_count() << " blocks, " << world.stored_chunk_count()
      << (world.stored_chunk_count() == 1 ? " chunk" : " chunks") << " of 16^3 stored, "
      << format_fixed(static_cast<double>(world.memory_bytes()) / (1024.0 * 1024.0), 2) << " MiB\n";
  out << "blocks:   ";
  for (const BlockKind kind : kinds)
    out << (kind == BlockKind::air ? "" : ", ") << kind_name(kind) << ' ' << counts[static_cast<std::size_t>(kind)];
  out << '\n';
  if (loaded.vox) {
    out << "palette:  " << colours.size() << " colour" << (colours.size() == 1 ? "" : "s") << " used, "
        << (loaded.vox->palette_from_file ? "from the file's RGBA chunk" : "MagicaVoxel's default palette (the file has none)")
        << '\n';
    const TextTable table({{"index", 7}, {"rgba", 11, TableColumn::Align::left}, {"voxels", 9}, {"block", 7, TableColumn::Align::left}},
                          "  ");
    out << table.header_line() << '\n';
    for (const UsedColour& used : colours)
      out << table.row_line({std::to_string(used.index), hex_colour(used.colour), std::to_string(used.voxels),
                             std::string(kind_name(used.kind))})
          << '\n';
  }
  out << "places:   " << sample.place_count << " where the " << agent.name << profile_note << " can be";
  if (sample.places.empty()) {
    out << '\n';
  } else {
    out << "; " << sample.places.size() << " spread out:\n";
    for (const VoxelCoord& at : sample.places)
      out << "  " << format_voxel_coord(at) << "  part " << parts.part_of(at) << '\n';
  }
  out << "parts:    " << parts.part_count() << " connected (a path joins two places of one part only)";
  if (!largest_parts.empty()) {
    out << "; largest";
    for (std::size_t i = 0; i < largest_parts.size(); ++i) out << (i == 0 ? " " : ", ") << largest_parts[i];
    out << (largest_parts.size() == 1 && largest_parts[0] == 1 ? " place" : " places");
  }
  out << '\n';
  if (example)
    out << "try:      wayfinder voxel path " << arguments.world_path << " --from " << format_voxel_coord(example->first)
        << " --to " << format_voxel_coord(example->second) << same_world_and_agent(arguments) << '\n';
  return exit_ok;
}

}  // namespace wayfinder::cli
