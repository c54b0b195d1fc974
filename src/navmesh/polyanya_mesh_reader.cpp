#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../core/text_fields.hpp"
#include "wayfinder/core/load_error.hpp"
#include "core/text_file.hpp"

namespace wayfinder {
namespace {

using text::NumberProblem;
using text::quoted;

struct Token {
  std::string_view text;
  int line = 0;
  int column = 0;
};

/// Whitespace-separated tokens with their line and column. Lines end at LF, CRLF or a lone CR.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : text_(text) {
    if (text_.starts_with(text::utf8_byte_order_mark)) text_.remove_prefix(text::utf8_byte_order_mark.size());
  }

  std::optional<Token> next() {
    skip_space();
    if (position_ >= text_.size()) return std::nullopt;
    const std::size_t begin = position_;
    while (position_ < text_.size() && !is_space(text_[position_])) ++position_;
    end_of_last_token_ = {line_, column_of(position_)};
    return Token{text_.substr(begin, position_ - begin), line_, column_of(begin)};
  }

  /// Where the next token starts, for messages about it.
  std::pair<int, int> here() {
    skip_space();
    return {line_, column_of(position_)};
  }

  /// Just after the last token read (line 1, column 1 before any), where a missing token belongs.
  [[nodiscard]] std::pair<int, int> end_of_last_token() const { return end_of_last_token_; }

  /// An upper bound on the tokens left: each but the last needs at least one separator after it.
  [[nodiscard]] std::size_t max_tokens_left() const { return (text_.size() - position_) / 2 + 1; }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

  void skip_space() {
    while (position_ < text_.size() && is_space(text_[position_])) {
      const char c = text_[position_++];
      const bool line_break = c == '\n' || (c == '\r' && (position_ >= text_.size() || text_[position_] != '\n'));
      if (line_break) {
        if (line_ < INT_MAX) ++line_;
        line_start_ = position_;
      }
    }
  }

  [[nodiscard]] int column_of(std::size_t position) const {
    const std::size_t column = position - line_start_ + 1;
    return column < static_cast<std::size_t>(INT_MAX) ? static_cast<int>(column) : INT_MAX;
  }

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  std::pair<int, int> end_of_last_token_{1, 1};
};

class PolyanyaMeshParser {
 public:
  PolyanyaMeshParser(std::string_view text, const std::string& source_name)
      : tokens_(text), source_name_(source_name) {}

  MeshGeometry parse() {
    read_header();
    const std::int64_t vertex_count = read_count("vertex count", tokens_per_vertex);
    const Token polygon_count_token = peek_position();
    const std::int64_t polygon_count = read_count("polygon count", 0);
    // The polygons come after the vertices; both together must fit in what is left.
    check_fits(polygon_count_token, "polygon count", polygon_count,
               static_cast<std::uint64_t>(vertex_count) * tokens_per_vertex, tokens_per_polygon);
    // A file of no polygons is well-formed, but no mesh: say so here, as the OBJ reader does.
    if (polygon_count == 0)
      fail(polygon_count_token.line, polygon_count_token.column, "no polygons: the polygon count is 0");
    vertex_count_ = vertex_count;
    polygon_count_ = polygon_count;

    MeshGeometry geometry;
    geometry.source = source_name_;
    geometry.declared_navmesh = true;
    geometry.vertices.reserve(static_cast<std::size_t>(vertex_count));
    geometry.vertex_lines.reserve(static_cast<std::size_t>(vertex_count));
    for (std::int64_t i = 0; i < vertex_count; ++i) read_vertex(geometry);
    geometry.polygons.reserve(static_cast<std::size_t>(polygon_count));
    geometry.polygon_lines.reserve(static_cast<std::size_t>(polygon_count));
    for (std::int64_t i = 0; i < polygon_count; ++i) read_polygon(geometry);
    if (const std::optional<Token> extra = tokens_.next())
      fail(extra->line, extra->column,
           "unexpected " + quoted(extra->text) + " after the last of the " + std::to_string(polygon_count) +
               " polygons");
    return geometry;
  }

 private:
  // The fewest tokens a vertex (x y n, with n = 0) and a polygon (3 v1 v2 v3 p1 p2 p3) take.
  static constexpr std::uint64_t tokens_per_vertex = 3;
  static constexpr std::uint64_t tokens_per_polygon = 7;
  // Indices are stored in 32 bits.
  static constexpr std::int64_t max_count = std::numeric_limits<std::int32_t>::max();

  [[noreturn]] void fail(int line, int column, std::string cause) const {
    throw LoadError(source_name_, line, column, std::move(cause));
  }

  Token expect(std::string_view what) {
    std::optional<Token> token = tokens_.next();
    if (!token) {
      const auto [line, column] = tokens_.end_of_last_token();
      fail(line, column, "the file ends where the " + std::string(what) + " should be");
    }
    return *token;
  }

  /// The position of the next token, without taking it.
  Token peek_position() {
    const auto [line, column] = tokens_.here();
    return Token{{}, line, column};
  }

  void read_header() {
    const std::optional<Token> magic = tokens_.next();
    if (!magic) fail(0, 0, "empty file: expected a Polyanya mesh starting with 'mesh' and '2'");
    if (magic->text != "mesh")
      fail(magic->line, magic->column, "expected 'mesh' at the start of a Polyanya mesh, found " + quoted(magic->text));
    const Token version = expect("format version (2)");
    if (version.text != "2")
      fail(version.line, version.column, "unsupported mesh format version " + quoted(version.text) + " (expected 2)");
  }

