// Crowds on navigation meshes: every metric of the standard scenarios as an assertion (arrivals,
// overlaps, agents off the mesh, settled speed), floors that ignore each other, a door that
// closes under an agent's path, a crowd on a real level, and ORCA's pieces on their own.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "crowd_test_support.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/crowd/orca.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

using namespace wayfinder;
using tools::CrowdScenarioKind;

namespace {

void expect_clean_arrival(const tools::CrowdMetrics& m) {
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  EXPECT_LE(m.worst_penetration, 0.01);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.settled, m.agents);
  EXPECT_LT(m.settled_speed_fraction_max, 0.01);
}

}  // namespace

TEST(Orca, HeadOnAgentsEachTakeHalfAndPassOnOppositeSides) {
  const OrcaDisc a{{0.0, 0.0}, {1.0, 0.0}, 0.5};
  const OrcaDisc b{{4.0, 0.0}, {-1.0, 0.0}, 0.5};
  const OrcaLine line_a = orca_agent_line(a, b, 5.0, 0.1, 0.5);
  const OrcaLine line_b = orca_agent_line(b, a, 5.0, 0.1, 0.5);
  EXPECT_FALSE(line_a.permits(a.velocity)) << "on a collision course the current velocity is not permitted";
  std::vector<OrcaLine> scratch;
  const PlanarVector va = solve_orca(std::span(&line_a, 1), 0, 1.0, a.velocity, scratch);
  const PlanarVector vb = solve_orca(std::span(&line_b, 1), 0, 1.0, b.velocity, scratch);
  EXPECT_TRUE(line_a.permits(va, 1e-12));
  // Symmetric: the two new velocities mirror each other.
  EXPECT_NEAR(va.x, -vb.x, 1e-12);
  EXPECT_NEAR(va.z, -vb.z, 1e-12);
  // Moving at these velocities, they do not touch within the horizon.
  for (double t = 0.0; t <= 5.0; t += 0.01) {
    const PlanarVector apart = (b.position + t * vb) - (a.position + t * va);
    EXPECT_GE(apart.length(), 1.0 - 1e-9) << "at t = " << t;
  }
}

TEST(Orca, WallLineStopsTheDiscAtTheWall) {
  // A wall along z = 1 (walkable side below: a -> b runs in -x so the left is -z).
  const OrcaLine line = orca_wall_line({0.0, 0.0}, 0.5, {5.0, 1.0}, {-5.0, 1.0}, 1.0, 0.1);
  std::vector<OrcaLine> scratch;
  const PlanarVector v = solve_orca(std::span(&line, 1), 1, 2.0, {0.0, 2.0}, scratch);
  EXPECT_NEAR(v.z, 0.5, 1e-12) << "towards the wall at most (distance - radius) / horizon";
  const PlanarVector along = solve_orca(std::span(&line, 1), 1, 2.0, {2.0, 0.0}, scratch);
  EXPECT_EQ(along, (PlanarVector{2.0, 0.0})) << "along the wall nothing changes";
}

TEST(Orca, InfeasibleLinesFallBackToTheLeastViolation) {
  // Two agent lines that permit nothing in common: x >= 1 and x <= -1.
  const std::vector<OrcaLine> lines = {{{1.0, 0.0}, {0.0, -1.0}}, {{-1.0, 0.0}, {0.0, 1.0}}};
  ASSERT_TRUE(lines[0].permits({2.0, 0.0}));
  ASSERT_TRUE(lines[1].permits({-2.0, 0.0}));
  std::vector<OrcaLine> scratch;
  const PlanarVector v = solve_orca(lines, 0, 3.0, {0.5, 0.0}, scratch);
  EXPECT_NEAR(v.x, 0.0, 1e-9) << "halfway violates both by the same least amount";
}

