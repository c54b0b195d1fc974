#include "grid/grid_preprocess_command.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <nlohmann/json.hpp>

#include "command_error.hpp"
#include "exit_status.hpp"
#include "grid/grid_table_memory.hpp"
#include "output_paths.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "command_line_values.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

void configure_grid_preprocess_command(CLI::App& command, GridPreprocessArguments& arguments) {
  add_grid_map_argument(command, arguments.map_path);
  add_required_output_option(command, arguments.output_path, "where to write the jump table");
  command.add_option("--goal-bounds", arguments.goal_bounds_path,
                     "also build the map's goal bounds for jps-plus and write them here (one canonical Dijkstra "
                     "search per passable cell: minutes on large maps)")
      ->type_name("FILE");
  command
      .add_option("--goal-bounds-range", arguments.goal_bounds_range,
                  "build only the goal bounds of the cells FIRST to LAST (cell ids y*width+x, LAST excluded) and "
                  "write them to --goal-bounds FILE as a part, for grid merge-goal-bounds")
      ->type_name("FIRST:LAST")
      ->needs("--goal-bounds");
  add_whole_number_option(command, "--build-threads", arguments.build_threads, 1, 256,
                          "threads building the goal bounds")
      ->type_name("N")
      ->default_str("2");
  add_table_memory_option(command, arguments.max_table_memory);
  add_json_flag(command, arguments.json);
  command.footer(
      "The table holds, for every cell and each of the 8 directions, the distance to the next jump point or\n"
      "wall under the MovingAI rule (16 bytes per cell). The goal bounds hold, for every cell and direction,\n"
      "the bounding box of the goals that a move in that direction reaches optimally (64 bytes per cell).\n"
      "Each file records the map's size and a checksum of its passability: --table FILE and --bounds FILE\n"
      "(grid path, grid bench) refuse it for any other map. Ranges of cells built apart (--goal-bounds-range)\n"
      "merge with grid merge-goal-bounds into the file the whole build writes.");
}

namespace {

// The cells of --goal-bounds-range "FIRST:LAST" on `map`: CommandError unless they are whole
// numbers with FIRST <= LAST <= the map's cells.
std::pair<NodeId, NodeId> goal_bounds_range_of(const std::string& text, const GridMap& map) {
  const std::string usage = "--goal-bounds-range must be FIRST:LAST, cell ids from 0 to " +
                            std::to_string(map.cell_count()) + " (this map's cells) with FIRST <= LAST, got '" +
                            text + "'";
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw CommandError(usage);
  auto number = [&](const std::string& digits) {
    if (digits.empty() || digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos)
      throw CommandError(usage);
    return std::stoull(digits);
  };
  const std::uint64_t first = number(text.substr(0, colon));
  const std::uint64_t last = number(text.substr(colon + 1));
  if (first > last || last > map.cell_count()) throw CommandError(usage);
  return {static_cast<NodeId>(first), static_cast<NodeId>(last)};
}

}  // namespace

