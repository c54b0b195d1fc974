// The reactive walkers (crash_walker.hpp, midpoint_walker.hpp) through GridQuery: where
// they arrive (a convex obstacle, scattered small obstacles, open ground), where they fail and
// say so within their limits (a U-shaped trap with the wrong hand, a spiral, an unreachable
// goal), and that stepping them one move at a time gives the one-shot answer.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/grid/walkers/crash_walker.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/walkers/midpoint_walker.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

constexpr DiagonalMode every_mode[] = {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                       DiagonalMode::only_if_no_obstacles, DiagonalMode::always};

/// A map drawn in text: '#' blocked, anything else passable.
GridMap drawn_map(const std::vector<std::string>& rows) {
  GridMap map(static_cast<int>(rows.front().size()), static_cast<int>(rows.size()));
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] == '#') map.set_passable(x, y, false);
  return map;
}

GridSearchOptions walker_options(GridAlgorithm algorithm, DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles,
                                 std::uint64_t step_limit = 0) {
  GridSearchOptions options;
  options.algorithm = algorithm;
  options.diagonal = diagonal;
  options.walker_step_limit = step_limit;
  return options;
}

/// A found path must start and end at the query's cells, pass check_grid_path and report its
/// true cost.
void expect_valid_walk(const GridMap& map, Cell start, Cell goal, const PathResult& result, DiagonalMode diagonal,
                       const std::string& what) {
  ASSERT_EQ(result.status, SearchStatus::found) << what << ": " << result.message;
  ASSERT_FALSE(result.nodes.empty()) << what;
  EXPECT_EQ(result.nodes.front(), map.id_of(start)) << what;
  EXPECT_EQ(result.nodes.back(), map.id_of(goal)) << what;
  const GridPathCheck check = check_grid_path(map, result.nodes, diagonal);
  ASSERT_TRUE(check.valid) << what << ": " << check.problem;
  EXPECT_NEAR(result.cost, check.cost, 1e-9 * std::max(1.0, check.cost)) << what;
  EXPECT_EQ(result.points.size(), result.nodes.size()) << what;
}

/// A failure must be no_path or budget_exhausted, with no path, a message, and within the limit.
void expect_reported_failure(const PathResult& result, std::uint64_t limit, const std::string& what) {
  EXPECT_TRUE(result.status == SearchStatus::no_path || result.status == SearchStatus::budget_exhausted)
      << what << ": " << to_string(result.status);
  // The reason says which: the walker gave up (it cannot know that no path exists), or its
  // step limit stopped it.
  EXPECT_EQ(result.reason,
            result.status == SearchStatus::no_path ? StopReason::gave_up : StopReason::expansion_limit)
      << what << ": " << to_string(result.reason);
  EXPECT_TRUE(result.nodes.empty()) << what;
  EXPECT_FALSE(result.message.empty()) << what;
  EXPECT_LE(result.stats.expanded, limit) << what;
}

// A rectangle across the straight line: every walker goes round it, under every diagonal rule.
TEST(GridWalkers, GoRoundASingleConvexObstacle) {
  GridMap map(40, 24);
  map.block_rect({15, 6, 8, 12});
  const Cell start{3, 12};
  const Cell goal{36, 11};
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const DiagonalMode mode : every_mode)
    for (const GridAlgorithm algorithm : reactive_grid_walkers) {
      const std::string what = std::string(to_string(algorithm)) + " " + std::string(to_string(mode));
      const PathResult result = pathfinder.find_path(start, goal, walker_options(algorithm, mode));
      expect_valid_walk(map, start, goal, result, mode, what);
      EXPECT_EQ(result.reason, StopReason::goal_reached) << what;
    }
}

// Small blocks on a lattice with gaps between them: the walkers weave through.
TEST(GridWalkers, CrossAFieldOfSmallScatteredObstacles) {
  GridMap map(48, 48);
  for (int y = 4; y + 2 < 46; y += 6)
    for (int x = 3 + (y / 6) % 3; x + 2 < 46; x += 7) map.block_rect({x, y, 2, 2});
  const Cell start{1, 1};
  const Cell goal{46, 45};
  ASSERT_TRUE(map.passable(start) && map.passable(goal));
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const DiagonalMode mode : every_mode)
    for (const GridAlgorithm algorithm : reactive_grid_walkers) {
      const std::string what = std::string(to_string(algorithm)) + " " + std::string(to_string(mode));
      expect_valid_walk(map, start, goal, pathfinder.find_path(start, goal, walker_options(algorithm, mode)), mode,
                        what);
    }
}

