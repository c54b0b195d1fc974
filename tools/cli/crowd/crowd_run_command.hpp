#pragma once
// `wayfinder crowd run SCENARIO`: runs a crowd scenario file (or a SteerSuite test case) on its navigation mesh and prints
// its metrics (arrivals, path lengths, overlaps, agents off the mesh, stuck and settled agents,
// update times), as text or JSON, and optionally a picture of every agent's trail.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct CrowdRunArguments {
  std::string scenario_path;
  std::uint64_t steps = 0;  ///< 0: the scenario's
  double dt = 0.0;          ///< 0: the scenario's
  std::uint64_t threads = 1;
  bool json = false;
  std::string svg_path;
  std::uint64_t seed = 1;  ///< a SteerSuite test case's random placements
  std::string save_scenario_path;  ///< a SteerSuite test case written as a JSON scenario
};

void configure_crowd_run_command(CLI::App& command, CrowdRunArguments& arguments);

/// Returns 0; throws LoadError for an unreadable scenario or mesh, CommandError for agents off
/// the mesh.
int run_crowd_run_command(const CrowdRunArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
