// Wayfinder's NavMeshTileCache against Detour's dtTileCache in one process, on RecastDemo's
// temporary-obstacle set-up: <data>/meshes/recastnavigation/dungeon.obj, tiles of 48 cells,
// RecastDemo's agent (AgentSettings' defaults: cell 0.3 x 0.2, radius 0.6, height 2, climb 0.9),
// cylinders of radius 1 and height 2 standing 0.5 below a point of the walkable ground (as
// RecastDemo's tool places them under the mouse).
//
// dtTileCache is set up as RecastDemo's Sample_TempObstacles does it: each tile rasterized,
// filtered and eroded (the same Recast stages as Wayfinder's, src/navmesh_build/recast_stages.hpp),
// cut into heightfield layers, each layer compressed and added; a dtNavMesh gets every tile. Its
// compressor is zlib at level 1 (RecastDemo's FastLZ is not in Debian), its allocator a bump
// allocator reset per tile (RecastDemo's LinearAllocator does the same), its mesh process flags
// every polygon walkable. The two pipelines differ after the kept data: dtTileCache marks
// obstacles on 2D layers and builds layer regions, contours and polygons without a detail mesh
// into a dtNavMesh (linked); Wayfinder unpacks the compact heightfield, marks, erodes by the
// radius, builds watershed regions, contours, polygons and the detail mesh into a MeshGeometry
// per tile (handing it to a NavMesh is not timed).
//
// Benchmarks (manual time, in the thread's processor time: only the add and the rebuild are
// timed; each iteration's obstacle is removed, and its tiles rebuilt, untimed):
//   tilecache_add_obstacle, wayfinder_add_obstacle: one obstacle added at the next of 64 seeded
//       ground points and every tile it touches rebuilt; counters: tiles (layers for
//       dtTileCache) rebuilt per obstacle, time per tile (layer), kept bytes per tile.
//   tilecache_rebuild_layer, wayfinder_rebuild_tile: every tile rebuilt once per iteration, no
//       obstacles; time per tile (layer) in processor time (the CPU column).
// Wayfinder's benchmarks take the region partition as their argument (AgentSettings::partition:
// 0 watershed, the one-shot build's default; 1 monotone; 2 layers, dtTileCache's kind).
//
//   build/release/bench/wayfinder_bench_tile_cache_comparison --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>
#include <recastnavigation/DetourCommon.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourTileCache.h>
#include <recastnavigation/DetourTileCacheBuilder.h>
#include <recastnavigation/Recast.h>
#include <zlib.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "detour_level.hpp"
#include "navmesh_build/recast_stages.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

constexpr int tile_size = 48;
constexpr float obstacle_radius = 1.0f;
constexpr float obstacle_height = 2.0f;
constexpr int obstacle_places = 64;
constexpr int expected_layers_per_tile = 4;  // RecastDemo's

AgentSettings temporary_obstacle_settings() {
  AgentSettings settings;
  settings.tile_size = tile_size;
  return settings;
}

// A bump allocator: dtTileCache resets it before each tile it builds.
struct BumpAllocator : dtTileCacheAlloc {
  std::vector<unsigned char> arena = std::vector<unsigned char>(4 << 20);
  std::size_t top = 0;
  void reset() override { top = 0; }
  void* alloc(const size_t size) override {
    const std::size_t start = (top + 15) & ~std::size_t{15};
    if (start + size > arena.size()) return nullptr;
    top = start + size;
    return arena.data() + start;
  }
  void free(void*) override {}
};

struct ZlibCompressor : dtTileCacheCompressor {
  int maxCompressedSize(const int buffer_size) override {
    return static_cast<int>(compressBound(static_cast<uLong>(buffer_size)));
  }
  dtStatus compress(const unsigned char* buffer, const int buffer_size, unsigned char* compressed,
                    const int max_compressed_size, int* compressed_size) override {
    uLongf size = static_cast<uLongf>(max_compressed_size);
    if (compress2(compressed, &size, buffer, static_cast<uLong>(buffer_size), 1) != Z_OK) return DT_FAILURE;
    *compressed_size = static_cast<int>(size);
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* compressed, const int compressed_size, unsigned char* buffer,
                      const int max_buffer_size, int* buffer_size) override {
    uLongf size = static_cast<uLongf>(max_buffer_size);
    if (uncompress(buffer, &size, compressed, static_cast<uLong>(compressed_size)) != Z_OK) return DT_FAILURE;
    *buffer_size = static_cast<int>(size);
    return DT_SUCCESS;
  }
};

