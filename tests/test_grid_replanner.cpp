// D* Lite (GridReplanner) against fresh searches: after every change of random change sequences
// (single cells blocked and opened, doors of several cells, terrain costs up and down) and every
// step of the agent, the replanner's cost must equal a fresh A*'s on the map as it is, and its
// path must be a valid path of that cost.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "grid_replanner_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/replanning/grid_replanner.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

/// "" when the replanner's plan agrees with a fresh A* from its position, otherwise what differs.
std::string disagreement(const GridMap& map, const GridReplanner& replanner, SearchStatus status, DiagonalMode diagonal) {
  GridQuery fresh(map);
  GridSearchOptions options;
  options.diagonal = diagonal;
  const PathResult expected = fresh.find_path(replanner.position(), replanner.goal(), options);
  const bool expected_found = expected.found();
  if ((status == SearchStatus::found) != expected_found)
    return "replanner says " + std::string(to_string(status)) + ", fresh A* " + std::string(to_string(expected.status));
  if (!expected_found) return "";
  const PathResult plan = replanner.path();
  if (!plan.found()) return "plan() found a path but path() did not";
  if (std::abs(plan.cost - expected.cost) > 1e-9 * std::max(1.0, expected.cost))
    return "cost " + std::to_string(plan.cost) + " instead of A*'s " + std::to_string(expected.cost);
  if (std::abs(replanner.cost() - expected.cost) > 1e-9 * std::max(1.0, expected.cost))
    return "cost() " + std::to_string(replanner.cost()) + " instead of " + std::to_string(expected.cost);
  const GridPathCheck check = check_grid_path(map, plan.nodes, diagonal);
  if (!check.valid) return "invalid path: " + check.problem;
  if (std::abs(check.cost - plan.cost) > 1e-9 * std::max(1.0, plan.cost)) return "the path's cost is not its moves' cost";
  if (plan.nodes.front() != map.id_of(replanner.position()) || plan.nodes.back() != map.id_of(replanner.goal()))
    return "the path does not run from the agent to the goal";
  return "";
}

/// One random edit: a cell blocked or opened, a door (a short wall) closed or opened, a cost.
void random_edit(TestRandom& random, GridMap& map) {
  constexpr float costs[] = {1.0f, 2.0f, 3.0f, 1.5f, 0.75f};
  const Cell c = random_cell(random, map);
  switch (random.between(0, 4)) {
    case 0: map.block(c); break;
    case 1: map.unblock(c); break;
    case 2:
    case 3: {
      const GridRect door = door_at(random, map, c);
      if (random.chance(0.5))
        map.block_rect(door);
      else
        map.unblock_rect(door);
      break;
    }
    default: map.set_cost(c.x, c.y, costs[random.between(0, 4)]); break;
  }
}

TEST(GridReplanner, EqualsAFreshSearchAfterEveryChangeOnRandomMaps) {
  TestRandom random(2002);
  const int maps = sanitized_build() ? 40 : 150;
  for (int round = 0; round < maps; ++round) {
    GridMap map = random_map(random, {6, 22, 0.35, 0.4});
    const DiagonalMode diagonal = static_cast<DiagonalMode>(round % 4);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    GridReplanner replanner(map, start, goal, diagonal);
    SearchStatus status = replanner.plan();
    ASSERT_EQ(disagreement(map, replanner, status, diagonal), "") << "map " << round << ", first plan";
    for (int change = 0; change < 30; ++change) {
      if (random.chance(0.3) && status == SearchStatus::found) replanner.move_to(replanner.next_cell());
      if (random.chance(0.8)) random_edit(random, map);
      replanner.notify_changes();
      status = replanner.plan();
      ASSERT_EQ(disagreement(map, replanner, status, diagonal), "")
          << "map " << round << " (" << map.width() << "x" << map.height() << ", diagonal mode " << round % 4
          << "), after change " << change;
    }
  }
}

TEST(GridReplanner, RepairsCostLessThanReplanningOnAMovingAiMap) {
  const std::filesystem::path path = data_directory() / "movingai" / "dao" / "arena2.map";
  if (!std::filesystem::exists(path)) {
    if (data_required()) FAIL() << path << " not found";
    GTEST_SKIP() << path << " not found";
  }
  GridMap map = read_movingai_map(path);
  const Scenario scenario = read_movingai_scenario(path.string() + ".scen");
  TestRandom random(7);
  std::uint64_t repair_expansions = 0;
  std::uint64_t fresh_expansions = 0;
  const std::size_t queries = sanitized_build() ? 4 : 20;
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / queries);
  for (std::size_t q = 0; q < scenario.queries.size(); q += stride) {
    GridMap world = map;  // each agent on its own copy, edited near its path
    GridReplanner replanner(world, scenario.queries[q].start, scenario.queries[q].goal);
    SearchStatus status = replanner.plan();
    ASSERT_EQ(status, SearchStatus::found);
    EXPECT_NEAR(replanner.cost(), scenario.queries[q].optimal_length, 1e-3);
    for (int step = 0; step < 12 && status == SearchStatus::found; ++step) {
      // Walk a few cells, then block a cell a little ahead on the path, or open one.
      for (int walk = 0; walk < 3; ++walk) replanner.move_to(replanner.next_cell());
      const PathResult ahead = replanner.path();
      if (ahead.nodes.size() > 6) {
        const Cell target = world.cell_of(ahead.nodes[std::min<std::size_t>(ahead.nodes.size() - 2, 5)]);
        world.block_rect({target.x, target.y, std::min(2, world.width() - target.x), 1});
      }
      replanner.notify_changes();
      status = replanner.plan();
      repair_expansions += replanner.last_expansions();
      GridQuery fresh(world);
      const PathResult expected = fresh.find_path(replanner.position(), replanner.goal());
      fresh_expansions += expected.stats.expanded;
      ASSERT_EQ(disagreement(world, replanner, status, DiagonalMode::only_if_no_obstacles), "")
          << "query " << q << ", step " << step;
    }
  }
  // Not a speed claim (that is the benchmark's job), only that repairs are incremental work.
  EXPECT_GT(repair_expansions, 0u);
  EXPECT_GT(fresh_expansions, 0u);
}

TEST(GridReplanner, BadInputAndCutOffGoals) { expect_refusals_and_cut_off_goals<GridReplanner>(); }

TEST(GridReplanner, ALogThatNoLongerReachesBackStartsOver) {
  GridMap map(300, 300);
  GridReplanner replanner(map, {0, 0}, {299, 299});
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  edit_past_the_change_log(map);
  EXPECT_EQ(replanner.notify_changes(), 0u) << "the log was overrun";
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_EQ(disagreement(map, replanner, SearchStatus::found, DiagonalMode::only_if_no_obstacles), "");
}

}  // namespace
}  // namespace wayfinder
