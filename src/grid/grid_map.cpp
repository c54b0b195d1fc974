#include "wayfinder/grid/grid_map.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace wayfinder {

namespace {
std::size_t words_for(int cells) {
  // left pad + cells + right pad, plus one spare word so an 8-byte read at the last bit stays
  // inside the row.
  return (static_cast<std::size_t>(cells) + 2 * 64 + 63) / 64 + 1;
}
}  // namespace

GridMap::GridMap(int width, int height) {
  if (width < 1 || height < 1 || width > max_grid_side || height > max_grid_side ||
      static_cast<std::int64_t>(width) * height > max_grid_cells)
    throw std::invalid_argument("grid size " + std::to_string(width) + " x " + std::to_string(height) +
                                " is outside 1.." + std::to_string(max_grid_side) + " per side and " +
                                std::to_string(max_grid_cells) + " cells");
  width_ = width;
  height_ = height;
  inverse_width_ = 1.0 / width;
  words_per_row_ = words_for(width);
  words_per_column_ = words_for(height);
  rows_.assign(words_per_row_ * static_cast<std::size_t>(height + 2), 0);
  columns_.assign(words_per_column_ * static_cast<std::size_t>(width + 2), 0);
  costs_.assign(cell_count(), 1.0f);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) write_bit(x, y, true);
}

void GridMap::write_bit(int x, int y, bool value) {
  const std::size_t r = row_bit(x, y);
  const std::size_t c = column_bit(x, y);
  const std::uint64_t row_mask = std::uint64_t{1} << (r & 63);
  const std::uint64_t column_mask = std::uint64_t{1} << (c & 63);
  if (value) {
    rows_[r >> 6] |= row_mask;
    columns_[c >> 6] |= column_mask;
  } else {
    rows_[r >> 6] &= ~row_mask;
    columns_[c >> 6] &= ~column_mask;
  }
}

namespace {
std::string cell_text(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

void check_cost(float cost) {
  if (!std::isfinite(cost) || !(cost > 0.0f))
    throw std::invalid_argument("terrain cost must be finite and > 0, got " + std::to_string(cost));
}
}  // namespace

bool GridMap::apply_passable(int x, int y, bool passable) {
  const bool was = passable_unchecked(x, y);
  if (was == passable) return false;
  if (costs_[id_of(x, y)] != 1.0f) {
    if (passable)
      ++non_unit_cells_;
    else
      --non_unit_cells_;
  }
  write_bit(x, y, passable);
  return true;
}

bool GridMap::apply_cost(int x, int y, float cost) {
  const bool opened = apply_passable(x, y, true);
  float& stored = costs_[id_of(x, y)];
  if (stored == cost) return opened;
  if (stored == 1.0f && cost != 1.0f) ++non_unit_cells_;
  if (stored != 1.0f && cost == 1.0f) --non_unit_cells_;
  stored = cost;
  // The minimum only ever decreases: a stale (too small) bound keeps heuristics admissible.
  if (cost < min_cost_) min_cost_ = cost;
  return true;
}

void GridMap::set_passable(int x, int y, bool passable) {
  if (!contains(x, y)) throw std::out_of_range("cell " + cell_text(x, y) + " is outside the map");
  const float before = cost_or_blocked(x, y);
  if (!apply_passable(x, y, passable)) return;
  changes_.record({{x, y}, before});
  changes_.commit();
}

void GridMap::set_cost(int x, int y, float cost) {
  if (!contains(x, y)) throw std::out_of_range("cell " + cell_text(x, y) + " is outside the map");
  check_cost(cost);
  const float before = cost_or_blocked(x, y);
  if (!apply_cost(x, y, cost)) return;
  changes_.record({{x, y}, before});
  changes_.commit();
}

void GridMap::check_inside(const GridRect& area) const {
  if (area.width < 0 || area.height < 0 || !contains(area.x, area.y) ||
      !contains(area.x + std::max(area.width, 1) - 1, area.y + std::max(area.height, 1) - 1))
    throw std::out_of_range("rectangle at " + cell_text(area.x, area.y) + " of " + std::to_string(area.width) + " x " +
                            std::to_string(area.height) + " cells is not inside the " + std::to_string(width_) + " x " +
                            std::to_string(height_) + " map");
}

void GridMap::set_passable(const GridRect& area, bool passable) {
  check_inside(area);
  bool changed = false;
  for (int y = area.y; y < area.y + area.height; ++y)
    for (int x = area.x; x < area.x + area.width; ++x) {
      const float before = cost_or_blocked(x, y);
      if (apply_passable(x, y, passable)) {
        changes_.record({{x, y}, before});
        changed = true;
      }
    }
  if (changed) changes_.commit();
}

void GridMap::set_cost(const GridRect& area, float cost) {
  check_inside(area);
  check_cost(cost);
  bool changed = false;
  for (int y = area.y; y < area.y + area.height; ++y)
    for (int x = area.x; x < area.x + area.width; ++x) {
      const float before = cost_or_blocked(x, y);
      if (apply_cost(x, y, cost)) {
        changes_.record({{x, y}, before});
        changed = true;
      }
    }
  if (changed) changes_.commit();
}

std::size_t GridMap::passable_count() const {
  std::size_t count = 0;
  for (const std::uint64_t word : rows_) count += static_cast<std::size_t>(std::popcount(word));
  return count;
}

}  // namespace wayfinder
