#pragma once
// Readers for the MovingAI grid benchmark formats (Sturtevant 2012,
// https://movingai.com/benchmarks/formats.html): `.map` tile maps and `.scen` query lists.
// Every error throws LoadError naming the file, line, column and cause.

#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/terrain_table.hpp"

namespace wayfinder {

/// Parses a map from text; `source_name` names it in errors. Accepts LF or CRLF, tabs or spaces
/// between header words, and header lines in any order before `map`.
GridMap parse_movingai_map(std::string_view text, const std::string& source_name,
                           const TerrainTable& terrain = TerrainTable::movingai());
/// Reads a map file.
GridMap read_movingai_map(const std::filesystem::path& path, const TerrainTable& terrain = TerrainTable::movingai());

struct ScenarioQuery {
  int bucket = 0;
  std::string map_name;  ///< the upstream map path written in the line (not used to find the map)
  int map_width = 0;
  int map_height = 0;
  Cell start;
  Cell goal;
  double optimal_length = 0.0;
  int line = 0;  ///< line number in the file, for messages
};

struct Scenario {
  std::string source_name;
  std::vector<ScenarioQuery> queries;
};

/// Parses a scenario (`version 1` or `version 1.0`, tab- or space-separated, LF or CRLF).
/// With `max_queries`, stops after that many queries: what follows them is not read, so it is
/// not checked either, and a run on the first queries of a huge file costs only those lines.
Scenario parse_movingai_scenario(std::string_view text, const std::string& source_name,
                                 std::size_t max_queries = std::numeric_limits<std::size_t>::max());
/// Reads the file a piece at a time, and only as far as `max_queries` queries.
Scenario read_movingai_scenario(const std::filesystem::path& path,
                                std::size_t max_queries = std::numeric_limits<std::size_t>::max());

/// The map that belongs to a scenario file: its path minus the `.scen` suffix.
std::filesystem::path scenario_map_path(const std::filesystem::path& scenario_path);

/// Throws LoadError if a query does not fit the map: declared size differs, a coordinate is
/// outside it, or a start or goal cell is blocked.
void check_scenario_fits_map(const Scenario& scenario, const GridMap& map);

}  // namespace wayfinder
