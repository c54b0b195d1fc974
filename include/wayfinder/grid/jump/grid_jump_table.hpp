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
// A table belongs to one version of one map: it remembers the map's size, revision() (see
// docs/changing-worlds.md) and a checksum of its passability; check(map) throws when they do not
// match. It is never updated by edits: build a new one after editing the map (and after
// forget_changes() on a map you edited, which restarts its revision at 0).
//
// Memory: 16 bytes per cell (8 directions x int16; a side of at most max_grid_side = 2^15 cells
// keeps every distance within int16). Building reads each cell a constant number of times.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
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

class GridJumpTable {
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

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// The map's revision() when the table was built (or, for a loaded table, when it was loaded).
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// passability_checksum() of the map the table was built for.
  [[nodiscard]] std::uint64_t map_checksum() const { return map_checksum_; }

  /// Why the table does not belong to `map`'s current version (its size or revision differ),
  /// or nullopt when it does. Cheap: the passability is not compared.
  [[nodiscard]] std::optional<std::string> mismatch(const GridMap& map) const;
  /// The same, also comparing the checksum of the passability (one pass over the map): for a
  /// table handed over from elsewhere.
  [[nodiscard]] std::optional<std::string> mismatch_thoroughly(const GridMap& map) const;
  /// Throws std::invalid_argument with mismatch()'s text when the table does not fit `map`.
  void check(const GridMap& map) const;

  /// Seconds spent building (0 for a loaded table).
  [[nodiscard]] double build_seconds() const { return build_seconds_; }
  /// Bytes the table holds (its distances and the object itself).
  [[nodiscard]] std::size_t memory_bytes() const {
    return sizeof(*this) + distances_.capacity() * sizeof(std::int16_t);
  }

  // ---- Files. Layout (little-endian): the 8 bytes "WFJUMPT\n", u32 format version
  // (file_version), u32 width, u32 height, u32 zero, u64 passability checksum of the map, u64
  // checksum (FNV-1a) of the distances, then width x height x 8 int16 distances, cell by cell
  // in row-major order, directions as in JumpDirection. Nothing may follow them.

  static constexpr std::uint32_t file_version = 1;
  /// Writes the table. Throws std::runtime_error naming the file when it cannot be written.
  void save(const std::filesystem::path& file) const;
  /// Reads a table saved for `map` and checks it: LoadError (core/load_error.hpp) naming the
  /// file and the reason when it is not a table file, has another version, was built for a map
  /// of another size or passability, is truncated, too long, or its distances do not match
  /// their checksum. The loaded table takes `map`'s current revision.
  static GridJumpTable load(const std::filesystem::path& file, const GridMap& map);
  /// The same from bytes in memory; `source_name` names them in errors.
  static GridJumpTable from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                                  const std::string& source_name);
  /// The bytes save() writes.
  [[nodiscard]] std::vector<unsigned char> to_bytes() const;

 private:
  int width_ = 0;
  int height_ = 0;
  std::uint64_t revision_ = 0;
  std::uint64_t map_checksum_ = 0;
  double build_seconds_ = 0.0;
  std::vector<std::int16_t> distances_;  ///< cell-major: 8 per cell
};

}  // namespace wayfinder