struct FlagWalkable : dtTileCacheMeshProcess {
  void process(dtNavMeshCreateParams* params, unsigned char* areas, unsigned short* flags) override {
    for (int i = 0; i < params->polyCount; ++i) {
      if (areas[i] == DT_TILECACHE_WALKABLE_AREA) areas[i] = 0;
      flags[i] = bench::walkable_flag;
    }
  }
};

struct DetourSide {
  BumpAllocator allocator;
  ZlibCompressor compressor;
  FlagWalkable process;
  std::unique_ptr<dtTileCache, void (*)(dtTileCache*)> cache{dtAllocTileCache(), dtFreeTileCache};
  bench::DetourPointer<dtNavMesh> mesh{dtAllocNavMesh()};
  std::vector<dtCompressedTileRef> layers;
  std::size_t kept_bytes = 0;
  int tiles_with_layers = 0;
};

struct Setup {
  std::unique_ptr<DetourSide> detour = std::make_unique<DetourSide>();
  // One per RegionPartition, in its order: watershed (the one-shot build's default), monotone, layers.
  std::vector<std::unique_ptr<NavMeshTileCache>> wayfinder;
  std::vector<Point> places;  // obstacle bases
  int tiles = 0;
};

void check(dtStatus status, const char* what) {
  if (dtStatusFailed(status)) throw std::runtime_error(std::string("dtTileCache: ") + what + " failed");
}

void build_detour_side(DetourSide& side, const MeshGeometry& level_geometry, const AgentSettings& settings) {
  RecastLog log;
  const RecastLevel level = prepare_level(level_geometry, settings, log);
  const TileGrid grid = plan_tile_grid(level, settings);
  const VoxelSizes voxels = voxel_sizes(settings);
  dtTileCacheParams params{};
  std::copy(level.bounds_min, level.bounds_min + 3, params.orig);
  params.cs = static_cast<float>(settings.cell_size);
  params.ch = static_cast<float>(settings.cell_height);
  params.width = params.height = tile_size;
  bench::set_detour_agent(params, settings);
  params.maxSimplificationError = static_cast<float>(settings.edge_max_error);
  params.maxTiles = grid.tiles_x * grid.tiles_z * expected_layers_per_tile;
  params.maxObstacles = 128;
  check(side.cache->init(&params, &side.allocator, &side.compressor, &side.process), "init");

  const int tile_bits = std::min(static_cast<int>(dtIlog2(dtNextPow2(static_cast<unsigned>(params.maxTiles)))), 14);
  dtNavMeshParams mesh_params{};
  std::copy(level.bounds_min, level.bounds_min + 3, mesh_params.orig);
  mesh_params.tileWidth = mesh_params.tileHeight = static_cast<float>(tile_size * settings.cell_size);
  mesh_params.maxTiles = 1 << tile_bits;
  mesh_params.maxPolys = 1 << (22 - tile_bits);
  check(side.mesh->init(&mesh_params), "navmesh init");

  for (int tz = 0; tz < grid.tiles_z; ++tz)
    for (int tx = 0; tx < grid.tiles_x; ++tx) {
      const PieceBox box = piece_box(level, settings, grid, tx, tz);
      RecastPointer<rcCompactHeightfield> compact =
          rasterize_piece(level, settings, box, log, [](std::string_view, double) {});
      if (!compact) continue;
      erode_walkable_area(*compact, settings, log);
      std::unique_ptr<rcHeightfieldLayerSet, void (*)(rcHeightfieldLayerSet*)> layers(rcAllocHeightfieldLayerSet(),
                                                                                     rcFreeHeightfieldLayerSet);
      if (!rcBuildHeightfieldLayers(&log, *compact, box.border, voxels.walkable_height, *layers))
        throw std::runtime_error("rcBuildHeightfieldLayers failed");
      if (layers->nlayers > 0) ++side.tiles_with_layers;
      for (int i = 0; i < layers->nlayers; ++i) {
        const rcHeightfieldLayer& layer = layers->layers[i];
        dtTileCacheLayerHeader header{};
        header.magic = DT_TILECACHE_MAGIC;
        header.version = DT_TILECACHE_VERSION;
        header.tx = tx;
        header.ty = tz;
        header.tlayer = i;
        std::copy(layer.bmin, layer.bmin + 3, header.bmin);
        std::copy(layer.bmax, layer.bmax + 3, header.bmax);
        header.width = static_cast<unsigned char>(layer.width);
        header.height = static_cast<unsigned char>(layer.height);
        header.minx = static_cast<unsigned char>(layer.minx);
        header.maxx = static_cast<unsigned char>(layer.maxx);
        header.miny = static_cast<unsigned char>(layer.miny);
        header.maxy = static_cast<unsigned char>(layer.maxy);
        header.hmin = static_cast<unsigned short>(layer.hmin);
        header.hmax = static_cast<unsigned short>(layer.hmax);
        unsigned char* data = nullptr;
        int size = 0;
        check(dtBuildTileCacheLayer(&side.compressor, &header, layer.heights, layer.areas, layer.cons, &data, &size),
              "build layer");
        dtCompressedTileRef ref = 0;
        check(side.cache->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, &ref), "add tile");
        side.layers.push_back(ref);
        side.kept_bytes += static_cast<std::size_t>(size);
      }
    }
  for (int tz = 0; tz < grid.tiles_z; ++tz)
    for (int tx = 0; tx < grid.tiles_x; ++tx) check(side.cache->buildNavMeshTilesAt(tx, tz, side.mesh.get()), "build tiles");
}

