#include "viewer/accept_encoding.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace wayfinder::viewer {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

/// The part of `text` before `separator`, which is removed from `text` with it.
std::string_view take_until(std::string_view& text, char separator) {
  const std::size_t end = text.find(separator);
  const std::string_view taken = text.substr(0, end);
  text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  return taken;
}

/// Whether a qvalue ("0", "0.5", "1.000") is above zero; nullopt when it is not a qvalue.
std::optional<bool> weight_above_zero(std::string_view qvalue) {
  if (qvalue.empty() || (qvalue[0] != '0' && qvalue[0] != '1')) return std::nullopt;
  const std::string_view fraction = qvalue.substr(1);
  if (fraction.empty()) return qvalue[0] == '1';
  if (fraction[0] != '.' || fraction.size() > 4) return std::nullopt;
  const std::string_view digits = fraction.substr(1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  const bool zero_digits = std::all_of(digits.begin(), digits.end(), [](char c) { return c == '0'; });
  if (qvalue[0] == '1') return zero_digits ? std::optional<bool>(true) : std::nullopt;
  return !zero_digits;
}

}  // namespace

bool accepts_gzip(std::string_view accept_encoding) {
  std::optional<bool> gzip;
  std::optional<bool> any;
  while (!accept_encoding.empty()) {
    std::string_view element = take_until(accept_encoding, ',');
    const std::string_view coding = trimmed(take_until(element, ';'));
    bool accepted = true;
    while (!element.empty()) {
      std::string_view parameter = take_until(element, ';');
      const std::string_view name = trimmed(take_until(parameter, '='));
      if (same_name(name, "q")) accepted = weight_above_zero(trimmed(parameter)).value_or(false);
    }
    if (same_name(coding, "gzip") || same_name(coding, "x-gzip")) {
      gzip = gzip.value_or(false) || accepted;
    } else if (coding == "*") {
      any = any.value_or(false) || accepted;
    }
  }
  return gzip.value_or(any.value_or(false));
}

}  // namespace wayfinder::viewer
