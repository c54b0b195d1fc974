#pragma once
// The replanning experiment behind `wayfinder grid replan` and bench/bench_replanning.cpp: for
// each query of a MovingAI scenario an agent walks its path while doors close and open near the
// path ahead of it; after every change the agent's plan is repaired by D* Lite (GridReplanner)
// and replanned by Multipath Adaptive A* (GridAdaptiveReplanner, which keeps its own learned
// heuristics and paths for the same agent) and, for comparison, planned from scratch by A* and by
// jump point search from where the agent stands. Every D* Lite and MPAA* cost is checked against
// A*'s (a mismatch is a bug). The agent walks D* Lite's path; MPAA* is told each cell it moves to
// (where ties allow another path of the same cost, it plans from a cell off its own path).
//
// The changes block or open short walls (doors of 1 to 3 cells) within two cells of the path a
// few steps ahead of the agent, so that most of them matter; costs stay uniform, so jump point
// search stays applicable. Seeded: the same seed gives the same changes.

#include <cstddef>
#include <cstdint>

#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder {

struct ReplanExperimentOptions {
  std::size_t changes_per_query = 10;
  std::uint64_t seed = 1;
  std::size_t query_limit = 0;  ///< 0: every query of the scenario (else spread over it)
};

struct ReplanExperimentResult {
  std::size_t queries = 0;
  std::size_t changes = 0;     ///< edits made (each a door closed or opened)
  std::size_t replans = 0;     ///< plans compared (one per change while the agent has a path)
  std::size_t mismatches = 0;       ///< D* Lite disagreeing with A* (status or cost)
  std::size_t mpaa_mismatches = 0;  ///< MPAA* disagreeing with A* (status or cost)
  double dstar_mean_us = 0.0;  ///< notify_changes + plan
  double mpaa_mean_us = 0.0;   ///< notify_changes + plan of the MPAA* replanner
  double astar_mean_us = 0.0;  ///< a fresh A* from the agent's cell
  double jps_mean_us = 0.0;    ///< a fresh jump point search from the agent's cell
  double dstar_mean_expansions = 0.0;
  double mpaa_mean_expansions = 0.0;  ///< A* expansions plus heuristic repairs (last_expansions)
  double astar_mean_expansions = 0.0;
  double jps_mean_expansions = 0.0;
};

/// Runs the experiment on `map` (which must have uniform costs: a MovingAI map) for the
/// scenario's queries. Throws std::invalid_argument for a map with terrain costs.
ReplanExperimentResult run_replan_experiment(const GridMap& map, const Scenario& scenario,
                                             const ReplanExperimentOptions& options);

}  // namespace wayfinder
