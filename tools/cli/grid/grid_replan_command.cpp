#include "grid/grid_replan_command.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "common/replan_experiment.hpp"
#include "exit_status.hpp"
#include "text_table.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

void configure_grid_replan_command(CLI::App& command, GridReplanArguments& arguments) {
  add_grid_scenario_arguments(command, arguments.scenario_path, arguments.map_path);
  add_whole_number_option(command, "--changes", arguments.changes, 1, 1'000'000,
                          "doors closed or opened ahead of each agent as it walks");
  add_whole_number_option(command, "--seed", arguments.seed, 0, UINT64_MAX, "seed of the random changes");
  add_whole_number_option(command, "--queries", arguments.queries, 0, UINT64_MAX,
                          "agents (scenario queries, spread over the file); 0: every query");
  add_json_flag(command, arguments.json);
}

int run_grid_replan_command(const GridReplanArguments& arguments, std::ostream& out, std::ostream&) {
  const Scenario scenario = read_movingai_scenario(arguments.scenario_path);
  const std::string map_path =
      arguments.map_path.empty() ? scenario_map_path(arguments.scenario_path).string() : arguments.map_path;
  const GridMap map = read_movingai_map(map_path);
  ReplanExperimentOptions options;
  options.changes_per_query = static_cast<std::size_t>(arguments.changes);
  options.seed = arguments.seed;
  options.query_limit = static_cast<std::size_t>(arguments.queries);
  ReplanExperimentResult result;
  try {
    result = run_replan_experiment(map, scenario, options);
  } catch (const std::invalid_argument& error) {
    throw CommandError(map_path + ": " + error.what(), map_path, 0);
  }
  const int status = result.mismatches == 0 && result.mpaa_mismatches == 0 ? exit_ok : exit_no_path;
  if (arguments.json) {
    nlohmann::ordered_json json;
    json["scenario"] = arguments.scenario_path;
    json["map"] = map_path;
    json["queries"] = result.queries;
    json["changes"] = result.changes;
    json["replans"] = result.replans;
    json["mismatches"] = result.mismatches;
    json["mpaa_mismatches"] = result.mpaa_mismatches;
    json["dstar_mean_us"] = result.dstar_mean_us;
    json["mpaa_mean_us"] = result.mpaa_mean_us;
    json["astar_mean_us"] = result.astar_mean_us;
    json["jps_mean_us"] = result.jps_mean_us;
    json["dstar_mean_expansions"] = result.dstar_mean_expansions;
    json["mpaa_mean_expansions"] = result.mpaa_mean_expansions;
    json["astar_mean_expansions"] = result.astar_mean_expansions;
    json["jps_mean_expansions"] = result.jps_mean_expansions;
    out << json.dump() << "\n";
    return status;
  }
  out << "scenario: " << arguments.scenario_path << " (" << result.queries << " agents, " << result.changes
      << " changes, " << result.replans << " replans)\n";
  const TextTable table({{"planner", 20, TableColumn::Align::left}, {"mean µs per replan", 20}, {"mean expansions", 16}});
  out << table.header_line() << "\n" << table.rule_line() << "\n";
  out << table.row_line({"D* Lite (repair)", format_fixed(result.dstar_mean_us, 1), format_fixed(result.dstar_mean_expansions, 1)}) << "\n";
  out << table.row_line({"MPAA* (replan)", format_fixed(result.mpaa_mean_us, 1), format_fixed(result.mpaa_mean_expansions, 1)}) << "\n";
  out << table.row_line({"A* (from scratch)", format_fixed(result.astar_mean_us, 1), format_fixed(result.astar_mean_expansions, 1)}) << "\n";
  out << table.row_line({"JPS (from scratch)", format_fixed(result.jps_mean_us, 1), format_fixed(result.jps_mean_expansions, 1)}) << "\n";
  out << "mismatches against A*: " << result.mismatches << " (D* Lite), " << result.mpaa_mismatches << " (MPAA*)\n";
  return status;
}

}  // namespace wayfinder::cli
