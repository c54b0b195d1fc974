#include "wayfinder/grid/jump/grid_goal_bounds.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <thread>

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

// One thread's Dijkstra searches. The map is copied into a padded passability grid (a border of
// blocked cells), so that neighbours need no bounds checks. A cost is a + b*sqrt2 (a straight
// steps, b diagonal ones): two costs are equal exactly when their (a, b) are, and the heap
// orders by the value, whose rounding error (below 1e-9 for any path on a 2^15 side map) is far
// below the smallest difference between two distinct costs of such paths (above 1e-6).
class FirstMoveDijkstra {
 public:
  FirstMoveDijkstra(const std::vector<unsigned char>& passable, int padded_width)
      : passable_(passable), padded_width_(padded_width), straight_(passable.size()), diagonal_(passable.size()),
        moves_(passable.size()), stamp_(passable.size(), 0), closed_(passable.size(), 0) {
    for (int d = 0; d < jump_direction_count; ++d)
      offset_[d] = jump_direction_dy[d] * padded_width_ + jump_direction_dx[d];
  }

  // Labels every cell reached from `source` (a padded index) with its set of optimal first
  // moves and widens `boxes` (the source's 8) to hold it.
  void run(std::size_t source, GoalBox* boxes) {
    ++generation_;
    while (!heap_.empty()) heap_.pop();
    reach(source, 0, 0, 0);
    heap_.push({0.0, source});
    while (!heap_.empty()) {
      const Entry top = heap_.top();
      heap_.pop();
      const std::size_t at = top.cell;
      if (closed_[at] == generation_) continue;
      closed_[at] = generation_;
      const std::uint8_t label = moves_[at];
      if (at != source) {
        const int x = static_cast<int>(at % static_cast<std::size_t>(padded_width_)) - 1;
        const int y = static_cast<int>(at / static_cast<std::size_t>(padded_width_)) - 1;
        for (int d = 0; d < jump_direction_count; ++d) {
          if ((label & (1u << d)) == 0) continue;
          GoalBox& box = boxes[d];
          if (box.empty()) {
            box = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), static_cast<std::int16_t>(x),
                   static_cast<std::int16_t>(y)};
          } else {
            box.min_x = std::min(box.min_x, static_cast<std::int16_t>(x));
            box.min_y = std::min(box.min_y, static_cast<std::int16_t>(y));
            box.max_x = std::max(box.max_x, static_cast<std::int16_t>(x));
            box.max_y = std::max(box.max_y, static_cast<std::int16_t>(y));
          }
        }
      }
      const std::int32_t a = straight_[at];
      const std::int32_t b = diagonal_[at];
      for (int d = 0; d < jump_direction_count; ++d) {
        const std::size_t next = at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset_[d]));
        if (passable_[next] == 0) continue;
        const bool diagonal = (d & 1) != 0;
        // No corner cutting: a diagonal step needs both side cells free.
        if (diagonal && (passable_[at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(
                                           jump_direction_dy[d] * padded_width_))] == 0 ||
                         passable_[at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(jump_direction_dx[d]))] ==
                             0))
          continue;
        if (closed_[next] == generation_) continue;
        const std::uint8_t moves = at == source ? static_cast<std::uint8_t>(1u << d) : label;
        const std::int32_t na = diagonal ? a : a + 1;
        const std::int32_t nb = diagonal ? b + 1 : b;
        if (stamp_[next] != generation_) {
          reach(next, na, nb, moves);
          heap_.push({value(na, nb), next});
        } else if (straight_[next] == na && diagonal_[next] == nb) {
          moves_[next] |= moves;  // an exact tie: another optimal first move
        } else if (value(na, nb) < value(straight_[next], diagonal_[next])) {
          reach(next, na, nb, moves);
          heap_.push({value(na, nb), next});
        }
      }
    }
  }

 private:
  struct Entry {
    double cost;
    std::size_t cell;
    bool operator<(const Entry& other) const { return cost > other.cost; }  // a min-heap
  };
  static double value(std::int32_t a, std::int32_t b) { return a + b * 1.4142135623730950488; }
  void reach(std::size_t cell, std::int32_t a, std::int32_t b, std::uint8_t moves) {
    stamp_[cell] = generation_;
    straight_[cell] = a;
    diagonal_[cell] = b;
    moves_[cell] = moves;
  }

  const std::vector<unsigned char>& passable_;
  int padded_width_;
  int offset_[jump_direction_count] = {};
  std::vector<std::int32_t> straight_;
  std::vector<std::int32_t> diagonal_;
  std::vector<std::uint8_t> moves_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint32_t> closed_;
  std::uint32_t generation_ = 0;
  std::priority_queue<Entry> heap_;
};

