#include "wayfinder/grid/jump/grid_jump_table.hpp"

#include <chrono>
#include <cstring>
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

// Whether a straight traveller arriving at (x, y) in direction (dx, dy) has a forced neighbour
// there: a side cell free while the side cell one step back is blocked (JumpPointDomain's rule).
bool forced(const GridMap& map, int x, int y, int dx, int dy) {
  const int side_x = dy;  // perpendicular to the travel
  const int side_y = dx;
  for (const int s : {-1, 1}) {
    if (map.passable(x + s * side_x, y + s * side_y) && !map.passable(x + s * side_x - dx, y + s * side_y - dy))
      return true;
  }
  return false;
}

}  // namespace

GridJumpTable::GridJumpTable(const GridMap& map, const Progress& progress)
    : GridCellTable(map) {
  const auto began = std::chrono::steady_clock::now();
  distances_.assign(map.cell_count() * jump_direction_count, 0);
  const std::size_t total = static_cast<std::size_t>(height_) * jump_direction_count;
  std::size_t done = 0;
  auto at = [&](int x, int y, int direction) -> std::int16_t& {
    return distances_[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)) *
                          jump_direction_count +
                      static_cast<std::size_t>(direction)];
  };
  // Straight directions first (the diagonals read them), each swept against its direction so
  // that the next cell's distance is known: d(cell) = 0 before a wall, 1 before a jump point,
  // else d(next) one step further.
  auto sweep = [&](int direction, auto&& distance_of) {
    const int dx = jump_direction_dx[direction];
    const int dy = jump_direction_dy[direction];
    for (int row = 0; row < height_; ++row) {
      const int y = dy > 0 ? height_ - 1 - row : row;
      for (int column = 0; column < width_; ++column) {
        const int x = dx > 0 ? width_ - 1 - column : column;
        if (!map.passable_unchecked(x, y)) continue;
        at(x, y, direction) = distance_of(x, y, dx, dy);
      }
      ++done;
      if (progress && (done % 64 == 0 || done == total)) progress(done, total);
    }
  };
  auto continued = [](int next) { return static_cast<std::int16_t>(next > 0 ? next + 1 : next - 1); };
  for (const int direction : {0, 2, 4, 6}) {
    sweep(direction, [&](int x, int y, int dx, int dy) -> std::int16_t {
      const int nx = x + dx;
      const int ny = y + dy;
      if (!map.passable(nx, ny)) return 0;
      if (forced(map, nx, ny, dx, dy)) return 1;
      return continued(at(nx, ny, direction));
    });
  }
  for (const int direction : {1, 3, 5, 7}) {
    sweep(direction, [&](int x, int y, int dx, int dy) -> std::int16_t {
      const int nx = x + dx;
      const int ny = y + dy;
      // No corner cutting: both side cells and the diagonal one must be free.
      if (!map.passable(nx, y) || !map.passable(x, ny) || !map.passable(nx, ny)) return 0;
      if (at(nx, ny, jump_direction_index(dx, 0)) > 0 || at(nx, ny, jump_direction_index(0, dy)) > 0) return 1;
      return continued(at(nx, ny, direction));
    });
  }
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

const grid_table_file::Kind& GridJumpTable::file_kind() { return table_file_kind; }

std::optional<std::string> GridJumpTable::take_values(const unsigned char* values, const GridMap& map) {
  distances_.resize(map.cell_count() * jump_direction_count);
  std::memcpy(distances_.data(), values, distances_.size() * sizeof(std::int16_t));
  // A checksum only catches accidents: also make sure that no jump leaves the map, so that even
  // a crafted file cannot make the search read outside its arrays.
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const std::int16_t* cell =
          distances_.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(map.width()) +
                               static_cast<std::size_t>(x)) * jump_direction_count;
      for (int direction = 0; direction < jump_direction_count; ++direction) {
        const int steps = cell[direction] < 0 ? -cell[direction] : cell[direction];
        if (!map.passable_unchecked(x, y) ? steps != 0
                                          : !map.contains(x + jump_direction_dx[direction] * steps,
                                                          y + jump_direction_dy[direction] * steps))
          return "corrupted: the distance of cell (" + std::to_string(x) + "," + std::to_string(y) +
                      ") in direction " + std::to_string(direction) + " leaves the map or starts on a blocked cell";
      }
    }
  return std::nullopt;
}

}  // namespace wayfinder
