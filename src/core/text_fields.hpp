#pragma once
// Text helpers shared by every reader (MovingAI maps and scenarios, the voxel benchmark files,
// OBJ, Polyanya meshes, mesh query files): lines with their numbers, fields with their columns,
// strict number parsing, and quoting of input for messages, so that every LoadError names a
// line and column the same way. Internal to the library.

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/float_chars.hpp"

namespace wayfinder::text {

inline constexpr std::string_view utf8_byte_order_mark = "\xEF\xBB\xBF";

struct Line {
  std::string_view text;  ///< without the line break
  int number = 0;         ///< 1-based
};

/// Which line breaks a format knows.
enum class LineBreaks : std::uint8_t {
  lf_or_crlf,    ///< a lone CR is an ordinary (unexpected) character
  also_lone_cr,  ///< a lone CR ends a line too (as tinyobjloader reads OBJ files)
};

/// Splits text into lines; a final line break does not start another (empty) line, and a UTF-8
/// byte order mark at the start (which editors on Windows like to write) is not content.
class LineReader {
 public:
  explicit LineReader(std::string_view text, LineBreaks breaks = LineBreaks::lf_or_crlf)
      : text_(text), breaks_(breaks) {
    if (text_.starts_with(utf8_byte_order_mark)) text_.remove_prefix(utf8_byte_order_mark.size());
  }

  std::optional<Line> next() {
    if (position_ >= text_.size()) return std::nullopt;
    std::size_t stop = text_.find_first_of(breaks_ == LineBreaks::also_lone_cr ? "\r\n" : "\n", position_);
    if (stop == std::string_view::npos) stop = text_.size();
    std::string_view text = text_.substr(position_, stop - position_);
    if (breaks_ == LineBreaks::lf_or_crlf && text.ends_with('\r')) text.remove_suffix(1);
    position_ = stop;
    if (position_ < text_.size()) {
      if (text_[position_] == '\r' && position_ + 1 < text_.size() && text_[position_ + 1] == '\n') ++position_;
      ++position_;
    }
    // 1 GiB of text (the most read_text_file reads) has far fewer than INT_MAX lines; the clamp
    // only keeps a caller's even larger in-memory text from overflowing the counter.
    if (line_number_ < INT_MAX) ++line_number_;
    return Line{text, line_number_};
  }

  /// The number the next line would have (one past the last line at the end of the text).
  [[nodiscard]] int next_number() const { return line_number_ < INT_MAX ? line_number_ + 1 : INT_MAX; }
  [[nodiscard]] int last_number() const { return line_number_; }

 private:
  std::string_view text_;
  LineBreaks breaks_;
  std::size_t position_ = 0;
  int line_number_ = 0;
};

inline bool is_field_separator(char c) { return c == ' ' || c == '\t'; }

inline bool is_blank(std::string_view text) {
  for (const char c : text)
    if (!is_field_separator(c)) return false;
  return true;
}

struct Field {
  std::string_view text;
  int column = 0;  ///< 1-based
};

/// Splits a line into fields separated by runs of spaces and tabs (into `fields`, reused).
inline void split_fields(std::string_view line, std::vector<Field>& fields) {
  fields.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_field_separator(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t begin = i;
    while (i < line.size() && !is_field_separator(line[i])) ++i;
    const int column = begin < static_cast<std::size_t>(INT_MAX) ? static_cast<int>(begin) + 1 : INT_MAX;
    fields.push_back({line.substr(begin, i - begin), column});
  }
}

inline std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  split_fields(line, fields);
  return fields;
}

/// Quotes a piece of input for a message, escaping bytes that would not print and shortening
/// long text so that a message stays one readable line.
inline std::string quoted(std::string_view text) {
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\\' || byte == '\'') {
      out += '\\';
      out += static_cast<char>(byte);
    } else if (byte >= 0x20 && byte < 0x7F) {
      out += static_cast<char>(byte);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  if (text.size() > max_shown) out += "...";
  return out + "'";
}

/// What went wrong parsing a number, to be combined with the field's name by describe().
enum class NumberProblem : std::uint8_t { none, not_a_number, negative, out_of_range, not_finite };

/// Whether a leading '+' may come before a number (as C's strtod allows; MovingAI files never
/// have one, so their readers refuse it).
enum class PlusSign : std::uint8_t { refused, allowed };

inline std::string_view without_plus_sign(std::string_view text, PlusSign plus) {
  if (plus == PlusSign::allowed && text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+')
    text.remove_prefix(1);
  return text;
}

/// A whole field as a decimal integer: every character must belong to the number.
template <class Integer>
NumberProblem parse_integer(std::string_view text, Integer& value, PlusSign plus = PlusSign::refused) {
  text = without_plus_sign(text, plus);
  if (text.empty()) return NumberProblem::not_a_number;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (error == std::errc::result_out_of_range && end == last) return NumberProblem::out_of_range;
  if (error != std::errc{} || end != last) return NumberProblem::not_a_number;
  return NumberProblem::none;
}

/// A whole field as a finite decimal number (nan and inf are refused).
inline NumberProblem parse_real(std::string_view text, double& value, PlusSign plus = PlusSign::refused) {
  text = without_plus_sign(text, plus);
  if (text.empty()) return NumberProblem::not_a_number;
  const char* last = text.data() + text.size();
  const auto [end, error] = chars_to_double(text.data(), last, value);
  if (error == std::errc::result_out_of_range && end == last) return NumberProblem::out_of_range;
  if (error != std::errc{} || end != last) return NumberProblem::not_a_number;
  if (!std::isfinite(value)) return NumberProblem::not_finite;
  return NumberProblem::none;
}

/// "non-numeric x coordinate 'abc'" and the like.
inline std::string describe(NumberProblem problem, std::string_view what, std::string_view text) {
  switch (problem) {
    case NumberProblem::none: break;
    case NumberProblem::not_a_number: return "non-numeric " + std::string(what) + " " + quoted(text);
    case NumberProblem::negative: return "negative " + std::string(what) + " " + quoted(text);
    case NumberProblem::out_of_range: return std::string(what) + " " + quoted(text) + " is out of range";
    case NumberProblem::not_finite: return std::string(what) + " " + quoted(text) + " is not a finite number";
  }
  return {};
}

}  // namespace wayfinder::text
