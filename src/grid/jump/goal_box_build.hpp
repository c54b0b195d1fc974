#pragma once
// The goal bounds' build over a range of source cells, shared by the whole build
// (GridGoalBounds) and the build of a part (GridGoalBoundsPart): the boxes of a cell depend on
// the map alone, so building the cells [first, last) here gives the same boxes as the whole
// build gives them.

#include <cstddef>

#include "wayfinder/grid/jump/grid_goal_bounds.hpp"

namespace wayfinder {

/// Runs one Dijkstra search from every passable cell in [first, last) (cell ids, row-major) of
/// `map` on `threads` threads (at least 1; the calling one included) and widens that cell's 8
/// boxes, which `boxes` holds from cell `first` on ((last - first) x 8 boxes, empty on entry).
/// `progress` sees the passable sources done and their total. Returns that total.
/// Precondition: first <= last <= map.cell_count().
std::size_t build_goal_boxes(const GridMap& map, NodeId first, NodeId last, GoalBox* boxes,
                             const GridGoalBounds::Progress& progress, int threads);

}  // namespace wayfinder
