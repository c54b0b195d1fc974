// One Budget validation for every world: a NaN or negative max_cost and a negative max_time
// give invalid_input, with the same message, on grids (every algorithm), navigation meshes
// (corridor and exact searches) and voxel worlds; the limits that mean "no limit" are accepted.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

struct BadBudget {
  const char* what;
  Budget budget;
};

std::vector<BadBudget> bad_budgets() {
  std::vector<BadBudget> bad(3);
  bad[0] = {"NaN max_cost", {}};
  bad[0].budget.max_cost = std::numeric_limits<double>::quiet_NaN();
  bad[1] = {"negative max_cost", {}};
  bad[1].budget.max_cost = -3.0;
  bad[2] = {"negative max_time", {}};
  bad[2].budget.max_time = std::chrono::nanoseconds(-1);
  return bad;
}

TEST(BudgetValidation, NamesWhatIsWrong) {
  EXPECT_EQ(budget_problem(Budget{}), std::nullopt);
  Budget zero_cost;
  zero_cost.max_cost = 0.0;
  EXPECT_EQ(budget_problem(zero_cost), std::nullopt);
  for (const BadBudget& bad : bad_budgets()) {
    const std::optional<std::string> problem = budget_problem(bad.budget);
    ASSERT_TRUE(problem.has_value()) << bad.what;
    const std::string field = bad.budget.max_time.count() < 0 ? "budget.max_time" : "budget.max_cost";
    EXPECT_NE(problem->find(field), std::string::npos) << *problem;
  }
}

TEST(BudgetValidation, EveryWorldRefusesTheSameBudgetsWithTheSameWords) {
  const GridMap map(8, 8);
  GridQuery grid(map);
  MeshGeometry square;
  square.vertices = {{0, 0, 0}, {8, 0, 0}, {8, 0, 8}, {0, 0, 8}};
  square.polygons = {{0, 1, 2, 3}};
  const NavMesh mesh = NavMesh::build(square);
  NavMeshQuery mesh_query(mesh);
  const VoxelWorld world = VoxelWorld::from_function(8, 4, 8, [](int, int y, int) {
    return y == 0 ? BlockKind::solid : BlockKind::air;
  });
  VoxelQuery voxels(world, MovementProfile::flyer());

  for (const BadBudget& bad : bad_budgets()) {
    SCOPED_TRACE(bad.what);
    const std::string expected = *budget_problem(bad.budget);
    const auto expect_refused = [&](const PathResult& result, std::string_view search) {
      EXPECT_EQ(result.status, SearchStatus::invalid_input) << search;
      EXPECT_EQ(result.reason, StopReason::invalid_input) << search;
      EXPECT_EQ(result.message, expected) << search;
    };
    for (const GridAlgorithm algorithm :
         {GridAlgorithm::breadth_first, GridAlgorithm::dijkstra, GridAlgorithm::astar,
          GridAlgorithm::bidirectional_astar, GridAlgorithm::ida_star, GridAlgorithm::jump_point,
          GridAlgorithm::crash_right, GridAlgorithm::crash_four_way, GridAlgorithm::divide}) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      options.budget = bad.budget;
      expect_refused(grid.find_path({0, 0}, {7, 7}, options), to_string(algorithm));
    }
    for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::optimal}) {
      NavMeshSearchOptions options;
      options.nodes = nodes;
      options.budget = bad.budget;
      expect_refused(mesh_query.find_path({1, 0, 1}, {7, 0, 7}, options), "mesh");
    }
    for (const VoxelAlgorithm algorithm : {VoxelAlgorithm::astar, VoxelAlgorithm::jump_point}) {
      VoxelSearchOptions options;
      options.algorithm = algorithm;
      options.budget = bad.budget;
      expect_refused(voxels.find_path({0, 1, 0}, {7, 2, 7}, options), "voxel");
    }
  }

  // The same searches with the limits that mean "no limit" find their paths.
  GridSearchOptions grid_options;
  EXPECT_EQ(grid.find_path({0, 0}, {7, 7}, grid_options).status, SearchStatus::found);
  EXPECT_EQ(mesh_query.find_path({1, 0, 1}, {7, 0, 7}).status, SearchStatus::found);
  EXPECT_EQ(voxels.find_path({0, 1, 0}, {7, 2, 7}).status, SearchStatus::found);
}

}  // namespace
}  // namespace wayfinder
