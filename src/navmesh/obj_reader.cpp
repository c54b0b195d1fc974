#include "wayfinder/navmesh/obj_reader.hpp"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../core/text_reader.hpp"

namespace wayfinder {
namespace {

using namespace text_reading;

// tinyobjloader parses the file, but it is lenient: it reads "1.5abc" as 1.5, a missing
// coordinate as 0, lets indices run past the vertex list with only a warning, and reports
// failures without a column. So the text is first scanned here: every `v` and `f` line is
// checked (with line and column for errors), the lines the meshes need are handed on to
// tinyobjloader, and its answer is compared with the scan before it is used.

/// A face corner as the scan read it: the vertex index exactly as written (1-based, or
/// negative relative to the vertices read so far), and where it was.
struct FaceCorner {
  std::int64_t written_index = 0;
  int column = 0;
};

struct ScannedFace {
  int line = 0;
  std::uint32_t first_corner = 0;  ///< into ObjScanner::corners_
  std::uint32_t corner_count = 0;
  std::uint32_t vertices_before = 0;  ///< vertices defined above the face (negative indices count back from here)
};

/// Keywords whose lines tinyobjloader gets to see. Everything else (tags `t`, skin weights `vw`,
/// lines `l`, points `p`, free-form geometry) is blanked out: Wayfinder ignores it, and
/// tinyobjloader's handling of some of it (tags allocate up to 8192 values per line, copied into
/// every shape) would let a small hostile file allocate without bound.
bool passed_to_tinyobjloader(std::string_view keyword) {
  return keyword == "v" || keyword == "f" || keyword == "vt" || keyword == "vn" || keyword == "o" || keyword == "g" ||
         keyword == "s" || keyword == "usemtl" || keyword == "mtllib";
}

// The rest of a line after its keyword, as one name: from the first field after the keyword
// to the end of the last (spaces inside kept, ends trimmed); empty when there is none.
std::string_view name_after_keyword(const std::vector<Field>& fields) {
  if (fields.size() < 2) return {};
  const char* begin = fields[1].text.data();
  const char* end = fields.back().text.data() + fields.back().text.size();
  return {begin, static_cast<std::size_t>(end - begin)};
}

using AreaTable = std::map<std::string, AreaAssignment, std::less<>>;

class ObjScanner {
 public:
  ObjScanner(std::string_view text, const std::string& source_name, const AreaTable& areas)
      : lines_(text, text::LineBreaks::also_lone_cr), source_name_(source_name), areas_(areas) {}

  /// Checks the text; returns the lines for tinyobjloader (same line numbers, ignored lines empty).
  std::string scan() {
    std::string kept_text;
    std::vector<Field> fields;
    while (const std::optional<Line> line = lines_.next()) {
      text::split_fields(line->text, fields);
      if (!fields.empty() && passed_to_tinyobjloader(fields.front().text)) {
        const std::string_view keyword = fields.front().text;
        if (keyword == "v") scan_vertex(*line, fields);
        if (keyword == "f") scan_face(*line, fields);
        if (!areas_.empty()) note_names(keyword, fields);
        kept_text += line->text;
      }
      kept_text += '\n';
    }
    check_positive_indices();
    if (faces_.empty())
      fail(0, 0,
           vertex_lines_.empty()
               ? "no faces: the file has no 'v' or 'f' lines"
               : "no faces: the file has " + std::to_string(vertex_lines_.size()) + " vertices but no 'f' lines");
    return kept_text;
  }

  [[nodiscard]] const std::vector<int>& vertex_lines() const { return vertex_lines_; }
  [[nodiscard]] const std::vector<ScannedFace>& faces() const { return faces_; }
  [[nodiscard]] const std::vector<FaceCorner>& corners() const { return corners_; }
  /// Per face, its area and flags from the table (empty when the table is).
  [[nodiscard]] const std::vector<AreaAssignment>& face_areas() const { return face_areas_; }

  [[noreturn]] void fail(int line, int column, std::string cause) const {
    throw LoadError(source_name_, line, column, std::move(cause));
  }

