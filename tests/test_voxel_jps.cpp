// Jump point search for flying agents (VoxelAlgorithm::jump_point): optimal under the flying
// rules (26 neighbours, costs 1, sqrt 2, sqrt 3, no corner cutting).
//
// - Random small worlds (random, clustered and walled obstacles, sizes across chunk borders):
//   the cost equals a brute-force Dijkstra written here from the rules and flying A*, every
//   path is legal move by move, and unreachable goals end as A*'s do.
// - Every query of the MovingAI voxel benchmark (warframe/Simple and warframe/Complex) has the
//   scenario's optimal length (sampled under WAYFINDER_SAMPLE_DATA and sanitizer builds).
// - Options: walkers are refused, stepping and budgets behave as for A*.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "voxel_test_support.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_jump_point_search.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

VoxelSearchOptions jps() {
  VoxelSearchOptions options;
  options.algorithm = VoxelAlgorithm::jump_point;
  return options;
}

/// Dijkstra over block coordinates, from the rules alone: a move to any of the 26 neighbours
/// inside the world whose whole box is non-solid. Infinity if unreachable.
double brute_force_cost(const VoxelWorld& world, VoxelCoord start, VoxelCoord goal) {
  const int sx = world.size_x();
  const int sy = world.size_y();
  const int sz = world.size_z();
  auto index = [&](int x, int y, int z) { return (static_cast<std::size_t>(y) * sz + z) * sx + x; };
  std::vector<double> best(static_cast<std::size_t>(sx) * sy * sz, std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[index(start.x, start.y, start.z)] = 0.0;
  open.push({0.0, index(start.x, start.y, start.z)});
  while (!open.empty()) {
    const auto [cost, at] = open.top();
    open.pop();
    if (cost > best[at]) continue;
    const int x = static_cast<int>(at % sx);
    const int z = static_cast<int>((at / sx) % sz);
    const int y = static_cast<int>(at / (static_cast<std::size_t>(sx) * sz));
    if (x == goal.x && y == goal.y && z == goal.z) return cost;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          if (!world.contains(x + dx, y + dy, z + dz)) continue;
          bool open_box = true;
          for (int a = std::min(0, dx); a <= std::max(0, dx) && open_box; ++a)
            for (int b = std::min(0, dy); b <= std::max(0, dy) && open_box; ++b)
              for (int c = std::min(0, dz); c <= std::max(0, dz) && open_box; ++c)
                if (world.solid(x + a, y + b, z + c)) open_box = false;
          if (!open_box) continue;
          const double next = cost + std::sqrt(static_cast<double>(dx * dx + dy * dy + dz * dz));
          const std::size_t to = index(x + dx, y + dy, z + dz);
          if (next < best[to]) {
            best[to] = next;
            open.push({next, to});
          }
        }
  }
  return std::numeric_limits<double>::infinity();
}

/// A random world of one of several kinds of obstacle.
VoxelWorld random_world(std::mt19937_64& random, int kind) {
  auto between = [&](int low, int high) { return low + static_cast<int>(random() % static_cast<unsigned>(high - low + 1)); };
  const int sx = between(2, kind == 3 ? 40 : 14);
  const int sy = between(2, kind == 3 ? 20 : 14);
  const int sz = between(2, kind == 3 ? 40 : 14);
  const double density = std::uniform_real_distribution<double>(0.0, 0.45)(random);
  VoxelWorld world(sx, sy, sz);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(random) < p; };
  switch (kind) {
    case 0:  // scattered blocks
      for (int y = 0; y < sy; ++y)
        for (int z = 0; z < sz; ++z)
          for (int x = 0; x < sx; ++x)
            if (chance(density)) world.set_block(x, y, z, BlockKind::solid);
      break;
    case 1:  // boxes
      for (int i = 0, n = between(1, 12); i < n; ++i) {
        const int x0 = between(0, sx - 1);
        const int y0 = between(0, sy - 1);
        const int z0 = between(0, sz - 1);
        const int x1 = std::min(sx - 1, x0 + between(0, 4));
        const int y1 = std::min(sy - 1, y0 + between(0, 4));
        const int z1 = std::min(sz - 1, z0 + between(0, 4));
        for (int y = y0; y <= y1; ++y)
          for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) world.set_block(x, y, z, BlockKind::solid);
      }
      break;
    case 2:  // walls with holes across every axis
      for (int i = 0, n = between(1, 5); i < n; ++i) {
        const int axis = between(0, 2);
        const int at = between(0, (axis == 0 ? sx : axis == 1 ? sy : sz) - 1);
        for (int y = 0; y < sy; ++y)
          for (int z = 0; z < sz; ++z)
            for (int x = 0; x < sx; ++x) {
              const int c = axis == 0 ? x : axis == 1 ? y : z;
              if (c == at && !chance(0.15)) world.set_block(x, y, z, BlockKind::solid);
            }
      }
      break;
    default:  // sparse blocks in a larger world, across chunk borders
      for (int y = 0; y < sy; ++y)
        for (int z = 0; z < sz; ++z)
          for (int x = 0; x < sx; ++x)
            if (chance(density * 0.3)) world.set_block(x, y, z, BlockKind::solid);
      break;
  }
  return world;
}

