// Worlds are shared, query objects are not (DESIGN.md: "A world is safe to share between
// threads; each thread has its own SearchContext"). Here several threads query ONE GridMap,
// NavMesh, VoxelWorld and GridFlowField at once, each with its own GridQuery, NavMeshQuery
// or VoxelQuery, and every answer must equal, bit for bit, the answer computed on one
// thread beforehand: status, cost, nodes (and points, expansions). Run under the tsan preset,
// ThreadSanitizer also reports any data race on the shared worlds (halt_on_error makes that a
// failure).
//
// The worlds are small generated ones plus, when the shared data folder is there, a MovingAI
// map, a navigation mesh with its reference queries and a MovingAI voxel map. Threads walk the
// same queries in different orders, and half of them step their searches a few expansions at a
// time, so that their work interleaves.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "grid_test_support.hpp"
#include "query_test_support.hpp"
#include "wayfinder/core/path_batch.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

constexpr int thread_count = 4;

/// Runs `work(thread_index)` on thread_count threads at once, released together, and returns
/// what each reported (an empty string when all its answers matched).
std::vector<std::string> run_on_threads(const std::function<std::string(int)>& work) {
  std::vector<std::string> reports(thread_count);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      // Start together, so that the threads really overlap rather than run one after another.
      ready.fetch_add(1);
      while (ready.load() < thread_count) std::this_thread::yield();
      reports[static_cast<std::size_t>(t)] = work(t);
    });
  }
  for (std::thread& thread : threads) thread.join();
  return reports;
}

void expect_all_matched(const std::vector<std::string>& reports) {
  for (std::size_t t = 0; t < reports.size(); ++t) EXPECT_EQ(reports[t], "") << "thread " << t;
}

/// The order in which thread `t` walks `count` queries: rotated and, for odd threads, reversed.
std::vector<std::size_t> visiting_order(std::size_t count, int t) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = (i + static_cast<std::size_t>(t) * count / thread_count) % count;
  if (t % 2 == 1) std::reverse(order.begin(), order.end());
  return order;
}

/// solve_batch on 1, 2 and 4 threads, and solve_range driven by two plain std::threads as a
/// game's job system would, must give the one-thread answers bit for bit.
template <class World, class Request>
std::string batch_difference(const World& world, const std::vector<Request>& requests,
                             const std::vector<PathResult>& expected) {
  const std::span<const Request> all(requests);
  for (const unsigned threads : {1u, 2u, 4u}) {
    std::vector<PathResult> results;
    solve_batch(world, all, results, threads);
    if (results.size() != requests.size()) return "solve_batch gave " + std::to_string(results.size()) + " results";
    for (std::size_t i = 0; i < results.size(); ++i) {
      results[i].stats.microseconds = 0.0;
      if (const std::string problem = result_difference(expected[i], results[i]); !problem.empty())
        return "solve_batch on " + std::to_string(threads) + " threads, request " + std::to_string(i) + ": " + problem;
    }
  }
  std::vector<PathResult> results(requests.size());
  {
    const std::size_t half = requests.size() / 2;
    std::thread low([&] {
      QueryFor<World> query(world);
      solve_range(query, all, std::span<PathResult>(results), 0, half);
    });
    std::thread high([&] {
      QueryFor<World> query(world);
      solve_range(query, all, std::span<PathResult>(results), half, requests.size());
    });
    low.join();
    high.join();
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    results[i].stats.microseconds = 0.0;
    if (const std::string problem = result_difference(expected[i], results[i]); !problem.empty())
      return "solve_range, request " + std::to_string(i) + ": " + problem;
  }
  return "";
}