 private:
  void scan_vertex(const Line& line, const std::vector<Field>& fields) {
    // x y z, optionally followed by w or by an r g b colour: at most 4 more numbers.
    constexpr std::size_t coordinates = 3;
    constexpr std::size_t max_extra_values = 4;
    if (fields.size() < 1 + coordinates) {
      const int column = static_cast<int>(line.text.size()) + 1;
      fail(line.number, column, "a vertex needs 3 coordinates (x y z), found " + std::to_string(fields.size() - 1));
    }
    if (fields.size() > 1 + coordinates + max_extra_values)
      fail(line.number, fields[1 + coordinates + max_extra_values].column,
           "unexpected " + quoted(fields[1 + coordinates + max_extra_values].text) +
               " after the vertex (expected x y z, optionally w or r g b)");
    static constexpr std::string_view names[] = {"x coordinate", "y coordinate", "z coordinate"};
    for (std::size_t i = 1; i < fields.size(); ++i) {
      double value = 0.0;
      const NumberProblem problem = text::parse_real(fields[i].text, value, text::PlusSign::allowed);
      if (problem != NumberProblem::none)
        fail(line.number, fields[i].column,
             text::describe(problem, i <= coordinates ? names[i - 1] : "vertex value", fields[i].text));
    }
    if (vertex_lines_.size() >= max_vertices)
      fail(line.number, 1, "too many vertices (the limit is " + std::to_string(max_vertices) + ")");
    vertex_lines_.push_back(line.number);
  }

  void scan_face(const Line& line, const std::vector<Field>& fields) {
    if (fields.size() < 4)
      fail(line.number, fields.size() > 1 ? fields[1].column : static_cast<int>(line.text.size()) + 1,
           "a face needs at least 3 vertices, found " + std::to_string(fields.size() - 1));
    ScannedFace face;
    face.line = line.number;
    face.first_corner = static_cast<std::uint32_t>(corners_.size());
    face.vertices_before = static_cast<std::uint32_t>(vertex_lines_.size());
    for (std::size_t i = 1; i < fields.size(); ++i) {
      const std::int64_t index = read_corner(line, fields[i]);
      if (index < 0 && -index > static_cast<std::int64_t>(face.vertices_before))
        fail(line.number, fields[i].column,
             "vertex index " + std::to_string(index) + " is out of range: only " +
                 std::to_string(face.vertices_before) + " vertices are defined above this face");
      highest_positive_index_ = std::max(highest_positive_index_, index);
      if (corners_.size() >= max_corners)
        fail(line.number, fields[i].column,
             "too many face vertices (the limit is " + std::to_string(max_corners) + ")");
      corners_.push_back({index, fields[i].column});
    }
    face.corner_count = static_cast<std::uint32_t>(fields.size() - 1);
    faces_.push_back(face);
    if (!areas_.empty()) face_areas_.push_back(current_assignment());
  }

  // Keeps the names the next faces take their area from.
  void note_names(std::string_view keyword, const std::vector<Field>& fields) {
    if (keyword == "usemtl") {
      material_ = name_after_keyword(fields);
    } else if (keyword == "o") {
      object_ = name_after_keyword(fields);
    } else if (keyword == "g") {
      groups_.clear();
      for (std::size_t i = 1; i < fields.size(); ++i) groups_.push_back(fields[i].text);
    } else {
      return;
    }
    assignment_known_ = false;
  }

  // The table's entry for the material, else the first group with one, else the object.
  AreaAssignment current_assignment() {
    if (assignment_known_) return assignment_;
    auto entry = [&](std::string_view name) -> const AreaAssignment* {
      if (name.empty()) return nullptr;
      const auto found = areas_.find(name);
      return found == areas_.end() ? nullptr : &found->second;
    };
    const AreaAssignment* chosen = entry(material_);
    for (std::size_t i = 0; chosen == nullptr && i < groups_.size(); ++i) chosen = entry(groups_[i]);
    if (chosen == nullptr) chosen = entry(object_);
    assignment_ = chosen != nullptr ? *chosen : AreaAssignment{};
    assignment_known_ = true;
    return assignment_;
  }

