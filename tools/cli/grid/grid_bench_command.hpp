#pragma once
// `wayfinder grid bench SCEN ...`: runs every query of a MovingAI scenario with one or more
// algorithms, checks each answer against the optimal length and times the searches, one by one
// or as a batch on several threads.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "wayfinder/grid/grid_query.hpp"

namespace wayfinder::cli {

struct GridBenchArguments {
  std::string scenario_path;
  std::string map_path;  ///< empty: the scenario path minus ".scen"
  std::vector<GridAlgorithm> algorithms{GridAlgorithm::astar};
  /// The scenario's optimal lengths hold for the MovingAI rule only; under another mode every
  /// answer is judged against Dijkstra's cost under that mode instead.
  DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;
  double weight = 2.0;
  /// Expansion budget per IDA* query, so that it cannot run for hours on a large map.
  std::uint64_t ida_max_expansions = 2'000'000;
  std::uint64_t limit = 0;  ///< 0: every query
  /// 1: the queries one by one, each timed; more: one batch on this many threads (solve_batch).
  std::uint64_t threads = 1;
  /// The agent's side in cells (GridSearchOptions::agent_size). Above 1 the scenario's lengths
  /// do not apply: queries whose ends do not fit the body are left out, the others are judged
  /// against Dijkstra's costs for that agent.
  std::uint64_t agent_size = 1;
  /// hpa's cluster side in cells (GridSearchOptions::cluster_size).
  std::uint64_t cluster_size = 16;
  std::string table_path;  ///< a saved jump table for jps-plus (empty: built before its queries)
  std::string bounds_path;  ///< saved goal bounds for jps-plus (empty: none)
  std::uint64_t max_table_memory = 2048;  ///< MiB: the cap on a jump table built here (grid_table_memory.hpp)
  bool json = false;
};

void configure_grid_bench_command(CLI::App& command, GridBenchArguments& arguments);

/// Returns 0 when every answer agrees with its reference, 1 when some do not; throws LoadError
/// for unreadable or malformed files and CommandError for a scenario that cannot be run on the map.
int run_grid_bench_command(const GridBenchArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
