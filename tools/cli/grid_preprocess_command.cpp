#include "grid_preprocess_command.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "exit_status.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "wayfinder/grid/grid_jump_table.hpp"
#include "wayfinder/grid/movingai_io.hpp"

namespace wayfinder::cli {

void configure_grid_preprocess_command(CLI::App& command, GridPreprocessArguments& arguments) {
  command.add_option("MAP", arguments.map_path, "MovingAI .map file")->required()->type_name("FILE");
  command.add_option("-o,--output", arguments.output_path, "where to write the jump table")
      ->required()
      ->type_name("FILE");
  command.add_flag("--json", arguments.json, "print one JSON object instead of text");
  command.footer(
      "The table holds, for every cell and each of the 8 directions, the distance to the next jump point or\n"
      "wall under the MovingAI rule (16 bytes per cell). The file records the map's size and a checksum of its\n"
      "passability: --table FILE (grid path, grid bench) refuses it for any other map.");
}

int run_grid_preprocess_command(const GridPreprocessArguments& arguments, std::ostream& out, std::ostream& err) {
  const GridMap map = read_movingai_map(arguments.map_path);
  ProgressBar progress(err, standard_error_is_terminal());
  progress.start("jump table", map.height() * std::size_t{jump_direction_count});
  const GridJumpTable table(map, [&](std::size_t done, std::size_t) { progress.update(done); });
  progress.clear();
  table.save(arguments.output_path);
  const auto file_bytes = std::filesystem::file_size(arguments.output_path);
  const double milliseconds = table.build_seconds() * 1000.0;
  if (arguments.json) {
    nlohmann::ordered_json json;
    json["map"] = arguments.map_path;
    json["table"] = arguments.output_path;
    json["width"] = map.width();
    json["height"] = map.height();
    json["preprocess_ms"] = milliseconds;
    json["table_bytes"] = table.memory_bytes();
    json["file_bytes"] = file_bytes;
    out << json.dump() << '\n';
  } else {
    out << "map:   " << arguments.map_path << " (" << map.width() << "x" << map.height() << ")\n"
        << "table: " << arguments.output_path << " (" << file_bytes << " bytes), built in "
        << format_fixed(milliseconds, 1) << " ms\n";
  }
  return exit_ok;
}

}  // namespace wayfinder::cli
