#pragma once
// Jump point search (Harabor & Grastien 2011, "Online Graph Pruning for Pathfinding on Grid
// Maps"; the no-corner-cutting rules of their 2012 system, the MovingAI rule; the bit-row
// scans of their 2014 "Improving Jump Point Search"), as an expansion policy for the generic
// engine: the successors of a node are the jump points reached by scanning in the directions
// the direction of travel leaves unpruned, so A* runs unchanged on top of it. Cells on a
// diagonal never enter the open list. Optimal on uniform-cost 8-connected grids. See
// docs/grid.md, "Algorithms".

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

namespace detail {

// Cells a straight scan covers per bit-grid read (a read is valid for at least 57 bits).
constexpr int cells_per_read = 56;
constexpr std::uint64_t forward_window = (std::uint64_t{1} << cells_per_read) - 1;   // bits 0..55
constexpr std::uint64_t backward_window = ~std::uint64_t{0} << (64 - cells_per_read);  // bits 8..63

// One scan along a line of cells (a row, or a column of the transposed grid). `line(p, o)`
// reads the passability of the line offset by `o` (-1, 0, +1) at position p, forward (bit i =
// p + i) or backward (bit 63 - i = p - i). A position is a jump point if the side cell there is
// free while the side cell one step back is blocked (a forced neighbour).
template <bool Forward, class ReadLine>
WAYFINDER_FORCE_INLINE inline int scan(int from, int goal_position, bool goal_on_line, ReadLine&& line) {
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
WAYFINDER_FORCE_INLINE inline int straight_scan(const GridMap& map, Cell from, Cell goal) {
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

// The pruning rules of jump point search (Harabor & Grastien 2011, with the no-corner-cutting
// rule of their 2012 system) for a node `at` reached from `from`: calls jump(dx, dy) for every
// direction the direction of travel leaves unpruned, the natural ones first, then the forced
// ones. JumpPointDomain scans these directions; JumpPointPlusDomain looks them up in its table.
template <class Jump>
WAYFINDER_FORCE_INLINE inline void for_each_unpruned_direction(const GridMap& map, Cell from, Cell at, Jump&& jump) {
  // The direction of travel into this node. A node found by a straight scan from a diagonal
  // step lies off the parent's diagonal; its last leg is the longer axis.
  const int ax = std::abs(at.x - from.x);
  const int ay = std::abs(at.y - from.y);
  const int dx = ax >= ay ? (at.x > from.x) - (at.x < from.x) : 0;
  const int dy = ay >= ax ? (at.y > from.y) - (at.y < from.y) : 0;
  if (dx != 0 && dy != 0) {
    // Diagonal travel: the two straight directions and the diagonal itself; without corner
    // cutting there are no forced neighbours.
    jump(dx, 0);
    jump(0, dy);
    jump(dx, dy);
  } else if (dx != 0) {
    jump(dx, 0);
    // A side cell is forced when the cell beside the one we came from is blocked.
    for (const int side : {-1, 1}) {
      if (!map.passable_unchecked(at.x - dx, at.y + side) && map.passable_unchecked(at.x, at.y + side)) {
        jump(0, side);
        jump(dx, side);
      }
    }
  } else {
    jump(0, dy);
    for (const int side : {-1, 1}) {
      if (!map.passable_unchecked(at.x + side, at.y - dy) && map.passable_unchecked(at.x + side, at.y)) {
        jump(side, 0);
        jump(side, dy);
      }
    }
  }
}

// The directions a jump point search scans from `at`, reached from `parent`: all eight at the
// start (`parent` is invalid_node), else those for_each_unpruned_direction leaves. Both jump point
// domains expand a node this way; they differ only in how a jump is made.
template <class Jump>
WAYFINDER_FORCE_INLINE inline void for_each_jump_direction(const GridMap& map, NodeId parent, Cell at, Jump&& jump) {
  if (parent == invalid_node) {
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (dx != 0 || dy != 0) jump(dx, dy);
    return;
  }
  for_each_unpruned_direction(map, map.cell_of(parent), at, jump);
}

}  // namespace detail

class JumpPointDomain {
 public:
  JumpPointDomain(const GridMap& map, NodeId goal)
      : map_(map), goal_cell_(map.cell_of(goal)) {}

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const { return octile_cell_distance(map_, from, to); }

  template <class Sink>
  void for_each_successor(NodeId node, NodeId parent, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    detail::for_each_jump_direction(map_, parent, at, [&](int dx, int dy) { jump_towards(at, dx, dy, sink); });
  }

 private:
  template <int DX, int DY>
  WAYFINDER_FORCE_INLINE int straight(Cell from) const {
    if constexpr (DY == 0) {
      return detail::scan<(DX > 0)>(from.x, goal_cell_.x, goal_cell_.y == from.y, [&](int x, int side) {
        return DX > 0 ? map_.row_bits_forward(x, from.y + side) : map_.row_bits_backward(x, from.y + side);
      });
    } else {
      return detail::scan<(DY > 0)>(from.y, goal_cell_.y, goal_cell_.x == from.x, [&](int y, int side) {
        return DY > 0 ? map_.column_bits_forward(from.x + side, y) : map_.column_bits_backward(from.x + side, y);
      });
    }
  }

  // Walks the diagonal and, at each step, scans straight along both of its axes. The jump
  // points those scans find become successors of the node the walk started from (with the
  // octile cost of the diagonal-then-straight path), instead of the diagonal cell they were
  // found from: the diagonal cells never enter the open list, and the walk goes on (Harabor &
  // Grastien 2014 avoid these intermediate jump points in the same way).
  template <int DX, int DY, class Sink>
  void diagonal(Cell from, Sink& sink) const {
    constexpr std::uint32_t needed = (1u << (4 + DX)) | (1u << (4 + 3 * DY)) | (1u << (4 + 3 * DY + DX));
    Cell at = from;
    Cost walked = 0.0;
    while ((map_.neighbourhood(at.x, at.y) & needed) == needed) {
      at.x += DX;
      at.y += DY;
      walked += sqrt2;
      if (at == goal_cell_) {
        sink(map_.id_of(at), walked);
        return;
      }
      if (const int along_x = straight<DX, 0>(at); along_x > 0)
        sink(map_.id_of(at.x + DX * along_x, at.y), walked + along_x);
      if (const int along_y = straight<0, DY>(at); along_y > 0)
        sink(map_.id_of(at.x, at.y + DY * along_y), walked + along_y);
    }
  }

  template <class Sink>
  void jump_towards(Cell at, int dx, int dy, Sink& sink) const {
    if (dx != 0 && dy != 0) {
      if (dy < 0)
        dx > 0 ? diagonal<1, -1>(at, sink) : diagonal<-1, -1>(at, sink);
      else
        dx > 0 ? diagonal<1, 1>(at, sink) : diagonal<-1, 1>(at, sink);
      return;
    }
    int steps;
    if (dy == 0)
      steps = dx > 0 ? straight<1, 0>(at) : straight<-1, 0>(at);
    else
      steps = dy > 0 ? straight<0, 1>(at) : straight<0, -1>(at);
    if (steps > 0) sink(map_.id_of(at.x + dx * steps, at.y + dy * steps), static_cast<Cost>(steps));
  }

  const GridMap& map_;
  Cell goal_cell_;
};

static_assert(ParentAwareDomain<JumpPointDomain>);

/// Expands a path of jump points into every cell it passes through.
std::vector<NodeId> expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points);
/// The same into `cells`, whose memory is reused (cleared, not shrunk); it must not be `jump_points`.
void expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points, std::vector<NodeId>& cells);

}  // namespace wayfinder