  std::int64_t read_integer(const Token& token, std::string_view what) const {
    std::int64_t value = 0;
    const NumberProblem problem = text::parse_integer(token.text, value, text::PlusSign::allowed);
    if (problem != NumberProblem::none) fail(token.line, token.column, text::describe(problem, what, token.text));
    return value;
  }

  /// A count that must be non-negative, and small enough that `tokens_each` tokens per item
  /// fit in the rest of the file: checked before anything is reserved for it.
  std::int64_t read_count(std::string_view what, std::uint64_t tokens_each) {
    const Token token = expect(what);
    const std::int64_t value = read_integer(token, what);
    if (value < 0) fail(token.line, token.column, "negative " + std::string(what) + " " + quoted(token.text));
    if (value > max_count)
      fail(token.line, token.column,
           std::string(what) + " " + std::to_string(value) + " exceeds the limit of " + std::to_string(max_count));
    if (tokens_each > 0) check_fits(token, what, value, 0, tokens_each);
    return value;
  }

  void check_fits(const Token& token, std::string_view what, std::int64_t count, std::uint64_t tokens_before,
                  std::uint64_t tokens_each) {
    const std::uint64_t available = tokens_.max_tokens_left();
    const std::uint64_t needed = tokens_before + static_cast<std::uint64_t>(count) * tokens_each;
    if (needed > available)
      fail(token.line, token.column,
           std::string(what) + " " + std::to_string(count) + " is too large for the file: it needs at least " +
               std::to_string(needed) + " more numbers, and the rest of the file can hold at most " +
               std::to_string(available));
  }

  double read_coordinate(std::string_view what) {
    const Token token = expect(what);
    double value = 0.0;
    const NumberProblem problem = text::parse_real(token.text, value, text::PlusSign::allowed);
    if (problem != NumberProblem::none) fail(token.line, token.column, text::describe(problem, what, token.text));
    return value;
  }

  /// A neighbouring polygon: -1 (none) or 0 .. P-1.
  void read_neighbour(std::string_view owner) {
    const Token token = expect(std::string(owner) + " neighbour");
    const std::int64_t value = read_integer(token, "neighbour polygon");
    if (value < -1 || value >= polygon_count_)
      fail(token.line, token.column,
           "neighbour polygon " + std::to_string(value) + " is out of range (expected -1 or 0 to " +
               std::to_string(polygon_count_ - 1) + ")");
  }

  void read_vertex(MeshGeometry& geometry) {
    const std::string owner = "vertex " + std::to_string(geometry.vertices.size());
    const Token first = peek_position();
    const double x = read_coordinate(owner + " x coordinate");
    const double y = read_coordinate(owner + " y coordinate");
    const Token count_token = expect(owner + " neighbour count");
    const std::int64_t neighbours = read_integer(count_token, "neighbour count");
    if (neighbours < 0)
      fail(count_token.line, count_token.column, "negative neighbour count " + quoted(count_token.text));
    check_fits(count_token, "neighbour count", neighbours, 0, 1);
    for (std::int64_t j = 0; j < neighbours; ++j) read_neighbour(owner);
    // The 2D mesh lies in Wayfinder's ground plane (x-z, y up).
    geometry.vertices.push_back({x, 0.0, y});
    geometry.vertex_lines.push_back(first.line);
  }

  void read_polygon(MeshGeometry& geometry) {
    const std::string owner = "polygon " + std::to_string(geometry.polygons.size());
    const Token size_token = expect(owner + " vertex count");
    const std::int64_t size = read_integer(size_token, "polygon vertex count");
    if (size < 3)
      fail(size_token.line, size_token.column, "a polygon needs at least 3 vertices, found " + std::to_string(size));
    check_fits(size_token, "polygon vertex count", size, 0, 2);  // n vertices and n neighbours follow
    std::vector<std::uint32_t> polygon;
    polygon.reserve(static_cast<std::size_t>(size));
    for (std::int64_t j = 0; j < size; ++j) {
      const Token token = expect(owner + " vertex");
      const std::int64_t vertex = read_integer(token, "vertex index");
      if (vertex < 0 || vertex >= vertex_count_)
        fail(token.line, token.column,
             "vertex index " + std::to_string(vertex) + " is out of range (the mesh has " +
                 std::to_string(vertex_count_) + " vertices)");
      polygon.push_back(static_cast<std::uint32_t>(vertex));
    }
    for (std::int64_t j = 0; j < size; ++j) read_neighbour(owner);
    geometry.polygons.push_back(std::move(polygon));
    geometry.polygon_lines.push_back(size_token.line);
  }

  Tokenizer tokens_;
  const std::string& source_name_;
  std::int64_t vertex_count_ = 0;
  std::int64_t polygon_count_ = 0;
};

}  // namespace

MeshGeometry parse_polyanya_mesh(std::string_view text, const std::string& source_name) {
  return PolyanyaMeshParser(text, source_name).parse();
}

MeshGeometry read_polyanya_mesh(const std::filesystem::path& file) {
  return parse_polyanya_mesh(read_text_file(file), file.string());
}

}  // namespace wayfinder
