#pragma once
// std::to_chars and std::from_chars for doubles, and a fallback for standard libraries without
// them (the libc++ of emscripten 3.1.6, which the WebAssembly build uses: docs/javascript.md).
// With the standard library's functions, these are those functions. The fallback uses the C
// library in its "C" locale (the only one there): the texts read the same numbers, though a
// fallback "shortest" text may be longer than std::to_chars's ("10000000000", not "1e+10").

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>
#include <version>

namespace wayfinder {

#if defined(__cpp_lib_to_chars)

/// std::from_chars(first, last, value, std::chars_format::general).
inline std::from_chars_result chars_to_double(const char* first, const char* last, double& value) {
  return std::from_chars(first, last, value, std::chars_format::general);
}
/// std::to_chars(first, last, value): the shortest text that reads back as `value`.
inline std::to_chars_result double_to_chars(char* first, char* last, double value) {
  return std::to_chars(first, last, value);
}
/// std::to_chars(first, last, value, std::chars_format::general, precision).
inline std::to_chars_result double_to_chars(char* first, char* last, double value, int precision) {
  return std::to_chars(first, last, value, std::chars_format::general, precision);
}

#else

namespace float_chars_detail {
inline std::to_chars_result printed(char* first, char* last, double value, int precision) {
  const int length = std::snprintf(first, static_cast<std::size_t>(last - first), "%.*g", precision, value);
  if (length < 0 || length >= last - first) return {last, std::errc::value_too_large};
  return {first + length, std::errc{}};
}
}  // namespace float_chars_detail

inline std::from_chars_result chars_to_double(const char* first, const char* last, double& value) {
  // strtod accepts more than from_chars: leading spaces, a plus sign, hexadecimal.
  const std::string copy(first, last);
  const std::size_t sign = !copy.empty() && copy[0] == '-' ? 1 : 0;
  const bool refused = copy.size() <= sign || copy[sign] == ' ' || copy[sign] == '\t' || copy[sign] == '\n' ||
                       copy[sign] == '\r' || copy[sign] == '\v' || copy[sign] == '\f' || copy[sign] == '+' ||
                       (copy.size() > sign + 1 && copy[sign] == '0' && (copy[sign + 1] == 'x' || copy[sign + 1] == 'X'));
  if (refused) return {first, std::errc::invalid_argument};
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(copy.c_str(), &end);
  const auto used = end - copy.c_str();
  if (used == 0) return {first, std::errc::invalid_argument};
  if (errno == ERANGE) return {first + used, std::errc::result_out_of_range};
  value = parsed;
  return {first + used, std::errc{}};
}

inline std::to_chars_result double_to_chars(char* first, char* last, double value) {
  // The fewest of 15, 16 and 17 significant digits that read back as the same double.
  for (int precision = 15; precision < 17; ++precision) {
    const auto result = float_chars_detail::printed(first, last, value, precision);
    if (result.ec == std::errc{} && std::strtod(std::string(first, result.ptr).c_str(), nullptr) == value) {
      return result;
    }
  }
  return float_chars_detail::printed(first, last, value, 17);
}

inline std::to_chars_result double_to_chars(char* first, char* last, double value, int precision) {
  return float_chars_detail::printed(first, last, value, precision);
}

#endif

}  // namespace wayfinder
