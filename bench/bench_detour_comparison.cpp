// Wayfinder against Detour in one process, on one and the same navigation mesh.
//
// For each RecastDemo level (<data>/meshes/recastnavigation/{nav_test,dungeon}.obj) Recast builds
// the polygon mesh and its detail mesh with RecastDemo's solo-mesh defaults (AgentSettings' own
// defaults, plus RecastDemo's detail sampling); Detour gets them as one tile (every polygon area
// 0, flagged walkable) and Wayfinder builds its NavMesh from wayfinder::build_navmesh_geometry on
// the same level. The set-up checks that the two hold the same polygons over the same vertices,
// bit for bit, so that both libraries answer the same question.
//
// Then every query of <data>/meshes/derived/<level>_reference_queries.csv runs:
//   Detour:    findNearestPoly(start), findNearestPoly(goal) (half extents 2, 4, 2, RecastDemo's),
//              findPath, and findStraightPath when findPath reached the goal's polygon;
//   Wayfinder: NavMeshQuery::find_path with default options (locates both ends, corridor search,
//              portals, funnel), into a result reused from query to query.
// An unreachable goal costs Detour its findPath (which explores everything it can reach) but no
// straight path, since Wayfinder returns no path there either.
//
// Benchmarks per level:
//   detour_find_path/<level>, wayfinder_find_path/<level>: every query once per iteration;
//       time_per_query.
//   wayfinder_over_detour/<level>: each iteration runs a Detour pass and a Wayfinder pass over
//       all queries, in turns (the order alternates), and reports both times per query and
//       their ratio, so that both are measured under the same load. It also reports what the
//       answers are (computed once, before timing): reachability agreement, and over the queries
//       both answer, each library's x-z length against the CSV's optimal_len2d (p99 and max).
//
//   build/dev/bench/wayfinder_bench_detour_comparison --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "detour_level.hpp"
#include "common/mesh_query_file.hpp"
#include "navmesh_build/recast_pointer.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

// RecastDemo's query limits: nodes of the search, polygons of a corridor, corners of a path.
constexpr int detour_max_nodes = 2048;
constexpr int detour_max_polygons = 256;
constexpr int detour_max_straight_points = 256;
// RecastDemo's findNearestPoly box: 2 across, 4 up and down (as NavMesh::default_height_tolerance).
constexpr std::array<float, 3> detour_half_extents{2.0f, 4.0f, 2.0f};
using bench::build_detour_mesh;
using bench::build_recast_meshes;
using bench::DetourPointer;
using bench::RecastMeshes;
using bench::require;
using bench::walkable_flag;

// True when the two lists go round the same polygon: one is the other, or the other reversed,
// started at any vertex. (Wayfinder keeps its polygons counter-clockwise with x to the right and
// z up; Detour's run the other way in that view.)
bool same_cycle(const std::vector<std::uint32_t>& a, std::vector<std::uint32_t> b) {
  if (a.size() != b.size()) return false;
  for (int direction = 0; direction < 2; ++direction) {
    for (std::size_t turn = 0; turn < b.size(); ++turn) {
      if (a == b) return true;
      std::rotate(b.begin(), b.begin() + 1, b.end());
    }
    std::reverse(b.begin(), b.end());
  }
  return false;
}

