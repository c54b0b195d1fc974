#pragma once
// The goal bounds (grid_goal_bounds.hpp) of a range of cells, built on its own: the whole build
// runs one search from each passable cell, and a cell's boxes depend on the map alone, so
// the cells can be split into ranges built apart (on other threads, processes or machines)
// and the parts merged with GridGoalBounds::merge into bounds equal, box for box, to the whole
// build's (so their file is byte for byte the same). docs/grid.md, "Goal bounding", shows the
// command-line and Python forms.
//
// A part remembers the map it was built for by its size and passability checksum (there is no
// map revision to compare once a part has travelled), and the merge refuses parts of another
// map, parts that overlap and a set of parts that misses cells.
//
// File layout (little-endian): the magic text "WFGOALP\n", u32 format version (file_version),
// u32 width, u32 height, u32 zero, u64 passability checksum of the map, u64 first cell, u64
// last cell (excluded), u64 checksum (FNV-1a) of the boxes, then the boxes of the cells
// [first, last) as GridGoalBounds' file holds them (8 boxes of 4 x int16 per cell). Nothing
// may follow them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wayfinder/grid/jump/grid_goal_bounds.hpp"

namespace wayfinder {

class GridGoalBoundsPart {
 public:
  static constexpr std::uint32_t file_version = 1;
  /// Bytes before the boxes in a part's file.
  static constexpr std::size_t header_size = 8 + 4 * 4 + 8 * 4;

  /// An empty part, for no map.
  GridGoalBoundsPart() = default;
  /// Builds the boxes of the cells [first, last) (cell ids: y * width + x) of `map`'s current
  /// version on `threads` threads, with `progress` seeing the passable cells of the range done
  /// and their total. Throws std::invalid_argument unless first <= last <= map.cell_count().
  /// Costs what the whole build costs per passable cell of the range.
  GridGoalBoundsPart(const GridMap& map, NodeId first, NodeId last, const GridGoalBounds::Progress& progress = {},
                     int threads = 2);

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// passability_checksum() of the map the part was built for.
  [[nodiscard]] std::uint64_t map_checksum() const { return map_checksum_; }
  /// The first cell of the range.
  [[nodiscard]] NodeId first() const { return first_; }
  /// One past the last cell of the range.
  [[nodiscard]] NodeId last() const { return last_; }
  /// Seconds spent building (0 for a loaded part).
  [[nodiscard]] double build_seconds() const { return build_seconds_; }
  /// The box of `cell` (in [first(), last())) in `direction` (0..7, as JumpDirection).
  [[nodiscard]] const GoalBox& box(NodeId cell, int direction) const {
    return boxes_[static_cast<std::size_t>(cell - first_) * jump_direction_count + static_cast<std::size_t>(direction)];
  }
  /// The boxes of the range, cell by cell (8 per cell).
  [[nodiscard]] const std::vector<GoalBox>& boxes() const { return boxes_; }

  /// Writes the part. Throws std::runtime_error naming the file when it cannot.
  void save(const std::filesystem::path& file) const;
  /// The bytes save() writes.
  [[nodiscard]] std::vector<unsigned char> to_bytes() const;
  /// Reads a part: LoadError naming the file and why when it is not a part's file, has another
  /// format version, its range does not fit its map's size, it is truncated, too long, or its
  /// boxes do not match their checksum. Which map it belongs to is checked by the merge.
  static GridGoalBoundsPart load(const std::filesystem::path& file);
  /// The same from bytes in memory; `source_name` names them in errors.
  static GridGoalBoundsPart from_bytes(const unsigned char* data, std::size_t size, const std::string& source_name);

 private:
  int width_ = 0;
  int height_ = 0;
  std::uint64_t map_checksum_ = 0;
  NodeId first_ = 0;
  NodeId last_ = 0;
  double build_seconds_ = 0.0;
  std::vector<GoalBox> boxes_;  ///< cell-major: 8 per cell of [first_, last_)
};

}  // namespace wayfinder
