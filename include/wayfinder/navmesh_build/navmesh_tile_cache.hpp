#pragma once
// Temporary obstacles and area volumes on a tiled navigation mesh, rebuilt one tile at a time
// without the level. The cache is built once from the level: per tile it keeps Recast's compact
// heightfield after rasterization and filtering and before erosion (the walkable spans, their
// heights and areas), packed into a few kilobytes. A rebuild unpacks it, marks the obstacles'
// footprints not walkable, erodes by the agent's radius (so each obstacle's carving grows by the
// radius, as walls do), applies the area volumes and runs the rest of Recast's pipeline, giving
// the tile's polygons as a fresh build with the same obstacles would (docs/navmesh.md,
// "Temporary obstacles and area volumes").
//
// Part of the optional `wayfinder::navmesh_build` library (Recast).

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh_tiles.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder {

/// A vertical cylinder standing on `base` (its bottom centre), in world units.
struct CylinderObstacle {
  Point base;
  double radius = 0.0;  ///< >= 0
  double height = 0.0;  ///< >= 0
};

/// An axis-aligned box from `min` to `max` (each coordinate of min <= max's), world units.
struct BoxObstacle {
  Point min;
  Point max;
};

/// A box turned about the vertical axis: `center` is its centre, `half_extents` its half sizes
/// along its own x, y and z (each >= 0), `yaw_radians` the turn from the world's x towards its z.
struct OrientedBoxObstacle {
  Point center;
  Point half_extents;
  double yaw_radians = 0.0;
};

/// What blocks the walkable area until it is removed. The spans whose floor lies within the
/// obstacle's height range (bottom to top, world units) and whose cell centre lies within its
/// footprint become not walkable; the rebuild then erodes by the agent's radius.
using Obstacle = std::variant<CylinderObstacle, BoxObstacle, OrientedBoxObstacle>;

/// A convex prism that gives the walkable ground inside it an area and flags (doors, water,
/// roads for AreaFilter), as Recast's convex volumes: `corners` in x-z (y ignored) in order
/// around a convex polygon (at least 3), from height `min_y` to `max_y`. A later volume wins
/// where volumes overlap.
struct AreaVolume {
  std::vector<Point> corners;
  double min_y = 0.0;
  double max_y = 0.0;
  AreaId area = 0;      ///< 0 .. max_areas - 1
  AreaFlags flags = 0;
};

/// One tile's polygons after a rebuild, in world units, ready for NavMesh::replace_tile(tile_x,
/// tile_z, geometry). Vertices are the tile's own (indices start at 0); polygon_areas and
/// polygon_flags always have one entry per polygon; the detail mesh is filled as
/// build_navmesh_geometry fills it. Polygon edges along the tile's borders are not split at the
/// neighbouring tiles' vertices (the mesh that takes the tile joins them). The same type as the
/// tiles NavMesh::build_tiled and replace_tile take.
using RebuiltTile = NavMeshTile;

/// How much one update may rebuild: at most `max_tiles` tiles, and no new tile once
/// `max_time` has passed (a tile under way is finished, so one tile's time is the overrun).
/// An update rebuilds at least one tile when any is pending, whatever the budget.
struct TileUpdateBudget {
  std::size_t max_tiles = std::numeric_limits<std::size_t>::max();
  std::chrono::microseconds max_time = std::chrono::microseconds::max();
};

/// Identifies an obstacle or area volume of one cache; ids are never reused.
using ObstacleId = std::uint32_t;
using AreaVolumeId = std::uint32_t;

/// The kept data's size, in bytes.
struct TileCacheMemory {
  std::size_t tiles = 0;            ///< tiles with kept data (tiles with no triangles keep none)
  std::size_t packed_bytes = 0;     ///< all tiles' packed heightfields
  std::size_t largest_tile_bytes = 0;
  std::size_t unpacked_bytes = 0;   ///< the same heightfields as Recast holds them, for comparison
};

/// A tiled navigation mesh's rebuildable tiles. Not thread-safe: one thread at a time (the
/// owner) calls its functions. The NavMesh the rebuilt tiles go to is a separate object; the
/// rule for its queries is the mesh's own (replace_tile is an edit: it needs exclusive access).
///
/// With use_worker_thread(true) the rebuilds run on a worker thread the cache starts and joins
/// itself: update() hands out the tiles the worker finished since the last call and starts it on
/// the next queued ones, so the owner's thread never waits for Recast. The rule for threads:
/// queries on the NavMesh (in any number of threads) may run while the worker rebuilds, since
/// the worker never touches the mesh and reads only the cache's kept data and a copy of the
/// obstacles and volumes; swapping the tiles update() returned into the mesh (replace_tile)
/// happens on the owner's thread, between frames, under the mesh's rule for edits (no query
/// running). docs/architecture.md, "Threads".
class NavMeshTileCache {
 public:
  /// Rasterizes every tile of `level` (as build_navmesh_geometry does with the same settings)
  /// and keeps its packed heightfield. Throws std::invalid_argument for bad settings, for
  /// settings.tile_size == 0 (the cache is tiled), or for a bad level, as
  /// build_navmesh_geometry does.
  NavMeshTileCache(const MeshGeometry& level, const AgentSettings& settings);
  ~NavMeshTileCache();
  NavMeshTileCache(NavMeshTileCache&&) noexcept;
  NavMeshTileCache& operator=(NavMeshTileCache&&) noexcept;
  NavMeshTileCache(const NavMeshTileCache&) = delete;
  NavMeshTileCache& operator=(const NavMeshTileCache&) = delete;

  [[nodiscard]] const AgentSettings& settings() const;
  [[nodiscard]] int tiles_x() const;
  [[nodiscard]] int tiles_z() const;
  /// The world-space x-z box of tile (tile_x, tile_z) without its border: min x, min z, max x, max z.
  [[nodiscard]] std::array<double, 4> tile_bounds(int tile_x, int tile_z) const;

  /// Adds an obstacle and queues the tiles it touches (with their borders of the agent's radius
  /// plus three cells). Throws std::invalid_argument naming the field for a NaN or infinite
  /// coordinate, a negative radius, height or half extent, or a box whose min exceeds its max.
  ObstacleId add_obstacle(const Obstacle& obstacle);
  /// Removes an obstacle and queues the tiles it touched. Throws std::invalid_argument for an id
  /// this cache did not give or already removed.
  void remove_obstacle(ObstacleId id);
  [[nodiscard]] std::size_t obstacle_count() const;

  /// Adds an area volume and queues the tiles it touches. Throws std::invalid_argument for fewer
  /// than 3 corners, a corner that is not finite, min_y > max_y, an area of max_areas or more, or
  /// more than 63 different (area, flags) pairs among the level and the volumes together.
  AreaVolumeId add_area_volume(const AreaVolume& volume);
  void remove_area_volume(AreaVolumeId id);  ///< throws std::invalid_argument for an unknown id

  /// Rebuilds queued tiles, oldest change first, within the budget, with the obstacles and volumes
  /// present now, and returns them. A tile queued by several changes is rebuilt once. Throws
  /// std::runtime_error naming the Recast stage that failed (out of memory); the queue is then as
  /// it was before the call.
  std::vector<RebuiltTile> update(const TileUpdateBudget& budget = {});
  /// Tiles queued and not yet handed out: queued ones, and those of the worker's batch (under
  /// way or finished and waiting for the next update).
  [[nodiscard]] std::size_t pending_tiles() const;

  /// Rebuilds on a worker thread (on), or in update() itself (off, the default). With the worker,
  /// update(budget) returns at once: the tiles of the worker's batch if it has finished (none
  /// while it works), after which it starts the worker on up to budget.max_tiles queued tiles
  /// (budget.max_time bounds the batch's time on the worker, checked between tiles; the tiles it
  /// did not reach are queued again at the front), with the obstacles and volumes present at that
  /// call: a change made while the worker runs queues its tiles again for a later batch, so the
  /// tiles converge to the ones of the obstacles present. A Recast failure on the worker is
  /// thrown by the update that collects the batch (its tiles queued again). Turning the worker
  /// off leaves a batch under way to be waited for and handed out by the next update. Not
  /// available in builds without threads (the WebAssembly build starts none: leave it off).
  void use_worker_thread(bool on);
  [[nodiscard]] bool uses_worker_thread() const;
  /// Blocks until the worker's batch, if any, has finished; the next update() hands it out.
  void wait_for_worker();
  /// True while the worker rebuilds a batch.
  [[nodiscard]] bool worker_busy() const;

  /// Tile (tile_x, tile_z) rebuilt now from its kept data, queued or not (throws
  /// std::out_of_range outside the grid).
  [[nodiscard]] RebuiltTile rebuild_tile(int tile_x, int tile_z) const;

  /// The kept data as bytes, what a baked navmesh file's tile cache section holds
  /// (navmesh_build/tile_cache_file.hpp writes it with the mesh; layout in docs/navmesh-file.md,
  /// "The tile cache section"): the settings, the level's bounds and (area, flags) pairs, and
  /// every tile's packed heightfield. Not the obstacles, area volumes or queued tiles: they are
  /// what a game adds at run time (save the cache before adding any, so that the mesh saved
  /// beside it holds the tiles the loaded cache would build).
  [[nodiscard]] std::string to_bytes() const;
  /// A cache from to_bytes()'s bytes, without the level: it rebuilds every tile as the cache
  /// that wrote them does (no obstacles, volumes or queued tiles yet). Throws LoadError naming
  /// `source` and the byte offset of what is wrong (counted from `offset`, where the bytes start
  /// in their file); nothing else for bad bytes.
  [[nodiscard]] static NavMeshTileCache from_bytes(std::string_view bytes, const std::string& source,
                                                   std::size_t offset = 0);

  [[nodiscard]] TileCacheMemory memory() const;
  /// Bytes of tile (tile_x, tile_z)'s packed heightfield (0 for a tile with no triangles).
  [[nodiscard]] std::size_t tile_bytes(int tile_x, int tile_z) const;

 private:
  NavMeshTileCache();
  // update()'s rebuilds on the calling thread.
  std::vector<RebuiltTile> rebuild_queued(const TileUpdateBudget& budget);
  struct State;
  std::unique_ptr<State> state_;
};

/// The reference the cache is measured against: every tile of `level` built from the level's
/// triangles (no kept data), with `obstacles` and `volumes` applied as the cache applies them.
/// Tiles in row order (tile_z, then tile_x), empty tiles included.
std::vector<RebuiltTile> build_navmesh_tiles_with_obstacles(const MeshGeometry& level, const AgentSettings& settings,
                                                            std::span<const Obstacle> obstacles,
                                                            std::span<const AreaVolume> volumes = {});

}  // namespace wayfinder
