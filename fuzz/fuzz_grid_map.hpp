#pragma once
// The map the grid table fuzzers (jump table, goal bounds, goal bounds' parts) read their
// tables for, and which their seed corpora were written for: 12 x 10 with walls that make jump
// points in every direction; and the searches the goal bounds fuzzers run with bounds that load.

#include <cstdlib>
#include <memory>

#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::fuzz {

inline GridMap fuzz_map() {
  GridMap map(12, 10);
  map.block_rect({3, 2, 1, 5});
  map.block_rect({6, 0, 1, 4});
  map.block_rect({6, 6, 4, 1});
  map.set_passable(9, 2, false);
  map.set_passable(1, 8, false);
  map.forget_changes();
  return map;
}

// JPS+ pruned by `bounds` between every pair of a few cells of fuzz_map(): the answers need not
// be optimal (bounds may be wrong yet well formed), but every search must end, and none may
// call a good query invalid.
inline void search_with_goal_bounds(const GridMap& map, const std::shared_ptr<const GridGoalBounds>& bounds) {
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::jump_point_plus;
  GridQuery pathfinder(map, build_grid_derived_data(map, options));
  pathfinder.set_goal_bounds(bounds);
  const Cell cells[] = {{0, 0}, {11, 9}, {5, 5}, {0, 9}, {11, 0}, {7, 3}};
  for (const Cell start : cells)
    for (const Cell goal : cells) {
      const PathResult result = pathfinder.find_path(start, goal, options);
      if (result.status == SearchStatus::invalid_input) std::abort();
    }
}

}  // namespace wayfinder::fuzz