  /// One face corner: `v`, `v/vt`, `v//vn` or `v/vt/vn`. Only the vertex index is used, but the
  /// others must be well-formed non-zero integers too: tinyobjloader fails on them otherwise.
  std::int64_t read_corner(const Line& line, const Field& field) const {
    std::string_view text = field.text;
    std::int64_t vertex_index = 0;
    for (int part = 0; part < 3; ++part) {
      const std::size_t slash = text.find('/');
      const std::string_view number = text.substr(0, slash);
      const bool last_part = slash == std::string_view::npos;
      if (part == 2 && !last_part)
        fail(line.number, field.column,
             "malformed face vertex " + quoted(field.text) + " (expected v, v/vt, v//vn or v/vt/vn)");
      // "v//vn": the texture index may be left out, nothing else may.
      if (!(part == 1 && number.empty() && !last_part)) {
        std::int64_t value = 0;
        const NumberProblem problem = text::parse_integer(number, value, text::PlusSign::allowed);
        if (problem != NumberProblem::none || value < std::numeric_limits<int>::min() + 1 ||
            value > std::numeric_limits<int>::max())
          fail(line.number, field.column,
               "malformed face vertex " + quoted(field.text) +
                   " (expected v, v/vt, v//vn or v/vt/vn with integer indices)");
        if (value == 0)
          fail(line.number, field.column,
               "index 0 in face vertex " + quoted(field.text) + ": OBJ indices start at 1 (or count back from -1)");
        if (part == 0) vertex_index = value;
      }
      if (last_part) break;
      text.remove_prefix(slash + 1);
      if (text.empty())
        fail(line.number, field.column, "malformed face vertex " + quoted(field.text) + " (nothing after '/')");
    }
    return vertex_index;
  }

  /// Positive indices may point at vertices defined further down (some exporters write faces
  /// first), so they are checked once every vertex is known.
  void check_positive_indices() const {
    const auto vertex_count = static_cast<std::int64_t>(vertex_lines_.size());
    if (highest_positive_index_ <= vertex_count) return;
    // Report the first face corner that is out of range, in file order.
    for (const ScannedFace& face : faces_) {
      for (std::uint32_t k = 0; k < face.corner_count; ++k) {
        const FaceCorner& corner = corners_[face.first_corner + k];
        if (corner.written_index > vertex_count)
          fail(face.line, corner.column,
               "vertex index " + std::to_string(corner.written_index) + " is out of range: the file has " +
                   std::to_string(vertex_count) + " vertices");
      }
    }
  }

  // Limits that keep every index in 32 bits; a file reaching them is far beyond any navmesh.
  static constexpr std::size_t max_vertices = std::numeric_limits<std::int32_t>::max() / 2;
  static constexpr std::size_t max_corners = std::numeric_limits<std::int32_t>::max() / 2;

