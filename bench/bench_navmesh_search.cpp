// Navigation-mesh query benchmarks on the reference query sets in ../shared/data/meshes/derived.
// Each iteration runs every query of a set; time_per_query is the mean time per query. The
// whole query (locate start and goal, corridor search, portals and funnel) is timed, and each
// piece on its own; the centroid corridor search runs beside the default edge-point search on
// the same queries as a baseline. The character-controller queries (surface_queries.hpp) run
// from the same start points: a raycast to the goal, a move of up to 3 units towards it, the
// distance to the nearest wall within 5 units, a random point within 5 units, and a random
// point anywhere (from the mesh, and from a RandomPointSampler).
//
//   build/release/bench/wayfinder_bench_navmesh --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "wayfinder/navmesh/funnel.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/surface_queries.hpp"

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

enum class SurfaceQuery { raycast, move_along_surface, distance_to_wall, random_point_around, random_point, sampler };

// One character-controller query from every reference query's start (the located ones).
void surface_query(benchmark::State& state, const std::string& name, SurfaceQuery kind) {
  const auto loaded = load_or_skip(state, name);
  if (!loaded) return;
  const NavMesh& mesh = loaded->mesh;
  std::vector<std::pair<MeshLocation, Point>> cases;
  for (const MeshQueryCase& q : loaded->queries)
    if (const MeshLocation start = mesh.locate(q.start); start.valid()) cases.emplace_back(start, q.goal);
  std::mt19937_64 random(1);
  const RandomPointSampler sampler(mesh);
  for (auto _ : state) {
    for (const auto& [start, goal] : cases) {
      switch (kind) {
        case SurfaceQuery::raycast:
          benchmark::DoNotOptimize(raycast(mesh, start, goal).t);
          break;
        case SurfaceQuery::move_along_surface: {
          const double dx = goal.x - start.point.x, dz = goal.z - start.point.z;
          const double scale = std::min(1.0, 3.0 / std::max(std::hypot(dx, dz), 1e-9));
          const Point target{start.point.x + scale * dx, start.point.y, start.point.z + scale * dz};
          benchmark::DoNotOptimize(move_along_surface(mesh, start, target).point);
          break;
        }
        case SurfaceQuery::distance_to_wall:
          benchmark::DoNotOptimize(distance_to_wall(mesh, start, 5.0).distance);
          break;
        case SurfaceQuery::random_point_around:
          benchmark::DoNotOptimize(random_point_around(mesh, start, 5.0, random).point);
          break;
        case SurfaceQuery::random_point:
          benchmark::DoNotOptimize(random_point(mesh, random).point);
          break;
        case SurfaceQuery::sampler:
          benchmark::DoNotOptimize(sampler(random).point);
          break;
      }
    }
  }
  bench::report_queries(state, cases.size(), 0.0);
}

BENCHMARK_CAPTURE(surface_query, nav_test_raycast, std::string("nav_test"), SurfaceQuery::raycast)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, nav_test_move_along_surface, std::string("nav_test"), SurfaceQuery::move_along_surface)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, nav_test_distance_to_wall, std::string("nav_test"), SurfaceQuery::distance_to_wall)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, nav_test_random_point_around, std::string("nav_test"), SurfaceQuery::random_point_around)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, nav_test_random_point, std::string("nav_test"), SurfaceQuery::random_point)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, nav_test_random_point_sampler, std::string("nav_test"), SurfaceQuery::sampler)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, dungeon_raycast, std::string("dungeon"), SurfaceQuery::raycast)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, dungeon_move_along_surface, std::string("dungeon"), SurfaceQuery::move_along_surface)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, dungeon_distance_to_wall, std::string("dungeon"), SurfaceQuery::distance_to_wall)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, dungeon_random_point_around, std::string("dungeon"), SurfaceQuery::random_point_around)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(surface_query, dungeon_random_point, std::string("dungeon"), SurfaceQuery::random_point)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(surface_query, dungeon_random_point_sampler, std::string("dungeon"), SurfaceQuery::sampler)
    ->Unit(benchmark::kMillisecond);

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