TEST(Crowd, SettingsAreCheckedByName) {
  CrowdAgentSettings body;
  body.radius = -1.0;
  ASSERT_TRUE(body.problem().has_value());
  EXPECT_EQ(body.problem()->rfind("radius", 0), 0u);
  CrowdSettings settings;
  settings.threads = 0;
  EXPECT_EQ(settings.problem()->rfind("threads", 0), 0u);
  const tools::CrowdScenario scenario = wayfinder::testing::generated(CrowdScenarioKind::circle, 2);
  const NavMesh mesh = NavMesh::build(scenario.geometry);
  EXPECT_THROW(Crowd(mesh, settings), std::invalid_argument);
  Crowd crowd(mesh);
  EXPECT_THROW(crowd.add_agent({0.0, 0.0, 0.0}, body), std::invalid_argument);
  EXPECT_THROW(crowd.add_agent({1000.0, 0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(crowd.update(0.0), std::invalid_argument);
  EXPECT_THROW(crowd.update(std::nan("")), std::invalid_argument);
}

TEST(Crowd, AddRemoveTeleportAndTargets) {
  const tools::CrowdScenario scenario = wayfinder::testing::generated(CrowdScenarioKind::circle, 2);
  const NavMesh mesh = NavMesh::build(scenario.geometry);
  Crowd crowd(mesh);
  const CrowdAgentId a = crowd.add_agent({0.0, 0.0, 0.0});
  const CrowdAgentId b = crowd.add_agent({3.0, 0.0, 0.0});
  EXPECT_LT(a, b);
  EXPECT_TRUE(crowd.set_target(a, {4.0, 0.0, 4.0}));
  EXPECT_TRUE(crowd.set_target_velocity(b, {0.0, 1.0}));
  crowd.update(0.1);
  EXPECT_EQ(crowd.agent(a)->status, CrowdAgentStatus::moving);
  EXPECT_FALSE(crowd.agent(a)->corridor.empty());
  EXPECT_GT(crowd.agent(b)->velocity.z, 0.0);
  EXPECT_TRUE(crowd.teleport(b, {-3.0, 0.0, -3.0}));
  EXPECT_EQ(crowd.agent(b)->position.x, -3.0);
  EXPECT_TRUE(crowd.clear_target(b));
  EXPECT_TRUE(crowd.remove_agent(a));
  EXPECT_FALSE(crowd.remove_agent(a));
  EXPECT_EQ(crowd.agent(a), nullptr);
  EXPECT_EQ(crowd.agent_count(), 1u);
  for (int k = 0; k < 30; ++k) crowd.update(0.1);
  EXPECT_EQ(crowd.agent(b)->velocity, (PlanarVector{})) << "without a target it comes to rest at exactly zero";
}

TEST(Crowd, CircleSwapOf8) {
  expect_clean_arrival(wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::circle, 8)).metrics);
}

TEST(Crowd, CircleSwapOf40) {
  expect_clean_arrival(wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::circle, 40)).metrics);
}

// Two groups of eight meeting head on in a door two agents wide.
TEST(Crowd, CircleSwapOf200) {
  expect_clean_arrival(wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::circle, 200)).metrics);
}

TEST(Crowd, DoorwayCrossedBothWays) {
  const tools::CrowdMetrics m = wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::doorway, 16)).metrics;
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  EXPECT_EQ(m.stuck, 0u);
}

TEST(Crowd, HallwayBothWays) {
  const tools::CrowdMetrics m = wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::hallway, 16)).metrics;
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
}

TEST(Crowd, BottleneckEvacuation) {
  const tools::CrowdMetrics m = wayfinder::testing::run_generated(wayfinder::testing::generated(CrowdScenarioKind::bottleneck, 16)).metrics;
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
}

// Four groups cross a square from its four sides, two pairs head on and the pairs at right angles.
TEST(Crowd, FourWayCrossing) {
  const tools::CrowdScenario scenario = wayfinder::testing::generated(CrowdScenarioKind::crossing, 16);
  ASSERT_EQ(scenario.agents.size(), 16u);
  const tools::CrowdMetrics m = wayfinder::testing::run_generated(scenario).metrics;
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  EXPECT_EQ(m.stuck, 0u);
}

