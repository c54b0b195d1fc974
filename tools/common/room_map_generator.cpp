#include "common/room_map_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace wayfinder {
namespace {

constexpr int max_room_count = 4096;

/// Random numbers that are the same on every platform: std::mt19937_64's raw output is fixed by
/// the standard, the std distributions are not, so the reductions to ranges are done here.
class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [low, high]. Rejects the few raw values that would favour small results.
  int integer(int low, int high) {
    if (high <= low) return low;
    const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - low) + 1;
    const std::uint64_t reject_below = (0 - span) % span;  // 2^64 mod span
    std::uint64_t value = engine_();
    while (value < reject_below) value = engine_();
    return static_cast<int>(static_cast<std::int64_t>(low) + static_cast<std::int64_t>(value % span));
  }

  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  bool chance(double probability) { return unit() < probability; }

 private:
  std::mt19937_64 engine_;
};

void validate(const RoomMapOptions& options) {
  auto fail = [](const std::string& why) { throw std::invalid_argument("room map: " + why); };
  if (options.width < 8 || options.height < 8) fail("width and height must be at least 8");
  if (options.width > max_grid_side || options.height > max_grid_side ||
      static_cast<std::int64_t>(options.width) * options.height > max_grid_cells)
    fail("map too large");
  if (options.room_count < 1 || options.room_count > max_room_count)
    fail("room_count must be in [1, " + std::to_string(max_room_count) + "]");
  if (options.forest_patches < 0 || options.swamp_patches < 0) fail("patch counts must not be negative");
  for (const float cost : {options.forest_cost, options.swamp_cost})
    if (!(cost > 0.0f) || !std::isfinite(cost)) fail("terrain costs must be finite and > 0");
}

bool overlaps_with_margin(const GridRect& a, const GridRect& b, int margin) {
  return a.x - margin < b.x + b.width && b.x - margin < a.x + a.width && a.y - margin < b.y + b.height &&
         b.y - margin < a.y + a.height;
}

std::vector<GridRect> place_rooms(const RoomMapOptions& options, SeededRandom& random) {
  const int width = options.width;
  const int height = options.height;
  // Rooms scale with the map: about a quarter of the shorter side at most.
  const int min_side = 4;
  const int max_side = std::clamp(std::min(width, height) / 4, 5, 18);
  std::vector<GridRect> rooms;
  const int attempts = options.room_count * 40;
  for (int attempt = 0; attempt < attempts && static_cast<int>(rooms.size()) < options.room_count; ++attempt) {
    GridRect room;
    room.width = random.integer(min_side, max_side);
    room.height = random.integer(min_side, max_side);
    // Interiors stay off the outer border so the map is walled in.
    if (room.width > width - 2 || room.height > height - 2) continue;
    room.x = random.integer(1, width - 1 - room.width);
    room.y = random.integer(1, height - 1 - room.height);
    // Two cells between rooms: a wall that corridors can pierce, with room to spare.
    const bool free = std::none_of(rooms.begin(), rooms.end(),
                                   [&](const GridRect& other) { return overlaps_with_margin(room, other, 2); });
    if (free) rooms.push_back(room);
  }
  if (rooms.empty()) rooms.push_back({1, 1, width - 2, height - 2});  // a map too small for rooms: one hall
  return rooms;
}

void carve(GridMap& map, const GridRect& area) {
  const int x_end = std::min(area.x + area.width, map.width() - 1);
  const int y_end = std::min(area.y + area.height, map.height() - 1);
  for (int y = std::max(area.y, 1); y < y_end; ++y)
    for (int x = std::max(area.x, 1); x < x_end; ++x) map.set_passable(x, y, true);
}

/// Inner structure that never disconnects a room: either a hall of single-cell pillars on a
/// 3-cell lattice (the rows and columns between them stay open), or a dividing wall with a
/// two-cell doorway.
void furnish_room(GridMap& map, const GridRect& room, SeededRandom& random) {
  if (room.width >= 9 && room.height >= 9 && random.chance(0.4)) {
    for (int y = room.y + 2; y <= room.y + room.height - 3; y += 3)
      for (int x = room.x + 2; x <= room.x + room.width - 3; x += 3) map.set_passable(x, y, false);
    return;
  }
  if (room.width >= 8 && room.height >= 5 && random.chance(0.35)) {
    const int wall_x = room.x + room.width / 2;
    const int door_y = random.integer(room.y, room.y + room.height - 2);
    for (int y = room.y; y < room.y + room.height; ++y)
      if (y != door_y && y != door_y + 1) map.set_passable(wall_x, y, false);
  }
}

/// An L-shaped corridor of the given width between two cells, horizontal or vertical leg first.
void carve_corridor(GridMap& map, Cell from, Cell to, int corridor_width, bool horizontal_first) {
  auto horizontal = [&](int y, int x_a, int x_b) {
    const int low = std::min(x_a, x_b);
    carve(map, {low, y, std::abs(x_b - x_a) + corridor_width, corridor_width});
  };
  auto vertical = [&](int x, int y_a, int y_b) {
    const int low = std::min(y_a, y_b);
    carve(map, {x, low, corridor_width, std::abs(y_b - y_a) + corridor_width});
  };
  if (horizontal_first) {
    horizontal(from.y, from.x, to.x);
    vertical(to.x, from.y, to.y);
  } else {
    vertical(from.x, from.y, to.y);
    horizontal(to.y, from.x, to.x);
  }
}

