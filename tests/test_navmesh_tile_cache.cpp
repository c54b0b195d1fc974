// Temporary obstacles and area volumes rebuilt per tile from the kept heightfields: after seeded
// random sequences of adds and removes, every tile the cache gives equals the same tile built
// from the level's triangles with the same obstacles present (the same vertices, polygons in
// the same order, areas and detail mesh), no walkable ground lies within an obstacle's
// footprint grown by the agent's radius (less the contour simplification's edge_max_error, 1.3
// cells), budgets bound an update, and bad input is refused in words.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "test_environment.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"
#include "wayfinder/navmesh_build/tile_cache_file.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;

std::filesystem::path level_path(const char* name) { return data_directory() / "meshes" / "recastnavigation" / name; }

// A flat square 30 units across: 2 x 2 tiles of 64 cells.
MeshGeometry square_floor() {
  MeshGeometry floor;
  floor.vertices = {{0, 0, 0}, {30, 0, 0}, {30, 0, 30}, {0, 0, 30}};
  floor.polygons = {{0, 1, 2, 3}};
  return floor;
}

// RecastDemo's temporary-obstacle sample: its defaults with tiles of 48 cells.
AgentSettings tiled_settings() {
  AgentSettings settings;
  settings.tile_size = 48;
  return settings;
}

std::pair<int, int> key(const RebuiltTile& tile) { return {tile.tile_x, tile.tile_z}; }

void expect_same_tile(const RebuiltTile& ours, const RebuiltTile& fresh) {
  SCOPED_TRACE("tile " + std::to_string(fresh.tile_x) + ", " + std::to_string(fresh.tile_z));
  ASSERT_EQ(key(ours), key(fresh));
  const MeshGeometry& a = ours.geometry;
  const MeshGeometry& b = fresh.geometry;
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size(); ++i) {
    EXPECT_EQ(a.vertices[i].x, b.vertices[i].x);
    EXPECT_EQ(a.vertices[i].y, b.vertices[i].y);
    EXPECT_EQ(a.vertices[i].z, b.vertices[i].z);
  }
  EXPECT_EQ(a.polygons, b.polygons);
  EXPECT_EQ(a.polygon_areas, b.polygon_areas);
  EXPECT_EQ(a.polygon_flags, b.polygon_flags);
  EXPECT_EQ(a.detail_triangles, b.detail_triangles);
  EXPECT_EQ(a.detail_starts, b.detail_starts);
  EXPECT_EQ(a.detail_vertices.size(), b.detail_vertices.size());
}

using TileMap = std::map<std::pair<int, int>, RebuiltTile>;

TileMap all_tiles(const NavMeshTileCache& cache) {
  TileMap tiles;
  for (int tz = 0; tz < cache.tiles_z(); ++tz)
    for (int tx = 0; tx < cache.tiles_x(); ++tx) tiles.emplace(std::pair{tx, tz}, cache.rebuild_tile(tx, tz));
  return tiles;
}

void expect_tiles_equal_fresh_build(const TileMap& tiles, const std::vector<RebuiltTile>& fresh) {
  ASSERT_EQ(tiles.size(), fresh.size());
  for (const RebuiltTile& tile : fresh) expect_same_tile(tiles.at(key(tile)), tile);
}

// How far a point (x, z) lies outside an obstacle's footprint (negative inside).
double outside_footprint(const Obstacle& obstacle, double x, double z) {
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle))
    return std::hypot(x - cylinder->base.x, z - cylinder->base.z) - cylinder->radius;
  double local_x = x, local_z = z, half_x = 0, half_z = 0;
  if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
    local_x = x - (box->min.x + box->max.x) / 2;
    local_z = z - (box->min.z + box->max.z) / 2;
    half_x = (box->max.x - box->min.x) / 2;
    half_z = (box->max.z - box->min.z) / 2;
  } else {
    const auto& oriented = std::get<OrientedBoxObstacle>(obstacle);
    const double c = std::cos(oriented.yaw_radians), s = std::sin(oriented.yaw_radians);
    const double dx = x - oriented.center.x, dz = z - oriented.center.z;
    local_x = c * dx + s * dz;
    local_z = -s * dx + c * dz;
    half_x = oriented.half_extents.x;
    half_z = oriented.half_extents.z;
  }
  const double ox = std::abs(local_x) - half_x, oz = std::abs(local_z) - half_z;
  if (ox <= 0 && oz <= 0) return std::max(ox, oz);
  return std::hypot(std::max(ox, 0.0), std::max(oz, 0.0));
}