// Fast agents start behind slow ones in a corridor, walking the same way: they pass them all and
// every one of them arrives before the first slow agent does.
TEST(Crowd, FastAgentsOvertakeSlowOnes) {
  const tools::CrowdScenario scenario = wayfinder::testing::generated(CrowdScenarioKind::overtaking, 8);
  const tools::CrowdRun run = wayfinder::testing::run_generated(scenario);
  const tools::CrowdMetrics& m = run.metrics;
  EXPECT_EQ(m.arrived, m.agents);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  const double fast_speed = 1.5;
  double last_fast = 0.0, first_slow = 1e300;
  std::size_t fast = 0, slow = 0;
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const tools::CrowdScenarioAgent& agent = scenario.agents[i];
    ASSERT_GE(run.arrival_times[i], 0.0) << "agent " << i;
    if (agent.settings.max_speed == fast_speed) {
      ++fast;
      last_fast = std::max(last_fast, run.arrival_times[i]);
    } else {
      ++slow;
      EXPECT_EQ(agent.settings.max_speed, tools::overtaking_slow_speed_fraction * fast_speed);
      first_slow = std::min(first_slow, run.arrival_times[i]);
    }
    // Every fast agent starts behind every slow one.
    for (const tools::CrowdScenarioAgent& other : scenario.agents) {
      if (agent.settings.max_speed == fast_speed && other.settings.max_speed < fast_speed) {
        EXPECT_LT(agent.start.x, other.start.x);
      }
    }
  }
  EXPECT_EQ(fast, 4u);
  EXPECT_EQ(slow, 4u);
  EXPECT_LT(last_fast, first_slow);
}

// Floors: the hallway's two groups, one on each of two floors over the same ground, head on in
// the same lines. Across floors nobody steps aside; the same agents on one floor (the hallway)
// must.
TEST(Crowd, AgentsHeadOnOnTwoFloorsWalkStraightThrough) {
  const tools::CrowdScenario floors = wayfinder::testing::generated(CrowdScenarioKind::floors, 8);
  const tools::CrowdScenario hallway = wayfinder::testing::generated(CrowdScenarioKind::hallway, 8);
  ASSERT_EQ(floors.agents.size(), hallway.agents.size());
  std::size_t upper = 0;
  for (std::size_t i = 0; i < floors.agents.size(); ++i) {
    const Point& a = floors.agents[i].start;
    const Point& b = hallway.agents[i].start;
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.z, b.z) << "the same plan view";
    upper += a.y == tools::floors_spacing ? 1 : 0;
  }
  EXPECT_EQ(upper, 4u);

  // How far each agent strays from its line (the z it started at), at most.
  const auto strays = [](const tools::CrowdScenario& scenario, const tools::CrowdRun& run) {
    std::vector<double> most(scenario.agents.size(), 0.0);
    for (std::size_t i = 0; i < scenario.agents.size(); ++i)
      for (const Point& p : run.trails[i]) most[i] = std::max(most[i], std::abs(p.z - scenario.agents[i].start.z));
    return most;
  };
  tools::CrowdRunOptions options;
  options.trail_interval = 1;
  const tools::CrowdRun run = wayfinder::testing::run_generated(floors, options);
  EXPECT_EQ(run.metrics.arrived, run.metrics.agents);
  EXPECT_EQ(run.metrics.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(run.metrics.overlap_pair_ticks, 0u);
  EXPECT_LT(run.metrics.path_ratio_max, 1.01) << "nobody goes round anybody";
  const std::vector<double> apart = strays(floors, run);
  for (std::size_t i = 0; i < floors.agents.size(); ++i) {
    EXPECT_LT(apart[i], floors.agents[i].settings.radius) << "agent " << i << " keeps to its line";
    for (const Point& p : run.trails[i]) EXPECT_EQ(p.y, floors.agents[i].start.y) << "agent " << i << " stays on its floor";
  }

  const tools::CrowdRun one_floor = wayfinder::testing::run_generated(hallway, options);
  EXPECT_EQ(one_floor.metrics.arrived, one_floor.metrics.agents);
  EXPECT_GT(one_floor.metrics.path_ratio_max, 1.02) << "on one floor the same agents go round each other";
  const std::vector<double> aside = strays(hallway, one_floor);
  const auto stepped_aside = static_cast<std::size_t>(
      std::count_if(aside.begin(), aside.end(), [&](double most) { return most > hallway.agents[0].settings.radius; }));
  EXPECT_GE(stepped_aside, hallway.agents.size() / 2) << "on one floor at least half step aside by more than a radius";
}