int run_grid_preprocess_command(const GridPreprocessArguments& arguments, std::ostream& out, std::ostream& err) {
  refuse_output_over("-o", arguments.output_path, "the map", arguments.map_path);
  if (!arguments.goal_bounds_path.empty()) {
    refuse_output_over("--goal-bounds", arguments.goal_bounds_path, "the map", arguments.map_path);
    refuse_output_over("--goal-bounds", arguments.goal_bounds_path, "the jump table's file", arguments.output_path);
  }
  const GridMap map = read_movingai_map(arguments.map_path);
  std::optional<std::pair<NodeId, NodeId>> range;
  if (!arguments.goal_bounds_range.empty()) range = goal_bounds_range_of(arguments.goal_bounds_range, map);
  // Both sizes are known before building: refuse what the cap does not allow before spending
  // minutes on the part that fits.
  refuse_table_over_cap("the jump table", GridJumpTable::memory_bytes_for(map), arguments.max_table_memory, map);
  if (!arguments.goal_bounds_path.empty())
    refuse_table_over_cap("building the goal bounds (on " + std::to_string(arguments.build_threads) + " threads)",
                          GridGoalBounds::build_memory_bytes_for(map, static_cast<int>(arguments.build_threads)),
                          arguments.max_table_memory, map);
  ProgressBar progress(err, standard_error_is_terminal());
  std::size_t table_bytes = 0;
  double milliseconds = 0.0;
  {
    // The table is written and let go before the bounds are built: the two never share memory.
    progress.start("jump table", map.height() * std::size_t{jump_direction_count});
    const GridJumpTable table(map, [&](std::size_t done, std::size_t) { progress.update(done); });
    progress.clear();
    table.save(arguments.output_path);
    table_bytes = table.memory_bytes();
    milliseconds = table.build_seconds() * 1000.0;
  }
  const auto file_bytes = std::filesystem::file_size(arguments.output_path);
  // The goal bounds, or their part of --goal-bounds-range: what the report says of them.
  struct BuiltBounds {
    double seconds = 0.0;
    int threads = 0;
    std::size_t memory_bytes = 0;
    std::uintmax_t file_bytes = 0;
  };
  std::optional<BuiltBounds> bounds;
  if (!arguments.goal_bounds_path.empty()) {
    const NodeId first = range ? range->first : 0;
    const NodeId last = range ? range->second : static_cast<NodeId>(map.cell_count());
    std::size_t passable = 0;
    for (NodeId cell = first; cell < last; ++cell) passable += map.passable(map.cell_of(cell)) ? 1 : 0;
    progress.start("goal bounds", passable);
    const GridGoalBounds::Progress report = [&](std::size_t done, std::size_t) { progress.update(done); };
    const auto threads = static_cast<int>(arguments.build_threads);
    bounds.emplace();
    bounds->threads = threads;
    if (range) {
      const GridGoalBoundsPart part(map, first, last, report, threads);
      progress.clear();
      part.save(arguments.goal_bounds_path);
      bounds->seconds = part.build_seconds();
      bounds->memory_bytes = sizeof part + part.boxes().capacity() * sizeof(GoalBox);
    } else {
      const GridGoalBounds whole(map, report, threads);
      progress.clear();
      whole.save(arguments.goal_bounds_path);
      bounds->seconds = whole.build_seconds();
      bounds->memory_bytes = whole.memory_bytes();
    }
    bounds->file_bytes = std::filesystem::file_size(arguments.goal_bounds_path);
  }
  if (arguments.json) {
    nlohmann::ordered_json json;
    json["map"] = arguments.map_path;
    json["table"] = arguments.output_path;
    json["width"] = map.width();
    json["height"] = map.height();
    json["preprocess_ms"] = milliseconds;
    json["table_bytes"] = table_bytes;
    json["file_bytes"] = file_bytes;
    json["goal_bounds"] = bounds ? nlohmann::ordered_json(arguments.goal_bounds_path) : nullptr;
    json["goal_bounds_range"] =
        range ? nlohmann::ordered_json::array({range->first, range->second}) : nlohmann::ordered_json(nullptr);
    json["goal_bounds_ms"] = bounds ? nlohmann::ordered_json(bounds->seconds * 1000.0) : nullptr;
    json["goal_bounds_threads"] = bounds ? nlohmann::ordered_json(bounds->threads) : nullptr;
    json["goal_bounds_bytes"] = bounds ? nlohmann::ordered_json(bounds->memory_bytes) : nullptr;
    json["goal_bounds_file_bytes"] = bounds ? nlohmann::ordered_json(bounds->file_bytes) : nullptr;
    out << json.dump() << '\n';
  } else {
    out << "map:   " << arguments.map_path << " (" << map.width() << "x" << map.height() << ")\n"
        << "table: " << arguments.output_path << " (" << file_bytes << " bytes), built in "
        << format_fixed(milliseconds, 1) << " ms\n";
    if (bounds)
      out << "goal bounds" << (range ? " of the cells [" + std::to_string(range->first) + ", " +
                                           std::to_string(range->second) + ") (a part)"
                                     : std::string())
          << ": " << arguments.goal_bounds_path << " (" << bounds->file_bytes << " bytes), built in "
          << format_fixed(bounds->seconds * 1000.0, 1) << " ms on " << bounds->threads << " threads\n";
  }
  return exit_ok;
}

}  // namespace wayfinder::cli
