#include "wayfinder/voxel/voxel_benchmark_io.hpp"

#include <charconv>
#include <climits>
#include <cmath>
#include <optional>
#include <system_error>

#include "../core/file_line_reader.hpp"
#include "../core/text_reader.hpp"

namespace wayfinder {

namespace {

using namespace text_reading;
using text::split_fields;

class Parser {
 public:
  explicit Parser(const std::string& source_name) : source_(source_name) {}

  [[noreturn]] void fail(int line, int column, const std::string& cause) const { throw LoadError(source_, line, column, cause); }

  int integer(const Field& field, int line, std::string_view what, std::int64_t low, std::int64_t high) const {
    std::int64_t value = 0;
    const NumberProblem problem = text::parse_integer(field.text, value);
    if (problem != NumberProblem::none) fail(line, field.column, text::describe(problem, what, field.text));
    if (value < low || value > high)
      fail(line, field.column, std::string(what) + " " + quoted(field.text) + " is outside " + std::to_string(low) + ".." +
                                   std::to_string(high));
    return static_cast<int>(value);
  }

  double length(const Field& field, int line, std::string_view what) const {
    double value = 0.0;
    const NumberProblem problem = text::parse_real(field.text, value);
    if (problem == NumberProblem::not_a_number) fail(line, field.column, text::describe(problem, what, field.text));
    if (problem != NumberProblem::none || value < 0.0)
      fail(line, field.column, std::string(what) + " " + quoted(field.text) + " must be finite and not negative");
    return value;
  }

