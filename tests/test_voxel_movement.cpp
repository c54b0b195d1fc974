// Voxel movement: small hand-made worlds test each move kind at its limit and one past it
// (stairs, gaps, falls, a low ceiling, a ladder, a pool), flying without corner cutting,
// budgets and weights (and weights too large for a world); on random small worlds the walking
// search is compared with a brute-force Dijkstra over the independent move rules of
// voxel_test_support.hpp. Places: why one is refused, snapping to the nearest, and samples.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <map>
#include <queue>
#include <random>
#include <vector>

#include "voxel_test_support.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

/// A one-block-wide corridor along x (size_z 1) with a floor at y = 0, so every path is 1D.
VoxelWorld corridor(int length, int height) {
  VoxelWorld world(length, height, 1);
  for (int x = 0; x < length; ++x) world.set_block(x, 0, 0, BlockKind::solid);
  return world;
}

void fill_column(VoxelWorld& world, int x, int z, int from_y, int to_y, BlockKind kind) {
  for (int y = from_y; y <= to_y; ++y) world.set_block(x, y, z, kind);
}

/// Runs a query and checks a found path with the independent validator.
PathResult walk(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord from, VoxelCoord to,
                const VoxelSearchOptions& options = {}) {
  VoxelQuery pathfinder(world, profile);
  PathResult result = pathfinder.find_path(from, to, options);
  if (result.found()) {
    double cost = 0.0;
    EXPECT_EQ(check_walk_path(world, profile, coords_of(world, result), cost), "");
    EXPECT_NEAR(cost, result.cost, 1e-9);
  }
  return result;
}

bool has_move(const VoxelQuery& pathfinder, const PathResult& result, VoxelMoveKind kind) {
  for (const VoxelMove& move : pathfinder.moves_of(result))
    if (move.kind == kind) return true;
  return false;
}

TEST(VoxelWalking, WalksFlatGroundAtWalkCost) {
  VoxelWorld world(8, 4, 8);
  for (int x = 0; x < 8; ++x)
    for (int z = 0; z < 8; ++z) world.set_block(x, 0, z, BlockKind::solid);
  const PathResult straight = walk(world, MovementProfile::walker(), {0, 1, 0}, {5, 1, 0});
  ASSERT_TRUE(straight.found());
  EXPECT_DOUBLE_EQ(straight.cost, 5.0);
  const PathResult diagonal = walk(world, MovementProfile::walker(), {0, 1, 0}, {3, 1, 3});
  ASSERT_TRUE(diagonal.found());
  EXPECT_NEAR(diagonal.cost, 3.0 * sqrt2, 1e-12);
  MovementProfile four = MovementProfile::walker();
  four.walk_directions = 4;
  EXPECT_DOUBLE_EQ(walk(world, four, {0, 1, 0}, {3, 1, 3}).cost, 6.0);
}

TEST(VoxelWalking, DiagonalNeedsBothSideColumnsClear) {
  VoxelWorld world(2, 4, 2);
  for (int x = 0; x < 2; ++x)
    for (int z = 0; z < 2; ++z) world.set_block(x, 0, z, BlockKind::solid);
  world.set_block(1, 2, 0, BlockKind::solid);  // head height in one side column
  MovementProfile profile = MovementProfile::walker();
  profile.walk_directions = 8;
  VoxelQuery pathfinder(world, profile);
  const PathResult result = pathfinder.find_path({0, 1, 0}, {1, 1, 1});
  ASSERT_TRUE(result.found());
  EXPECT_DOUBLE_EQ(result.cost, 2.0);  // around the corner, not across it
}

TEST(VoxelWalking, StepsUpOneBlockButNotTwo) {
  VoxelWorld world = corridor(6, 8);
  fill_column(world, 3, 0, 1, 1, BlockKind::solid);  // a stair of one
  VoxelQuery pathfinder(world, MovementProfile::walker());
  const PathResult up = walk(world, MovementProfile::walker(), {0, 1, 0}, {3, 2, 0});
  ASSERT_TRUE(up.found());
  EXPECT_DOUBLE_EQ(up.cost, 3.0 + 0.5);
  EXPECT_TRUE(has_move(pathfinder, pathfinder.find_path({0, 1, 0}, {3, 2, 0}), VoxelMoveKind::step_up));
  fill_column(world, 3, 0, 1, 2, BlockKind::solid);  // now two high: beyond step and jump height
  EXPECT_EQ(walk(world, MovementProfile::walker(), {0, 1, 0}, {3, 3, 0}).status, SearchStatus::no_path);
  MovementProfile jumper = MovementProfile::walker();
  jumper.jump_height = 2;  // a jump reaches it
  const PathResult jumped = walk(world, jumper, {0, 1, 0}, {3, 3, 0});
  ASSERT_TRUE(jumped.found());
  EXPECT_DOUBLE_EQ(jumped.cost, 2.0 + (1.0 + 1.0 + 2 * 0.5));
}

