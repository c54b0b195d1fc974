#pragma once
// The goal bounds' build over a range of source cells, shared by the whole build
// (GridGoalBounds) and the build of a part (GridGoalBoundsPart): the boxes of a cell depend on
// the map alone, so building the cells [first, last) here gives the same boxes as the whole
// build gives them. How a cell's boxes are found: goal_box_build.cpp and docs/grid.md, "Goal
// bounding".

#include <cstddef>

#include "wayfinder/grid/jump/grid_goal_bounds.hpp"

namespace wayfinder {

/// Where the costs' canonical pass turns (goal_box_build.cpp): at the jump points of straight
/// rays (forced neighbours), as the build does, or only at the source, which leaves most costs
/// to the exact Dijkstra search that mends what the canonical pass leaves out (for tests of that
/// search; the boxes are the same).
enum class CanonicalTurns { at_forced_neighbours, at_source_only };

/// Finds, from every passable cell in [first, last) (cell ids, row-major) of `map`, on
/// `threads` threads (at least 1; the calling one included), each reachable cell's set of
/// optimal first moves (every tied move included) and widens that source cell's 8 boxes, which
/// `boxes` holds from cell `first` on ((last - first) x 8 boxes, empty on entry). `progress`
/// sees the passable sources done and their total. Returns that total.
/// Precondition: first <= last <= map.cell_count().
std::size_t build_goal_boxes(const GridMap& map, NodeId first, NodeId last, GoalBox* boxes,
                             const GridGoalBounds::Progress& progress, int threads,
                             CanonicalTurns turns = CanonicalTurns::at_forced_neighbours);

/// Whether a move leaves the passable cell (x, y) in `direction` (0..7, as JumpDirection): the
/// next cell is free and, for a diagonal, so are both side cells (no corner cutting).
bool first_move_exists(const GridMap& map, int x, int y, int direction);

}  // namespace wayfinder
