// Crowds on grids: agents cross a doorway both ways and all arrive, never stand in a blocked
// cell, never overlap beyond 1 % of a radius, and take the same positions on 1, 2 and 4 threads;
// paths from JPS as from A*; a wall built across the way is walked round; bad options refused.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

using namespace wayfinder;

namespace {

/// A 24 x 12 room split by a wall at column 12 with a door two cells wide (rows 5 and 6).
GridMap doorway_map() {
  GridMap map(24, 12);
  for (int y = 0; y < 12; ++y)
    if (y != 5 && y != 6) map.set_passable(12, y, false);
  map.forget_changes();
  return map;
}

/// How far a disc at `p` reaches into the blocked cells (and the outside) around it.
double wall_penetration(const GridMap& map, const Point& p, double radius) {
  double worst = 0.0;
  const int cx = static_cast<int>(std::floor(p.x)), cz = static_cast<int>(std::floor(p.z));
  for (int y = cz - 1; y <= cz + 1; ++y)
    for (int x = cx - 1; x <= cx + 1; ++x) {
      if (map.passable(x, y)) continue;
      const double dx = std::max({x - p.x, 0.0, p.x - (x + 1)}), dz = std::max({y - p.z, 0.0, p.z - (y + 1)});
      worst = std::max(worst, radius - std::hypot(dx, dz));
    }
  return worst;
}

struct GridRun {
  std::size_t arrived = 0;
  std::size_t in_blocked_cell = 0;   ///< agent-ticks whose centre lay in a blocked cell
  double worst_penetration = 0.0;    ///< of a radius
  double worst_wall_penetration = 0.0;  ///< how far a disc reached into a blocked cell, of a radius
  std::vector<Point> final_positions;
};

/// `per_side` agents on each side of the door, each walking to the mirror place on the other side.
GridRun run_doorway(std::size_t per_side, std::size_t threads, GridAlgorithm algorithm = GridAlgorithm::astar,
                    int steps = 1500) {
  const GridMap map = doorway_map();
  CrowdSettings settings;
  settings.threads = threads;
  settings.min_agents_per_thread = 1;  // small crowds split too
  GridCrowdOptions options;
  options.algorithm = algorithm;
  Crowd crowd(map, settings, options);
  CrowdAgentSettings body;
  body.radius = 0.4;
  body.max_speed = 1.5;
  for (std::size_t k = 0; k < per_side; ++k) {
    const double row = 1.5 + static_cast<double>(k % 5) * 2.0, column = 2.5 + static_cast<double>(k / 5) * 2.0;
    const CrowdAgentId left = crowd.add_agent({column, 0.0, row}, body);
    const CrowdAgentId right = crowd.add_agent({23.0 - column, 0.0, row}, body);
    EXPECT_TRUE(crowd.set_target(left, {23.0 - column, 0.0, row}));
    EXPECT_TRUE(crowd.set_target(right, {column, 0.0, row}));
  }
  GridRun run;
  for (int step = 0; step < steps; ++step) {
    crowd.update(0.1);
    const auto agents = crowd.agents();
    for (std::size_t i = 0; i < agents.size(); ++i) {
      const Point& p = agents[i].position;
      if (!map.passable(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.z)))) ++run.in_blocked_cell;
      run.worst_wall_penetration =
          std::max(run.worst_wall_penetration, wall_penetration(map, p, agents[i].settings.radius) / agents[i].settings.radius);
      for (std::size_t j = i + 1; j < agents.size(); ++j) {
        const double gap = std::hypot(p.x - agents[j].position.x, p.z - agents[j].position.z);
        const double reach = agents[i].settings.radius + agents[j].settings.radius;
        run.worst_penetration = std::max(run.worst_penetration, (reach - gap) / agents[i].settings.radius);
      }
    }
    if (std::all_of(agents.begin(), agents.end(),
                    [](const CrowdAgent& agent) { return agent.status == CrowdAgentStatus::arrived; }))
      break;
  }
  for (const CrowdAgent& agent : crowd.agents()) {
    run.arrived += agent.status == CrowdAgentStatus::arrived ? 1 : 0;
    run.final_positions.push_back(agent.position);
  }
  return run;
}

}  // namespace

