#include "text_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace wayfinder::cli {

TextTable::TextTable(std::vector<TableColumn> columns, std::string indent)
    : columns_(std::move(columns)), indent_(std::move(indent)) {
  for (TableColumn& column : columns_) column.width = std::max(column.width, static_cast<int>(column.header.size()));
}

std::string TextTable::header_line() const {
  std::vector<std::string> headers;
  for (const TableColumn& column : columns_) headers.push_back(column.header);
  return line(headers);
}

std::string TextTable::rule_line() const {
  std::vector<std::string> rules;
  for (const TableColumn& column : columns_) rules.emplace_back(static_cast<std::size_t>(column.width), '-');
  return line(rules);
}

std::string TextTable::row_line(const std::vector<std::string>& cells) const { return line(cells); }

std::string TextTable::line(const std::vector<std::string>& cells) const {
  std::string text = indent_;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const std::string cell = i < cells.size() ? cells[i] : std::string();
    const TableColumn& column = columns_[i];
    const std::size_t padding =
        cell.size() < static_cast<std::size_t>(column.width) ? static_cast<std::size_t>(column.width) - cell.size() : 0;
    if (i > 0) text += "  ";
    if (column.align == TableColumn::Align::right) text.append(padding, ' ');
    text += cell;
    // No trailing blanks after the last column.
    if (column.align == TableColumn::Align::left && i + 1 < columns_.size()) text.append(padding, ' ');
  }
  return text;
}

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[400];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals);
  if (error != std::errc{}) return "?";
  return std::string(text, end);
}

std::string elided_items(const std::vector<std::string>& items, bool full, const std::string& separator,
                         std::size_t shown_at_each_end) {
  const bool elide = !full && items.size() > 2 * shown_at_each_end;
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (elide && i == shown_at_each_end) {
      text += " ...";
      i = items.size() - shown_at_each_end;
    }
    if (i != 0) text += separator;
    text += items[i];
  }
  return text;
}

}  // namespace wayfinder::cli
