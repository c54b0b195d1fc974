// Multipath Adaptive A* (GridAdaptiveReplanner) against fresh searches: after every change of
// random change sequences (single cells blocked and opened, doors closed and reopened, terrain
// costs up and down) and every step of the agent, its cost must equal a fresh A*'s on the map as
// it is and its path must be a valid path of that cost. Openings and cheaper cells are where
// learned heuristics could overestimate; the sequences open as often as they block.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "grid_replanner_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/grid/replanning/adaptive_replanner.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

/// "" when the replanner's plan agrees with the reference Dijkstra from its position, otherwise
/// what differs.
std::string disagreement(const GridMap& map, const GridAdaptiveReplanner& replanner, SearchStatus status,
                         DiagonalMode diagonal) {
  const Cell at = replanner.position();
  const Cell goal = replanner.goal();
  const double expected = map.passable(at) && map.passable(goal)
                              ? reference_costs_from(map, diagonal, at)[map.id_of(goal)]
                              : std::numeric_limits<double>::infinity();
  const bool expected_found = std::isfinite(expected);
  if ((status == SearchStatus::found) != expected_found)
    return "replanner says " + std::string(to_string(status)) + ", Dijkstra " +
           (expected_found ? "found a path of cost " + std::to_string(expected) : std::string("no path"));
  if (!expected_found) return replanner.path().found() ? "no plan, but path() found one" : "";
  if (!nearly_equal(replanner.cost(), expected))
    return "cost() " + std::to_string(replanner.cost()) + " instead of " + std::to_string(expected);
  const PathResult plan = replanner.path();
  if (!plan.found()) return "plan() found a path but path() did not: " + plan.message;
  const ReferencePathCheck check = reference_check_path(map, plan.nodes, diagonal, at, goal);
  if (!check.valid()) return "invalid path: " + check.problem;
  if (!nearly_equal(check.cost, expected)) return "the path costs " + std::to_string(check.cost) + ", not " + std::to_string(expected);
  if (!nearly_equal(plan.cost, check.cost)) return "path().cost is not its moves' cost";
  return "";
}

/// The same question against the library's own A* (as the replanning experiment asks it).
std::string disagreement_with_astar(const GridMap& map, const GridAdaptiveReplanner& replanner, SearchStatus status) {
  GridQuery fresh(map);
  const PathResult expected = fresh.find_path(replanner.position(), replanner.goal());
  if ((status == SearchStatus::found) != expected.found())
    return "replanner says " + std::string(to_string(status)) + ", A* " + std::string(to_string(expected.status));
  if (!expected.found()) return "";
  if (!nearly_equal(replanner.cost(), expected.cost))
    return "cost() " + std::to_string(replanner.cost()) + " instead of A*'s " + std::to_string(expected.cost);
  const PathResult plan = replanner.path();
  const GridPathCheck check = check_grid_path(map, plan.nodes, DiagonalMode::only_if_no_obstacles);
  if (!check.valid) return "invalid path: " + check.problem;
  if (!nearly_equal(check.cost, expected.cost)) return "the path's moves cost " + std::to_string(check.cost);
  return "";
}

/// One random edit: a cell blocked or opened, a door closed, a closed door reopened, a terrain
/// cost changed (when `costs` is set).
void random_edit(TestRandom& random, GridMap& map, std::vector<GridRect>& closed_doors, bool costs) {
  constexpr float terrain[] = {1.0f, 2.0f, 3.0f, 1.5f, 0.75f};
  const Cell c = random_cell(random, map);
  switch (random.between(0, costs ? 5 : 4)) {
    case 0: map.block(c); break;
    case 1: map.unblock(c); break;
    case 2: {
      const GridRect door = random_door(random, map);
      map.block_rect(door);
      closed_doors.push_back(door);
      break;
    }
    case 3:
    case 4:
      if (!closed_doors.empty()) {
        const std::size_t which = static_cast<std::size_t>(random.between(0, static_cast<int>(closed_doors.size()) - 1));
        map.unblock_rect(closed_doors[which]);
        closed_doors.erase(closed_doors.begin() + static_cast<std::ptrdiff_t>(which));
      } else {
        map.unblock_rect(random_door(random, map));
      }
      break;
    default: map.set_cost(c.x, c.y, terrain[random.between(0, 4)]); break;
  }
}