TEST(Crowd, NewScenarioKindsNeedEnoughAgents) {
  for (const auto& [kind, fewest] : {std::pair{CrowdScenarioKind::crossing, 4u}, std::pair{CrowdScenarioKind::overtaking, 2u},
                                     std::pair{CrowdScenarioKind::floors, 2u}}) {
    EXPECT_EQ(tools::minimum_crowd_scenario_agents(kind), fewest);
    EXPECT_THROW((void)wayfinder::testing::generated(kind, fewest - 1), std::invalid_argument);
    EXPECT_EQ(wayfinder::testing::generated(kind, fewest).agents.size(), fewest);
  }
}

TEST(Crowd, SameResultOnOneTwoAndFourThreads) {
  tools::CrowdScenario scenario = wayfinder::testing::generated(CrowdScenarioKind::random, 40, 7);
  scenario.settings.min_agents_per_thread = 1;  // small crowds split too
  tools::CrowdRunOptions options;
  options.steps = 200;
  std::vector<std::vector<Point>> finals;
  for (std::size_t threads : {1u, 2u, 4u}) {
    options.threads = threads;
    finals.push_back(wayfinder::testing::run_generated(scenario, options).final_positions);
  }
  for (std::size_t k = 1; k < finals.size(); ++k) {
    ASSERT_EQ(finals[k].size(), finals[0].size());
    for (std::size_t i = 0; i < finals[0].size(); ++i) EXPECT_EQ(finals[k][i], finals[0][i]) << "agent " << i;
  }
}

TEST(Crowd, AGoalSomeoneStandsOnIsReachedAsCloseAsTheCrowdAllowsAndBothStayAtRest) {
  // A dead end one agent wide: an idle agent stands at its end, on the other's target.
  const MeshGeometry geometry = tools::cell_floor(8, 1, 1.0, 0.0, 0.0, 0.0, [](std::size_t, std::size_t) { return true; });
  const NavMesh mesh = NavMesh::build(geometry);
  Crowd crowd(mesh);
  CrowdAgentSettings body;
  body.radius = 0.4;
  body.max_speed = 1.5;
  const CrowdAgentId standing = crowd.add_agent({7.5, 0.0, 0.5}, body);
  const CrowdAgentId walker = crowd.add_agent({0.5, 0.0, 0.5}, body);
  ASSERT_TRUE(crowd.set_target(walker, {7.5, 0.0, 0.5}));
  for (int k = 0; k < 200; ++k) crowd.update(0.1);
  const CrowdAgent& arrived = *crowd.agent(walker);
  EXPECT_EQ(arrived.status, CrowdAgentStatus::arrived);
  EXPECT_LE(std::abs(arrived.position.x - 7.5), body.arrival_radius + 2.0 * body.radius + 1e-9);
  const Point& other = crowd.agent(standing)->position;
  EXPECT_GE(std::hypot(other.x - arrived.position.x, other.z - arrived.position.z), 2.0 * body.radius * 0.99);
  const Point walker_at = arrived.position, standing_at = crowd.agent(standing)->position;
  for (int k = 0; k < 100; ++k) {
    crowd.update(0.1);
    EXPECT_EQ(crowd.agent(walker)->velocity, (PlanarVector{}));
    EXPECT_EQ(crowd.agent(standing)->velocity, (PlanarVector{}));
  }
  EXPECT_EQ(crowd.agent(walker)->position, walker_at) << "settled: it does not drift";
  EXPECT_EQ(crowd.agent(standing)->position, standing_at);
  EXPECT_EQ(crowd.agent(walker)->status, CrowdAgentStatus::arrived);
}

