#include "wayfinder/grid/world/movingai_io.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <system_error>
#include <utility>

#include "core/file_line_reader.hpp"
#include "core/text_reader.hpp"

namespace wayfinder {

namespace {

using namespace text_reading;
using text::LineReader;
using text::describe;
using text::is_blank;
using text::split_fields;

// MovingAI files hold only non-negative numbers.
template <class Integer>
NumberProblem parse_integer(std::string_view field, Integer& value) {
  const NumberProblem problem = text::parse_integer(field, value);
  return problem == NumberProblem::none && value < 0 ? NumberProblem::negative : problem;
}

NumberProblem parse_length(std::string_view field, double& value) {
  const NumberProblem problem = text::parse_real(field, value);
  return problem == NumberProblem::none && value < 0.0 ? NumberProblem::negative : problem;
}

// ---------------------------------------------------------------------------------------------
// .map

enum class HeaderKeyword : std::uint8_t { type, height, width, count };
constexpr std::array<std::string_view, 3> header_keyword_names = {"type", "height", "width"};

struct HeaderValue {
  Field value;
  int line = 0;  ///< 0 while the keyword has not been seen
};

struct MapHeader {
  std::array<HeaderValue, static_cast<std::size_t>(HeaderKeyword::count)> values{};
  std::int64_t width = 0;
  std::int64_t height = 0;
  int map_line = 0;  ///< the line that says `map`
};

class MapParser {
 public:
  MapParser(std::string_view text, const std::string& source_name, const TerrainTable& terrain)
      : lines_(text), source_name_(source_name), terrain_(terrain) {}

  GridMap parse() {
    read_header();
    const std::vector<Line> rows = read_rows();
    expect_nothing_after_rows();
    return build_map(rows);
  }

 private:
  [[noreturn]] void fail(int line, int column, std::string cause) const {
    throw LoadError(source_name_, line, column, std::move(cause));
  }

  void read_header() {
    bool saw_any_line = false;
    while (const std::optional<Line> line = lines_.next()) {
      saw_any_line = true;
      const std::vector<Field> fields = split_fields(line->text);
      if (fields.empty()) continue;  // blank lines between header lines are harmless
      const Field& keyword = fields.front();
      if (keyword.text == "map") {
        if (fields.size() > 1) fail(line->number, fields[1].column, "unexpected " + quoted(fields[1].text) + " after 'map'");
        header_.map_line = line->number;
        check_header_complete();
        return;
      }
      const std::optional<HeaderKeyword> known = header_keyword(keyword.text);
      if (!known)
        fail(line->number, keyword.column,
             "unknown header keyword " + quoted(keyword.text) + " (expected type, height, width or map)");
      HeaderValue& slot = header_.values[static_cast<std::size_t>(*known)];
      if (slot.line != 0)
        fail(line->number, keyword.column,
             "duplicate " + quoted(keyword.text) + " line (first given on line " + std::to_string(slot.line) + ")");
      if (fields.size() < 2) fail(line->number, keyword.column + static_cast<int>(keyword.text.size()),
                                  "missing value after " + quoted(keyword.text));
      if (fields.size() > 2)
        fail(line->number, fields[2].column, "unexpected " + quoted(fields[2].text) + " after the " +
                                                 std::string(keyword.text) + " value");
      slot = {fields[1], line->number};
      read_header_value(*known, slot);
    }
    if (!saw_any_line) fail(0, 0, "empty file: expected a MovingAI map header (type octile, height, width, map)");
    fail(lines_.next_number(), 0, "the file ends before the 'map' line that starts the map rows");
  }

  static std::optional<HeaderKeyword> header_keyword(std::string_view text) {
    for (std::size_t i = 0; i < header_keyword_names.size(); ++i)
      if (text == header_keyword_names[i]) return static_cast<HeaderKeyword>(i);
    return std::nullopt;
  }

