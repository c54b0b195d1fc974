#include "demo_queries.hpp"

#include <cstdint>
#include <limits>
#include <optional>

namespace wayfinder::cli {
namespace {

/// The passable cell of the room closest to its centre (pillars and terrain may stand there).
std::optional<Cell> passable_cell_near_centre(const GridMap& map, const GridRect& room) {
  const Cell centre = room.centre();
  std::optional<Cell> best;
  std::int64_t best_distance = std::numeric_limits<std::int64_t>::max();
  for (int y = room.y; y < room.y + room.height; ++y) {
    for (int x = room.x; x < room.x + room.width; ++x) {
      if (!map.passable(x, y)) continue;
      const std::int64_t dx = x - centre.x;
      const std::int64_t dy = y - centre.y;
      if (dx * dx + dy * dy < best_distance) {
        best_distance = dx * dx + dy * dy;
        best = Cell{x, y};
      }
    }
  }
  return best;
}

std::int64_t squared_distance(Cell a, Cell b) {
  const std::int64_t dx = a.x - b.x;
  const std::int64_t dy = a.y - b.y;
  return dx * dx + dy * dy;
}

}  // namespace

std::vector<DemoQuery> pick_demo_queries(const RoomMap& rooms) {
  std::vector<Cell> anchors;
  for (const GridRect& room : rooms.rooms)
    if (const std::optional<Cell> cell = passable_cell_near_centre(rooms.map, room)) anchors.push_back(*cell);

  std::vector<bool> used(anchors.size(), false);
  // The unused pair that is farthest apart (or closest, when `farthest` is false).
  auto pick_pair = [&](bool farthest) -> std::optional<DemoQuery> {
    std::optional<DemoQuery> best;
    std::int64_t best_distance = farthest ? -1 : std::numeric_limits<std::int64_t>::max();
    std::size_t best_a = 0;
    std::size_t best_b = 0;
    for (std::size_t a = 0; a < anchors.size(); ++a) {
      for (std::size_t b = a + 1; b < anchors.size(); ++b) {
        if (used[a] || used[b]) continue;
        const std::int64_t distance = squared_distance(anchors[a], anchors[b]);
        if (farthest ? distance > best_distance : distance < best_distance) {
          best_distance = distance;
          best = DemoQuery{anchors[a], anchors[b]};
          best_a = a;
          best_b = b;
        }
      }
    }
    if (best) used[best_a] = used[best_b] = true;
    return best;
  };

  std::vector<DemoQuery> queries;
  for (const bool farthest : {true, true, false})
    if (const std::optional<DemoQuery> query = pick_pair(farthest)) queries.push_back(*query);
  return queries;
}

}  // namespace wayfinder::cli