TEST(Crowd, AgentsOnTwoFloorsIgnoreEachOther) {
  // Two floors, 4 apart, over the same ground; not joined.
  MeshGeometry geometry = tools::cell_floor(10, 2, 1.0, -5.0, -1.0, 0.0, [](std::size_t, std::size_t) { return true; });
  tools::append_geometry(geometry, tools::cell_floor(10, 2, 1.0, -5.0, -1.0, 4.0, [](std::size_t, std::size_t) { return true; }));
  const NavMesh mesh = NavMesh::build(geometry);
  Crowd crowd(mesh);
  const CrowdAgentId below = crowd.add_agent({-4.0, 0.0, 0.0});
  const CrowdAgentId above = crowd.add_agent({4.0, 4.0, 0.0});
  ASSERT_TRUE(crowd.set_target(below, {4.0, 0.0, 0.0}));
  ASSERT_TRUE(crowd.set_target(above, {-4.0, 4.0, 0.0}));
  for (int k = 0; k < 100; ++k) {
    crowd.update(0.1);
    // Head-on on one line: on one floor they would step aside; here they walk straight through.
    EXPECT_EQ(crowd.agent(below)->position.z, 0.0);
    EXPECT_EQ(crowd.agent(above)->position.z, 0.0);
    EXPECT_EQ(crowd.agent(below)->position.y, 0.0);
    EXPECT_EQ(crowd.agent(above)->position.y, 4.0);
  }
  EXPECT_EQ(crowd.agent(below)->status, CrowdAgentStatus::arrived);
  EXPECT_EQ(crowd.agent(above)->status, CrowdAgentStatus::arrived);
}

TEST(Crowd, DoorClosingAheadMakesTheAgentGoRound) {
  // A room 12 x 9 split by a wall at row 4 with two doors: a near one (column 2) and a far one
  // (column 10). Flag 1 means "closed door".
  const std::size_t wall_row = 4;
  MeshGeometry geometry = tools::cell_floor(12, 9, 1.0, 0.0, 0.0, 0.0, [&](std::size_t c, std::size_t r) {
    return r != wall_row || c == 2 || c == 10;
  });
  NavMesh mesh = NavMesh::build(geometry);
  const PolygonId near_door = mesh.locate({2.5, 0.0, 4.5}).polygon;
  ASSERT_NE(near_door, invalid_polygon);
  CrowdAgentSettings body;
  body.filter = AreaFilter{}.exclude(1);
  Crowd crowd(mesh);
  const CrowdAgentId agent = crowd.add_agent({2.5, 0.0, 1.0}, body);
  ASSERT_TRUE(crowd.set_target(agent, {2.5, 0.0, 8.0}));
  crowd.update(0.1);
  const std::vector<PolygonId>& planned = crowd.agent(agent)->corridor;
  ASSERT_NE(std::find(planned.begin(), planned.end(), near_door), planned.end()) << "first through the near door";
  mesh.set_flags(near_door, 1);  // the door closes before the agent gets there
  bool entered_closed_door = false;
  for (int k = 0; k < 400 && crowd.agent(agent)->status != CrowdAgentStatus::arrived; ++k) {
    crowd.update(0.1);
    const std::vector<PolygonId>& corridor = crowd.agent(agent)->corridor;
    EXPECT_EQ(std::find(corridor.begin(), corridor.end(), near_door), corridor.end());
    entered_closed_door = entered_closed_door || crowd.agent(agent)->polygon == near_door;
  }
  EXPECT_EQ(crowd.agent(agent)->status, CrowdAgentStatus::arrived);
  EXPECT_FALSE(entered_closed_door);
  EXPECT_EQ(crowd.agent(agent)->path_requests, 2u) << "one replan, after the edit";
}

namespace {

/// Two floors that do not touch: a ground floor 4 x 2 at y = 0 and an upper floor 4 x 2 at
/// y = 3, 2 further along x, joined only by a two-way off-mesh link (a ladder).
MeshGeometry two_floors_joined_by_a_link() {
  MeshGeometry geometry = tools::cell_floor(4, 2, 1.0, 0.0, 0.0, 0.0, [](std::size_t, std::size_t) { return true; });
  const MeshGeometry upper = tools::cell_floor(4, 2, 1.0, 6.0, 0.0, 3.0, [](std::size_t, std::size_t) { return true; });
  const std::uint32_t offset = static_cast<std::uint32_t>(geometry.vertices.size());
  geometry.vertices.insert(geometry.vertices.end(), upper.vertices.begin(), upper.vertices.end());
  for (std::vector<std::uint32_t> polygon : upper.polygons) {
    for (std::uint32_t& index : polygon) index += offset;
    geometry.polygons.push_back(polygon);
  }
  OffMeshLink link;
  link.start = {3.8, 0.0, 1.0};
  link.end = {6.2, 3.0, 1.0};
  link.radius = 0.5;
  geometry.off_mesh_links.push_back(link);
  return geometry;
}

}  // namespace