TEST(VoxelWalking, JumpsAGapOfJumpDistanceButNotOneMore) {
  for (const int gap : {1, 2, 3}) {
    VoxelWorld world(10, 6, 1);
    for (int x = 0; x < 10; ++x)
      if (x < 3 || x >= 3 + gap) world.set_block(x, 0, 0, BlockKind::solid);  // no floor in the gap
    const PathResult result = walk(world, MovementProfile::walker(), {0, 1, 0}, {9, 1, 0});
    if (gap <= MovementProfile{}.jump_distance) {
      ASSERT_TRUE(result.found()) << "gap " << gap;
      // Walk to the edge (2), jump gap + 1 columns at walk cost plus the jump, walk the rest.
      EXPECT_DOUBLE_EQ(result.cost, 2.0 + (gap + 1) + 1.0 + (9 - (3 + gap))) << "gap " << gap;
      VoxelQuery pathfinder(world, MovementProfile::walker());
      EXPECT_TRUE(has_move(pathfinder, pathfinder.find_path({0, 1, 0}, {9, 1, 0}), VoxelMoveKind::jump));
    } else {
      EXPECT_EQ(result.status, SearchStatus::no_path) << "gap " << gap;
    }
  }
}

TEST(VoxelWalking, JumpNeedsHeadroomOverTheGap) {
  VoxelWorld world(8, 6, 1);
  for (int x = 0; x < 8; ++x)
    if (x != 3) world.set_block(x, 0, 0, BlockKind::solid);
  world.set_block(3, 3, 0, BlockKind::solid);  // a beam where the jumping agent's head passes
  EXPECT_EQ(walk(world, MovementProfile::walker(), {0, 1, 0}, {7, 1, 0}).status, SearchStatus::no_path);
}

TEST(VoxelWalking, FallsMaxFallButNotOneMore) {
  const int max_fall = MovementProfile{}.max_fall;
  for (const int drop : {max_fall, max_fall + 1}) {
    VoxelWorld world = corridor(8, drop + 4);
    for (int x = 0; x < 3; ++x) fill_column(world, x, 0, 1, drop, BlockKind::solid);  // a ledge `drop` high
    const PathResult down = walk(world, MovementProfile::walker(), {0, drop + 1, 0}, {6, 1, 0});
    if (drop <= max_fall) {
      ASSERT_TRUE(down.found());
      EXPECT_DOUBLE_EQ(down.cost, 6.0 + 0.5 * drop);
    } else {
      EXPECT_EQ(down.status, SearchStatus::no_path);
    }
  }
}

TEST(VoxelWalking, LowCeilingStopsATallAgent) {
  VoxelWorld world = corridor(7, 6);
  for (int x = 2; x < 5; ++x) world.set_block(x, 3, 0, BlockKind::solid);  // two blocks of headroom
  EXPECT_TRUE(walk(world, MovementProfile::walker(), {0, 1, 0}, {6, 1, 0}).found());
  MovementProfile tall = MovementProfile::walker();
  tall.agent_height = 3;
  EXPECT_EQ(walk(world, tall, {0, 1, 0}, {6, 1, 0}).status, SearchStatus::no_path);
}

TEST(VoxelWalking, ClimbsALadder) {
  VoxelWorld world = corridor(6, 10);
  fill_column(world, 4, 0, 1, 5, BlockKind::solid);   // a wall 5 high
  fill_column(world, 5, 0, 1, 5, BlockKind::solid);
  fill_column(world, 3, 0, 1, 5, BlockKind::ladder);  // the ladder against it
  VoxelQuery pathfinder(world, MovementProfile::walker());
  const PathResult up = walk(world, MovementProfile::walker(), {0, 1, 0}, {5, 6, 0});
  ASSERT_TRUE(up.found());
  EXPECT_TRUE(has_move(pathfinder, pathfinder.find_path({0, 1, 0}, {5, 6, 0}), VoxelMoveKind::climb));
  const PathResult down = walk(world, MovementProfile::walker(), {5, 6, 0}, {0, 1, 0});
  ASSERT_TRUE(down.found());
  MovementProfile no_climbing = MovementProfile::walker();
  no_climbing.climb = false;
  EXPECT_EQ(walk(world, no_climbing, {0, 1, 0}, {5, 6, 0}).status, SearchStatus::no_path);
}

TEST(VoxelWalking, SwimsThroughAPool) {
  // A floor two blocks thick with a pool 5 long and 2 deep cut into it: too wide to jump.
  VoxelWorld world(12, 6, 1);
  for (int x = 0; x < 12; ++x) fill_column(world, x, 0, 0, 2, BlockKind::solid);
  for (int x = 4; x < 9; ++x) fill_column(world, x, 0, 1, 2, BlockKind::water);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  const PathResult across = walk(world, MovementProfile::walker(), {0, 3, 0}, {11, 3, 0});
  ASSERT_TRUE(across.found());
  EXPECT_TRUE(has_move(pathfinder, pathfinder.find_path({0, 3, 0}, {11, 3, 0}), VoxelMoveKind::swim));
  EXPECT_TRUE(walk(world, MovementProfile::walker(), {0, 3, 0}, {6, 1, 0}).found());  // the pool's bottom
  MovementProfile no_swimming = MovementProfile::walker();
  no_swimming.swim = false;
  EXPECT_EQ(walk(world, no_swimming, {0, 3, 0}, {11, 3, 0}).status, SearchStatus::no_path);
}

