#pragma once
// A generator of dungeon-like test maps: rectangular rooms joined by corridors, some halls with
// pillars, and patches of forest and swamp terrain. The same options and seed give the same map
// on every platform and standard library (the random numbers are reduced from the raw output of
// std::mt19937_64 by our own code, because std's distributions differ between libraries).
//
// Guarantees: every passable cell is reachable from every other one with 4-connected moves (so
// with any diagonal mode too), and every room is at least partly passable.

#include <cstdint>
#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

struct RoomMapOptions {
  int width = 96;
  int height = 64;
  /// Rooms to try to place; fewer fit when the map is small.
  int room_count = 12;
  std::uint64_t seed = 1;
  /// Number of terrain patches of each kind (blobs a few cells across, only on passable cells).
  int forest_patches = 6;
  int swamp_patches = 4;
  float forest_cost = 2.0f;
  float swamp_cost = 3.0f;
};

struct RoomMap {
  GridMap map;
  /// The rooms' interiors, in the order they were placed.
  std::vector<GridRect> rooms;
};

/// Throws std::invalid_argument if the map is smaller than 8 x 8 or larger than max_grid_cells,
/// room_count is below 1, a patch count is negative, or a terrain cost is not finite and > 0.
RoomMap generate_room_map(const RoomMapOptions& options = {});

}  // namespace wayfinder