std::int64_t squared_distance(Cell a, Cell b) {
  const std::int64_t dx = a.x - b.x;
  const std::int64_t dy = a.y - b.y;
  return dx * dx + dy * dy;
}

/// Pairs of rooms to join: a minimum spanning tree of the room centres (Prim), which connects
/// every room with short corridors, plus a few extra links so that there are loops and a search
/// has real choices to make.
std::vector<std::pair<std::size_t, std::size_t>> plan_corridors(const std::vector<GridRect>& rooms,
                                                                SeededRandom& random) {
  const std::size_t count = rooms.size();
  std::vector<std::pair<std::size_t, std::size_t>> links;
  std::vector<bool> in_tree(count, false);
  std::vector<std::int64_t> best_distance(count, std::numeric_limits<std::int64_t>::max());
  std::vector<std::size_t> best_parent(count, 0);
  best_distance[0] = 0;
  for (std::size_t added = 0; added < count; ++added) {
    std::size_t next = count;
    for (std::size_t i = 0; i < count; ++i)
      if (!in_tree[i] && (next == count || best_distance[i] < best_distance[next])) next = i;
    in_tree[next] = true;
    if (added > 0) links.emplace_back(best_parent[next], next);
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t distance = squared_distance(rooms[next].centre(), rooms[i].centre());
      if (!in_tree[i] && distance < best_distance[i]) {
        best_distance[i] = distance;
        best_parent[i] = next;
      }
    }
  }
  if (count >= 4) {
    const int extra_links = std::max(1, static_cast<int>(count) / 4);
    for (int k = 0; k < extra_links; ++k) {
      const auto a = static_cast<std::size_t>(random.integer(0, static_cast<int>(count) - 1));
      const auto b = static_cast<std::size_t>(random.integer(0, static_cast<int>(count) - 1));
      if (a != b) links.emplace_back(a, b);
    }
  }
  return links;
}

/// A ragged blob of terrain around a random passable cell; blocked cells stay blocked.
void paint_patch(GridMap& map, float cost, SeededRandom& random) {
  Cell centre{-1, -1};
  for (int attempt = 0; attempt < 200; ++attempt) {
    const Cell candidate{random.integer(0, map.width() - 1), random.integer(0, map.height() - 1)};
    if (map.passable(candidate)) {
      centre = candidate;
      break;
    }
  }
  if (centre.x < 0) return;
  const int max_radius = std::max(3, std::min(map.width(), map.height()) / 8);
  const double radius = 2.0 + random.unit() * (max_radius - 2);
  const int reach = static_cast<int>(std::ceil(radius));
  for (int dy = -reach; dy <= reach; ++dy) {
    for (int dx = -reach; dx <= reach; ++dx) {
      const double ragged_radius = radius * (0.65 + 0.35 * random.unit());
      if (dx * dx + dy * dy > ragged_radius * ragged_radius) continue;
      const int x = centre.x + dx;
      const int y = centre.y + dy;
      if (map.passable(x, y)) map.set_cost(x, y, cost);
    }
  }
}

/// Blocks passable cells that cannot be reached from `anchor` with 4-connected moves. The
/// construction already connects everything; this makes the guarantee hold by checking it.
void keep_only_component_of(GridMap& map, Cell anchor) {
  const int width = map.width();
  std::vector<bool> reached(map.cell_count(), false);
  std::vector<Cell> stack;
  if (map.passable(anchor)) {
    stack.push_back(anchor);
    reached[map.id_of(anchor)] = true;
  }
  while (!stack.empty()) {
    const Cell cell = stack.back();
    stack.pop_back();
    const Cell around[4] = {{cell.x + 1, cell.y}, {cell.x - 1, cell.y}, {cell.x, cell.y + 1}, {cell.x, cell.y - 1}};
    for (const Cell next : around) {
      if (!map.passable(next) || reached[map.id_of(next)]) continue;
      reached[map.id_of(next)] = true;
      stack.push_back(next);
    }
  }
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < width; ++x)
      if (!reached[map.id_of(x, y)] && map.passable(x, y)) map.set_passable(x, y, false);
}

/// A passable cell of a room (its centre when that is free; a pillar or wall may stand there).
Cell first_passable_cell(const GridMap& map, const GridRect& room) {
  if (map.passable(room.centre())) return room.centre();
  for (int y = room.y; y < room.y + room.height; ++y)
    for (int x = room.x; x < room.x + room.width; ++x)
      if (map.passable(x, y)) return {x, y};
  return room.centre();
}

}  // namespace

RoomMap generate_room_map(const RoomMapOptions& options) {
  validate(options);
  SeededRandom random(options.seed);
  RoomMap result{GridMap(options.width, options.height), {}};
  GridMap& map = result.map;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) map.set_passable(x, y, false);

  result.rooms = place_rooms(options, random);
  for (const GridRect& room : result.rooms) carve(map, room);
  for (const GridRect& room : result.rooms) furnish_room(map, room, random);
  for (const auto& [a, b] : plan_corridors(result.rooms, random)) {
    const int corridor_width = random.chance(0.6) ? 2 : 1;
    carve_corridor(map, result.rooms[a].centre(), result.rooms[b].centre(), corridor_width, random.chance(0.5));
  }
  for (int k = 0; k < options.forest_patches; ++k) paint_patch(map, options.forest_cost, random);
  for (int k = 0; k < options.swamp_patches; ++k) paint_patch(map, options.swamp_cost, random);
  keep_only_component_of(map, first_passable_cell(map, result.rooms.front()));
  return result;
}

}  // namespace wayfinder