// A cup open to the west with the walker inside and the goal beyond its bottom; its lower arm
// runs on to the map's west edge. The right hand goes up, round the upper arm's tip and down to
// the far side of the bottom; the left hand goes down, and the arm leads it along the map's
// edges all the way round. Bug2 still arrives, but the long way.
const std::vector<std::string> cup_trap = {
    "........................................",  //
    "........................................",  //
    "........................................",  //
    "........................................",  //
    "........................................",  //
    ".....###########........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "...............#........................",  //
    "################........................",  //
    "........................................",  //
    "........................................",  //
    "........................................",  //
    "........................................",  //
    "........................................",  //
};
constexpr Cell cup_start{10, 10};
constexpr Cell cup_goal{35, 10};

TEST(GridWalkers, TheWrongHandInAUShapedTrapRunsOutOfSteps) {
  const GridMap map = drawn_map(cup_trap);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const DiagonalMode mode = DiagonalMode::only_if_no_obstacles;

  const PathResult right = pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_right));
  expect_valid_walk(map, cup_start, cup_goal, right, mode, "crash-right");
  const PathResult left = pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_left));
  expect_valid_walk(map, cup_start, cup_goal, left, mode, "crash-left, default step limit");
  EXPECT_GT(left.nodes.size(), 2 * right.nodes.size()) << "the wrong hand takes the long way round";

  // A limit between the two walks: the right hand arrives, the left hand stops and says why.
  const std::uint64_t limit = right.stats.expanded + 10;
  ASSERT_LT(limit, left.stats.expanded);
  expect_valid_walk(map, cup_start, cup_goal,
                    pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_right, mode, limit)),
                    mode, "crash-right, limited");
  const PathResult stopped =
      pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_left, mode, limit));
  expect_reported_failure(stopped, limit, "crash-left, limited");
  EXPECT_EQ(stopped.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(stopped.reason, StopReason::expansion_limit);
  EXPECT_NE(stopped.message.find("step limit reached"), std::string::npos) << stopped.message;
  EXPECT_EQ(stopped.stats.expanded, limit);

  // The automatic hand sees that the right hand leads round, and four walkers race to it.
  const PathResult chosen =
      pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_auto, mode, limit));
  expect_valid_walk(map, cup_start, cup_goal, chosen, mode, "crash-auto, limited");
  EXPECT_EQ(chosen.nodes, right.nodes);
  const PathResult raced =
      pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_four_way, mode, limit));
  expect_valid_walk(map, cup_start, cup_goal, raced, mode, "crash-four-way, limited");
}

// The four-way race arrives where the hand a single walker was given cannot within the limit,
// in both orientations of the trap (so that the winner is once right-, once left-handed).
TEST(GridWalkers, FourWaySucceedsWhereOneHandFails) {
  std::vector<std::string> mirrored = cup_trap;
  std::reverse(mirrored.begin(), mirrored.end());  // upside down: now the left hand is the short way
  for (const auto& rows : {cup_trap, mirrored}) {
    const GridMap map = drawn_map(rows);
    GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
    const std::uint64_t limit = 80;
    const PathResult right =
        pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_right, DiagonalMode::only_if_no_obstacles, limit));
    const PathResult left =
        pathfinder.find_path(cup_start, cup_goal, walker_options(GridAlgorithm::crash_left, DiagonalMode::only_if_no_obstacles, limit));
    EXPECT_NE(right.found(), left.found()) << "exactly one hand arrives within " << limit << " moves";
    const PathResult chosen = pathfinder.find_path(
        cup_start, cup_goal, walker_options(GridAlgorithm::crash_auto, DiagonalMode::only_if_no_obstacles, limit));
    EXPECT_TRUE(chosen.found()) << "crash-auto picks the hand that arrives: " << chosen.message;
    const PathResult raced = pathfinder.find_path(
        cup_start, cup_goal, walker_options(GridAlgorithm::crash_four_way, DiagonalMode::only_if_no_obstacles, limit));
    expect_valid_walk(map, cup_start, cup_goal, raced, DiagonalMode::only_if_no_obstacles, "crash-four-way");
  }
}