TEST(Crowd, AgentsCrossAnOffMeshLinkBetweenFloorsAsATimedMoveAndArrive) {
  const NavMesh mesh = NavMesh::build(two_floors_joined_by_a_link());
  ASSERT_EQ(mesh.off_mesh_link_count(), 1u);
  Crowd crowd(mesh);
  CrowdAgentSettings body;
  body.radius = 0.3;
  body.max_speed = 1.5;
  // One climbs up, one climbs down, a third follows the first.
  const CrowdAgentId up = crowd.add_agent({0.5, 0.0, 1.0}, body);
  const CrowdAgentId down = crowd.add_agent({9.5, 3.0, 1.0}, body);
  const CrowdAgentId follower = crowd.add_agent({0.5, 0.0, 0.4}, body);
  ASSERT_TRUE(crowd.set_target(up, {9.5, 3.0, 1.0}));
  ASSERT_TRUE(crowd.set_target(down, {0.5, 0.0, 1.5}));
  ASSERT_TRUE(crowd.set_target(follower, {8.5, 3.0, 0.5}));
  const double dt = 0.1;
  struct Seen {
    int started = 0, finished = 0;
    double last_progress = -1.0;
    double duration = 0.0;
    int ticks_on_link = 0;
  };
  std::map<CrowdAgentId, Seen> seen;
  for (int k = 0; k < 300; ++k) {
    crowd.update(dt);
    for (const CrowdAgent& agent : crowd.agents()) {
      Seen& s = seen[agent.id];
      if (agent.link_event == CrowdLinkEvent::started) {
        ++s.started;
        ASSERT_TRUE(agent.link.has_value());
        EXPECT_EQ(agent.link->progress(), 0.0);
        EXPECT_EQ(agent.link->link, 0u);
        EXPECT_EQ(agent.link->reverse, agent.id == down);
        // The documented rule: straight to the far end at the agent's max speed.
        const Point& a = agent.link->start;
        const Point& b = agent.link->end;
        const double length = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y) + (b.z - a.z) * (b.z - a.z));
        EXPECT_NEAR(agent.link->duration, length / body.max_speed, 1e-12);
        s.duration = agent.link->duration;
        s.last_progress = 0.0;
      }
      if (agent.link) {
        EXPECT_EQ(agent.status, CrowdAgentStatus::on_link);
        EXPECT_GE(agent.link->progress(), s.last_progress) << "progress only grows";
        s.last_progress = agent.link->progress();
        ++s.ticks_on_link;
      }
      if (agent.link_event == CrowdLinkEvent::finished) {
        ++s.finished;
        EXPECT_FALSE(agent.link.has_value());
        EXPECT_NE(agent.status, CrowdAgentStatus::on_link);
        EXPECT_EQ(agent.polygon, mesh.locate(agent.position).polygon) << "landed on the far floor";
      }
    }
  }
  for (const CrowdAgentId id : {up, down, follower}) {
    const CrowdAgent& agent = *crowd.agent(id);
    EXPECT_EQ(agent.status, CrowdAgentStatus::arrived) << "agent " << id;
    EXPECT_EQ(seen[id].started, 1) << "agent " << id;
    EXPECT_EQ(seen[id].finished, 1) << "agent " << id;
    // Started and finished on separate ticks, the crossing lasting its duration (to a tick).
    EXPECT_NEAR(seen[id].ticks_on_link * dt, seen[id].duration + dt, dt + 1e-9) << "agent " << id;
    EXPECT_EQ(agent.path_requests, 1u) << "the link is walked, not planned around";
  }
  EXPECT_NEAR(crowd.agent(up)->position.y, 3.0, 1e-9);
  EXPECT_NEAR(crowd.agent(down)->position.y, 0.0, 1e-9);
  EXPECT_NEAR(crowd.agent(follower)->position.y, 3.0, 1e-9);
}

