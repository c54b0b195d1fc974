#pragma once
// The viewer's JSON API, independent of HTTP: a request (method, path, body) in, a response
// (status code, JSON body) out. viewer_server.cpp puts it behind cpp-httplib; the tests call it
// directly as well as over a socket. Every call and shape is documented in docs/viewer.md.
//
//   GET  /api/worlds              the loaded worlds: [{"id", "kind", "name"}, ...]
//   POST /api/worlds              load one: an uploaded MovingAI map or OBJ mesh, or a
//                                 generated grid of rooms
//   GET  /api/worlds/{id}         describe one, enough to draw it
//   POST /api/worlds/{id}/edit    paint grid cells: walls, floor or a terrain cost
//   POST /api/worlds/{id}/blocks  a voxel world's blocks in a box of columns (for drawing in 3D)
//   POST /api/query               run a query; the PathResult, and its trace when asked
//   POST /api/worlds/{id}/obstacles         drop an obstacle on a level's mesh; the rebuilt tiles
//   POST /api/worlds/{id}/obstacles/remove  take one away; the rebuilt tiles
//   GET|POST /api/worlds/{id}/crowd         the mesh's crowd; POST makes a new one
//   POST /api/worlds/{id}/crowd/agents      add agents
//   POST /api/worlds/{id}/crowd/target      send agents to a point
//   POST /api/worlds/{id}/crowd/step        advance N ticks; positions, velocities, states
//
// Bad requests get a 4xx status with {"error": "..."} and change nothing.

#include <cstddef>
#include <string>
#include <string_view>

#include "viewer/world_catalog.hpp"

namespace wayfinder::viewer {

struct ApiResponse {
  int status = 200;
  std::string body;  ///< JSON
};

struct ApiLimits {
  /// Largest request body; the server refuses longer ones before reading them (413).
  std::size_t max_body_bytes = std::size_t{32} << 20;
  /// Most trace events a query keeps and returns (the rest are counted but not kept; the
  /// response says how many there were).
  std::size_t max_trace_events = 4'000'000;
  /// Largest side of a generated grid.
  int max_generated_side = 4096;
  /// Most cells one edit may list (a "rect" may cover the whole grid).
  std::size_t max_edit_cells = std::size_t{1} << 18;
  /// Most values (numbers, strings, arrays, ...) in a JSON body, and its deepest nesting: they
  /// bound the memory a request's parsed body takes (413 and 400 beyond).
  std::size_t max_json_values = std::size_t{1} << 20;
  int max_json_depth = 32;
  /// Largest side of a level built into a mesh, in cells of its "cell_size".
  std::size_t max_level_cells = 4096;
  /// Most tiles a level is cut into (its extent over "tile_size" cells).
  std::size_t max_level_tiles = 4096;
  /// Most obstacles on one level, the largest side of one (world units) and the most tiles one
  /// may rebuild.
  std::size_t max_obstacles = 256;
  double max_obstacle_size = 1000.0;
  std::size_t max_obstacle_tiles = 64;
  /// Most agents in a crowd, and most ticks one step request may advance it.
  std::size_t max_crowd_agents = 500;
  std::size_t max_crowd_ticks = 1000;
  /// Most blocks one POST /api/worlds/{id}/blocks answer carries (one character each).
  std::size_t max_voxel_blocks = std::size_t{1} << 22;
};

class ViewerApi {
 public:
  ViewerApi(WorldCatalog& catalog, ApiLimits limits = {}) : catalog_(catalog), limits_(limits) {}

  /// Never throws: every failure becomes a 4xx (the request's fault) or 500 response.
  ApiResponse handle(std::string_view method, std::string_view path, std::string_view body);

  [[nodiscard]] const ApiLimits& limits() const { return limits_; }

 private:
  ApiResponse list_worlds() const;
  ApiResponse load_world(std::string_view body);
  ApiResponse describe_world(int id) const;
  ApiResponse edit_world(int id, std::string_view body);
  ApiResponse run_query(std::string_view body) const;
  ApiResponse world_action(int id, std::string_view action, std::string_view method, std::string_view body);

  WorldCatalog& catalog_;
  ApiLimits limits_;
};

}  // namespace wayfinder::viewer
