#include "crowd/crowd_scenario_command.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "common/crowd_scenario.hpp"
#include "mesh/mesh_command_support.hpp"
#include "output_paths.hpp"

namespace wayfinder::cli {

void configure_crowd_scenario_command(CLI::App& command, CrowdScenarioArguments& arguments) {
  command.add_option("KIND", arguments.kind, tools::crowd_scenario_kind_list())->required();
  add_whole_number_option(command, "--agents", arguments.agents, 1, 100'000, "how many agents")->default_str("40");
  add_whole_number_option(command, "--seed", arguments.seed, 0, UINT64_MAX, "seed of the random scenario")->default_str("1");
  add_number_option(command, "--radius", arguments.radius, 0.01, "the agents' radius")->default_str("0.4");
  add_number_option(command, "--speed", arguments.max_speed, 0.01,
                    "the agents' max speed, per second (overtaking: the fast agents'; the slow walk at half)")
      ->default_str("1.5");
  command.add_option("--mesh", arguments.mesh_path,
                     "random: the navigation mesh the agents walk on (.obj, .mesh, .wfnav); default a flat square")
      ->type_name("FILE");
  add_required_output_option(command, arguments.output_path, "the scenario file to write (JSON)");
  command.add_flag("--json", arguments.json, "print what was written as one JSON object");
}

int run_crowd_scenario_command(const CrowdScenarioArguments& arguments, std::ostream& out, std::ostream& /*err*/) {
  const std::optional<tools::CrowdScenarioKind> kind = tools::parse_crowd_scenario_kind(arguments.kind);
  if (!kind)
    throw CommandError("unknown scenario kind '" + arguments.kind + "' (kinds: " + tools::crowd_scenario_kind_list() + ")");
  if (arguments.agents < tools::minimum_crowd_scenario_agents(*kind))
    throw CommandError("--agents: the " + arguments.kind + " scenario needs at least " +
                       std::to_string(tools::minimum_crowd_scenario_agents(*kind)) + " agents");
  if (!arguments.mesh_path.empty()) {
    if (*kind != tools::CrowdScenarioKind::random) throw CommandError("--mesh is only for the random scenario");
    refuse_output_over("-o", arguments.output_path, "the mesh", arguments.mesh_path);
  }
  tools::CrowdScenarioRequest request;
  request.kind = *kind;
  request.agents = arguments.agents;
  request.seed = arguments.seed;
  request.radius = arguments.radius;
  request.max_speed = arguments.max_speed;
  MeshGeometry geometry;
  if (!arguments.mesh_path.empty()) {
    geometry = read_mesh_geometry(arguments.mesh_path, false);
    request.mesh = &geometry;
    // The scenario names the mesh from its own folder.
    const std::filesystem::path output_folder = std::filesystem::absolute(arguments.output_path).parent_path();
    request.mesh_file = std::filesystem::relative(std::filesystem::absolute(arguments.mesh_path), output_folder);
  }
  const tools::CrowdScenario scenario = tools::generate_crowd_scenario(request);
  std::ofstream file(arguments.output_path, std::ios::binary);
  file << tools::crowd_scenario_to_json(scenario).dump(1) << "\n";
  file.close();
  if (!file) throw CommandError("cannot write the scenario to '" + arguments.output_path + "'", arguments.output_path);
  if (arguments.json) {
    out << nlohmann::ordered_json{{"scenario", arguments.output_path}, {"kind", arguments.kind},
                                  {"agents", scenario.agents.size()}, {"steps", scenario.steps}, {"dt", scenario.dt}}
               .dump()
        << "\n";
  } else {
    out << "wrote " << arguments.output_path << ": " << arguments.kind << ", " << scenario.agents.size() << " agents, "
        << scenario.steps << " ticks of " << scenario.dt << " s\n";
  }
  return 0;
}

}  // namespace wayfinder::cli