// A square spiral with the goal at its centre: a walled corridor winding in four turns.
GridMap spiral_map() {
  return drawn_map({
      ".........................",  //
      ".#######################.",  //
      ".#.....................#.",  //
      ".#.###################.#.",  //
      ".#.#.................#.#.",  //
      ".#.#.###############.#.#.",  //
      ".#.#.#.............#.#.#.",  //
      ".#.#.#.###########.#.#.#.",  //
      ".#.#.#.#.........#.#.#.#.",  //
      ".#.#.#.#.#######.#.#.#.#.",  //
      ".#.#.#.#.#.....#.#.#.#.#.",  //
      ".#.#.#.#.#.###.#.#.#.#.#.",  //
      ".#.#.#.#.#.#...#.#.#.#.#.",  //
      ".#.#.#.#.#.#####.#.#.#.#.",  //
      ".#.#.#.#.#.......#.#.#.#.",  //
      ".#.#.#.#.#########.#.#.#.",  //
      ".#.#.#.#...........#.#.#.",  //
      ".#.#.#.#############.#.#.",  //
      ".#.#.#...............#.#.",  //
      ".#.#.#################.#.",  //
      ".#.#...................#.",  //
      ".#.#####################.",  //
      ".#.......................",  //
      ".########################",  //
      ".........................",  //
  });
}

// Into the spiral the straight line is useless: the midpoints fall on walls between turns of
// the corridor, so divide fails; the crash walkers wind their way in only with enough steps,
// and a tight step limit stops them with a message.
TEST(GridWalkers, ASpiralDefeatsDivideAndATightStepLimit) {
  const GridMap map = spiral_map();
  const Cell start{0, 24};
  const Cell goal{12, 12};
  ASSERT_TRUE(map.passable(start) && map.passable(goal));
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const DiagonalMode mode = DiagonalMode::only_if_no_obstacles;
  const std::uint64_t default_limit = default_walker_moves_per_cell * map.cell_count();

  const PathResult divided = pathfinder.find_path(start, goal, walker_options(GridAlgorithm::divide));
  expect_reported_failure(divided, default_limit, "divide");
  EXPECT_EQ(divided.status, SearchStatus::no_path);

  const std::uint64_t tight = 40;  // fewer moves than the corridor is long
  for (const GridAlgorithm algorithm : reactive_grid_walkers) {
    const PathResult result = pathfinder.find_path(start, goal, walker_options(algorithm, mode, tight));
    expect_reported_failure(result, algorithm == GridAlgorithm::crash_four_way ? 4 * tight : tight,
                            std::string(to_string(algorithm)) + " with a tight limit");
  }
  // With the default limit every crash walker either arrives by a valid path or says why.
  for (const GridAlgorithm algorithm : {GridAlgorithm::crash_right, GridAlgorithm::crash_left,
                                        GridAlgorithm::crash_auto, GridAlgorithm::crash_four_way}) {
    const std::string what = std::string(to_string(algorithm)) + " into the spiral";
    const PathResult result = pathfinder.find_path(start, goal, walker_options(algorithm, mode));
    if (result.found())
      expect_valid_walk(map, start, goal, result, mode, what);
    else
      expect_reported_failure(result, 4 * default_limit, what);
  }
}