TEST(GridCrowd, DoorwayCrossedBothWaysAllArriveNeverInAWallNoOverlap) {
  const GridRun run = run_doorway(8, 1);
  EXPECT_EQ(run.arrived, 16u);
  EXPECT_EQ(run.in_blocked_cell, 0u);
  EXPECT_LE(run.worst_penetration, 0.01);
  // The walls keep the disc off blocked cells as ORCA keeps agents apart: the collision pass and
  // corners can press a disc a little into one (measured: 4.3 % of a radius), never its centre.
  EXPECT_LE(run.worst_wall_penetration, 0.1);
}

TEST(GridCrowd, JumpPointSearchPathsToo) {
  const GridRun run = run_doorway(4, 1, GridAlgorithm::jump_point);
  EXPECT_EQ(run.arrived, 8u);
  EXPECT_EQ(run.in_blocked_cell, 0u);
  EXPECT_LE(run.worst_penetration, 0.01);
}

TEST(GridCrowd, SameResultOnOneTwoAndFourThreads) {
  std::vector<std::vector<Point>> finals;
  for (std::size_t threads : {1u, 2u, 4u}) finals.push_back(run_doorway(8, threads, GridAlgorithm::astar, 150).final_positions);
  for (std::size_t k = 1; k < finals.size(); ++k) {
    ASSERT_EQ(finals[k].size(), finals[0].size());
    for (std::size_t i = 0; i < finals[0].size(); ++i) EXPECT_EQ(finals[k][i], finals[0][i]) << "agent " << i;
  }
}

TEST(GridCrowd, PositionsAreColumnZeroRowAndSnapToFreeCells) {
  const GridMap map = doorway_map();
  Crowd crowd(map);
  EXPECT_EQ(crowd.grid(), &map);
  EXPECT_THROW((void)crowd.mesh(), std::logic_error);
  // In the wall: moved to the nearest free cell's edge.
  const CrowdAgentId id = crowd.add_agent({12.5, 0.0, 2.5});
  const Point p = crowd.agent(id)->position;
  EXPECT_TRUE(map.passable(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.z))));
  EXPECT_NEAR(std::abs(p.x - 12.5), 0.5, 1e-5);
  EXPECT_EQ(crowd.agent(id)->polygon, map.id_of(static_cast<int>(std::floor(p.x)), 2));
  EXPECT_THROW(crowd.add_agent({-50.0, 0.0, 3.0}), std::invalid_argument);
  EXPECT_FALSE(crowd.set_target(id, {100.0, 0.0, 100.0}));
}

TEST(GridCrowd, AWallBuiltAcrossThePathIsWalkedRound) {
  GridMap map(16, 9);
  Crowd crowd(map);
  CrowdAgentSettings body;
  body.radius = 0.4;
  body.max_speed = 1.5;
  const CrowdAgentId id = crowd.add_agent({1.5, 0.0, 4.5}, body);
  ASSERT_TRUE(crowd.set_target(id, {14.5, 0.0, 4.5}));
  for (int step = 0; step < 10; ++step) crowd.update(0.1);
  map.block_rect({8, 1, 1, 8});  // a wall from row 1 down, open at row 0 only
  for (int step = 0; step < 600 && crowd.agent(id)->status != CrowdAgentStatus::arrived; ++step) {
    crowd.update(0.1);
    const Point& p = crowd.agent(id)->position;
    ASSERT_TRUE(map.passable(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.z))));
  }
  EXPECT_EQ(crowd.agent(id)->status, CrowdAgentStatus::arrived);
  EXPECT_GE(crowd.agent(id)->path_requests, 2u);
}

