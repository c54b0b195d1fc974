#pragma once
// A plain textbook A* (std::priority_queue with lazy deletion, search state in vectors
// cleared for every query), the baseline the benchmarks measure Wayfinder's engine against in
// the same process. Same move rules and costs as Wayfinder's grid (MovingAI: no corner cutting),
// and the same order: f rounded as the engine rounds it, ties to the larger g.

#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::bench {

struct TextbookResult {
  double cost = -1.0;  // -1 when unreachable
  std::size_t expanded = 0;
};

TextbookResult textbook_astar(const GridMap& map, Cell start, Cell goal);

}  // namespace wayfinder::bench
