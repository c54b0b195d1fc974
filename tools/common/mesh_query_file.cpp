#include "common/mesh_query_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/file_line_reader.hpp"
#include "core/text_reader.hpp"

namespace wayfinder {
namespace {

using namespace text_reading;

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t'; });
}

std::string_view trim(std::string_view text, int& column) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
    ++column;
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// Splits a CSV line at commas (no quoting: these files hold only numbers and names).
void split_csv(std::string_view line, std::vector<Field>& fields) {
  fields.clear();
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = line.find(',', begin);
    const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
    int column = static_cast<int>(std::min<std::size_t>(begin, INT_MAX - 1)) + 1;
    const std::string_view text = trim(line.substr(begin, end - begin), column);
    fields.push_back({text, column});
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
}

/// Reads from a LineReader (text in memory) or a FileLineReader (a file, a piece at a time);
/// stops after `max_queries` queries, without reading or checking the lines after them.
template <class Lines>
class QueryFileParser {
 public:
  QueryFileParser(Lines& lines, const std::string& source_name, std::size_t max_queries)
      : lines_(lines), source_name_(source_name), max_queries_(max_queries) {}

  std::vector<MeshQueryCase> parse() {
    std::optional<Line> first;
    while ((first = lines_.next()) && is_blank(first->text)) {
    }
    if (!first) fail(0, 0, "empty file: expected a query CSV header or a MovingAI scenario ('version 1')");
    text::split_fields(first->text, fields_);
    if (fields_.front().text == "version") {
      read_scenario_version(*first);
      return read_scenario();
    }
    if (first->text.find(',') == std::string_view::npos) {
      const bool scenario_name = source_name_.ends_with(".scen");
      fail(first->number, 1,
           scenario_name ? "expected 'version 1' at the start of a MovingAI scenario, found " + quoted(first->text)
                         : "unrecognised query file: expected a CSV header (sx,sy,sz,ex,ey,ez,... or "
                           "id,sx,sy,gx,gy,gridcost,optimal_len) or a MovingAI scenario ('version 1'), found " +
                               quoted(first->text));
    }
    return read_csv(*first);
  }

 private:
  [[noreturn]] void fail(int line, int column, std::string cause) const {
    throw LoadError(source_name_, line, column, std::move(cause));
  }

  double read_real(int line, const Field& field, std::string_view what) const {
    double value = 0.0;
    const NumberProblem problem = text::parse_real(field.text, value, text::PlusSign::allowed);
    if (problem != NumberProblem::none) fail(line, field.column, text::describe(problem, what, field.text));
    return value;
  }

  std::int64_t read_integer(int line, const Field& field, std::string_view what) const {
    std::int64_t value = 0;
    const NumberProblem problem = text::parse_integer(field.text, value, text::PlusSign::allowed);
    if (problem != NumberProblem::none) fail(line, field.column, text::describe(problem, what, field.text));
    return value;
  }

  // ---- CSV ----------------------------------------------------------------------------------

  enum Column : std::size_t {
    start_x,
    start_y,
    start_z,
    goal_x,
    goal_y,
    goal_z,
    start_polygon,
    goal_polygon,
    reachable,
    optimal,
    column_count
  };
  static constexpr std::size_t absent = static_cast<std::size_t>(-1);

