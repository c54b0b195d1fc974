#include "grid/grid_path_command.hpp"

#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/world_json.hpp"

#include "command_error.hpp"
#include "command_line_terms.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "grid/grid_derived_files.hpp"
#include "grid/grid_table_memory.hpp"
#include "text_table.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/debug/grid_svg.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_smoothing.hpp"

namespace wayfinder::cli {
namespace {

std::string cells_text(const GridMap& map, const std::vector<NodeId>& nodes, bool full) {
  std::vector<std::string> cells;
  cells.reserve(nodes.size());
  for (const NodeId id : nodes) cells.push_back(format_cell(map.cell_of(id)));
  return std::to_string(nodes.size()) + " cells: " + elided_items(cells, full) +
         (full || cells.size() <= 8 ? "" : " (--full-path prints every cell)");
}

std::string points_text(const std::vector<Point>& points) {
  std::string text;
  for (const Point& point : points) {
    if (!text.empty()) text += ' ';
    text += format_fixed(point.x, 1) + "," + format_fixed(point.y, 1);
  }
  return text;
}

/// What the query found and what it took: all that the report prints besides the arguments.
struct GridPathAnswer {
  const PathResult& result;
  double microseconds = 0.0;  ///< find_path, the pathfinder's first query
  const HierarchicalGrid* hierarchy = nullptr;  ///< hpa's, built before the timed query
  std::vector<Point> waypoints;  ///< --smooth's any-angle path

