#include "grid/grid_merge_goal_bounds_command.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "output_paths.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

void configure_grid_merge_goal_bounds_command(CLI::App& command, GridMergeGoalBoundsArguments& arguments) {
  add_grid_map_argument(command, arguments.map_path);
  command.add_option("parts", arguments.part_paths, "the parts (grid preprocess --goal-bounds-range), in any order")
      ->required()
      ->type_name("PART...");
  add_required_output_option(command, arguments.output_path, "where to write the goal bounds");
  add_json_flag(command, arguments.json);
  command.footer(
      "The parts must cover the map's cells once each (no gaps, no overlaps) and belong to this map (its size and\n"
      "passability checksum); the file written is the one grid preprocess --goal-bounds writes, byte for byte.");
}

int run_grid_merge_goal_bounds_command(const GridMergeGoalBoundsArguments& arguments, std::ostream& out,
                                       std::ostream&) {
  refuse_output_over("-o", arguments.output_path, "the map", arguments.map_path);
  for (const std::string& part : arguments.part_paths)
    refuse_output_over("-o", arguments.output_path, "a part", part);
  const GridMap map = read_movingai_map(arguments.map_path);
  std::vector<GridGoalBoundsPart> parts;
  parts.reserve(arguments.part_paths.size());
  for (const std::string& path : arguments.part_paths) parts.push_back(GridGoalBoundsPart::load(path));
  std::optional<GridGoalBounds> bounds;
  try {
    bounds.emplace(GridGoalBounds::merge(parts, map));
  } catch (const std::invalid_argument& error) {
    throw CommandError(std::string("cannot merge the parts: ") + error.what());
  }
  bounds->save(arguments.output_path);
  const auto file_bytes = std::filesystem::file_size(arguments.output_path);
  if (arguments.json) {
    nlohmann::ordered_json json;
    json["map"] = arguments.map_path;
    json["width"] = map.width();
    json["height"] = map.height();
    json["parts"] = arguments.part_paths;
    json["goal_bounds"] = arguments.output_path;
    json["goal_bounds_file_bytes"] = file_bytes;
    out << json.dump() << '\n';
  } else {
    out << "map:         " << arguments.map_path << " (" << map.width() << "x" << map.height() << ")\n"
        << "goal bounds: " << arguments.output_path << " (" << file_bytes << " bytes), merged from "
        << parts.size() << (parts.size() == 1 ? " part\n" : " parts\n");
  }
  return exit_ok;
}

}  // namespace wayfinder::cli
