#pragma once
// `wayfinder grid path MAP --from X,Y --to X,Y ...`: one query on a MovingAI map, printed as
// text or JSON, optionally drawn as SVG with what the search explored.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/grid/grid_pathfinder.hpp"

namespace wayfinder::cli {

struct GridPathArguments {
  std::string map_path;
  Cell from;
  Cell to;
  GridSearchOptions search;
  std::uint64_t max_expansions = Budget::unlimited_expansions;
  bool smooth = false;
  std::string svg_path;
  bool json = false;
};

/// Declares the command's arguments on `command`, bound to `arguments`.
void configure_grid_path_command(CLI::App& command, GridPathArguments& arguments);

/// Runs the query. Returns 0 when a path was found, 1 when not, 2 for an invalid query; throws
/// LoadError or std::runtime_error for unreadable files.
int run_grid_path_command(const GridPathArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