/// Runs one query with `query_object` to the end, in one call or (stepped) a few expansions at a
/// time; the two must give the same result.
template <class QueryObject, class Start, class Options>
PathResult solve(QueryObject& query_object, const Start& start, const Start& goal, const Options& options, bool stepped) {
  if (!stepped) return query_object.find_path(start, goal, options);
  SearchStatus status = query_object.begin(start, goal, options);
  while (status == SearchStatus::in_progress) status = query_object.step(37);
  PathResult result = query_object.result();
  result.stats.microseconds = 0.0;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Grids

std::vector<GridPathRequest> grid_queries(const GridMap& map, std::size_t count, std::uint64_t seed) {
  TestRandom random(seed);
  const std::vector<Cell> cells = passable_cells(map);
  std::vector<GridAlgorithm> algorithms{GridAlgorithm::astar, GridAlgorithm::dijkstra, GridAlgorithm::bidirectional_astar,
                                        GridAlgorithm::weighted_astar, GridAlgorithm::breadth_first};
  if (map.uniform_cost()) algorithms.push_back(GridAlgorithm::jump_point);
  std::vector<GridPathRequest> queries;
  for (std::size_t i = 0; i < count; ++i) {
    GridPathRequest query;
    query.start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    query.goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    query.options.algorithm = algorithms[i % algorithms.size()];
    queries.push_back(query);
  }
  // One bad query, so that the invalid_input path is shared too.
  queries.push_back({{-1, 0}, cells.front(), {}});
  return queries;
}

/// Single-threaded answers first, then every thread answers every query on the one shared map.
void check_grid_queries(const GridMap& map, const std::vector<GridPathRequest>& queries) {
  std::vector<PathResult> expected;
  {
    GridQuery pathfinder(map);
    for (const GridPathRequest& query : queries) {
      expected.push_back(pathfinder.find_path(query.start, query.goal, query.options));
      expected.back().stats.microseconds = 0.0;
    }
  }
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 2, queries.size()) << "the queries should mostly have paths";
  EXPECT_EQ(batch_difference(map, queries, expected), "");

  expect_all_matched(run_on_threads([&](int t) -> std::string {
    GridQuery pathfinder(map);  // this thread's own search state
    for (const std::size_t i : visiting_order(queries.size(), t)) {
      PathResult result = solve(pathfinder, queries[i].start, queries[i].goal, queries[i].options, t >= thread_count / 2);
      result.stats.microseconds = 0.0;
      const std::string problem = result_difference(expected[i], result);
      if (!problem.empty()) return "grid query " + std::to_string(i) + ": " + problem;
    }
    return "";
  }));
}

GridMap generated_map(bool weighted) {
  TestRandom random(weighted ? 5 : 6);
  GridMap map(96, 80);
  constexpr float costs[] = {1.0f, 2.0f, 3.0f, 1.5f};
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      if (random.chance(0.25)) {
        map.set_passable(x, y, false);
      } else if (weighted) {
        map.set_cost(x, y, costs[random.between(0, 3)]);
      }
    }
  return map;
}

std::size_t sampled(std::size_t full) { return sanitized_build() ? std::max<std::size_t>(full / 4, 8) : full; }

TEST(SharedWorlds, GridQuerysOnOneGeneratedMap) {
  for (const bool weighted : {false, true}) {
    SCOPED_TRACE(weighted ? "weighted" : "uniform cost");
    const GridMap map = generated_map(weighted);
    check_grid_queries(map, grid_queries(map, sampled(240), weighted ? 11 : 12));
  }
}

std::filesystem::path movingai_map_path() { return data_directory() / "movingai" / "dao" / "den520d.map"; }

void skip_without(const std::filesystem::path& path) {
  if (std::filesystem::exists(path)) return;
  if (data_required()) FAIL() << path << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
  GTEST_SKIP() << path << " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
}

TEST(SharedWorlds, GridQuerysOnOneMovingAiMap) {
  skip_without(movingai_map_path());
  if (IsSkipped() || HasFatalFailure()) return;
  const GridMap map = read_movingai_map(movingai_map_path());
  check_grid_queries(map, grid_queries(map, sampled(120), 13));
}

// ---------------------------------------------------------------------------------------------
// Flow fields: one field, read by every thread

