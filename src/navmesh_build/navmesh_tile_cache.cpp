#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

#include "navmesh_build/compact_heightfield_packing.hpp"
#include "navmesh_build/obstacle_marking.hpp"
#include "navmesh_build/recast_stages.hpp"
#include "navmesh_build/tile_cache_data.hpp"
#include "wayfinder/core/joining_thread.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <optional>
#include <cmath>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace wayfinder {

namespace {

using AreaTag = std::pair<AreaId, AreaFlags>;

// An area volume with the Recast area id its (area, flags) got.
struct TaggedVolume {
  const AreaVolume* volume;
  unsigned char recast_area;
};

// The level's (area, flags) pairs followed by the volumes' new ones: Recast area id - 1 -> pair.
// Volumes that share a pair share an id; at most 63 pairs in all (six bits per span).
std::vector<AreaTag> tag_volumes(const std::vector<AreaTag>& level_tags, const std::vector<const AreaVolume*>& volumes,
                                 std::vector<TaggedVolume>& tagged) {
  std::vector<AreaTag> tags = level_tags;
  tagged.clear();
  for (const AreaVolume* volume : volumes) {
    const AreaTag key{volume->area, volume->flags};
    auto found = std::find(tags.begin(), tags.end(), key);
    if (found == tags.end()) {
      if (tags.size() == most_tags)
        throw std::invalid_argument("area volume: more than " + std::to_string(most_tags) +
                                    " different (area, flags) pairs among the level and the volumes");
      tags.push_back(key);
      found = tags.end() - 1;
    }
    tagged.push_back({volume, static_cast<unsigned char>(found - tags.begin() + 1)});
  }
  return tags;
}

const BuildProgress no_progress = [](std::string_view, double) {};

bool overlaps(const FootprintBox& a, const PieceBox& box) {
  return a.max_x >= box.bounds_min[0] && a.min_x <= box.bounds_max[0] && a.max_z >= box.bounds_min[2] &&
         a.min_z <= box.bounds_max[2];
}

// The stages after rasterization on one tile's compact heightfield: obstacles marked not
// walkable, erosion by the agent's radius (which grows every carving by the radius), area
// volumes, then regions, contours, polygons and detail; gathered into the tile's own geometry.
RebuiltTile finish_tile(rcCompactHeightfield* compact, const PieceBox& box, int tile_x, int tile_z,
                        const AgentSettings& settings, const float* level_origin, const std::vector<AreaTag>& tags,
                        const std::vector<const Obstacle*>& obstacles, const std::vector<TaggedVolume>& volumes,
                        const std::string& source, RecastLog& log) {
  RebuiltTile tile{tile_x, tile_z, {}};
  tile.geometry.source = source + " (tile " + std::to_string(tile_x) + ", " + std::to_string(tile_z) + ")";
  tile.geometry.declared_navmesh = true;
  if (compact == nullptr) return tile;
  for (const Obstacle* obstacle : obstacles)
    if (overlaps(footprint_box(*obstacle), box)) mark_obstacle(log, *obstacle, *compact);
  erode_walkable_area(*compact, settings, log);
  for (const TaggedVolume& tagged : volumes)
    if (overlaps(footprint_box(*tagged.volume), box)) mark_area_volume(log, *tagged.volume, tagged.recast_area, *compact);
  const RecastPiece piece = build_polygons(*compact, settings, box.border, log, no_progress);
  if (!piece.polygons || piece.polygons->npolys == 0) return tile;
  tile.geometry.detail_starts.push_back(0);
  PieceStitcher stitcher(level_origin, tags, settings);
  stitcher.add(piece, box.cell_x, box.cell_z, tile.geometry);
  return tile;
}

void check_tiled(const AgentSettings& settings) {
  if (auto problem = settings_problem(settings)) throw std::invalid_argument("navmesh tile cache: " + *problem);
  if (settings.tile_size == 0)
    throw std::invalid_argument("navmesh tile cache: settings.tile_size is 0; the cache needs a tiled build (e.g. 48)");
}

}  // namespace

