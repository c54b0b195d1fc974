#include "voxel/voxel_path_command.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/world_json.hpp"
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "text_table.hpp"
#include "voxel/voxel_cli_support.hpp"
#include "wayfinder/debug/voxel_svg.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder::cli {

namespace {

/// A start or goal moved by --snap.
struct Snapped {
  VoxelCoord requested;
  VoxelCoord placed;
  double distance = 0.0;
  std::string reason;  ///< why the requested place was refused
};

/// Applies --snap to one end of the query: nullopt if it needs no move. Throws
/// std::invalid_argument when no place is near enough.
std::optional<Snapped> snap_place(const VoxelWorld& world, const MovementProfile& profile, const char* which,
                                  VoxelCoord& at, int distance) {
  std::optional<std::string> problem = voxel_place_problem(world, profile, at);
  if (!problem) return std::nullopt;
  const std::optional<VoxelCoord> place = nearest_voxel_place(world, profile, at, distance);
  if (!place)
    throw std::invalid_argument(std::string(which) + " " + *problem + ", and there is no place within " +
                                std::to_string(distance) + (distance == 1 ? " block" : " blocks") +
                                " where the agent can be (try a larger --snap)");
  Snapped snapped{at, *place, 0.0, std::move(*problem)};
  const double dx = place->x - at.x;
  const double dy = place->y - at.y;
  const double dz = place->z - at.z;
  snapped.distance = std::sqrt(dx * dx + dy * dy + dz * dz);
  at = *place;
  return snapped;
}

nlohmann::ordered_json coord_json(VoxelCoord at) { return {at.x, at.y, at.z}; }

nlohmann::ordered_json snapped_json(const std::optional<Snapped>& snapped) {
  if (!snapped) return nullptr;
  nlohmann::ordered_json json;
  json["requested"] = coord_json(snapped->requested);
  json["distance"] = snapped->distance;
  json["reason"] = snapped->reason;
  return json;
}

}  // namespace

