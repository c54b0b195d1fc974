#pragma once
// The map the grid table fuzzers (jump table, goal bounds, goal bounds' parts) read their
// tables for, and which their seed corpora were written for: 12 x 10 with walls that make jump
// points in every direction.

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

}  // namespace wayfinder::fuzz