// A batch of tiles rebuilt on the worker thread (NavMeshTileCache::use_worker_thread) with the
// obstacles and volumes as they were when it started. The worker writes only `rebuilt`, `error`
// and `done`; the owner's thread reads them after `done` (or after joining).
struct WorkerBatch {
  std::vector<std::size_t> tiles;  // row-order indices, oldest change first
  std::vector<Obstacle> obstacles;
  std::vector<AreaVolume> volumes;
  std::vector<AreaTag> tags;
  std::vector<TaggedVolume> tagged_volumes;  // into `volumes`
  TileUpdateBudget budget;
  std::vector<RebuiltTile> rebuilt;  // the first tiles of `tiles`, in order
  std::exception_ptr error;
  std::atomic<bool> done{false};
  std::optional<JoiningThread> thread;  // last: joined before the rest goes
};

struct NavMeshTileCache::State {
  AgentSettings settings;
  std::string source;
  RecastLevel level;  // only its bounds, tags and no triangles once built
  TileGrid grid;
  std::vector<std::optional<PackedHeightfield>> tiles;  // row order; nullopt: no triangles over it
  std::map<ObstacleId, Obstacle> obstacles;
  std::map<AreaVolumeId, AreaVolume> volumes;
  std::uint32_t next_id = 1;
  std::deque<std::size_t> queue;
  std::vector<bool> queued;
  std::vector<AreaTag> tags;  // the level's and the volumes'
  std::vector<TaggedVolume> tagged_volumes;
  RecastLog log;

  [[nodiscard]] PieceBox box(int tile_x, int tile_z) const { return piece_box(level, settings, grid, tile_x, tile_z); }

  void queue_tiles(const FootprintBox& footprint) {
    for (int tz = 0; tz < grid.tiles_z; ++tz)
      for (int tx = 0; tx < grid.tiles_x; ++tx) {
        if (!overlaps(footprint, box(tx, tz))) continue;
        const auto index = static_cast<std::size_t>(tz) * static_cast<std::size_t>(grid.tiles_x) + static_cast<std::size_t>(tx);
        if (queued[index]) continue;
        queued[index] = true;
        queue.push_back(index);
      }
  }

  // Removes the shape `id` (an obstacle or an area volume) from `shapes` and queues the tiles it
  // covered; std::invalid_argument naming `what` is missing when no shape has that id.
  template <class Shape>
  void remove_shape(std::map<std::uint32_t, Shape>& shapes, std::uint32_t id, const char* what) {
    const auto found = shapes.find(id);
    if (found == shapes.end())
      throw std::invalid_argument(std::string("navmesh tile cache: no ") + what + " has id " + std::to_string(id) +
                                  " (never added, or removed already)");
    queue_tiles(footprint_box(found->second));
    shapes.erase(found);
  }

  void retag() {
    std::vector<const AreaVolume*> live;
    for (const auto& [id, volume] : volumes) live.push_back(&volume);
    tags = tag_volumes(level.tags, live, tagged_volumes);
  }

  [[nodiscard]] RebuiltTile rebuild(int tile_x, int tile_z, RecastLog& rebuild_log) const {
    std::vector<const Obstacle*> present;
    for (const auto& [id, obstacle] : obstacles) present.push_back(&obstacle);
    return rebuild_with(tile_x, tile_z, present, tags, tagged_volumes, rebuild_log);
  }

  // Reads only what never changes after construction (the packed tiles, settings, bounds, grid)
  // and its arguments, so the worker thread may call it while the owner adds obstacles.
  [[nodiscard]] RebuiltTile rebuild_with(int tile_x, int tile_z, const std::vector<const Obstacle*>& present,
                                         const std::vector<AreaTag>& tile_tags, const std::vector<TaggedVolume>& volumes_now,
                                         RecastLog& rebuild_log) const {
    const auto index = static_cast<std::size_t>(tile_z) * static_cast<std::size_t>(grid.tiles_x) + static_cast<std::size_t>(tile_x);
    RecastPointer<rcCompactHeightfield> compact;
    if (tiles[index]) compact = unpack_heightfield(*tiles[index]);
    return finish_tile(compact.get(), box(tile_x, tile_z), tile_x, tile_z, settings, level.bounds_min, tile_tags, present,
                       volumes_now, source, rebuild_log);
  }

  // Puts tiles back at the front of the queue, in their order, unless a change queued them again.
  void requeue_front(const std::vector<std::size_t>& indices) {
    for (auto index = indices.rbegin(); index != indices.rend(); ++index) {
      if (queued[*index]) continue;
      queued[*index] = true;
      queue.push_front(*index);
    }
  }

