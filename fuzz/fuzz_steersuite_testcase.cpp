// Fuzzes the SteerSuite test case reader (tools/common/steersuite_testcase.*): any bytes must
// either read or throw LoadError naming the file and why; a test case that reads must keep within
// the reader's limits, with finite points, convex outlines of at least three corners and agents
// with goals, and must give a level and a crowd scenario.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/steersuite_testcase.hpp"
#include "wayfinder/core/load_error.hpp"

namespace {

bool finite(const wayfinder::Point& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace tools = wayfinder::tools;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tools::SteerSuiteTestCase testcase;
  try {
    testcase = tools::steersuite_testcase_from_text(text, "fuzz.xml", 1);
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.xml") std::abort();
    return 0;
  }
  if (testcase.agents.size() > tools::steersuite_limits::agents) std::abort();
  if (testcase.obstacles.size() > tools::steersuite_limits::obstacles) std::abort();
  if (!(testcase.xmin < testcase.xmax) || !(testcase.zmin < testcase.zmax)) std::abort();
  for (const tools::SteerSuiteObstacle& obstacle : testcase.obstacles) {
    if (obstacle.outline.size() < 3) std::abort();
    for (const wayfinder::Point& p : obstacle.outline)
      if (!finite(p)) std::abort();
  }
  for (const tools::SteerSuiteAgent& agent : testcase.agents) {
    if (agent.goals.empty() || !finite(agent.start) || !(agent.radius > 0.0) || !(agent.desired_speed >= 0.0)) std::abort();
    for (const wayfinder::Point& goal : agent.goals)
      if (!finite(goal)) std::abort();
  }
  const wayfinder::MeshGeometry level = tools::steersuite_level(testcase);
  if (level.polygons.size() < 1 + testcase.obstacles.size()) std::abort();
  const tools::CrowdScenario scenario = tools::steersuite_crowd_scenario(testcase, {});
  if (scenario.agents.size() != testcase.agents.size()) std::abort();
  return 0;
}
