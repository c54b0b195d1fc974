#pragma once
// The jump table and goal bounds that `wayfinder grid preprocess` writes for a map, read back by
// `grid path` and `grid bench` (--table, --bounds). A file that cannot be read is refused with
// both names, the derived file and the map it was given for, and for a missing file the command
// that writes it: "x.jump: no such file (the jump table given for the map arena2.map; write one
// with `wayfinder grid preprocess arena2.map -o x.jump`)".

#include <memory>
#include <string>

#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::cli {

/// GridJumpTable::load(table_path, map); throws LoadError naming table_path and map_path.
std::shared_ptr<const GridJumpTable> load_jump_table_for(const std::string& table_path, const GridMap& map,
                                                         const std::string& map_path);
/// GridGoalBounds::load(bounds_path, map); throws LoadError naming bounds_path and map_path.
std::shared_ptr<const GridGoalBounds> load_goal_bounds_for(const std::string& bounds_path, const GridMap& map,
                                                           const std::string& map_path);

}  // namespace wayfinder::cli
