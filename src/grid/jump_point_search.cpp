#include "wayfinder/grid/jump_point_search.hpp"

#include <bit>
#include <vector>

namespace wayfinder {

namespace {

// Cells a straight scan covers per bit-grid read (a read is valid for at least 57 bits).
constexpr int cells_per_read = 56;
constexpr std::uint64_t forward_window = (std::uint64_t{1} << cells_per_read) - 1;   // bits 0..55
constexpr std::uint64_t backward_window = ~std::uint64_t{0} << (64 - cells_per_read);  // bits 8..63

// One scan along a line of cells (a row, or a column of the transposed grid). `line(p, o)`
// reads the passability of the line offset by `o` (-1, 0, +1) at position p, forward (bit i =
// p + i) or backward (bit 63 - i = p - i). A position is a jump point if the side cell there is
// free while the side cell one step back is blocked (a forced neighbour).
template <bool Forward, class ReadLine>
[[gnu::always_inline]] inline int scan(int from, int goal_position, bool goal_on_line, ReadLine&& line) {
  int position = Forward ? from + 1 : from - 1;
  while (true) {
    // One read per side line from one cell back covers both the side cells and the ones
    // before them: shifted by one bit it lines up with `here`.
    const int back = Forward ? position - 1 : position + 1;
    const std::uint64_t here = line(position, 0);
    const std::uint64_t before_left = line(back, -1);
    const std::uint64_t before_right = line(back, 1);
    const std::uint64_t left = Forward ? before_left >> 1 : before_left << 1;
    const std::uint64_t right = Forward ? before_right >> 1 : before_right << 1;
    const std::uint64_t forced = (left & ~before_left) | (right & ~before_right);
    std::uint64_t stops = forced;
    int first_forced;
    int first_blocked;
    if constexpr (Forward) {
      if (goal_on_line && goal_position >= position && goal_position < position + cells_per_read)
        stops |= std::uint64_t{1} << (goal_position - position);
      first_forced = std::countr_zero(stops & forward_window);
      first_blocked = std::countr_zero(~here & forward_window);
    } else {
      if (goal_on_line && goal_position <= position && goal_position > position - cells_per_read)
        stops |= std::uint64_t{1} << (63 - (position - goal_position));
      first_forced = std::countl_zero(stops & backward_window);
      first_blocked = std::countl_zero(~here & backward_window);
    }
    if (first_forced < first_blocked) {
      const int found = Forward ? position + first_forced : position - first_forced;
      return Forward ? found - from : from - found;
    }
    if (first_blocked < 64) return 0;
    position += Forward ? cells_per_read : -cells_per_read;
  }
}

// The scans with their direction fixed at compile time, so that the diagonal loop, which runs
// two straight scans per step, has no direction tests or calls left inside it.
template <int DX, int DY>
[[gnu::always_inline]] inline int straight_scan(const GridMap& map, Cell from, Cell goal) {
  static_assert((DX == 0) != (DY == 0));
  if constexpr (DY == 0) {
    return scan<(DX > 0)>(from.x, goal.x, goal.y == from.y, [&](int x, int side) {
      return DX > 0 ? map.row_bits_forward(x, from.y + side) : map.row_bits_backward(x, from.y + side);
    });
  } else {
    return scan<(DY > 0)>(from.y, goal.y, goal.x == from.x, [&](int y, int side) {
      return DY > 0 ? map.column_bits_forward(from.x + side, y) : map.column_bits_backward(from.x + side, y);
    });
  }
}

template <int DX, int DY>
int diagonal_scan(const GridMap& map, Cell from, Cell goal) {
  Cell at = from;
  int steps = 0;
  while (true) {
    // A diagonal step needs the target and both side cells free (no corner cutting).
    const std::uint32_t around = map.neighbourhood(at.x, at.y);
    constexpr std::uint32_t needed = (1u << (4 + DX)) | (1u << (4 + 3 * DY)) | (1u << (4 + 3 * DY + DX));
    if ((around & needed) != needed) return 0;
    at.x += DX;
    at.y += DY;
    ++steps;
    if (at == goal) return steps;
    if (straight_scan<DX, 0>(map, at, goal) > 0 || straight_scan<0, DY>(map, at, goal) > 0) return steps;
  }
}

}  // namespace

int JumpPointDomain::jump_straight(Cell from, int dx, int dy) const {
  if (dy == 0) return dx > 0 ? straight_scan<1, 0>(map_, from, goal_cell_) : straight_scan<-1, 0>(map_, from, goal_cell_);
  return dy > 0 ? straight_scan<0, 1>(map_, from, goal_cell_) : straight_scan<0, -1>(map_, from, goal_cell_);
}

int JumpPointDomain::jump_diagonal(Cell from, int dx, int dy) const {
  if (dy < 0) return dx > 0 ? diagonal_scan<1, -1>(map_, from, goal_cell_) : diagonal_scan<-1, -1>(map_, from, goal_cell_);
  return dx > 0 ? diagonal_scan<1, 1>(map_, from, goal_cell_) : diagonal_scan<-1, 1>(map_, from, goal_cell_);
}

std::vector<NodeId> expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points) {
  std::vector<NodeId> cells;
  if (jump_points.empty()) return cells;
  cells.push_back(jump_points.front());
  for (std::size_t i = 1; i < jump_points.size(); ++i) {
    Cell at = map.cell_of(jump_points[i - 1]);
    const Cell to = map.cell_of(jump_points[i]);
    const int dx = (to.x > at.x) - (to.x < at.x);
    const int dy = (to.y > at.y) - (to.y < at.y);
    while (!(at == to)) {
      at.x += dx;
      at.y += dy;
      cells.push_back(map.id_of(at));
    }
  }
  return cells;
}

}  // namespace wayfinder