TEST(VoxelWalking, RejectsPlacesTheAgentCannotBe) {
  VoxelWorld world = corridor(4, 4);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  EXPECT_EQ(pathfinder.find_path({0, 2, 0}, {3, 1, 0}).status, SearchStatus::invalid_input);  // in the air
  EXPECT_EQ(pathfinder.find_path({0, 0, 0}, {3, 1, 0}).status, SearchStatus::invalid_input);  // in the floor
  EXPECT_EQ(pathfinder.find_path({0, 1, 0}, {9, 1, 0}).status, SearchStatus::invalid_input);  // outside
  MovementProfile bad = MovementProfile::walker();
  bad.agent_height = 0;
  EXPECT_THROW(VoxelQuery(world, bad), std::invalid_argument);
  bad = MovementProfile::walker();
  bad.fall_cost = -1.0;
  EXPECT_THROW(VoxelQuery(world, bad), std::invalid_argument);
}

// x:      0      1      2      3      4      5
// y = 3                               (ladder)
// y = 2          solid  water  solid
// y = 1                               ladder
// y = 0  solid  solid  solid  solid         water
VoxelWorld place_checks_world() {
  VoxelWorld world(6, 4, 1);
  for (int x = 0; x < 4; ++x) world.set_block(x, 0, 0, BlockKind::solid);
  world.set_block(1, 2, 0, BlockKind::solid);
  world.set_block(2, 2, 0, BlockKind::water);
  world.set_block(3, 2, 0, BlockKind::solid);
  world.set_block(4, 1, 0, BlockKind::ladder);
  world.set_block(5, 0, 0, BlockKind::water);
  return world;
}

TEST(VoxelPlaces, SayWhichCheckRefusedAPlace) {
  const VoxelWorld world = place_checks_world();
  const MovementProfile walker = MovementProfile::walker();
  auto problem = [&](VoxelCoord at, const MovementProfile& profile) { return voxel_place_problem(world, profile, at); };
  EXPECT_EQ(problem({0, 1, 0}, walker), std::nullopt);
  EXPECT_EQ(problem({2, 1, 0}, walker), std::nullopt);  // swimmers may have water at head height
  EXPECT_EQ(problem({4, 1, 0}, walker), std::nullopt);  // climbing
  EXPECT_EQ(problem({4, 2, 0}, walker), std::nullopt);  // standing on the ladder's top
  EXPECT_EQ(problem({5, 0, 0}, walker), std::nullopt);  // swimming
  EXPECT_EQ(problem({9, 1, 0}, walker), "(9,1,0) is outside the world (size 6x4x1)");
  EXPECT_EQ(problem({0, -1, 0}, walker), "(0,-1,0) is outside the world (size 6x4x1)");
  EXPECT_EQ(problem({0, 0, 0}, walker), "(0,0,0) is inside a solid block");
  EXPECT_EQ(problem({1, 1, 0}, walker), "(1,1,0): a solid block at head height (1,2,0); the agent is 2 blocks tall");
  EXPECT_EQ(problem({3, 1, 0}, walker), "(3,1,0): a solid block at head height (3,2,0); the agent is 2 blocks tall");
  EXPECT_EQ(problem({0, 3, 0}, walker), "(0,3,0): the block below (0,2,0) is air, so nothing holds the agent");
  EXPECT_EQ(problem({5, 1, 0}, walker),
            "(5,1,0): the block below (5,0,0) is water, which holds an agent only with its feet in it");
  EXPECT_EQ(problem({4, 0, 0}, walker),
            "(4,0,0): there is no block below it (y 0 is the bottom of the world), so nothing holds the agent");

  MovementProfile tall = walker;
  tall.agent_height = 3;
  EXPECT_EQ(problem({3, 1, 0}, tall), "(3,1,0): a solid block at body height (3,2,0); the agent is 3 blocks tall");
  MovementProfile dry = walker;
  dry.swim = false;
  EXPECT_EQ(problem({2, 1, 0}, dry), "(2,1,0): water at head height (2,2,0), and the agent does not swim");
  EXPECT_EQ(problem({5, 0, 0}, dry), "(5,0,0): water at the feet (5,0,0), and the agent does not swim");
  MovementProfile no_climbing = walker;
  no_climbing.climb = false;
  EXPECT_EQ(problem({4, 1, 0}, no_climbing),
            "(4,1,0): the block below (4,0,0) is air, so nothing holds the agent (the agent does not climb the "
            "ladder at its feet)");

  const MovementProfile flyer = MovementProfile::flyer();
  EXPECT_EQ(problem({0, 0, 0}, flyer), "(0,0,0) is inside a solid block");
  EXPECT_EQ(problem({4, 0, 0}, flyer), std::nullopt);
  EXPECT_EQ(problem({6, 0, 0}, flyer), "(6,0,0) is outside the world (size 6x4x1)");

  // The query object rejects a start or goal with the same words.
  VoxelQuery pathfinder(world, walker);
  const PathResult from_the_air = pathfinder.find_path({0, 3, 0}, {0, 1, 0});
  EXPECT_EQ(from_the_air.status, SearchStatus::invalid_input);
  EXPECT_EQ(from_the_air.message, "start (0,3,0): the block below (0,2,0) is air, so nothing holds the agent");
  EXPECT_EQ(pathfinder.find_path({0, 1, 0}, {9, 1, 0}).message, "goal (9,1,0) is outside the world (size 6x4x1)");
  EXPECT_EQ(pathfinder.position_problem({1, 1, 0}), problem({1, 1, 0}, walker));
}

