#pragma once
// What the crowd tests share: meshes made for them and a scenario run on a built mesh.

#include <cstddef>
#include <vector>

#include "common/crowd_run.hpp"
#include "common/crowd_scenario.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::testing {

/// Runs a generated scenario on its own mesh.
inline tools::CrowdRun run_generated(const tools::CrowdScenario& scenario, const tools::CrowdRunOptions& options = {}) {
  const NavMesh mesh = NavMesh::build(scenario.geometry);
  return tools::run_crowd_scenario(mesh, scenario, options);
}

inline tools::CrowdScenario generated(tools::CrowdScenarioKind kind, std::size_t agents, std::uint64_t seed = 1) {
  tools::CrowdScenarioRequest request;
  request.kind = kind;
  request.agents = agents;
  request.seed = seed;
  return tools::generate_crowd_scenario(request);
}

}  // namespace wayfinder::testing