// Whether a move leaves the passable cell (x, y) in `direction`: the next cell is free and, for
// a diagonal, so are both side cells (no corner cutting), as FirstMoveDijkstra moves.
bool first_move_exists(const GridMap& map, int x, int y, int direction) {
  const int dx = jump_direction_dx[direction];
  const int dy = jump_direction_dy[direction];
  if (!map.passable(x + dx, y + dy)) return false;
  return dx == 0 || dy == 0 || (map.passable(x + dx, y) && map.passable(x, y + dy));
}

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

std::size_t build_goal_boxes(const GridMap& map, NodeId first, NodeId last, GoalBox* boxes,
                             const GridGoalBounds::Progress& progress, int threads) {
  threads = std::max(threads, 1);
  const int width = map.width();
  const int height = map.height();
  const int padded_width = width + 2;
  std::vector<unsigned char> passable(static_cast<std::size_t>(padded_width) * static_cast<std::size_t>(height + 2), 0);
  std::vector<NodeId> sources;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (map.passable_unchecked(x, y)) {
        passable[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(padded_width) +
                 static_cast<std::size_t>(x + 1)] = 1;
        const NodeId cell = map.id_of(x, y);
        if (cell >= first && cell < last) sources.push_back(cell);
      }
  // Sources are handed out in chunks; each writes only its own cell's boxes, so the result does
  // not depend on the threads' order, nor on which range of sources a build covers.
  constexpr std::size_t chunk = 64;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  const std::size_t total = sources.size();
  auto work = [&](bool reports) {
    FirstMoveDijkstra dijkstra(passable, padded_width);
    while (true) {
      const std::size_t begin = next.fetch_add(chunk);
      if (begin >= total) break;
      const std::size_t end = std::min(total, begin + chunk);
      for (std::size_t i = begin; i < end; ++i) {
        const NodeId cell = sources[i];
        const std::size_t x = cell % static_cast<NodeId>(width);
        const std::size_t y = cell / static_cast<NodeId>(width);
        dijkstra.run((y + 1) * static_cast<std::size_t>(padded_width) + x + 1,
                     boxes + static_cast<std::size_t>(cell - first) * jump_direction_count);
      }
      const std::size_t now = done.fetch_add(end - begin) + (end - begin);
      if (reports && progress) progress(now, total);
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, false);
  try {
    work(true);
  } catch (...) {
    // A progress callback that throws stops the build: the helpers finish their chunk and stop.
    next.store(total);
    for (std::thread& helper : helpers) helper.join();
    throw;
  }
  for (std::thread& helper : helpers) helper.join();
  if (progress) progress(total, total);
  return total;
}

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
  constexpr std::size_t dijkstra_bytes_per_cell = 2 * sizeof(std::int32_t) + sizeof(std::uint8_t) +
                                                  2 * sizeof(std::uint32_t);
  constexpr std::size_t heap_bytes_per_cell = sizeof(double) + sizeof(std::size_t);
  return sizeof(GridGoalBounds) + cells * jump_direction_count * sizeof(GoalBox) + padded + cells * sizeof(NodeId) +
         static_cast<std::size_t>(std::max(threads, 1)) * padded * (dijkstra_bytes_per_cell + heap_bytes_per_cell);
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