VoxelCoord random_free(std::mt19937_64& random, const VoxelWorld& world) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const VoxelCoord at{static_cast<int>(random() % world.size_x()), static_cast<int>(random() % world.size_y()),
                        static_cast<int>(random() % world.size_z())};
    if (!world.solid(at.x, at.y, at.z)) return at;
  }
  return {-1, -1, -1};
}

/// Checks a JPS result against A* and the brute force; returns whether a path was found.
bool check_query(const VoxelWorld& world, VoxelQuery& pathfinder, VoxelCoord start, VoxelCoord goal,
                 const std::string& where) {
  const PathResult jump = pathfinder.find_path(start, goal, jps());
  VoxelSearchOptions astar_options;
  astar_options.algorithm = VoxelAlgorithm::astar;
  const PathResult astar = pathfinder.find_path(start, goal, astar_options);
  const double brute = brute_force_cost(world, start, goal);
  EXPECT_EQ(jump.status, astar.status) << where << ": " << jump.message;
  if (!std::isfinite(brute)) {
    EXPECT_EQ(jump.status, SearchStatus::no_path) << where;
    EXPECT_TRUE(jump.nodes.empty()) << where;
    return false;
  }
  if (!jump.found()) {
    ADD_FAILURE() << where << ": no path (" << to_string(jump.status) << "), brute force " << brute;
    return false;
  }
  EXPECT_NEAR(jump.cost, brute, 1e-9 * std::max(1.0, brute)) << where;
  EXPECT_NEAR(jump.cost, astar.cost, 1e-9 * std::max(1.0, brute)) << where;
  double length = 0.0;
  EXPECT_EQ(check_fly_path(world, coords_of(world, jump), length), "") << where;
  EXPECT_NEAR(length, jump.cost, 1e-9 * std::max(1.0, length)) << where;
  EXPECT_EQ(jump.nodes.front(), world.node_of(start)) << where;
  EXPECT_EQ(jump.nodes.back(), world.node_of(goal)) << where;
  EXPECT_EQ(jump.points.size(), jump.nodes.size()) << where;
  return true;
}

TEST(VoxelJumpPointSearch, MatchesBruteForceAndAStarOnRandomWorlds) {
  std::mt19937_64 random(20261123u);
  const int worlds = sanitized_build() ? 60 : 600;
  int found = 0;
  int unreachable = 0;
  for (int w = 0; w < worlds; ++w) {
    const int kind = w % 4;
    const VoxelWorld world = random_world(random, kind);
    VoxelQuery pathfinder(world, MovementProfile::flyer());
    for (int q = 0; q < 8; ++q) {
      const VoxelCoord start = random_free(random, world);
      const VoxelCoord goal = random_free(random, world);
      if (start.x < 0 || goal.x < 0) continue;
      const std::string where = "world " + std::to_string(w) + " (kind " + std::to_string(kind) + ", " +
                                std::to_string(world.size_x()) + "x" + std::to_string(world.size_y()) + "x" +
                                std::to_string(world.size_z()) + ") query " + std::to_string(q);
      if (check_query(world, pathfinder, start, goal, where))
        ++found;
      else
        ++unreachable;
      if (::testing::Test::HasFailure()) return;
    }
  }
  std::cout << found << " paths, " << unreachable << " unreachable goals\n";
  EXPECT_GT(found, worlds * 3);
  EXPECT_GT(unreachable, 0);
}