// Why the two meshes differ, or an empty string: the same polygons in the same order, each round
// the same vertex indices, over the same vertices (Wayfinder's doubles are exactly Detour's floats).
std::string mesh_difference(const dtNavMesh& detour, const NavMesh& wayfinder) {
  const dtMeshTile* tile = detour.getTile(0);
  if (tile == nullptr || tile->header == nullptr) return "Detour has no tile";
  const dtMeshHeader& header = *tile->header;
  if (static_cast<std::size_t>(header.polyCount) != wayfinder.polygon_count())
    return "polygons: Detour " + std::to_string(header.polyCount) + ", Wayfinder " +
           std::to_string(wayfinder.polygon_count());
  if (static_cast<std::size_t>(header.vertCount) != wayfinder.vertex_count())
    return "vertices: Detour " + std::to_string(header.vertCount) + ", Wayfinder " +
           std::to_string(wayfinder.vertex_count());
  for (int i = 0; i < header.vertCount; ++i) {
    const float* v = &tile->verts[i * 3];
    const Point& w = wayfinder.vertex(static_cast<std::uint32_t>(i));
    if (static_cast<double>(v[0]) != w.x || static_cast<double>(v[1]) != w.y || static_cast<double>(v[2]) != w.z)
      return "vertex " + std::to_string(i) + " differs";
  }
  for (int p = 0; p < header.polyCount; ++p) {
    const dtPoly& poly = tile->polys[p];
    const auto polygon = static_cast<PolygonId>(p);
    if (wayfinder.source_polygon(polygon) != polygon)
      return "Wayfinder's polygon " + std::to_string(p) + " was repaired";
    const std::vector<std::uint32_t> ours(wayfinder.polygon_vertices(polygon).begin(),
                                          wayfinder.polygon_vertices(polygon).end());
    const std::vector<std::uint32_t> theirs(poly.verts, poly.verts + poly.vertCount);
    if (!same_cycle(ours, theirs)) return "polygon " + std::to_string(p) + " has other vertices";
  }
  return {};
}

// Detour's query with its scratch buffers, reused from query to query as a game would.
class DetourQuery {
 public:
  explicit DetourQuery(const dtNavMesh& mesh) : query_(dtAllocNavMeshQuery()) {
    require(query_ && !dtStatusFailed(query_->init(&mesh, detour_max_nodes)), "initialise the query");
    filter_.setIncludeFlags(walkable_flag);
  }

  // The whole query: both ends located, the corridor, the straight path. True when the path
  // reaches the goal; the corners are then straight_points().
  bool find_path(const Point& start, const Point& goal) {
    corner_count_ = 0;
    const float start_point[3] = {static_cast<float>(start.x), static_cast<float>(start.y),
                                  static_cast<float>(start.z)};
    const float goal_point[3] = {static_cast<float>(goal.x), static_cast<float>(goal.y), static_cast<float>(goal.z)};
    dtPolyRef start_polygon = 0, goal_polygon = 0;
    float start_on_mesh[3], goal_on_mesh[3];
    query_->findNearestPoly(start_point, detour_half_extents.data(), &filter_, &start_polygon, start_on_mesh);
    query_->findNearestPoly(goal_point, detour_half_extents.data(), &filter_, &goal_polygon, goal_on_mesh);
    if (start_polygon == 0 || goal_polygon == 0) return false;
    int corridor_length = 0;
    query_->findPath(start_polygon, goal_polygon, start_on_mesh, goal_on_mesh, &filter_, corridor_.data(),
                     &corridor_length, detour_max_polygons);
    if (corridor_length == 0 || corridor_[static_cast<std::size_t>(corridor_length - 1)] != goal_polygon) return false;
    query_->findStraightPath(start_on_mesh, goal_on_mesh, corridor_.data(), corridor_length, corners_.data(),
                             corner_flags_.data(), corner_polygons_.data(), &corner_count_, detour_max_straight_points);
    return corner_count_ > 0;
  }

  [[nodiscard]] int corner_count() const { return corner_count_; }

  [[nodiscard]] double length_xz() const {
    double length = 0.0;
    for (int i = 1; i < corner_count_; ++i) {
      const float* a = &corners_[static_cast<std::size_t>(i - 1) * 3];
      const float* b = &corners_[static_cast<std::size_t>(i) * 3];
      length += std::hypot(static_cast<double>(b[0] - a[0]), static_cast<double>(b[2] - a[2]));
    }
    return length;
  }

