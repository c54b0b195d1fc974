#pragma once
// The picture of a crowd run: the mesh from above, every agent's trail in a colour of its own,
// with its disc drawn along the trail at intervals (so that a jam shows as a pile of discs),
// its start hollow and its end solid.

#include <string>
#include <vector>

#include "common/crowd_scenario.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::cli {

/// Writes the SVG; throws CommandError when the file cannot be written.
void write_crowd_trails_svg(const std::string& path, const NavMesh& mesh, const tools::CrowdScenario& scenario,
                            const std::vector<std::vector<Point>>& trails);
/// The same on a grid: its free cells, seen from above (column right, row down).
void write_crowd_trails_svg(const std::string& path, const GridMap& map, const tools::CrowdScenario& scenario,
                            const std::vector<std::vector<Point>>& trails);

}  // namespace wayfinder::cli