std::pair<double, double> height_range(const Obstacle& obstacle) {
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle))
    return {cylinder->base.y, cylinder->base.y + cylinder->height};
  if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) return {box->min.y, box->max.y};
  const auto& oriented = std::get<OrientedBoxObstacle>(obstacle);
  return {oriented.center.y - oriented.half_extents.y, oriented.center.y + oriented.half_extents.y};
}

// The deepest the walkable ground reaches into any obstacle's footprint grown by `grown`: sample
// points on the tiles' detail triangles (which cover the polygons and follow the floor within a
// cell height), keeping those whose height lies `height_margin` above the obstacle's bottom and
// below its top: ground under an obstacle's bottom is not under it. Returns how far inside the grown footprint the worst sample is (<= 0:
// none inside).
double deepest_into_grown_footprint(const TileMap& tiles, const std::vector<Obstacle>& obstacles, double grown,
                                    double height_margin) {
  double deepest = -1e9;
  for (const auto& [where, tile] : tiles) {
    const MeshGeometry& g = tile.geometry;
    for (const auto& triangle : g.detail_triangles) {
      {
        const Point& a = g.detail_vertices[triangle[0]];
        const Point& b = g.detail_vertices[triangle[1]];
        const Point& c = g.detail_vertices[triangle[2]];
        constexpr int steps = 12;
        for (int u = 0; u <= steps; ++u)
          for (int v = 0; u + v <= steps; ++v) {
            const double wu = double(u) / steps, wv = double(v) / steps, wa = 1 - wu - wv;
            const double x = wa * a.x + wu * b.x + wv * c.x;
            const double y = wa * a.y + wu * b.y + wv * c.y;
            const double z = wa * a.z + wu * b.z + wv * c.z;
            for (const Obstacle& obstacle : obstacles) {
              const auto [bottom, top] = height_range(obstacle);
              if (y < bottom + height_margin || y > top) continue;
              deepest = std::max(deepest, grown - outside_footprint(obstacle, x, z));
            }
          }
      }
    }
  }
  return deepest;
}

// Places on the level's walkable ground: the centres of the built mesh's polygons.
std::vector<Point> ground_points(const MeshGeometry& level, const AgentSettings& settings) {
  const MeshGeometry built = build_navmesh_geometry(level, settings);
  std::vector<Point> points;
  for (const auto& polygon : built.polygons) {
    Point centre{0, 0, 0};
    for (const std::uint32_t v : polygon) {
      centre.x += built.vertices[v].x / static_cast<double>(polygon.size());
      centre.y += built.vertices[v].y / static_cast<double>(polygon.size());
      centre.z += built.vertices[v].z / static_cast<double>(polygon.size());
    }
    points.push_back(centre);
  }
  return points;
}

Obstacle random_obstacle(std::mt19937& random, const std::vector<Point>& ground) {
  const Point& at = ground[std::uniform_int_distribution<std::size_t>(0, ground.size() - 1)(random)];
  std::uniform_real_distribution<double> size(0.4, 1.5);
  switch (std::uniform_int_distribution<int>(0, 2)(random)) {
    case 0:
      return CylinderObstacle{{at.x, at.y - 0.5, at.z}, 1.0, 2.0};  // RecastDemo's obstacle
    case 1: {
      const double hx = size(random), hz = size(random);
      return BoxObstacle{{at.x - hx, at.y - 0.5, at.z - hz}, {at.x + hx, at.y + 1.5, at.z + hz}};
    }
    default:
      return OrientedBoxObstacle{{at.x, at.y + 0.5, at.z}, {size(random), 1.0, size(random)},
                                 std::uniform_real_distribution<double>(0, 3.14159)(random)};
  }
}

