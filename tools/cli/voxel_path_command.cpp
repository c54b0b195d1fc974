#include "voxel_path_command.hpp"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "text_table.hpp"
#include "voxel_cli_support.hpp"
#include "wayfinder/voxel/voxel_svg.hpp"

namespace wayfinder::cli {

namespace {

MovementProfile profile_named(const std::string& name) {
  return name == "flyer" ? MovementProfile::flyer() : MovementProfile::walker();
}

}  // namespace

void configure_voxel_path_command(CLI::App& command, VoxelPathArguments& arguments) {
  command.add_option("FILE", arguments.world_path, "a MagicaVoxel .vox or a MovingAI .3dmap file")
      ->required()
      ->type_name("FILE");
  add_voxel_coord_option(command, "--from", arguments.from, "start block (y is up)")->required();
  add_voxel_coord_option(command, "--to", arguments.to, "goal block")->required();
  command.add_option("--profile", arguments.profile, "walker (2 blocks tall, walks, jumps, swims, climbs) or flyer")
      ->check(CLI::IsMember({"walker", "flyer"}))
      ->capture_default_str();
  command
      .add_option_function<std::string>(
          "--algo,-a",
          [&arguments](const std::string& name) {
            const std::optional<VoxelAlgorithm> algorithm = parse_voxel_algorithm(name);
            if (!algorithm) throw CLI::ValidationError("--algo", "expected dijkstra, astar, weighted-astar or greedy");
            arguments.search.algorithm = *algorithm;
          },
          "dijkstra, astar, weighted-astar or greedy")
      ->default_str("astar");
  add_hidden_alias(command, *command.get_option("--algo"), "--algorithm");
  add_number_option(command, "--weight", arguments.search.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W");
  add_whole_number_option(command, "--max-expansions", arguments.max_expansions, 1, Budget::unlimited_expansions,
                          "stop after this many expansions and return the path towards the closest block (exit 1)");
  add_hidden_alias(command, *command.get_option("--max-expansions"), "--max-nodes");
  command.add_option("--svg", arguments.svg_path, "write a top-down picture: heights, explored columns, the path")
      ->type_name("FILE");
  command.add_flag("--json", arguments.json, "print one JSON object instead of text");
  command.footer("Positions are feet blocks for the walker. Exit status: 0 path found; 1 none; 2 bad input.");
}

int run_voxel_path_command(const VoxelPathArguments& arguments, std::ostream& out, std::ostream& /*err*/) {
  const VoxelWorld world = load_voxel_world(arguments.world_path);
  VoxelPathfinder pathfinder(world, profile_named(arguments.profile));
  VoxelSearchOptions options = arguments.search;
  options.budget.max_expansions = arguments.max_expansions;
  options.trace = nullptr;
  const auto started = std::chrono::steady_clock::now();
  const PathResult result = pathfinder.find_path(arguments.from, arguments.to, options);
  const double microseconds =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  if (result.status == SearchStatus::invalid_input)
    throw CommandError(arguments.world_path + ": " + result.message, arguments.world_path);
  const bool has_path = !result.nodes.empty();
  const std::vector<VoxelMove> moves = pathfinder.moves_of(result);

  if (!arguments.svg_path.empty()) {
    SearchTrace trace;  // the same query again, traced for the picture; searches are deterministic
    options.trace = &trace;
    const PathResult traced = pathfinder.find_path(arguments.from, arguments.to, options);
    const std::string title = std::filesystem::path(arguments.world_path).filename().string() + ": " +
                              arguments.profile + ", " + std::string(to_string(arguments.search.algorithm)) + " from " +
                              format_voxel_coord(arguments.from) + " to " + format_voxel_coord(arguments.to) + ", " +
                              std::string(to_string(traced.status)) +
                              (traced.nodes.empty() ? std::string() : ", cost " + format_fixed(traced.cost, 3)) + ", " +
                              std::to_string(traced.stats.expanded) + " expanded";
    write_voxel_svg(arguments.svg_path, world, traced, arguments.from, arguments.to, VoxelSvgOptions{title, &trace});
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["world"] = arguments.world_path;
    json["from"] = {arguments.from.x, arguments.from.y, arguments.from.z};
    json["to"] = {arguments.to.x, arguments.to.y, arguments.to.z};
    json["profile"] = arguments.profile;
    json["algorithm"] = to_string(arguments.search.algorithm);
    json["status"] = to_string(result.status);
    json["reason"] = to_string(result.reason);
    json["cost"] = has_path ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
    json["moves"] = moves.size();
    nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
    for (const NodeId node : result.nodes) {
      const VoxelCoord at = world.coord_of(node);
      blocks.push_back({at.x, at.y, at.z});
    }
    json["blocks"] = blocks;
    nlohmann::ordered_json kinds = nlohmann::ordered_json::array();
    for (const VoxelMove& move : moves) kinds.push_back(to_string(move.kind));
    json["move_kinds"] = kinds;
    json["expanded"] = result.stats.expanded;
    json["generated"] = result.stats.generated;
    json["peak_open"] = result.stats.peak_open;
    json["microseconds"] = microseconds;
    json["search_microseconds"] = result.stats.microseconds;
    if (!arguments.svg_path.empty()) json["svg"] = arguments.svg_path;
    out << json.dump() << '\n';
  } else {
    out << "world:        " << arguments.world_path << " (" << world.size_x() << "x" << world.size_y() << "x"
        << world.size_z() << ", y up, " << world.filled_block_count() << " blocks)\n";
    out << "query:        " << format_voxel_coord(arguments.from) << " -> " << format_voxel_coord(arguments.to) << '\n';
    out << "agent:        " << arguments.profile << ", " << to_string(arguments.search.algorithm) << '\n';
    out << "status:       " << to_string(result.status);
    if (result.status != SearchStatus::found) out << " (" << to_string(result.reason) << ")";
    out << '\n';
    if (has_path) {
      out << "cost:         " << format_fixed(result.cost, 6) << '\n';
      out << "moves:        " << moves.size() << '\n';
    }
    out << "expanded:     " << result.stats.expanded << '\n';
    out << "generated:    " << result.stats.generated << '\n';
    out << "microseconds: " << format_fixed(microseconds, 1) << " (find_path; search loop "
        << format_fixed(result.stats.microseconds, 1) << ")\n";
    if (has_path) {
      out << (result.found() ? "path:        " : "partial path:") << " " << format_voxel_coord(arguments.from);
      for (const VoxelMove& move : moves) out << " -" << to_string(move.kind) << "-> " << format_voxel_coord(move.to);
      out << '\n';
    }
    if (!arguments.svg_path.empty()) out << "svg:          " << arguments.svg_path << '\n';
  }
  return result.found() ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
