#pragma once
// Straight lines of cells for the reactive walkers (crash and midpoint), made of the moves the
// walkers make: with diagonal moves, one cell per step along the longer axis (Bresenham's line,
// J. E. Bresenham, "Algorithm for computer control of a digital plotter", IBM Systems Journal
// 4(1):25-30, 1965); without them (DiagonalMode::never), the 4-connected cells the centre-to-
// centre segment passes through, in the order it crosses them (Amanatides & Woo 1987, "A fast
// voxel traversal algorithm"; at an exact corner the step along x comes first). Each cell of a
// line is one move from the last, so "the line is free" means "every one of its moves is allowed
// by the diagonal rule", the same test the walkers make when they move.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder::walker_detail {

/// The eight moves, clockwise from north (y grows downwards): N, NE, E, SE, S, SW, W, NW.
inline constexpr int move_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr int move_dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

/// The direction index of the move by (dx, dy) (each in -1..1, not both 0), or -1.
inline int direction_of(int dx, int dy) {
  for (int d = 0; d < 8; ++d)
    if (move_dx[d] == dx && move_dy[d] == dy) return d;
  return -1;
}

/// Whether the move from `from` in `direction` is allowed: the target is passable and, for a
/// diagonal, the diagonal rule allows it (grid_rules.hpp, as every grid search moves).
inline bool move_allowed(const GridMap& map, DiagonalMode diagonal, Cell from, int direction) {
  const int dx = move_dx[direction];
  const int dy = move_dy[direction];
  if (!map.passable(from.x + dx, from.y + dy)) return false;
  if (dx == 0 || dy == 0) return true;
  return diagonal_allowed(diagonal, map.neighbourhood(from.x, from.y), dx, dy);
}

/// Whether the move between two cells one king move apart is allowed.
inline bool step_allowed(const GridMap& map, DiagonalMode diagonal, Cell from, Cell to) {
  const int direction = direction_of(to.x - from.x, to.y - from.y);
  return direction >= 0 && move_allowed(map, diagonal, from, direction);
}

/// The cells of the straight line from `from` to `to` (both included) into `cells`.
inline void straight_line(Cell from, Cell to, DiagonalMode diagonal, std::vector<Cell>& cells) {
  cells.clear();
  const std::int64_t ax = std::abs(to.x - from.x);
  const std::int64_t ay = std::abs(to.y - from.y);
  const int sx = to.x >= from.x ? 1 : -1;
  const int sy = to.y >= from.y ? 1 : -1;
  cells.push_back(from);
  if (diagonal == DiagonalMode::never) {
    // Crossing times of the next vertical and horizontal cell boundaries, compared exactly in
    // integers: (1 + 2i) / (2 ax) against (1 + 2j) / (2 ay).
    Cell at = from;
    std::int64_t i = 0;
    std::int64_t j = 0;
    while (!(at == to)) {
      const bool x_first = ay == 0 || (ax != 0 && (1 + 2 * i) * ay <= (1 + 2 * j) * ax);
      if (x_first) {
        at.x += sx;
        ++i;
      } else {
        at.y += sy;
        ++j;
      }
      cells.push_back(at);
    }
    return;
  }
  const std::int64_t steps = std::max(ax, ay);
  for (std::int64_t k = 1; k <= steps; ++k) {
    // The minor axis rounded half up, so that the line from a to b is the line from b to a
    // reversed only up to ties; that does not matter here.
    const std::int64_t major_minor = ax >= ay ? ay : ax;
    const std::int64_t minor = (2 * k * major_minor + steps) / (2 * steps);
    if (ax >= ay)
      cells.push_back({from.x + sx * static_cast<int>(k), from.y + sy * static_cast<int>(minor)});
    else
      cells.push_back({from.x + sx * static_cast<int>(minor), from.y + sy * static_cast<int>(k)});
  }
}

/// Where a cell is on a line made by straight_line (its number of moves from the line's first
/// cell), or npos when it is not on it. Every move of such a line adds one to the Chebyshev
/// (diagonals) or Manhattan (4-connected) distance from the first cell, which is therefore the
/// index.
inline constexpr std::size_t npos = static_cast<std::size_t>(-1);
inline std::size_t index_on_line(const std::vector<Cell>& line, DiagonalMode diagonal, Cell cell) {
  if (line.empty()) return npos;
  const Cell first = line.front();
  const std::int64_t dx = std::abs(cell.x - first.x);
  const std::int64_t dy = std::abs(cell.y - first.y);
  const std::int64_t index = diagonal == DiagonalMode::never ? dx + dy : std::max(dx, dy);
  if (index >= static_cast<std::int64_t>(line.size())) return npos;
  const std::size_t at = static_cast<std::size_t>(index);
  return line[at] == cell ? at : npos;
}

/// Whether every move of the line is allowed.
inline bool line_is_free(const GridMap& map, DiagonalMode diagonal, const std::vector<Cell>& line) {
  for (std::size_t k = 0; k < line.size(); ++k) {
    if (!map.passable(line[k])) return false;
    if (k > 0 && !step_allowed(map, diagonal, line[k - 1], line[k])) return false;
  }
  return true;
}

/// The octile distance between two cells (the walkers' measure of "closer to the goal").
inline double octile_distance(Cell a, Cell b) { return grid_distance(Heuristic::octile, a.x - b.x, a.y - b.y); }

/// The true cost of a walk (the sum of its moves' costs, as check_grid_path sums them) of its
/// first `count` cells.
inline Cost walk_cost(const GridMap& map, const std::vector<NodeId>& cells, std::size_t count) {
  Cost cost = 0.0;
  for (std::size_t k = 1; k < count && k < cells.size(); ++k) {
    const Cell a = map.cell_of(cells[k - 1]);
    const Cell b = map.cell_of(cells[k]);
    cost += grid_move_cost(map, cells[k - 1], cells[k], a.x != b.x && a.y != b.y);
  }
  return cost;
}

}  // namespace wayfinder::walker_detail