  void read_header_value(HeaderKeyword keyword, const HeaderValue& slot) {
    if (keyword == HeaderKeyword::type) {
      if (slot.value.text != "octile")
        fail(slot.line, slot.value.column, "unsupported map type " + quoted(slot.value.text) + " (expected 'octile')");
      return;
    }
    const std::string_view name = header_keyword_names[static_cast<std::size_t>(keyword)];
    std::int64_t value = 0;
    const NumberProblem problem = parse_integer(slot.value.text, value);
    if (problem == NumberProblem::out_of_range)
      fail(slot.line, slot.value.column, "map too large: " + std::string(name) + " " + quoted(slot.value.text) +
                                             " exceeds the limit of " + std::to_string(max_grid_side) +
                                             " cells per side");
    if (problem != NumberProblem::none) fail(slot.line, slot.value.column, describe(problem, name, slot.value.text));
    if (value == 0) fail(slot.line, slot.value.column, std::string(name) + " must be at least 1");
    (keyword == HeaderKeyword::width ? header_.width : header_.height) = value;
  }

  void check_header_complete() const {
    for (std::size_t i = 0; i < header_keyword_names.size(); ++i)
      if (header_.values[i].line == 0)
        fail(header_.map_line, 1, "missing '" + std::string(header_keyword_names[i]) + "' line before 'map'");
    // The size is checked here, before anything is allocated, so that a forged header cannot make
    // the reader ask for gigabytes.
    const std::string size_text = std::to_string(header_.width) + " x " + std::to_string(header_.height);
    if (header_.width > max_grid_side || header_.height > max_grid_side) {
      const HeaderValue& culprit = header_.values[static_cast<std::size_t>(
          header_.width > max_grid_side ? HeaderKeyword::width : HeaderKeyword::height)];
      fail(culprit.line, culprit.value.column, "map too large: " + size_text + " cells exceeds the limit of " +
                                                   std::to_string(max_grid_side) + " cells per side");
    }
    if (header_.width * header_.height > max_grid_cells)
      fail(header_.map_line, 1, "map too large: " + size_text + " cells exceeds the limit of " +
                                    std::to_string(max_grid_cells) + " cells");
  }

  /// Reads and checks every row before the map is allocated: a truncated or corrupt file fails
  /// without the cost of building a large grid first.
  std::vector<Line> read_rows() {
    const auto height = static_cast<std::size_t>(header_.height);
    const auto width = static_cast<std::size_t>(header_.width);
    std::vector<Line> rows;
    // Rows are views into the text, so the file's size bounds what the vector may need.
    rows.reserve(std::min<std::size_t>(height, 4096));
    while (rows.size() < height) {
      const std::optional<Line> line = lines_.next();
      if (!line || (line->text.size() != width && is_blank(line->text) && rest_is_blank())) {
        fail(line ? line->number : lines_.next_number(), 0,
             "truncated file: expected " + std::to_string(height) + " map rows, found " + std::to_string(rows.size()));
      }
      if (line->text.size() != width)
        fail(line->number, static_cast<int>(std::min(line->text.size(), width)) + 1,
             "wrong map row length: expected " + std::to_string(width) + " characters, found " +
                 std::to_string(line->text.size()));
      for (std::size_t x = 0; x < width; ++x) {
        if (terrain_.lookup(line->text[x]).kind == Terrain::Kind::unknown)
          fail(line->number, static_cast<int>(x) + 1, "unexpected character " + quoted(line->text.substr(x, 1)));
      }
      rows.push_back(*line);
    }
    return rows;
  }

  /// True when nothing but blank lines remain (used to tell a truncated file from a short row).
  [[nodiscard]] bool rest_is_blank() const {
    LineReader copy = lines_;
    while (const std::optional<Line> line = copy.next())
      if (!is_blank(line->text)) return false;
    return true;
  }

