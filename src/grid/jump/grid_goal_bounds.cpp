#include "wayfinder/grid/jump/grid_goal_bounds.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "goal_box_build.hpp"
#include "grid_table_file.hpp"

namespace wayfinder {

namespace {

static_assert(sizeof(GoalBox) == 8);
constexpr grid_table_file::Kind bounds_file_kind{{'W', 'F', 'G', 'O', 'A', 'L', 'B', '\n'},
                                                  GridGoalBounds::file_version,
                                                  jump_direction_count * sizeof(GoalBox),
                                                  "goal bounds",
                                                  "the goal bounds were built for",
                                                  "boxes",
                                                  "the goal bounds were built for",
                                                  "bounds"};

// The connected regions of a map's passable cells and their bounding boxes. Without corner
// cutting a diagonal move needs both side cells free, so the regions of the 8-connected moves
// are those of the 4-connected ones, found here by one flood fill each.
class RegionBoxes {
 public:
  explicit RegionBoxes(const GridMap& map) : region_of_(map.cell_count(), 0), boxes_(1) {
    std::vector<NodeId> stack;
    for (NodeId start = 0; start < map.cell_count(); ++start) {
      const Cell start_cell = map.cell_of(start);
      if (region_of_[start] != 0 || !map.passable_unchecked(start_cell.x, start_cell.y)) continue;
      const auto region = static_cast<std::uint32_t>(boxes_.size());
      GoalBox box{static_cast<std::int16_t>(start_cell.x), static_cast<std::int16_t>(start_cell.y),
                  static_cast<std::int16_t>(start_cell.x), static_cast<std::int16_t>(start_cell.y)};
      region_of_[start] = region;
      stack.push_back(start);
      while (!stack.empty()) {
        const Cell at = map.cell_of(stack.back());
        stack.pop_back();
        box.min_x = std::min(box.min_x, static_cast<std::int16_t>(at.x));
        box.min_y = std::min(box.min_y, static_cast<std::int16_t>(at.y));
        box.max_x = std::max(box.max_x, static_cast<std::int16_t>(at.x));
        box.max_y = std::max(box.max_y, static_cast<std::int16_t>(at.y));
        for (const int direction : {0, 2, 4, 6}) {
          const int nx = at.x + jump_direction_dx[direction];
          const int ny = at.y + jump_direction_dy[direction];
          if (!map.passable(nx, ny)) continue;
          const NodeId next = map.id_of(nx, ny);
          if (region_of_[next] != 0) continue;
          region_of_[next] = region;
          stack.push_back(next);
        }
      }
      boxes_.push_back(box);
    }
  }
  /// The bounding box of the region of `cell` (empty for a blocked cell).
  [[nodiscard]] const GoalBox& of(NodeId cell) const { return boxes_[region_of_[cell]]; }

 private:
  std::vector<std::uint32_t> region_of_;  ///< per cell; 0 for blocked cells
  std::vector<GoalBox> boxes_;            ///< per region; entry 0 (blocked) is empty
};

}  // namespace

GridGoalBounds::GridGoalBounds(const GridMap& map, const Progress& progress, int threads)
    : GridCellTable(map) {
  const auto began = std::chrono::steady_clock::now();
  build_threads_ = std::max(threads, 1);
  boxes_.assign(map.cell_count() * jump_direction_count, GoalBox{});
  build_goal_boxes(map, 0, static_cast<NodeId>(map.cell_count()), boxes_.data(), progress, build_threads_);
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

std::size_t GridGoalBounds::build_memory_bytes_for(const GridMap& map, int threads) {
  const std::size_t cells = map.cell_count();
  const std::size_t padded = static_cast<std::size_t>(map.width() + 2) * static_cast<std::size_t>(map.height() + 2);
  // Shared: the moves leaving each padded cell and the straight rays' stops (1 byte each), and
  // the sources. Per thread: the costs (steps and value, 8 bytes each), the moves (1 byte), two
  // stamps (2 x uint32), the list of cells reached and the depth-first stack (one size_t per
  // cell each, the most they hold in practice) and the open list.
  constexpr std::size_t search_bytes_per_cell = sizeof(std::uint64_t) + sizeof(double) + sizeof(std::uint8_t) +
                                                2 * sizeof(std::uint32_t) + 2 * sizeof(std::size_t);
  constexpr std::size_t heap_bytes_per_cell = sizeof(double) + sizeof(std::size_t);
  return sizeof(GridGoalBounds) + cells * jump_direction_count * sizeof(GoalBox) + 2 * padded +
         cells * sizeof(NodeId) +
         static_cast<std::size_t>(std::max(threads, 1)) * padded * (search_bytes_per_cell + heap_bytes_per_cell);
}

const grid_table_file::Kind& GridGoalBounds::file_kind() { return bounds_file_kind; }

std::optional<std::string> GridGoalBounds::values_problem(const GridMap& map) const {
  // The boxes are only compared with coordinates, never used as indices, and they only remove
  // jumps, so no box can make a search read outside its arrays or walk through a wall (see the
  // header). A checksum only catches accidents, so refuse, in one pass, every box that the
  // builder cannot have made for this map: a box where no first move exists, a missing box
  // where one does, a box without the cell that move reaches (always reached optimally by it),
  // a box reaching outside the bounding box of the cell's connected region, or boxes that
  // together miss a part of that region.
  const RegionBoxes regions(map);
  auto problem_at = [&](int x, int y, int direction, const std::string& what) {
    return "corrupted: the box of cell (" + std::to_string(x) + "," + std::to_string(y) + ") in direction " +
           std::to_string(direction) + " " + what + " (the boxes were changed after they were built)";
  };
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const NodeId cell = map.id_of(x, y);
      const GoalBox* boxes = boxes_.data() + static_cast<std::size_t>(cell) * jump_direction_count;
      const bool passable = map.passable_unchecked(x, y);
      const GoalBox& region = regions.of(cell);
      GoalBox covered{static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), static_cast<std::int16_t>(x),
                      static_cast<std::int16_t>(y)};
      for (int direction = 0; direction < jump_direction_count; ++direction) {
        const GoalBox& box = boxes[direction];
        const int nx = x + jump_direction_dx[direction];
        const int ny = y + jump_direction_dy[direction];
        const bool move = passable && first_move_exists(map, x, y, direction);
        if (!move) {
          if (!box.empty()) return problem_at(x, y, direction, "is not empty, but no move leaves the cell that way");
          continue;
        }
        if (!box.contains(nx, ny))
          return problem_at(x, y, direction, "leaves out the cell that its move reaches");
        if (box.min_x < region.min_x || box.min_y < region.min_y || box.max_x > region.max_x ||
            box.max_y > region.max_y)
          return problem_at(x, y, direction, "reaches outside the cell's connected region");
        covered.min_x = std::min(covered.min_x, box.min_x);
        covered.min_y = std::min(covered.min_y, box.min_y);
        covered.max_x = std::max(covered.max_x, box.max_x);
        covered.max_y = std::max(covered.max_y, box.max_y);
      }
      if (passable && covered != region)
        return "corrupted: the boxes of cell (" + std::to_string(x) + "," + std::to_string(y) +
               ") do not cover its connected region (the boxes were changed after they were built)";
    }
  return std::nullopt;
}

}  // namespace wayfinder
