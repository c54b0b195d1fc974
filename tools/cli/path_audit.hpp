#pragma once
// An independent check of a returned grid path, shared by `grid bench` and `demo`: the path runs
// from the start to the goal, every move is legal (check_grid_path), and the reported cost is
// what its moves add up to.

#include <optional>
#include <string>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder::cli {

/// What is wrong with the path of a `found` result, or nullopt when nothing is.
std::optional<std::string> find_path_problem(const GridMap& map, Cell start, Cell goal, const PathResult& result,
                                             DiagonalMode diagonal);

}  // namespace wayfinder::cli
