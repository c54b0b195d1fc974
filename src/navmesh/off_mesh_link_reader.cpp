#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

#include <array>
#include <cstdint>
#include <string>

#include "../core/text_fields.hpp"
#include "../core/text_file.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

using text::Field;
using text::NumberProblem;

// One line's link; throws LoadError naming the line and the field's column.
class LinkLineParser {
 public:
  LinkLineParser(const std::string& source_name, int line) : source_name_(source_name), line_(line) {}

  OffMeshLink parse(const std::vector<Field>& fields) {
    OffMeshLink link;
    link.line = line_;
    if (fields.size() < 6)
      fail(fields.empty() ? 1 : fields.back().column,
           "a link needs 6 numbers (x1 y1 z1 x2 y2 z2), found " + std::to_string(fields.size()) + " fields");
    static constexpr std::array<const char*, 6> coordinate_names = {"start x", "start y", "start z",
                                                                    "end x",   "end y",   "end z"};
    std::array<double, 6> coordinates{};
    for (std::size_t i = 0; i < 6; ++i) coordinates[i] = real(fields[i], coordinate_names[i]);
    link.start = {coordinates[0], coordinates[1], coordinates[2]};
    link.end = {coordinates[3], coordinates[4], coordinates[5]};
    for (std::size_t i = 6; i < fields.size(); ++i) read_option(fields[i], link);
    return link;
  }

 private:
  [[noreturn]] void fail(int column, std::string cause) const {
    throw LoadError(source_name_, line_, column, std::move(cause));
  }

  double real(const Field& field, std::string_view what, std::string_view text) const {
    double value = 0.0;
    if (const NumberProblem problem = text::parse_real(text, value, text::PlusSign::allowed); problem != NumberProblem::none)
      fail(field.column, text::describe(problem, what, text));
    return value;
  }
  double real(const Field& field, std::string_view what) const { return real(field, what, field.text); }

  template <class Integer>
  Integer integer(const Field& field, std::string_view what, std::string_view text, std::uint64_t largest) const {
    std::uint64_t value = 0;
    NumberProblem problem = text::parse_integer(text, value, text::PlusSign::allowed);
    if (problem == NumberProblem::none && value > largest) problem = NumberProblem::out_of_range;
    if (problem == NumberProblem::not_a_number && text.starts_with('-')) problem = NumberProblem::negative;
    if (problem != NumberProblem::none)
      fail(field.column, text::describe(problem, what, text) +
                             (problem == NumberProblem::out_of_range || problem == NumberProblem::negative
                                  ? " (0 to " + std::to_string(largest) + ")"
                                  : ""));
    return static_cast<Integer>(value);
  }

  void read_option(const Field& field, OffMeshLink& link) {
    const std::string_view text = field.text;
    if (text == "both" || text == "bidirectional" || text == "oneway") {
      if (seen_direction_) fail(field.column, "the direction is given twice");
      seen_direction_ = true;
      link.bidirectional = text != "oneway";
      return;
    }
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos)
      fail(field.column, "unknown word " + text::quoted(text) +
                             " (expected both, oneway, or cost=, area=, flags=, radius=, id=)");
    const std::string_view key = text.substr(0, equals), value = text.substr(equals + 1);
    auto once = [&](bool& seen) {
      if (seen) fail(field.column, std::string(key) + " is given twice");
      seen = true;
    };
    if (key == "cost") {
      once(seen_cost_);
      const double cost = real(field, "cost", value);
      if (cost < 0.0) fail(field.column, text::describe(NumberProblem::negative, "cost", value));
      link.cost = cost;
    } else if (key == "radius") {
      once(seen_radius_);
      link.radius = real(field, "radius", value);
      if (link.radius < 0.0) fail(field.column, text::describe(NumberProblem::negative, "radius", value));
    } else if (key == "area") {
      once(seen_area_);
      link.area = integer<AreaId>(field, "area", value, max_areas - 1);
    } else if (key == "flags") {
      once(seen_flags_);
      link.flags = integer<AreaFlags>(field, "flags", value, 0xffff);
    } else if (key == "id") {
      once(seen_id_);
      link.user_id = integer<std::uint32_t>(field, "id", value, 0xffffffffu);
    } else {
      fail(field.column, "unknown key " + text::quoted(key) + " (expected cost, area, flags, radius or id)");
    }
  }

  const std::string& source_name_;
  int line_;
  bool seen_direction_ = false, seen_cost_ = false, seen_radius_ = false, seen_area_ = false, seen_flags_ = false,
       seen_id_ = false;
};

}  // namespace

std::vector<OffMeshLink> parse_off_mesh_links(std::string_view text_in, const std::string& source_name) {
  std::vector<OffMeshLink> links;
  text::LineReader lines(text_in);
  std::vector<Field> fields;
  while (const std::optional<text::Line> line = lines.next()) {
    std::string_view content = line->text;
    if (const std::size_t hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
    text::split_fields(content, fields);
    if (fields.empty()) continue;
    links.push_back(LinkLineParser(source_name, line->number).parse(fields));
  }
  return links;
}

std::vector<OffMeshLink> read_off_mesh_links(const std::filesystem::path& file) {
  return parse_off_mesh_links(read_text_file(file), file.string());
}

}  // namespace wayfinder
