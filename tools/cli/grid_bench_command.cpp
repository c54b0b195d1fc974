#include "grid_bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <nlohmann/json.hpp>

#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "progress_bar.hpp"
#include "scenario_scoring.hpp"
#include "text_table.hpp"
#include "wayfinder/grid/movingai_io.hpp"

namespace wayfinder::cli {
namespace {

constexpr std::size_t mismatches_shown_per_algorithm = 5;

TextTable summary_table() {
  using Align = TableColumn::Align;
  return TextTable({{"algorithm", 14, Align::left},
                    {"queries", 7, Align::right},
                    {"solved", 7, Align::right},
                    {"mismatches", 10, Align::right},
                    {"max_abs_error", 13, Align::right},
                    {"mean_us", 10, Align::right},
                    {"median_us", 10, Align::right},
                    {"mean_expanded", 13, Align::right}});
}

nlohmann::ordered_json summary_json(const BenchSummary& summary, const GridBenchArguments& arguments,
                                    const std::string& map_path, double tolerance) {
  nlohmann::ordered_json json;
  json["algorithm"] = summary.algorithm;
  json["queries"] = summary.queries;
  json["solved"] = summary.solved;
  json["mismatches"] = summary.mismatches;
  json["budget_exhausted"] = summary.budget_exhausted;
  json["max_abs_error"] = summary.max_abs_error;
  json["mean_us"] = summary.mean_us;
  json["median_us"] = summary.median_us;
  json["mean_expanded"] = summary.mean_expanded;
  json["mean_generated"] = summary.mean_generated;
  json["tolerance"] = tolerance;
  json["scenario"] = arguments.scenario_path;
  json["map"] = map_path;
  return json;
}

}  // namespace

void configure_grid_bench_command(CLI::App& command, GridBenchArguments& arguments) {
  command.add_option("SCEN", arguments.scenario_path, "MovingAI .scen file")->required()->type_name("FILE");
  command.add_option("--map", arguments.map_path, "the map (default: the scenario path minus .scen)")
      ->type_name("FILE");
  add_algorithm_list_option(command, "--algo,-a", arguments.algorithms, "algorithms to run")->default_str("astar");
  add_number_option(command, "--weight", arguments.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W");
  add_whole_number_option(command, "--ida-budget", arguments.ida_max_expansions, 1, Budget::unlimited_expansions,
                          "expansions allowed per IDA* query; queries over budget count as unsolved, not mismatches")
      ->default_str(std::to_string(arguments.ida_max_expansions));
  add_whole_number_option(command, "--limit", arguments.limit, 1, std::numeric_limits<std::uint64_t>::max(),
                          "run only the first N queries");
  command.add_flag("--json", arguments.json, "print one JSON object per algorithm, one per line");
  command.footer(
      "A mismatch is an answer that breaks the algorithm's promise: an optimal algorithm (astar, dijkstra,\n"
      "bidirectional, jps) off the scenario's optimal length by more than the tolerance (1e-3, or 0.011 for\n"
      "2-decimal scenarios, or 1e-5 x the length if that is more: most lengths have 6 significant digits),\n"
      "weighted-astar above weight x optimal, or any algorithm returning no path or an invalid one.\n"
      "Times are search only, measured around each find_path call.\n"
      "Exit status: 0 no mismatch; 1 some mismatch; 2 bad input or usage.");
}

int run_grid_bench_command(const GridBenchArguments& arguments, std::ostream& out, std::ostream& err) {
  const Scenario scenario = read_movingai_scenario(arguments.scenario_path);
  const std::string map_path =
      arguments.map_path.empty() ? scenario_map_path(arguments.scenario_path).string() : arguments.map_path;
  const GridMap map = read_movingai_map(map_path);
  check_scenario_fits_map(scenario, map);

  std::size_t query_count = scenario.queries.size();
  if (arguments.limit > 0) query_count = std::min<std::size_t>(query_count, arguments.limit);
  const double tolerance = scenario_tolerance(scenario);

  const TextTable table = summary_table();
  if (!arguments.json) {
    out << "scenario: " << arguments.scenario_path << " (" << query_count << " queries)\n";
    out << "map:      " << map_path << " (" << map.width() << "x" << map.height() << ")\n";
    out << "tolerance " << format_fixed(tolerance, 3) << " (or 1e-5 x the length if more); "
        << "times are microseconds per query, search only\n\n";
    out << table.header_line() << '\n' << table.rule_line() << '\n' << std::flush;
  }

  ProgressBar progress(err, standard_error_is_terminal());
  // One pathfinder for everything: its search state is reused from query to query, as a game
  // would use it.
  GridPathfinder pathfinder(map);
  bool any_mismatch = false;
  for (const GridAlgorithm algorithm : arguments.algorithms) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.weight = arguments.weight;
    options.return_partial = false;
    if (algorithm == GridAlgorithm::ida_star) options.budget.max_expansions = arguments.ida_max_expansions;

    BenchTally tally(algorithm);
    std::size_t shown = 0;
    progress.start(std::string(to_string(algorithm)), query_count);
    for (std::size_t i = 0; i < query_count; ++i) {
      const ScenarioQuery& query = scenario.queries[i];
      const auto started = std::chrono::steady_clock::now();
      const PathResult result = pathfinder.find_path(query.start, query.goal, options);
      const double microseconds =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
      const QueryScore score = score_query(map, query, result, algorithm, arguments.weight, tolerance);
      tally.add(score, microseconds, result.stats);
      if (score.mismatch && shown++ < mismatches_shown_per_algorithm) {
        progress.clear();
        err << "mismatch: " << scenario.source_name << ":" << query.line << ": " << to_string(algorithm) << " from "
            << format_cell(query.start) << " to " << format_cell(query.goal) << ": " << score.problem << '\n';
      }
      progress.update(i + 1);
    }
    progress.clear();

    const BenchSummary summary = tally.summary();
    any_mismatch = any_mismatch || summary.mismatches > 0;
    if (arguments.json) {
      out << summary_json(summary, arguments, map_path, tolerance).dump() << '\n' << std::flush;
    } else {
      out << table.row_line({summary.algorithm, std::to_string(summary.queries), std::to_string(summary.solved),
                             std::to_string(summary.mismatches), format_fixed(summary.max_abs_error, 6),
                             format_fixed(summary.mean_us, 1), format_fixed(summary.median_us, 1),
                             format_fixed(summary.mean_expanded, 1)})
          << '\n'
          << std::flush;
      if (summary.budget_exhausted > 0)
        out << "  (" << summary.budget_exhausted << " queries stopped by the budget of " << arguments.ida_max_expansions
            << " expansions)\n";
    }
  }
  return any_mismatch ? exit_no_path : exit_ok;
}

}  // namespace wayfinder::cli
