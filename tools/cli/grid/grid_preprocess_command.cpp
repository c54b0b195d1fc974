#include "grid/grid_preprocess_command.hpp"

#include <filesystem>
#include <optional>
#include <nlohmann/json.hpp>

#include "exit_status.hpp"
#include "grid/grid_table_memory.hpp"
#include "output_paths.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "command_line_values.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

void configure_grid_preprocess_command(CLI::App& command, GridPreprocessArguments& arguments) {
  add_grid_map_argument(command, arguments.map_path);
  command.add_option("-o,--output", arguments.output_path, "where to write the jump table")
      ->required()
      ->type_name("FILE");
  command.add_option("--goal-bounds", arguments.goal_bounds_path,
                     "also build the map's goal bounds for jps-plus and write them here (one Dijkstra search per "
                     "passable cell: minutes on large maps)")
      ->type_name("FILE");
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
      "(grid path, grid bench) refuse it for any other map.");
}

int run_grid_preprocess_command(const GridPreprocessArguments& arguments, std::ostream& out, std::ostream& err) {
  refuse_output_over("-o", arguments.output_path, "the map", arguments.map_path);
  if (!arguments.goal_bounds_path.empty()) {
    refuse_output_over("--goal-bounds", arguments.goal_bounds_path, "the map", arguments.map_path);
    refuse_output_over("--goal-bounds", arguments.goal_bounds_path, "the jump table's file", arguments.output_path);
  }
  const GridMap map = read_movingai_map(arguments.map_path);
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
  std::optional<GridGoalBounds> bounds;
  std::uintmax_t bounds_file_bytes = 0;
  if (!arguments.goal_bounds_path.empty()) {
    std::size_t passable = 0;
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x) passable += map.passable_unchecked(x, y) ? 1 : 0;
    progress.start("goal bounds", passable);
    bounds.emplace(map, [&](std::size_t done, std::size_t) { progress.update(done); },
                   static_cast<int>(arguments.build_threads));
    progress.clear();
    bounds->save(arguments.goal_bounds_path);
    bounds_file_bytes = std::filesystem::file_size(arguments.goal_bounds_path);
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
    json["goal_bounds_ms"] = bounds ? nlohmann::ordered_json(bounds->build_seconds() * 1000.0) : nullptr;
    json["goal_bounds_threads"] = bounds ? nlohmann::ordered_json(bounds->build_threads()) : nullptr;
    json["goal_bounds_bytes"] = bounds ? nlohmann::ordered_json(bounds->memory_bytes()) : nullptr;
    json["goal_bounds_file_bytes"] = bounds ? nlohmann::ordered_json(bounds_file_bytes) : nullptr;
    out << json.dump() << '\n';
  } else {
    out << "map:   " << arguments.map_path << " (" << map.width() << "x" << map.height() << ")\n"
        << "table: " << arguments.output_path << " (" << file_bytes << " bytes), built in "
        << format_fixed(milliseconds, 1) << " ms\n";
    if (bounds)
      out << "goal bounds: " << arguments.goal_bounds_path << " (" << bounds_file_bytes << " bytes), built in "
          << format_fixed(bounds->build_seconds() * 1000.0, 1) << " ms on " << bounds->build_threads()
          << " threads\n";
  }
  return exit_ok;
}

}  // namespace wayfinder::cli