// A goal walled in: no walker can arrive; each says so, and none runs past its limit.
TEST(GridWalkers, AnUnreachableGoalIsReportedWithinTheLimit) {
  GridMap map(30, 20);
  map.block_rect({18, 5, 7, 9});
  map.unblock_rect({19, 6, 5, 7});  // a closed box with a room inside
  const Cell start{2, 9};
  const Cell goal{21, 9};
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const std::uint64_t default_limit = default_walker_moves_per_cell * map.cell_count();
  for (const DiagonalMode mode : every_mode)
    for (const GridAlgorithm algorithm : reactive_grid_walkers) {
      const std::string what = std::string(to_string(algorithm)) + " " + std::string(to_string(mode));
      const PathResult result = pathfinder.find_path(start, goal, walker_options(algorithm, mode));
      expect_reported_failure(result, algorithm == GridAlgorithm::crash_four_way ? 4 * default_limit : default_limit,
                              what);
      if (algorithm == GridAlgorithm::crash_right || algorithm == GridAlgorithm::crash_left ||
          algorithm == GridAlgorithm::crash_auto) {
        EXPECT_EQ(result.status, SearchStatus::no_path) << what;
        EXPECT_NE(result.message.find("looped"), std::string::npos) << what << ": " << result.message;
      }
    }
  // From inside the box too (the walker circles the inside of the wall).
  for (const GridAlgorithm algorithm : reactive_grid_walkers) {
    const PathResult result = pathfinder.find_path(goal, start, walker_options(algorithm));
    expect_reported_failure(result, 4 * default_limit, std::string(to_string(algorithm)) + " out of the box");
  }
}

// A start with no allowed move at all: a single crash walker fails at once; the four-way race
// also tries from the goal, which circles the box, and divide tries its midpoints.
TEST(GridWalkers, ABoxedInStartFailsAtOnce) {
  GridMap map(9, 9);
  map.block_rect({3, 3, 3, 3});
  map.unblock(Cell{4, 4});
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const std::uint64_t default_limit = default_walker_moves_per_cell * map.cell_count();
  for (const GridAlgorithm algorithm : reactive_grid_walkers) {
    const std::string what(to_string(algorithm));
    const PathResult result = pathfinder.find_path({4, 4}, {8, 8}, walker_options(algorithm));
    expect_reported_failure(result, 4 * default_limit, what);
    if (algorithm == GridAlgorithm::crash_right || algorithm == GridAlgorithm::crash_left ||
        algorithm == GridAlgorithm::crash_auto) {
      EXPECT_EQ(result.stats.expanded, 0u) << what;
      EXPECT_NE(result.message.find("boxed in"), std::string::npos) << what << ": " << result.message;
    }
  }
}

// On open ground divide (and every crash walker) goes straight: the path is the straight line,
// one cell per move along the longer axis, or 4-connected without diagonals.
TEST(GridWalkers, DivideOnOpenGroundGivesTheStraightLine) {
  GridMap map(64, 40);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const Cell queries[][2] = {{{0, 0}, {63, 39}}, {{5, 30}, {60, 2}}, {{10, 10}, {10, 35}}, {{40, 7}, {3, 7}},
                             {{1, 38}, {2, 1}}};
  for (const DiagonalMode mode : every_mode)
    for (const auto& query : queries) {
      const Cell start = query[0];
      const Cell goal = query[1];
      const int dx = std::abs(goal.x - start.x);
      const int dy = std::abs(goal.y - start.y);
      const std::size_t moves = static_cast<std::size_t>(mode == DiagonalMode::never ? dx + dy : std::max(dx, dy));
      const PathResult divided = pathfinder.find_path(start, goal, walker_options(GridAlgorithm::divide, mode));
      expect_valid_walk(map, start, goal, divided, mode, "divide");
      EXPECT_EQ(divided.nodes.size(), moves + 1);
      EXPECT_EQ(divided.stats.expanded, 1u) << "one segment, free at once";
      // The straight line stays within half a cell of the segment between the centres.
      for (const NodeId id : divided.nodes) {
        const Cell c = map.cell_of(id);
        const double cross = std::abs(static_cast<double>(goal.x - start.x) * (c.y - start.y) -
                                      static_cast<double>(goal.y - start.y) * (c.x - start.x));
        EXPECT_LE(cross / std::hypot(goal.x - start.x, goal.y - start.y), 1.0) << "cell " << c.x << "," << c.y;
      }
      for (const GridAlgorithm algorithm : {GridAlgorithm::crash_right, GridAlgorithm::crash_left,
                                            GridAlgorithm::crash_auto, GridAlgorithm::crash_four_way}) {
        const PathResult walked = pathfinder.find_path(start, goal, walker_options(algorithm, mode));
        expect_valid_walk(map, start, goal, walked, mode, std::string(to_string(algorithm)));
        if (algorithm != GridAlgorithm::crash_four_way) {
          EXPECT_EQ(walked.nodes, divided.nodes);
        }
      }
    }
}