TEST(NavMeshTileCache, WithoutObstaclesEveryTileIsTheTiledBuildsTile) {
  for (const char* name : {"dungeon.obj", "nav_test.obj"}) {
    SCOPED_TRACE(name);
    WAYFINDER_SKIP_WITHOUT(level_path(name));
    const MeshGeometry level = read_obj_mesh(level_path(name));
    AgentSettings settings = tiled_settings();
    for (const RegionPartition partition : {RegionPartition::monotone, RegionPartition::layers}) {
      settings.partition = partition;
      expect_tiles_equal_fresh_build(all_tiles(NavMeshTileCache(level, settings)),
                                     build_navmesh_tiles_with_obstacles(level, settings, {}));
    }
    settings.partition = RegionPartition::watershed;
    const NavMeshTileCache cache(level, settings);
    const std::vector<RebuiltTile> fresh = build_navmesh_tiles_with_obstacles(level, settings, {});
    EXPECT_EQ(static_cast<std::size_t>(cache.tiles_x() * cache.tiles_z()), fresh.size());
    expect_tiles_equal_fresh_build(all_tiles(cache), fresh);
    // The reference is the tiled build: the same polygons, before the borders are welded.
    std::size_t polygons = 0;
    for (const RebuiltTile& tile : fresh) polygons += tile.geometry.polygons.size();
    EXPECT_EQ(polygons, build_navmesh_geometry(level, settings).polygons.size());
    const TileCacheMemory memory = cache.memory();
    EXPECT_GT(memory.tiles, 0u);
    EXPECT_LT(memory.packed_bytes, memory.unpacked_bytes / 4) << "packing keeps under a quarter of Recast's bytes";
    RecordProperty(std::string(name) + "_bytes_per_tile", std::to_string(memory.packed_bytes / memory.tiles));
    RecordProperty(std::string(name) + "_unpacked_bytes_per_tile", std::to_string(memory.unpacked_bytes / memory.tiles));
  }
}

TEST(NavMeshTileCache, RandomObstacleSequencesEqualFreshBuildsAndKeepOffTheGrownFootprints) {
  struct Sequence {
    const char* level;
    unsigned seed;
    RegionPartition partition;
  };
  for (const auto& [name, seed, partition] : std::vector<Sequence>{{"dungeon.obj", 1u, RegionPartition::watershed},
                                                                   {"dungeon.obj", 2u, RegionPartition::watershed},
                                                                   {"dungeon.obj", 3u, RegionPartition::watershed},
                                                                   {"nav_test.obj", 1u, RegionPartition::watershed},
                                                                   {"nav_test.obj", 2u, RegionPartition::watershed},
                                                                   {"dungeon.obj", 4u, RegionPartition::monotone},
                                                                   {"dungeon.obj", 5u, RegionPartition::layers}}) {
    SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed) + " partition " +
                 std::to_string(static_cast<int>(partition)));
    WAYFINDER_SKIP_WITHOUT(level_path(name));
    const MeshGeometry level = read_obj_mesh(level_path(name));
    AgentSettings settings = tiled_settings();
    settings.partition = partition;
    const std::vector<Point> ground = ground_points(level, settings);
    std::mt19937 random(seed);
    NavMeshTileCache cache(level, settings);
    TileMap tiles = all_tiles(cache);
    std::map<ObstacleId, Obstacle> present;
    double deepest = -1e9;
    for (int round = 0; round < 4; ++round) {
      for (int change = 0; change < 6; ++change) {
        if (!present.empty() && std::uniform_int_distribution<int>(0, 2)(random) == 0) {
          auto victim = present.begin();
          std::advance(victim, std::uniform_int_distribution<std::size_t>(0, present.size() - 1)(random));
          cache.remove_obstacle(victim->first);
          present.erase(victim);
        } else {
          const Obstacle obstacle = random_obstacle(random, ground);
          present.emplace(cache.add_obstacle(obstacle), obstacle);
        }
      }
      // Two tiles per update, as a game would spread the work over frames.
      while (cache.pending_tiles() > 0) {
        const std::size_t before = cache.pending_tiles();
        const std::vector<RebuiltTile> rebuilt = cache.update({.max_tiles = 2});
        ASSERT_EQ(rebuilt.size(), std::min<std::size_t>(2, before));
        EXPECT_EQ(cache.pending_tiles(), before - rebuilt.size());
        for (const RebuiltTile& tile : rebuilt) tiles.at(key(tile)) = tile;
      }
      std::vector<Obstacle> obstacles;
      for (const auto& [id, obstacle] : present) obstacles.push_back(obstacle);
      expect_tiles_equal_fresh_build(tiles, build_navmesh_tiles_with_obstacles(level, settings, obstacles));
      deepest = std::max(deepest, deepest_into_grown_footprint(tiles, obstacles, settings.agent_radius,
                                                               2 * settings.cell_height));
    }
    // Contours are simplified within edge_max_error cells of the voxels' outline, so a polygon's
    // edge may cut a footprint's corner by that much (measured: 0.32, 1.08 cells, at a turned
    // box's corner on nav_test; every other sequence within one cell).
    EXPECT_LE(deepest, settings.cell_size * settings.edge_max_error)
        << "walkable ground reaches " << deepest << " into a footprint grown by the agent's radius";
    RecordProperty(std::string(name) + "_deepest_seed_" + std::to_string(seed), std::to_string(deepest));
  }
}