TEST(VoxelJumpPointSearch, EveryJumpBoundIsOptimal) {
  // Bounded jumps only move where the search takes over; every bound must stay optimal, from
  // canonical A* without jumps (all 1) to unbounded jumps everywhere.
  const VoxelJumpLimits configurations[] = {
      {}, {1, 1, 1}, {1 << 30, 1 << 30, 1 << 30}, {3, 2, 2}, {2, 5, 1}, {1 << 30, 4, 6}};
  std::mt19937_64 random(99u);
  const int worlds = sanitized_build() ? 30 : 300;
  for (int w = 0; w < worlds; ++w) {
    const int kind = w % 4;
    const VoxelWorld world = random_world(random, kind);
    PagedSearchContext context;
    for (int q = 0; q < 4; ++q) {
      const VoxelCoord start = random_free(random, world);
      const VoxelCoord goal = random_free(random, world);
      if (start.x < 0 || goal.x < 0) continue;
      const double brute = brute_force_cost(world, start, goal);
      for (std::size_t c = 0; c < std::size(configurations); ++c) {
        const std::string where = "world " + std::to_string(w) + " query " + std::to_string(q) + " bounds " +
                                  std::to_string(c);
        const VoxelJumpPointDomain domain(world, 1.0, world.node_of(goal), configurations[c]);
        BestFirstSearch<VoxelJumpPointDomain, PagedSearchContext> search(domain, context);
        const PathResult result = search.run(world.node_of(start), world.node_of(goal), SearchOptions{});
        if (!std::isfinite(brute)) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << where;
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << where;
        EXPECT_NEAR(result.cost, brute, 1e-9 * std::max(1.0, brute)) << where;
        std::vector<NodeId> blocks;
        expand_voxel_jump_points(world, result.nodes, blocks);
        std::vector<VoxelCoord> path;
        for (const NodeId node : blocks) path.push_back(world.coord_of(node));
        double length = 0.0;
        EXPECT_EQ(check_fly_path(world, path, length), "") << where;
        EXPECT_NEAR(length, result.cost, 1e-9 * std::max(1.0, length)) << where;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(VoxelJumpPointSearch, OpenSpaceAndSingleObstacles) {
  // Every start and goal of a small open world, then with one block in the middle: forced
  // successors around a lone block are the cases the pruning must get right.
  for (const bool block : {false, true}) {
    VoxelWorld world(5, 5, 5);
    if (block) world.set_block(2, 2, 2, BlockKind::solid);
    VoxelQuery pathfinder(world, MovementProfile::flyer());
    for (int a = 0; a < 125; a += 3)
      for (int b = 0; b < 125; b += 2) {
        const VoxelCoord start{a % 5, a / 25, (a / 5) % 5};
        const VoxelCoord goal{b % 5, b / 25, (b / 5) % 5};
        if (world.solid(start.x, start.y, start.z) || world.solid(goal.x, goal.y, goal.z)) continue;
        check_query(world, pathfinder, start, goal, "cells " + std::to_string(a) + " to " + std::to_string(b));
        if (::testing::Test::HasFailure()) return;
      }
  }
}

TEST(VoxelJumpPointSearch, UnreachableGoalsEndAsAStarDoes) {
  VoxelWorld world(9, 9, 9);
  // The goal (4, 4, 4) sealed in a hollow cube.
  for (int y = 3; y <= 5; ++y)
    for (int z = 3; z <= 5; ++z)
      for (int x = 3; x <= 5; ++x)
        if (x != 4 || y != 4 || z != 4) world.set_block(x, y, z, BlockKind::solid);
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  const PathResult jump = pathfinder.find_path({0, 0, 0}, {4, 4, 4}, jps());
  EXPECT_EQ(jump.status, SearchStatus::no_path);
  EXPECT_EQ(jump.reason, StopReason::open_list_empty);
  EXPECT_TRUE(jump.nodes.empty());

  VoxelSearchOptions options = jps();
  options.partial_when_unreachable = true;
  const PathResult partial = pathfinder.find_path({0, 0, 0}, {4, 4, 4}, options);
  ASSERT_EQ(partial.status, SearchStatus::partial);
  double length = 0.0;
  EXPECT_EQ(check_fly_path(world, coords_of(world, partial), length), "");
  EXPECT_NEAR(length, partial.cost, 1e-9);
  EXPECT_EQ(partial.nodes.front(), world.node_of({0, 0, 0}));
}

TEST(VoxelJumpPointSearch, RefusesWalkersAndUnknownAlgorithms) {
  VoxelWorld world(6, 4, 6);
  for (int z = 0; z < 6; ++z)
    for (int x = 0; x < 6; ++x) world.set_block(x, 0, z, BlockKind::solid);
  VoxelQuery walker(world, MovementProfile::walker());
  const PathResult refused = walker.find_path({1, 1, 1}, {4, 1, 4}, jps());
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("jump point search is for flying agents only"), std::string::npos) << refused.message;
  EXPECT_TRUE(walker.options_problem(jps()).has_value());

  // The same pathfinder serves a flyer through options.profile, and refuses a walker there.
  VoxelSearchOptions as_flyer = jps();
  as_flyer.profile = MovementProfile::flyer();
  EXPECT_TRUE(walker.find_path({1, 1, 1}, {4, 3, 4}, as_flyer).found());
  VoxelQuery flyer(world, MovementProfile::flyer());
  VoxelSearchOptions as_walker = jps();
  as_walker.profile = MovementProfile::walker();
  EXPECT_EQ(flyer.find_path({1, 1, 1}, {4, 1, 4}, as_walker).status, SearchStatus::invalid_input);

  VoxelSearchOptions unknown;
  unknown.algorithm = static_cast<VoxelAlgorithm>(static_cast<int>(VoxelAlgorithm::hierarchical) + 1);
  EXPECT_NE(flyer.options_problem(unknown).value_or("").find("unknown algorithm"), std::string::npos);

  EXPECT_EQ(parse_voxel_algorithm("jps"), VoxelAlgorithm::jump_point);
  EXPECT_EQ(to_string(VoxelAlgorithm::jump_point), "jps");
  // Existing values keep their numbers; the new one is appended.
  EXPECT_EQ(static_cast<int>(VoxelAlgorithm::greedy_best_first), 3);
  EXPECT_EQ(static_cast<int>(VoxelAlgorithm::jump_point), 4);
}

TEST(VoxelJumpPointSearch, SteppedAndBudgetedQueriesBehaveAsForAStar) {
  std::mt19937_64 random(7);
  const VoxelWorld world = random_world(random, 1);
  VoxelWorld big(48, 24, 48);
  for (int i = 0; i < 400; ++i)
    big.set_block(static_cast<int>(random() % 48), static_cast<int>(random() % 24), static_cast<int>(random() % 48),
                  BlockKind::solid);
  VoxelQuery pathfinder(big, MovementProfile::flyer());
  const VoxelCoord start = random_free(random, big);
  const VoxelCoord goal = random_free(random, big);
  const PathResult whole = pathfinder.find_path(start, goal, jps());
  ASSERT_TRUE(whole.found());

  ASSERT_EQ(pathfinder.begin(start, goal, jps()), SearchStatus::in_progress);
  int steps = 0;
  while (pathfinder.step(1) == SearchStatus::in_progress) ++steps;
  const PathResult stepped = pathfinder.result();
  EXPECT_EQ(stepped.status, SearchStatus::found);
  EXPECT_EQ(stepped.nodes, whole.nodes);
  EXPECT_DOUBLE_EQ(stepped.cost, whole.cost);
  EXPECT_EQ(stepped.stats.expanded, whole.stats.expanded);
  EXPECT_GE(steps + 1, static_cast<int>(whole.stats.expanded));

  VoxelSearchOptions limited = jps();
  limited.budget.max_expansions = 1;
  limited.return_partial = true;
  const PathResult partial = pathfinder.find_path(start, goal, limited);
  if (whole.stats.expanded > 1) {
    EXPECT_EQ(partial.status, SearchStatus::partial);
    EXPECT_EQ(partial.reason, StopReason::expansion_limit);
    double length = 0.0;
    EXPECT_EQ(check_fly_path(big, coords_of(big, partial), length), "");
    limited.return_partial = false;
    EXPECT_EQ(pathfinder.find_path(start, goal, limited).status, SearchStatus::budget_exhausted);
  }
  // A start that is the goal.
  const PathResult same = pathfinder.find_path(start, start, jps());
  EXPECT_TRUE(same.found());
  EXPECT_EQ(same.nodes.size(), 1u);
  EXPECT_EQ(same.cost, 0.0);
  (void)world;
}

TEST(VoxelJumpPointSearch, FlyCostScalesEveryMove) {
  VoxelWorld world(12, 12, 12);
  for (int y = 0; y < 12; ++y)
    for (int z = 0; z < 12; ++z) world.set_block(6, y, z, (y + z) % 5 == 0 ? BlockKind::air : BlockKind::solid);
  MovementProfile profile = MovementProfile::flyer();
  profile.fly_cost = 2.5;
  VoxelQuery pathfinder(world, profile);
  VoxelSearchOptions astar;
  astar.algorithm = VoxelAlgorithm::astar;
  const PathResult a = pathfinder.find_path({0, 0, 0}, {11, 11, 11}, astar);
  const PathResult j = pathfinder.find_path({0, 0, 0}, {11, 11, 11}, jps());
  ASSERT_TRUE(a.found());
  ASSERT_TRUE(j.found());
  EXPECT_NEAR(a.cost, j.cost, 1e-9);
  EXPECT_NEAR(j.cost, 2.5 * brute_force_cost(world, {0, 0, 0}, {11, 11, 11}), 1e-9);
}

// ---- The MovingAI voxel benchmark ----------------------------------------------------------

class JumpPointBenchmarkTest : public ::testing::TestWithParam<std::string> {};

TEST_P(JumpPointBenchmarkTest, EveryQueryHasTheOptimalLength) {
  expect_every_warframe_query_optimal(GetParam(), jps());
}

INSTANTIATE_TEST_SUITE_P(Warframe, JumpPointBenchmarkTest, ::testing::Values("Simple", "Complex"));

}  // namespace
}  // namespace wayfinder