// Obstacle bases: seeded points of the built mesh's polygons' centres, 0.5 below (RecastDemo's).
std::vector<Point> obstacle_places_on(const MeshGeometry& level, const AgentSettings& settings) {
  const MeshGeometry built = build_navmesh_geometry(level, settings);
  std::vector<Point> places;
  std::mt19937 random(48);
  for (int i = 0; i < obstacle_places; ++i) {
    const auto& polygon = built.polygons[std::uniform_int_distribution<std::size_t>(0, built.polygons.size() - 1)(random)];
    Point centre{0, 0, 0};
    for (const std::uint32_t v : polygon) {
      centre.x += built.vertices[v].x / static_cast<double>(polygon.size());
      centre.y += built.vertices[v].y / static_cast<double>(polygon.size());
      centre.z += built.vertices[v].z / static_cast<double>(polygon.size());
    }
    centre.y -= 0.5;
    places.push_back(centre);
  }
  return places;
}

Setup* setup_or_skip(benchmark::State& state) {
  static std::unique_ptr<Setup> setup;
  static std::string failure;
  if (!failure.empty()) {
    state.SkipWithError(failure.c_str());
    return nullptr;
  }
  if (!setup) {
    try {
      auto made = std::make_unique<Setup>();
      const MeshGeometry level = read_obj_mesh(data_dir() / "meshes" / "recastnavigation" / "dungeon.obj");
      const AgentSettings settings = temporary_obstacle_settings();
      build_detour_side(*made->detour, level, settings);
      for (const RegionPartition partition :
           {RegionPartition::watershed, RegionPartition::monotone, RegionPartition::layers}) {
        AgentSettings partitioned = settings;
        partitioned.partition = partition;
        made->wayfinder.push_back(std::make_unique<NavMeshTileCache>(level, partitioned));
      }
      made->tiles = made->wayfinder.front()->tiles_x() * made->wayfinder.front()->tiles_z();
      made->places = obstacle_places_on(level, settings);
      const TileCacheMemory memory = made->wayfinder.front()->memory();
      std::fprintf(stderr,
                   "dungeon, tiles of %d: %d tiles; dtTileCache keeps %zu layers in %d tiles, %zu bytes (%.0f per tile, "
                   "%.0f per layer); Wayfinder keeps %zu tiles, %zu bytes (%.0f per tile, largest %zu; unpacked %zu)\n",
                   tile_size, made->tiles, made->detour->layers.size(), made->detour->tiles_with_layers,
                   made->detour->kept_bytes,
                   static_cast<double>(made->detour->kept_bytes) / made->detour->tiles_with_layers,
                   static_cast<double>(made->detour->kept_bytes) / static_cast<double>(made->detour->layers.size()),
                   memory.tiles, memory.packed_bytes, static_cast<double>(memory.packed_bytes) / static_cast<double>(memory.tiles),
                   memory.largest_tile_bytes, memory.unpacked_bytes);
      setup = std::move(made);
    } catch (const std::exception& error) {
      failure = error.what();
      state.SkipWithError(failure.c_str());
      return nullptr;
    }
  }
  return setup.get();
}

// The machine is shared by other builds: the timed work is measured in this thread's processor
// time, which other processes' load does not add to.
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

void report_rebuilds(benchmark::State& state, double seconds, double tiles, double kept_bytes_per_tile,
                     const char* per_tile_name) {
  state.counters["tiles_per_obstacle"] = tiles / static_cast<double>(state.iterations());
  state.counters[per_tile_name] = benchmark::Counter(tiles > 0 ? seconds / tiles : 0.0);
  state.counters["bytes_per_tile"] = kept_bytes_per_tile;
}

