#pragma once
// The crowd's world on a grid: an agent stands at (x, 0, z) where the grid's column is x and its
// row is z (cell units; the height is 0). Paths come from the grid's search (A* or JPS) through
// a PathRequestQueue<GridMap> and are smoothed to any-angle waypoints (path_smoothing.hpp); the
// route is the agent's cell, then the cells of the waypoints still ahead. Walls are the edges
// between walkable cells and blocked ones (or ones the agent's filter excludes), merged along
// rows and columns into segments; moves never leave walkable cells (they slide along them).

#include <memory>

#include "crowd_world.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::crowd_detail {

/// The crowd's world on `map`, which must outlive it.
std::unique_ptr<CrowdWorld> make_grid_world(const GridMap& map, const GridCrowdOptions& options,
                                            const PathRequestQueueSettings& queue);

}  // namespace wayfinder::crowd_detail