  // Takes up to budget.max_tiles queued tiles and rebuilds them on a new worker thread with a
  // copy of the obstacles and volumes present now. Changes made meanwhile queue their tiles again.
  void start_batch(const TileUpdateBudget& budget) {
    batch = std::make_unique<WorkerBatch>();
    WorkerBatch& b = *batch;
    while (!queue.empty() && b.tiles.size() < std::max<std::size_t>(budget.max_tiles, 1)) {
      b.tiles.push_back(queue.front());
      queued[queue.front()] = false;
      queue.pop_front();
    }
    for (const auto& [id, obstacle] : obstacles) b.obstacles.push_back(obstacle);
    std::vector<const AreaVolume*> live;
    for (const auto& [id, volume] : volumes) b.volumes.push_back(volume);
    for (const AreaVolume& volume : b.volumes) live.push_back(&volume);
    b.tags = tag_volumes(level.tags, live, b.tagged_volumes);
    b.budget = budget;
    b.thread.emplace([this, &b] {
      try {
        RecastLog worker_log;
        std::vector<const Obstacle*> present;
        for (const Obstacle& obstacle : b.obstacles) present.push_back(&obstacle);
        const auto started = std::chrono::steady_clock::now();
        const auto tiles_x = static_cast<std::size_t>(grid.tiles_x);
        for (const std::size_t index : b.tiles) {
          if (!b.rebuilt.empty() && b.budget.max_time != std::chrono::microseconds::max() &&
              std::chrono::steady_clock::now() - started >= b.budget.max_time)
            break;
          b.rebuilt.push_back(rebuild_with(static_cast<int>(index % tiles_x), static_cast<int>(index / tiles_x), present,
                                           b.tags, b.tagged_volumes, worker_log));
        }
      } catch (...) {
        b.error = std::current_exception();
      }
      b.done.store(true, std::memory_order_release);
    });
  }

  // The finished batch's tiles (joining its thread); the tiles it did not reach go back to the
  // front of the queue, and all of them when it failed, whose error is then thrown.
  std::vector<RebuiltTile> collect_batch() {
    std::unique_ptr<WorkerBatch> finished = std::move(batch);
    finished->thread.reset();
    if (finished->error) {
      requeue_front(finished->tiles);
      std::rethrow_exception(finished->error);
    }
    requeue_front({finished->tiles.begin() + static_cast<std::ptrdiff_t>(finished->rebuilt.size()), finished->tiles.end()});
    return std::move(finished->rebuilt);
  }

  bool use_worker = false;
  std::unique_ptr<WorkerBatch> batch;  // last: its thread reads the members above
};

NavMeshTileCache::NavMeshTileCache(const MeshGeometry& level, const AgentSettings& settings)
    : state_(std::make_unique<State>()) {
  check_tiled(settings);
  State& s = *state_;
  s.settings = settings;
  s.source = level.source;
  s.level = prepare_level(level, settings, s.log);
  s.grid = plan_tile_grid(s.level, settings);
  const auto tile_count = static_cast<std::size_t>(s.grid.tiles_x) * static_cast<std::size_t>(s.grid.tiles_z);
  s.tiles.resize(tile_count);
  s.queued.assign(tile_count, false);
  if (s.grid.has_cells()) {
    for (int tz = 0; tz < s.grid.tiles_z; ++tz)
      for (int tx = 0; tx < s.grid.tiles_x; ++tx) {
        const RecastPointer<rcCompactHeightfield> compact = rasterize_piece(s.level, settings, s.box(tx, tz), s.log, no_progress);
        if (compact)
          s.tiles[static_cast<std::size_t>(tz) * static_cast<std::size_t>(s.grid.tiles_x) + static_cast<std::size_t>(tx)] =
              pack_heightfield(*compact);
      }
  }
  // The triangles are not needed again.
  s.level.vertices = {};
  s.level.triangles = {};
  s.level.triangle_areas = {};
  s.level.triangle_boxes = {};
  s.retag();
}

NavMeshTileCache::NavMeshTileCache() : state_(std::make_unique<State>()) {}

std::string NavMeshTileCache::to_bytes() const { return tile_cache_bytes(state_->settings, state_->level, state_->tiles); }