 private:
  DetourPointer<dtNavMeshQuery> query_;
  dtQueryFilter filter_;
  std::array<dtPolyRef, detour_max_polygons> corridor_{};
  std::array<float, detour_max_straight_points * 3> corners_{};
  std::array<unsigned char, detour_max_straight_points> corner_flags_{};
  std::array<dtPolyRef, detour_max_straight_points> corner_polygons_{};
  int corner_count_ = 0;
};

// Shorter than the CSV's optimum by more than its rounding (6 decimals) and 1e-6 relative.
bool shorter_than(double length, double optimum) {
  return std::isfinite(optimum) && length < optimum * (1.0 - 1e-6) - 5e-7;
}

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// What the two libraries answer, query by query, before any timing.
struct Answers {
  std::size_t queries = 0;
  std::size_t detour_found = 0;
  std::size_t wayfinder_found = 0;
  std::size_t reachability_agreements = 0;  ///< both found, or neither
  std::size_t detour_agrees_with_file = 0;  ///< Detour's reachability is the CSV's
  std::size_t wayfinder_agrees_with_file = 0;
  std::size_t both_found = 0;
  std::size_t wayfinder_longer = 0;  ///< both found, Wayfinder's longer by over 1e-6 relative
  std::size_t detour_longer = 0;
  /// Both found, shorter than the CSV's optimum (rounded to 6 decimals): possible only where the
  /// mesh built here is not the one the optimum was computed on (nav_test, see SOURCES.md).
  std::size_t detour_below_file_optimum = 0;
  std::size_t wayfinder_below_file_optimum = 0;
  std::vector<double> detour_ratios;  ///< length / optimal_len2d, both found
  std::vector<double> wayfinder_ratios;
};

struct Comparison {
  std::string level;
  std::vector<MeshQueryCase> queries;
  DetourPointer<dtNavMesh> detour_mesh;
  std::unique_ptr<NavMesh> wayfinder_mesh;
  Answers answers;          ///< Wayfinder's default corridors (edge points)
  Answers optimal_answers;  ///< Wayfinder's exact paths (CorridorNodes::optimal)
  [[nodiscard]] const Answers& answers_for(CorridorNodes nodes) const {
    return nodes == CorridorNodes::optimal ? optimal_answers : answers;
  }
};

NavMeshSearchOptions search_options(CorridorNodes nodes) {
  NavMeshSearchOptions options;
  options.nodes = nodes;
  return options;
}

Answers compare_answers(const Comparison& comparison, CorridorNodes nodes) {
  DetourQuery detour(*comparison.detour_mesh);
  NavMeshQuery wayfinder(*comparison.wayfinder_mesh);
  Answers answers;
  PathResult result;
  for (const MeshQueryCase& q : comparison.queries) {
    ++answers.queries;
    const bool detour_found = detour.find_path(q.start, q.goal);
    wayfinder.find_path(q.start, q.goal, search_options(nodes), result);
    const bool wayfinder_found = result.found();
    answers.detour_found += detour_found ? 1 : 0;
    answers.wayfinder_found += wayfinder_found ? 1 : 0;
    answers.reachability_agreements += detour_found == wayfinder_found ? 1 : 0;
    if (q.reachable.has_value()) {
      answers.detour_agrees_with_file += detour_found == *q.reachable ? 1 : 0;
      answers.wayfinder_agrees_with_file += wayfinder_found == *q.reachable ? 1 : 0;
    }
    if (!detour_found || !wayfinder_found) continue;
    ++answers.both_found;
    const double detour_length = detour.length_xz();
    const double wayfinder_length = geometry::polyline_length_xz(result.points);
    answers.wayfinder_longer += wayfinder_length > detour_length * (1.0 + 1e-6) ? 1 : 0;
    answers.detour_longer += detour_length > wayfinder_length * (1.0 + 1e-6) ? 1 : 0;
    answers.wayfinder_below_file_optimum += shorter_than(wayfinder_length, q.optimal_length) ? 1 : 0;
    answers.detour_below_file_optimum += shorter_than(detour_length, q.optimal_length) ? 1 : 0;
    if (std::isfinite(q.optimal_length) && q.optimal_length > 0.0) {
      answers.detour_ratios.push_back(detour_length / q.optimal_length);
      answers.wayfinder_ratios.push_back(wayfinder_length / q.optimal_length);
    }
  }
  return answers;
}