void check_flow_field(const GridMap& map, const std::vector<Cell>& goals) {
  const GridFlowField field(map, goals);
  ASSERT_TRUE(field.built()) << field.message();
  const std::size_t count = map.cell_count();
  std::vector<NodeId> next(count);
  std::vector<std::uint64_t> cost(count);
  std::vector<PathResult> paths;
  const std::size_t path_stride = sanitized_build() ? 97 : 13;
  for (NodeId id = 0; id < count; ++id) {
    next[id] = field.next_node(id);
    cost[id] = std::bit_cast<std::uint64_t>(field.cost_to_goal(map.cell_of(id)));
    if (id % path_stride == 0) paths.push_back(field.path_from(map.cell_of(id)));
  }
  ASSERT_GT(field.reachable_count() * 2, passable_cells(map).size()) << "the goals should reach most of the map";

  expect_all_matched(run_on_threads([&](int t) -> std::string {
    // Agents walk the field: every cell's next move and cost, from every thread at once.
    for (const std::size_t i : visiting_order(count, t)) {
      const auto id = static_cast<NodeId>(i);
      const Cell cell = map.cell_of(id);
      const std::optional<Cell> step = field.next_cell(cell);
      const NodeId step_id = step ? map.id_of(*step) : invalid_node;
      if (field.next_node(id) != next[i] || step_id != next[i])
        return "next move of cell " + std::to_string(i) + " differs";
      if (std::bit_cast<std::uint64_t>(field.cost_to_goal(cell)) != cost[i] || field.reachable(cell) != (next[i] != invalid_node))
        return "cost of cell " + std::to_string(i) + " differs";
    }
    for (const std::size_t p : visiting_order(paths.size(), t)) {
      const std::string problem = result_difference(paths[p], field.path_from(map.cell_of(static_cast<NodeId>(p * path_stride))));
      if (!problem.empty()) return "path_from cell " + std::to_string(p * path_stride) + ": " + problem;
    }
    return "";
  }));
}

TEST(SharedWorlds, FlowFieldReadByEveryThread) {
  const GridMap map = generated_map(true);
  check_flow_field(map, passable_cells(map).size() > 10 ? std::vector<Cell>{passable_cells(map)[3], passable_cells(map)[9]}
                                                        : passable_cells(map));
}

TEST(SharedWorlds, FlowFieldOnAMovingAiMapReadByEveryThread) {
  skip_without(movingai_map_path());
  if (IsSkipped() || HasFatalFailure()) return;
  const GridMap map = read_movingai_map(movingai_map_path());
  const Scenario scenario = read_movingai_scenario(movingai_map_path().string() + ".scen");
  check_flow_field(map, {scenario.queries.back().goal});
}

// ---------------------------------------------------------------------------------------------
// Navigation meshes

void check_mesh_queries(const NavMesh& mesh, const std::vector<NavMeshPathRequest>& queries) {
  std::vector<PathResult> expected;
  {
    NavMeshQuery query(mesh);
    for (const NavMeshPathRequest& q : queries) {
      expected.push_back(query.find_path(q.start, q.goal, q.options));
      expected.back().stats.microseconds = 0.0;
    }
  }
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 4, queries.size()) << "too few of the queries have paths";
  EXPECT_EQ(batch_difference(mesh, queries, expected), "");

  expect_all_matched(run_on_threads([&](int t) -> std::string {
    NavMeshQuery query(mesh);
    for (const std::size_t i : visiting_order(queries.size(), t)) {
      PathResult result = solve(query, queries[i].start, queries[i].goal, queries[i].options, t >= thread_count / 2);
      result.stats.microseconds = 0.0;
      const std::string problem = result_difference(expected[i], result);
      if (!problem.empty()) return "mesh query " + std::to_string(i) + ": " + problem;
    }
    return "";
  }));
}

TEST(SharedWorlds, NavMeshQueriesOnOneGeneratedMesh) {
  // A 24 x 20 grid of unit squares, a quarter of them holes.
  TestRandom random(21);
  std::vector<Point> centres;
  const MeshGeometry geometry = holey_square_mesh(24, 20, 0.25, random, centres);
  const NavMesh mesh = NavMesh::build(geometry);
  std::vector<NavMeshPathRequest> queries;
  const std::size_t count = sampled(200);
  for (std::size_t i = 0; i < count; ++i) {
    NavMeshPathRequest query;
    query.start = centres[static_cast<std::size_t>(random.between(0, static_cast<int>(centres.size()) - 1))];
    query.goal = centres[static_cast<std::size_t>(random.between(0, static_cast<int>(centres.size()) - 1))];
    if (i % 3 == 1) query.options.nodes = CorridorNodes::polygon_centroids;
    queries.push_back(query);
  }
  queries.push_back({{-50.0, 0.0, -50.0}, centres.front(), {}});  // off the mesh: invalid_input
  // Only the connected pairs have paths; keep enough of them.
  std::size_t connected = 0;
  for (const NavMeshPathRequest& q : queries) {
    const MeshLocation a = mesh.locate(q.start), b = mesh.locate(q.goal);
    if (a.valid() && b.valid() && mesh.region(a.polygon) == mesh.region(b.polygon)) ++connected;
  }
  ASSERT_GT(connected, queries.size() / 2) << "the generated mesh is too broken up";
  check_mesh_queries(mesh, queries);
}