void run_random_sequences(std::uint64_t seed, int maps, bool costs) {
  TestRandom random(seed);
  for (int round = 0; round < maps; ++round) {
    GridMap map = random_map(random, {6, 22, 0.35, costs ? 0.4 : 0.0});
    const DiagonalMode diagonal = static_cast<DiagonalMode>(round % 4);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    GridAdaptiveReplanner replanner(map, start, goal, diagonal);
    SearchStatus status = replanner.plan();
    ASSERT_EQ(disagreement(map, replanner, status, diagonal), "") << "map " << round << ", first plan";
    std::vector<GridRect> closed_doors;
    for (int change = 0; change < 40; ++change) {
      if (random.chance(0.4) && status == SearchStatus::found) replanner.move_to(replanner.next_cell());
      if (random.chance(0.85)) random_edit(random, map, closed_doors, costs);
      replanner.notify_changes();
      status = replanner.plan();
      ASSERT_EQ(disagreement(map, replanner, status, diagonal), "")
          << "map " << round << " (" << map.width() << "x" << map.height() << ", diagonal mode " << round % 4
          << ", seed " << seed << "), after change " << change;
    }
  }
}

TEST(GridAdaptiveReplanner, EqualsDijkstraAfterEveryBlockAndOpenOnRandomMaps) {
  run_random_sequences(2009, sanitized_build() ? 40 : 200, false);
}

TEST(GridAdaptiveReplanner, EqualsDijkstraAfterEveryChangeOnRandomWeightedMaps) {
  run_random_sequences(2014, sanitized_build() ? 40 : 200, true);
}

TEST(GridAdaptiveReplanner, AnAgentWalkingItsPlanWhileDoorsCloseAndReopen) {
  // A room-like map: walls with gaps; doors close on the agent's path a few steps ahead and
  // reopen later, while the agent keeps stepping along its plan until it arrives.
  TestRandom random(2015);
  const int runs = sanitized_build() ? 10 : 40;
  for (int run = 0; run < runs; ++run) {
    GridMap map(30, 30);
    for (int wall = 6; wall < 30; wall += 8)
      for (int i = 0; i < 30; ++i)
        if (i % 9 != 4) map.block({wall, i});
    const Cell start{1, random.between(0, 29)};
    const Cell goal{28, random.between(0, 29)};
    GridAdaptiveReplanner replanner(map, start, goal);
    SearchStatus status = replanner.plan();
    ASSERT_EQ(disagreement(map, replanner, status, DiagonalMode::only_if_no_obstacles), "");
    std::vector<GridRect> closed;
    int steps = 0;
    bool reused_a_path = false;
    while (replanner.position() != goal && steps < 400) {
      ++steps;
      if (status == SearchStatus::found) replanner.move_to(replanner.next_cell());
      if (steps % 3 == 0) {
        const PathResult ahead = replanner.path();
        if (!closed.empty() && random.chance(0.35)) {
          map.unblock_rect(closed.front());
          closed.erase(closed.begin());
        } else if (ahead.found() && ahead.nodes.size() > 4) {
          const Cell near = map.cell_of(ahead.nodes[std::min<std::size_t>(ahead.nodes.size() - 2, 3)]);
          GridRect door{near.x, std::max(0, near.y - 1), 1, 3};
          door.height = std::min(door.height, map.height() - door.y);
          if (!door.contains(replanner.position()) && !door.contains(goal)) {
            map.block_rect(door);
            closed.push_back(door);
          }
        }
      }
      replanner.notify_changes();
      status = replanner.plan();
      reused_a_path |= replanner.last_reused_path();
      ASSERT_EQ(disagreement(map, replanner, status, DiagonalMode::only_if_no_obstacles), "")
          << "run " << run << ", step " << steps;
      if (status != SearchStatus::found) {
        // Cut off: open every door so the walk can go on.
        for (const GridRect& door : closed) map.unblock_rect(door);
        closed.clear();
      }
    }
    EXPECT_EQ(replanner.position(), goal) << "run " << run;
    EXPECT_TRUE(reused_a_path) << "run " << run << ": no plan stopped on an earlier path";
  }
}

TEST(GridAdaptiveReplanner, WalkingAnUnbrokenPathNeedsNoExpansions) {
  GridMap map(40, 20);
  map.block_rect({20, 0, 1, 15});
  GridAdaptiveReplanner replanner(map, {2, 2}, {37, 3});
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_GT(replanner.last_expansions(), 0u);
  const Cost first = replanner.cost();
  Cost walked = 0.0;
  for (int step = 0; step < 10; ++step) {
    const Cell from = replanner.position();
    replanner.move_to(replanner.next_cell());
    walked += grid_move_cost(map, map.id_of(from), map.id_of(replanner.position()),
                             from.x != replanner.position().x && from.y != replanner.position().y);
    replanner.notify_changes();
    ASSERT_EQ(replanner.plan(), SearchStatus::found);
    EXPECT_EQ(replanner.last_expansions(), 0u) << "step " << step;
    EXPECT_TRUE(replanner.last_reused_path());
    EXPECT_TRUE(nearly_equal(replanner.cost(), first - walked)) << "step " << step;
  }
}