TEST(VoxelPlaces, ProblemsAgreeWithTheIndependentRulesOnRandomWorlds) {
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 6; ++trial) {
    const VoxelWorld world = VoxelWorld::from_function(6, 6, 6, [&](int, int, int) {
      const auto roll = random() % 100;
      return roll < 30 ? BlockKind::solid : roll < 38 ? BlockKind::water : roll < 44 ? BlockKind::ladder : BlockKind::air;
    });
    MovementProfile profile = MovementProfile::walker();
    profile.agent_height = 1 + trial % 3;
    profile.swim = trial % 2 == 0;
    profile.climb = trial % 4 != 1;
    for (int y = -1; y <= 6; ++y)
      for (int z = -1; z <= 6; ++z)
        for (int x = -1; x <= 6; ++x) {
          const VoxelCoord at{x, y, z};
          const bool expected = valid_position(world, profile, at);
          EXPECT_EQ(!voxel_place_problem(world, profile, at), expected) << voxel_coord_text(at);
          EXPECT_EQ(voxel_place_allowed(world, profile, at), expected) << voxel_coord_text(at);
        }
  }
}

TEST(VoxelPlaces, SnapToTheNearestPlaceWithinTheDistance) {
  const VoxelWorld floor = corridor(6, 4);  // places (x, 1, 0)
  const MovementProfile walker = MovementProfile::walker();
  EXPECT_EQ(nearest_voxel_place(floor, walker, {2, 1, 0}, 0), (VoxelCoord{2, 1, 0}));  // already a place
  EXPECT_EQ(nearest_voxel_place(floor, walker, {2, 0, 0}, 0), std::nullopt);
  EXPECT_EQ(nearest_voxel_place(floor, walker, {2, 0, 0}, 1), (VoxelCoord{2, 1, 0}));  // out of the floor
  EXPECT_EQ(nearest_voxel_place(floor, walker, {2, 3, 0}, 1), std::nullopt);          // two blocks up in the air
  EXPECT_EQ(nearest_voxel_place(floor, walker, {2, 3, 0}, 2), (VoxelCoord{2, 1, 0}));
  EXPECT_EQ(nearest_voxel_place(floor, walker, {-2, 1, 0}, 2), (VoxelCoord{0, 1, 0}));  // from outside the world
  EXPECT_EQ(nearest_voxel_place(floor, walker, {-3, 1, 0}, 2), std::nullopt);
  EXPECT_EQ(nearest_voxel_place(floor, walker, {INT_MAX, INT_MIN, INT_MAX}, max_snap_distance), std::nullopt);
  EXPECT_THROW((void)nearest_voxel_place(floor, walker, {0, 1, 0}, -1), std::invalid_argument);
  EXPECT_THROW((void)nearest_voxel_place(floor, walker, {0, 1, 0}, max_snap_distance + 1), std::invalid_argument);

  // A slab at y 2 over a floor: a one-block agent inside the slab is one block from a place
  // under it and one on top of it, and goes on top.
  VoxelWorld slab = corridor(3, 5);
  for (int x = 0; x < 3; ++x) slab.set_block(x, 2, 0, BlockKind::solid);
  MovementProfile small = walker;
  small.agent_height = 1;
  EXPECT_EQ(nearest_voxel_place(slab, small, {1, 2, 0}, 1), (VoxelCoord{1, 3, 0}));
  // Along a row the lower x wins a tie.
  VoxelWorld row = corridor(5, 3);
  row.set_block(2, 1, 0, BlockKind::solid);
  row.set_block(2, 2, 0, BlockKind::solid);
  EXPECT_EQ(nearest_voxel_place(row, small, {2, 1, 0}, 1), (VoxelCoord{1, 1, 0}));
  // A flyer snaps to the nearest free block.
  EXPECT_EQ(nearest_voxel_place(row, MovementProfile::flyer(), {2, 2, 0}, 1), (VoxelCoord{1, 2, 0}));
}

