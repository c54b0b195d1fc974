#pragma once
// Runs a crowd scenario on its mesh and measures it: arrivals and their times, path lengths
// against the shortest paths, overlaps, agents off the mesh, stuck agents, the speed of settled
// agents over the last second, and the update's time (docs/crowds.md, "Metrics").

#include <cstddef>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/crowd_scenario.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::tools {

struct CrowdRunOptions {
  std::optional<std::size_t> steps;  ///< the scenario's own when empty
  std::optional<double> dt;
  std::optional<std::size_t> threads;
  /// Record every agent's position every this many ticks (0: no trails).
  std::size_t trail_interval = 0;
};

struct CrowdMetrics {
  std::size_t agents = 0;
  std::size_t steps = 0;
  double dt = 0.0;
  std::size_t arrived = 0;
  double arrival_time_mean = 0.0;  ///< seconds, over the agents that arrived
  double arrival_time_max = 0.0;
  /// Walked length over the shortest path's length (x-z), over the agents that arrived.
  double path_ratio_mean = 0.0;
  double path_ratio_max = 0.0;
  /// Pairs on one floor closer than the sum of their radii by more than 1 % of the smaller
  /// radius, counted per tick; the largest penetration as a fraction of the smaller radius.
  std::size_t overlap_pair_ticks = 0;
  double worst_penetration = 0.0;
  /// Agents whose position is not on the mesh (the most at any tick, and agent-ticks in all).
  std::size_t off_mesh_max = 0;
  std::size_t off_mesh_agent_ticks = 0;
  std::size_t stuck = 0;  ///< agents stuck at the end
  /// Agents arrived over all of the last second, and their speed then (distance walked over
  /// that second): the largest and the mean.
  std::size_t settled = 0;
  double settled_speed_max = 0.0;
  double settled_speed_mean = 0.0;
  double settled_speed_fraction_max = 0.0;  ///< the largest of speed / max speed
  /// Update time per tick, microseconds.
  double update_us_mean = 0.0;
  double update_us_p99 = 0.0;
  double update_us_per_agent = 0.0;
};

struct CrowdRun {
  CrowdMetrics metrics;
  /// The final positions, in agent order (for comparing runs bit for bit).
  std::vector<Point> final_positions;
  /// When each agent arrived, in agent order: seconds from the run's start (not from the agent's
  /// start_time); negative for an agent that did not arrive.
  std::vector<double> arrival_times;
  /// trails[agent] = positions every trail_interval ticks (with the first and the last).
  std::vector<std::vector<Point>> trails;
};

/// Runs `scenario` on `mesh` (the scenario's mesh, built). Throws std::invalid_argument when an
/// agent's start or goal is not on the mesh (naming the agent).
CrowdRun run_crowd_scenario(const NavMesh& mesh, const CrowdScenario& scenario, const CrowdRunOptions& options = {});
/// The same on a grid (the scenario's grid, read): the shortest paths are the grid's A* paths
/// smoothed to any-angle waypoints, and "off the mesh" counts centres in blocked cells.
CrowdRun run_crowd_scenario(const GridMap& map, const CrowdScenario& scenario, const CrowdRunOptions& options = {});

nlohmann::json crowd_metrics_json(const CrowdMetrics& metrics);

}  // namespace wayfinder::tools