TEST(NavMeshTileCache, AnObstacleCarvesItsFootprintGrownByTheRadiusAndRemovingItRestoresTheTiles) {
  WAYFINDER_SKIP_WITHOUT(level_path("dungeon.obj"));
  const MeshGeometry level = read_obj_mesh(level_path("dungeon.obj"));
  const AgentSettings settings = tiled_settings();
  NavMeshTileCache cache(level, settings);
  const TileMap original = all_tiles(cache);
  const std::vector<Point> ground = ground_points(level, settings);
  const Point at = ground[ground.size() / 2];
  const Obstacle cylinder = CylinderObstacle{{at.x, at.y - 0.5, at.z}, 1.0, 2.0};
  const ObstacleId id = cache.add_obstacle(cylinder);
  EXPECT_EQ(cache.obstacle_count(), 1u);
  TileMap tiles = original;
  const std::vector<RebuiltTile> carved = cache.update();
  ASSERT_FALSE(carved.empty());
  EXPECT_EQ(cache.pending_tiles(), 0u);
  for (const RebuiltTile& tile : carved) tiles.at(key(tile)) = tile;
  const double margin = 2 * settings.cell_height;
  EXPECT_LE(deepest_into_grown_footprint(tiles, {cylinder}, settings.agent_radius, margin), settings.cell_size);
  EXPECT_GT(deepest_into_grown_footprint(original, {cylinder}, settings.agent_radius, margin), settings.cell_size)
      << "the ground was walkable there before";
  cache.remove_obstacle(id);
  const std::vector<RebuiltTile> restored = cache.update();
  EXPECT_EQ(restored.size(), carved.size());
  for (const RebuiltTile& tile : restored) expect_same_tile(tile, original.at(key(tile)));
}

