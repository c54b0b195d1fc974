#include "crowd/crowd_run_command.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "common/crowd_run.hpp"
#include "common/crowd_scenario.hpp"
#include "crowd/crowd_trails_svg.hpp"
#include "crowd/steersuite_scenario.hpp"
#include "mesh/mesh_command_support.hpp"
#include "output_paths.hpp"
#include "text_table.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

void configure_crowd_run_command(CLI::App& command, CrowdRunArguments& arguments) {
  add_required_file_argument(command, "SCENARIO", arguments.scenario_path,
                             "crowd scenario file (JSON), or a SteerSuite test case (.xml); docs/crowds.md");
  add_whole_number_option(command, "--steps", arguments.steps, 1, 100'000'000,
                          "ticks to run (default: the scenario's)");
  command.add_option("--dt", arguments.dt, "seconds per tick (default: the scenario's)")
      ->type_name("S")
      ->check(CLI::PositiveNumber);
  add_whole_number_option(command, "--threads", arguments.threads, 1, 256,
                          "threads each update splits the agents over (the positions are the same for every count)")
      ->default_str("1");
  command.add_flag("--json", arguments.json, "print one JSON object instead of text");
  add_whole_number_option(command, "--seed", arguments.seed, 0, std::numeric_limits<std::uint64_t>::max(),
                          "a SteerSuite test case's random agents, goals and obstacles")
      ->default_str("1");
  command.add_option("--save-scenario", arguments.save_scenario_path,
                     "write a SteerSuite test case as the JSON scenario file it runs as (its built mesh included)")
      ->type_name("FILE");
  command.add_option("--svg", arguments.svg_path, "draw the mesh and every agent's trail (a colour per agent)")
      ->type_name("FILE");
}

int run_crowd_run_command(const CrowdRunArguments& arguments, std::ostream& out, std::ostream& err) {
  if (!arguments.svg_path.empty()) refuse_output_over("--svg", arguments.svg_path, "the scenario", arguments.scenario_path);
  const bool steersuite = is_steersuite_testcase(arguments.scenario_path);
  if (!arguments.save_scenario_path.empty()) {
    if (!steersuite) throw CommandError("--save-scenario is for SteerSuite test cases (.xml), not JSON scenario files");
    refuse_output_over("--save-scenario", arguments.save_scenario_path, "the test case", arguments.scenario_path);
  }
  const tools::CrowdScenario scenario = steersuite ? crowd_scenario_from_steersuite(arguments.scenario_path, arguments.seed, err)
                                                   : tools::read_crowd_scenario(arguments.scenario_path);
  if (!arguments.save_scenario_path.empty()) {
    std::ofstream file(arguments.save_scenario_path, std::ios::binary);
    file << tools::crowd_scenario_to_json(scenario).dump(1) << "\n";
    file.close();
    if (!file)
      throw CommandError("cannot write the scenario to '" + arguments.save_scenario_path + "'", arguments.save_scenario_path);
  }
  // The scenario's world: a grid (a MovingAI map) or a mesh.
  const bool on_grid = !scenario.grid_file.empty();
  const GridMap map = on_grid ? read_movingai_map(scenario.grid_file) : GridMap();
  std::optional<NavMesh> mesh;
  if (!on_grid)
    mesh.emplace(NavMesh::build(scenario.mesh_file.empty() ? scenario.geometry
                                                           : read_mesh_geometry(scenario.mesh_file.string(), false)));

  tools::CrowdRunOptions options;
  if (arguments.steps > 0) options.steps = arguments.steps;
  if (arguments.dt > 0.0) options.dt = arguments.dt;
  options.threads = arguments.threads;
  const double dt = options.dt.value_or(scenario.dt);
  // A trail point every half second or so: enough to see the way, few enough to read.
  if (!arguments.svg_path.empty()) options.trail_interval = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(0.5 / dt)));
  tools::CrowdRun run;
  try {
    run = on_grid ? tools::run_crowd_scenario(map, scenario, options) : tools::run_crowd_scenario(*mesh, scenario, options);
  } catch (const std::invalid_argument& error) {
    throw CommandError(arguments.scenario_path + ": " + error.what(), arguments.scenario_path);
  }
  if (!arguments.svg_path.empty()) {
    if (on_grid)
      write_crowd_trails_svg(arguments.svg_path, map, scenario, run.trails);
    else
      write_crowd_trails_svg(arguments.svg_path, *mesh, scenario, run.trails);
  }

  const tools::CrowdMetrics& m = run.metrics;
  if (arguments.json) {
    nlohmann::ordered_json json;
    json["scenario"] = arguments.scenario_path;
    json["threads"] = arguments.threads;
    json["metrics"] = tools::crowd_metrics_json(m);
    if (!arguments.svg_path.empty()) json["svg"] = arguments.svg_path;
    out << json.dump(2) << "\n";
    return 0;
  }
  out << "scenario:      " << arguments.scenario_path << " (" << m.agents << " agents, " << m.steps << " ticks of "
      << format_fixed(m.dt, 3) << " s, " << arguments.threads << " thread" << (arguments.threads == 1 ? "" : "s") << ")\n"
      << "arrived:       " << m.arrived << " of " << m.agents << ", after " << format_fixed(m.arrival_time_mean, 2)
      << " s on average, " << format_fixed(m.arrival_time_max, 2) << " s at most\n"
      << "path length:   " << format_fixed(m.path_ratio_mean, 3) << " of the shortest on average, "
      << format_fixed(m.path_ratio_max, 3) << " at most\n"
      << "overlaps:      " << m.overlap_pair_ticks << " pair-ticks beyond 1 % of a radius; worst penetration "
      << format_fixed(100.0 * m.worst_penetration, 2) << " % of a radius\n"
      << "off the mesh:  " << m.off_mesh_agent_ticks << " agent-ticks (at most " << m.off_mesh_max << " at once)\n"
      << "stuck:         " << m.stuck << "\n"
      << "settled:       " << m.settled << " agents over the last second, speed " << format_fixed(m.settled_speed_mean, 4)
      << " m/s on average, " << format_fixed(m.settled_speed_max, 4) << " m/s at most ("
      << format_fixed(100.0 * m.settled_speed_fraction_max, 2) << " % of max speed)\n"
      << "update:        " << format_fixed(m.update_us_mean, 1) << " us a tick on average, p99 "
      << format_fixed(m.update_us_p99, 1) << " us; " << format_fixed(m.update_us_per_agent, 3) << " us per agent\n";
  if (!arguments.svg_path.empty()) out << "svg:           " << arguments.svg_path << "\n";
  return 0;
}

}  // namespace wayfinder::cli