std::unique_ptr<Comparison> prepare(const std::string& level) {
  auto comparison = std::make_unique<Comparison>();
  comparison->level = level;
  const MeshGeometry geometry = read_obj_mesh(data_dir() / "meshes" / "recastnavigation" / (level + ".obj"));
  comparison->queries = read_mesh_queries(data_dir() / "meshes" / "derived" / (level + "_reference_queries.csv"));
  RecastMeshes recast = build_recast_meshes(geometry);
  comparison->detour_mesh = build_detour_mesh(*recast.polygons, *recast.detail);
  comparison->wayfinder_mesh = std::make_unique<NavMesh>(NavMesh::build(build_navmesh_geometry(geometry)));
  if (const std::string difference = mesh_difference(*comparison->detour_mesh, *comparison->wayfinder_mesh);
      !difference.empty())
    throw std::runtime_error(level + ": Detour's and Wayfinder's meshes differ: " + difference);
  comparison->answers = compare_answers(*comparison, CorridorNodes::edge_points);
  comparison->optimal_answers = compare_answers(*comparison, CorridorNodes::optimal);
  const Answers& a = comparison->answers;
  std::fprintf(stderr,
               "%s: %zu polygons, %zu vertices (the same in both); %zu queries: found by Detour %zu, by Wayfinder %zu, "
               "reachability agrees on %zu; with the CSV: Detour %zu, Wayfinder %zu; both found %zu, Wayfinder longer "
               "on %zu, Detour longer on %zu; shorter than the CSV's optimum: Detour %zu, Wayfinder %zu\n",
               level.c_str(), comparison->wayfinder_mesh->polygon_count(), comparison->wayfinder_mesh->vertex_count(),
               a.queries, a.detour_found, a.wayfinder_found, a.reachability_agreements, a.detour_agrees_with_file,
               a.wayfinder_agrees_with_file, a.both_found, a.wayfinder_longer, a.detour_longer,
               a.detour_below_file_optimum, a.wayfinder_below_file_optimum);
  return comparison;
}

// Each level is built and compared once per process, however often Google Benchmark calls.
const Comparison* comparison_or_skip(benchmark::State& state, const std::string& level) {
  static std::map<std::string, std::unique_ptr<Comparison>> prepared;
  static std::map<std::string, std::string> failures;
  if (const auto failure = failures.find(level); failure != failures.end()) {
    state.SkipWithError(failure->second.c_str());
    return nullptr;
  }
  auto& slot = prepared[level];
  if (!slot) {
    try {
      slot = prepare(level);
    } catch (const std::exception& error) {
      failures[level] = error.what();
      state.SkipWithError(error.what());
      return nullptr;
    }
  }
  return slot.get();
}

std::size_t detour_pass(DetourQuery& detour, const std::vector<MeshQueryCase>& queries) {
  std::size_t corners = 0;
  for (const MeshQueryCase& q : queries) {
    detour.find_path(q.start, q.goal);
    corners += static_cast<std::size_t>(detour.corner_count());
  }
  return corners;
}

std::size_t wayfinder_pass(NavMeshQuery& wayfinder, PathResult& result, const std::vector<MeshQueryCase>& queries,
                           CorridorNodes nodes) {
  const NavMeshSearchOptions options = search_options(nodes);
  std::size_t corners = 0;
  for (const MeshQueryCase& q : queries) {
    wayfinder.find_path(q.start, q.goal, options, result);
    corners += result.points.size();
  }
  return corners;
}

