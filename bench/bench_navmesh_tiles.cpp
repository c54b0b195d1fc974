// Replacing one tile of a tiled navmesh against building the whole mesh (docs/benchmarks.md,
// "Tiles that change"). The level is generated (bench/room_level.hpp): a room map of 96 x 96
// cells, each 2 units wide, built by Recast with the default agent in tiles of 32 cells (9.6
// units): 20 x 20 = 400 tiles. Recast runs once, outside the timings. Timed: NavMesh::replace_tile
// of one tile in the middle (with its own geometry again, as a rebuilt tile with nothing
// changed), NavMesh::build_tiled of every tile, and NavMesh::build of the stitched geometry of
// the same build (today's one-piece mesh). BM_ReplaceOneTileByLevelSize replaces the middle tile
// of levels of 10 x 10, 20 x 20 and 40 x 40 tiles of the same content (generated here, without
// Recast: 8 x 8 squares, 12 units wide, with a pillar of 2 x 2 squares in the middle), to show
// how the cost of one change grows with the level.
//
//   build/release/bench/wayfinder_bench_navmesh_tiles --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

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

// One tile of the size series: 8 x 8 squares over the tile's square, less the 2 x 2 in the
// middle (a pillar, so the tile has walls and reflex corners inside as well as open borders).
MeshGeometry pillar_tile(int tile_x, int tile_z) {
  constexpr int squares = 8;
  constexpr double width = 12.0, step = width / squares;
  MeshGeometry tile;
  tile.source = "pillar tile";
  for (int j = 0; j <= squares; ++j)
    for (int i = 0; i <= squares; ++i) tile.vertices.push_back({tile_x * width + i * step, 0.0, tile_z * width + j * step});
  auto corner = [&](int i, int j) { return static_cast<std::uint32_t>(j * (squares + 1) + i); };
  for (int j = 0; j < squares; ++j)
    for (int i = 0; i < squares; ++i) {
      if ((i == 3 || i == 4) && (j == 3 || j == 4)) continue;
      tile.polygons.push_back({corner(i, j), corner(i, j + 1), corner(i + 1, j + 1), corner(i + 1, j)});
    }
  return tile;
}

void BM_ReplaceOneTileByLevelSize(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  NavMeshTileGrid grid;
  grid.tile_width = 12.0;
  grid.tiles_x = grid.tiles_z = side;
  grid.max_polygons_per_tile = 64;
  std::vector<NavMeshTile> tiles;
  for (int z = 0; z < side; ++z)
    for (int x = 0; x < side; ++x) tiles.push_back({x, z, pillar_tile(x, z)});
  NavMesh mesh = NavMesh::build_tiled(grid, tiles);
  const NavMeshTile& middle = tiles[static_cast<std::size_t>(side / 2 * side + side / 2)];
  for (auto _ : state) {
    mesh.replace_tile(middle);
    benchmark::DoNotOptimize(mesh);
  }
  state.counters["tiles"] = static_cast<double>(side * side);
  state.counters["polygons"] = static_cast<double>(side * side * 60);
}
BENCHMARK(BM_ReplaceOneTileByLevelSize)->Arg(10)->Arg(20)->Arg(40)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
