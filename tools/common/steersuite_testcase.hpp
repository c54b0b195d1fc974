#pragma once
// SteerSuite's test cases (the XML of the SteerBench steering benchmark: Singh, Kapadia,
// Faloutsos & Reinman, "SteerBench: a benchmark suite for evaluating steering behaviors",
// Computer Animation and Virtual Worlds 20(5-6), 2009) read as crowd scenarios: the open ground
// of the world's bounds with its obstacles, and agents with their radius, speed and goals.
//
// What is read and how it maps (docs/crowds.md, "SteerSuite test cases"):
// - <header><worldBounds>: the ground, a rectangle in x-z at y = 0, widened to reach every
//   agent's start and goals with room to stand (some published test cases place agents outside
//   their bounds, which SteerSuite does not confine them to); bounds given the wrong way round
//   (min above max) are read as the same box, here and in every other bounds element;
// - <obstacle> (an axis-aligned box), <orientedBoxObstacle> (a box turned by thetaY degrees about
//   y, as SteerSuite turns it), <circleObstacle> (a cylinder, here a prism of 32 sides drawn round
//   the circle) and <obstacleRegion> (numObstacles squares placed at random in the region): each
//   blocks the ground whatever its height, as in SteerSuite's plane;
// - <agent> and <agentRegion> (numAgents agents at random in the region, clear of obstacles and of
//   each other): radius, position (or random), and the goal sequence: <seekStaticTarget> (its
//   targetLocation, or a random one) and <seekAxisAlignedBoxRegion> (the region's centre), the
//   desiredSpeed of the first goal as the agent's max speed. The initial direction and speed,
//   timeDuration and <Behaviour> are not modelled.
// - anything else (agent emitters, dynamic, flee, flow and idle goals, polygon and wall
//   obstacles) is refused naming the element and its line.
// An XML declaration after the file's opening comment (not allowed by XML, but SteerSuite's own
// files have one) is passed over. Random placements use std::mt19937_64 seeded by the caller, reduced to numbers by this code, so
// that one seed gives one scenario everywhere (not SteerSuite's own draws).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/crowd_scenario.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder::tools {

/// An obstacle's footprint: a convex polygon in x-z, counter-clockwise seen from above (+y).
struct SteerSuiteObstacle {
  std::vector<Point> outline;
};

struct SteerSuiteAgent {
  std::string name;
  Point start;
  /// The goals in order (at least one); the agent walks to each in turn.
  std::vector<Point> goals;
  double radius = 0.5;
  double desired_speed = 1.3;
};

struct SteerSuiteTestCase {
  std::string name;
  double xmin = 0.0, xmax = 0.0, zmin = 0.0, zmax = 0.0;
  std::vector<SteerSuiteObstacle> obstacles;
  std::vector<SteerSuiteAgent> agents;
};

/// The most a test case may ask for (agents and obstacles, given or drawn at random); more is
/// refused as malformed.
namespace steersuite_limits {
inline constexpr std::size_t agents = 1'000'000;
inline constexpr std::size_t obstacles = 1'000'000;
/// Every number read (coordinates, sizes, speeds, counts) lies within +-magnitude.
inline constexpr double magnitude = 1e7;
}  // namespace steersuite_limits

/// Reads a test case. Throws LoadError naming the file, the element and its line and why
/// ("agent.xml: line 12, <radius>: must be a finite number > 0") when the XML is malformed, a
/// number is not finite or out of range, a required element is missing, an element is not
/// supported, or random agents cannot be placed clear of obstacles and each other (within
/// 10,000 tries each, and 500 million overlap checks in all).
SteerSuiteTestCase read_steersuite_testcase(const std::filesystem::path& file, std::uint64_t seed = 1);
/// The same from text in memory; `source` names it in errors.
SteerSuiteTestCase steersuite_testcase_from_text(std::string_view text, const std::string& source,
                                                 std::uint64_t seed = 1);

/// The obstacles' height in the level below: under an agent 2 high, so that the ground beneath an
/// obstacle has too little room for the agent, and above any climb a build allows for it.
inline constexpr double steersuite_obstacle_height = 1.0;

/// The level a navigation mesh is built from: the ground of the world's bounds (two triangles)
/// and each obstacle as a prism steersuite_obstacle_height tall whose top faces down, so that it
/// is never walkable (its sides stand on the ground's edge: a build for agents 2 high, climbing
/// less than the prism, keeps the agents' centres a radius away from it).
MeshGeometry steersuite_level(const SteerSuiteTestCase& testcase);

/// The test case as a crowd scenario on `navmesh` (built from steersuite_level for the agents'
/// largest radius): each agent's start, its last goal as the goal and the goals before it as via
/// points, its radius and its desired speed as max speed, arriving within its radius of a goal
/// (other agent settings at their defaults); agents leave on arrival, as SteerSuite's do; dt 0.05 (SteerSuite's 20 frames a second) and steps for the slowest agent to walk
/// three times its straight route, plus 30 s, at most crowd_scenario_limits::steps.
CrowdScenario steersuite_crowd_scenario(const SteerSuiteTestCase& testcase, MeshGeometry navmesh);

/// The largest agent radius of the test case (0 with no agents).
double steersuite_largest_radius(const SteerSuiteTestCase& testcase);

/// True when a disc of `radius` at `centre` (x-z) overlaps the obstacle's footprint.
bool disc_overlaps_obstacle(const Point& centre, double radius, const SteerSuiteObstacle& obstacle);

}  // namespace wayfinder::tools
