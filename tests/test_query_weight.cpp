// `weight` means one thing in the three worlds (core/query_options.hpp, weight_problem): the
// searches that weight their heuristic apply it, the others leave any usable weight unread, and
// every query refuses a weight that is no factor at all (NaN, infinite, negative), whatever its
// algorithm.

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "query_test_support.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

using namespace wayfinder;
using wayfinder::testing::square_grid;

namespace {

constexpr double nonsense_weights[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(), -1.0};

VoxelWorld voxel_floor() {
  VoxelWorld world(8, 4, 8);
  for (int x = 0; x < 8; ++x)
    for (int z = 0; z < 8; ++z) world.set_block(x, 0, z, BlockKind::solid);
  return world;
}

bool same_answer(const PathResult& a, const PathResult& b) {
  return a.status == b.status && a.cost == b.cost && a.nodes == b.nodes && a.stats.expanded == b.stats.expanded;
}

void expect_refused_in_words(const PathResult& result, double weight) {
  EXPECT_EQ(result.status, SearchStatus::invalid_input) << weight;
  EXPECT_NE(result.message.find("weight"), std::string::npos) << result.message;
}

}  // namespace

TEST(QueryWeight, TheSharedCheckAcceptsOnlyFactors) {
  EXPECT_FALSE(weight_problem(0.0).has_value());
  EXPECT_FALSE(weight_problem(1.0).has_value());
  EXPECT_FALSE(weight_problem(1e300).has_value());
  for (const double weight : nonsense_weights) {
    ASSERT_TRUE(weight_problem(weight).has_value()) << weight;
    EXPECT_EQ(weight_problem(weight)->rfind("weight", 0), 0u) << *weight_problem(weight);
  }
}

TEST(QueryWeight, GridAlgorithmsThatDoNotWeightTheHeuristicIgnoreUsableWeightsAndRefuseNonsense) {
  const GridMap map(12, 9);
  GridQuery finder(map);
  for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::dijkstra, GridAlgorithm::greedy_best_first,
                                        GridAlgorithm::jump_point, GridAlgorithm::bidirectional_astar}) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    const PathResult plain = finder.find_path({0, 0}, {11, 8}, options);
    ASSERT_TRUE(plain.found()) << plain.message;
    options.weight = 7.0;
    EXPECT_TRUE(same_answer(finder.find_path({0, 0}, {11, 8}, options), plain)) << static_cast<int>(algorithm);
    for (const double weight : nonsense_weights) {
      options.weight = weight;
      expect_refused_in_words(finder.find_path({0, 0}, {11, 8}, options), weight);
    }
  }
  GridSearchOptions weighted;
  weighted.algorithm = GridAlgorithm::weighted_astar;
  for (const double weight : nonsense_weights) {
    weighted.weight = weight;
    expect_refused_in_words(finder.find_path({0, 0}, {11, 8}, weighted), weight);
  }
}

TEST(QueryWeight, VoxelAlgorithmsThatDoNotWeightTheHeuristicIgnoreUsableWeightsAndRefuseNonsense) {
  const VoxelWorld world = voxel_floor();
  VoxelQuery finder(world);
  for (const VoxelAlgorithm algorithm : {VoxelAlgorithm::astar, VoxelAlgorithm::dijkstra, VoxelAlgorithm::greedy_best_first}) {
    VoxelSearchOptions options;
    options.algorithm = algorithm;
    const PathResult plain = finder.find_path({0, 1, 0}, {7, 1, 6}, options);
    ASSERT_TRUE(plain.found()) << plain.message;
    options.weight = 7.0;
    EXPECT_TRUE(same_answer(finder.find_path({0, 1, 0}, {7, 1, 6}, options), plain)) << static_cast<int>(algorithm);
    for (const double weight : nonsense_weights) {
      options.weight = weight;
      expect_refused_in_words(finder.find_path({0, 1, 0}, {7, 1, 6}, options), weight);
    }
  }
  VoxelSearchOptions weighted;
  weighted.algorithm = VoxelAlgorithm::weighted_astar;
  for (const double weight : nonsense_weights) {
    weighted.weight = weight;
    expect_refused_in_words(finder.find_path({0, 1, 0}, {7, 1, 6}, weighted), weight);
  }
}

TEST(QueryWeight, TheMeshsExactSearchIgnoresUsableWeightsAndEveryMeshSearchRefusesNonsense) {
  const NavMesh mesh = NavMesh::build(square_grid(6, 4));
  NavMeshQuery query(mesh);
  const Point start{0.5, 0.0, 0.5}, goal{5.5, 0.0, 3.5};
  NavMeshSearchOptions exact;
  exact.nodes = CorridorNodes::optimal;
  const PathResult plain = query.find_path(start, goal, exact);
  ASSERT_TRUE(plain.found()) << plain.message;
  exact.weight = 7.0;
  const PathResult weighted = query.find_path(start, goal, exact);
  EXPECT_EQ(weighted.status, plain.status);
  EXPECT_EQ(weighted.cost, plain.cost);
  EXPECT_EQ(weighted.points.size(), plain.points.size());
  for (const CorridorNodes nodes : {CorridorNodes::optimal, CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    for (const double weight : nonsense_weights) {
      options.weight = weight;
      expect_refused_in_words(query.find_path(start, goal, options), weight);
    }
  }
}