TEST(VoxelPlaces, SamplesAreSpreadOutDeterministicAndCountEveryPlace) {
  const VoxelWorld floor = corridor(20, 4);
  const MovementProfile walker = MovementProfile::walker();
  const VoxelPlaceSample sample = sample_voxel_places(floor, walker, 3);
  EXPECT_EQ(sample.place_count, 20u);
  // The one nearest the centre first, then the two ends, the farthest from what was picked.
  ASSERT_EQ(sample.places.size(), 3u);
  EXPECT_EQ(sample.places[0], (VoxelCoord{9, 1, 0}));
  EXPECT_EQ(sample.places[1], (VoxelCoord{19, 1, 0}));
  EXPECT_EQ(sample.places[2], (VoxelCoord{0, 1, 0}));
  EXPECT_EQ(sample_voxel_places(floor, walker, 0).places.size(), 0u);
  EXPECT_EQ(sample_voxel_places(floor, walker, 0).place_count, 20u);
  EXPECT_EQ(sample_voxel_places(floor, walker, 50).places.size(), 20u);  // no more than there are

  std::mt19937_64 random(9);
  const VoxelWorld world = VoxelWorld::from_function(40, 12, 40, [&](int, int y, int) {
    return y == 0 || random() % 9 == 0 ? BlockKind::solid : BlockKind::air;
  });
  const std::vector<VoxelCoord> all = all_voxel_places(world, walker);
  const VoxelPlaceSample spread = sample_voxel_places(world, walker, 10);
  EXPECT_EQ(spread.place_count, all.size());
  ASSERT_EQ(spread.places.size(), 10u);
  std::set<std::tuple<int, int, int>> distinct;
  for (const VoxelCoord& at : spread.places) {
    EXPECT_TRUE(valid_position(world, walker, at)) << voxel_coord_text(at);
    distinct.insert({at.x, at.y, at.z});
  }
  EXPECT_EQ(distinct.size(), 10u);
  EXPECT_EQ(sample_voxel_places(world, walker, 10).places, spread.places);
  for (const VoxelCoord& at : all) EXPECT_TRUE(valid_position(world, walker, at));
  // A flyer can be in every block that is not solid.
  EXPECT_EQ(sample_voxel_places(world, MovementProfile::flyer(), 1).place_count,
            world.block_counts()[static_cast<std::size_t>(BlockKind::air)]);
}

TEST(VoxelFlying, MovesThroughTwentySixNeighboursWithoutCuttingCorners) {
  VoxelWorld world(3, 3, 3);
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  EXPECT_NEAR(pathfinder.find_path({0, 0, 0}, {2, 2, 2}).cost, 2.0 * std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(pathfinder.find_path({0, 0, 0}, {2, 2, 0}).cost, 2.0 * sqrt2, 1e-12);
  world.set_block(1, 0, 0, BlockKind::solid);  // beside the diagonal (0,0,0) -> (1,1,0)
  const PathResult around = pathfinder.find_path({0, 0, 0}, {1, 1, 0});
  ASSERT_TRUE(around.found());
  EXPECT_DOUBLE_EQ(around.cost, 2.0);
  const PathResult corner = pathfinder.find_path({0, 0, 0}, {1, 1, 1});
  ASSERT_TRUE(corner.found());
  EXPECT_NEAR(corner.cost, 1.0 + sqrt2, 1e-12);  // the 3D diagonal's box holds the solid block
  double length = 0.0;
  EXPECT_EQ(check_fly_path(world, coords_of(world, corner), length), "");
}

TEST(VoxelSearch, BudgetsGivePartialPathsTowardsTheGoal) {
  VoxelWorld world(40, 3, 40);
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  VoxelSearchOptions options;
  options.budget.max_expansions = 5;
  const PathResult partial = pathfinder.find_path({0, 0, 0}, {39, 0, 39}, options);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::expansion_limit);
  ASSERT_GE(partial.nodes.size(), 2u);
  options.return_partial = false;
  EXPECT_EQ(pathfinder.find_path({0, 0, 0}, {39, 0, 39}, options).status, SearchStatus::budget_exhausted);
  VoxelSearchOptions cost_limited;
  cost_limited.budget.max_cost = 10.0;
  EXPECT_EQ(pathfinder.find_path({0, 0, 0}, {39, 0, 39}, cost_limited).reason, StopReason::cost_limit);
}

