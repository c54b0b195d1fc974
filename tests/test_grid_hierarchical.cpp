// Hierarchical search (HPA*, hierarchical_grid.hpp): every path valid under the MovingAI rule,
// its cost the sum of its moves, found exactly when the goal is reachable (checked against an
// independent Dijkstra on random maps and against the scenario files on the MovingAI maps),
// within a bounded factor of the optimum; a local update equals a build from scratch; stepped
// queries end as whole ones and every Budget field stops a query as it stops the other searches.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "query_test_support.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

constexpr DiagonalMode rule = DiagonalMode::only_if_no_obstacles;

/// The graph as comparable values: each node's cell and its edges (target cell, kind, cost).
struct GraphEdge {
  NodeId from;
  NodeId to;
  bool inter;
  double cost;
  friend bool operator==(const GraphEdge&, const GraphEdge&) = default;
  friend bool operator<(const GraphEdge& a, const GraphEdge& b) {
    return std::tie(a.from, a.to, a.inter, a.cost) < std::tie(b.from, b.to, b.inter, b.cost);
  }
};

std::vector<GraphEdge> graph_of(const HierarchicalGrid& hierarchy) {
  std::vector<GraphEdge> edges;
  for (std::uint32_t n = 0; n < hierarchy.node_count(); ++n) {
    edges.push_back({hierarchy.node_cell(n), hierarchy.node_cell(n), false, -1.0});  // the node itself
    for (const HierarchicalGrid::Edge& edge : hierarchy.edges(n))
      edges.push_back({hierarchy.node_cell(n), hierarchy.node_cell(edge.to), edge.inter, edge.cost});
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

struct Ratios {
  double sum = 0.0;
  double max = 1.0;
  std::size_t count = 0;
  void add(double ratio) {
    sum += ratio;
    max = std::max(max, ratio);
    ++count;
  }
  [[nodiscard]] double mean() const { return count == 0 ? 1.0 : sum / static_cast<double>(count); }
};

TEST(HierarchicalGrid, RandomMapsAgreeWithDijkstra) {
  TestRandom random(20261123);
  Ratios ratios;
  const int maps = sanitized_build() ? 60 : 300;
  for (int m = 0; m < maps; ++m) {
    RandomMapSpec spec;
    spec.min_side = 6;
    spec.max_side = 40;
    const GridMap map = random_map(random, spec);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    HierarchyOptions hierarchy_options;
    hierarchy_options.cluster_size = random.between(4, 10);
    hierarchy_options.long_entrance = random.between(1, hierarchy_options.cluster_size);
    const HierarchicalGrid hierarchy(map, hierarchy_options);
    HierarchicalGridQuery pathfinder(hierarchy);
    for (int q = 0; q < 8; ++q) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const std::vector<double> costs = reference_costs_from(map, rule, start);
      const double optimal = costs[map.id_of(goal)];
      for (const bool smooth : {true, false}) {
        HierarchicalSearchOptions options;
        options.smooth = smooth;
        const PathResult result = pathfinder.find_path(start, goal, options);
        const std::string where = "map " + std::to_string(m) + " (" + std::to_string(map.width()) + "x" +
                                  std::to_string(map.height()) + ", clusters of " +
                                  std::to_string(hierarchy.cluster_size()) + ") from (" + std::to_string(start.x) +
                                  "," + std::to_string(start.y) + ") to (" + std::to_string(goal.x) + "," +
                                  std::to_string(goal.y) + (smooth ? "), smoothed" : ")");
        if (optimal == std::numeric_limits<double>::infinity()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << where;
          EXPECT_TRUE(result.nodes.empty()) << where;
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << where << ": " << result.message;
        const ReferencePathCheck check = reference_check_path(map, result.nodes, rule, start, goal);
        ASSERT_TRUE(check.problem.empty()) << where << ": " << check.problem;
        EXPECT_TRUE(nearly_equal(result.cost, check.cost)) << where << ": " << result.cost << " vs " << check.cost;
        EXPECT_GE(result.cost, optimal - 1e-9) << where;
        EXPECT_EQ(result.points.size(), result.nodes.size()) << where;
        if (smooth && optimal > 0.0) ratios.add(result.cost / optimal);
      }
    }
  }
  std::cout << "random maps, clusters of 4 to 10: " << ratios.count << " paths, cost / optimal mean "
            << ratios.mean() << ", max " << ratios.max << "\n";
  EXPECT_LT(ratios.mean(), 1.10);
}

// Start and goal in one cluster, joined only around a wall that leaves the cluster: the direct
// search inside the cluster finds nothing, the abstract search does.
TEST(HierarchicalGrid, SameClusterAroundAWall) {
  GridMap map(16, 16);
  for (int y = 0; y < 7; ++y) map.set_passable(4, y, false);
  map.forget_changes();
  HierarchyOptions options;
  options.cluster_size = 8;
  const HierarchicalGrid hierarchy(map, options);
  HierarchicalGridQuery pathfinder(hierarchy);
  const Cell start{1, 1};
  const Cell goal{6, 1};
  ASSERT_EQ(hierarchy.cluster_of(start), hierarchy.cluster_of(goal));
  // The wall leaves only row 7 of the cluster free: the in-cluster path is there, and it is the
  // optimal one.
  const PathResult result = pathfinder.find_path(start, goal);
  ASSERT_EQ(result.status, SearchStatus::found);
  EXPECT_TRUE(reference_check_path(map, result.nodes, rule, start, goal).problem.empty());
  // Now close row 7 too: the way round goes through the cluster below.
  map.set_passable(4, 7, false);
  const HierarchicalGrid closed(map, options);
  HierarchicalGridQuery around(closed);
  const PathResult detour = around.find_path(start, goal);
  ASSERT_EQ(detour.status, SearchStatus::found) << detour.message;
  const ReferencePathCheck check = reference_check_path(map, detour.nodes, rule, start, goal);
  EXPECT_TRUE(check.problem.empty()) << check.problem;
  EXPECT_TRUE(std::any_of(detour.nodes.begin(), detour.nodes.end(),
                          [&](NodeId id) { return map.cell_of(id).y >= 8; }));
  const std::vector<double> costs = reference_costs_from(map, rule, start);
  EXPECT_GE(detour.cost, costs[map.id_of(goal)] - 1e-9);
}

TEST(HierarchicalGrid, RefusesBadInputAndStaleHierarchies) {
  GridMap map(40, 30);
  map.set_passable(5, 5, false);
  const HierarchicalGrid hierarchy(map);
  HierarchicalGridQuery pathfinder(hierarchy);
  EXPECT_EQ(pathfinder.find_path({-1, 0}, {3, 3}).status, SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.find_path({0, 0}, {40, 3}).status, SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.find_path({5, 5}, {3, 3}).status, SearchStatus::invalid_input);
  const PathResult same = pathfinder.find_path({3, 3}, {3, 3});
  EXPECT_EQ(same.status, SearchStatus::found);
  EXPECT_EQ(same.nodes.size(), 1u);
  EXPECT_EQ(same.cost, 0.0);
  map.set_passable(20, 20, false);
  const PathResult stale = pathfinder.find_path({0, 0}, {39, 29});
  EXPECT_EQ(stale.status, SearchStatus::invalid_input);
  EXPECT_NE(stale.message.find("update()"), std::string::npos) << stale.message;
  HierarchyOptions bad;
  bad.cluster_size = 2;
  EXPECT_THROW(HierarchicalGrid(map, bad), std::invalid_argument);
  bad.cluster_size = 16;
  bad.long_entrance = 0;
  EXPECT_THROW(HierarchicalGrid(map, bad), std::invalid_argument);
}

TEST(HierarchicalGrid, ReportsProgressAndSize) {
  GridMap map(100, 70);
  std::size_t last_done = 0;
  std::size_t last_total = 0;
  HierarchyOptions options;
  options.cluster_size = 10;
  options.progress = [&](std::size_t done, std::size_t total) {
    EXPECT_GE(done, last_done);
    last_done = done;
    last_total = total;
  };
  const HierarchicalGrid hierarchy(map, options);
  EXPECT_EQ(last_total, 70u);
  EXPECT_EQ(last_done, 70u);
  EXPECT_EQ(hierarchy.stats().clusters, 70u);
  EXPECT_GT(hierarchy.stats().nodes, 0u);
  EXPECT_GT(hierarchy.stats().memory_bytes, 0u);
  EXPECT_GE(hierarchy.stats().build_milliseconds, 0.0);
}

TEST(HierarchicalGrid, LocalUpdateEqualsRebuild) {
  TestRandom random(77);
  const int rounds = sanitized_build() ? 10 : 40;
  for (int round = 0; round < rounds; ++round) {
    RandomMapSpec spec;
    spec.min_side = 20;
    spec.max_side = 60;
    GridMap map = random_map(random, spec);
    map.forget_changes();
    HierarchyOptions options;
    options.cluster_size = random.between(4, 12);
    HierarchicalGrid hierarchy(map, options);
    for (int edit = 0; edit < 4; ++edit) {
      const int edits = random.between(1, 6);
      for (int e = 0; e < edits; ++e) {
        const int x = random.between(0, map.width() - 1);
        const int y = random.between(0, map.height() - 1);
        switch (random.between(0, 3)) {
          case 0: map.set_passable(x, y, false); break;
          case 1: map.set_passable(x, y, true); break;
          case 2: map.set_cost(x, y, 2.5f); break;
          default: {
            const int w = random.between(1, 5);
            const int h = random.between(1, 5);
            map.set_passable(GridRect{x, y, std::min(w, map.width() - x), std::min(h, map.height() - y)},
                             random.chance(0.5));
          }
        }
      }
      const std::size_t rebuilt = hierarchy.update();
      EXPECT_TRUE(hierarchy.current());
      EXPECT_LE(rebuilt, hierarchy.stats().clusters);
      const HierarchicalGrid fresh(map, options);
      ASSERT_EQ(graph_of(hierarchy), graph_of(fresh)) << "round " << round << ", edit " << edit;
    }
    // A log that no longer reaches back: a full rebuild.
    map.forget_changes();
    map.set_passable(0, 0, !map.passable(0, 0));
    EXPECT_EQ(hierarchy.update(), hierarchy.stats().clusters);
    EXPECT_EQ(graph_of(hierarchy), graph_of(HierarchicalGrid(map, options)));
  }
}

// ---- MovingAI data: every scenario the data tests use.

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path root = data_directory() / "movingai";
  std::error_code error;
  if (std::filesystem::is_directory(root, error))
    for (auto it = std::filesystem::recursive_directory_iterator(root, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
      if (it->is_regular_file() && it->path().extension() == ".scen") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(HierarchicalGrid, MovingAiScenarios) {
  const std::vector<std::filesystem::path> files = scenario_files();
  if (files.empty()) {
    if (data_required()) FAIL() << "no MovingAI scenarios under " << (data_directory() / "movingai");
    GTEST_SKIP() << "no MovingAI scenarios (set WAYFINDER_DATA_DIR to the shared data folder)";
  }
  const bool sampled = sanitized_build();
  Ratios all;
  for (const std::filesystem::path& file : files) {
    const Scenario scenario = read_movingai_scenario(file);
    const GridMap map = read_movingai_map(scenario_map_path(file));
    const HierarchicalGrid hierarchy(map);
    HierarchicalGridQuery pathfinder(hierarchy);
    Ratios ratios;
    const std::size_t stride = sampled ? 20 : 1;
    for (std::size_t i = 0; i < scenario.queries.size() && (!sampled || ratios.count < 300); i += stride) {
      const ScenarioQuery& query = scenario.queries[i];
      const PathResult result = pathfinder.find_path(query.start, query.goal);
      const std::string where = file.filename().string() + ":" + std::to_string(query.line);
      ASSERT_EQ(result.status, SearchStatus::found) << where << ": " << result.message;
      const ReferencePathCheck check = reference_check_path(map, result.nodes, rule, query.start, query.goal);
      ASSERT_TRUE(check.problem.empty()) << where << ": " << check.problem;
      ASSERT_TRUE(nearly_equal(result.cost, check.cost)) << where;
      ASSERT_GE(result.cost, query.optimal_length - 0.011) << where;
      if (query.optimal_length > 0.0) ratios.add(result.cost / query.optimal_length);
    }
    std::cout << file.filename().string() << ": " << ratios.count << " queries, cost / optimal mean "
              << ratios.mean() << ", max " << ratios.max << " (" << hierarchy.stats().nodes << " nodes, built in "
              << hierarchy.stats().build_milliseconds << " ms)\n";
    EXPECT_LT(ratios.mean(), 1.05) << file;
    EXPECT_LT(ratios.max, 1.6) << file;
    all.sum += ratios.sum;
    all.count += ratios.count;
    all.max = std::max(all.max, ratios.max);
  }
  std::cout << "all scenarios: " << all.count << " queries, cost / optimal mean " << all.mean() << ", max "
            << all.max << "\n";
}


// ---- Stepping and budgets (the query contract every search keeps, query_object.hpp).

/// A sample of a MovingAI scenario's queries, with its map; empty when the data is missing.
struct SampledScenario {
  std::vector<ScenarioQuery> queries;
  std::optional<GridMap> map;
};

SampledScenario sample_scenario(const std::string& relative, std::size_t count) {
  SampledScenario sample;
  const std::filesystem::path file = data_directory() / "movingai" / relative;
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return sample;
  const Scenario scenario = read_movingai_scenario(file);
  sample.map.emplace(read_movingai_map(scenario_map_path(file)));
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / count);
  for (std::size_t i = 0; i < scenario.queries.size(); i += stride) sample.queries.push_back(scenario.queries[i]);
  return sample;
}

TEST(HierarchicalGrid, SteppedQueriesEndAsWholeOnes) {
  const char* files[] = {"random/random512-40-0.map.scen", "mazes/maze512-1-0.map.scen", "dao/den520d.map.scen"};
  bool any = false;
  for (const char* name : files) {
    const SampledScenario sample = sample_scenario(name, sanitized_build() ? 8 : 40);
    if (!sample.map) continue;
    any = true;
    const HierarchicalGrid hierarchy(*sample.map);
    HierarchicalGridQuery whole_query(hierarchy);
    HierarchicalGridQuery step_query(hierarchy);
    for (const bool smooth : {true, false}) {
      HierarchicalSearchOptions options;
      options.smooth = smooth;
      for (const ScenarioQuery& q : sample.queries) {
        const PathResult whole = whole_query.find_path(q.start, q.goal, options);
        ASSERT_EQ(whole.status, SearchStatus::found) << name << ":" << q.line;
        for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}, std::uint64_t{1} << 40})
          expect_same_result(whole, stepped_result(step_query, q.start, q.goal, options, step),
                      std::string(name) + ":" + std::to_string(q.line) + " step " + std::to_string(step));
      }
    }
  }
  if (!any) {
    if (data_required()) FAIL() << "no MovingAI data under " << (data_directory() / "movingai");
    GTEST_SKIP() << "no MovingAI scenarios (set WAYFINDER_DATA_DIR to the shared data folder)";
  }
}

