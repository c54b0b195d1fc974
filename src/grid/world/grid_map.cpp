#include "wayfinder/grid/world/grid_map.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
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
  area_counts_[0] = cell_count();
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) write_bit(x, y, true);
}

GridMap GridMap::from_costs(int width, int height, std::span<const float> costs, std::span<const std::uint8_t> blocked) {
  GridMap map(width, height);  // checks the sides
  const auto check_size = [&](std::size_t size, const char* name) {
    if (size != 0 && size != map.cell_count())
      throw std::invalid_argument(std::string(name) + " has " + std::to_string(size) + " values; a " +
                                  std::to_string(width) + " x " + std::to_string(height) + " grid needs " +
                                  std::to_string(map.cell_count()));
  };
  check_size(costs.size(), "costs");
  check_size(blocked.size(), "blocked");
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const NodeId id = map.id_of(x, y);
      const float cost = costs.empty() ? 1.0f : costs[id];
      if ((!blocked.empty() && blocked[id] != 0) || cost == std::numeric_limits<float>::infinity()) {
        map.apply_passable(x, y, false);
        continue;
      }
      if (!std::isfinite(cost) || !(cost > 0.0f))
        throw std::invalid_argument("cell (" + std::to_string(x) + ", " + std::to_string(y) + ") has cost " +
                                    std::to_string(cost) + "; costs must be > 0, or inf for a wall");
      map.apply_cost(x, y, cost);
    }
  return map;
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

bool GridMap::apply_area(int x, int y, AreaId area) {
  if (area == this->area(x, y)) return false;
  if (areas_.empty()) areas_.assign(cell_count(), AreaId{0});
  AreaId& stored = areas_[id_of(x, y)];
  --area_counts_[stored];
  ++area_counts_[area];
  stored = area;
  return true;
}

bool GridMap::apply_flags(int x, int y, AreaFlags flags) {
  if (flags == this->flags(x, y)) return false;
  if (flags_.empty()) flags_.assign(cell_count(), AreaFlags{0});
  AreaFlags& stored = flags_[id_of(x, y)];
  for (int bit = 0; bit < 16; ++bit) {
    if ((stored >> bit) & 1u) --flag_counts_[static_cast<std::size_t>(bit)];
    if ((flags >> bit) & 1u) ++flag_counts_[static_cast<std::size_t>(bit)];
  }
  stored = flags;
  return true;
}

std::uint64_t GridMap::areas_in_use() const {
  std::uint64_t mask = 0;
  for (int area = 0; area < max_areas; ++area)
    if (area_counts_[static_cast<std::size_t>(area)] != 0) mask |= std::uint64_t{1} << area;
  return mask;
}

AreaFlags GridMap::flags_in_use() const {
  AreaFlags mask = 0;
  for (int bit = 0; bit < 16; ++bit)
    if (flag_counts_[static_cast<std::size_t>(bit)] != 0) mask = static_cast<AreaFlags>(mask | (1u << bit));
  return mask;
}

void GridMap::set_passable(int x, int y, bool passable) {
  edit_cells(GridRect{x, y, 1, 1}, [&](int cx, int cy) { return apply_passable(cx, cy, passable); });
}

void GridMap::set_cost(int x, int y, float cost) {
  check_cost(cost);
  edit_cells(GridRect{x, y, 1, 1}, [&](int cx, int cy) { return apply_cost(cx, cy, cost); });
}

void GridMap::set_area(Cell c, AreaId area) { set_area(GridRect{c.x, c.y, 1, 1}, area); }
void GridMap::set_flags(Cell c, AreaFlags flags) { set_flags(GridRect{c.x, c.y, 1, 1}, flags); }

void GridMap::set_area(const GridRect& rect, AreaId area) {
  if (area >= max_areas)
    throw std::invalid_argument("area " + std::to_string(area) + " is not in [0, " + std::to_string(max_areas) + ")");
  edit_cells(rect, [&](int x, int y) { return apply_area(x, y, area); });
}

void GridMap::set_flags(const GridRect& rect, AreaFlags flags) {
  edit_cells(rect, [&](int x, int y) { return apply_flags(x, y, flags); });
}

void GridMap::check_inside(const GridRect& area) const {
  if (area.width == 1 && area.height == 1 && !contains(area.x, area.y))
    throw std::out_of_range("cell " + cell_text(area.x, area.y) + " is outside the map");
  if (area.width < 0 || area.height < 0 || !contains(area.x, area.y) ||
      !contains(area.x + std::max(area.width, 1) - 1, area.y + std::max(area.height, 1) - 1))
    throw std::out_of_range("rectangle at " + cell_text(area.x, area.y) + " of " + std::to_string(area.width) + " x " +
                            std::to_string(area.height) + " cells is not inside the " + std::to_string(width_) + " x " +
                            std::to_string(height_) + " map");
}

void GridMap::set_passable(const GridRect& area, bool passable) {
  edit_cells(area, [&](int x, int y) { return apply_passable(x, y, passable); });
}

void GridMap::set_cost(const GridRect& area, float cost) {
  check_cost(cost);
  edit_cells(area, [&](int x, int y) { return apply_cost(x, y, cost); });
}

std::size_t GridMap::passable_count() const {
  std::size_t count = 0;
  for (const std::uint64_t word : rows_) count += static_cast<std::size_t>(std::popcount(word));
  return count;
}

}  // namespace wayfinder