TEST(VoxelSearch, WeightedAndGreedyStayWithinTheirPromises) {
  std::mt19937_64 random(5);
  VoxelWorld world = VoxelWorld::from_function(30, 12, 30, [&](int, int, int) {
    return random() % 5 == 0 ? BlockKind::solid : BlockKind::air;
  });
  world.set_block(0, 0, 0, BlockKind::air);
  world.set_block(29, 11, 29, BlockKind::air);
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  const PathResult optimal = pathfinder.find_path({0, 0, 0}, {29, 11, 29});
  ASSERT_TRUE(optimal.found());
  for (const double weight : {1.5, 2.0, 4.0}) {
    VoxelSearchOptions options;
    options.algorithm = VoxelAlgorithm::weighted_astar;
    options.weight = weight;
    const PathResult weighted = pathfinder.find_path({0, 0, 0}, {29, 11, 29}, options);
    ASSERT_TRUE(weighted.found());
    EXPECT_LE(weighted.cost, weight * optimal.cost + 1e-9);
    EXPECT_GE(weighted.cost, optimal.cost - 1e-9);
  }
  VoxelSearchOptions greedy;
  greedy.algorithm = VoxelAlgorithm::greedy_best_first;
  EXPECT_TRUE(pathfinder.find_path({0, 0, 0}, {29, 11, 29}, greedy).found());
  VoxelSearchOptions dijkstra;
  dijkstra.algorithm = VoxelAlgorithm::dijkstra;
  EXPECT_NEAR(pathfinder.find_path({0, 0, 0}, {29, 11, 29}, dijkstra).cost, optimal.cost, 1e-9);
}

TEST(VoxelSearch, RefusesWeightsThatCouldOverflowThePriorities) {
  VoxelWorld world(40, 3, 40);
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  VoxelSearchOptions options;
  options.algorithm = VoxelAlgorithm::weighted_astar;
  options.weight = 1e308;
  const PathResult huge = pathfinder.find_path({0, 0, 0}, {39, 2, 39}, options);
  EXPECT_EQ(huge.status, SearchStatus::invalid_input);
  EXPECT_NE(huge.message.find("weight 1e+308 is too large for this world"), std::string::npos) << huge.message;
  EXPECT_NE(huge.message.find("use a weight of at most"), std::string::npos) << huge.message;
  for (const double bad : {std::numeric_limits<double>::infinity(), std::nan(""), 0.5}) {
    options.weight = bad;
    EXPECT_NE(pathfinder.options_problem(options).value_or("").find("finite weight of at least 1"), std::string::npos) << bad;
  }
  // Large but safe weights search as usual; other algorithms do not read the weight.
  options.weight = 1e12;
  EXPECT_TRUE(pathfinder.find_path({0, 0, 0}, {39, 2, 39}, options).found());
  options.algorithm = VoxelAlgorithm::astar;
  options.weight = 1e308;
  EXPECT_EQ(pathfinder.options_problem(options), std::nullopt);
  // Movement costs that could overflow a path's cost are refused too.
  MovementProfile dear = MovementProfile::walker();
  dear.walk_cost = 1e305;
  VoxelQuery walker(world, dear);
  EXPECT_NE(walker.options_problem({}).value_or("").find("movement costs are too large"), std::string::npos);
}

TEST(VoxelSearch, SteppedSearchEqualsOneShot) {
  VoxelWorld world(20, 4, 20);
  for (int x = 0; x < 20; ++x)
    for (int z = 0; z < 20; ++z) world.set_block(x, 0, z, BlockKind::solid);
  for (int z = 0; z < 18; ++z) fill_column(world, 10, z, 1, 3, BlockKind::solid);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  const PathResult whole = pathfinder.find_path({0, 1, 0}, {19, 1, 0});
  ASSERT_EQ(pathfinder.begin({0, 1, 0}, {19, 1, 0}), SearchStatus::in_progress);
  while (pathfinder.step(7) == SearchStatus::in_progress) {
  }
  const PathResult stepped = pathfinder.result();
  EXPECT_EQ(stepped.nodes, whole.nodes);
  EXPECT_DOUBLE_EQ(stepped.cost, whole.cost);
}

// A step limited by time only pauses the search: each step ends at its first clock reading (after
// StepBudget::time_check_interval expansions) and the result is the one-shot result.
TEST(VoxelSearch, TimedStepsEndWithTheOneShotResult) {
  VoxelWorld world(64, 4, 64);
  for (int x = 0; x < 64; ++x)
    for (int z = 0; z < 64; ++z) world.set_block(x, 0, z, BlockKind::solid);
  for (int wall = 8; wall < 64; wall += 16)  // walls with gaps at alternate ends
    for (int z = 0; z < 62; ++z) fill_column(world, wall, wall % 32 == 8 ? z : z + 2, 1, 3, BlockKind::solid);
  for (const bool fly : {false, true}) {
    MovementProfile profile = MovementProfile::walker();
    profile.fly = fly;
    VoxelQuery pathfinder(world, profile);
    const PathResult whole = pathfinder.find_path({0, 1, 0}, {63, 1, 0});
    ASSERT_TRUE(whole.found()) << whole.message;
    ASSERT_GT(whole.stats.expanded, 4 * StepBudget::time_check_interval);
    ASSERT_EQ(pathfinder.begin({0, 1, 0}, {63, 1, 0}), SearchStatus::in_progress);
    EXPECT_EQ(pathfinder.step(StepBudget::time(std::chrono::nanoseconds(1))), SearchStatus::in_progress);
    EXPECT_EQ(pathfinder.result().stats.expanded, StepBudget::time_check_interval);
    int steps = 1;
    while (pathfinder.step(StepBudget::time(std::chrono::nanoseconds(1))) == SearchStatus::in_progress) ++steps;
    EXPECT_GT(steps, 2);
    const PathResult stepped = pathfinder.result();
    EXPECT_EQ(stepped.nodes, whole.nodes);
    EXPECT_EQ(stepped.cost, whole.cost);
    EXPECT_EQ(stepped.stats.expanded, whole.stats.expanded);
  }
}