  [[nodiscard]] bool has_path() const { return !result.nodes.empty(); }
  [[nodiscard]] std::size_t moves() const { return has_path() ? result.nodes.size() - 1 : 0; }
};

/// Refuses what the options cannot do together, before any search runs.
void refuse_unsupported_combinations(const GridPathArguments& arguments) {
  // Smoothing draws lines for a point-sized agent: its waypoints would take a larger body
  // through gaps it does not fit.
  if (arguments.smooth && arguments.agent_size > 1)
    throw CommandError("--smooth supports only --agent-size 1: its lines of sight are a one-cell agent's");
  // A saved table or saved bounds feed only JPS+: given with another search they would be read
  // for nothing, and the user would believe they were used.
  if ((!arguments.table_path.empty() || !arguments.bounds_path.empty()) &&
      arguments.search.algorithm != GridAlgorithm::jump_point_plus)
    throw CommandError(std::string(arguments.table_path.empty() ? "--bounds" : "--table") +
                       " is read only by --algo jps-plus, not " + std::string(to_string(arguments.search.algorithm)));
  if (!arguments.table_path.empty() && arguments.agent_size > 1)
    throw CommandError("--table holds a one-cell agent's jumps; with --agent-size " +
                       std::to_string(arguments.agent_size) +
                       " jps-plus builds the table of the map as the agent sees it (leave --table out)");
}

/// --svg: the same query again with a trace, for the picture (searches are deterministic; the
/// timed query ran without one, so that its time is the search alone).
void draw_traced_query(const GridPathArguments& arguments, const GridMap& map, GridQuery& pathfinder,
                       GridSearchOptions options, const std::vector<Point>& waypoints) {
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

void print_json(const GridPathArguments& arguments, const GridMap& map, const GridPathAnswer& answer,
                std::ostream& out) {
  const PathResult& result = answer.result;
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
  json["cost"] = answer.has_path() ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
  json["moves"] = answer.moves();
  json["cells"] = cells_json(map, result.nodes);
  json["expanded"] = result.stats.expanded;
  json["generated"] = result.stats.generated;
  json["peak_open"] = result.stats.peak_open;
  json["microseconds"] = answer.microseconds;
  json["search_microseconds"] = result.stats.microseconds;
  if (!result.found() && !result.message.empty()) json["message"] = result.message;
  if (arguments.smooth) {
    json["smoothed"] = points_json(answer.waypoints, false);
    json["smoothed_length"] = polyline_length(answer.waypoints);
  }
  if (!arguments.svg_path.empty()) json["svg"] = arguments.svg_path;
  if (answer.hierarchy != nullptr) json["hierarchy"] = hierarchy_json(*answer.hierarchy);
  out << json.dump() << '\n';
}

void print_text(const GridPathArguments& arguments, const GridMap& map, const GridPathAnswer& answer,
                std::ostream& out) {
  const PathResult& result = answer.result;
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
  if (answer.has_path()) {
    out << "cost:         " << format_fixed(result.cost, 6) << '\n';
    out << "moves:        " << answer.moves() << '\n';
  }
  if (!result.found() && !result.message.empty()) out << "why:          " << result.message << '\n';
  out << "expanded:     " << result.stats.expanded << '\n';
  out << "generated:    " << result.stats.generated << '\n';
  // A first query also pays for the pathfinder's search arrays; later queries reuse them.
  out << "microseconds: " << format_fixed(answer.microseconds, 1) << " (find_path, first query; search loop "
      << format_fixed(result.stats.microseconds, 1) << ")\n";
  if (answer.hierarchy != nullptr) out << "hierarchy:    " << hierarchy_text(*answer.hierarchy) << '\n';
  if (answer.has_path())
    out << (result.found() ? "path:         " : "partial path: ") << cells_text(map, result.nodes, arguments.full_path) << '\n';
  if (arguments.smooth && answer.has_path())
    out << "smoothed:     " << answer.waypoints.size() << " waypoints, length "
        << format_fixed(polyline_length(answer.waypoints), 6) << ": " << points_text(answer.waypoints) << '\n';
  if (!arguments.svg_path.empty()) out << "svg:          " << arguments.svg_path << '\n';
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

void configure_grid_path_command(CLI::App& command, GridPathArguments& arguments) {
  add_grid_map_argument(command, arguments.map_path);
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
  add_grid_agent_size_option(command, arguments.agent_size,
                             "the agent's side in cells: a K x K agent whose position is its top-left cell; every "
                             "cell of its body must be passable (not with bfs or the walkers)");
  add_grid_cluster_size_option(command, arguments.cluster_size);
  command.add_flag("--smooth", arguments.smooth,
                   "also print any-angle waypoints smoothed by line of sight (agent size 1 only)");
  command.add_option("--table", arguments.table_path,
                     "jps-plus: a jump table saved by grid preprocess for this map, instead of building one")
      ->type_name("FILE");
  command.add_option("--bounds", arguments.bounds_path,
                     "jps-plus: goal bounds saved by grid preprocess --goal-bounds for this map, to prune by")
      ->type_name("FILE");
  add_table_memory_option(command, arguments.max_table_memory);
  command.add_flag("--full-path", arguments.full_path,
                   "print every cell of the path (text output shows its first and last cells; --json has them all)");
  command.add_option("--svg", arguments.svg_path, "write a picture of the map, the explored cells and the path")
      ->type_name("FILE");
  add_json_flag(command, arguments.json);
}

int run_grid_path_command(const GridPathArguments& arguments, std::ostream& out, std::ostream& /*err*/) {
  const GridMap map = read_movingai_map(arguments.map_path);
  refuse_unsupported_combinations(arguments);

  GridSearchOptions options = arguments.search;
  options.budget.max_expansions = arguments.max_expansions;
  options.agent_size = static_cast<int>(arguments.agent_size);
  options.cluster_size = static_cast<int>(arguments.cluster_size);
  options.trace = nullptr;
  GridQuery pathfinder(map);
  // What the query reads besides the map (hpa's hierarchy, jps-plus's table, a larger agent's
  // clearance and body map) is built here, untimed, so that the time below is the query's (the
  // hierarchy's build is reported on its own). A table or bounds given as files are loaded
  // instead of built.
  GridDerivedData derived;
  if (!arguments.table_path.empty()) derived.jump_table = load_jump_table_for(arguments.table_path, map, arguments.map_path);
  if (!arguments.bounds_path.empty())
    derived.goal_bounds = load_goal_bounds_for(arguments.bounds_path, map, arguments.map_path);
  // A jump table to build (of the map, or of a larger agent's body map of the same size).
  if (options.algorithm == GridAlgorithm::jump_point_plus && !derived.jump_table)
    refuse_table_over_cap("the jump table", GridJumpTable::memory_bytes_for(map), arguments.max_table_memory, map);
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
    throw CommandError(arguments.map_path + ": " + in_command_line_terms(result.message),
                       arguments.map_path);
  GridPathAnswer answer{result, microseconds, hierarchy, {}};
  if (arguments.smooth && answer.has_path()) answer.waypoints = smooth_path(map, result.nodes);
  if (!arguments.svg_path.empty()) draw_traced_query(arguments, map, pathfinder, options, answer.waypoints);
  if (arguments.json)
    print_json(arguments, map, answer, out);
  else
    print_text(arguments, map, answer, out);
  return result.found() ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
