#include "wayfinder/grid/jump/grid_jump_table.hpp"

#include <chrono>
#include <stdexcept>

#include "grid_table_file.hpp"

namespace wayfinder {

namespace {

constexpr grid_table_file::Kind table_file_kind{{'W', 'F', 'J', 'U', 'M', 'P', 'T', '\n'},
                                                 GridJumpTable::file_version,
                                                 jump_direction_count * sizeof(std::int16_t),
                                                 "jump table",
                                                 "the table was built for",
                                                 "distances",
                                                 "the jump table was built for",
                                                 "table"};

// Whether a straight traveller arriving at the cell (x, y) of the map in direction (dx, dy) has
// a forced neighbour there: a side cell free while the side cell one step back is blocked
// (JumpPointDomain's rule). Every cell read is on the map or its one-cell padding.
bool forced(const GridMap& map, int x, int y, int dx, int dy) {
  const int side_x = dy;  // perpendicular to the travel
  const int side_y = dx;
  for (const int s : {-1, 1}) {
    if (map.passable_unchecked(x + s * side_x, y + s * side_y) &&
        !map.passable_unchecked(x + s * side_x - dx, y + s * side_y - dy))
      return true;
  }
  return false;
}

std::size_t cell_index(const GridMap& map, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(x);
}

// The distance of the passable cell (x, y) in `direction` from the map and the distances of the
// next cell in that direction, which `distances` (8 per cell, row-major, map.width() wide) must
// already hold: the table's defining recurrence. A straight jump stops before a wall (0), one
// step before a cell with a forced neighbour (1), else one step further than the next cell's;
// a diagonal one before a wall or a cut corner (0), one step before a cell whose straight jumps
// along its two components reach a jump point (1), else one step further than the next cell's.
std::int16_t distance_from_next(const GridMap& map, const std::int16_t* distances, int x, int y, int direction) {
  const int dx = jump_direction_dx[direction];
  const int dy = jump_direction_dy[direction];
  const int nx = x + dx;
  const int ny = y + dy;
  auto next = [&](int next_direction) {
    return distances[cell_index(map, nx, ny) * jump_direction_count + static_cast<std::size_t>(next_direction)];
  };
  auto continued = [](int distance) { return static_cast<std::int16_t>(distance > 0 ? distance + 1 : distance - 1); };
  // The cells read are the map's or its one-cell padding, which reads as blocked.
  if (dx == 0 || dy == 0) {
    if (!map.passable_unchecked(nx, ny)) return 0;
    if (forced(map, nx, ny, dx, dy)) return 1;
    return continued(next(direction));
  }
  // No corner cutting: both side cells and the diagonal one must be free.
  if (!map.passable_unchecked(nx, y) || !map.passable_unchecked(x, ny) || !map.passable_unchecked(nx, ny)) return 0;
  if (next(jump_direction_index(dx, 0)) > 0 || next(jump_direction_index(0, dy)) > 0) return 1;
  return continued(next(direction));
}

}  // namespace

GridJumpTable::GridJumpTable(const GridMap& map, const Progress& progress)
    : GridCellTable(map) {
  const auto began = std::chrono::steady_clock::now();
  distances_.assign(map.cell_count() * jump_direction_count, 0);
  const std::size_t total = static_cast<std::size_t>(height_) * jump_direction_count;
  std::size_t done = 0;
  // Straight directions first (the diagonals read them), each swept against its direction so
  // that the next cell's distances are known when a cell's is computed.
  for (const int direction : {0, 2, 4, 6, 1, 3, 5, 7}) {
    const int dx = jump_direction_dx[direction];
    const int dy = jump_direction_dy[direction];
    for (int row = 0; row < height_; ++row) {
      const int y = dy > 0 ? height_ - 1 - row : row;
      for (int column = 0; column < width_; ++column) {
        const int x = dx > 0 ? width_ - 1 - column : column;
        if (!map.passable_unchecked(x, y)) continue;
        distances_[cell_index(map, x, y) * jump_direction_count + static_cast<std::size_t>(direction)] =
            distance_from_next(map, distances_.data(), x, y, direction);
      }
      ++done;
      if (progress && (done % 64 == 0 || done == total)) progress(done, total);
    }
  }
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

const grid_table_file::Kind& GridJumpTable::file_kind() { return table_file_kind; }

std::optional<std::string> GridJumpTable::values_problem(const GridMap& map) const {
  // A checksum only catches accidents: a file edited and checksummed again would pass it, and a
  // search trusts every distance (a jump that crosses a wall would put a wall into its path). So
  // every distance is checked against its defining recurrence, the map and the next cell's
  // loaded distances. Each chain of the recurrence ends at a wall, whose distance depends on
  // the map alone, so a table that passes equals the one the constructor builds, at the cost of
  // one read of the map per entry (docs/grid.md, "JPS+: preprocessed jump points", gives times).
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const bool passable = map.passable_unchecked(x, y);
      const std::int16_t* cell = distances_.data() + cell_index(map, x, y) * jump_direction_count;
      for (int direction = 0; direction < jump_direction_count; ++direction) {
        const int expected = passable ? distance_from_next(map, distances_.data(), x, y, direction) : 0;
        if (cell[direction] != expected)
          return "corrupted: the distance of cell (" + std::to_string(x) + "," + std::to_string(y) + ") in direction " +
                 std::to_string(direction) + " is " + std::to_string(cell[direction]) + ", the map gives " +
                 std::to_string(expected) + (passable ? "" : " (the cell is blocked)") +
                 " (the values were changed after the table was built)";
      }
    }
  return std::nullopt;
}

}  // namespace wayfinder