TEST(SharedWorlds, NavMeshQueriesOnOneMeshFromTheData) {
  const std::filesystem::path root = data_directory() / "meshes" / "derived";
  skip_without(root / "nav_test_navmesh.obj");
  if (IsSkipped() || HasFatalFailure()) return;
  const NavMesh mesh = NavMesh::build(read_obj_mesh(root / "nav_test_navmesh.obj"));
  const std::vector<MeshQueryCase> cases = read_mesh_queries(root / "nav_test_reference_queries.csv");
  std::vector<NavMeshPathRequest> queries;
  const std::size_t count = sampled(200);
  const std::size_t stride = std::max<std::size_t>(1, cases.size() / count);
  for (std::size_t i = 0; i < cases.size() && queries.size() < count; i += stride)
    queries.push_back({cases[i].start, cases[i].goal, {}});
  check_mesh_queries(mesh, queries);
}

// ---------------------------------------------------------------------------------------------
// Voxel worlds

/// `footprint`, when given, is handed to every thread's query (set_footprint); the answers on one
/// thread beforehand are those of a query that makes its own footprint world.
void check_voxel_queries(const VoxelWorld& world, const MovementProfile& profile, const std::vector<VoxelPathRequest>& queries,
                         const std::shared_ptr<const VoxelFootprint>& footprint = nullptr) {
  std::vector<PathResult> expected;
  {
    VoxelQuery pathfinder(world, profile);
    for (const VoxelPathRequest& q : queries) {
      expected.push_back(pathfinder.find_path(q.start, q.goal, q.options));
      expected.back().stats.microseconds = 0.0;
    }
  }
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 4, queries.size()) << "too few of the queries have paths";
  // The batch's pathfinders are built with the default profile: the requests carry the agent's
  // own (VoxelSearchOptions::profile), which must give the same answers.
  std::vector<VoxelPathRequest> requests = queries;
  for (VoxelPathRequest& request : requests) request.options.profile = profile;
  EXPECT_EQ(batch_difference(world, requests, expected), "");

  expect_all_matched(run_on_threads([&](int t) -> std::string {
    VoxelQuery pathfinder(world, profile);
    if (footprint) pathfinder.set_footprint(footprint);
    for (const std::size_t i : visiting_order(queries.size(), t)) {
      PathResult result = solve(pathfinder, queries[i].start, queries[i].goal, queries[i].options, t >= thread_count / 2);
      result.stats.microseconds = 0.0;
      const std::string problem = result_difference(expected[i], result);
      if (!problem.empty()) return "voxel query " + std::to_string(i) + ": " + problem;
    }
    return "";
  }));
}