 private:
  const std::string& source_;
};

// The next line that is not blank, if any.
template <class Lines>
std::optional<Line> next_content_line(Lines& lines) {
  while (std::optional<Line> line = lines.next())
    if (!text::is_blank(line->text)) return line;
  return std::nullopt;
}

}  // namespace

VoxelWorld parse_voxel_benchmark_map(std::string_view text, const std::string& source_name) {
  const Parser parser(source_name);
  text::LineReader lines(text);
  const std::optional<Line> header_line = next_content_line(lines);
  if (!header_line) parser.fail(lines.next_number(), 0, "missing header 'voxel WIDTH HEIGHT DEPTH'");
  const int number = header_line->number;
  const std::vector<Field> header = split_fields(header_line->text);
  if (header[0].text != "voxel") parser.fail(number, header[0].column, "expected 'voxel', found " + quoted(header[0].text));
  if (header.size() != 4) parser.fail(number, 1, "the header needs 'voxel WIDTH HEIGHT DEPTH'");
  constexpr std::int64_t largest_side = 1 << 20;
  const int size_x = parser.integer(header[1], number, "width", 1, largest_side);
  const int size_y = parser.integer(header[2], number, "height", 1, largest_side);
  const int size_z = parser.integer(header[3], number, "depth", 1, largest_side);
  if (const std::optional<std::string> problem = VoxelWorld::size_problem(size_x, size_y, size_z))
    parser.fail(number, header[1].column, *problem);
  VoxelWorld world(size_x, size_y, size_z);
  while (const std::optional<Line> line = next_content_line(lines)) {
    const std::vector<Field> fields = split_fields(line->text);
    if (fields.size() != 3)
      parser.fail(line->number, fields.size() > 3 ? fields[3].column : 1,
                  "expected 3 coordinates 'x y z', found " + std::to_string(fields.size()) + " fields");
    const int x = parser.integer(fields[0], line->number, "x", 0, size_x - 1);
    const int y = parser.integer(fields[1], line->number, "y", 0, size_y - 1);
    const int z = parser.integer(fields[2], line->number, "z", 0, size_z - 1);
    world.set_block(x, y, z, BlockKind::solid);
  }
  world.forget_changes();  // a world read from a file starts at revision 0
  return world;
}

VoxelWorld read_voxel_benchmark_map(const std::filesystem::path& path) {
  return parse_voxel_benchmark_map(read_text_file(path), path.string());
}

namespace {

/// Reads from a LineReader (text in memory) or a FileLineReader (a file, a piece at a time);
/// stops after `max_queries` queries, without reading or checking the lines after them.
template <class Lines>
VoxelScenario parse_scenario_lines(Lines& lines, const std::string& source_name, std::size_t max_queries) {
  const Parser parser(source_name);
  VoxelScenario scenario;
  scenario.source_name = source_name;
  const std::optional<Line> version_line = lines.next();
  if (!version_line) parser.fail(1, 0, "empty file: expected 'version 1'");
  const std::vector<Field> version = split_fields(version_line->text);
  if (version.size() != 2 || version[0].text != "version" || (version[1].text != "1" && version[1].text != "1.0"))
    parser.fail(version_line->number, 1, "expected 'version 1', found " + quoted(version_line->text));
  const std::optional<Line> name_line = lines.next();
  if (!name_line) parser.fail(lines.next_number(), 0, "missing the map name line");
  const std::vector<Field> name = split_fields(name_line->text);
  if (name.size() != 1) parser.fail(name_line->number, 1, "expected the map's file name, found " + quoted(name_line->text));
  scenario.map_name = std::string(name[0].text);
  constexpr std::int64_t largest = INT_MAX;
  while (scenario.queries.size() < max_queries) {
    const std::optional<Line> line = next_content_line(lines);
    if (!line) break;
    const int number = line->number;
    const std::vector<Field> fields = split_fields(line->text);
    if (fields.size() != 8)
      parser.fail(number, fields.size() > 8 ? fields[8].column : 1,
                  "expected 8 fields 'sx sy sz gx gy gz length ratio', found " + std::to_string(fields.size()));
    VoxelScenarioQuery query;
    query.start = {parser.integer(fields[0], number, "start x", 0, largest),
                   parser.integer(fields[1], number, "start y", 0, largest),
                   parser.integer(fields[2], number, "start z", 0, largest)};
    query.goal = {parser.integer(fields[3], number, "goal x", 0, largest),
                  parser.integer(fields[4], number, "goal y", 0, largest),
                  parser.integer(fields[5], number, "goal z", 0, largest)};
    query.optimal_length = parser.length(fields[6], number, "optimal length");
    query.heuristic_ratio = parser.length(fields[7], number, "heuristic ratio");
    query.line = number;
    scenario.queries.push_back(query);
  }
  return scenario;
}

}  // namespace

VoxelScenario parse_voxel_scenario(std::string_view text, const std::string& source_name, std::size_t max_queries) {
  text::LineReader lines(text);
  return parse_scenario_lines(lines, source_name, max_queries);
}

VoxelScenario read_voxel_scenario(const std::filesystem::path& path, std::size_t max_queries) {
  text::FileLineReader lines(path);
  return parse_scenario_lines(lines, path.string(), max_queries);
}

std::filesystem::path voxel_scenario_map_path(const std::filesystem::path& scenario_path) {
  std::string text = scenario_path.string();
  if (text.ends_with(".3dscen")) text.resize(text.size() - 7);
  return text;
}

std::optional<std::string> voxel_scenario_map_mismatch(const VoxelScenario& scenario, const std::filesystem::path& map_path) {
  // Scenario files written on Windows may name the map with backslashes.
  std::string written_for = scenario.map_name;
  if (const std::size_t slash = written_for.find_last_of("/\\"); slash != std::string::npos)
    written_for.erase(0, slash + 1);
  const std::string used = map_path.filename().string();
  if (written_for == used) return {};
  return "this scenario was written for " + written_for + ", not " + used;
}

void check_voxel_scenario_fits_world(const VoxelScenario& scenario, const VoxelWorld& world) {
  for (const VoxelScenarioQuery& query : scenario.queries)
    for (const VoxelCoord at : {query.start, query.goal}) {
      const std::string where =
          "(" + std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z) + ")";
      if (!world.contains(at))
        throw LoadError(scenario.source_name, query.line, 0,
                        where + " is outside the " + std::to_string(world.size_x()) + "x" +
                            std::to_string(world.size_y()) + "x" + std::to_string(world.size_z()) + " map");
      if (world.solid(at.x, at.y, at.z)) throw LoadError(scenario.source_name, query.line, 0, where + " is a blocked voxel");
    }
}

}  // namespace wayfinder
