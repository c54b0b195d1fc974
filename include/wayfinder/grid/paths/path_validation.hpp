#pragma once
// An independent check of a grid path, move by move: every cell inside the map and passable,
// every move to an adjacent cell allowed by the diagonal rule, and the costs summed. Tests use
// it as an oracle; tools use it to report a broken path in plain words.

#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

struct GridPathCheck {
  bool valid = false;
  std::string problem;  ///< why not valid, naming the step
  Cost cost = 0.0;      ///< sum of move costs (when valid)
  std::size_t moves = 0;
};

GridPathCheck check_grid_path(const GridMap& map, const std::vector<NodeId>& cells, DiagonalMode diagonal);

}  // namespace wayfinder