TEST(SharedWorlds, VoxelQuerysOnOneGeneratedWorld) {
  // Rolling ground with pillars, a pool and ladders, 40 x 12 x 40 blocks, for a walker.
  TestRandom random(31);
  const VoxelWorld world = VoxelWorld::from_function(40, 12, 40, [&](int x, int y, int z) {
    const int ground = 2 + (x / 7 + z / 9) % 3;
    if (y < ground) return BlockKind::solid;
    if (x >= 20 && x < 26 && z >= 10 && z < 16 && y == ground) return BlockKind::water;
    if (y < ground + 3 && random.chance(0.06)) return BlockKind::solid;
    if (y < ground + 4 && random.chance(0.01)) return BlockKind::ladder;
    return BlockKind::air;
  });
  const MovementProfile profile = MovementProfile::walker();
  const VoxelQuery probe(world, profile);
  std::vector<VoxelCoord> places;
  for (int y = 0; y < world.size_y(); ++y)
    for (int z = 0; z < world.size_z(); ++z)
      for (int x = 0; x < world.size_x(); ++x)
        if (!probe.position_problem({x, y, z})) places.push_back({x, y, z});
  ASSERT_GT(places.size(), 500u);
  std::vector<VoxelPathRequest> queries;
  const std::size_t count = sampled(160);
  const VoxelAlgorithm algorithms[] = {VoxelAlgorithm::astar, VoxelAlgorithm::dijkstra, VoxelAlgorithm::weighted_astar};
  for (std::size_t i = 0; i < count; ++i) {
    VoxelPathRequest query;
    query.start = places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))];
    query.goal = places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))];
    query.options.algorithm = algorithms[i % 3];
    queries.push_back(query);
  }
  queries.push_back({{0, 0, 0}, places.front(), {}});  // inside the ground: invalid_input
  check_voxel_queries(world, profile, queries);
}

TEST(SharedWorlds, VoxelQuerysOnOneMovingAiVoxelMap) {
  const std::filesystem::path scenario_path = data_directory() / "voxel" / "warframe" / "Simple.3dmap.3dscen";
  skip_without(scenario_path);
  if (IsSkipped() || HasFatalFailure()) return;
  const VoxelWorld world = read_voxel_benchmark_map(voxel_scenario_map_path(scenario_path));
  const VoxelScenario scenario = read_voxel_scenario(scenario_path);
  std::vector<VoxelPathRequest> queries;
  const std::size_t count = sampled(60);
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / count);
  for (std::size_t i = 0; i < scenario.queries.size() && queries.size() < count; i += stride)
    queries.push_back({scenario.queries[i].start, scenario.queries[i].goal, {}});
  check_voxel_queries(world, MovementProfile::flyer(), queries);
}

TEST(SharedWorlds, VoxelHierarchyBuiltOnTwoThreadsAndSharedByEveryThread) {
  // The hierarchy is built by two threads and then read by every thread's own pathfinder, some
  // through VoxelQuery (set_hierarchy, stepped), some directly.
  TestRandom random(47);
  const VoxelWorld world = VoxelWorld::from_function(48, 10, 48, [&](int x, int y, int z) {
    const int ground = 2 + (x / 9 + z / 7) % 3;
    if (y < ground) return BlockKind::solid;
    if (y < ground + 2 && random.chance(0.08)) return BlockKind::solid;
    return BlockKind::air;
  });
  const MovementProfile profile = MovementProfile::walker();
  VoxelHierarchyOptions options;
  options.cluster_size = 8;
  options.build_threads = 2;
  const auto hierarchy = std::make_shared<const VoxelHierarchy>(world, profile, options);
  const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
  ASSERT_GT(places.size(), 500u);
  std::vector<std::pair<VoxelCoord, VoxelCoord>> pairs;
  for (std::size_t i = 0; i < sampled(80); ++i)
    pairs.emplace_back(places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))],
                       places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))]);
  std::vector<PathResult> expected;
  {
    VoxelHierarchyQuery pathfinder(*hierarchy);
    for (const auto& [start, goal] : pairs) {
      expected.push_back(pathfinder.find_path(start, goal));
      expected.back().stats.microseconds = 0.0;
    }
  }
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 2, pairs.size());
  expect_all_matched(run_on_threads([&](int t) -> std::string {
    VoxelQuery pathfinder(world, profile);
    pathfinder.set_hierarchy(hierarchy);
    VoxelHierarchyQuery direct(*hierarchy);
    VoxelSearchOptions hpa;
    hpa.algorithm = VoxelAlgorithm::hierarchical;
    for (const std::size_t i : visiting_order(pairs.size(), t)) {
      PathResult result = t % 2 == 0 ? solve(pathfinder, pairs[i].first, pairs[i].second, hpa, t >= thread_count / 2)
                                     : direct.find_path(pairs[i].first, pairs[i].second);
      result.stats.microseconds = 0.0;
      const std::string problem = result_difference(expected[i], result);
      if (!problem.empty()) return "hierarchical voxel query " + std::to_string(i) + ": " + problem;
    }
    return "";
  }));
}

