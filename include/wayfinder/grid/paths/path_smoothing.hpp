#pragma once
// Turns a cell path into any-angle waypoints: from each waypoint, skip ahead along the path
// while the next cell is still in straight line of sight (the post-smoothing of Botea, Müller & Schaeffer 2004
// "Near Optimal Hierarchical Path-Finding"). A sight line must not cross a blocked cell nor
// pass through a corner where blocked cells touch, so a smoothed path never cuts an obstacle.

#include <vector>

#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

/// True when the segment between the centres of two cells touches only passable cells
/// (cells it merely touches at a corner count as touched).
bool line_of_sight(const GridMap& map, Cell from, Cell to);

/// Waypoints (cell centres) of the smoothed path; the first and last are the path's ends.
std::vector<Point> smooth_path(const GridMap& map, const std::vector<NodeId>& cells);

/// Euclidean length of a polyline (the geometry kernel's, named here for grid paths).
using geometry::polyline_length;

}  // namespace wayfinder