  void expect_nothing_after_rows() {
    while (const std::optional<Line> line = lines_.next()) {
      if (!is_blank(line->text))
        fail(line->number, 1, "unexpected text after the " + std::to_string(header_.height) + " map rows: " +
                                  quoted(line->text));
    }
  }

  GridMap build_map(const std::vector<Line>& rows) const {
    const int width = static_cast<int>(header_.width);
    const int height = static_cast<int>(header_.height);
    GridMap map(width, height);
    for (int y = 0; y < height; ++y) {
      const std::string_view row = rows[static_cast<std::size_t>(y)].text;
      for (int x = 0; x < width; ++x) {
        const Terrain terrain = terrain_.lookup(row[static_cast<std::size_t>(x)]);
        if (terrain.kind == Terrain::Kind::blocked)
          map.set_passable(x, y, false);
        else if (terrain.cost != 1.0f)  // a new map is passable at cost 1 already
          map.set_cost(x, y, terrain.cost);
      }
    }
    map.forget_changes();  // a map read from a file starts at revision 0
    return map;
  }

  LineReader lines_;
  const std::string& source_name_;
  const TerrainTable& terrain_;
  MapHeader header_;
};

// ---------------------------------------------------------------------------------------------
// .scen

constexpr std::size_t scenario_field_count = 9;

/// Reads from a LineReader (text in memory) or a FileLineReader (a file, a piece at a time).
template <class Lines>
class ScenarioParser {
 public:
  ScenarioParser(Lines& lines, const std::string& source_name) : lines_(lines), source_name_(source_name) {}

  /// Stops reading after `max_queries` queries: the lines after them are neither read nor checked.
  Scenario parse(std::size_t max_queries) {
    Scenario scenario;
    scenario.source_name = source_name_;
    read_version();
    std::vector<Field> fields;
    while (scenario.queries.size() < max_queries) {
      const std::optional<Line> line = lines_.next();
      if (!line) break;
      split_fields(line->text, fields);
      if (fields.empty()) continue;
      scenario.queries.push_back(read_query(*line, fields));
    }
    return scenario;
  }

 private:
  [[noreturn]] void fail(int line, int column, std::string cause) const {
    throw LoadError(source_name_, line, column, std::move(cause));
  }

  void read_version() {
    while (const std::optional<Line> line = lines_.next()) {
      const std::vector<Field> fields = split_fields(line->text);
      if (fields.empty()) continue;
      if (fields[0].text != "version")
        fail(line->number, fields[0].column,
             "expected the line 'version 1' or 'version 1.0' first, found " + quoted(fields[0].text));
      if (fields.size() < 2) fail(line->number, fields[0].column + 7, "missing version number after 'version'");
      if (fields[1].text != "1" && fields[1].text != "1.0")
        fail(line->number, fields[1].column,
             "unsupported scenario version " + quoted(fields[1].text) + " (expected 1 or 1.0)");
      if (fields.size() > 2) fail(line->number, fields[2].column, "unexpected " + quoted(fields[2].text) + " after the version");
      return;
    }
    fail(0, 0, "empty file: expected a MovingAI scenario starting with 'version 1'");
  }