TEST(SharedWorlds, VoxelFootprintSharedByEveryThread) {
  // One VoxelFootprint per wide agent, handed to every thread's own VoxelQuery (set_footprint):
  // the answers of a query that makes its own footprint world, with none built by the threads
  // (the batch's queries, given none, make their own).
  TestRandom random(53);
  const VoxelWorld world = VoxelWorld::from_function(40, 12, 40, [&](int x, int y, int z) {
    const int ground = 2 + (x / 8 + z / 6) % 3;
    if (y < ground) return BlockKind::solid;
    if (y < ground + 3 && random.chance(0.03)) return BlockKind::solid;
    return BlockKind::air;
  });
  for (const bool fly : {false, true}) {
    SCOPED_TRACE(fly ? "flyer of width 3" : "walker of width 2");
    MovementProfile profile = fly ? MovementProfile::flyer() : MovementProfile::walker();
    profile.agent_width = fly ? 3 : 2;
    const auto footprint = std::make_shared<const VoxelFootprint>(world, profile);
    const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
    ASSERT_GT(places.size(), 200u);
    std::vector<VoxelPathRequest> queries;
    for (std::size_t i = 0; i < sampled(60); ++i) {
      VoxelPathRequest query;
      query.start = places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))];
      query.goal = places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))];
      query.options.algorithm = fly && i % 2 == 1 ? VoxelAlgorithm::jump_point : VoxelAlgorithm::astar;
      queries.push_back(query);
    }
    check_voxel_queries(world, profile, queries, footprint);
  }
}

// ---------------------------------------------------------------------------------------------
// Batches and queues of configured query objects (a query factory), sharing derived data

/// The answers of one query object from `make_query`, request by request.
template <class Factory, class Request>
std::vector<PathResult> one_by_one(const Factory& make_query, const std::vector<Request>& requests) {
  auto query = make_query();
  std::vector<PathResult> answers(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    query.find_path(requests[i], answers[i]);
    answers[i].stats.microseconds = 0.0;
  }
  return answers;
}

/// solve_batch with query objects from `make_query` on 1, 2 and 4 threads must give `expected`.
template <class Factory, class Request>
std::string factory_batch_difference(const Factory& make_query, const std::vector<Request>& requests,
                                     const std::vector<PathResult>& expected) {
  for (const unsigned threads : {1u, 2u, 4u}) {
    std::vector<PathResult> results = solve_batch(make_query, std::span<const Request>(requests), threads);
    if (results.size() != requests.size()) return "solve_batch gave " + std::to_string(results.size()) + " results";
    for (std::size_t i = 0; i < results.size(); ++i) {
      results[i].stats.microseconds = 0.0;
      if (const std::string problem = result_difference(expected[i], results[i]); !problem.empty())
        return "solve_batch on " + std::to_string(threads) + " threads, request " + std::to_string(i) + ": " + problem;
    }
  }
  return "";
}