void drain(DetourSide& side) {
  bool up_to_date = false;
  while (!up_to_date) check(side.cache->update(0.0f, side.mesh.get(), &up_to_date), "update");
}

void tilecache_add_obstacle(benchmark::State& state) {
  Setup* setup = setup_or_skip(state);
  if (setup == nullptr) return;
  DetourSide& side = *setup->detour;
  std::size_t next = 0;
  double seconds = 0.0, layers = 0.0;
  for (auto _ : state) {
    const Point& at = setup->places[next++ % setup->places.size()];
    const float base[3] = {static_cast<float>(at.x), static_cast<float>(at.y), static_cast<float>(at.z)};
    const double start = thread_seconds();
    dtObstacleRef ref = 0;
    check(side.cache->addObstacle(base, obstacle_radius, obstacle_height, &ref), "add obstacle");
    drain(side);
    const double elapsed = thread_seconds() - start;
    state.SetIterationTime(elapsed);
    seconds += elapsed;
    const float min[3] = {base[0] - obstacle_radius, base[1], base[2] - obstacle_radius};
    const float max[3] = {base[0] + obstacle_radius, base[1] + obstacle_height, base[2] + obstacle_radius};
    dtCompressedTileRef touched[32];
    int count = 0;
    check(side.cache->queryTiles(min, max, touched, &count, 32), "query tiles");
    layers += count;
    check(side.cache->removeObstacle(ref), "remove obstacle");
    drain(side);
  }
  report_rebuilds(state, seconds, layers, static_cast<double>(side.kept_bytes) / side.tiles_with_layers,
                  "seconds_per_layer");
}

void wayfinder_add_obstacle(benchmark::State& state) {
  Setup* setup = setup_or_skip(state);
  if (setup == nullptr) return;
  NavMeshTileCache& cache = *setup->wayfinder.at(static_cast<std::size_t>(state.range(0)));
  std::size_t next = 0;
  double seconds = 0.0, tiles = 0.0;
  for (auto _ : state) {
    const Point& at = setup->places[next++ % setup->places.size()];
    const double start = thread_seconds();
    const ObstacleId id = cache.add_obstacle(CylinderObstacle{at, obstacle_radius, obstacle_height});
    const std::vector<RebuiltTile> rebuilt = cache.update();
    const double elapsed = thread_seconds() - start;
    benchmark::DoNotOptimize(rebuilt.data());
    state.SetIterationTime(elapsed);
    seconds += elapsed;
    tiles += static_cast<double>(rebuilt.size());
    cache.remove_obstacle(id);
    benchmark::DoNotOptimize(cache.update());
  }
  const TileCacheMemory memory = cache.memory();
  report_rebuilds(state, seconds, tiles, static_cast<double>(memory.packed_bytes) / static_cast<double>(memory.tiles),
                  "seconds_per_tile");
}

void tilecache_rebuild_layer(benchmark::State& state) {
  Setup* setup = setup_or_skip(state);
  if (setup == nullptr) return;
  DetourSide& side = *setup->detour;
  for (auto _ : state)
    for (const dtCompressedTileRef ref : side.layers) check(side.cache->buildNavMeshTile(ref, side.mesh.get()), "rebuild");
  state.counters["seconds_per_layer"] = benchmark::Counter(
      static_cast<double>(side.layers.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void wayfinder_rebuild_tile(benchmark::State& state) {
  Setup* setup = setup_or_skip(state);
  if (setup == nullptr) return;
  const NavMeshTileCache& cache = *setup->wayfinder.at(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    for (int tz = 0; tz < cache.tiles_z(); ++tz)
      for (int tx = 0; tx < cache.tiles_x(); ++tx) benchmark::DoNotOptimize(cache.rebuild_tile(tx, tz));
  state.counters["seconds_per_tile"] = benchmark::Counter(
      static_cast<double>(setup->tiles), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(tilecache_add_obstacle)->UseManualTime()->Unit(benchmark::kMicrosecond);
// The argument is the RegionPartition: 0 watershed, 1 monotone, 2 layers.
BENCHMARK(wayfinder_add_obstacle)->UseManualTime()->Unit(benchmark::kMicrosecond)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(tilecache_rebuild_layer)->Unit(benchmark::kMicrosecond);
BENCHMARK(wayfinder_rebuild_tile)->Unit(benchmark::kMicrosecond)->Arg(0)->Arg(1)->Arg(2);

BENCHMARK_MAIN();
