// Replacing one tile of a tiled navmesh against building the whole mesh (docs/benchmarks.md,
// "Tiles that change"). The level is generated (bench/room_level.hpp): a room map of 96 x 96
// cells, each 2 units wide, built by Recast with the default agent in tiles of 32 cells (9.6
// units): 20 x 20 = 400 tiles. Recast runs once, outside the timings. Timed: NavMesh::replace_tile
// of one tile in the middle (with its own geometry again, as a rebuilt tile with nothing
// changed), NavMesh::build_tiled of every tile, and NavMesh::build of the stitched geometry of
// the same build (today's one-piece mesh).
//
//   build/release/bench/wayfinder_bench_navmesh_tiles --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "room_level.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace {

using namespace wayfinder;

constexpr int map_cells = 96;

// The level's tiles and its stitched geometry, built once on first use.
struct TiledLevel {
  MeshGeometry level = bench::room_level(map_cells);
  NavMeshTileSet tiles = build_navmesh_tiles(level, bench::tiled_agent());
  MeshGeometry stitched = build_navmesh_geometry(level, bench::tiled_agent());
};

const TiledLevel& tiled_level() {
  static const TiledLevel level;
  return level;
}

void report_counters(benchmark::State& state, const TiledLevel& level) {
  state.counters["tiles"] = static_cast<double>(level.tiles.grid.tiles_x * level.tiles.grid.tiles_z);
  state.counters["tiles_with_polygons"] = static_cast<double>(level.tiles.tiles.size());
  state.counters["polygons"] = static_cast<double>(level.stitched.polygons.size());
}

void BM_ReplaceOneTile(benchmark::State& state) {
  const TiledLevel& level = tiled_level();
  NavMesh mesh = NavMesh::build_tiled(level.tiles.grid, level.tiles.tiles);
  const NavMeshTile& middle = level.tiles.tiles[level.tiles.tiles.size() / 2];
  for (auto _ : state) {
    mesh.replace_tile(middle);
    benchmark::DoNotOptimize(mesh);
  }
  report_counters(state, level);
}
BENCHMARK(BM_ReplaceOneTile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BuildTiledMesh(benchmark::State& state) {
  const TiledLevel& level = tiled_level();
  for (auto _ : state) {
    NavMesh mesh = NavMesh::build_tiled(level.tiles.grid, level.tiles.tiles);
    benchmark::DoNotOptimize(mesh);
  }
  report_counters(state, level);
}
BENCHMARK(BM_BuildTiledMesh)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BuildStitchedMesh(benchmark::State& state) {
  const TiledLevel& level = tiled_level();
  for (auto _ : state) {
    NavMesh mesh = NavMesh::build(level.stitched);
    benchmark::DoNotOptimize(mesh);
  }
  report_counters(state, level);
}
BENCHMARK(BM_BuildStitchedMesh)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