// Time per query (printed with an SI prefix, 2.7u = 2.7 µs); Detour counts no expansions, so
// bench::report_queries' other counters are left out.
void report_time_per_query(benchmark::State& state, std::size_t query_count) {
  state.counters["time_per_query"] = benchmark::Counter(
      static_cast<double>(query_count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void detour_find_path(benchmark::State& state, const std::string& level) {
  const Comparison* comparison = comparison_or_skip(state, level);
  if (comparison == nullptr) return;
  DetourQuery query(*comparison->detour_mesh);
  for (auto _ : state) benchmark::DoNotOptimize(detour_pass(query, comparison->queries));
  report_time_per_query(state, comparison->queries.size());
}

void wayfinder_find_path(benchmark::State& state, const std::string& level, CorridorNodes nodes) {
  const Comparison* comparison = comparison_or_skip(state, level);
  if (comparison == nullptr) return;
  NavMeshQuery query(*comparison->wayfinder_mesh);
  PathResult result;
  for (auto _ : state) benchmark::DoNotOptimize(wayfinder_pass(query, result, comparison->queries, nodes));
  report_time_per_query(state, comparison->queries.size());
}

void wayfinder_over_detour(benchmark::State& state, const std::string& level, CorridorNodes nodes) {
  using Clock = std::chrono::steady_clock;
  const Comparison* comparison = comparison_or_skip(state, level);
  if (comparison == nullptr) return;
  DetourQuery detour(*comparison->detour_mesh);
  NavMeshQuery wayfinder(*comparison->wayfinder_mesh);
  PathResult result;
  std::chrono::duration<double, std::micro> detour_time{0}, wayfinder_time{0};
  bool detour_first = true;
  // Alternating which library goes first keeps either from always running on the caches and
  // clock speed the other left behind.
  for (auto _ : state) {
    for (int turn = 0; turn < 2; ++turn) {
      const auto started = Clock::now();
      if ((turn == 0) == detour_first) {
        benchmark::DoNotOptimize(detour_pass(detour, comparison->queries));
        detour_time += Clock::now() - started;
      } else {
        benchmark::DoNotOptimize(wayfinder_pass(wayfinder, result, comparison->queries, nodes));
        wayfinder_time += Clock::now() - started;
      }
    }
    detour_first = !detour_first;
  }
  const double queries = static_cast<double>(comparison->queries.size()) * static_cast<double>(state.iterations());
  state.counters["detour_us"] = detour_time.count() / queries;
  state.counters["wayfinder_us"] = wayfinder_time.count() / queries;
  state.counters["ratio"] = wayfinder_time.count() / detour_time.count();

  const Answers& a = comparison->answers_for(nodes);
  state.counters["reach_agree"] = static_cast<double>(a.reachability_agreements);
  state.counters["both_found"] = static_cast<double>(a.both_found);
  state.counters["detour_p99"] = percentile(a.detour_ratios, 0.99);
  state.counters["wayfinder_p99"] = percentile(a.wayfinder_ratios, 0.99);
  state.counters["detour_max"] = percentile(a.detour_ratios, 1.0);
  state.counters["wayfinder_max"] = percentile(a.wayfinder_ratios, 1.0);
}

// Wayfinder's default corridors (edge points, approximate like Detour's) and its exact paths.
constexpr CorridorNodes edge_points = CorridorNodes::edge_points;
constexpr CorridorNodes optimal = CorridorNodes::optimal;
BENCHMARK_CAPTURE(detour_find_path, nav_test, std::string("nav_test"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_find_path, nav_test, std::string("nav_test"), edge_points)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_find_path, nav_test_optimal, std::string("nav_test"), optimal)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_over_detour, nav_test, std::string("nav_test"), edge_points)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_over_detour, nav_test_optimal, std::string("nav_test"), optimal)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(detour_find_path, dungeon, std::string("dungeon"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_find_path, dungeon, std::string("dungeon"), edge_points)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_find_path, dungeon_optimal, std::string("dungeon"), optimal)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_over_detour, dungeon, std::string("dungeon"), edge_points)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(wayfinder_over_detour, dungeon_optimal, std::string("dungeon"), optimal)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
