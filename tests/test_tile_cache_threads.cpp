// NavMeshTileCache's worker thread under ThreadSanitizer (label threads): the worker rebuilds
// tiles while other threads query the mesh, the owner adds obstacles while it works, and the
// finished tiles are swapped into the mesh on the owner's thread between frames (no query
// running). At the end the mesh is, polygon for polygon, the mesh a cache without a worker made
// from the same obstacles, and answers the same paths.

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <vector>

#include "wayfinder/core/joining_thread.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

namespace wayfinder {
namespace {

// A flat floor 40 units square, facing up: 3 x 3 tiles of 48 cells.
MeshGeometry floor_level() {
  MeshGeometry floor;
  floor.source = "<floor>";
  floor.vertices = {{0, 0, 0}, {40, 0, 0}, {40, 0, 40}, {0, 0, 40}};
  floor.polygons = {{0, 3, 2, 1}};
  return floor;
}

AgentSettings tiled() {
  AgentSettings settings;
  settings.tile_size = 48;
  return settings;
}

std::vector<Obstacle> obstacles() {
  return {CylinderObstacle{{10, -1, 10}, 2.0, 3.0}, BoxObstacle{{18, -1, 4}, {22, 2, 30}},
          OrientedBoxObstacle{{30, 0, 30}, {4, 2, 1}, 0.7}, CylinderObstacle{{5, -1, 34}, 1.5, 3.0}};
}

// Paths between points spread over the floor, on the thread that calls it.
std::vector<PathResult> some_paths(const NavMesh& mesh) {
  NavMeshQuery query(mesh);
  std::vector<PathResult> paths;
  for (int i = 0; i < 6; ++i)
    paths.push_back(query.find_path(Point{1.0 + 6.0 * i, 0, 1.0}, Point{39.0 - 6.0 * i, 0, 39.0}));
  return paths;
}

TEST(TileCacheThreads, WorkerRebuildsWhileQueriesRunAndTheOwnerSwapsTilesIn) {
  const MeshGeometry level = floor_level();
  const NavMeshTileSet set = build_navmesh_tiles(level, tiled());
  ASSERT_GE(set.tiles.size(), 4u);

  // The reference: a cache without a worker.
  NavMesh expected = NavMesh::build_tiled(set.grid, set.tiles);
  NavMeshTileCache plain(level, tiled());
  for (const Obstacle& obstacle : obstacles()) (void)plain.add_obstacle(obstacle);
  for (const RebuiltTile& tile : plain.update()) expected.replace_tile(tile);

  NavMesh mesh = NavMesh::build_tiled(set.grid, set.tiles);
  NavMeshTileCache cache(level, tiled());
  cache.use_worker_thread(true);
  ASSERT_TRUE(cache.uses_worker_thread());
  const std::vector<Obstacle> all = obstacles();
  std::size_t added = 0;
  (void)cache.add_obstacle(all[added++]);
  std::size_t frames = 0, swapped = 0;
  while (cache.pending_tiles() > 0 || added < all.size()) {
    ASSERT_LT(++frames, 100000u);
    std::vector<RebuiltTile> finished;
    {
      // A frame: queries on the mesh in two threads while the owner drives the cache (and the
      // worker rebuilds).
      std::atomic<std::size_t> answered{0};
      JoiningThread first([&] { answered += some_paths(mesh).size(); });
      JoiningThread second([&] { answered += some_paths(mesh).size(); });
      finished = cache.update({.max_tiles = 2});
      if (cache.worker_busy() && added < all.size()) (void)cache.add_obstacle(all[added++]);
    }
    // Between frames, on the owner's thread: the finished tiles go into the mesh.
    for (const RebuiltTile& tile : finished) mesh.replace_tile(tile);
    swapped += finished.size();
    if (cache.pending_tiles() == 0 && added < all.size()) (void)cache.add_obstacle(all[added++]);
  }
  EXPECT_GT(swapped, 0u);
  EXPECT_FALSE(cache.worker_busy());

  ASSERT_EQ(mesh.polygon_count(), expected.polygon_count());
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto a = mesh.polygon_vertices(p), b = expected.polygon_vertices(p);
    ASSERT_EQ(a.size(), b.size()) << "polygon " << p;
    for (std::size_t j = 0; j < a.size(); ++j) EXPECT_EQ(mesh.vertex(a[j]), expected.vertex(b[j]));
  }
  const std::vector<PathResult> ours = some_paths(mesh), theirs = some_paths(expected);
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].status, theirs[i].status) << i;
    EXPECT_EQ(ours[i].cost, theirs[i].cost) << i;
    EXPECT_EQ(ours[i].nodes, theirs[i].nodes) << i;
  }
}

// Turning the worker off hands its batch out at the next update, which then rebuilds the rest on
// the calling thread; a cache destroyed with its worker busy joins it.
TEST(TileCacheThreads, TurningTheWorkerOffAndDestroyingABusyCacheLoseNothing) {
  const MeshGeometry level = floor_level();
  NavMeshTileCache cache(level, tiled());
  cache.use_worker_thread(true);
  for (const Obstacle& obstacle : obstacles()) (void)cache.add_obstacle(obstacle);
  const std::size_t pending = cache.pending_tiles();
  ASSERT_GT(pending, 2u);
  EXPECT_TRUE(cache.update({.max_tiles = 2}).empty()) << "the first update only starts the worker";
  EXPECT_EQ(cache.pending_tiles(), pending);
  cache.use_worker_thread(false);
  cache.wait_for_worker();
  EXPECT_FALSE(cache.worker_busy());
  const std::vector<RebuiltTile> tiles = cache.update();
  EXPECT_EQ(tiles.size(), pending);
  EXPECT_EQ(cache.pending_tiles(), 0u);

  NavMeshTileCache busy(level, tiled());
  busy.use_worker_thread(true);
  (void)busy.add_obstacle(obstacles()[1]);
  (void)busy.update();
}

}  // namespace
}  // namespace wayfinder