TEST(NavMeshTileCache, AreaVolumesGiveTheirAreaAndFlagsAsTheFreshBuildDoes) {
  WAYFINDER_SKIP_WITHOUT(level_path("dungeon.obj"));
  const MeshGeometry level = read_obj_mesh(level_path("dungeon.obj"));
  const AgentSettings settings = tiled_settings();
  NavMeshTileCache cache(level, settings);
  TileMap tiles = all_tiles(cache);
  const std::vector<Point> ground = ground_points(level, settings);
  const Point at = ground[ground.size() / 3];
  const AreaVolume water{{{at.x - 3, 0, at.z - 3}, {at.x + 3, 0, at.z - 3}, {at.x + 3, 0, at.z + 3}, {at.x - 3, 0, at.z + 3}},
                         at.y - 1, at.y + 1, 5, 0x4};
  const Obstacle crate = BoxObstacle{{at.x + 4, at.y - 0.5, at.z - 1}, {at.x + 5, at.y + 1, at.z + 1}};
  const AreaVolumeId volume = cache.add_area_volume(water);
  cache.add_obstacle(crate);
  for (const RebuiltTile& tile : cache.update()) tiles.at(key(tile)) = tile;
  const std::vector<Obstacle> obstacles{crate};
  const std::vector<AreaVolume> volumes{water};
  expect_tiles_equal_fresh_build(tiles, build_navmesh_tiles_with_obstacles(level, settings, obstacles, volumes));
  std::size_t wet = 0;
  for (const auto& [where, tile] : tiles)
    for (std::size_t p = 0; p < tile.geometry.polygons.size(); ++p)
      if (tile.geometry.polygon_areas[p] == 5) {
        EXPECT_EQ(tile.geometry.polygon_flags[p], 0x4);
        ++wet;
      }
  EXPECT_GT(wet, 0u);
  cache.remove_area_volume(volume);
  for (const RebuiltTile& tile : cache.update()) tiles.at(key(tile)) = tile;
  expect_tiles_equal_fresh_build(tiles, build_navmesh_tiles_with_obstacles(level, settings, obstacles));
}

TEST(NavMeshTileCache, UpdatesKeepToTheirBudget) {
  WAYFINDER_SKIP_WITHOUT(level_path("dungeon.obj"));
  const MeshGeometry level = read_obj_mesh(level_path("dungeon.obj"));
  NavMeshTileCache cache(level, tiled_settings());
  EXPECT_TRUE(cache.update().empty()) << "nothing pending, nothing rebuilt";
  cache.add_obstacle(CylinderObstacle{{1e6, 0, 1e6}, 1, 2});
  EXPECT_EQ(cache.pending_tiles(), 0u) << "an obstacle off the level touches no tile";
  // A box over the whole level queues every tile with triangles under it.
  cache.add_obstacle(BoxObstacle{{-1000, -1000, -1000}, {1000, -999, 1000}});
  const std::size_t pending = cache.pending_tiles();
  EXPECT_EQ(pending, static_cast<std::size_t>(cache.tiles_x() * cache.tiles_z()));
  EXPECT_EQ(cache.update({.max_tiles = 3}).size(), 3u);
  EXPECT_EQ(cache.pending_tiles(), pending - 3);
  // No time at all still rebuilds one tile, so that updates always make progress.
  EXPECT_EQ(cache.update({.max_time = std::chrono::microseconds(0)}).size(), 1u);
  EXPECT_EQ(cache.update().size(), pending - 4);
  EXPECT_EQ(cache.pending_tiles(), 0u);
}