TEST(HierarchicalGrid, GridQueryStepsTheHierarchy) {
  const SampledScenario sample = sample_scenario("dao/den520d.map.scen", 12);
  if (!sample.map) {
    if (data_required()) FAIL() << "no den520d under " << (data_directory() / "movingai");
    GTEST_SKIP() << "no MovingAI scenarios (set WAYFINDER_DATA_DIR to the shared data folder)";
  }
  const GridMap& map = *sample.map;
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::hierarchical;
  options.diagonal = DiagonalMode::only_if_no_obstacles;
  GridQuery query(map, build_grid_derived_data(map, options));
  GridQuery whole_query(map, query.derived_data());
  for (const ScenarioQuery& q : sample.queries) {
    const PathResult whole = whole_query.find_path(q.start, q.goal, options);
    ASSERT_EQ(whole.status, SearchStatus::found) << q.line << ": " << whole.message;
    // Paused by expansions, then by time: the same path in the end.
    ASSERT_EQ(query.begin(q.start, q.goal, options), SearchStatus::in_progress) << q.line;
    std::size_t steps = 0;
    while (query.step(StepBudget::expansions(5)) == SearchStatus::in_progress) ++steps;
    EXPECT_EQ(steps, (whole.stats.expanded - 1) / 5) << q.line;  // five expansions a step
    expect_same_result(whole, query.result(), "den520d:" + std::to_string(q.line));
    ASSERT_EQ(query.begin(q.start, q.goal, options), SearchStatus::in_progress) << q.line;
    while (query.step(StepBudget::time(std::chrono::microseconds(20))) == SearchStatus::in_progress) {
    }
    expect_same_result(whole, query.result(), "den520d:" + std::to_string(q.line) + " timed");
  }
}

