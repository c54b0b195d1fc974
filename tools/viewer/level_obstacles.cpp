#include "viewer/level_obstacles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <vector>

#include "viewer/request_fields.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

#if WAYFINDER_VIEWER_LEVELS
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"
#endif

namespace wayfinder::viewer {

#if WAYFINDER_VIEWER_LEVELS

struct LevelObstacles {
  NavMeshTileCache cache;
  /// Each obstacle's request as it was given (its shape and sizes), by id: what describe shows.
  std::map<ObstacleId, Json> shapes;
  /// The level's own polygons, as uploaded: the page draws them faintly under the mesh.
  MeshGeometry geometry;
};

namespace {

/// The build settings of a "level" object; every field optional, each checked against a range
/// wide enough for any level a person would draw and narrow enough that a build stays bounded.
AgentSettings level_settings(const Json& level) {
  if (!level.is_object()) refuse("\"level\" must be an object of build settings ({} for the defaults)");
  AgentSettings settings;
  settings.tile_size = 32;
  settings.cell_size = number_in_range(level, "cell_size", 0.01, 100.0, settings.cell_size);
  settings.cell_height = number_in_range(level, "cell_height", 0.01, 100.0, settings.cell_height);
  settings.agent_radius = number_in_range(level, "agent_radius", 0.0, 100.0, settings.agent_radius);
  settings.agent_height = number_in_range(level, "agent_height", 0.01, 1000.0, settings.agent_height);
  settings.max_climb = number_in_range(level, "max_climb", 0.0, 1000.0, settings.max_climb);
  settings.max_slope_degrees = number_in_range(level, "max_slope_degrees", 0.0, 90.0, settings.max_slope_degrees);
  if (const Json* tile = member(level, "tile_size"))
    settings.tile_size = static_cast<int>(whole_number(*tile, "\"level\".tile_size", 8, 256));
  if (const auto problem = settings_problem(settings)) refuse("\"level\": " + *problem);
  return settings;
}

/// How many tiles an x-z footprint of this size touches at most, with the border the cache
/// rebuilds around an obstacle (the agent's radius and three cells).
double tiles_touched(const AgentSettings& settings, double size_x, double size_z) {
  const double tile_width = settings.tile_size * settings.cell_size;
  const double border = 2 * (settings.agent_radius + 3 * settings.cell_size);
  return (std::ceil((size_x + border) / tile_width) + 1) * (std::ceil((size_z + border) / tile_width) + 1);
}

Point point_of(const std::vector<double>& xyz) { return Point{xyz[0], xyz[1], xyz[2]}; }

/// The obstacle a request describes, checked; `shape` receives what describe will show.
/// The x-z box the level's tiles cover: min x, min z, max x, max z.
std::array<double, 4> level_box(const NavMeshTileCache& cache) {
  const auto first = cache.tile_bounds(0, 0);
  const auto last = cache.tile_bounds(cache.tiles_x() - 1, cache.tiles_z() - 1);
  return {first[0], first[1], last[2], last[3]};
}

Obstacle obstacle_of(const Json& request, const NavMeshTileCache& cache, const ApiLimits& limits, Json& shape) {
  const AgentSettings& settings = cache.settings();
  const std::string kind = text_member(request, "shape", "");
  shape = Json::object();
  shape["shape"] = kind;
  double low_x = 0.0, low_z = 0.0, high_x = 0.0, high_z = 0.0;
  Obstacle obstacle;
  if (kind == "cylinder") {
    const auto base = coordinates(request, "base", 3, false);
    const double radius = number_in_range(request, "radius", 0.0, limits.max_obstacle_size / 2, -1.0);
    const double height = number_in_range(request, "height", 0.0, limits.max_obstacle_size, -1.0);
    if (radius < 0) refuse("\"radius\" is missing");
    if (height < 0) refuse("\"height\" is missing");
    low_x = base[0] - radius;
    high_x = base[0] + radius;
    low_z = base[2] - radius;
    high_z = base[2] + radius;
    obstacle = CylinderObstacle{point_of(base), radius, height};
    shape["base"] = base;
    shape["radius"] = radius;
    shape["height"] = height;
  } else if (kind == "box") {
    const auto low = coordinates(request, "min", 3, false);
    const auto high = coordinates(request, "max", 3, false);
    for (int axis = 0; axis < 3; ++axis) {
      const std::string name = std::string(1, "xyz"[axis]);
      if (low[axis] > high[axis]) refuse("\"min\"'s " + name + " is above \"max\"'s");
      if (high[axis] - low[axis] > limits.max_obstacle_size)
        refuse("the box is more than " + Json(limits.max_obstacle_size).dump() + " wide in " + name);
    }
    low_x = low[0];
    high_x = high[0];
    low_z = low[2];
    high_z = high[2];
    obstacle = BoxObstacle{point_of(low), point_of(high)};
    shape["min"] = low;
    shape["max"] = high;
  } else {
    refuse("\"shape\" must be \"cylinder\" or \"box\"");
  }
  const auto [min_x, min_z, max_x, max_z] = level_box(cache);
  if (high_x < min_x || low_x > max_x || high_z < min_z || low_z > max_z)
    refuse("the obstacle lies outside the level's tiles (x " + Json(min_x).dump() + " to " + Json(max_x).dump() +
           ", z " + Json(min_z).dump() + " to " + Json(max_z).dump() + ")");
  if (tiles_touched(settings, high_x - low_x, high_z - low_z) > static_cast<double>(limits.max_obstacle_tiles))
    refuse("the obstacle would rebuild more than " + std::to_string(limits.max_obstacle_tiles) +
           " tiles; make it smaller");
  return obstacle;
}

/// The rebuilt tiles, each with its grid place, its x-z box and its polygons as point lists:
/// [{"tile": [x, z], "bounds": [min x, min z, max x, max z], "polygons": [[[x, y, z], ...], ...]}].
Json rebuilt_tiles_json(const std::vector<RebuiltTile>& tiles, const NavMeshTileCache& cache) {
  Json out = Json::array();
  for (const RebuiltTile& tile : tiles) {
    Json polygons = Json::array();
    for (const auto& polygon : tile.geometry.polygons) {
      Json corners = Json::array();
      for (const std::uint32_t vertex : polygon) corners.push_back(point_json(tile.geometry.vertices[vertex], true));
      polygons.push_back(std::move(corners));
    }
    const auto bounds = cache.tile_bounds(tile.tile_x, tile.tile_z);
    out.push_back({{"tile", {tile.tile_x, tile.tile_z}},
                   {"bounds", {bounds[0], bounds[1], bounds[2], bounds[3]}},
                   {"polygons", std::move(polygons)}});
  }
  return out;
}

LevelObstacles& level_of(CatalogWorld& world) {
  if (!world.level)
    refuse("world " + std::to_string(world.id) + " is not a mesh built from a level: obstacles need one (load an OBJ "
           "level with \"level\": {...})");
  return *world.level;
}

Json obstacle_list(const LevelObstacles& level) {
  Json out = Json::array();
  for (const auto& [id, shape] : level.shapes) {
    Json entry = {{"id", id}};
    entry.update(shape);
    out.push_back(std::move(entry));
  }
  return out;
}

/// Rebuilds the queued tiles, puts them in the mesh and answers. Called under the exclusive lock.
Json rebuild(CatalogWorld& world, LevelObstacles& level, ObstacleId obstacle) {
  const std::vector<RebuiltTile> tiles = level.cache.update();
  for (const RebuiltTile& tile : tiles) world.mesh->replace_tile(tile);
  return {{"world", world.id}, {"obstacle", obstacle}, {"revision", world.mesh->revision()},
          {"tiles", rebuilt_tiles_json(tiles, level.cache)}, {"obstacles", obstacle_list(level)}};
}

}  // namespace

bool levels_available() { return true; }

int load_level_world(WorldCatalog& catalog, const std::string& name, const std::string& obj, const Json& request,
                     const ApiLimits& limits) {
  const AgentSettings settings = level_settings(*member(request, "level"));
  MeshGeometry geometry = parse_obj_mesh(obj, name);
  if (geometry.vertices.empty()) refuse("the level has no vertices");
  double min_x = std::numeric_limits<double>::max(), max_x = -min_x, min_z = min_x, max_z = -min_x;
  for (const Point& vertex : geometry.vertices) {
    min_x = std::min(min_x, vertex.x);
    max_x = std::max(max_x, vertex.x);
    min_z = std::min(min_z, vertex.z);
    max_z = std::max(max_z, vertex.z);
  }
  const double cells = std::max(max_x - min_x, max_z - min_z) / settings.cell_size;
  if (cells > static_cast<double>(limits.max_level_cells))
    refuse("the level is " + std::to_string(static_cast<long long>(cells)) + " cells of \"cell_size\" " +
           Json(settings.cell_size).dump() + " across; at most " + std::to_string(limits.max_level_cells) +
           " are built (raise \"level\".cell_size)");
  // A build's time grows with the tiles and with each tile's border (the agent's radius in
  // cells, on every side), which settings alone could make huge.
  if (settings.agent_radius / settings.cell_size > 64.0)
    refuse("\"level\".agent_radius is more than 64 cells of \"cell_size\"; raise cell_size or lower agent_radius");
  const double tile_width = settings.tile_size * settings.cell_size;
  const double tile_count = std::ceil((max_x - min_x) / tile_width + 1e-9) * std::ceil((max_z - min_z) / tile_width + 1e-9);
  if (tile_count > static_cast<double>(limits.max_level_tiles))
    refuse("the level would be cut into " + std::to_string(static_cast<long long>(tile_count)) + " tiles; at most " +
           std::to_string(limits.max_level_tiles) + " are built (raise \"level\".tile_size)");
  NavMeshTileSet tiles = build_navmesh_tiles(geometry, settings);
  NavMesh mesh = NavMesh::build_tiled(tiles.grid, tiles.tiles);
  std::size_t geometry_bytes = geometry.vertices.size() * sizeof(Point);
  for (const auto& polygon : geometry.polygons) geometry_bytes += polygon.size() * sizeof(std::uint32_t) + sizeof(polygon);
  NavMeshTileCache cache(geometry, settings);
  auto level = std::make_shared<LevelObstacles>(LevelObstacles{std::move(cache), {}, std::move(geometry)});
  const std::size_t cache_bytes = level->cache.memory().packed_bytes + geometry_bytes;
  return catalog.add(name, std::move(mesh), std::move(level), cache_bytes);
}

Json add_level_obstacle(CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  LevelObstacles& level = level_of(world);
  const std::unique_lock lock(world.access);
  if (level.shapes.size() >= limits.max_obstacles)
    refuse("world " + std::to_string(world.id) + " already has " + std::to_string(limits.max_obstacles) +
           " obstacles, the most it may have");
  Json shape;
  const Obstacle obstacle = obstacle_of(request, level.cache, limits, shape);
  const ObstacleId id = level.cache.add_obstacle(obstacle);
  level.shapes.emplace(id, std::move(shape));
  return rebuild(world, level, id);
}

Json remove_level_obstacle(CatalogWorld& world, const Json& request) {
  LevelObstacles& level = level_of(world);
  const Json* given = member(request, "obstacle");
  if (given == nullptr) refuse("\"obstacle\" is missing: the id of the obstacle to remove");
  const auto id = static_cast<ObstacleId>(whole_number(*given, "\"obstacle\"", 0, std::numeric_limits<ObstacleId>::max()));
  const std::unique_lock lock(world.access);
  if (level.shapes.erase(id) == 0)
    refuse("world " + std::to_string(world.id) + " has no obstacle with id " + std::to_string(id), 404);
  level.cache.remove_obstacle(id);
  return rebuild(world, level, id);
}

Json obstacles_json(const CatalogWorld& world) { return world.level ? obstacle_list(*world.level) : Json::array(); }

Json level_geometry_json(const CatalogWorld& world) {
  if (!world.level) return nullptr;
  const MeshGeometry& geometry = world.level->geometry;
  return {{"vertices", points_json(geometry.vertices, true)}, {"polygons", geometry.polygons}};
}

#else

struct LevelObstacles {};

namespace {
[[noreturn]] void refuse_without_recast() {
  refuse("this server was built without Recast (wayfinder::navmesh_build): it cannot build meshes from levels", 501);
}
}  // namespace

bool levels_available() { return false; }
int load_level_world(WorldCatalog&, const std::string&, const std::string&, const Json&, const ApiLimits&) {
  refuse_without_recast();
}
Json add_level_obstacle(CatalogWorld&, const Json&, const ApiLimits&) { refuse_without_recast(); }
Json remove_level_obstacle(CatalogWorld&, const Json&) { refuse_without_recast(); }
Json obstacles_json(const CatalogWorld&) { return Json::array(); }
Json level_geometry_json(const CatalogWorld&) { return nullptr; }

#endif

}  // namespace wayfinder::viewer