TEST(NavMeshTileCache, BadInputIsRefusedInWords) {
  const MeshGeometry floor = square_floor();
  const auto refuses = [](auto&& call, const std::string& words) {
    try {
      call();
      ADD_FAILURE() << "no error; expected one saying '" << words << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  };
  refuses([&] { NavMeshTileCache cache(floor, AgentSettings{}); }, "tile_size");
  AgentSettings settings = tiled_settings();
  settings.partition = static_cast<RegionPartition>(7);
  refuses([&] { NavMeshTileCache cache(floor, settings); }, "partition must be watershed, monotone or layers");
  settings.partition = RegionPartition::watershed;
  settings.tile_size = 64;
  NavMeshTileCache cache(floor, settings);
  ASSERT_EQ(cache.tiles_x(), 2);
  ASSERT_EQ(cache.tiles_z(), 2);
  const double nan = std::nan("");
  refuses([&] { cache.add_obstacle(CylinderObstacle{{nan, 0, 0}, 1, 2}); }, "base must be finite");
  refuses([&] { cache.add_obstacle(CylinderObstacle{{1, 0, 1}, -1, 2}); }, "radius");
  refuses([&] { cache.add_obstacle(CylinderObstacle{{1, 0, 1}, 1, nan}); }, "height");
  refuses([&] { cache.add_obstacle(BoxObstacle{{2, 0, 2}, {1, 1, 3}}); }, "min must not exceed max");
  refuses([&] { cache.add_obstacle(OrientedBoxObstacle{{1, 0, 1}, {1, -1, 1}, 0}); }, "half_extents");
  refuses([&] { cache.add_obstacle(OrientedBoxObstacle{{1, 0, 1}, {1, 1, 1}, nan}); }, "yaw_radians");
  refuses([&] { cache.remove_obstacle(7); }, "no obstacle has id 7");
  const ObstacleId id = cache.add_obstacle(CylinderObstacle{{5, 0, 5}, 1, 2});
  cache.remove_obstacle(id);
  refuses([&] { cache.remove_obstacle(id); }, "removed already");
  refuses([&] { cache.add_area_volume(AreaVolume{{{0, 0, 0}, {1, 0, 0}}, 0, 1, 1, 0}); }, "at least 3 corners");
  refuses([&] { cache.add_area_volume(AreaVolume{{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}}, 2, 1, 1, 0}); }, "min_y <= max_y");
  refuses([&] { cache.add_area_volume(AreaVolume{{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}}, 0, 1, 64, 0}); }, "area 64");
  refuses([&] { cache.remove_area_volume(99); }, "no area volume has id 99");
  EXPECT_EQ(cache.obstacle_count(), 0u);
  EXPECT_EQ(cache.pending_tiles(), 1u) << "the refused calls queued nothing; the cylinder queued its one tile once";
  EXPECT_THROW((void)cache.rebuild_tile(2, 0), std::out_of_range);
}

TEST(NavMeshTileCache, MoreThan63AreaPairsAreRefusedAndLeaveTheCacheAsItWas) {
  const MeshGeometry floor = square_floor();
  AgentSettings settings = tiled_settings();
  settings.tile_size = 16;
  NavMeshTileCache cache(floor, settings);
  const AreaVolume base{{{1, 0, 1}, {2, 0, 1}, {2, 0, 2}}, -1, 1, 1, 0};
  // The level's untagged ground is one pair; 62 volumes of other flags make 63.
  for (AreaFlags flags = 1; flags <= 62; ++flags) {
    AreaVolume volume = base;
    volume.flags = flags;
    cache.add_area_volume(volume);
  }
  AreaVolume one_too_many = base;
  one_too_many.flags = 63;
  EXPECT_THROW(cache.add_area_volume(one_too_many), std::invalid_argument);
  AreaVolume shared = base;
  shared.flags = 5;
  EXPECT_NO_THROW(cache.add_area_volume(shared)) << "a pair already in use takes no new id";
  EXPECT_NO_THROW(cache.update());
}


