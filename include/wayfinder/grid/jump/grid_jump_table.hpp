#pragma once
// Preprocessed jump distances for JPS+ (Rabin 2015, "JPS+: An Extreme A* Speed Optimization for
// Static Uniform Cost Grids", Game AI Pro 2; Harabor & Grastien 2014, "Improving Jump Point
// Search", ICAPS). For every passable cell and each of the 8 directions the table holds where
// the jump from that cell in that direction stops, as a signed distance in steps:
//
//   d > 0   the jump ends on a jump point d steps away;
//   d <= 0  no jump point: -d steps are free, then a wall (a blocked cell, the map's edge, or,
//           for a diagonal, a corner that cannot be cut).
//
// Jump points are JumpPointDomain's, under the MovingAI rules (8-connected, no corner cutting,
// DiagonalMode::only_if_no_obstacles). Blocked cells hold 0 in every direction. See
// docs/grid.md, "JPS+: preprocessed jump points".
//
// A table belongs to one version of one map (GridCellTable: its size, revision() and a checksum
// of its passability); check(map) throws when they do not match. It is never updated by edits:
// build a new one after editing the map (and after forget_changes() on a map you edited, which
// restarts its revision at 0).
//
// Memory: 16 bytes per cell (8 directions x int16; a side of at most max_grid_side = 2^15 cells
// keeps every distance within int16). Building reads each cell a constant number of times.

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
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

/// The 8 directions of a jump table, clockwise from north (y grows downwards, as in MovingAI).
enum class JumpDirection : std::uint8_t { north, north_east, east, south_east, south, south_west, west, north_west };
inline constexpr int jump_direction_count = 8;
inline constexpr int jump_direction_dx[jump_direction_count] = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr int jump_direction_dy[jump_direction_count] = {-1, -1, 0, 1, 1, 1, 0, -1};
/// The direction index (0..7) of a step (dx, dy), each in {-1, 0, 1}, not both 0.
constexpr int jump_direction_index(int dx, int dy) {
  // Rows dy = -1, 0, 1; columns dx = -1, 0, 1.
  constexpr int table[3][3] = {{7, 0, 1}, {6, -1, 2}, {5, 4, 3}};
  return table[dy + 1][dx + 1];
}

/// A 64-bit checksum (FNV-1a) of a map's size and passability, cell by cell: what a saved table
/// is checked against when it is loaded.
std::uint64_t passability_checksum(const GridMap& map);

namespace grid_table_file {
struct Kind;
}

/// The jump distances of one map; its map stamp, checks, build time and file: GridCellTable.
class GridJumpTable : public GridCellTable<GridJumpTable> {
 public:
  /// Called while building with the work done so far and the total (both in rows of cells).
  using Progress = std::function<void(std::size_t done, std::size_t total)>;

  /// An empty table, for no map (check() refuses every map but an empty one).
  GridJumpTable() = default;
  /// Builds the table of `map`'s current version. The map may have terrain costs (the table
  /// only reads passability), but the JPS+ search refuses maps that do.
  explicit GridJumpTable(const GridMap& map, const Progress& progress = {});

  /// The signed distance (see the top of this file) of a jump from `cell` in `direction` (0..7).
  [[nodiscard]] WAYFINDER_FORCE_INLINE int distance(NodeId cell, int direction) const {
    return distances_[static_cast<std::size_t>(cell) * jump_direction_count + static_cast<std::size_t>(direction)];
  }
  [[nodiscard]] int distance(Cell cell, JumpDirection direction) const {
    return distance(static_cast<NodeId>(cell.y) * static_cast<NodeId>(width_) + static_cast<NodeId>(cell.x),
                    static_cast<int>(direction));
  }

  /// Bytes the table holds (its distances and the object itself).
  [[nodiscard]] std::size_t memory_bytes() const {
    return sizeof(*this) + distances_.capacity() * sizeof(std::int16_t);
  }
  /// The memory_bytes() of a table of `map` (16 bytes per cell), known before building: for a
  /// caller that refuses maps too large for its memory (the `wayfinder` command's
  /// --max-table-memory). Building it, or loading it from a file (read straight into the
  /// table), needs nothing more.
  [[nodiscard]] static std::size_t memory_bytes_for(const GridMap& map) {
    return sizeof(GridJumpTable) + map.cell_count() * jump_direction_count * sizeof(std::int16_t);
  }

  // ---- Files (GridCellTable): the magic text "WFJUMPT\n", then the distances as int16. The
  // checksum only catches accidents, and a search trusts every distance (a wrong one could jump
  // through a wall), so load() also checks every distance against the map: each must satisfy
  // the recurrence the constructor computes it by (from the map and the next cell's distance),
  // so a loaded table is the built one or a LoadError. The check reads the map a few times per
  // entry, O(cells x 8) with no memory beyond the table: about as long as a build (48 ms of CPU
  // on a 1024 x 1024 map, where the build takes 39; docs/grid.md).
  static constexpr std::uint32_t file_version = 1;

 private:
  friend class GridCellTable<GridJumpTable>;
  static const grid_table_file::Kind& file_kind();
  [[nodiscard]] std::span<const std::byte> value_bytes() const { return std::as_bytes(std::span(distances_)); }
  /// The distances' storage, sized for `map`, for a file's values to be read into.
  std::span<std::byte> values_for(const GridMap& map) {
    distances_.resize(map.cell_count() * jump_direction_count);
    return std::as_writable_bytes(std::span(distances_));
  }
  /// Why the distances read into values_for(map) cannot belong to `map`, or nullopt.
  [[nodiscard]] std::optional<std::string> values_problem(const GridMap& map) const;

  std::vector<std::int16_t> distances_;  ///< cell-major: 8 per cell
};

}  // namespace wayfinder