NavMeshTileCache NavMeshTileCache::from_bytes(std::string_view bytes, const std::string& source, std::size_t offset) {
  TileCacheData data = read_tile_cache_bytes(bytes, source, offset);
  NavMeshTileCache cache;
  State& s = *cache.state_;
  s.settings = data.settings;
  s.source = source;
  s.level = std::move(data.level);
  s.grid = data.grid;
  s.tiles = std::move(data.tiles);
  s.queued.assign(s.tiles.size(), false);
  s.retag();
  return cache;
}

NavMeshTileCache::~NavMeshTileCache() = default;
NavMeshTileCache::NavMeshTileCache(NavMeshTileCache&&) noexcept = default;
NavMeshTileCache& NavMeshTileCache::operator=(NavMeshTileCache&&) noexcept = default;

const AgentSettings& NavMeshTileCache::settings() const { return state_->settings; }
int NavMeshTileCache::tiles_x() const { return state_->grid.has_cells() ? state_->grid.tiles_x : 0; }
int NavMeshTileCache::tiles_z() const { return state_->grid.has_cells() ? state_->grid.tiles_z : 0; }

std::array<double, 4> NavMeshTileCache::tile_bounds(int tile_x, int tile_z) const {
  const State& s = *state_;
  const double width = s.settings.cell_size * s.grid.tile;
  return {s.level.bounds_min[0] + tile_x * width, s.level.bounds_min[2] + tile_z * width,
          s.level.bounds_min[0] + (tile_x + 1) * width, s.level.bounds_min[2] + (tile_z + 1) * width};
}

ObstacleId NavMeshTileCache::add_obstacle(const Obstacle& obstacle) {
  if (auto problem = obstacle_problem(obstacle)) throw std::invalid_argument("navmesh tile cache: " + *problem);
  State& s = *state_;
  const ObstacleId id = s.next_id++;
  s.obstacles.emplace(id, obstacle);
  s.queue_tiles(footprint_box(obstacle));
  return id;
}

void NavMeshTileCache::remove_obstacle(ObstacleId id) { state_->remove_shape(state_->obstacles, id, "obstacle"); }

std::size_t NavMeshTileCache::obstacle_count() const { return state_->obstacles.size(); }

AreaVolumeId NavMeshTileCache::add_area_volume(const AreaVolume& volume) {
  if (auto problem = area_volume_problem(volume)) throw std::invalid_argument("navmesh tile cache: " + *problem);
  State& s = *state_;
  const AreaVolumeId id = s.next_id++;
  s.volumes.emplace(id, volume);
  try {
    s.retag();
  } catch (...) {
    s.volumes.erase(id);
    s.retag();
    throw;
  }
  s.queue_tiles(footprint_box(volume));
  return id;
}

void NavMeshTileCache::remove_area_volume(AreaVolumeId id) {
  State& s = *state_;
  s.remove_shape(s.volumes, id, "area volume");
  s.retag();
}

std::vector<RebuiltTile> NavMeshTileCache::update(const TileUpdateBudget& budget) {
  State& s = *state_;
  // A worker's batch: handed out once finished (waited for when the worker is off now).
  std::vector<RebuiltTile> finished;
  if (s.batch) {
    if (s.use_worker && !s.batch->done.load(std::memory_order_acquire)) return finished;
    finished = s.collect_batch();
  }
  if (s.use_worker) {
    if (!s.queue.empty()) s.start_batch(budget);
    return finished;
  }
  std::vector<RebuiltTile> rebuilt = rebuild_queued(budget);
  if (finished.empty()) return rebuilt;
  finished.insert(finished.end(), std::make_move_iterator(rebuilt.begin()), std::make_move_iterator(rebuilt.end()));
  return finished;
}

void NavMeshTileCache::use_worker_thread(bool on) { state_->use_worker = on; }

bool NavMeshTileCache::uses_worker_thread() const { return state_->use_worker; }

void NavMeshTileCache::wait_for_worker() {
  if (state_->batch) state_->batch->thread.reset();
}

bool NavMeshTileCache::worker_busy() const {
  return state_->batch && !state_->batch->done.load(std::memory_order_acquire);
}

