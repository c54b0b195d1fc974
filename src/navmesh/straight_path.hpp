#pragma once
// The answer to a query whose start and goal share a convex polygon: the straight segment.

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// Fills `out` (status, reason, nodes, points, cost) with the path from `start` to `goal` inside
/// `polygon` at cost `cost`; the caller reset `out` and keeps its stats.
inline void set_straight_path(PathResult& out, PolygonId polygon, const Point& start, const Point& goal, Cost cost) {
  out.status = SearchStatus::found;
  out.reason = StopReason::goal_reached;
  out.nodes.push_back(polygon);
  out.points.push_back(start);
  out.points.push_back(goal);
  out.cost = cost;
}

}  // namespace wayfinder
