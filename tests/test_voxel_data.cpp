// Proof on real voxel data.
//
// Flying: every query of the MovingAI voxel benchmark scenarios (Brewer & Sturtevant 2018;
// warframe/Simple and warframe/Complex) is solved by A* and compared with the optimal length
// the scenario records, and each path is checked step by step (26 neighbours, no corner
// cutting). Sanitizer builds run every 20th query.
//
// Walking: on the MagicaVoxel city scenes, seeded random pairs of places where a walker can be
// are solved by A* and by Dijkstra, which must agree on the status and the cost; both paths are
// checked move by move by the independent validator of voxel_test_support.hpp.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "voxel_test_support.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

std::filesystem::path voxel_directory() { return data_directory() / "voxel"; }

class FlyingBenchmarkTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FlyingBenchmarkTest, EveryQueryHasTheOptimalLength) {
  expect_every_warframe_query_optimal(GetParam(), VoxelSearchOptions{});
}

INSTANTIATE_TEST_SUITE_P(Warframe, FlyingBenchmarkTest, ::testing::Values("Simple", "Complex"));

class WalkingSceneTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WalkingSceneTest, AStarAndDijkstraAgreeAndPathsAreLegal) {
  const std::filesystem::path file = voxel_directory() / "vox" / (GetParam() + ".vox");
  skip_or_fail_without(file);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  const VoxelWorld world = read_vox_file(file);
  const MovementProfile profile = MovementProfile::walker();
  VoxelQuery pathfinder(world, profile);

  std::vector<VoxelCoord> places;
  for (int y = 0; y < world.size_y(); ++y)
    for (int z = 0; z < world.size_z(); ++z)
      for (int x = 0; x < world.size_x(); ++x)
        if (valid_position(world, profile, {x, y, z})) places.push_back({x, y, z});
  ASSERT_GT(places.size(), 100u) << "too few places to stand in " << file;

  std::mt19937_64 random(20240601u + std::hash<std::string>{}(GetParam()) % 1000u);
  const int pairs = sanitized_build() ? 4 : 60;
  int found = 0;
  for (int i = 0; i < pairs; ++i) {
    const VoxelCoord start = places[random() % places.size()];
    const VoxelCoord goal = places[random() % places.size()];
    const std::string where = GetParam() + " pair " + std::to_string(i);
    VoxelSearchOptions options;
    options.algorithm = VoxelAlgorithm::astar;
    const PathResult astar = pathfinder.find_path(start, goal, options);
    options.algorithm = VoxelAlgorithm::dijkstra;
    const PathResult dijkstra = pathfinder.find_path(start, goal, options);
    ASSERT_EQ(astar.status, dijkstra.status) << where;
    if (!astar.found()) continue;
    ++found;
    EXPECT_NEAR(astar.cost, dijkstra.cost, 1e-9 * std::max(1.0, astar.cost)) << where;
    for (const PathResult* result : {&astar, &dijkstra}) {
      double cost = 0.0;
      const std::string problem = check_walk_path(world, profile, coords_of(world, *result), cost);
      EXPECT_EQ(problem, "") << where;
      if (problem.empty()) {
        EXPECT_NEAR(cost, result->cost, 1e-9 * std::max(1.0, cost)) << where;
      }
      EXPECT_EQ(result->nodes.front(), world.node_of(start)) << where;
      EXPECT_EQ(result->nodes.back(), world.node_of(goal)) << where;
    }
  }
  std::cout << GetParam() << ": " << places.size() << " places, " << found << " of " << pairs << " pairs connected\n";
  EXPECT_GT(found, 0) << "no random pair was connected; the scene or the walker is broken";
}

INSTANTIATE_TEST_SUITE_P(MiniMetro, WalkingSceneTest,
                         ::testing::Values("scene_park3", "scene_tentcity", "scene_house4", "scene_church1",
                                           "scene_store8"));

}  // namespace
}  // namespace wayfinder
