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

void skip_or_fail_without(const std::filesystem::path& file) {
  if (std::filesystem::exists(file)) return;
  const std::string message = file.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
  if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
  GTEST_SKIP() << message;
}

std::vector<VoxelCoord> coords_of(const VoxelWorld& world, const PathResult& result) {
  std::vector<VoxelCoord> path;
  for (const NodeId node : result.nodes) path.push_back(world.coord_of(node));
  return path;
}

class FlyingBenchmarkTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FlyingBenchmarkTest, EveryQueryHasTheOptimalLength) {
  const std::filesystem::path scenario_path = voxel_directory() / "warframe" / (GetParam() + ".3dmap.3dscen");
  skip_or_fail_without(scenario_path);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  const VoxelScenario scenario = read_voxel_scenario(scenario_path);
  const VoxelWorld world = read_voxel_benchmark_map(voxel_scenario_map_path(scenario_path));
  ASSERT_NO_THROW(check_voxel_scenario_fits_world(scenario, world));
  ASSERT_GE(scenario.queries.size(), 1000u);

  VoxelQuery pathfinder(world, MovementProfile::flyer());
  const std::size_t stride = sanitized_build() ? 20 : 1;
  std::size_t checked = 0;
  std::size_t failures = 0;
  double max_error = 0.0;
  for (std::size_t i = 0; i < scenario.queries.size(); i += stride) {
    const VoxelScenarioQuery& query = scenario.queries[i];
    const PathResult result = pathfinder.find_path(query.start, query.goal);
    ++checked;
    const std::string where = scenario.source_name + ":" + std::to_string(query.line);
    if (!result.found()) {
      if (++failures <= 10) ADD_FAILURE() << where << ": no path (" << to_string(result.status) << ")";
      continue;
    }
    const double error = std::abs(result.cost - query.optimal_length);
    max_error = std::max(max_error, error);
    if (error > 1e-3 && ++failures <= 10)
      ADD_FAILURE() << where << ": cost " << result.cost << ", optimal " << query.optimal_length;
    double length = 0.0;
    const std::string problem = check_fly_path(world, coords_of(world, result), length);
    if (!problem.empty() && ++failures <= 10) ADD_FAILURE() << where << ": " << problem;
    if (problem.empty() && std::abs(length - result.cost) > 1e-6 && ++failures <= 10)
      ADD_FAILURE() << where << ": path length " << length << " but reported cost " << result.cost;
    if (result.nodes.front() != world.node_of(query.start) || result.nodes.back() != world.node_of(query.goal))
      if (++failures <= 10) ADD_FAILURE() << where << ": path does not join start and goal";
  }
  EXPECT_EQ(failures, 0u);
  std::cout << GetParam() << ": " << checked << " queries, max |cost - optimal| " << max_error << "\n";
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