TEST(GridCrowd, BadOptionsAreRefused) {
  const GridMap map(4, 4);
  GridCrowdOptions options;
  options.algorithm = GridAlgorithm::dijkstra;
  EXPECT_THROW(Crowd(map, {}, options), std::invalid_argument);
  options.algorithm = GridAlgorithm::jump_point;
  options.diagonal = DiagonalMode::always;
  EXPECT_THROW(Crowd(map, {}, options), std::invalid_argument);
}

TEST(GridCrowd, OneSharedFlowFieldTakesManyAgentsThroughTheDoor) {
  const GridMap map = doorway_map();
  std::vector<Cell> goals;
  for (int y = 0; y < 12; ++y)
    for (int x = 20; x < 23; ++x) goals.push_back({x, y});
  const auto field = std::make_shared<const GridFlowField>(map, goals);
  ASSERT_TRUE(field->built());
  Crowd crowd(map);
  CrowdAgentSettings body;
  body.radius = 0.4;
  body.max_speed = 1.5;
  for (int k = 0; k < 10; ++k) {
    const CrowdAgentId id = crowd.add_agent({2.5 + (k / 5) * 2.0, 0.0, 1.5 + (k % 5) * 2.0}, body);
    ASSERT_TRUE(crowd.set_target_flow(id, field));
    EXPECT_EQ(crowd.agent(id)->target_kind, CrowdTargetKind::flow);
  }
  EXPECT_EQ(field.use_count(), 11);  // one field for all
  double worst = 0.0;
  bool all_arrived = false;
  for (int step = 0; step < 1500 && !all_arrived; ++step) {
    crowd.update(0.1);
    const auto agents = crowd.agents();
    for (std::size_t i = 0; i < agents.size(); ++i) {
      const Point& p = agents[i].position;
      ASSERT_TRUE(map.passable(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.z))));
      for (std::size_t j = i + 1; j < agents.size(); ++j)
        worst = std::max(worst, (0.8 - std::hypot(p.x - agents[j].position.x, p.z - agents[j].position.z)) / 0.4);
    }
    all_arrived = std::all_of(agents.begin(), agents.end(),
                              [](const CrowdAgent& agent) { return agent.status == CrowdAgentStatus::arrived; });
  }
  EXPECT_TRUE(all_arrived);
  EXPECT_LE(worst, 0.01);
  for (const CrowdAgent& agent : crowd.agents()) EXPECT_GE(agent.position.x, 20.0);
  // Cleared targets let the field go.
  for (const CrowdAgent& agent : crowd.agents()) crowd.clear_target(agent.id);
  EXPECT_EQ(field.use_count(), 1);
}

TEST(GridCrowd, FlowTargetsAreRefusedWhereTheyCannotServe) {
  GridMap map = doorway_map();
  map.block_rect({0, 0, 2, 1});
  map.block_rect({0, 2, 2, 1});
  map.block_rect({2, 1, 1, 1});  // cell (1, 1) shut in on three sides, (0, 1) on the edge
  const auto field = std::make_shared<const GridFlowField>(map, Cell{22, 6});
  Crowd crowd(map);
  const CrowdAgentId shut_in = crowd.add_agent({1.5, 0.0, 1.5});
  EXPECT_FALSE(crowd.set_target_flow(shut_in, field));  // no goal from its cell
  const CrowdAgentId free = crowd.add_agent({5.5, 0.0, 5.5});
  EXPECT_FALSE(crowd.set_target_flow(free, nullptr));
  EXPECT_FALSE(crowd.set_target_flow(free, std::make_shared<const GridFlowField>()));  // not built
  EXPECT_FALSE(crowd.set_target_flow(free, std::make_shared<const GridFlowField>(GridMap(5, 5), Cell{1, 1})));
  EXPECT_FALSE(crowd.set_target_flow(999, field));
  EXPECT_TRUE(crowd.set_target_flow(free, field));
  EXPECT_EQ(crowd.agent(free)->target, (Point{22.5, 0.0, 6.5}));
}
