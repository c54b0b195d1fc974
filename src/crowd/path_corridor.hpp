#pragma once
// Keeping an agent's corridor (the polygons from its own to its path's end) current as it
// moves: the polygons a move along the surface went through are merged into the corridor's
// start, the idea of Detour's dtMergeCorridorStartMoved (Mononen 2009).

#include <span>
#include <vector>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::crowd_detail {

/// `moved` is the polygons a move went through, from the corridor's first polygon (or one of
/// the corridor's) to where the agent now stands, each a neighbour of the one before. The
/// corridor becomes: the agent's polygon, back along `moved` to the furthest polygon of the
/// corridor the move touched, then the corridor's rest from there. Consecutive polygons stay
/// neighbours. False (the corridor unchanged) when the move touched no polygon of the corridor.
bool merge_moved_start(std::vector<PolygonId>& corridor, std::span<const PolygonId> moved,
                       std::vector<PolygonId>& scratch);

}  // namespace wayfinder::crowd_detail
