// SteerSuite test cases read as crowd scenarios (tools/common/steersuite_testcase.hpp), and the
// crowd run's via points and leaving agents they use.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/crowd_run.hpp"
#include "common/crowd_scenario.hpp"
#include "common/steersuite_testcase.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#ifdef WAYFINDER_TEST_HAVE_RECAST
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#endif

namespace wayfinder::tools {
namespace {

std::string testcase_text(const std::string& body, const std::string& bounds = "-20 20 -10 10") {
  double b[4];
  std::sscanf(bounds.c_str(), "%lf %lf %lf %lf", &b[0], &b[1], &b[2], &b[3]);
  return "<?xml version=\"1.0\"?>\n<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">\n"
         "<header><version>1.0</version><name>test</name><worldBounds><xmin>" + std::to_string(b[0]) +
         "</xmin><xmax>" + std::to_string(b[1]) + "</xmax><ymin>0</ymin><ymax>0</ymax><zmin>" + std::to_string(b[2]) +
         "</zmin><zmax>" + std::to_string(b[3]) + "</zmax></worldBounds></header>\n" + body + "</SteerBenchTestCase>\n";
}

std::string agent_xml(const std::string& position, const std::string& goals, const std::string& radius = "0.5") {
  return "<agent><name>a</name><initialConditions><radius>" + radius + "</radius><position>" + position +
         "</position><direction><x>1</x><y>0</y><z>0</z></direction><speed>0</speed></initialConditions>"
         "<goalSequence>" + goals + "</goalSequence></agent>\n";
}

std::string seek(double x, double z, double speed = 1.3) {
  return "<seekStaticTarget><targetLocation><x>" + std::to_string(x) + "</x><y>0</y><z>" + std::to_string(z) +
         "</z></targetLocation><desiredSpeed>" + std::to_string(speed) + "</desiredSpeed><timeDuration>1000</timeDuration>"
         "</seekStaticTarget>";
}

std::string load_error_of(const std::string& text) {
  try {
    (void)steersuite_testcase_from_text(text, "case.xml");
  } catch (const LoadError& error) {
    return error.what();
  }
  return "";
}

TEST(SteerSuiteTestCase, ReadsBoundsObstaclesAgentsAndGoalSequences) {
  const std::string body =
      "<obstacle><xmin>-1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>2</zmin><zmax>5</zmax></obstacle>\n"
      "<orientedBoxObstacle><thetaY>90</thetaY><size><x>4</x><y>1</y><z>2</z></size>"
      "<position><x>10</x><y>0</y><z>0</z></position></orientedBoxObstacle>\n"
      "<circleObstacle><radius>2</radius><height>1</height><position><x>-10</x><y>0</y><z>0</z></position></circleObstacle>\n" +
      agent_xml("<x>-15</x><y>0</y><z>-5</z>", seek(0, -5, 1.5) + seek(15, -5, 0.7));
  const SteerSuiteTestCase testcase = steersuite_testcase_from_text(testcase_text(body), "case.xml");
  EXPECT_EQ(testcase.name, "test");
  EXPECT_DOUBLE_EQ(testcase.xmin, -20.0);
  EXPECT_DOUBLE_EQ(testcase.zmax, 10.0);
  ASSERT_EQ(testcase.obstacles.size(), 3u);
  // The box: inside and outside by a hair.
  EXPECT_TRUE(disc_overlaps_obstacle({0.0, 0.0, 3.0}, 0.0, testcase.obstacles[0]));
  EXPECT_TRUE(disc_overlaps_obstacle({0.0, 0.0, 1.6}, 0.5, testcase.obstacles[0]));
  EXPECT_FALSE(disc_overlaps_obstacle({0.0, 0.0, 1.4}, 0.5, testcase.obstacles[0]));
  EXPECT_FALSE(disc_overlaps_obstacle({1.6, 0.0, 3.0}, 0.5, testcase.obstacles[0]));
  // Turned by 90 degrees, the 4 x 2 box is 2 across x and 4 along z.
  EXPECT_TRUE(disc_overlaps_obstacle({10.0, 0.0, 1.9}, 0.0, testcase.obstacles[1]));
  EXPECT_FALSE(disc_overlaps_obstacle({11.1, 0.0, 0.0}, 0.0, testcase.obstacles[1]));
  EXPECT_FALSE(disc_overlaps_obstacle({10.0, 0.0, 2.1}, 0.0, testcase.obstacles[1]));
  EXPECT_TRUE(disc_overlaps_obstacle({10.9, 0.0, 0.0}, 0.0, testcase.obstacles[1]));
  // The circle's prism covers the whole circle and reaches at most 1 % beyond it.
  for (int k = 0; k < 360; k += 7) {
    const double a = k * 3.14159265358979 / 180.0;
    EXPECT_TRUE(disc_overlaps_obstacle({-10.0 + 1.999 * std::cos(a), 0.0, 1.999 * std::sin(a)}, 0.0, testcase.obstacles[2]));
    EXPECT_FALSE(disc_overlaps_obstacle({-10.0 + 2.02 * std::cos(a), 0.0, 2.02 * std::sin(a)}, 0.0, testcase.obstacles[2]));
  }
  ASSERT_EQ(testcase.agents.size(), 1u);
  const SteerSuiteAgent& agent = testcase.agents[0];
  EXPECT_EQ(agent.name, "a");
  EXPECT_DOUBLE_EQ(agent.start.x, -15.0);
  ASSERT_EQ(agent.goals.size(), 2u);
  EXPECT_DOUBLE_EQ(agent.goals[1].x, 15.0);
  EXPECT_DOUBLE_EQ(agent.desired_speed, 1.5);  // the first goal's

  const CrowdScenario scenario = steersuite_crowd_scenario(testcase, {});
  ASSERT_EQ(scenario.agents.size(), 1u);
  EXPECT_TRUE(scenario.leave_on_arrival);
  ASSERT_EQ(scenario.agents[0].via.size(), 1u);
  EXPECT_DOUBLE_EQ(scenario.agents[0].via[0].x, 0.0);
  EXPECT_DOUBLE_EQ(scenario.agents[0].goal.x, 15.0);
  EXPECT_DOUBLE_EQ(scenario.agents[0].settings.max_speed, 1.5);
  EXPECT_DOUBLE_EQ(scenario.agents[0].settings.radius, 0.5);
  // Three times the 30-unit route at 1.5 units a second, plus 30 s, in ticks of 0.05 s.
  EXPECT_EQ(scenario.steps, static_cast<std::size_t>(std::ceil((3.0 * 30.0 / 1.5 + 30.0) / 0.05)));
}

TEST(SteerSuiteTestCase, RandomAgentsAreClearOfObstaclesAndEachOtherAndFollowTheSeed) {
  const std::string body =
      "<obstacle><xmin>-2</xmin><xmax>2</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-2</zmin><zmax>2</zmax></obstacle>\n"
      "<agentRegion><numAgents>40</numAgents><regionBounds><xmin>-6</xmin><xmax>6</xmax><ymin>0</ymin><ymax>0</ymax>"
      "<zmin>-6</zmin><zmax>6</zmax></regionBounds><initialConditions><radius>0.5</radius>"
      "<direction><random>true</random></direction><speed>0</speed></initialConditions><goalSequence>"
      "<seekStaticTarget><targetLocation><random>true</random></targetLocation><desiredSpeed>1.3</desiredSpeed>"
      "<timeDuration>1000</timeDuration></seekStaticTarget></goalSequence></agentRegion>\n";
  const SteerSuiteTestCase one = steersuite_testcase_from_text(testcase_text(body), "case.xml", 7);
  ASSERT_EQ(one.agents.size(), 40u);
  for (std::size_t i = 0; i < one.agents.size(); ++i) {
    const SteerSuiteAgent& a = one.agents[i];
    EXPECT_GE(a.start.x, -6.0);
    EXPECT_LE(a.start.x, 6.0);
    EXPECT_FALSE(disc_overlaps_obstacle(a.start, a.radius, one.obstacles[0])) << i;
    EXPECT_FALSE(disc_overlaps_obstacle(a.goals[0], a.radius, one.obstacles[0])) << i;
    for (std::size_t j = i + 1; j < one.agents.size(); ++j)
      EXPECT_GE(geometry::distance_xz(a.start, one.agents[j].start), 1.0) << i << " " << j;
  }
  const SteerSuiteTestCase again = steersuite_testcase_from_text(testcase_text(body), "case.xml", 7);
  const SteerSuiteTestCase other = steersuite_testcase_from_text(testcase_text(body), "case.xml", 8);
  EXPECT_EQ(again.agents[13].start.x, one.agents[13].start.x);
  EXPECT_EQ(again.agents[13].goals[0].z, one.agents[13].goals[0].z);
  EXPECT_NE(other.agents[13].start.x, one.agents[13].start.x);
}

TEST(SteerSuiteTestCase, BadInputIsRefusedNamingTheLineAndTheElement) {
  EXPECT_NE(load_error_of("<SteerBenchTestCase><header>").find("not valid XML"), std::string::npos);
  EXPECT_NE(load_error_of("<other/>").find("not a SteerSuite test case"), std::string::npos);
  EXPECT_NE(load_error_of("<SteerBenchTestCase/>").find("has no <header>"), std::string::npos);
  // The agent is on line 4 (the header's line 3).
  const std::string nan_radius = load_error_of(testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z>", seek(1, 1), "nan")));
  EXPECT_NE(nan_radius.find("case.xml:4: <radius>: must be a finite number"), std::string::npos) << nan_radius;
  const std::string negative = load_error_of(testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z>", seek(1, 1), "-1")));
  EXPECT_NE(negative.find("<radius>: must be a number > 0"), std::string::npos) << negative;
  const std::string emitter = load_error_of(testcase_text("<agentEmitter/>\n"));
  EXPECT_NE(emitter.find("case.xml:4: <agentEmitter>: is not supported"), std::string::npos) << emitter;
  const std::string flee = load_error_of(
      testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z>", "<fleeDynamicTarget><targetName>b</targetName></fleeDynamicTarget>")));
  EXPECT_NE(flee.find("<fleeDynamicTarget>: is not supported"), std::string::npos) << flee;
  EXPECT_NE(load_error_of(testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z>", ""))).find("<goalSequence>: has no goal"),
            std::string::npos);
  EXPECT_NE(load_error_of(testcase_text("", "5 5 -10 10")).find("must enclose an area"), std::string::npos);
  EXPECT_NE(load_error_of(testcase_text("<agentRegion><numAgents>2000000</numAgents></agentRegion>"))
                .find("<numAgents>: must be a whole number"),
            std::string::npos);
  // A region with no room for the agents.
  const std::string crowded = load_error_of(testcase_text(
      "<agentRegion><numAgents>5</numAgents><regionBounds><xmin>0</xmin><xmax>1</xmax><ymin>0</ymin><ymax>0</ymax>"
      "<zmin>0</zmin><zmax>1</zmax></regionBounds><initialConditions><radius>0.5</radius></initialConditions>"
      "<goalSequence>" + seek(5, 5) + "</goalSequence></agentRegion>"));
  EXPECT_NE(crowded.find("found no place clear of the obstacles and the other agents"), std::string::npos) << crowded;
  EXPECT_NE(load_error_of(testcase_text(agent_xml("<x>1e300</x><y>0</y><z>0</z>", seek(1, 1)))).find("<x>: must be a number from -1e7 to 1e7"),
            std::string::npos);
  const std::string both = load_error_of(testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z><random>true</random>", seek(1, 1))));
  EXPECT_NE(both.find("has both <x> <y> <z> and <random>true</random>"), std::string::npos) << both;
}

TEST(SteerSuiteTestCase, ReadsTheLibertiesOfPublishedTestCases) {
  // A declaration after the licence comment, bounds the wrong way round and an agent outside
  // the world's bounds, as in files of SteerSuite's own collection.
  std::string text = "<!--\n  licence\n-->" + testcase_text(
      "<obstacle><xmin>2</xmin><xmax>-2</xmax><ymin>0</ymin><ymax>1</ymax><zmin>1</zmin><zmax>-1</zmax></obstacle>\n" +
      agent_xml("<x>30</x><y>0</y><z>0</z>", seek(-5, 0)), "-10 -20 -10 10");
  const SteerSuiteTestCase testcase = steersuite_testcase_from_text(text, "case.xml");
  EXPECT_DOUBLE_EQ(testcase.xmin, -20.0);
  EXPECT_DOUBLE_EQ(testcase.xmax, 30.0 + 2.0);  // the start, a diameter and 1 beyond
  EXPECT_TRUE(disc_overlaps_obstacle({1.5, 0.0, 0.5}, 0.0, testcase.obstacles[0]));
  // Lines keep their numbers: the agent is on line 6 (the comment's three, the declaration on
  // its last, then the root and the header).
  const std::string error = load_error_of("<!--\n  licence\n-->" +
                                          testcase_text(agent_xml("<x>0</x><y>0</y><z>0</z>", seek(1, 1), "x")));
  EXPECT_NE(error.find("case.xml:6: <radius>"), std::string::npos) << error;
}

TEST(SteerSuiteTestCase, TheLevelIsTheGroundAndObstaclePrismsWhoseTopsFaceDown) {
  const std::string body =
      "<obstacle><xmin>-1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>2</zmin><zmax>5</zmax></obstacle>\n";
  const MeshGeometry level = steersuite_level(steersuite_testcase_from_text(testcase_text(body), "case.xml"));
  ASSERT_EQ(level.polygons.size(), 1u + 1u + 4u);  // ground, the top, four sides
  const auto normal_y = [&](const std::vector<std::uint32_t>& polygon) {
    return -geometry::cross_xz(level.vertices[polygon[0]], level.vertices[polygon[1]], level.vertices[polygon[2]]);
  };
  EXPECT_GT(normal_y(level.polygons[0]), 0.0);  // the ground faces up
  EXPECT_LT(normal_y(level.polygons[1]), 0.0);  // the obstacle's top faces down
  EXPECT_DOUBLE_EQ(level.vertices[level.polygons[1][0]].y, steersuite_obstacle_height);
}

TEST(CrowdScenarioRun, AgentsWalkTheirViaPointsAndLeaveOnArrival) {
  // An open square of cells; one agent goes round two via points, one walks straight.
  CrowdScenario scenario;
  scenario.geometry = cell_floor(10, 10, 2.0, -10.0, -10.0, 0.0, [](std::size_t, std::size_t) { return true; });
  scenario.dt = 0.1;
  scenario.steps = 2000;
  CrowdScenarioAgent round;
  round.start = {-8.0, 0.0, -8.0};
  round.via = {{8.0, 0.0, -8.0}, {8.0, 0.0, 8.0}};
  round.goal = {-8.0, 0.0, 8.0};
  CrowdScenarioAgent straight;
  straight.start = {-8.0, 0.0, 0.0};
  straight.goal = {-2.0, 0.0, 0.0};
  scenario.agents = {round, straight};

  // Through JSON and back, as a file would give it.
  const CrowdScenario read = crowd_scenario_from_json(crowd_scenario_to_json(scenario), "s.json");
  ASSERT_EQ(read.agents[0].via.size(), 2u);
  EXPECT_DOUBLE_EQ(read.agents[0].via[1].z, 8.0);
  EXPECT_FALSE(read.leave_on_arrival);

  const NavMesh mesh = NavMesh::build(scenario.geometry);
  const CrowdRun staying = run_crowd_scenario(mesh, read, {});
  EXPECT_EQ(staying.metrics.arrived, 2u);
  EXPECT_EQ(staying.metrics.steps, 2000u);
  // The round trip is 48 long: the agent went by both via points, not straight to its goal (16).
  EXPECT_GT(staying.arrival_times[0] * round.settings.max_speed, 46.0);
  EXPECT_NEAR(staying.final_positions[0].z, 8.0, 0.2);
  EXPECT_NEAR(staying.metrics.path_ratio_max, 1.0, 0.05);

  CrowdScenario leaving = read;
  leaving.leave_on_arrival = true;
  const CrowdScenario leaving_read = crowd_scenario_from_json(crowd_scenario_to_json(leaving), "s.json");
  EXPECT_TRUE(leaving_read.leave_on_arrival);
  const CrowdRun left = run_crowd_scenario(mesh, leaving_read, {});
  EXPECT_EQ(left.metrics.arrived, 2u);
  EXPECT_EQ(left.metrics.settled, 0u);  // gone, not standing
  // The run ends when the last agent has left, on the tick it arrived.
  EXPECT_EQ(left.metrics.steps, static_cast<std::size_t>(std::lround(left.arrival_times[0] / 0.1)));
  EXPECT_DOUBLE_EQ(left.arrival_times[0], staying.arrival_times[0]);

  // A via point off the mesh is named.
  CrowdScenario off = read;
  off.agents[0].via[1] = {80.0, 0.0, 80.0};
  try {
    (void)run_crowd_scenario(mesh, off, {});
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("agents[0].via[1]: not on the mesh"), std::string::npos) << error.what();
  }
}

#ifdef WAYFINDER_TEST_HAVE_RECAST
TEST(SteerSuiteTestCase, AgentsCrossAHallwayWithAPillarOnTheBuiltMesh) {
  // Two groups of four pass each other in a hallway 6 wide round a pillar.
  std::string body =
      "<obstacle><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>1</ymax><zmin>3</zmin><zmax>10</zmax></obstacle>\n"
      "<obstacle><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-10</zmin><zmax>-3</zmax></obstacle>\n"
      "<circleObstacle><radius>0.8</radius><height>1</height><position><x>0</x><y>0</y><z>0</z></position></circleObstacle>\n";
  for (int k = 0; k < 4; ++k) {
    const double z = -1.8 + 1.2 * k;
    body += agent_xml("<x>-15</x><y>0</y><z>" + std::to_string(z) + "</z>", seek(15, z));
    body += agent_xml("<x>15</x><y>0</y><z>" + std::to_string(z) + "</z>", seek(-15, z));
  }
  const SteerSuiteTestCase testcase = steersuite_testcase_from_text(testcase_text(body), "case.xml");
  AgentSettings settings;
  settings.cell_size = 0.125;
  settings.cell_height = 0.1;
  settings.agent_radius = 0.5;
  settings.max_climb = 0.5;
  settings.detail_sample_distance = 0.0;
  const CrowdScenario scenario = steersuite_crowd_scenario(testcase, build_navmesh_geometry(steersuite_level(testcase), settings));
  const NavMesh mesh = NavMesh::build(scenario.geometry);
  // The mesh keeps the agents' centres a radius from the walls and the pillar.
  EXPECT_FALSE(mesh.locate({0.0, 0.0, 2.7}).valid());
  EXPECT_FALSE(mesh.locate({0.0, 0.0, 1.0}).valid());
  EXPECT_TRUE(mesh.locate({0.0, 0.0, 2.2}).valid());
  const CrowdMetrics m = run_crowd_scenario(mesh, scenario, {}).metrics;
  EXPECT_EQ(m.arrived, 8u);
  EXPECT_EQ(m.overlap_pair_ticks, 0u);
  EXPECT_EQ(m.off_mesh_agent_ticks, 0u);
  EXPECT_EQ(m.stuck, 0u);
  EXPECT_LT(m.steps, scenario.steps);  // everybody left before the end
}
#endif

}  // namespace
}  // namespace wayfinder::tools
