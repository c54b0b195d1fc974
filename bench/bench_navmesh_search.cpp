// Navigation-mesh query benchmarks on the reference query sets in ../shared/data/meshes/derived.
// Each iteration runs every query of a set; time_per_query is the mean time per query. The
// whole query (locate start and goal, corridor search, portals and funnel) is timed, and each
// piece on its own; the centroid corridor search runs beside the default edge-point search on
// the same queries as a baseline.
//
//   build/release/bench/wayfinder_bench_navmesh --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "wayfinder/navmesh/funnel.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

struct LoadedQueries {
  NavMesh mesh;
  std::vector<MeshQueryCase> queries;
};

// The mesh and its queries, or null after marking the benchmark skipped with the loader's error.
std::unique_ptr<LoadedQueries> load_or_skip(benchmark::State& state, const std::string& name) {
  try {
    const auto folder = data_dir() / "meshes" / "derived";
    return std::make_unique<LoadedQueries>(LoadedQueries{NavMesh::build(read_obj_mesh(folder / (name + "_navmesh.obj"))),
                                                         read_mesh_queries(folder / (name + "_reference_queries.csv"))});
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return nullptr;
  }
}

// The whole query, as a game calls it.
void whole_query(benchmark::State& state, const std::string& name, CorridorNodes nodes) {
  const auto loaded = load_or_skip(state, name);
  if (!loaded) return;
  NavMeshQuery query(loaded->mesh);
  NavMeshSearchOptions options;
  options.nodes = nodes;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const MeshQueryCase& q : loaded->queries) {
      const PathResult result = query.find_path(q.start, q.goal, options);
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, loaded->queries.size(), expanded);
}

// Locating the two end points.
void locate_only(benchmark::State& state, const std::string& name) {
  const auto loaded = load_or_skip(state, name);
  if (!loaded) return;
  for (auto _ : state) {
    for (const MeshQueryCase& q : loaded->queries) {
      benchmark::DoNotOptimize(loaded->mesh.locate(q.start).polygon);
      benchmark::DoNotOptimize(loaded->mesh.locate(q.goal).polygon);
    }
  }
  bench::report_queries(state, loaded->queries.size(), 0.0);
}

// The corridor search and the funnel, from end points located beforehand.
void search_and_funnel(benchmark::State& state, const std::string& name) {
  const auto loaded = load_or_skip(state, name);
  if (!loaded) return;
  std::vector<std::pair<MeshLocation, MeshLocation>> located;
  for (const MeshQueryCase& q : loaded->queries) located.emplace_back(loaded->mesh.locate(q.start), loaded->mesh.locate(q.goal));
  NavMeshQuery query(loaded->mesh);
  std::vector<Portal> portals;
  std::vector<Point> waypoints;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const auto& [start, goal] : located) {
      const PathResult corridor = query.find_corridor(start, goal);
      expanded += static_cast<double>(corridor.stats.expanded);
      if (!corridor.found()) continue;
      corridor_portals(loaded->mesh, corridor.nodes, portals);
      funnel_path(start.point, goal.point, portals, waypoints);
      benchmark::DoNotOptimize(waypoints.data());
    }
  }
  bench::report_queries(state, loaded->queries.size(), expanded);
}

BENCHMARK_CAPTURE(whole_query, nav_test_edge_points, std::string("nav_test"), CorridorNodes::edge_points)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(whole_query, nav_test_centroids, std::string("nav_test"), CorridorNodes::polygon_centroids)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(locate_only, nav_test, std::string("nav_test"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(search_and_funnel, nav_test, std::string("nav_test"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(whole_query, dungeon_edge_points, std::string("dungeon"), CorridorNodes::edge_points)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(whole_query, dungeon_centroids, std::string("dungeon"), CorridorNodes::polygon_centroids)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(locate_only, dungeon, std::string("dungeon"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(search_and_funnel, dungeon, std::string("dungeon"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