void configure_voxel_path_command(CLI::App& command, VoxelPathArguments& arguments) {
  add_voxel_world_argument(command, arguments.world_path);
  add_voxel_coord_option(command, "--from", arguments.from, "start block (y is up)")->required();
  add_voxel_coord_option(command, "--to", arguments.to, "goal block")->required();
  add_voxel_profile_options(command, arguments.profile);
  add_voxel_colour_options(command, arguments.colours);
  command
      .add_option_function<std::string>(
          "--algo,-a",
          [&arguments](const std::string& name) {
            const std::optional<VoxelAlgorithm> algorithm = parse_voxel_algorithm(name);
            if (!algorithm)
              throw CLI::ValidationError("--algo", "expected dijkstra, astar, weighted-astar, greedy, jps or hpa");
            arguments.search.algorithm = *algorithm;
          },
          "dijkstra, astar, weighted-astar, greedy, jps (jump point search, flyers only) or hpa (hierarchical, "
          "near-optimal; builds the world's hierarchy first)")
      ->default_str("astar");
  add_hidden_alias(command, *command.get_option("--algo"), "--algorithm");
  add_number_option(command, "--weight", arguments.search.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W")
      ->each([&arguments](const std::string&) { arguments.weight_given = true; });
  add_whole_number_option(command, "--cluster-size", arguments.cluster_size, 4, 64,
                          "hpa: the side of the hierarchy's clusters in blocks")
      ->default_str(std::to_string(arguments.cluster_size));
  add_whole_number_option(command, "--max-expansions", arguments.max_expansions, 1, Budget::unlimited_expansions,
                          "stop after this many expansions and return the path towards the closest block (exit 1)");
  add_hidden_alias(command, *command.get_option("--max-expansions"), "--max-nodes");
  add_block_count_option(command, "--snap", arguments.snap, 0, max_snap_distance,
                         "move a start or goal where the agent cannot be to the nearest place where it can, at most "
                         "this many blocks away");
  command.add_flag("--full-path", arguments.full_path,
                   "print every move of the path (text output shows its first and last moves; --json has them all)");
  CLI::Option* svg = command.add_option("--svg", arguments.svg_path,
                                        "write a top-down picture: heights, explored columns, the path, a legend")
                         ->type_name("FILE");
  command
      .add_option_function<std::string>(
          "--y-range",
          [&arguments](const std::string& text) {
            const auto values = parse_integer_list(text);
            if (!values || values->size() != 2 || (*values)[0] > (*values)[1])
              throw CLI::ValidationError("--y-range", "expected MIN,MAX heights with MIN <= MAX, got '" + text + "'");
            arguments.y_range = std::pair{(*values)[0], (*values)[1]};
          },
          "draw only the blocks with MIN <= y <= MAX (one floor or cave level)")
      ->type_name("MIN,MAX")
      ->needs(svg);
  add_json_flag(command, arguments.json);
  command.footer(
      "Positions are feet blocks for the walker. .3dmap worlds (the flying benchmark) default to the flyer,\n"
      ".vox worlds to the walker. hpa builds the world's hierarchy for the agent first (not in the query's time).\n"
      "Exit status: 0 path found; 1 none; 2 bad input.");
}

int run_voxel_path_command(const VoxelPathArguments& arguments, std::ostream& out, std::ostream& err) {
  const LoadedVoxelWorld loaded = load_voxel_world(arguments.world_path, arguments.colours);
  for (const std::string& warning : loaded.warnings) report_error(err, "warning: " + warning);
  const VoxelWorld& world = loaded.world;
  const ResolvedProfile agent = resolve_voxel_profile(arguments.profile, arguments.world_path);
  if (arguments.y_range && (arguments.y_range->second < 0 || arguments.y_range->first > world.size_y() - 1))
    throw std::invalid_argument("--y-range " + std::to_string(arguments.y_range->first) + "," +
                                std::to_string(arguments.y_range->second) + " holds no block of " + arguments.world_path +
                                " (its heights are 0 to " + std::to_string(world.size_y() - 1) + ")");

  VoxelCoord from = arguments.from;
  VoxelCoord to = arguments.to;
  std::optional<Snapped> snapped_from;
  std::optional<Snapped> snapped_to;
  if (arguments.snap) {
    try {
      snapped_from = snap_place(world, agent.profile, "start", from, *arguments.snap);
      snapped_to = snap_place(world, agent.profile, "goal", to, *arguments.snap);
    } catch (const std::invalid_argument& error) {
      throw CommandError(arguments.world_path + ": " + error.what(), arguments.world_path);
    }
  }

  if (arguments.weight_given && arguments.search.algorithm == VoxelAlgorithm::jump_point)
    throw std::invalid_argument("--weight applies to weighted-astar; jump point search is optimal and takes no weight");
  if (arguments.weight_given && arguments.search.algorithm == VoxelAlgorithm::hierarchical)
    throw std::invalid_argument("--weight applies to weighted-astar; hpa takes no weight");
  VoxelQuery pathfinder(world, agent.profile);
  if (arguments.search.algorithm == VoxelAlgorithm::hierarchical) {
    VoxelHierarchyOptions hierarchy;
    hierarchy.cluster_size = static_cast<int>(arguments.cluster_size);
    hierarchy.build_threads = 2;
    pathfinder.set_hierarchy(std::make_shared<const VoxelHierarchy>(world, agent.profile, hierarchy));
  }
  VoxelSearchOptions options = arguments.search;
  options.budget.max_expansions = arguments.max_expansions;
  options.trace = nullptr;
  const auto started = std::chrono::steady_clock::now();
  const PathResult result = pathfinder.find_path(from, to, options);
  const double microseconds =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  if (result.status == SearchStatus::invalid_input) {
    std::string message = arguments.world_path + ": " + result.message;
    if (!arguments.snap && (pathfinder.position_problem(from) || pathfinder.position_problem(to)))
      message += " (--snap D moves it to the nearest place within D blocks)";
    throw CommandError(message, arguments.world_path);
  }
  const bool has_path = !result.nodes.empty();
  const std::vector<VoxelMove> moves = pathfinder.moves_of(result);

  if (!arguments.svg_path.empty()) {
    SearchTrace trace;  // the same query again, traced for the picture; searches are deterministic
    options.trace = &trace;
    const PathResult traced = pathfinder.find_path(from, to, options);
    VoxelSvgOptions picture;
    picture.title = std::filesystem::path(arguments.world_path).filename().string() + ": " + agent.name + ", " +
                    std::string(to_string(arguments.search.algorithm)) + " from " + format_voxel_coord(from) + " to " +
                    format_voxel_coord(to) + ", " + std::string(to_string(traced.status)) +
                    (traced.nodes.empty() ? std::string() : ", cost " + format_fixed(traced.cost, 3)) + ", " +
                    std::to_string(traced.stats.expanded) + " expanded";
    if (arguments.y_range) {
      picture.min_y = arguments.y_range->first;
      picture.max_y = arguments.y_range->second;
      picture.title += ", y " + std::to_string(picture.min_y) + ".." + std::to_string(picture.max_y);
    }
    picture.trace = &trace;
    write_voxel_svg(arguments.svg_path, world, traced, from, to, picture);
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["world"] = arguments.world_path;
    json["from"] = coord_json(from);
    json["to"] = coord_json(to);
    json["snapped_from"] = snapped_json(snapped_from);
    json["snapped_to"] = snapped_json(snapped_to);
    json["profile"] = agent.name;
    json["agent_width"] = agent.profile.agent_width;
    json["algorithm"] = to_string(arguments.search.algorithm);
    json["status"] = to_string(result.status);
    json["reason"] = to_string(result.reason);
    json["cost"] = has_path ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
    json["moves"] = moves.size();
    json["blocks"] = voxel_blocks_json(world, result.nodes);
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
    out << "query:        " << format_voxel_coord(from) << " -> " << format_voxel_coord(to) << '\n';
    for (const auto& [label, snapped] : {std::pair{"start moved:  ", &snapped_from}, std::pair{"goal moved:   ", &snapped_to}})
      if (*snapped)
        out << label << format_voxel_coord((*snapped)->requested) << " -> " << format_voxel_coord((*snapped)->placed)
            << " (" << format_fixed((*snapped)->distance, 2) << " blocks; " << (*snapped)->reason << ")\n";
    out << "agent:        " << agent.name << (agent.by_file_type && agent.name == "flyer" ? " (the default for .3dmap)" : "");
    if (agent.profile.agent_width > 1)
      out << ", " << agent.profile.agent_width << " blocks wide (positions are the footprint's corner)";
    out << ", " << to_string(arguments.search.algorithm) << '\n';
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
      std::vector<std::string> steps{format_voxel_coord(from)};
      for (const VoxelMove& move : moves)
        steps.push_back("-" + std::string(to_string(move.kind)) + "-> " + format_voxel_coord(move.to));
      out << (result.found() ? "path:        " : "partial path:") << " " << moves.size() << " moves: "
          << elided_items(steps, arguments.full_path)
          << (arguments.full_path || steps.size() <= 8 ? "" : " (--full-path prints every move)") << '\n';
    }
    if (!arguments.svg_path.empty()) out << "svg:          " << arguments.svg_path << '\n';
  }
  return result.found() ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