  ScenarioQuery read_query(const Line& line, const std::vector<Field>& fields) const {
    if (fields.size() != scenario_field_count) {
      const int column = fields.size() > scenario_field_count ? fields[scenario_field_count].column
                                                              : static_cast<int>(line.text.size()) + 1;
      fail(line.number, column, "expected " + std::to_string(scenario_field_count) + " fields, found " +
                                    std::to_string(fields.size()));
    }
    ScenarioQuery query;
    query.line = line.number;
    query.bucket = read_integer(line, fields[0], "bucket");
    query.map_name = std::string(fields[1].text);
    query.map_width = read_integer(line, fields[2], "map width");
    query.map_height = read_integer(line, fields[3], "map height");
    if (query.map_width == 0) fail(line.number, fields[2].column, "map width must be at least 1");
    if (query.map_height == 0) fail(line.number, fields[3].column, "map height must be at least 1");
    query.start = {read_integer(line, fields[4], "start x"), read_integer(line, fields[5], "start y")};
    query.goal = {read_integer(line, fields[6], "goal x"), read_integer(line, fields[7], "goal y")};
    // A query must at least fit the map size it declares; check_scenario_fits_map compares it
    // with the real map.
    check_inside(line, fields[4], "start x", query.start.x, query.map_width, "width");
    check_inside(line, fields[5], "start y", query.start.y, query.map_height, "height");
    check_inside(line, fields[6], "goal x", query.goal.x, query.map_width, "width");
    check_inside(line, fields[7], "goal y", query.goal.y, query.map_height, "height");
    const NumberProblem problem = parse_length(fields[8].text, query.optimal_length);
    if (problem != NumberProblem::none) fail(line.number, fields[8].column, describe(problem, "optimal length", fields[8].text));
    return query;
  }

  int read_integer(const Line& line, const Field& field, std::string_view what) const {
    int value = 0;
    const NumberProblem problem = parse_integer(field.text, value);
    if (problem != NumberProblem::none) fail(line.number, field.column, describe(problem, what, field.text));
    return value;
  }

  void check_inside(const Line& line, const Field& field, std::string_view what, int value, int limit,
                    std::string_view dimension) const {
    if (value >= limit)
      fail(line.number, field.column, std::string(what) + " " + std::to_string(value) + " is outside the map (" +
                                          std::string(dimension) + " " + std::to_string(limit) + ")");
  }

  Lines& lines_;
  const std::string& source_name_;
};

std::string cell_text(Cell cell) { return "(" + std::to_string(cell.x) + ", " + std::to_string(cell.y) + ")"; }

}  // namespace

GridMap parse_movingai_map(std::string_view text, const std::string& source_name, const TerrainTable& terrain) {
  return MapParser(text, source_name, terrain).parse();
}

GridMap read_movingai_map(const std::filesystem::path& path, const TerrainTable& terrain) {
  return parse_movingai_map(read_text_file(path), path.string(), terrain);
}

Scenario parse_movingai_scenario(std::string_view text, const std::string& source_name, std::size_t max_queries) {
  LineReader lines(text);
  return ScenarioParser<LineReader>(lines, source_name).parse(max_queries);
}

Scenario read_movingai_scenario(const std::filesystem::path& path, std::size_t max_queries) {
  text::FileLineReader lines(path);
  return ScenarioParser<text::FileLineReader>(lines, path.string()).parse(max_queries);
}

std::filesystem::path scenario_map_path(const std::filesystem::path& scenario_path) {
  if (scenario_path.extension() != ".scen")
    throw LoadError(scenario_path.string(), 0, 0,
                    "cannot tell the map of a scenario whose name does not end in .scen; name the map explicitly");
  std::filesystem::path map_path = scenario_path;
  map_path.replace_extension();
  return map_path;
}

void check_scenario_fits_map(const Scenario& scenario, const GridMap& map) {
  for (const ScenarioQuery& query : scenario.queries) {
    auto fail = [&](const std::string& cause) { throw LoadError(scenario.source_name, query.line, 0, cause); };
    if (query.map_width != map.width() || query.map_height != map.height())
      fail("the query is for a " + std::to_string(query.map_width) + " x " + std::to_string(query.map_height) +
           " map, but the map is " + std::to_string(map.width()) + " x " + std::to_string(map.height()));
    for (const auto& [name, cell] : {std::pair{"start", query.start}, std::pair{"goal", query.goal}}) {
      if (!map.contains(cell))
        fail(std::string(name) + " " + cell_text(cell) + " is outside the " + std::to_string(map.width()) + " x " +
             std::to_string(map.height()) + " map");
      if (!map.passable(cell)) fail(std::string(name) + " " + cell_text(cell) + " is on a blocked cell");
    }
  }
}

}  // namespace wayfinder
