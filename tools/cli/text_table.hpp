#pragma once
// Plain-text tables with fixed column widths, so that rows can be printed as soon as they are
// known (a long benchmark shows each algorithm's line when it finishes).

#include <string>
#include <vector>

namespace wayfinder::cli {

struct TableColumn {
  enum class Align { left, right };
  std::string header;
  int width = 0;  ///< minimum width; longer cells push the rest of the row right
  Align align = Align::right;
};

class TextTable {
 public:
  explicit TextTable(std::vector<TableColumn> columns, std::string indent = {});

  [[nodiscard]] std::string header_line() const;
  /// Dashes under each header.
  [[nodiscard]] std::string rule_line() const;
  [[nodiscard]] std::string row_line(const std::vector<std::string>& cells) const;

 private:
  [[nodiscard]] std::string line(const std::vector<std::string>& cells) const;

  std::vector<TableColumn> columns_;
  std::string indent_;
};

/// `value` with exactly `decimals` digits after the point, independent of the locale.
std::string format_fixed(double value, int decimals);

/// A path's places for a terminal: every item when `full` or when there are at most
/// 2 * `shown_at_each_end` of them; otherwise the first and last `shown_at_each_end` around
/// " ... ", so that a path of thousands of cells stays one readable line. Items are joined by
/// `separator` (which each item after the first is given in front of it).
std::string elided_items(const std::vector<std::string>& items, bool full, const std::string& separator = " ",
                         std::size_t shown_at_each_end = 4);

}  // namespace wayfinder::cli
