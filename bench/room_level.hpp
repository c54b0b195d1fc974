#pragma once
// A generated level for the navmesh build benchmarks: a room map (tools/common/
// room_map_generator) whose passable cells are a floor quad and whose blocked cells are closed
// boxes, so that Recast has walls to erode from, and the agent it is built for.

#include <cstdint>

#include "common/room_map_generator.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder::bench {

/// A room map of `map_cells` x `map_cells` cells (60 rooms, seed 7), each cell `cell_width`
/// units wide, its blocked cells boxes `box_height` units tall.
inline MeshGeometry room_level(int map_cells, double cell_width = 2.0, double box_height = 3.0) {
  RoomMapOptions options;
  options.width = map_cells;
  options.height = map_cells;
  options.room_count = 60;
  options.seed = 7;
  const RoomMap rooms = generate_room_map(options);
  const GridMap& map = rooms.map;
  MeshGeometry level;
  level.source = "room level";
  const auto quad = [&level](Point a, Point b, Point c, Point d) {
    const auto first = static_cast<std::uint32_t>(level.vertices.size());
    level.vertices.insert(level.vertices.end(), {a, b, c, d});
    level.polygons.push_back({first, first + 1, first + 2, first + 3});
  };
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const double x0 = x * cell_width, x1 = x0 + cell_width, z0 = y * cell_width, z1 = z0 + cell_width;
      if (map.passable(x, y)) {
        quad({x0, 0, z0}, {x0, 0, z1}, {x1, 0, z1}, {x1, 0, z0});
        continue;
      }
      const double h = box_height;
      quad({x0, h, z0}, {x0, h, z1}, {x1, h, z1}, {x1, h, z0});  // top
      quad({x0, 0, z0}, {x0, h, z0}, {x1, h, z0}, {x1, 0, z0});  // the four sides
      quad({x1, 0, z0}, {x1, h, z0}, {x1, h, z1}, {x1, 0, z1});
      quad({x1, 0, z1}, {x1, h, z1}, {x0, h, z1}, {x0, 0, z1});
      quad({x0, 0, z1}, {x0, h, z1}, {x0, h, z0}, {x0, 0, z0});
    }
  }
  return level;
}

/// The default agent in tiles of 32 cells (9.6 units), as the build benchmarks build the level.
inline AgentSettings tiled_agent() {
  AgentSettings settings;
  settings.tile_size = 32;
  return settings;
}

}  // namespace wayfinder::bench
