#include "common/replan_experiment.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "wayfinder/grid/replanning/adaptive_replanner.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/replanning/grid_replanner.hpp"

namespace wayfinder {

namespace {

using Clock = std::chrono::steady_clock;

double microseconds_since(Clock::time_point started) {
  return std::chrono::duration<double, std::micro>(Clock::now() - started).count();
}

// A door near the path ahead: a wall of 1 to 3 cells, across or along, within two cells of a
// cell 2 to 12 steps ahead of the agent; never over the agent or the goal.
std::optional<GridRect> door_ahead(const GridMap& map, const PathResult& plan, Cell agent, Cell goal, std::mt19937_64& random) {
  if (plan.nodes.size() < 4) return std::nullopt;
  const std::size_t farthest = std::min<std::size_t>(plan.nodes.size() - 2, 12);
  const std::size_t ahead = 2 + random() % (farthest - 1);
  const Cell near = map.cell_of(plan.nodes[std::min(ahead, plan.nodes.size() - 2)]);
  const int x = std::clamp(near.x + static_cast<int>(random() % 5) - 2, 0, map.width() - 1);
  const int y = std::clamp(near.y + static_cast<int>(random() % 5) - 2, 0, map.height() - 1);
  const int length = 1 + static_cast<int>(random() % 3);
  GridRect door = random() % 2 == 0 ? GridRect{x, y, std::min(length, map.width() - x), 1}
                                    : GridRect{x, y, 1, std::min(length, map.height() - y)};
  if (door.contains(agent) || door.contains(goal)) return std::nullopt;
  return door;
}

}  // namespace

ReplanExperimentResult run_replan_experiment(const GridMap& map, const Scenario& scenario,
                                             const ReplanExperimentOptions& options) {
  if (!map.uniform_cost())
    throw std::invalid_argument("the replanning experiment needs a map where every passable cell costs 1 "
                                "(jump point search is one of the planners compared)");
  ReplanExperimentResult result;
  std::mt19937_64 random(options.seed);
  const std::size_t count = scenario.queries.size();
  const std::size_t wanted = options.query_limit == 0 ? count : std::min(options.query_limit, count);
  const std::size_t stride = wanted == 0 ? 1 : std::max<std::size_t>(1, count / wanted);
  double dstar_us = 0.0, mpaa_us = 0.0, astar_us = 0.0, jps_us = 0.0;
  double dstar_expanded = 0.0, mpaa_expanded = 0.0, astar_expanded = 0.0, jps_expanded = 0.0;
  GridSearchOptions astar_options;
  GridSearchOptions jps_options;
  jps_options.algorithm = GridAlgorithm::jump_point;
  PathResult fresh;
  for (std::size_t q = 0; q < count && result.queries < wanted; q += stride) {
    const ScenarioQuery& query = scenario.queries[q];
    GridMap world = map;  // each agent's own world, so that one agent's doors do not close on the next
    GridReplanner replanner(world, query.start, query.goal);
    GridAdaptiveReplanner adaptive(world, query.start, query.goal);
    GridQuery from_scratch(world);
    ++result.queries;
    if (replanner.plan() != SearchStatus::found) continue;
    adaptive.plan();  // the first plans are from scratch for both, and not timed
    std::vector<GridRect> closed;
    const std::size_t steps_between = std::max<std::size_t>(1, replanner.path().nodes.size() / (options.changes_per_query + 1));
    for (std::size_t change = 0; change < options.changes_per_query; ++change) {
      for (std::size_t step = 0; step < steps_between && replanner.position() != replanner.goal(); ++step)
        replanner.move_to(replanner.next_cell());
      // Close a door ahead, or now and then open one closed before.
      if (!closed.empty() && random() % 4 == 0) {
        world.unblock_rect(closed.back());
        closed.pop_back();
      } else if (const auto door = door_ahead(world, replanner.path(), replanner.position(), replanner.goal(), random)) {
        world.block_rect(*door);
        closed.push_back(*door);
      } else {
        continue;
      }
      ++result.changes;

      auto started = Clock::now();
      replanner.notify_changes();
      const SearchStatus status = replanner.plan();
      dstar_us += microseconds_since(started);
      dstar_expanded += static_cast<double>(replanner.last_expansions());

      adaptive.move_to(replanner.position());
      started = Clock::now();
      adaptive.notify_changes();
      const SearchStatus adaptive_status = adaptive.plan();
      mpaa_us += microseconds_since(started);
      mpaa_expanded += static_cast<double>(adaptive.last_expansions());

      started = Clock::now();
      from_scratch.find_path(replanner.position(), replanner.goal(), astar_options, fresh);
      astar_us += microseconds_since(started);
      astar_expanded += static_cast<double>(fresh.stats.expanded);
      const bool found = fresh.found();
      const Cost astar_cost = fresh.cost;

      started = Clock::now();
      from_scratch.find_path(replanner.position(), replanner.goal(), jps_options, fresh);
      jps_us += microseconds_since(started);
      jps_expanded += static_cast<double>(fresh.stats.expanded);

      ++result.replans;
      const auto disagrees = [&](SearchStatus planned, Cost planned_cost) {
        return (planned == SearchStatus::found) != found ||
               (found && std::abs(planned_cost - astar_cost) > 1e-9 * std::max(1.0, astar_cost));
      };
      if (disagrees(status, replanner.cost())) ++result.mismatches;
      if (disagrees(adaptive_status, adaptive.cost())) ++result.mpaa_mismatches;
      if (status != SearchStatus::found) break;  // cut off: this agent stops
    }
  }
  if (result.replans > 0) {
    const double n = static_cast<double>(result.replans);
    result.dstar_mean_us = dstar_us / n;
    result.mpaa_mean_us = mpaa_us / n;
    result.astar_mean_us = astar_us / n;
    result.jps_mean_us = jps_us / n;
    result.dstar_mean_expansions = dstar_expanded / n;
    result.mpaa_mean_expansions = mpaa_expanded / n;
    result.astar_mean_expansions = astar_expanded / n;
    result.jps_mean_expansions = jps_expanded / n;
  }
  return result;
}

}  // namespace wayfinder
