#include "grid/grid_derived_files.hpp"

#include <filesystem>
#include <system_error>

#include "wayfinder/core/load_error.hpp"

namespace wayfinder::cli {

namespace {

/// Table::load(path, map), with the map named in every refusal: the two files a user typed
/// are then both in the message, and a table meant for another map is easy to see.
template <class Table>
std::shared_ptr<const Table> load_for_map(const std::string& path, const GridMap& map, const std::string& map_path,
                                          const std::string& what, const std::string& preprocess_flag) {
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw LoadError(path, 0, 0,
                    "no such file (the " + what + " given for the map " + map_path + "; write one with `wayfinder grid preprocess " +
                        map_path + " " + preprocess_flag + " " + path + "`)");
  try {
    return std::make_shared<const Table>(Table::load(path, map));
  } catch (const LoadError& refused) {
    throw LoadError(refused.file(), refused.line(), refused.column(),
                    refused.cause() + " (the " + what + " given for the map " + map_path + ")");
  }
}

}  // namespace

std::shared_ptr<const GridJumpTable> load_jump_table_for(const std::string& table_path, const GridMap& map,
                                                         const std::string& map_path) {
  return load_for_map<GridJumpTable>(table_path, map, map_path, "jump table", "-o");
}

std::shared_ptr<const GridGoalBounds> load_goal_bounds_for(const std::string& bounds_path, const GridMap& map,
                                                           const std::string& map_path) {
  return load_for_map<GridGoalBounds>(bounds_path, map, map_path, "goal bounds", "-o TABLE --goal-bounds");
}

}  // namespace wayfinder::cli