  std::vector<MeshQueryCase> read_csv(const Line& header) {
    std::vector<Field> names;
    split_csv(header.text, names);
    auto find = [&](std::string_view name) -> std::size_t {
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i].text == name) return i;
      return absent;
    };
    for (std::size_t i = 0; i < names.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (!names[i].text.empty() && names[i].text == names[j].text)
          fail(header.number, names[i].column, "duplicate column " + quoted(names[i].text));

    std::array<std::size_t, column_count> at{};
    at.fill(absent);
    bool three_dimensional = false;
    if (find("ex") != absent || find("sz") != absent) {
      // The reference-query format: world points (x, y, z).
      three_dimensional = true;
      static constexpr std::string_view required[] = {"sx", "sy", "sz", "ex", "ey", "ez"};
      for (std::size_t k = 0; k < std::size(required); ++k) {
        at[k] = find(required[k]);
        if (at[k] == absent)
          fail(header.number, 1,
               "the header has no column " + quoted(required[k]) + " (a reference-query CSV needs sx,sy,sz,ex,ey,ez)");
      }
      at[start_polygon] = find("start_poly");
      at[goal_polygon] = find("end_poly");
      at[reachable] = find("reachable");
      at[optimal] = find("optimal_len2d");
    } else {
      // The Polyanya format: 2D points (x, y) on the ground plane.
      static constexpr std::string_view required[] = {"sx", "sy", "gx", "gy"};
      constexpr Column targets[] = {start_x, start_z, goal_x, goal_z};
      for (std::size_t k = 0; k < std::size(required); ++k) {
        at[targets[k]] = find(required[k]);
        if (at[targets[k]] == absent)
          fail(header.number, 1,
               "the header has no column " + quoted(required[k]) +
                   " (expected sx,sy,sz,ex,ey,ez,... or id,sx,sy,gx,gy,gridcost,optimal_len)");
      }
      at[optimal] = find("optimal_len");
    }

    std::vector<MeshQueryCase> queries;
    std::vector<Field> fields;
    while (queries.size() < max_queries_) {
      const std::optional<Line> line = lines_.next();
      if (!line) break;
      if (is_blank(line->text)) continue;
      split_csv(line->text, fields);
      if (fields.size() != names.size())
        fail(line->number,
             fields.size() > names.size() ? fields[names.size()].column : static_cast<int>(line->text.size()) + 1,
             "expected " + std::to_string(names.size()) + " fields as in the header, found " +
                 std::to_string(fields.size()));
      MeshQueryCase query;
      query.line = line->number;
      auto real = [&](Column column, std::string_view what) {
        return read_real(line->number, fields[at[column]], what);
      };
      query.start.x = real(start_x, "start x");
      query.goal.x = real(goal_x, "goal x");
      query.start.z = real(start_z, three_dimensional ? "start z" : "start y");
      query.goal.z = real(goal_z, three_dimensional ? "goal z" : "goal y");
      if (three_dimensional) {
        query.start.y = real(start_y, "start y");
        query.goal.y = real(goal_y, "goal y");
      }
      for (const auto& [column, target, what] : {std::tuple{start_polygon, &query.start_polygon, "start polygon"},
                                                 std::tuple{goal_polygon, &query.goal_polygon, "end polygon"}}) {
        if (at[column] == absent) continue;
        const Field& field = fields[at[column]];
        *target = read_integer(line->number, field, what);
        if (*target < -1)
          fail(line->number, field.column, std::string(what) + " " + quoted(field.text) + " is below -1");
      }
      if (at[reachable] != absent) {
        const Field& field = fields[at[reachable]];
        if (field.text != "0" && field.text != "1")
          fail(line->number, field.column, "reachable must be 0 or 1, found " + quoted(field.text));
        query.reachable = field.text == "1";
      }
      if (at[optimal] != absent) {
        const double length = real(optimal, "optimal length");
        if (length < 0.0) {
          // -1 marks an unreachable query.
          if (query.reachable == true)
            fail(line->number, fields[at[optimal]].column, "negative optimal length for a reachable query");
          query.reachable = false;
        } else {
          if (query.reachable == false)
            fail(line->number, fields[at[optimal]].column,
                 "optimal length " + quoted(fields[at[optimal]].text) + " for an unreachable query (expected -1)");
          // A shortest length was found, so a path exists.
          query.reachable = true;
          query.optimal_length = length;
        }
      }
      queries.push_back(query);
    }
    return queries;
  }

  // ---- MovingAI scenario --------------------------------------------------------------------

  void read_scenario_version(const Line& line) {
    if (fields_.size() < 2) fail(line.number, fields_[0].column + 7, "missing version number after 'version'");
    if (fields_[1].text != "1" && fields_[1].text != "1.0")
      fail(line.number, fields_[1].column, "unsupported scenario version " + quoted(fields_[1].text) + " (expected 1)");
    if (fields_.size() > 2)
      fail(line.number, fields_[2].column, "unexpected " + quoted(fields_[2].text) + " after the version");
  }

  /// Lines "bucket map width height start_x start_y goal_x goal_y length". The coordinates may
  /// have fractions (Polyanya's test scenarios place points between vertices).
  std::vector<MeshQueryCase> read_scenario() {
    constexpr std::size_t field_count = 9;
    std::vector<MeshQueryCase> queries;
    while (queries.size() < max_queries_) {
      const std::optional<Line> line = lines_.next();
      if (!line) break;
      text::split_fields(line->text, fields_);
      if (fields_.empty()) continue;
      if (fields_.size() != field_count)
        fail(line->number,
             fields_.size() > field_count ? fields_[field_count].column : static_cast<int>(line->text.size()) + 1,
             "expected " + std::to_string(field_count) + " fields, found " + std::to_string(fields_.size()));
      MeshQueryCase query;
      query.line = line->number;
      read_integer(line->number, fields_[0], "bucket");
      read_integer(line->number, fields_[2], "map width");
      read_integer(line->number, fields_[3], "map height");
      query.start = {read_real(line->number, fields_[4], "start x"), 0.0,
                     read_real(line->number, fields_[5], "start y")};
      query.goal = {read_real(line->number, fields_[6], "goal x"), 0.0, read_real(line->number, fields_[7], "goal y")};
      // The last column is an 8-connected grid cost (or a test's own value): checked, not used.
      read_real(line->number, fields_[8], "length");
      queries.push_back(query);
    }
    return queries;
  }

  Lines& lines_;
  const std::string& source_name_;
  std::size_t max_queries_;
  std::vector<Field> fields_;
};

}  // namespace

std::vector<MeshQueryCase> parse_mesh_queries(std::string_view text, const std::string& source_name,
                                              std::size_t max_queries) {
  text::LineReader lines(text, text::LineBreaks::also_lone_cr);
  return QueryFileParser<text::LineReader>(lines, source_name, max_queries).parse();
}

std::vector<MeshQueryCase> read_mesh_queries(const std::filesystem::path& file, std::size_t max_queries) {
  text::FileLineReader lines(file, text::LineBreaks::also_lone_cr);
  return QueryFileParser<text::FileLineReader>(lines, file.string(), max_queries).parse();
}

}  // namespace wayfinder