// The cache's tiles go into a running mesh (NavMesh::build_tiled, replace_tile): the edited mesh
// is the mesh built from fresh tiles with the same obstacles, polygon for polygon, and answers
// the same paths.
TEST(NavMeshTileCache, RebuiltTilesReplaceATiledNavMeshsTiles) {
  WAYFINDER_SKIP_WITHOUT(level_path("dungeon.obj"));
  const MeshGeometry level = read_obj_mesh(level_path("dungeon.obj"));
  const AgentSettings settings = tiled_settings();
  const NavMeshTileSet built = build_navmesh_tiles(level, settings);
  NavMesh mesh = NavMesh::build_tiled(built.grid, built.tiles);
  NavMeshTileCache cache(level, settings);
  const std::vector<Point> ground = ground_points(level, settings);
  std::mt19937 random(11);
  std::vector<Obstacle> obstacles;
  for (int i = 0; i < 4; ++i) {
    obstacles.push_back(random_obstacle(random, ground));
    cache.add_obstacle(obstacles.back());
  }
  while (cache.pending_tiles() > 0)
    for (const RebuiltTile& tile : cache.update({.max_tiles = 3}))
      mesh.replace_tile(tile.tile_x, tile.tile_z, tile.geometry);
  std::vector<NavMeshTile> fresh_tiles;
  for (const RebuiltTile& tile : build_navmesh_tiles_with_obstacles(level, settings, obstacles))
    if (!tile.geometry.polygons.empty()) fresh_tiles.push_back({tile.tile_x, tile.tile_z, tile.geometry});
  const NavMesh fresh = NavMesh::build_tiled(built.grid, fresh_tiles);
  ASSERT_EQ(mesh.polygon_count(), fresh.polygon_count());
  EXPECT_EQ(mesh.region_count(), fresh.region_count());
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto a = mesh.polygon_vertices(p), b = fresh.polygon_vertices(p);
    ASSERT_EQ(a.size(), b.size()) << "polygon " << p;
    for (std::size_t j = 0; j < a.size(); ++j) EXPECT_EQ(mesh.vertex(a[j]), fresh.vertex(b[j]));
  }
  NavMeshQuery edited_query(mesh), fresh_query(fresh);
  for (std::size_t q = 0; q + 1 < ground.size(); q += 7) {
    const PathResult a = edited_query.find_path(ground[q], ground[q + 1]);
    const PathResult b = fresh_query.find_path(ground[q], ground[q + 1]);
    EXPECT_EQ(a.status, b.status) << "query " << q;
    EXPECT_EQ(a.cost, b.cost) << "query " << q;
  }
}


// A game ships one baked file with the mesh and the cache: loaded without the level, the cache
// rebuilds every tile an obstacle and a volume touch as the cache built from the level does, and
// the loaded mesh takes them as the mesh in memory does.
TEST(NavMeshTileCache, SavedWithTheMeshAndLoadedItRebuildsAsTheCacheInMemory) {
  WAYFINDER_SKIP_WITHOUT(level_path("dungeon.obj"));
  const MeshGeometry level = read_obj_mesh(level_path("dungeon.obj"));
  const AgentSettings settings = tiled_settings();
  const NavMeshTileSet built = build_navmesh_tiles(level, settings);
  NavMesh mesh = NavMesh::build_tiled(built.grid, built.tiles);
  NavMeshTileCache cache(level, settings);
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("wayfinder_tile_cache_" +
                                      std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".wfnav");
  write_navmesh_file(mesh, cache, file);
  NavMeshWithTileCache loaded = read_navmesh_file_with_tile_cache(file);
  std::filesystem::remove(file);
  EXPECT_EQ(loaded.cache.to_bytes(), cache.to_bytes());
  EXPECT_EQ(loaded.cache.tiles_x(), cache.tiles_x());
  EXPECT_EQ(loaded.cache.memory().packed_bytes, cache.memory().packed_bytes);

  const std::vector<Point> ground = ground_points(level, settings);
  std::mt19937 random(23);
  AreaVolume water;
  const Point& at = ground[ground.size() / 2];
  water.corners = {{at.x - 2, 0, at.z - 2}, {at.x + 2, 0, at.z - 2}, {at.x + 2, 0, at.z + 2}, {at.x - 2, 0, at.z + 2}};
  water.min_y = at.y - 1;
  water.max_y = at.y + 1;
  water.area = 3;
  water.flags = 0x10;
  for (NavMeshTileCache* c : {&cache, &loaded.cache}) (void)c->add_area_volume(water);
  for (int i = 0; i < 3; ++i) {
    const Obstacle obstacle = random_obstacle(random, ground);
    for (NavMeshTileCache* c : {&cache, &loaded.cache}) (void)c->add_obstacle(obstacle);
  }
  ASSERT_GT(cache.pending_tiles(), 0u);
  EXPECT_EQ(loaded.cache.pending_tiles(), cache.pending_tiles());
  const std::vector<RebuiltTile> ours = loaded.cache.update();
  const std::vector<RebuiltTile> theirs = cache.update();
  ASSERT_EQ(ours.size(), theirs.size());
  for (std::size_t t = 0; t < ours.size(); ++t) expect_same_tile(ours[t], theirs[t]);
  for (std::size_t t = 0; t < ours.size(); ++t) {
    loaded.mesh.replace_tile(ours[t]);
    mesh.replace_tile(theirs[t]);
  }
  ASSERT_EQ(loaded.mesh.polygon_count(), mesh.polygon_count());
  NavMeshQuery loaded_query(loaded.mesh), memory_query(mesh);
  for (std::size_t q = 0; q + 1 < ground.size(); q += 7) {
    const PathResult a = loaded_query.find_path(ground[q], ground[q + 1]);
    const PathResult b = memory_query.find_path(ground[q], ground[q + 1]);
    EXPECT_EQ(a.status, b.status) << "query " << q;
    EXPECT_EQ(a.cost, b.cost) << "query " << q;
    EXPECT_EQ(a.nodes, b.nodes) << "query " << q;
  }
}

