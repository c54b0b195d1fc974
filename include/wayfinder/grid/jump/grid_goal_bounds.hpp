#pragma once
// Goal bounding for JPS+ (Rabin & Sturtevant 2016, "Combining Bounding Boxes and JPS to Prune
// Grid Pathfinding", AAAI; Rabin 2017, "Faster A* with Goal Bounding", Game AI Pro 3). For every
// passable cell and each of its 8 outgoing directions the structure holds the bounding box of
// the goals for which a move in that direction starts an optimal path (every optimal first
// move, ties included, under the MovingAI rules), so a search that skips a direction whose box
// excludes the goal stays optimal. How the boxes are computed: docs/grid.md, "Goal bounding".
//
// Building searches from every passable cell, by canonical Dijkstra (Sturtevant & Rabin 2016;
// only jump points enter its open list) and then the first moves from each cell's optimal
// predecessors: the boxes are exactly those one plain Dijkstra search per cell gives, ties
// included. Still quadratic in the passable cells (times in docs/benchmarks.md, "Goal
// bounding"). It may run on several threads; the result does not depend on their number.
//
// Like GridJumpTable, the bounds belong to one version of one map (GridCellTable: its size,
// revision() and passability checksum), and mismatch() names what differs.
//
// Memory: 64 bytes per cell (8 boxes of 4 x int16; blocked cells hold empty boxes).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/grid/jump/grid_cell_table.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

class GridGoalBoundsPart;

/// A box of cells, both corners included; empty when min_x > max_x.
struct GoalBox {
  std::int16_t min_x = 1;
  std::int16_t min_y = 1;
  std::int16_t max_x = 0;
  std::int16_t max_y = 0;
  [[nodiscard]] bool empty() const { return min_x > max_x || min_y > max_y; }
  [[nodiscard]] WAYFINDER_FORCE_INLINE bool contains(int x, int y) const {
    return x >= min_x && x <= max_x && y >= min_y && y <= max_y;
  }
  friend bool operator==(const GoalBox&, const GoalBox&) = default;
};

/// The goal boxes of one map; its map stamp, checks, build time and file: GridCellTable.
class GridGoalBounds : public GridCellTable<GridGoalBounds> {
 public:
  /// Called while building with the source cells done so far and the total (passable cells).
  /// It is called on the thread that builds.
  using Progress = std::function<void(std::size_t done, std::size_t total)>;

  /// Empty bounds, for no map.
  GridGoalBounds() = default;
  /// Builds the bounds of `map`'s current version on `threads` threads (at least 1; the
  /// calling thread is one of them). The map may have terrain costs (only passability is read).
  explicit GridGoalBounds(const GridMap& map, const Progress& progress = {}, int threads = 2);

  /// The bounds of `map`'s current version from parts built apart (grid_goal_bounds_part.hpp),
  /// given in any order: equal, box for box, to the bounds the constructor builds, so that
  /// save() writes the same file. Throws std::invalid_argument saying what is wrong when there
  /// is no part, a part was built for another map (size or passability checksum), two parts
  /// overlap, cells are in no part, or the boxes cannot belong to `map` (the checks load()
  /// makes). build_seconds() is the parts' sum; build_threads() is 0.
  static GridGoalBounds merge(std::span<const GridGoalBoundsPart> parts, const GridMap& map);

  /// The box of goals for which leaving `cell` in `direction` (0..7, as JumpDirection) starts
  /// an optimal path.
  [[nodiscard]] WAYFINDER_FORCE_INLINE const GoalBox& box(NodeId cell, int direction) const {
    return boxes_[static_cast<std::size_t>(cell) * jump_direction_count + static_cast<std::size_t>(direction)];
  }
  /// Whether a goal at (x, y) may be reached optimally by leaving `cell` in `direction`.
  [[nodiscard]] WAYFINDER_FORCE_INLINE bool admits(NodeId cell, int direction, int x, int y) const {
    return box(cell, direction).contains(x, y);
  }

  /// The threads used to build (build_seconds() is the time).
  [[nodiscard]] int build_threads() const { return build_threads_; }
  /// Bytes held (the boxes and the object itself).
  [[nodiscard]] std::size_t memory_bytes() const { return sizeof(*this) + boxes_.capacity() * sizeof(GoalBox); }
  /// An estimate, known before building, of the most memory building bounds of `map` on
  /// `threads` threads holds at once: the boxes (64 bytes per cell), padded grids of the
  /// moves and the straight rays' stops, the list of passable cells (6 bytes per cell at most),
  /// and per thread its search's arrays (41 bytes per cell: costs, first moves, stamps, the
  /// cells reached and the depth-first stack) and open list (counted as 16 bytes per cell; it
  /// holds jump points only, far fewer in practice). For a caller that refuses maps too large for its memory (the
  /// `wayfinder` command's --max-table-memory).
  [[nodiscard]] static std::size_t build_memory_bytes_for(const GridMap& map, int threads);

  // ---- Files (GridCellTable): the magic text "WFGOALB\n", then the boxes as 4 int16 each
  // (min_x, min_y, max_x, max_y). The checksum only catches accidents, so load() also checks, in
  // O(cells x 8) and one flood fill, what can be checked without the quadratic build: a box is
  // empty exactly where no move leaves the cell in its direction (blocked cells, walls, cut
  // corners), holds the cell that move reaches, lies within the bounding box of the cell's
  // connected region, and a cell's boxes together cover that region's bounding box. A file
  // that passes these checks and still differs from the built bounds (boxes made smaller
  // inside them) can only remove jumps from a search: the search may then return a costlier
  // path than the optimum, or no path, but every path it returns is made of the jump table's
  // jumps, so it never crosses a wall. Whoever cannot trust a file's origin and needs optimal
  // paths builds the bounds instead of loading them.
  static constexpr std::uint32_t file_version = 1;

 private:
  friend class GridCellTable<GridGoalBounds>;
  static const grid_table_file::Kind& file_kind();
  [[nodiscard]] std::span<const std::byte> value_bytes() const { return std::as_bytes(std::span(boxes_)); }
  /// The boxes' storage, sized for `map`, for a file's values to be read into.
  std::span<std::byte> values_for(const GridMap& map) {
    boxes_.resize(map.cell_count() * jump_direction_count);
    return std::as_writable_bytes(std::span(boxes_));
  }
  /// Why the boxes read into values_for(map) cannot belong to `map`, or nullopt.
  [[nodiscard]] std::optional<std::string> values_problem(const GridMap& map) const;

  int build_threads_ = 0;
  std::vector<GoalBox> boxes_;  ///< cell-major: 8 per cell
};

}  // namespace wayfinder