TEST(ConfiguredBatches, JumpPointPlusWithGoalBoundsEqualsOneByOne) {
  TestRandom random(53);
  RandomMapSpec spec;
  spec.min_side = 30;
  spec.max_side = 40;
  spec.max_blocked_fraction = 0.35;
  spec.weighted_chance = 0.0;
  const GridMap map = random_map(random, spec);
  const std::vector<Cell> cells = passable_cells(map);
  ASSERT_GT(cells.size(), 200u);
  GridSearchOptions jps_plus;
  jps_plus.algorithm = GridAlgorithm::jump_point_plus;
  std::vector<GridPathRequest> requests;
  for (std::size_t i = 0; i < sampled(120); ++i)
    requests.push_back({cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))],
                        cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))],
                        jps_plus});

  // Without derived data every request is refused, saying what to build.
  const std::vector<PathResult> refused = solve_batch(map, std::span<const GridPathRequest>(requests), 2);
  ASSERT_EQ(refused.front().status, SearchStatus::invalid_input);
  EXPECT_NE(refused.front().message.find("build_grid_derived_data"), std::string::npos) << refused.front().message;

  // Built once, shared by every thread's pathfinder.
  GridDerivedData derived = build_grid_derived_data(map, jps_plus);
  derived.goal_bounds = std::make_shared<const GridGoalBounds>(map);
  const auto make_query = [&map, &derived] { return GridQuery(map, derived); };
  const std::vector<PathResult> expected = one_by_one(make_query, requests);
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 2, requests.size());
  EXPECT_EQ(factory_batch_difference(make_query, requests, expected), "");

  // The bounds are used: the same costs as without them, in fewer expansions overall.
  GridDerivedData unbounded = derived;
  unbounded.goal_bounds = nullptr;
  const std::vector<PathResult> plain = one_by_one([&] { return GridQuery(map, unbounded); }, requests);
  std::uint64_t bounded_expansions = 0;
  std::uint64_t plain_expansions = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(expected[i].status, plain[i].status) << i;
    EXPECT_NEAR(expected[i].cost, plain[i].cost, 1e-9) << i;
    bounded_expansions += expected[i].stats.expanded;
    plain_expansions += plain[i].stats.expanded;
  }
  EXPECT_LT(bounded_expansions, plain_expansions);

  // A request queue takes the same factory; its answers are the batch's.
  PathRequestQueue<GridMap> queue(make_query, PathRequestQueueSettings{3, 64});
  std::vector<PathTicket> tickets;
  for (const GridPathRequest& request : requests) tickets.push_back(queue.submit(request));
  while (!queue.idle()) queue.update(StepBudget::expansions(500));
  for (std::size_t i = 0; i < tickets.size(); ++i) {
    PathResult result;
    ASSERT_TRUE(queue.take_result(tickets[i], result)) << i;
    result.stats.microseconds = 0.0;
    EXPECT_EQ(result_difference(expected[i], result), "") << "queued request " << i;
  }
}

TEST(ConfiguredBatches, VoxelHierarchicalEqualsOneByOne) {
  TestRandom random(59);
  const VoxelWorld world = VoxelWorld::from_function(40, 10, 40, [&](int x, int y, int z) {
    const int ground = 2 + (x / 9 + z / 7) % 3;
    if (y < ground) return BlockKind::solid;
    if (y < ground + 2 && random.chance(0.08)) return BlockKind::solid;
    return BlockKind::air;
  });
  const MovementProfile profile = MovementProfile::walker();
  VoxelHierarchyOptions hierarchy_options;
  hierarchy_options.cluster_size = 8;
  const auto hierarchy = std::make_shared<const VoxelHierarchy>(world, profile, hierarchy_options);
  const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
  ASSERT_GT(places.size(), 300u);
  VoxelSearchOptions hpa;
  hpa.algorithm = VoxelAlgorithm::hierarchical;
  std::vector<VoxelPathRequest> requests;
  for (std::size_t i = 0; i < sampled(80); ++i)
    requests.push_back({places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))],
                        places[static_cast<std::size_t>(random.between(0, static_cast<int>(places.size()) - 1))],
                        hpa});
  const auto make_query = [&world, &profile, &hierarchy] {
    VoxelQuery pathfinder(world, profile);
    pathfinder.set_hierarchy(hierarchy);
    return pathfinder;
  };
  const std::vector<PathResult> expected = one_by_one(make_query, requests);
  std::size_t found = 0;
  for (const PathResult& result : expected) found += result.found() ? 1 : 0;
  ASSERT_GT(found * 2, requests.size());
  EXPECT_EQ(factory_batch_difference(make_query, requests, expected), "");
}

TEST(SolveRange, RefusesMismatchedSpansAndRangesOutsideTheRequests) {
  const GridMap map(6, 6);
  const std::vector<GridPathRequest> requests(4, GridPathRequest{{0, 0}, {5, 5}, {}});
  std::vector<PathResult> short_results(3);
  std::vector<PathResult> results(4);
  GridQuery query(map);
  const std::span<const GridPathRequest> all(requests);
  EXPECT_THROW(solve_range(query, all, std::span<PathResult>(short_results), 0, 3), std::invalid_argument);
  EXPECT_THROW(solve_range(query, all, std::span<PathResult>(results), 3, 2), std::invalid_argument);
  EXPECT_THROW(solve_range(query, all, std::span<PathResult>(results), 0, 5), std::invalid_argument);
  solve_range(query, all, std::span<PathResult>(results), 1, 3);
  EXPECT_EQ(results[0].status, SearchStatus::in_progress) << "outside the range: untouched";
  EXPECT_TRUE(results[1].found() && results[2].found());
  EXPECT_EQ(results[3].status, SearchStatus::in_progress);
  // An empty batch, and more threads than requests.
  std::vector<PathResult> none(2);
  solve_batch(map, std::span<const GridPathRequest>(), none, 4);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(solve_batch(map, all.first(1), 8).size(), 1u);
}

