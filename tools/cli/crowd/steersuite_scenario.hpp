#pragma once
// SteerSuite test cases (XML) as crowd scenarios for the crowd commands: the test case is read
// (common/steersuite_testcase.hpp) and a navigation mesh is built from its ground and obstacles
// with Recast for its largest agent (docs/crowds.md, "SteerSuite test cases").

#include <cstdint>
#include <ostream>
#include <string>

#include "common/crowd_scenario.hpp"

namespace wayfinder::cli {

/// True when `path` names a SteerSuite test case (it ends in .xml, in any letter case).
bool is_steersuite_testcase(const std::string& path);

/// Reads the test case (random placements drawn from `seed`), builds its navigation mesh and
/// returns the crowd scenario. Throws CommandError naming the file when it cannot be read or the
/// tools were built without tinyxml2 or Recast.
tools::CrowdScenario crowd_scenario_from_steersuite(const std::string& path, std::uint64_t seed, std::ostream& err);

}  // namespace wayfinder::cli
