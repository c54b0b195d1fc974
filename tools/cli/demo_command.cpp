#include "demo_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <vector>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "demo_queries.hpp"
#include "exit_status.hpp"
#include "path_audit.hpp"
#include "text_table.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/debug/grid_svg.hpp"
#include "wayfinder/grid/paths/path_smoothing.hpp"
#include "common/room_map_generator.hpp"

namespace wayfinder::cli {
namespace {

constexpr int demo_width = 96;
constexpr int demo_height = 64;
constexpr int demo_rooms = 16;
/// IDA* repeats work without bound on open maps; this keeps the demo to a fraction of a second.
constexpr std::uint64_t ida_max_expansions = 1'000'000;
constexpr const char* picture_name = "wayfinder-demo.svg";
constexpr const char* searches_picture_name = "wayfinder-demo-searches.svg";
constexpr const char* walkers_picture_name = "wayfinder-demo-walkers.svg";

struct AlgorithmRun {
  GridAlgorithm algorithm;
  PathResult result;
  double microseconds = 0.0;
  std::optional<std::string> problem;  ///< what the path check found wrong
};

struct RunTotals {
  std::size_t paths_checked = 0;
  std::size_t paths_failed = 0;
};

/// What the algorithms read besides the map (jps-plus's table, hpa's hierarchy) is built once per
/// map, as a game builds it, and a first query makes the pathfinder allocate its search arrays,
/// which a game pays once, not per query: both untimed, so that the table shows searches only.
/// (IDA* keeps only a path, and would take long.)
void warm_up(GridQuery& pathfinder, const DemoQuery& query) {
  GridDerivedData derived;
  for (const GridAlgorithm algorithm : every_grid_algorithm) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    build_grid_derived_data(pathfinder.map(), options, derived);
  }
  pathfinder.set_derived_data(std::move(derived));
  for (const GridAlgorithm algorithm : every_grid_algorithm) {
    if (algorithm == GridAlgorithm::ida_star) continue;
    GridSearchOptions options;
    options.algorithm = algorithm;
    (void)pathfinder.find_path(query.start, query.goal, options);
  }
}

std::vector<AlgorithmRun> run_every_algorithm(GridQuery& pathfinder, const DemoQuery& query, RunTotals& totals) {
  std::vector<AlgorithmRun> runs;
  // The searches, then the reactive walkers, which may fail (their note says why).
  for (const GridAlgorithm algorithm : every_grid_algorithm) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.return_partial = false;
    if (algorithm == GridAlgorithm::ida_star) options.budget.max_expansions = ida_max_expansions;
    AlgorithmRun run{algorithm, {}, 0.0, std::nullopt};
    const auto started = std::chrono::steady_clock::now();
    run.result = pathfinder.find_path(query.start, query.goal, options);
    run.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    if (run.result.found()) {
      ++totals.paths_checked;
      run.problem = find_path_problem(pathfinder.map(), query.start, query.goal, run.result, options.diagonal);
      if (run.problem) ++totals.paths_failed;
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

void print_query_table(std::ostream& out, std::size_t number, const DemoQuery& query,
                       const std::vector<AlgorithmRun>& runs) {
  const double distance = std::hypot(query.goal.x - query.start.x, query.goal.y - query.start.y);
  out << "Query " << number << ": " << format_cell(query.start) << " -> " << format_cell(query.goal)
      << " (straight-line distance " << format_fixed(distance, 1) << ")\n";
  std::optional<double> optimal;
  for (const AlgorithmRun& run : runs)
    if (run.algorithm == GridAlgorithm::dijkstra && run.result.found()) optimal = run.result.cost;

  using Align = TableColumn::Align;
  const TextTable table({{"algorithm", 14, Align::left},
                         {"status", 16, Align::left},
                         {"cost", 8, Align::right},
                         {"x optimal", 9, Align::right},
                         {"moves", 5, Align::right},
                         {"expanded", 8, Align::right},
                         {"microseconds", 12, Align::right},
                         {"path check", 10, Align::left}},
                        "  ");
  out << table.header_line() << '\n' << table.rule_line() << '\n';
  std::vector<std::string> notes;
  for (const AlgorithmRun& run : runs) {
    const PathResult& result = run.result;
    const bool found = result.found();
    std::string check = "-";
    if (found) check = run.problem ? "FAILED: " + *run.problem : "ok";
    const std::string ratio = found && optimal && *optimal > 0.0 ? format_fixed(result.cost / *optimal, 3) : "-";
    out << table.row_line({std::string(to_string(run.algorithm)), std::string(to_string(result.status)),
                           found ? format_fixed(result.cost, 2) : "-", ratio,
                           found ? std::to_string(result.nodes.size() - 1) : "-", std::to_string(result.stats.expanded),
                           format_fixed(run.microseconds, 1), check})
        << '\n';
    if (!result.message.empty())
      notes.push_back(std::string(to_string(run.algorithm)) + ": " + result.message);
    else if (result.reason == StopReason::expansion_limit)
      notes.push_back(std::string(to_string(run.algorithm)) + ": stopped after " +
                      std::to_string(result.stats.expanded) + " expansions (its budget here; it suits small maps)");
  }
  for (const std::string& note : notes) out << "  " << note << '\n';
  out << '\n';
}

/// The demo map with every passable cell at cost 1, where jump point search applies.
GridMap without_terrain(const GridMap& map) {
  GridMap uniform = map;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (map.passable(x, y) && map.cost(x, y) != 1.0f) uniform.set_cost(x, y, 1.0f);
  return uniform;
}

std::size_t count_cells_costing(const GridMap& map, float cost) {
  std::size_t count = 0;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (map.passable(x, y) && map.cost(x, y) == cost) ++count;
  return count;
}

/// Picture 1 says one thing: how A* searched (the cells it explored) and the optimal path it
/// found, with that path smoothed to any-angle waypoints (dashed).
void write_search_picture(const std::filesystem::path& path, const GridMap& map, const DemoQuery& query,
                          std::uint64_t seed) {
  GridQuery pathfinder(map);
  SearchTrace trace;
  GridSearchOptions traced;
  traced.algorithm = GridAlgorithm::astar;
  traced.trace = &trace;
  const PathResult astar = pathfinder.find_path(query.start, query.goal, traced);

  GridSvgOptions picture;
  picture.title = "Wayfinder demo, seed " + std::to_string(seed) + ": astar from " + format_cell(query.start) + " to " +
                  format_cell(query.goal) + ", the cells it explored and its optimal path";
  picture.trace = &trace;
  picture.start = query.start;
  picture.goal = query.goal;
  if (astar.found()) picture.paths.push_back({"astar (optimal)", "#d62728", astar.nodes, smooth_path(map, astar.nodes)});
  write_grid_svg(path, map, picture);
}

/// Pictures 2 and 3 compare: the optimal path against every longer path that the searches
/// (weighted A*, greedy, bfs, hpa) or the reactive walkers found, each in a colour of its own;
/// the algorithms that found an equally short path are listed in the text tables, not drawn
/// again on top of it.
void write_comparison_picture(const std::filesystem::path& path, const GridMap& map, const DemoQuery& query,
                              const std::vector<AlgorithmRun>& runs, bool walkers, std::uint64_t seed) {
  const auto optimal = std::find_if(runs.begin(), runs.end(), [](const AlgorithmRun& run) {
    return run.algorithm == GridAlgorithm::dijkstra && run.result.found();
  });
  GridSvgOptions picture;
  picture.title = "Wayfinder demo, seed " + std::to_string(seed) + ": the optimal path from " + format_cell(query.start) +
                  " to " + format_cell(query.goal) + " and the longer paths of the " +
                  (walkers ? "reactive walkers" : "other searches");
  picture.start = query.start;
  picture.goal = query.goal;
  if (optimal != runs.end()) picture.paths.push_back({"optimal (dijkstra, astar, ...)", "", optimal->result.nodes, {}});
  for (const AlgorithmRun& run : runs) {
    if (!run.result.found() || is_reactive_walker(run.algorithm) != walkers) continue;
    if (optimal != runs.end() && run.result.cost <= optimal->result.cost * (1.0 + 1e-9)) continue;
    const std::string times =
        optimal == runs.end() ? "" : " (x" + format_fixed(run.result.cost / optimal->result.cost, 2) + ")";
    picture.paths.push_back({std::string(to_string(run.algorithm)) + times, "", run.result.nodes, {}});
  }
  write_grid_svg(path, map, picture);
}

}  // namespace

void configure_demo_command(CLI::App& command, DemoArguments& arguments) {
  command
      .add_option(
          "--out", arguments.out_directory,
          std::string("directory for ") + picture_name + ", created if missing (default: the current directory)")
      ->type_name("DIR");
  add_whole_number_option(command, "--seed", arguments.seed, 0, std::numeric_limits<std::uint64_t>::max(),
                          "seed of the generated map")
      ->default_str(std::to_string(arguments.seed));
}

int run_demo_command(const DemoArguments& arguments, std::ostream& out, std::ostream& err) {
  RoomMapOptions map_options;
  map_options.width = demo_width;
  map_options.height = demo_height;
  map_options.room_count = demo_rooms;
  map_options.seed = arguments.seed;
  const RoomMap rooms = generate_room_map(map_options);
  const std::vector<DemoQuery> queries = pick_demo_queries(rooms);

  out << "Wayfinder demo (seed " << arguments.seed << "): a " << rooms.map.width() << "x" << rooms.map.height()
      << " map of " << rooms.rooms.size() << " rooms joined by corridors, with "
      << count_cells_costing(rooms.map, map_options.forest_cost) << " cells of forest (cost "
      << format_fixed(map_options.forest_cost, 0) << ") and " << count_cells_costing(rooms.map, map_options.swamp_cost)
      << " of swamp (cost " << format_fixed(map_options.swamp_cost, 0) << ").\n"
      << "Diagonal moves may not cut corners (the MovingAI rule). Costs: 1 per straight move, 1.414 per diagonal,\n"
      << "times the terrain cost; 'x optimal' compares with dijkstra's cost. The last five rows are reactive\n"
      << "walkers (crash-*, divide): they do not search, and may fail where a path exists.\n\n";

  RunTotals totals;
  out << "== With terrain ==\n\n";
  GridQuery pathfinder(rooms.map);
  if (!queries.empty()) warm_up(pathfinder, queries.front());
  std::vector<AlgorithmRun> first_query_runs;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    std::vector<AlgorithmRun> runs = run_every_algorithm(pathfinder, queries[i], totals);
    print_query_table(out, i + 1, queries[i], runs);
    if (i == 0) first_query_runs = std::move(runs);
  }

  out << "== The same map and queries with every cell at cost 1 (jump point search needs this) ==\n\n";
  const GridMap uniform = without_terrain(rooms.map);
  GridQuery uniform_pathfinder(uniform);
  if (!queries.empty()) warm_up(uniform_pathfinder, queries.front());
  for (std::size_t i = 0; i < queries.size(); ++i)
    print_query_table(out, i + 1, queries[i], run_every_algorithm(uniform_pathfinder, queries[i], totals));

  if (totals.paths_failed == 0) {
    out << "All " << totals.paths_checked << " paths found passed check_grid_path: each move goes to an adjacent "
        << "passable cell without cutting a corner, and the moves add up to the reported cost.\n";
  } else {
    report_error(err, std::to_string(totals.paths_failed) + " of " + std::to_string(totals.paths_checked) +
                          " paths failed check_grid_path (see the tables)");
  }

  if (!queries.empty()) {
    std::filesystem::path directory = arguments.out_directory.empty() ? "." : arguments.out_directory;
    try {
      std::filesystem::create_directories(directory);
    } catch (const std::filesystem::filesystem_error& error) {
      throw CommandError("--out " + arguments.out_directory + ": cannot create the directory (" +
                         error.code().message() + ")");
    }
    const auto in_directory = [&](const char* name) {
      return arguments.out_directory.empty() ? std::filesystem::path(name) : directory / name;
    };
    const std::filesystem::path search_path = in_directory(picture_name);
    const std::filesystem::path searches_path = in_directory(searches_picture_name);
    const std::filesystem::path walkers_path = in_directory(walkers_picture_name);
    write_search_picture(search_path, rooms.map, queries.front(), arguments.seed);
    write_comparison_picture(searches_path, rooms.map, queries.front(), first_query_runs, false, arguments.seed);
    write_comparison_picture(walkers_path, rooms.map, queries.front(), first_query_runs, true, arguments.seed);
    out << "Wrote " << search_path.string() << ": query 1 with terrain, the cells astar explored and its optimal"
        << " path (dashed: smoothed to any-angle waypoints).\n"
        << "Wrote " << searches_path.string() << " and " << walkers_path.string()
        << ": the same query's optimal path against the longer paths of the other searches, and of the reactive"
        << " walkers, each with its cost as a multiple of the optimum.\n";
  }
  return totals.paths_failed == 0 ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
