#pragma once
// Portals and string pulling. A corridor of polygons is turned into portals (the shared edge
// between consecutive polygons, with its left and right ends as seen walking along the
// corridor), and the funnel algorithm pulls a string through them from the start to the goal.
// The result is the shortest path (in the x-z plane) inside the corridor: Lee & Preparata's
// funnel (1984), in the simple stupid funnel form popularised by Mononen (2010).

#include <span>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

struct Portal {
  Point left;
  Point right;
};

/// The portals between consecutive polygons of `corridor`. Consecutive polygons must be
/// neighbours; throws std::invalid_argument if they are not. A corridor that takes off-mesh links
/// (PathResult::links) is walked in pieces: split it after each link's `node` and pull the
/// string through each piece alone (NavMeshQuery::find_path does so).
std::vector<Portal> corridor_portals(const NavMesh& mesh, std::span<const PolygonId> corridor);
void corridor_portals(const NavMesh& mesh, std::span<const PolygonId> corridor, std::vector<Portal>& portals);

/// The waypoints of the shortest path from `start` to `goal` through the portals (x-z plane):
/// `start`, every portal end the path turns at (with that vertex's height), then `goal`.
std::vector<Point> funnel_path(const Point& start, const Point& goal, std::span<const Portal> portals);
void funnel_path(const Point& start, const Point& goal, std::span<const Portal> portals, std::vector<Point>& waypoints);

/// Gives the funnel's turns (every waypoint but the first and last, each a portal end) the
/// ground's height there (NavMesh::height_at in the corridor polygon before the portal), for a
/// mesh with detail heights: the polygons' corners can sit up to a cell height or more above or
/// below the level's floor, the detail mesh does not. `waypoints` come from funnel_path over
/// `portals`, the portals of `corridor`.
void place_turns_on_ground(const NavMesh& mesh, std::span<const PolygonId> corridor, std::span<const Portal> portals,
                           std::vector<Point>& waypoints);

}  // namespace wayfinder