TEST(Crowd, AnAgentCrossingALinkIsNotPushedAndOthersKeepClearOfIt) {
  // A crowd standing around the link's far end: the agent crossing lands among them without
  // being pushed on the way, and the collision pass moves the others, not the lander.
  const NavMesh mesh = NavMesh::build(two_floors_joined_by_a_link());
  Crowd crowd(mesh);
  CrowdAgentSettings body;
  body.radius = 0.3;
  body.max_speed = 1.5;
  const CrowdAgentId climber = crowd.add_agent({3.0, 0.0, 1.0}, body);
  const CrowdAgentId standing = crowd.add_agent({6.3, 3.0, 1.0}, body);
  ASSERT_TRUE(crowd.set_target(climber, {9.5, 3.0, 1.0}));
  bool crossed = false;
  for (int k = 0; k < 200; ++k) {
    crowd.update(0.1);
    const CrowdAgent& agent = *crowd.agent(climber);
    if (agent.link && agent.link_event != CrowdLinkEvent::started) {
      crossed = true;
      // On the straight line of the crossing at its progress, whatever stands near.
      const double t = agent.link->progress();
      EXPECT_NEAR(agent.position.x, agent.link->start.x + t * (agent.link->end.x - agent.link->start.x), 1e-9);
      EXPECT_NEAR(agent.position.y, agent.link->start.y + t * (agent.link->end.y - agent.link->start.y), 1e-9);
    }
    if (agent.link_event == CrowdLinkEvent::finished) {
      const Point& other = crowd.agent(standing)->position;
      EXPECT_GE(std::hypot(other.x - agent.position.x, other.z - agent.position.z), 2.0 * body.radius * 0.99)
          << "the one standing there made room";
    }
  }
  EXPECT_TRUE(crossed);
  EXPECT_EQ(crowd.agent(climber)->status, CrowdAgentStatus::arrived);
}

namespace {

/// The generator's random scenario on the dungeon mesh read from `file`: seed 3, as the
/// benchmarks' runs (docs/benchmarks.md, crowds).
tools::CrowdScenario random_dungeon_scenario(const MeshGeometry& geometry, const std::filesystem::path& file,
                                             std::size_t agents) {
  tools::CrowdScenarioRequest request;
  request.kind = CrowdScenarioKind::random;
  request.agents = agents;
  request.seed = 3;
  request.mesh = &geometry;
  request.mesh_file = file;
  return tools::generate_crowd_scenario(request);
}

}  // namespace

TEST(Crowd, TwoHundredAgentsOnTheDungeon) {
  const std::filesystem::path file = wayfinder::testing::data_directory() / "meshes" / "derived" / "dungeon_navmesh.obj";
  if (!std::filesystem::exists(file)) {
    if (wayfinder::testing::data_required()) FAIL() << file << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << file << " not found";
  }
  const MeshGeometry geometry = read_obj_mesh(file);
  const tools::CrowdScenario scenario = random_dungeon_scenario(geometry, file, 200);
  ASSERT_EQ(scenario.agents.size(), 200u);
  const NavMesh mesh = NavMesh::build(geometry);
  // Sanitizer builds (about 10 times slower) run the first 15 s; the others the whole scenario.
  tools::CrowdRunOptions options;
  if (wayfinder::testing::sanitized_build()) options.steps = 150;
  const tools::CrowdMetrics m = tools::run_crowd_scenario(mesh, scenario, options).metrics;
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  EXPECT_GT(m.arrived, 0u);
  if (!wayfinder::testing::sanitized_build()) {
    EXPECT_EQ(m.arrived, m.agents) << "every goal is in its start's region";
    EXPECT_EQ(m.settled, m.agents);
    EXPECT_LT(m.settled_speed_fraction_max, 0.01);
  }
}

