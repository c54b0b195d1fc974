// A baked navmesh file against building the mesh from the level (docs/benchmarks.md, "Baked
// navmesh files"). The level is generated: a room map (tools/common/room_map_generator) of
// 160 x 160 cells, each 2 units wide, its passable cells a floor and its blocked cells boxes 3
// units tall; built with the default agent in tiles of 32 cells (9.6 units), over a thousand of
// them. Timed: the tiled Recast build (build_navmesh_geometry and NavMesh::build, what a game
// would do at load time without a baked file), writing the .wfnav file, reading it back from
// disk (read_navmesh_file: read, check, NavMesh::build, links placed), and the same from bytes
// in memory (parse_navmesh_file and NavMesh::build, without the disk).
//
//   build/release/bench/wayfinder_bench_navmesh_file --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "room_level.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace {

using namespace wayfinder;

constexpr int map_cells = 160;

// The level, its navmesh built once and its baked file's bytes, made on first use.
struct BakedLevel {
  MeshGeometry level = bench::room_level(map_cells);
  NavMeshBuildReport report;
  NavMesh mesh = NavMesh::build(build_navmesh_geometry(level, bench::tiled_agent(), &report));
  std::string bytes = navmesh_file_bytes(mesh);
};

const BakedLevel& baked_level() {
  static const BakedLevel baked;
  return baked;
}

void report_counters(benchmark::State& state, const BakedLevel& baked) {
  state.counters["tiles"] = static_cast<double>(baked.report.tiles);
  state.counters["polygons"] = static_cast<double>(baked.mesh.polygon_count());
  state.counters["file_kib"] = static_cast<double>(baked.bytes.size()) / 1024.0;
}

std::filesystem::path scratch_file() {
  return std::filesystem::temp_directory_path() / "wayfinder_bench_navmesh_file.wfnav";
}

void BM_BuildFromTheLevel(benchmark::State& state) {
  const BakedLevel& baked = baked_level();
  for (auto _ : state) {
    NavMesh mesh = NavMesh::build(build_navmesh_geometry(baked.level, bench::tiled_agent()));
    benchmark::DoNotOptimize(mesh);
  }
  report_counters(state, baked);
}
BENCHMARK(BM_BuildFromTheLevel)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_WriteTheFile(benchmark::State& state) {
  const BakedLevel& baked = baked_level();
  for (auto _ : state) write_navmesh_file(baked.mesh, scratch_file());
  report_counters(state, baked);
}
BENCHMARK(BM_WriteTheFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReadTheFile(benchmark::State& state) {
  const BakedLevel& baked = baked_level();
  write_navmesh_file(baked.mesh, scratch_file());
  for (auto _ : state) {
    NavMesh mesh = read_navmesh_file(scratch_file());
    benchmark::DoNotOptimize(mesh);
  }
  std::filesystem::remove(scratch_file());
  report_counters(state, baked);
}
BENCHMARK(BM_ReadTheFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ParseTheBytes(benchmark::State& state) {
  const BakedLevel& baked = baked_level();
  for (auto _ : state) {
    NavMesh mesh = NavMesh::build(parse_navmesh_file(baked.bytes, "<memory>"));
    benchmark::DoNotOptimize(mesh);
  }
  report_counters(state, baked);
}
BENCHMARK(BM_ParseTheBytes)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