// A result the caller owns is refilled in place: a shorter path after a longer one keeps the
// same memory, and the answers equal the returning overload's.
TEST(VoxelSearch, CallerOwnedResultIsReusedWithoutReallocating) {
  VoxelWorld world(20, 4, 20);
  for (int x = 0; x < 20; ++x)
    for (int z = 0; z < 20; ++z) world.set_block(x, 0, z, BlockKind::solid);
  for (int z = 0; z < 18; ++z) fill_column(world, 10, z, 1, 3, BlockKind::solid);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  const auto same = [](const PathResult& a, const PathResult& b) {
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.reason, b.reason);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    EXPECT_EQ(a.message, b.message);
  };
  PathResult out;
  EXPECT_EQ(pathfinder.find_path({0, 1, 0}, {19, 1, 0}, {}, out), SearchStatus::found);
  same(out, pathfinder.find_path({0, 1, 0}, {19, 1, 0}));
  const NodeId* nodes = out.nodes.data();
  const Point* points = out.points.data();
  const std::size_t capacity = out.nodes.capacity();
  for (const VoxelCoord goal : {VoxelCoord{5, 1, 3}, VoxelCoord{19, 1, 0}}) {
    pathfinder.find_path({0, 1, 0}, goal, {}, out);
    same(out, pathfinder.find_path({0, 1, 0}, goal));
    EXPECT_EQ(out.nodes.data(), nodes);
    EXPECT_EQ(out.points.data(), points);
    EXPECT_EQ(out.nodes.capacity(), capacity);
  }
  pathfinder.result(out);
  same(out, pathfinder.result());
  EXPECT_EQ(pathfinder.find_path({0, 1, 0}, {0, 3, 0}, {}, out), SearchStatus::invalid_input);
  EXPECT_FALSE(out.message.empty());
  EXPECT_TRUE(out.nodes.empty() && out.points.empty());
  pathfinder.find_path({0, 1, 0}, {5, 1, 3}, {}, out);
  same(out, pathfinder.find_path({0, 1, 0}, {5, 1, 3}));
}

// Stepping or asking for a result before any begin() is a caller's mistake, answered, not thrown.
TEST(VoxelSearch, StepAndResultBeforeBeginAreInvalidInput) {
  VoxelWorld world(4, 4, 4);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  EXPECT_EQ(pathfinder.step(10), SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.step(StepBudget::time(std::chrono::milliseconds(1))), SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.result().status, SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.result().message, "no query has begun: call begin() before step() and result()");
}

// The engine's optional hooks, as the concepts in core/domain.hpp name them: the paged context
// offers all three context hooks and the dense one none, so only voxel searches pay for them.
static_assert(ClosingContext<PagedSearchContext> && ClosedFlagsContext<PagedSearchContext> &&
              TouchHandleContext<PagedSearchContext>);
static_assert(!ClosingContext<SearchContext> && !ClosedFlagsContext<SearchContext> && !TouchHandleContext<SearchContext>);
static_assert(Domain<VoxelFlyingDomain> && Domain<VoxelWalkingDomain>);
static_assert(ImprovementObserver<IgnoreImprovement>);

// A sink offering closed flags (ClosedFlagsSink) that say every node is closed: the flying
// domain then leaves out every open neighbour of a node inside a chunk and reports them skipped.
// If the domain stopped recognising such a sink, it would list the neighbours instead.
struct AllClosedSink {
  std::array<std::uint16_t, PagedSearchContext::page_size / 16> words;
  std::uint64_t listed = 0;
  std::uint64_t skipped_count = 0;
  AllClosedSink() { words.fill(0xFFFF); }
  void operator()(NodeId, Cost) { ++listed; }
  [[nodiscard]] const std::uint16_t* closed_words(NodeId) const { return words.data(); }
  void skipped(std::uint64_t count) { skipped_count += count; }
};
static_assert(ClosedFlagsSink<AllClosedSink>);

TEST(VoxelSearch, FlyingDomainLeavesOutClosedNeighbours) {
  VoxelWorld world(32, 32, 32);
  const VoxelFlyingDomain domain(world, 1.0);
  const NodeId inside = world.node_of(5, 5, 5);  // inside a chunk, all air around
  std::uint64_t plain = 0;
  domain.for_each_successor(inside, [&](NodeId, Cost) { ++plain; });
  EXPECT_EQ(plain, 26u);
  AllClosedSink sink;
  domain.for_each_successor(inside, sink);
  EXPECT_EQ(sink.listed, 0u);
  EXPECT_EQ(sink.skipped_count, 26u);
}