TEST(GridAdaptiveReplanner, AReopenedShortcutIsFoundDespiteLearnedHeuristics) {
  // A wall with one door near the agent; closing it sends the agent round the far end, and the
  // search learns large heuristics near the door. Reopening the door must bring them down again
  // (GAA*'s consistency repair), or the plan would keep the detour.
  GridMap map(30, 30);
  map.block_rect({15, 0, 1, 28});
  map.unblock({15, 5});
  GridAdaptiveReplanner replanner(map, {10, 5}, {20, 5});
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_TRUE(nearly_equal(replanner.cost(), 10.0));
  map.block({15, 5});
  replanner.notify_changes();
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_GT(replanner.cost(), 40.0);
  map.unblock({15, 5});
  replanner.notify_changes();
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_TRUE(nearly_equal(replanner.cost(), 10.0)) << replanner.cost();
  EXPECT_GT(replanner.last_heuristic_repairs(), 0u);
  EXPECT_EQ(disagreement(map, replanner, SearchStatus::found, DiagonalMode::only_if_no_obstacles), "");
}

TEST(GridAdaptiveReplanner, EqualsAStarAfterEveryChangeOnAMovingAiMap) {
  const std::filesystem::path path = data_directory() / "movingai" / "dao" / "arena2.map";
  if (!std::filesystem::exists(path)) {
    if (data_required()) FAIL() << path << " not found";
    GTEST_SKIP() << path << " not found";
  }
  const GridMap map = read_movingai_map(path);
  const Scenario scenario = read_movingai_scenario(path.string() + ".scen");
  TestRandom random(2015);
  const std::size_t queries = sanitized_build() ? 4 : 20;
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / queries);
  for (std::size_t q = 0; q < scenario.queries.size(); q += stride) {
    GridMap world = map;  // each agent on its own copy, edited near its path
    GridAdaptiveReplanner replanner(world, scenario.queries[q].start, scenario.queries[q].goal);
    SearchStatus status = replanner.plan();
    ASSERT_EQ(status, SearchStatus::found);
    EXPECT_NEAR(replanner.cost(), scenario.queries[q].optimal_length, 1e-3);
    std::vector<GridRect> closed;
    for (int step = 0; step < 14 && status == SearchStatus::found; ++step) {
      for (int walk = 0; walk < 3; ++walk) replanner.move_to(replanner.next_cell());
      const PathResult ahead = replanner.path();
      if (!closed.empty() && random.chance(0.3)) {
        world.unblock_rect(closed.back());
        closed.pop_back();
      } else if (ahead.nodes.size() > 6) {
        const Cell target = world.cell_of(ahead.nodes[std::min<std::size_t>(ahead.nodes.size() - 2, 5)]);
        const GridRect door{target.x, target.y, std::min(2, world.width() - target.x), 1};
        if (!door.contains(replanner.goal())) {
          world.block_rect(door);
          closed.push_back(door);
        }
      }
      replanner.notify_changes();
      status = replanner.plan();
      ASSERT_EQ(disagreement_with_astar(world, replanner, status), "") << "query " << q << ", step " << step;
    }
  }
}

TEST(GridAdaptiveReplanner, BadInputAndCutOffGoals) { expect_refusals_and_cut_off_goals<GridAdaptiveReplanner>(); }

TEST(GridAdaptiveReplanner, ALogThatNoLongerReachesBackStartsOver) {
  GridMap map(300, 300);
  GridAdaptiveReplanner replanner(map, {0, 0}, {299, 299});
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  edit_past_the_change_log(map);
  EXPECT_EQ(replanner.notify_changes(), 0u) << "the log was overrun";
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_EQ(disagreement_with_astar(map, replanner, SearchStatus::found), "");
  // A cell cheaper than any before lowers the octile scale: everything learned is dropped.
  map.set_cost(150, 150, 0.25f);
  replanner.notify_changes();
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  EXPECT_EQ(disagreement_with_astar(map, replanner, SearchStatus::found), "");
}

}  // namespace
}  // namespace wayfinder
