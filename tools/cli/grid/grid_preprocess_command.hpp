#pragma once
// `wayfinder grid preprocess MAP -o FILE [--goal-bounds FILE2 [--goal-bounds-range FIRST:LAST]]
// [--build-threads N] [--max-table-memory MiB] [--json]`:
// builds the JPS+ jump table of a MovingAI map (grid_jump_table.hpp) and saves it, for `grid
// path` and `grid bench` to load with --table; with --goal-bounds also its goal bounds
// (grid_goal_bounds.hpp), for them to load with --bounds, or with --goal-bounds-range only the
// part of them of a range of cells (grid_goal_bounds_part.hpp), for `grid merge-goal-bounds`.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct GridPreprocessArguments {
  std::string map_path;
  std::string output_path;
  std::string goal_bounds_path;  ///< empty: no goal bounds
  std::string goal_bounds_range;  ///< "FIRST:LAST": only the part of those cells; empty: all
  std::uint64_t build_threads = 2;
  std::uint64_t max_table_memory = 2048;  ///< MiB (--max-table-memory, grid_table_memory.hpp)
  bool json = false;
};

void configure_grid_preprocess_command(CLI::App& command, GridPreprocessArguments& arguments);

/// Returns 0 once the table is written; throws LoadError for an unreadable map,
/// std::runtime_error when the file cannot be written and CommandError when the table or the
/// bounds' build would need more memory than --max-table-memory allows (checked before building).
int run_grid_preprocess_command(const GridPreprocessArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