std::vector<RebuiltTile> NavMeshTileCache::rebuild_queued(const TileUpdateBudget& budget) {
  State& s = *state_;
  const auto started = std::chrono::steady_clock::now();
  std::vector<RebuiltTile> rebuilt;
  while (!s.queue.empty()) {
    if (!rebuilt.empty()) {
      if (rebuilt.size() >= budget.max_tiles) break;
      if (budget.max_time != std::chrono::microseconds::max() &&
          std::chrono::steady_clock::now() - started >= budget.max_time)
        break;
    }
    const std::size_t index = s.queue.front();
    const auto tiles_x = static_cast<std::size_t>(s.grid.tiles_x);
    try {
      rebuilt.push_back(s.rebuild(static_cast<int>(index % tiles_x), static_cast<int>(index / tiles_x), s.log));
    } catch (...) {
      // Recast failed (out of memory): the tiles this call rebuilt go back to the front of the
      // queue, so that nothing is lost, and the error goes to the caller.
      for (auto tile = rebuilt.rbegin(); tile != rebuilt.rend(); ++tile) {
        const std::size_t again = static_cast<std::size_t>(tile->tile_z) * tiles_x + static_cast<std::size_t>(tile->tile_x);
        s.queued[again] = true;
        s.queue.push_front(again);
      }
      throw;
    }
    s.queue.pop_front();
    s.queued[index] = false;
  }
  return rebuilt;
}

std::size_t NavMeshTileCache::pending_tiles() const {
  return state_->queue.size() + (state_->batch ? state_->batch->tiles.size() : 0);
}

RebuiltTile NavMeshTileCache::rebuild_tile(int tile_x, int tile_z) const {
  const State& s = *state_;
  if (tile_x < 0 || tile_z < 0 || tile_x >= tiles_x() || tile_z >= tiles_z())
    throw std::out_of_range("navmesh tile cache: tile (" + std::to_string(tile_x) + ", " + std::to_string(tile_z) +
                            ") is outside the " + std::to_string(tiles_x()) + " x " + std::to_string(tiles_z()) + " tiles");
  RecastLog log;
  return s.rebuild(tile_x, tile_z, log);
}

TileCacheMemory NavMeshTileCache::memory() const {
  TileCacheMemory memory;
  for (const auto& tile : state_->tiles) {
    if (!tile) continue;
    ++memory.tiles;
    memory.packed_bytes += tile->memory_bytes();
    memory.largest_tile_bytes = std::max(memory.largest_tile_bytes, tile->memory_bytes());
    memory.unpacked_bytes += tile->unpacked_bytes();
  }
  return memory;
}

std::size_t NavMeshTileCache::tile_bytes(int tile_x, int tile_z) const {
  const State& s = *state_;
  if (tile_x < 0 || tile_z < 0 || tile_x >= tiles_x() || tile_z >= tiles_z()) return 0;
  const auto& tile = s.tiles[static_cast<std::size_t>(tile_z) * static_cast<std::size_t>(s.grid.tiles_x) + static_cast<std::size_t>(tile_x)];
  return tile ? tile->memory_bytes() : 0;
}

std::vector<RebuiltTile> build_navmesh_tiles_with_obstacles(const MeshGeometry& level_geometry,
                                                            const AgentSettings& settings,
                                                            std::span<const Obstacle> obstacles,
                                                            std::span<const AreaVolume> volumes) {
  check_tiled(settings);
  std::vector<const Obstacle*> present;
  for (const Obstacle& obstacle : obstacles) {
    if (auto problem = obstacle_problem(obstacle)) throw std::invalid_argument("navmesh build: " + *problem);
    present.push_back(&obstacle);
  }
  std::vector<const AreaVolume*> live;
  for (const AreaVolume& volume : volumes) {
    if (auto problem = area_volume_problem(volume)) throw std::invalid_argument("navmesh build: " + *problem);
    live.push_back(&volume);
  }
  RecastLog log;
  const RecastLevel level = prepare_level(level_geometry, settings, log);
  const TileGrid grid = plan_tile_grid(level, settings);
  std::vector<TaggedVolume> tagged;
  const std::vector<AreaTag> tags = tag_volumes(level.tags, live, tagged);
  std::vector<RebuiltTile> tiles;
  if (!grid.has_cells()) return tiles;
  for (int tz = 0; tz < grid.tiles_z; ++tz)
    for (int tx = 0; tx < grid.tiles_x; ++tx) {
      const PieceBox box = piece_box(level, settings, grid, tx, tz);
      const RecastPointer<rcCompactHeightfield> compact = rasterize_piece(level, settings, box, log, no_progress);
      tiles.push_back(finish_tile(compact.get(), box, tx, tz, settings, level.bounds_min, tags, present, tagged,
                                  level_geometry.source, log));
    }
  return tiles;
}

}  // namespace wayfinder