TEST(HierarchicalGrid, EveryBudgetFieldStopsTheQuery) {
  const SampledScenario sample = sample_scenario("dao/den520d.map.scen", 10);
  if (!sample.map) {
    if (data_required()) FAIL() << "no den520d under " << (data_directory() / "movingai");
    GTEST_SKIP() << "no MovingAI scenarios (set WAYFINDER_DATA_DIR to the shared data folder)";
  }
  const HierarchicalGrid hierarchy(*sample.map);
  HierarchicalGridQuery query(hierarchy);
  std::size_t checked = 0;
  for (const ScenarioQuery& q : sample.queries) {
    const PathResult whole = query.find_path(q.start, q.goal);
    ASSERT_EQ(whole.status, SearchStatus::found);
    if (whole.stats.expanded < 20 || whole.cost < 10.0) continue;
    ++checked;
    const std::string where = "den520d:" + std::to_string(q.line);
    expect_every_budget_stops_at_the_start<HierarchicalSearchOptions>(query, q.start, q.goal, whole,
                                                                      sample.map->id_of(q.start), where,
                                                                      [](const BudgetCase&, bool, SearchStatus) {});
    // A budget the query fits in changes nothing.
    HierarchicalSearchOptions roomy;
    roomy.budget.max_expansions = whole.stats.expanded;
    roomy.budget.max_cost = whole.cost * 1.5;
    roomy.budget.max_time = std::chrono::seconds(60);
    roomy.budget.max_memory_bytes = std::size_t{1} << 32;
    expect_same_result(whole, query.find_path(q.start, q.goal, roomy), where + " roomy");
  }
  EXPECT_GT(checked, 3u);
  expect_bad_budget_refused<HierarchicalSearchOptions>(query, sample.queries.front().start, sample.queries.front().goal);
}

}  // namespace
}  // namespace wayfinder