// Damaged tile cache bytes are a LoadError naming the byte, never a crash; a cache that loads
// from damaged bytes rebuilds its tiles without failing.
TEST(NavMeshTileCache, DamagedCacheBytesAreRefusedByOffset) {
  MeshGeometry floor = square_floor();
  floor.polygons = {{0, 3, 2, 1}};  // facing up, so that it is walkable
  const NavMeshTileCache cache(floor, tiled_settings());
  const std::string bytes = cache.to_bytes();
  ASSERT_LT(bytes.size(), 4000u);
  std::size_t refused = 0;
  constexpr std::size_t settings_bytes = 4 + 10 * 8 + 5 * 4;  // the layout version and AgentSettings
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ 0x41u);
    try {
      const NavMeshTileCache loaded = NavMeshTileCache::from_bytes(damaged, "damaged.wfnav", 1000);
      // Settings are checked as settings_problem checks anyone's; some that pass (a detail
      // sample distance of 1e-300) make Recast's later stages run for minutes, as they would on
      // the level, so tiles are rebuilt only when the damage is past the settings.
      if (i < settings_bytes) continue;
      for (int tz = 0; tz < loaded.tiles_z(); ++tz)
        for (int tx = 0; tx < loaded.tiles_x(); ++tx) (void)loaded.rebuild_tile(tx, tz);
    } catch (const LoadError& error) {
      ++refused;
      EXPECT_EQ(error.file(), "damaged.wfnav");
      EXPECT_NE(error.cause().find("(at byte "), std::string::npos) << error.cause();
    }
  }
  EXPECT_GT(refused, bytes.size() / 4);
  for (std::size_t length = 0; length < bytes.size(); ++length)
    EXPECT_THROW((void)NavMeshTileCache::from_bytes(bytes.substr(0, length), "cut.wfnav"), LoadError) << length;
  // A mesh file without the cache, and a cache whose grid is not the mesh's, are refused in words.
  const NavMeshTileSet built = build_navmesh_tiles(floor, tiled_settings());
  const NavMesh mesh = NavMesh::build_tiled(built.grid, built.tiles);
  try {
    (void)navmesh_with_tile_cache_from_bytes(navmesh_file_bytes(mesh), "plain.wfnav");
    ADD_FAILURE() << "no error";
  } catch (const LoadError& error) {
    EXPECT_NE(error.cause().find("no tile cache section"), std::string::npos) << error.cause();
  }
  AgentSettings smaller_tiles = tiled_settings();
  smaller_tiles.tile_size = 32;
  const NavMeshTileCache other(floor, smaller_tiles);
  EXPECT_THROW((void)navmesh_file_bytes(mesh, other), std::invalid_argument);
  const NavMeshWithTileCache loaded = navmesh_with_tile_cache_from_bytes(navmesh_file_bytes(mesh, cache), "ok.wfnav");
  EXPECT_EQ(loaded.mesh.tiles().size(), mesh.tiles().size());
}

}  // namespace
}  // namespace wayfinder
