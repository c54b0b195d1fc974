#pragma once
// The worlds a viewer server holds, shared by its worker threads. Each world is read by any
// number of queries at once and edited by one request at a time (a reader-writer lock per
// world: the library's rule that edits need exclusive access). Query objects are pooled per
// world: a request borrows one, so there is one per busy worker thread, reused across requests;
// the data they read besides the world (a grid's derived data) is one object per world.

#include <cstddef>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::viewer {

/// Idle query objects of one world. A Lease hands one out and gives it back when destroyed.
template <class Query, class World>
class QueryPool {
 public:
  class Lease {
   public:
    Lease(QueryPool& pool, std::unique_ptr<Query> query) : pool_(pool), query_(std::move(query)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_.give_back(std::move(query_)); }
    Query& operator*() const { return *query_; }
    Query* operator->() const { return query_.get(); }

   private:
    QueryPool& pool_;
    std::unique_ptr<Query> query_;
  };

  /// A query object on `world`: an idle one, or a new one when all are busy.
  Lease borrow(const World& world) {
    std::unique_ptr<Query> query;
    {
      const std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        query = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    if (!query) query = std::make_unique<Query>(world);
    return Lease(*this, std::move(query));
  }

 private:
  void give_back(std::unique_ptr<Query> query) {
    const std::lock_guard lock(mutex_);
    idle_.push_back(std::move(query));
  }
  std::mutex mutex_;
  std::vector<std::unique_ptr<Query>> idle_;
};

/// A grid world's derived data (JPS+ table, hierarchy, clearance, body maps): one per world,
/// shared by every pooled query object. Each piece is built by the first query that needs it,
/// and again by the first that needs it after an edit.
class GridDerivedCache {
 public:
  /// The data that queries with `options` read, current for `map`. Called under the world's
  /// shared lock, so the map does not change meanwhile; concurrent callers wait for one build.
  GridDerivedData for_query(const GridMap& map, const GridSearchOptions& options) {
    const std::lock_guard lock(mutex_);
    if (grid_derived_data_problem(map, options, data_)) build_grid_derived_data(map, options, data_);
    return data_;
  }

 private:
  std::mutex mutex_;
  GridDerivedData data_;
};

enum class WorldKind { grid, navmesh, voxel };
std::string_view to_string(WorldKind kind);

/// A mesh built from a level's geometry: the tile cache its temporary obstacles are rebuilt
/// from, and the obstacles (level_obstacles.hpp).
struct LevelObstacles;

struct CatalogWorld {
  int id = 0;
  WorldKind kind = WorldKind::grid;
  std::string name;
  /// Shared by queries and descriptions, exclusive for edits.
  mutable std::shared_mutex access;
  // Exactly one of these is set, as `kind` says. Pools are declared after the worlds, so they
  // (and their query objects, which refer to the world) are destroyed first.
  std::unique_ptr<GridMap> grid;
  std::unique_ptr<NavMesh> mesh;
  std::unique_ptr<VoxelWorld> voxels;
  mutable GridDerivedCache grid_derived;
  mutable QueryPool<GridQuery, GridMap> grid_queries;
  mutable QueryPool<NavMeshQuery, NavMesh> mesh_queries;
  mutable QueryPool<VoxelQuery, VoxelWorld> voxel_queries;
  /// For a mesh built from a level, its tile cache and obstacles; null otherwise. Read under
  /// `access`'s shared lock, changed (with the mesh's tiles) under its exclusive lock.
  std::shared_ptr<LevelObstacles> level;
  /// A mesh's or grid's crowd, null until one is made. `crowd_mutex` lets one request at a time
  /// touch it; a request that does takes `access`'s shared lock too (the crowd reads the mesh or
  /// grid), after `crowd_mutex`, so grid edits (under the exclusive lock) fall between updates.
  /// Declared after the mesh and grid, so it is destroyed first.
  std::mutex crowd_mutex;
  std::unique_ptr<Crowd> crowd;
};

/// Thrown when adding a world would take the catalog over one of its limits.
struct CatalogFull : std::length_error {
  using std::length_error::length_error;
};

/// What a catalog may hold, so that uploads are refused with a message rather than filling the
/// memory. A world's bytes are estimated from its size (world_bytes()).
struct CatalogLimits {
  std::size_t max_worlds = 64;
  std::size_t max_bytes = std::size_t{4} << 30;
};

/// The bytes a world and a query object on it take, roughly: 8 per grid cell (the cells and
/// the search's per-cell state grow together), the voxel world's own figure, and per mesh
/// polygon and vertex the sizes of its tables.
std::size_t world_bytes(const GridMap& map);
std::size_t world_bytes(const NavMesh& mesh);
std::size_t world_bytes(const VoxelWorld& world);

class WorldCatalog {
 public:
  explicit WorldCatalog(CatalogLimits limits = {}) : limits_(limits) {}

  /// Adds a world and returns its id (1, 2, ... in the order added). Throws CatalogFull, naming
  /// the limit, when the catalog holds max_worlds worlds or the world would take it over
  /// max_bytes.
  int add(std::string name, GridMap map);
  int add(std::string name, NavMesh mesh);
  /// A mesh built from a level, with its tile cache, which takes `level_bytes` more.
  int add(std::string name, NavMesh mesh, std::shared_ptr<LevelObstacles> level, std::size_t level_bytes);
  int add(std::string name, VoxelWorld world);
  /// The world with this id, or null.
  [[nodiscard]] std::shared_ptr<CatalogWorld> find(int id) const;
  [[nodiscard]] std::vector<std::shared_ptr<CatalogWorld>> list() const;
  [[nodiscard]] std::size_t size() const;
  /// The estimated bytes of the worlds held.
  [[nodiscard]] std::size_t bytes() const;
  [[nodiscard]] const CatalogLimits& limits() const { return limits_; }

 private:
  int insert(std::shared_ptr<CatalogWorld> world, std::size_t bytes);
  CatalogLimits limits_;
  mutable std::shared_mutex mutex_;
  std::vector<std::shared_ptr<CatalogWorld>> worlds_;
  std::size_t bytes_ = 0;
  int next_id_ = 1;
};

/// Loads a world file by its extension: .map (MovingAI grid), .obj or .mesh (navigation mesh),
/// .vox (MagicaVoxel) or .3dmap (voxel benchmark). Throws LoadError or std::invalid_argument
/// naming the file and the problem.
int load_world_file(WorldCatalog& catalog, const std::string& path);

}  // namespace wayfinder::viewer