// Stepping one move at a time ends in the one-shot answer; each step makes at most one move.
TEST(GridWalkers, SteppedOneMoveAtATimeEqualsOneShot) {
  const GridMap trap = drawn_map(cup_trap);
  const GridMap spiral = spiral_map();
  GridMap field(48, 48);
  for (int y = 4; y + 2 < 46; y += 6)
    for (int x = 3 + (y / 6) % 3; x + 2 < 46; x += 7) field.block_rect({x, y, 2, 2});
  struct Case {
    const GridMap* map;
    Cell start;
    Cell goal;
  };
  const Case cases[] = {{&trap, cup_start, cup_goal}, {&field, {1, 1}, {46, 45}}, {&spiral, {0, 24}, {12, 12}}};
  for (const Case& query : cases) {
    GridQuery one_shot(*query.map, testing::derived_for(*query.map, {GridAlgorithm::jump_point_plus}));
    GridQuery stepped(*query.map, testing::derived_for(*query.map, {GridAlgorithm::jump_point_plus}));
    for (const GridAlgorithm algorithm : reactive_grid_walkers) {
      const std::string what = std::string(to_string(algorithm));
      const GridSearchOptions options = walker_options(algorithm);
      const PathResult expected = one_shot.find_path(query.start, query.goal, options);
      SearchStatus status = stepped.begin(query.start, query.goal, options);
      std::uint64_t steps = 0;
      std::uint64_t last = 0;
      while (status == SearchStatus::in_progress) {
        status = stepped.step(1);
        const std::uint64_t expanded = stepped.stats().expanded;
        ASSERT_LE(expanded - last, 1u) << what;
        last = expanded;
        ASSERT_LT(++steps, 5 * default_walker_moves_per_cell * query.map->cell_count()) << what;
      }
      const PathResult result = stepped.result();
      EXPECT_EQ(result.status, expected.status) << what;
      EXPECT_EQ(result.reason, expected.reason) << what;
      EXPECT_EQ(result.nodes, expected.nodes) << what;
      EXPECT_EQ(result.cost, expected.cost) << what;
      EXPECT_EQ(result.message, expected.message) << what;
      EXPECT_EQ(result.stats.expanded, expected.stats.expanded) << what;
    }
  }
}

// The options' budget stops a walker like a search: a partial walk towards the goal, or
// budget_exhausted without one.
TEST(GridWalkers, TheBudgetGivesAPartialWalk) {
  const GridMap map = drawn_map(cup_trap);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : reactive_grid_walkers) {
    const std::string what = std::string(to_string(algorithm));
    GridSearchOptions options = walker_options(algorithm);
    options.budget.max_expansions = 3;
    const PathResult partial = pathfinder.find_path(cup_start, cup_goal, options);
    EXPECT_EQ(partial.status, SearchStatus::partial) << what;
    EXPECT_EQ(partial.reason, StopReason::expansion_limit) << what;
    ASSERT_FALSE(partial.nodes.empty()) << what;
    EXPECT_EQ(partial.nodes.front(), map.id_of(cup_start)) << what;
    const GridPathCheck check = check_grid_path(map, partial.nodes, options.diagonal);
    EXPECT_TRUE(check.valid) << what << ": " << check.problem;
    EXPECT_NEAR(partial.cost, check.cost, 1e-9) << what;
    options.return_partial = false;
    const PathResult none = pathfinder.find_path(cup_start, cup_goal, options);
    EXPECT_EQ(none.status, SearchStatus::budget_exhausted) << what;
    EXPECT_TRUE(none.nodes.empty()) << what;
  }
}

// Terrain costs: the walk ignores them, but the cost reported is the walk's true cost.
TEST(GridWalkers, CostIsTheTrueCostOnWeightedTerrain) {
  GridMap map(30, 20);
  map.block_rect({12, 4, 4, 12});
  map.set_cost({0, 0, 12, 20}, 3.0f);
  map.set_cost({16, 0, 14, 20}, 0.5f);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const DiagonalMode mode : every_mode)
    for (const GridAlgorithm algorithm : reactive_grid_walkers)
      expect_valid_walk(map, {2, 10}, {27, 9}, pathfinder.find_path({2, 10}, {27, 9}, walker_options(algorithm, mode)),
                        mode, std::string(to_string(algorithm)));
}

