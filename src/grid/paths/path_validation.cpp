#include "wayfinder/grid/paths/path_validation.hpp"

#include <cstdlib>

namespace wayfinder {

namespace {
std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
}  // namespace

GridPathCheck check_grid_path(const GridMap& map, const std::vector<NodeId>& cells, DiagonalMode diagonal) {
  GridPathCheck check;
  if (cells.empty()) {
    check.problem = "the path is empty";
    return check;
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] >= map.cell_count()) {
      check.problem = "cell " + std::to_string(i) + " has id " + std::to_string(cells[i]) + ", outside the map";
      return check;
    }
    const Cell at = map.cell_of(cells[i]);
    if (!map.passable(at)) {
      check.problem = "cell " + std::to_string(i) + " " + cell_text(at) + " is blocked";
      return check;
    }
    if (i == 0) continue;
    const Cell from = map.cell_of(cells[i - 1]);
    const int dx = at.x - from.x;
    const int dy = at.y - from.y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) {
      check.problem = "move " + std::to_string(i) + " from " + cell_text(from) + " to " + cell_text(at) +
                      " is not a move to an adjacent cell";
      return check;
    }
    const bool diagonal_move = dx != 0 && dy != 0;
    if (diagonal_move) {
      const bool side_x = map.passable(from.x + dx, from.y);
      const bool side_y = map.passable(from.x, from.y + dy);
      bool allowed = false;
      switch (diagonal) {
        case DiagonalMode::never: allowed = false; break;
        case DiagonalMode::at_least_one_walkable: allowed = side_x || side_y; break;
        case DiagonalMode::only_if_no_obstacles: allowed = side_x && side_y; break;
        case DiagonalMode::always: allowed = true; break;
      }
      if (!allowed) {
        check.problem = "diagonal move " + std::to_string(i) + " from " + cell_text(from) + " to " + cell_text(at) +
                        " breaks the diagonal rule " + std::string(to_string(diagonal));
        return check;
      }
    }
    check.cost += grid_move_cost(map, cells[i - 1], cells[i], diagonal_move);
    ++check.moves;
  }
  check.valid = true;
  return check;
}

}  // namespace wayfinder
