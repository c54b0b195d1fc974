#pragma once
// `wayfinder grid merge-goal-bounds MAP PART... -o FILE [--json]`: merges the goal bounds' parts
// that `grid preprocess --goal-bounds PART --goal-bounds-range FIRST:LAST` wrote, in any order,
// into the goal bounds file of the map (grid_goal_bounds_part.hpp), byte for byte the file that
// `grid preprocess --goal-bounds FILE` writes.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace wayfinder::cli {

struct GridMergeGoalBoundsArguments {
  std::string map_path;
  std::vector<std::string> part_paths;
  std::string output_path;
  bool json = false;
};

void configure_grid_merge_goal_bounds_command(CLI::App& command, GridMergeGoalBoundsArguments& arguments);

/// Returns 0 once the file is written; throws LoadError for an unreadable map or part,
/// CommandError (exit 2) for parts that cannot merge (of another map, overlapping, missing cells)
/// or an output over an input, std::runtime_error when the file cannot be written.
int run_grid_merge_goal_bounds_command(const GridMergeGoalBoundsArguments& arguments, std::ostream& out,
                                       std::ostream& err);

}  // namespace wayfinder::cli