// The open directions of a neighbourhood against the rule spelled out: a move is open when every
// block of the box it spans is free. Every mask of up to two blocked bits, then random ones.
TEST(VoxelSearch, FlyingOpenDirectionsMatchTheBoxRule) {
  const auto by_boxes = [](std::uint32_t blocked) {
    std::uint32_t open = 0;
    int direction = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          bool free = true;
          for (int a = std::min(0, dx); a <= std::max(0, dx); ++a)
            for (int b = std::min(0, dy); b <= std::max(0, dy); ++b)
              for (int c = std::min(0, dz); c <= std::max(0, dz); ++c)
                if ((blocked >> ((b + 1) * 9 + (c + 1) * 3 + (a + 1))) & 1u) free = false;
          if (free) open |= 1u << direction;
          ++direction;
        }
    return open;
  };
  std::vector<std::uint32_t> masks{0};
  for (int i = 0; i < 27; ++i)
    for (int j = i; j < 27; ++j) masks.push_back((1u << i) | (1u << j));
  std::mt19937 random(11);
  for (int i = 0; i < 20000; ++i) masks.push_back(static_cast<std::uint32_t>(random()) & ((1u << 27) - 1));
  for (const std::uint32_t blocked : masks)
    ASSERT_EQ(VoxelFlyingDomain::open_directions(blocked), by_boxes(blocked)) << blocked;
}

// Brute force: Dijkstra over every place, with moves found by trying every nearby position
// against the independent rules.
std::map<std::tuple<int, int, int>, double> reference_costs(const VoxelWorld& world, const MovementProfile& profile,
                                                            VoxelCoord start) {
  using Key = std::tuple<int, int, int>;
  std::map<Key, double> best;
  using Entry = std::pair<double, Key>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[{start.x, start.y, start.z}] = 0.0;
  open.push({0.0, {start.x, start.y, start.z}});
  const int reach = profile.jump_distance + 1;
  const int rise = std::max({profile.jump_height, profile.step_height, 1});
  while (!open.empty()) {
    const auto [g, key] = open.top();
    open.pop();
    if (g > best[key]) continue;
    const VoxelCoord a{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
    for (int dy = -profile.max_fall; dy <= rise; ++dy)
      for (int dz = -reach; dz <= reach; ++dz)
        for (int dx = -reach; dx <= reach; ++dx) {
          const VoxelCoord b{a.x + dx, a.y + dy, a.z + dz};
          if ((dx == 0 && dy == 0 && dz == 0) || !world.contains(b)) continue;
          const std::optional<double> cost = legal_walk_move_cost(world, profile, a, b);
          if (!cost) continue;
          const Key next{b.x, b.y, b.z};
          const auto found = best.find(next);
          if (found == best.end() || g + *cost < found->second - 1e-12) {
            best[next] = g + *cost;
            open.push({g + *cost, next});
          }
        }
  }
  return best;
}

TEST(VoxelWalking, MatchesABruteForceReferenceOnRandomWorlds) {
  std::mt19937_64 random(11);
  int compared = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int size = 7;
    VoxelWorld world = VoxelWorld::from_function(size, 7, size, [&](int, int y, int) {
      if (y == 0) return BlockKind::solid;
      const auto roll = random() % 100;
      if (roll < 22) return BlockKind::solid;
      if (roll < 27) return BlockKind::water;
      if (roll < 31) return BlockKind::ladder;
      return BlockKind::air;
    });
    MovementProfile profile = MovementProfile::walker();
    if (trial % 3 == 1) {
      profile.jump_height = 2;
      profile.agent_height = 1;
      profile.walk_directions = 4;
    }
    if (trial % 3 == 2) {
      profile.step_height = 2;
      profile.max_fall = 2;
      profile.jump_distance = 1;
    }
    std::vector<VoxelCoord> places;
    for (int y = 0; y < 7; ++y)
      for (int z = 0; z < size; ++z)
        for (int x = 0; x < size; ++x)
          if (valid_position(world, profile, {x, y, z})) places.push_back({x, y, z});
    if (places.size() < 2) continue;
    const VoxelCoord start = places[random() % places.size()];
    const auto reference = reference_costs(world, profile, start);
    VoxelQuery pathfinder(world, profile);
    for (const VoxelCoord& goal : places) {
      const PathResult result = pathfinder.find_path(start, goal);
      const auto expected = reference.find({goal.x, goal.y, goal.z});
      if (expected == reference.end()) {
        EXPECT_EQ(result.status, SearchStatus::no_path) << "trial " << trial;
        continue;
      }
      ASSERT_TRUE(result.found()) << "trial " << trial << " goal " << goal.x << "," << goal.y << "," << goal.z;
      EXPECT_NEAR(result.cost, expected->second, 1e-9) << "trial " << trial;
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace wayfinder
