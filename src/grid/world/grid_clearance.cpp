#include "wayfinder/grid/world/grid_clearance.hpp"

#include <algorithm>

namespace wayfinder {

void GridClearance::recompute(const GridMap& map) {
  width_ = map.width();
  height_ = map.height();
  padded_width_ = static_cast<std::size_t>(width_) + 2;
  revision_ = map.revision();
  values_.assign(padded_width_ * (static_cast<std::size_t>(height_) + 2), 0);
  // From the bottom-right corner: the cells right, below and diagonally below-right of (x, y)
  // are final when (x, y) is reached; the zero ring stands for the outside of the map.
  for (int y = height_ - 1; y >= 0; --y) {
    std::uint8_t* row = values_.data() + padded_index(0, y);
    const std::uint8_t* below = row + padded_width_;
    for (int x = width_ - 1; x >= 0; --x) {
      if (!map.passable_unchecked(x, y)) continue;  // stays 0
      const int smallest = std::min({row[x + 1], below[x], below[x + 1]});
      row[x] = static_cast<std::uint8_t>(std::min(max_clearance, smallest + 1));
    }
  }
  computed_ = true;
}

std::optional<Cell> first_blocked_body_cell(const GridMap& map, Cell top_left, int size) {
  for (int dy = 0; dy < size; ++dy)
    for (int dx = 0; dx < size; ++dx) {
      const Cell cell{top_left.x + dx, top_left.y + dy};
      if (!map.passable(cell)) return cell;
    }
  return std::nullopt;
}

}  // namespace wayfinder
