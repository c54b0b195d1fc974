#include "wayfinder/voxel/voxel_benchmark_io.hpp"

#include <charconv>
#include <climits>
#include <cmath>
#include <optional>
#include <system_error>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/text_file.hpp"

namespace wayfinder {

namespace {

struct Field {
  std::string_view text;
  int column = 0;  ///< 1-based
};

/// Lines of a text with their 1-based numbers; a final line break starts no extra line.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);  // a UTF-8 byte order mark is not content
  }
  bool next(std::string_view& line, int& number) {
    if (position_ >= text_.size()) return false;
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    line = text_.substr(position_, stop - position_);
    if (line.ends_with('\r')) line.remove_suffix(1);
    position_ = end == std::string_view::npos ? text_.size() : end + 1;
    if (number_ < INT_MAX) ++number_;
    number = number_;
    return true;
  }
  [[nodiscard]] int last_number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  int number_ = 0;
};

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    const std::size_t begin = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    fields.push_back({line.substr(begin, i - begin), static_cast<int>(std::min<std::size_t>(begin + 1, INT_MAX))});
  }
  return fields;
}

/// A piece of input for a message: printable ASCII, other bytes escaped, at most 40 shown.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < 40; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F && byte != '\'' && byte != '\\') {
      out += static_cast<char>(byte);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  if (text.size() > 40) out += "...";
  return out + "'";
}

class Parser {
 public:
  explicit Parser(const std::string& source_name) : source_(source_name) {}

  [[noreturn]] void fail(int line, int column, const std::string& cause) const { throw LoadError(source_, line, column, cause); }

  int integer(const Field& field, int line, std::string_view what, std::int64_t low, std::int64_t high) const {
    std::int64_t value = 0;
    const char* last = field.text.data() + field.text.size();
    const auto [end, error] = std::from_chars(field.text.data(), last, value);
    if (error == std::errc::result_out_of_range) fail(line, field.column, std::string(what) + " " + quoted(field.text) + " is out of range");
    if (error != std::errc{} || end != last) fail(line, field.column, "non-numeric " + std::string(what) + " " + quoted(field.text));
    if (value < low || value > high)
      fail(line, field.column, std::string(what) + " " + quoted(field.text) + " is outside " + std::to_string(low) + ".." +
                                   std::to_string(high));
    return static_cast<int>(value);
  }

  double length(const Field& field, int line, std::string_view what) const {
    double value = 0.0;
    const char* last = field.text.data() + field.text.size();
    const auto [end, error] = std::from_chars(field.text.data(), last, value, std::chars_format::general);
    if (error != std::errc{} || end != last) fail(line, field.column, "non-numeric " + std::string(what) + " " + quoted(field.text));
    if (!std::isfinite(value) || value < 0.0)
      fail(line, field.column, std::string(what) + " " + quoted(field.text) + " must be finite and not negative");
    return value;
  }

 private:
  const std::string& source_;
};

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

VoxelWorld parse_voxel_benchmark_map(std::string_view text, const std::string& source_name) {
  const Parser parser(source_name);
  Lines lines(text);
  std::string_view line;
  int number = 0;
  bool have_header = false;
  while (!have_header) {
    if (!lines.next(line, number)) parser.fail(lines.last_number() + 1, 0, "missing header 'voxel WIDTH HEIGHT DEPTH'");
    if (!blank(line)) have_header = true;
  }
  const std::vector<Field> header = split_fields(line);
  if (header[0].text != "voxel") parser.fail(number, header[0].column, "expected 'voxel', found " + quoted(header[0].text));
  if (header.size() != 4) parser.fail(number, 1, "the header needs 'voxel WIDTH HEIGHT DEPTH'");
  constexpr std::int64_t largest_side = 1 << 20;
  const int size_x = parser.integer(header[1], number, "width", 1, largest_side);
  const int size_y = parser.integer(header[2], number, "height", 1, largest_side);
  const int size_z = parser.integer(header[3], number, "depth", 1, largest_side);
  if (const std::string problem = VoxelWorld::size_problem(size_x, size_y, size_z); !problem.empty())
    parser.fail(number, header[1].column, problem);
  VoxelWorld world(size_x, size_y, size_z);
  while (lines.next(line, number)) {
    if (blank(line)) continue;
    const std::vector<Field> fields = split_fields(line);
    if (fields.size() != 3)
      parser.fail(number, fields.size() > 3 ? fields[3].column : 1,
                  "expected 3 coordinates 'x y z', found " + std::to_string(fields.size()) + " fields");
    const int x = parser.integer(fields[0], number, "x", 0, size_x - 1);
    const int y = parser.integer(fields[1], number, "y", 0, size_y - 1);
    const int z = parser.integer(fields[2], number, "z", 0, size_z - 1);
    world.set_block(x, y, z, BlockKind::solid);
  }
  return world;
}

VoxelWorld read_voxel_benchmark_map(const std::filesystem::path& path) {
  return parse_voxel_benchmark_map(read_text_file(path), path.string());
}

VoxelScenario parse_voxel_scenario(std::string_view text, const std::string& source_name) {
  const Parser parser(source_name);
  VoxelScenario scenario;
  scenario.source_name = source_name;
  Lines lines(text);
  std::string_view line;
  int number = 0;
  if (!lines.next(line, number)) parser.fail(1, 0, "empty file: expected 'version 1'");
  const std::vector<Field> version = split_fields(line);
  if (version.size() != 2 || version[0].text != "version" || (version[1].text != "1" && version[1].text != "1.0"))
    parser.fail(number, 1, "expected 'version 1', found " + quoted(line));
  if (!lines.next(line, number)) parser.fail(number + 1, 0, "missing the map name line");
  const std::vector<Field> name = split_fields(line);
  if (name.size() != 1) parser.fail(number, 1, "expected the map's file name, found " + quoted(line));
  scenario.map_name = std::string(name[0].text);
  constexpr std::int64_t largest = INT_MAX;
  while (lines.next(line, number)) {
    if (blank(line)) continue;
    const std::vector<Field> fields = split_fields(line);
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

VoxelScenario read_voxel_scenario(const std::filesystem::path& path) {
  return parse_voxel_scenario(read_text_file(path), path.string());
}

std::filesystem::path voxel_scenario_map_path(const std::filesystem::path& scenario_path) {
  std::string text = scenario_path.string();
  if (text.ends_with(".3dscen")) text.resize(text.size() - 7);
  return text;
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