// Random maps, every rule: a walker either arrives by a valid path with its true cost (and then
// A* finds a path too) or fails with a message within its limit; it never claims more.
TEST(GridWalkers, OnRandomMapsEveryAnswerIsAValidWalkOrAReportedFailure) {
  testing::TestRandom random(20260611);
  std::size_t arrived = 0;
  std::size_t failed = 0;
  for (int round = 0; round < 120; ++round) {
    const GridMap map = testing::random_map(random);
    const std::vector<Cell> cells = testing::passable_cells(map);
    if (cells.size() < 2) continue;
    const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const std::uint64_t limit = default_walker_moves_per_cell * map.cell_count();
    GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
    for (const DiagonalMode mode : every_mode) {
      GridSearchOptions astar;
      astar.diagonal = mode;
      const bool reachable = pathfinder.find_path(start, goal, astar).found();
      for (const GridAlgorithm algorithm : reactive_grid_walkers) {
        const std::string what = std::string(to_string(algorithm)) + " " + std::string(to_string(mode)) +
                                 " round " + std::to_string(round);
        const PathResult result = pathfinder.find_path(start, goal, walker_options(algorithm, mode));
        if (result.found()) {
          ++arrived;
          EXPECT_TRUE(reachable) << what;
          expect_valid_walk(map, start, goal, result, mode, what);
        } else {
          ++failed;
          expect_reported_failure(result, algorithm == GridAlgorithm::crash_four_way ? 4 * limit : limit, what);
        }
      }
    }
  }
  EXPECT_GT(arrived, failed) << "on small random maps the walkers mostly arrive";
}

TEST(GridWalkers, NamesAndLists) {
  for (const GridAlgorithm algorithm : reactive_grid_walkers) {
    EXPECT_TRUE(is_reactive_walker(algorithm));
    EXPECT_EQ(parse_grid_algorithm(to_string(algorithm)), algorithm);
    EXPECT_EQ(std::count(std::begin(all_grid_algorithms), std::end(all_grid_algorithms), algorithm), 0)
        << "all_grid_algorithms lists the searches only";
    EXPECT_EQ(std::count(std::begin(every_grid_algorithm), std::end(every_grid_algorithm), algorithm), 1);
  }
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    EXPECT_FALSE(is_reactive_walker(algorithm));
    EXPECT_EQ(std::count(std::begin(every_grid_algorithm), std::end(every_grid_algorithm), algorithm), 1);
  }
  for (const char* name : {"crash-right", "crash-left", "crash-auto", "crash-four-way", "divide"})
    EXPECT_TRUE(parse_grid_algorithm(name).has_value()) << name;
}

// The walker classes on their own, as a game would step them: one move per frame.
TEST(GridWalkers, WalkerClassesStepOneMoveAtATime) {
  GridMap map(20, 12);
  map.block_rect({9, 2, 2, 8});
  CrashWalker walker(map, DiagonalMode::only_if_no_obstacles);
  SearchOptions options;
  ASSERT_EQ(walker.start(map.id_of(Cell{2, 6}), map.id_of(Cell{17, 6}), WallHand::automatic, options),
            SearchStatus::in_progress);
  std::size_t moves = 0;
  while (walker.step() == SearchStatus::in_progress) {
    ++moves;
    ASSERT_EQ(walker.walked().size(), moves + 1);
  }
  PathResult result;
  walker.result(result);
  expect_valid_walk(map, {2, 6}, {17, 6}, [&] {
    PathResult with_points = result;
    fill_cell_centres(map, with_points);
    return with_points;
  }(), DiagonalMode::only_if_no_obstacles, "CrashWalker");

  MidpointWalker divide(map, DiagonalMode::never);
  ASSERT_EQ(divide.start(map.id_of(Cell{2, 6}), map.id_of(Cell{17, 6}), options), SearchStatus::in_progress);
  while (divide.step() == SearchStatus::in_progress) {
  }
  PathResult divided;
  divide.result(divided);
  fill_cell_centres(map, divided);
  expect_valid_walk(map, {2, 6}, {17, 6}, divided, DiagonalMode::never, "MidpointWalker");
}

}  // namespace
}  // namespace wayfinder
