#pragma once
// True clearance on a grid, for agents bigger than one cell (Harabor & Botea 2008, "Hierarchical
// Path Planning for Multi-Size Agents in Heterogeneous Environments", IEEE CIG; the annotation
// behind HAA*).
//
// The clearance of a cell (x, y) is the largest k such that the k x k square whose top-left
// cell is (x, y) lies inside the map and is all passable; 0 on blocked cells. An agent of size
// k x k stands with its top-left cell on (x, y) exactly when clearance(x, y) >= k. Computed in
// one pass over the cells (the dynamic programme for the largest square of ones); every stored
// value is exactly min(max_clearance, true clearance), one byte per cell.
//
// A clearance belongs to one version of one map: it remembers the map's size and revision()
// (see docs/changing-worlds.md) and current_for(map) says whether they still match. It is never
// updated by edits; recompute() it after editing the map. A map's forget_changes() restarts its
// revision at 0: recompute after calling forget_changes() on a map you edited.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

/// The largest clearance stored, and so the largest agent size a grid search accepts.
inline constexpr int max_clearance = 255;

class GridClearance {
 public:
  /// An empty annotation, current for no map (not even an empty one).
  GridClearance() = default;
  /// The clearance of every cell of `map`, in O(width x height) time and one byte per cell.
  explicit GridClearance(const GridMap& map) { recompute(map); }

  /// Computes the clearance of `map` again (its memory is reused when the size allows).
  void recompute(const GridMap& map);

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// The revision of the map this was computed for.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// True when this was computed for a map of this size at its present revision.
  [[nodiscard]] bool current_for(const GridMap& map) const {
    return computed_ && map.width() == width_ && map.height() == height_ && map.revision() == revision_;
  }

  /// The clearance of (x, y), capped at max_clearance; 0 outside the map and on blocked cells.
  [[nodiscard]] int value(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return 0;
    return values_[padded_index(x, y)];
  }
  [[nodiscard]] int value(Cell c) const { return value(c.x, c.y); }
  /// Whether a size x size agent fits with its top-left cell on `top_left`.
  [[nodiscard]] bool fits(Cell top_left, int size) const { return size >= 1 && value(top_left) >= size; }

  /// The 3x3 neighbourhood of (x, y) as GridMap::neighbourhood gives it, but with bit
  /// (dy + 1) * 3 + (dx + 1) set when a size x size agent fits at (x + dx, y + dy). Valid for
  /// any (x, y) inside the map (the values are padded with a ring of zeros).
  [[nodiscard]] WAYFINDER_FORCE_INLINE std::uint32_t fitting_neighbourhood(int x, int y, std::uint8_t size) const {
    const std::uint8_t* above = values_.data() + padded_index(x - 1, y - 1);
    const std::uint8_t* here = above + padded_width_;
    const std::uint8_t* below = here + padded_width_;
    return static_cast<std::uint32_t>(above[0] >= size) | static_cast<std::uint32_t>(above[1] >= size) << 1 |
           static_cast<std::uint32_t>(above[2] >= size) << 2 | static_cast<std::uint32_t>(here[0] >= size) << 3 |
           static_cast<std::uint32_t>(here[1] >= size) << 4 | static_cast<std::uint32_t>(here[2] >= size) << 5 |
           static_cast<std::uint32_t>(below[0] >= size) << 6 | static_cast<std::uint32_t>(below[1] >= size) << 7 |
           static_cast<std::uint32_t>(below[2] >= size) << 8;
  }

 private:
  // One ring of zeros around the map, so that neighbourhoods need no bounds checks.
  [[nodiscard]] std::size_t padded_index(int x, int y) const {
    return static_cast<std::size_t>(y + 1) * padded_width_ + static_cast<std::size_t>(x + 1);
  }

  int width_ = 0;
  int height_ = 0;
  std::size_t padded_width_ = 0;
  std::uint64_t revision_ = 0;
  bool computed_ = false;
  std::vector<std::uint8_t> values_;  ///< (width + 2) x (height + 2), row-major, zero border
};

/// Why a size x size agent does not fit with its top-left cell on `top_left`: the first cell of
/// its body (row by row) that is blocked or outside the map; nullopt when it fits. Checks the
/// body cell by cell (O(size^2)), for messages and tests.
std::optional<Cell> first_blocked_body_cell(const GridMap& map, Cell top_left, int size);

}  // namespace wayfinder