// ---------------------------------------------------------------------------------------------
// Every kind of world at once

TEST(SharedWorlds, GridMeshVoxelAndFlowFieldQueriesInterleave) {
  const GridMap map = generated_map(false);
  const GridFlowField field(map, passable_cells(map).back());
  ASSERT_TRUE(field.built());
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {8, 0, 0}, {8, 0, 8}, {0, 0, 8}, {16, 0, 0}, {16, 0, 8}};
  geometry.polygons = {{0, 1, 2, 3}, {1, 4, 5, 2}};
  const NavMesh mesh = NavMesh::build(geometry);
  const VoxelWorld world = VoxelWorld::from_function(24, 6, 24, [](int x, int y, int z) {
    return y == 0 || (y < 3 && x == 12 && z != 5) ? BlockKind::solid : BlockKind::air;
  });
  const std::vector<GridPathRequest> grid = grid_queries(map, sampled(40), 41);
  const Point mesh_start{1, 0, 1}, mesh_goal{15, 0, 7};
  const VoxelCoord voxel_start{2, 1, 2}, voxel_goal{21, 1, 20};

  // Answers on one thread.
  std::vector<PathResult> grid_expected;
  GridQuery grid_pathfinder(map);
  for (const GridPathRequest& q : grid) grid_expected.push_back(grid_pathfinder.find_path(q.start, q.goal, q.options));
  NavMeshQuery mesh_query(mesh);
  PathResult mesh_expected = mesh_query.find_path(mesh_start, mesh_goal);
  VoxelQuery voxel_pathfinder(world);
  PathResult voxel_expected = voxel_pathfinder.find_path(voxel_start, voxel_goal);
  ASSERT_TRUE(mesh_expected.found() && voxel_expected.found());
  PathResult flow_expected = field.path_from(passable_cells(map).front());
  for (PathResult* result : {&mesh_expected, &voxel_expected}) result->stats.microseconds = 0.0;
  for (PathResult& result : grid_expected) result.stats.microseconds = 0.0;

  // Each thread runs a different kind of query first, then the others, so every world is read
  // by several threads while the others are searched.
  expect_all_matched(run_on_threads([&](int t) -> std::string {
    GridQuery grids(map);
    NavMeshQuery meshes(mesh);
    VoxelQuery voxels(world);
    for (int round = 0; round < 4; ++round) {
      switch ((round + t) % 4) {
        case 0:
          for (std::size_t i = 0; i < grid.size(); ++i) {
            PathResult result = grids.find_path(grid[i].start, grid[i].goal, grid[i].options);
            result.stats.microseconds = 0.0;
            if (const std::string problem = result_difference(grid_expected[i], result); !problem.empty()) return "grid: " + problem;
          }
          break;
        case 1: {
          PathResult result = meshes.find_path(mesh_start, mesh_goal);
          result.stats.microseconds = 0.0;
          if (const std::string problem = result_difference(mesh_expected, result); !problem.empty()) return "mesh: " + problem;
          break;
        }
        case 2: {
          PathResult result = voxels.find_path(voxel_start, voxel_goal);
          result.stats.microseconds = 0.0;
          if (const std::string problem = result_difference(voxel_expected, result); !problem.empty()) return "voxel: " + problem;
          break;
        }
        default:
          if (const std::string problem = result_difference(flow_expected, field.path_from(passable_cells(map).front()));
              !problem.empty())
            return "flow field: " + problem;
      }
    }
    return "";
  }));
}

}  // namespace
}  // namespace wayfinder
