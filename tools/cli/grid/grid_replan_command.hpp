#pragma once
// `wayfinder grid replan SCEN [--changes N] [--seed S] [--queries N] [--json]`: the replanning
// experiment (tools/common/replan_experiment.hpp): agents walk their scenario paths while doors
// close and open ahead of them; D* Lite repairs each plan, A* and jump point search plan from
// scratch, and every D* Lite cost is checked against A*'s.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct GridReplanArguments {
  std::string scenario_path;
  std::string map_path;  ///< empty: the scenario path minus ".scen"
  std::uint64_t changes = 10;
  std::uint64_t seed = 1;
  std::uint64_t queries = 0;  ///< 0: every query
  bool json = false;
};

void configure_grid_replan_command(CLI::App& command, GridReplanArguments& arguments);

/// Returns 0 when D* Lite agreed with A* after every change, 1 otherwise; throws LoadError for
/// unreadable files and CommandError for a map with terrain costs.
int run_grid_replan_command(const GridReplanArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
