#pragma once
// `wayfinder grid bench SCEN ...`: runs every query of a MovingAI scenario with one or more
// algorithms, checks each answer against the optimal length and times the searches.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "wayfinder/grid/grid_pathfinder.hpp"

namespace wayfinder::cli {

struct GridBenchArguments {
  std::string scenario_path;
  std::string map_path;  ///< empty: the scenario path minus ".scen"
  std::vector<GridAlgorithm> algorithms{GridAlgorithm::astar};
  double weight = 2.0;
  /// Expansion budget per IDA* query, so that it cannot run for hours on a large map.
  std::uint64_t ida_max_expansions = 2'000'000;
  std::uint64_t limit = 0;  ///< 0: every query
  bool json = false;
};

void configure_grid_bench_command(CLI::App& command, GridBenchArguments& arguments);

/// Returns 0 when every answer agrees with the scenario, 1 when some do not; throws LoadError
/// for unreadable or mismatched files.
int run_grid_bench_command(const GridBenchArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