  text::LineReader lines_;
  const std::string& source_name_;
  const AreaTable& areas_;
  // The names in force (views into the text, which outlives the scan) and what they give.
  std::string_view material_, object_;
  std::vector<std::string_view> groups_;
  AreaAssignment assignment_;
  bool assignment_known_ = false;
  std::vector<AreaAssignment> face_areas_;
  std::vector<int> vertex_lines_;
  std::vector<ScannedFace> faces_;
  std::vector<FaceCorner> corners_;
  std::int64_t highest_positive_index_ = 0;
};

/// tinyobjloader's answer must describe the same faces as the scan: the same number of
/// vertices, and the same resolved vertex index at every face corner, in file order. It flattens
/// faces into shapes in the order it met them, so walking its shapes in order walks the file.
void check_agreement(const ObjScanner& scan, const tinyobj::attrib_t& attributes,
                     const std::vector<tinyobj::shape_t>& shapes) {
  const std::size_t vertex_count = scan.vertex_lines().size();
  if (attributes.vertices.size() != 3 * vertex_count)
    scan.fail(0, 0,
              "tinyobjloader read " + std::to_string(attributes.vertices.size() / 3) + " vertices where " +
                  std::to_string(vertex_count) + " 'v' lines were found");
  std::size_t total_indices = 0;
  for (const tinyobj::shape_t& shape : shapes) total_indices += shape.mesh.indices.size();
  if (total_indices != scan.corners().size())
    scan.fail(0, 0,
              "tinyobjloader read " + std::to_string(total_indices) + " face vertices where " +
                  std::to_string(scan.corners().size()) + " were found");
}

}  // namespace

MeshGeometry parse_obj_mesh(std::string_view text, const std::string& source_name, const ObjReadOptions& options) {
  for (const auto& [name, assignment] : options.areas) {
    if (assignment.area >= max_areas)
      throw std::invalid_argument("ObjReadOptions::areas: " + text::quoted(name) + " has area " +
                                  std::to_string(assignment.area) + "; areas are 0 to " + std::to_string(max_areas - 1));
  }
  ObjScanner scan(text, source_name, options.areas);
  const std::string kept_text = scan.scan();

  tinyobj::ObjReaderConfig config;
  config.triangulate = false;  // faces keep their vertex count: the mesh's polygons are the file's faces
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  // An empty material text: `mtllib` lines are read from it, so the reader never opens files.
  if (!reader.ParseFromString(kept_text, std::string(), config)) {
    std::string message = reader.Error();
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
    scan.fail(0, 0, "tinyobjloader: " + (message.empty() ? std::string("cannot parse the file") : message));
  }
  const tinyobj::attrib_t& attributes = reader.GetAttrib();
  const std::vector<tinyobj::shape_t>& shapes = reader.GetShapes();
  check_agreement(scan, attributes, shapes);

  MeshGeometry geometry;
  geometry.source = source_name;
  geometry.declared_navmesh = text.starts_with(obj_navmesh_marker);
  geometry.vertex_lines = scan.vertex_lines();
  const std::size_t vertex_count = geometry.vertex_lines.size();
  geometry.vertices.reserve(vertex_count);
  for (std::size_t i = 0; i < vertex_count; ++i) {
    const double x = attributes.vertices[3 * i];
    const double y = attributes.vertices[3 * i + 1];
    const double z = attributes.vertices[3 * i + 2];
    // The scan accepted the text as finite numbers; tinyobjloader's own conversion can still
    // overflow on extreme spellings (hundreds of digits before an exponent).
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z))
      scan.fail(geometry.vertex_lines[i], 0, "vertex coordinates too large to represent");
    geometry.vertices.push_back(options.up == UpAxis::z ? Point{x, z, -y} : Point{x, y, z});
  }

  // Faces, in file order, sliced by the scan's corner counts: tinyobjloader stores each face's
  // size in one byte, so faces of more than 255 vertices could not be sliced by its counts.
  const std::vector<ScannedFace>& faces = scan.faces();
  geometry.polygons.reserve(faces.size());
  geometry.polygon_lines.reserve(faces.size());
  std::size_t shape_index = 0;
  std::size_t index_in_shape = 0;
  for (const ScannedFace& face : faces) {
    std::vector<std::uint32_t> polygon;
    polygon.reserve(face.corner_count);
    for (std::uint32_t k = 0; k < face.corner_count; ++k) {
      while (index_in_shape == shapes[shape_index].mesh.indices.size()) {
        ++shape_index;
        index_in_shape = 0;
      }
      const int vertex = shapes[shape_index].mesh.indices[index_in_shape++].vertex_index;
      const FaceCorner& corner = scan.corners()[face.first_corner + k];
      const std::int64_t expected =
          corner.written_index > 0 ? corner.written_index - 1 : face.vertices_before + corner.written_index;
      if (vertex != expected)
        scan.fail(face.line, corner.column,
                  "tinyobjloader read vertex index " + std::to_string(vertex + 1) + " here, expected " +
                      std::to_string(expected + 1));
      polygon.push_back(static_cast<std::uint32_t>(vertex));
    }
    geometry.polygons.push_back(std::move(polygon));
    geometry.polygon_lines.push_back(face.line);
  }
  for (const AreaAssignment& assignment : scan.face_areas()) {
    geometry.polygon_areas.push_back(assignment.area);
    geometry.polygon_flags.push_back(assignment.flags);
  }
  return geometry;
}

MeshGeometry read_obj_mesh(const std::filesystem::path& file, const ObjReadOptions& options) {
  return parse_obj_mesh(read_text_file(file), file.string(), options);
}

}  // namespace wayfinder
