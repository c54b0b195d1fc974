#include "crowd/steersuite_scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "command_error.hpp"
#include "mesh/level_build_options.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#ifdef WAYFINDER_HAVE_TINYXML2
#include "common/steersuite_testcase.hpp"
#endif

namespace wayfinder::cli {

bool is_steersuite_testcase(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ending = path.substr(path.size() - 4);
  std::transform(ending.begin(), ending.end(), ending.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ending == ".xml";
}

#ifdef WAYFINDER_HAVE_TINYXML2
namespace {

/// Recast's settings for the test case's plane: cells a quarter of the largest radius across
/// (so the walkable area keeps exactly that radius from the obstacles when it is a whole number
/// of cells), but no more than 4096 cells along the world's longer side; agents 2 high that
/// climb less than an obstacle is tall; tiles of 256 cells when the plane is larger than that.
AgentSettings steersuite_build_settings(const tools::SteerSuiteTestCase& testcase) {
  AgentSettings settings;
  const double radius = std::max(tools::steersuite_largest_radius(testcase), 0.05);
  const double longer_side = std::max(testcase.xmax - testcase.xmin, testcase.zmax - testcase.zmin);
  settings.cell_size = std::max(radius / 4.0, longer_side / 4096.0);
  settings.cell_height = 0.1;
  settings.agent_radius = radius;
  settings.agent_height = 2.0;
  settings.max_climb = tools::steersuite_obstacle_height / 2.0;
  settings.edge_max_length = 0.0;
  settings.detail_sample_distance = 0.0;
  if (longer_side / settings.cell_size > 256.0) settings.tile_size = 256;
  return settings;
}

}  // namespace

tools::CrowdScenario crowd_scenario_from_steersuite(const std::string& path, std::uint64_t seed, std::ostream& err) {
  const tools::SteerSuiteTestCase testcase = tools::read_steersuite_testcase(path, seed);  // LoadError names the line
  MeshGeometry navmesh = build_level_navmesh(tools::steersuite_level(testcase), path, steersuite_build_settings(testcase),
                                             err, false, nullptr);
  return tools::steersuite_crowd_scenario(testcase, std::move(navmesh));
}
#else
tools::CrowdScenario crowd_scenario_from_steersuite(const std::string& path, std::uint64_t, std::ostream&) {
  throw CommandError(path + ": SteerSuite test cases need the tools built with tinyxml2 (Debian: libtinyxml2-dev)", path);
}
#endif

}  // namespace wayfinder::cli
