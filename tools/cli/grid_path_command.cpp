#include "grid_path_command.hpp"

#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/world_json.hpp"

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "text_table.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/debug/grid_svg.hpp"
#include "wayfinder/grid/movingai_io.hpp"
#include "wayfinder/grid/path_smoothing.hpp"

namespace wayfinder::cli {
namespace {

std::string cells_text(const GridMap& map, const std::vector<NodeId>& nodes) {
  std::string text;
  for (const NodeId id : nodes) {
    if (!text.empty()) text += ' ';
    text += format_cell(map.cell_of(id));
  }
  return text;
}

std::string points_text(const std::vector<Point>& points) {
  std::string text;
  for (const Point& point : points) {
    if (!text.empty()) text += ' ';
    text += format_fixed(point.x, 1) + "," + format_fixed(point.y, 1);
  }
  return text;
}

}  // namespace

nlohmann::ordered_json hierarchy_json(const HierarchicalGrid& hierarchy) {
  const HierarchyStats& stats = hierarchy.stats();
  nlohmann::ordered_json json;
  json["cluster_size"] = hierarchy.cluster_size();
  json["clusters"] = stats.clusters;
  json["nodes"] = stats.nodes;
  json["inter_edges"] = stats.inter_edges;
  json["intra_edges"] = stats.intra_edges;
  json["memory_bytes"] = stats.memory_bytes;
  json["build_ms"] = stats.build_milliseconds;
  return json;
}

std::string hierarchy_text(const HierarchicalGrid& hierarchy) {
  const HierarchyStats& stats = hierarchy.stats();
  const std::string side = std::to_string(hierarchy.cluster_size());
  return std::to_string(stats.clusters) + " clusters of " + side + "x" + side + ", " + std::to_string(stats.nodes) +
         " nodes, " + std::to_string(stats.inter_edges + stats.intra_edges) + " edges, " +
         format_fixed(static_cast<double>(stats.memory_bytes) / 1e6, 2) + " MB, built in " +
         format_fixed(stats.build_milliseconds, 1) + " ms";
}

std::string grid_message_in_command_line_terms(const std::string& message) {
  return in_command_line_terms(message, {{"weight", "--weight"},
                                         {"only_if_no_obstacles", "only-if-no-obstacles"},
                                         {"at_least_one_walkable", "at-least-one-walkable"},
                                         {"jump point search", "jps"},
                                         {"agent_size", "--agent-size"},
                                         {"cluster_size", "--cluster-size"}});
}

void configure_grid_path_command(CLI::App& command, GridPathArguments& arguments) {
  command.add_option("MAP", arguments.map_path, "MovingAI .map file")->required()->type_name("FILE");
  add_cell_option(command, "--from", arguments.from, "start cell (column,row; 0,0 is the top left)")->required();
  add_cell_option(command, "--to", arguments.to, "goal cell")->required();
  add_algorithm_option(command, "--algo,-a", arguments.search.algorithm,
                       "search algorithm, or a reactive walker (crash-*, divide: no search; may fail where a path "
                       "exists)");
  add_diagonal_option(command, "--diagonal", arguments.search.diagonal,
                      "when diagonal moves are allowed; only-if-no-obstacles is the MovingAI rule");
  add_heuristic_option(command, "--heuristic", arguments.search.heuristic,
                       "distance estimate; automatic picks octile, or manhattan without diagonals");
  add_number_option(command, "--weight", arguments.search.weight, 1.0,
                    "heuristic weight of weighted-astar, at least 1 (cost <= weight x optimal)")
      ->type_name("W");
  add_whole_number_option(command, "--max-expansions", arguments.max_expansions, 1, Budget::unlimited_expansions,
                          "stop after this many expansions and return the path towards the closest cell (exit 1)");
  add_whole_number_option(command, "--step-limit", arguments.search.walker_step_limit, 1,
                          std::numeric_limits<std::uint64_t>::max(),
                          "reactive walkers: the most moves (divide: segments) before they give up (exit 1); "
                          "default 4 x the map's cells")
      ->default_str("4 x cells");
  add_whole_number_option(command, "--agent-size", arguments.agent_size, 1, max_clearance,
                          "the agent's side in cells: a K x K agent whose position is its top-left cell; every "
                          "cell of its body must be passable (not with bfs or the walkers)")
      ->type_name("K");
  add_whole_number_option(command, "--cluster-size", arguments.cluster_size, 4, 256,
                          "hpa: the side of the hierarchy's clusters in cells")
      ->type_name("C")
      ->default_str("16");
  command.add_flag("--smooth", arguments.smooth,
                   "also print any-angle waypoints smoothed by line of sight (agent size 1 only)");
  command.add_option("--table", arguments.table_path,
                     "jps-plus: a jump table saved by grid preprocess for this map, instead of building one")
      ->type_name("FILE");
  command.add_option("--bounds", arguments.bounds_path,
                     "jps-plus: goal bounds saved by grid preprocess --goal-bounds for this map, to prune by")
      ->type_name("FILE");
  command.add_option("--svg", arguments.svg_path, "write a picture of the map, the explored cells and the path")
      ->type_name("FILE");
  command.add_flag("--json", arguments.json, "print one JSON object instead of text");
}

int run_grid_path_command(const GridPathArguments& arguments, std::ostream& out, std::ostream& /*err*/) {
  const GridMap map = read_movingai_map(arguments.map_path);

  // Smoothing draws lines for a point-sized agent: its waypoints would take a larger body
  // through gaps it does not fit.
  if (arguments.smooth && arguments.agent_size > 1)
    throw CommandError("--smooth supports only --agent-size 1: its lines of sight are a one-cell agent's");
  if (!arguments.table_path.empty() && arguments.agent_size > 1)
    throw CommandError("--table holds a one-cell agent's jumps; with --agent-size " +
                       std::to_string(arguments.agent_size) +
                       " jps-plus builds the table of the map as the agent sees it (leave --table out)");
  GridSearchOptions options = arguments.search;
  options.budget.max_expansions = arguments.max_expansions;
  options.agent_size = static_cast<int>(arguments.agent_size);
  options.cluster_size = static_cast<int>(arguments.cluster_size);
  options.trace = nullptr;
  GridPathfinder pathfinder(map);
  // What the query reads besides the map (hpa's hierarchy, jps-plus's table, a larger agent's
  // clearance and body map) is built here, untimed, so that the time below is the query's (the
  // hierarchy's build is reported on its own). A table or bounds given as files are loaded
  // instead of built.
  GridDerivedData derived;
  if (!arguments.table_path.empty())
    derived.jump_table = std::make_shared<const GridJumpTable>(GridJumpTable::load(arguments.table_path, map));
  if (!arguments.bounds_path.empty())
    derived.goal_bounds = std::make_shared<const GridGoalBounds>(GridGoalBounds::load(arguments.bounds_path, map));
  build_grid_derived_data(map, options, derived);
  pathfinder.set_derived_data(derived);
  const HierarchicalGrid* hierarchy = nullptr;
  if (options.algorithm == GridAlgorithm::hierarchical && map.passable(arguments.from)) {
    const GridAgentBodyData* body = derived.body(options.agent_size);
    hierarchy = options.agent_size == 1 ? derived.hierarchy.get() : body != nullptr ? body->hierarchy.get() : nullptr;
  }
  // Timed without a trace, so that the time is the search alone.
  const auto started = std::chrono::steady_clock::now();
  const PathResult result = pathfinder.find_path(arguments.from, arguments.to, options);
  const double microseconds =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();

  if (result.status == SearchStatus::invalid_input)
    throw CommandError(arguments.map_path + ": " + grid_message_in_command_line_terms(result.message),
                       arguments.map_path);
  const bool has_path = !result.nodes.empty();
  const std::size_t moves = has_path ? result.nodes.size() - 1 : 0;
  std::vector<Point> waypoints;
  if (arguments.smooth && has_path) waypoints = smooth_path(map, result.nodes);

  if (!arguments.svg_path.empty()) {
    // The same query again with a trace, for the picture; searches are deterministic.
    SearchTrace trace;
    options.trace = &trace;
    const PathResult traced = pathfinder.find_path(arguments.from, arguments.to, options);
    GridSvgOptions picture;
    const std::string map_name = std::filesystem::path(arguments.map_path).filename().string();
    picture.title = map_name + ": " + std::string(to_string(arguments.search.algorithm)) + " from " +
                    format_cell(arguments.from) + " to " + format_cell(arguments.to) + ", " +
                    std::string(to_string(traced.status)) +
                    (traced.nodes.empty() ? std::string() : ", cost " + format_fixed(traced.cost, 3)) + ", " +
                    std::to_string(traced.stats.expanded) + " expanded";
    picture.trace = &trace;
    picture.start = arguments.from;
    picture.goal = arguments.to;
    picture.paths.push_back({std::string(to_string(arguments.search.algorithm)), "", traced.nodes, waypoints});
    write_grid_svg(arguments.svg_path, map, picture);
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["map"] = arguments.map_path;
    json["from"] = {arguments.from.x, arguments.from.y};
    json["to"] = {arguments.to.x, arguments.to.y};
    json["algorithm"] = to_string(arguments.search.algorithm);
    json["diagonal"] = command_line_name(arguments.search.diagonal);
    json["heuristic"] = to_string(resolve_heuristic(arguments.search.heuristic, arguments.search.diagonal));
    json["agent_size"] = arguments.agent_size;
    json["status"] = to_string(result.status);
    json["reason"] = to_string(result.reason);
    json["cost"] = has_path ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
    json["moves"] = moves;
    json["cells"] = cells_json(map, result.nodes);
    json["expanded"] = result.stats.expanded;
    json["generated"] = result.stats.generated;
    json["peak_open"] = result.stats.peak_open;
    json["microseconds"] = microseconds;
    json["search_microseconds"] = result.stats.microseconds;
    if (!result.found() && !result.message.empty()) json["message"] = result.message;
    if (arguments.smooth) {
      json["smoothed"] = points_json(waypoints, false);
      json["smoothed_length"] = polyline_length(waypoints);
    }
    if (!arguments.svg_path.empty()) json["svg"] = arguments.svg_path;
    if (hierarchy != nullptr) json["hierarchy"] = hierarchy_json(*hierarchy);
    out << json.dump() << '\n';
  } else {
    out << "map:          " << arguments.map_path << " (" << map.width() << "x" << map.height() << ")\n";
    out << "query:        " << format_cell(arguments.from) << " -> " << format_cell(arguments.to) << '\n';
    out << "algorithm:    " << to_string(arguments.search.algorithm) << " (diagonal "
        << command_line_name(arguments.search.diagonal) << ", heuristic "
        << to_string(resolve_heuristic(arguments.search.heuristic, arguments.search.diagonal));
    if (arguments.agent_size > 1)
      out << ", agent " << arguments.agent_size << "x" << arguments.agent_size << " by its top-left cell";
    out << ")\n";
    out << "status:       " << to_string(result.status);
    if (result.status != SearchStatus::found) out << " (" << to_string(result.reason) << ")";
    out << '\n';
    if (has_path) {
      out << "cost:         " << format_fixed(result.cost, 6) << '\n';
      out << "moves:        " << moves << '\n';
    }
    if (!result.found() && !result.message.empty()) out << "why:          " << result.message << '\n';
    out << "expanded:     " << result.stats.expanded << '\n';
    out << "generated:    " << result.stats.generated << '\n';
    // A first query also pays for the pathfinder's search arrays; later queries reuse them.
    out << "microseconds: " << format_fixed(microseconds, 1) << " (find_path, first query; search loop "
        << format_fixed(result.stats.microseconds, 1) << ")\n";
    if (hierarchy != nullptr) out << "hierarchy:    " << hierarchy_text(*hierarchy) << '\n';
    if (has_path)
      out << (result.found() ? "path:         " : "partial path: ") << cells_text(map, result.nodes) << '\n';
    if (arguments.smooth && has_path)
      out << "smoothed:     " << waypoints.size() << " waypoints, length "
          << format_fixed(polyline_length(waypoints), 6) << ": " << points_text(waypoints) << '\n';
    if (!arguments.svg_path.empty()) out << "svg:          " << arguments.svg_path << '\n';
  }
  return result.found() ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
