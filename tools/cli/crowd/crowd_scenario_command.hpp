#pragma once
// `wayfinder crowd scenario KIND -o FILE`: writes one of the standard crowd scenarios (circle
// swap, doorway crossed both ways, two-way hallway, bottleneck evacuation, random agents on a
// mesh, four-way crossing, fast agents overtaking slow ones, two floors) as a scenario file for `wayfinder crowd run`.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct CrowdScenarioArguments {
  std::string kind;
  std::uint64_t agents = 40;
  std::uint64_t seed = 1;
  double radius = 0.4;
  double max_speed = 1.5;
  std::string mesh_path;  ///< for `random`: the mesh file to walk on
  std::string output_path;
  bool json = false;
};

void configure_crowd_scenario_command(CLI::App& command, CrowdScenarioArguments& arguments);

/// Returns 0; throws CommandError for a kind it does not know or a file it cannot write.
int run_crowd_scenario_command(const CrowdScenarioArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