TEST(Crowd, SettledAgentsStayAtRestAmongWalkersOnTheDungeon) {
  // 100 agents with random goals on the dungeon, 60 s at 60 ticks a second: agents that have
  // arrived stand at exactly zero velocity unless a walker held up beside them needs them to
  // make way, and walkers squeezing past push themselves, not them (docs/crowds.md, "Settling").
  // Before that rule settled agents drifted at up to 5 % of their max speed here.
  const std::filesystem::path file = wayfinder::testing::data_directory() / "meshes" / "derived" / "dungeon_navmesh.obj";
  if (!std::filesystem::exists(file)) {
    if (wayfinder::testing::data_required()) FAIL() << file << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << file << " not found";
  }
  if (wayfinder::testing::sanitized_build()) GTEST_SKIP() << "3600 ticks: too slow under sanitizers";
  const MeshGeometry geometry = read_obj_mesh(file);
  const tools::CrowdScenario scenario = random_dungeon_scenario(geometry, file, 100);
  const NavMesh mesh = NavMesh::build(geometry);
  tools::CrowdRunOptions options;
  options.dt = 1.0 / 60.0;
  options.steps = 3600;
  const tools::CrowdMetrics m = tools::run_crowd_scenario(mesh, scenario, options).metrics;
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u) << "worst penetration " << m.worst_penetration << " of a radius";
  EXPECT_GE(m.settled, 75u);
  EXPECT_LT(m.settled_speed_fraction_max, 0.01);
}

// A malformed scenario names its field; counts far beyond any real run (billions of steps,
// threads, neighbours) are refused rather than run or allocated.
TEST(CrowdScenarioFile, HugeCountsAndBadFieldsAreRefusedByName) {
  const auto error_of = [](const nlohmann::json& document) -> std::string {
    try {
      (void)tools::crowd_scenario_from_json(document, "s.json");
    } catch (const LoadError& error) {
      return error.cause();
    }
    return "";
  };
  tools::CrowdScenarioRequest request;
  request.agents = 2;
  const nlohmann::json good = tools::crowd_scenario_to_json(tools::generate_crowd_scenario(request));
  EXPECT_EQ(error_of(good), "");
  nlohmann::json bad = good;
  bad["steps"] = 4'000'000'000ULL;
  EXPECT_EQ(error_of(bad), "steps: must be a whole number from 1 to 10000000");
  bad = good;
  bad["settings"]["threads"] = 1'000'000'000ULL;
  EXPECT_EQ(error_of(bad), "settings.threads: must be a whole number from 1 to 256");
  bad = good;
  bad["settings"]["max_neighbours"] = 1ULL << 40;
  EXPECT_EQ(error_of(bad), "settings.max_neighbours: must be a whole number from 1 to 1000");
  bad = good;
  bad["settings"]["collision_iterations"] = -1;
  EXPECT_EQ(error_of(bad), "settings.collision_iterations: must be a whole number from 0 to 1000");
  bad = good;
  bad["agents"][1]["radius"] = -0.5;
  EXPECT_EQ(error_of(bad).rfind("agents[1].radius: must be a finite number > 0", 0), 0U);
}

// The crossing, overtaking and floors scenarios come back from their file as they were made:
// the two floors' mesh in the file's own mesh, every agent's speed with it.
TEST(CrowdScenarioFile, NewKindsComeBackFromTheirFile) {
  for (const CrowdScenarioKind kind : {CrowdScenarioKind::crossing, CrowdScenarioKind::overtaking, CrowdScenarioKind::floors}) {
    const tools::CrowdScenario made = wayfinder::testing::generated(kind, 6);
    const tools::CrowdScenario read = tools::crowd_scenario_from_json(tools::crowd_scenario_to_json(made), "s.json");
    EXPECT_EQ(read.geometry.vertices, made.geometry.vertices) << to_string(kind);
    EXPECT_EQ(read.geometry.polygons, made.geometry.polygons) << to_string(kind);
    EXPECT_EQ(read.steps, made.steps);
    ASSERT_EQ(read.agents.size(), made.agents.size());
    for (std::size_t i = 0; i < made.agents.size(); ++i) {
      EXPECT_EQ(read.agents[i].start, made.agents[i].start) << to_string(kind) << " agent " << i;
      EXPECT_EQ(read.agents[i].goal, made.agents[i].goal);
      EXPECT_EQ(read.agents[i].settings.max_speed, made.agents[i].settings.max_speed);
      EXPECT_EQ(read.agents[i].settings.radius, made.agents[i].settings.radius);
    }
  }
}
