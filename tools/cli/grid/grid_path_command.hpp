#pragma once
// `wayfinder grid path MAP --from X,Y --to X,Y ...`: one query on a MovingAI map, printed as
// text or JSON, optionally drawn as SVG with what the search explored.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"

namespace wayfinder::cli {

struct GridPathArguments {
  std::string map_path;
  Cell from;
  Cell to;
  GridSearchOptions search;
  std::uint64_t max_expansions = Budget::unlimited_expansions;
  /// The agent's side in cells (GridSearchOptions::agent_size), 1 to max_clearance.
  std::uint64_t agent_size = 1;
  /// hpa's cluster side in cells (GridSearchOptions::cluster_size).
  std::uint64_t cluster_size = 16;
  bool smooth = false;
  bool full_path = false;  ///< --full-path: every cell in the text output
  std::string svg_path;
  std::string table_path;  ///< a saved jump table for jps-plus (empty: built in the query)
  std::string bounds_path;  ///< saved goal bounds for jps-plus (empty: none)
  std::uint64_t max_table_memory = 2048;  ///< MiB: the cap on a jump table built here (grid_table_memory.hpp)
  bool json = false;
};

/// Declares the command's arguments on `command`, bound to `arguments`.
void configure_grid_path_command(CLI::App& command, GridPathArguments& arguments);

/// The hierarchy's size, memory and build time, as JSON (the "hierarchy" object) and as text.
nlohmann::ordered_json hierarchy_json(const HierarchicalGrid& hierarchy);
std::string hierarchy_text(const HierarchicalGrid& hierarchy);

/// Runs the query. Returns 0 when a path was found, 1 when not; throws CommandError for an
/// invalid query, LoadError or std::runtime_error for unreadable files.
int run_grid_path_command(const GridPathArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
