// The search engine itself: the indexed heap, the reusable search context, budgets, stepping,
// tracing, and the validation of bad queries.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/indexed_heap.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

// ---------------------------------------------------------------------------------------------
// IndexedHeap

TEST(IndexedHeap, PopsInKeyOrderAndTracksPositions) {
  TestRandom random(42);
  IndexedHeap heap;
  constexpr NodeId node_count = 2000;
  std::vector<std::uint32_t> position(node_count, 0xFFFFFFFFu);
  std::vector<std::uint64_t> keys(node_count);
  auto write_position = [&](NodeId node, std::uint32_t index) { position[node] = index; };

  for (NodeId node = 0; node < node_count; ++node) {
    // Few distinct priorities, so that ties (and their tie-breaking) are common.
    keys[node] = heap_key(static_cast<Cost>(random.between(0, 40)), random.between(0, 10) / 10.0);
    heap.push({keys[node], node}, write_position);
  }
  ASSERT_EQ(heap.size(), node_count);

  // Lower the keys of a third of the nodes through their recorded positions.
  for (NodeId node = 0; node < node_count; node += 3) {
    const Cost lower = key_priority(keys[node]) - static_cast<Cost>(random.between(1, 5));
    if (lower < 0.0) continue;
    keys[node] = heap_key(lower, random.between(0, 10) / 10.0);
    ASSERT_LT(position[node], heap.size());
    heap.decrease(position[node], keys[node], write_position);
  }

  // Every queued node's recorded position is distinct and inside the heap.
  const std::set<std::uint32_t> positions(position.begin(), position.end());
  EXPECT_EQ(positions.size(), node_count);
  EXPECT_LT(*positions.rbegin(), node_count);

  std::vector<HeapEntry> popped;
  while (!heap.empty()) {
    const HeapEntry top = heap.top();
    const HeapEntry entry = heap.pop(write_position);
    EXPECT_EQ(top.node, entry.node);
    EXPECT_EQ(entry.key, keys[entry.node]) << "node " << entry.node;
    popped.push_back(entry);
  }
  ASSERT_EQ(popped.size(), node_count);
  for (std::size_t i = 1; i < popped.size(); ++i) ASSERT_LE(popped[i - 1].key, popped[i].key) << "out of order at " << i;
}

TEST(IndexedHeap, UpdatesKeysBothWaysAndRemovesEntries) {
  TestRandom random(7);
  IndexedHeap heap;
  constexpr NodeId node_count = 1500;
  constexpr std::uint32_t not_queued = 0xFFFFFFFFu;
  std::vector<std::uint32_t> position(node_count, not_queued);
  std::vector<std::uint64_t> keys(node_count);
  auto write_position = [&](NodeId node, std::uint32_t index) { position[node] = index; };
  for (NodeId node = 0; node < node_count; ++node) {
    keys[node] = heap_key(static_cast<Cost>(random.between(0, 60)), 0.5);
    heap.push({keys[node], node}, write_position);
  }
  // Raise or lower every other key, and remove every fifth node.
  for (NodeId node = 0; node < node_count; node += 2) {
    keys[node] = heap_key(static_cast<Cost>(random.between(0, 60)), 0.5);
    heap.update(position[node], keys[node], write_position);
    EXPECT_EQ(heap.at(position[node]).node, node);
  }
  std::size_t removed = 0;
  for (NodeId node = 0; node < node_count; node += 5) {
    heap.remove(position[node], write_position);
    position[node] = not_queued;
    ++removed;
  }
  ASSERT_EQ(heap.size(), node_count - removed);
  for (NodeId node = 0; node < node_count; ++node) {
    if (position[node] != not_queued) {
      ASSERT_EQ(heap.at(position[node]).node, node);
    }
  }

  std::uint64_t last = 0;
  std::size_t popped = 0;
  while (!heap.empty()) {
    const HeapEntry entry = heap.pop(write_position);
    EXPECT_NE(entry.node % 5, 0u) << "a removed node came back";
    EXPECT_EQ(entry.key, keys[entry.node]);
    EXPECT_LE(last, entry.key) << "out of order";
    last = entry.key;
    ++popped;
  }
  EXPECT_EQ(popped, node_count - removed);
}

TEST(IndexedHeap, OrdersAnyKeyType) {
  struct Pair {
    double first, second;
    bool operator<(const Pair& other) const {
      return first < other.first || (first == other.first && second < other.second);
    }
  };
  BasicIndexedHeap<Pair> heap;
  std::vector<std::uint32_t> position(4);
  auto write_position = [&](NodeId node, std::uint32_t index) { position[node] = index; };
  heap.push({{2.0, 1.0}, 0}, write_position);
  heap.push({{1.0, 5.0}, 1}, write_position);
  heap.push({{1.0, 2.0}, 2}, write_position);
  heap.push({{3.0, 0.0}, 3}, write_position);
  heap.update(position[3], {0.5, 0.0}, write_position);
  heap.remove(position[2], write_position);
  std::vector<NodeId> order;
  while (!heap.empty()) order.push_back(heap.pop(write_position).node);
  EXPECT_EQ(order, (std::vector<NodeId>{3, 1, 0}));
}

TEST(IndexedHeap, KeysOrderByPriorityThenLargerTie) {
  EXPECT_LT(heap_key(1.0, 0.0), heap_key(2.0, 1.0)) << "priority first";
  EXPECT_LT(heap_key(5.0, 0.9), heap_key(5.0, 0.1)) << "equal priority: the larger tie value first";
  EXPECT_LT(heap_key(0.0, 1.0), heap_key(1e-300, 1.0));
  // Priorities equal in exact arithmetic but not in doubles still tie, so the tie rule decides.
  const Cost one_way = (sqrt2 + 1.0) + sqrt2;
  const Cost other_way = sqrt2 + (1.0 + sqrt2);
  EXPECT_LT(heap_key(one_way, 0.6), heap_key(other_way, 0.4));
  EXPECT_LT(heap_key(other_way, 0.6), heap_key(one_way, 0.4));
  EXPECT_NEAR(key_priority(heap_key(123.456, 0.5)), 123.456, 1e-6);
}

TEST(IndexedHeap, TiesPreferLargerG) {
  // Four entries with the same priority f = 10; the tie value is the share of g in f.
  IndexedHeap heap;
  std::map<NodeId, std::uint32_t> position;
  auto write_position = [&](NodeId node, std::uint32_t index) { position[node] = index; };
  const auto key_for_g = [](Cost g) { return heap_key(10.0, g / 10.0); };
  heap.push({key_for_g(1.0), 10}, write_position);
  heap.push({key_for_g(7.0), 11}, write_position);
  heap.push({heap_key(4.0, 0.0), 12}, write_position);
  heap.push({key_for_g(3.0), 13}, write_position);
  std::vector<NodeId> order;
  while (!heap.empty()) order.push_back(heap.pop(write_position).node);
  EXPECT_EQ(order, (std::vector<NodeId>{12, 11, 13, 10}));
}

TEST(IndexedHeap, DecreaseKeyMovesAnEntryToTheTop) {
  IndexedHeap heap;
  std::vector<std::uint32_t> position(8);
  auto write_position = [&](NodeId node, std::uint32_t index) { position[node] = index; };
  for (NodeId node = 0; node < 8; ++node) heap.push({heap_key(10.0 + node, 0.0), node}, write_position);
  EXPECT_EQ(heap.top().node, 0u);
  heap.decrease(position[7], heap_key(1.0, 0.0), write_position);
  EXPECT_EQ(heap.top().node, 7u);
  EXPECT_EQ(position[7], 0u);
  // Equal priority, larger tie: moves ahead of an equal-priority entry.
  heap.decrease(position[5], heap_key(1.0, 0.5), write_position);
  EXPECT_EQ(heap.pop(write_position).node, 5u);
  EXPECT_EQ(heap.pop(write_position).node, 7u);
  EXPECT_EQ(heap.pop(write_position).node, 0u);
}

// ---------------------------------------------------------------------------------------------
// The engine over a hand-made domain

/// A small weighted directed graph with an arbitrary admissible heuristic (zero).
struct GraphDomain {
  std::vector<std::vector<std::pair<NodeId, Cost>>> edges;
  [[nodiscard]] std::size_t node_count() const { return edges.size(); }
  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    for (const auto& [next, cost] : edges[node]) sink(next, cost);
  }
  [[nodiscard]] Cost heuristic(NodeId, NodeId) const { return 0.0; }
};
static_assert(Domain<GraphDomain>);

GraphDomain random_graph(std::uint64_t seed, NodeId nodes) {
  TestRandom random(seed);
  GraphDomain graph;
  graph.edges.resize(nodes);
  for (NodeId node = 0; node < nodes; ++node) {
    const int out_degree = random.between(0, 4);
    for (int e = 0; e < out_degree; ++e)
      graph.edges[node].push_back(
          {static_cast<NodeId>(random.between(0, static_cast<int>(nodes) - 1)), 0.25 * random.between(1, 12)});
  }
  return graph;
}

/// Bellman-Ford: the simplest correct shortest-path algorithm, as an oracle for the engine.
std::vector<Cost> bellman_ford(const GraphDomain& graph, NodeId start) {
  std::vector<Cost> distance(graph.node_count(), infinite_cost);
  distance[start] = 0.0;
  for (std::size_t round = 0; round < graph.node_count(); ++round) {
    bool changed = false;
    for (NodeId node = 0; node < graph.node_count(); ++node) {
      if (!std::isfinite(distance[node])) continue;
      for (const auto& [next, cost] : graph.edges[node]) {
        if (distance[node] + cost < distance[next]) {
          distance[next] = distance[node] + cost;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return distance;
}

TEST(BestFirstSearch, MatchesBellmanFordOnRandomGraphs) {
  SearchContext context;  // shared by every query: the generation counter must isolate them
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const GraphDomain graph = random_graph(seed, 60);
    BestFirstSearch search(graph, context);
    for (NodeId start = 0; start < 60; start += 7) {
      const std::vector<Cost> distance = bellman_ford(graph, start);
      for (NodeId goal = 0; goal < 60; goal += 5) {
        const PathResult result = search.run(start, goal, SearchOptions{});
        if (!std::isfinite(distance[goal])) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << seed << " " << start << "->" << goal;
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << seed << " " << start << "->" << goal;
        EXPECT_TRUE(nearly_equal(result.cost, distance[goal])) << seed << " " << start << "->" << goal;
        ASSERT_FALSE(result.nodes.empty());
        EXPECT_EQ(result.nodes.front(), start);
        EXPECT_EQ(result.nodes.back(), goal);
        Cost sum = 0.0;
        for (std::size_t i = 1; i < result.nodes.size(); ++i) {
          Cost step = infinite_cost;
          for (const auto& [next, cost] : graph.edges[result.nodes[i - 1]])
            if (next == result.nodes[i]) step = std::min(step, cost);
          ASSERT_TRUE(std::isfinite(step)) << "path uses a missing edge";
          sum += step;
        }
        EXPECT_TRUE(nearly_equal(sum, result.cost));
      }
    }
  }
}

TEST(BestFirstSearch, MultiSourceStartsFindTheCheapestSourcePlusPath) {
  SearchContext context;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const GraphDomain graph = random_graph(seed, 50);
    BestFirstSearch search(graph, context);
    const SearchSource sources[] = {{3, 2.0}, {17, 0.0}, {29, 1.25}, {17, 4.0}};
    std::vector<std::vector<Cost>> from(50);
    for (const SearchSource& source : sources) from[source.node] = bellman_ford(graph, source.node);
    for (NodeId goal = 0; goal < 50; goal += 3) {
      Cost best = infinite_cost;
      for (const SearchSource& source : sources) best = std::min(best, source.g + from[source.node][goal]);
      ASSERT_EQ(search.start(sources, goal, SearchOptions{}), SearchStatus::in_progress);
      search.step();
      const PathResult result = search.result();
      if (!std::isfinite(best)) {
        EXPECT_EQ(result.status, SearchStatus::no_path) << seed << " ->" << goal;
        continue;
      }
      ASSERT_EQ(result.status, SearchStatus::found) << seed << " ->" << goal;
      EXPECT_TRUE(nearly_equal(result.cost, best)) << seed << " ->" << goal;
      const NodeId first = result.nodes.front();
      EXPECT_TRUE(first == 3 || first == 17 || first == 29);
    }
  }
  const GraphDomain graph = random_graph(3, 10);
  BestFirstSearch search(graph, context);
  EXPECT_EQ(search.start(std::span<const SearchSource>{}, 1, SearchOptions{}), SearchStatus::invalid_input);
  const SearchSource negative[] = {{0, -1.0}};
  EXPECT_EQ(search.start(negative, 1, SearchOptions{}), SearchStatus::invalid_input);
  const SearchSource out_of_range[] = {{0, 0.0}, {10, 0.0}};
  EXPECT_EQ(search.start(out_of_range, 1, SearchOptions{}), SearchStatus::invalid_input);
}

TEST(BestFirstSearch, RejectsBadQueries) {
  const GraphDomain graph = random_graph(3, 10);
  SearchContext context;
  BestFirstSearch search(graph, context);
  const auto expect_invalid = [&](NodeId start, NodeId goal, const SearchOptions& options, const char* what) {
    const PathResult result = search.run(start, goal, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input) << what;
    EXPECT_FALSE(result.message.empty()) << what;
    EXPECT_TRUE(result.nodes.empty()) << what;
  };
  expect_invalid(10, 0, {}, "start out of range");
  expect_invalid(0, invalid_node, {}, "goal out of range");
  SearchOptions options;
  options.h_weight = std::numeric_limits<double>::quiet_NaN();
  expect_invalid(0, 1, options, "NaN h weight");
  options = {};
  options.g_weight = -1.0;
  expect_invalid(0, 1, options, "negative g weight");
  options = {};
  options.g_weight = 0.0;
  options.h_weight = 0.0;
  expect_invalid(0, 1, options, "both weights zero");
  options = {};
  options.h_weight = infinite_cost;
  expect_invalid(0, 1, options, "infinite h weight");
  options = {};
  options.budget.max_cost = std::numeric_limits<double>::quiet_NaN();
  expect_invalid(0, 1, options, "NaN max cost");
}

TEST(SearchContext, NewQueryForgetsTheOldOneInConstantTime) {
  SearchContext context(16);
  context.prepare(16);
  NodeRecord& record = context.touch(3);
  record.g = 7.0;
  record.parent = 2;
  EXPECT_TRUE(context.reached(3));
  EXPECT_EQ(context.g(3), 7.0);
  EXPECT_FALSE(context.reached(4));

  context.prepare(16);
  EXPECT_FALSE(context.reached(3)) << "a new query must not see the previous query's nodes";
  EXPECT_EQ(context.g(3), infinite_cost);
  const NodeRecord& fresh = context.touch(3);
  EXPECT_EQ(fresh.g, infinite_cost);
  EXPECT_EQ(fresh.parent, invalid_node);
  EXPECT_EQ(fresh.state(), NodeRecord::State::unqueued);
  EXPECT_TRUE(context.open().empty());

  context.prepare(40);  // growing keeps working
  EXPECT_GE(context.capacity(), 40u);
  EXPECT_FALSE(context.reached(39));
}

TEST(SearchContext, SecondQueryMatchesAFreshContext) {
  TestRandom random(99);
  RandomMapSpec spec;
  spec.min_side = 30;
  spec.max_side = 40;
  const GridMap map = random_map(random, spec);
  const std::vector<Cell> cells = passable_cells(map);
  const GridDomain<GridCosts::terrain> domain(map, DiagonalMode::only_if_no_obstacles, Heuristic::octile);
  SearchContext shared;
  for (int q = 0; q < 30; ++q) {
    const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    BestFirstSearch reused(domain, shared);
    const PathResult with_history = reused.run(map.id_of(start), map.id_of(goal), SearchOptions{});
    SearchContext fresh_context;
    BestFirstSearch fresh(domain, fresh_context);
    const PathResult without_history = fresh.run(map.id_of(start), map.id_of(goal), SearchOptions{});
    EXPECT_EQ(with_history.status, without_history.status) << q;
    EXPECT_EQ(with_history.nodes, without_history.nodes) << q;
    EXPECT_EQ(with_history.cost, without_history.cost) << q;
    EXPECT_EQ(with_history.stats.expanded, without_history.stats.expanded) << q;
    EXPECT_EQ(with_history.stats.generated, without_history.stats.generated) << q;
  }
}

// ---------------------------------------------------------------------------------------------
// Grid queries: budgets, stepping, tracing

/// A serpentine: walls on every other row with the gap at alternating ends, so the path from the
/// top-left to the bottom-left walks the whole map (long paths, many turns, many expansions).
GridMap serpentine_map(int width, int height) {
  GridMap map(width, height);
  bool gap_on_right = true;
  for (int y = 1; y < height - 1; y += 2) {
    for (int x = 0; x < width; ++x) {
      const bool gap = gap_on_right ? x == width - 1 : x == 0;
      if (!gap) map.set_passable(x, y, false);
    }
    gap_on_right = !gap_on_right;
  }
  return map;
}

/// An open map with scattered obstacles: many equal-cost alternatives, so ties matter.
GridMap scattered_map(int width, int height, std::uint64_t seed) {
  TestRandom random(seed);
  GridMap map(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (random.chance(0.2) && !(x == 0 && y == 0) && !(x == width - 1 && y == height - 1)) map.set_passable(x, y, false);
  return map;
}

constexpr GridAlgorithm steppable_algorithms[] = {
    GridAlgorithm::breadth_first,     GridAlgorithm::dijkstra,            GridAlgorithm::astar,
    GridAlgorithm::weighted_astar,    GridAlgorithm::greedy_best_first,   GridAlgorithm::bidirectional_astar,
    GridAlgorithm::jump_point,        GridAlgorithm::jump_point_plus};

TEST(GridBudget, ExpansionLimitGivesPartialPathToTheClosestExpandedCell) {
  const GridMap map = scattered_map(64, 64, 7);
  const Cell start{0, 0};
  const Cell goal{63, 63};
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm :
       {GridAlgorithm::dijkstra, GridAlgorithm::astar, GridAlgorithm::weighted_astar, GridAlgorithm::greedy_best_first}) {
    SearchTrace trace;
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.budget.max_expansions = 50;
    options.trace = &trace;
    const PathResult result = pathfinder.find_path(start, goal, options);
    const std::string label(to_string(algorithm));
    ASSERT_EQ(result.status, SearchStatus::partial) << label;
    EXPECT_EQ(result.reason, StopReason::expansion_limit) << label;
    EXPECT_EQ(result.stats.expanded, 50u) << label;
    ASSERT_FALSE(result.nodes.empty()) << label;
    EXPECT_TRUE(result.has_path()) << label;
    EXPECT_EQ(map.cell_of(result.nodes.front()), start) << label;
    const GridPathCheck check = check_grid_path(map, result.nodes, options.diagonal);
    EXPECT_TRUE(check.valid) << label << ": " << check.problem;
    EXPECT_NEAR(check.cost, result.cost, 1e-9) << label;

    // The end is the expanded cell closest to the goal by the heuristic (octile distance here).
    const auto distance_to_goal = [&](NodeId node) {
      const Cell cell = map.cell_of(node);
      return grid_distance(Heuristic::octile, cell.x - goal.x, cell.y - goal.y);
    };
    double closest = infinite_cost;
    std::size_t closed_events = 0;
    for (const TraceRecord& event : trace.events()) {
      if (event.event != TraceEvent::closed) continue;
      ++closed_events;
      closest = std::min(closest, distance_to_goal(event.node));
    }
    EXPECT_EQ(closed_events, 50u) << label;
    EXPECT_DOUBLE_EQ(distance_to_goal(result.nodes.back()), closest) << label;
    const auto closed_end = std::find_if(trace.events().begin(), trace.events().end(), [&](const TraceRecord& event) {
      return event.event == TraceEvent::closed && event.node == result.nodes.back();
    });
    EXPECT_NE(closed_end, trace.events().end()) << label << ": the partial path must end at an expanded cell";

    options.return_partial = false;
    options.trace = nullptr;
    const PathResult exhausted = pathfinder.find_path(start, goal, options);
    EXPECT_EQ(exhausted.status, SearchStatus::budget_exhausted) << label;
    EXPECT_EQ(exhausted.reason, StopReason::expansion_limit) << label;
    EXPECT_TRUE(exhausted.nodes.empty()) << label;
    EXPECT_FALSE(exhausted.has_path()) << label;
  }
}

TEST(GridBudget, EveryAlgorithmHonoursATinyExpansionBudget) {
  const GridMap map = serpentine_map(41, 41);
  const Cell start{0, 0};
  const Cell goal{0, 40};
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    for (const bool return_partial : {true, false}) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      options.budget.max_expansions = 5;
      options.return_partial = return_partial;
      const PathResult result = pathfinder.find_path(start, goal, options);
      const std::string label = std::string(to_string(algorithm)) + (return_partial ? " partial" : " no partial");
      if (return_partial) {
        EXPECT_EQ(result.status, SearchStatus::partial) << label << " " << result.message;
        if (!result.nodes.empty()) {
          EXPECT_EQ(map.cell_of(result.nodes.front()), start) << label;
          const GridPathCheck check = check_grid_path(map, result.nodes, options.diagonal);
          EXPECT_TRUE(check.valid) << label << ": " << check.problem;
        }
      } else {
        EXPECT_EQ(result.status, SearchStatus::budget_exhausted) << label << " " << result.message;
        EXPECT_TRUE(result.nodes.empty()) << label;
      }
      EXPECT_LE(result.stats.expanded, 5u) << label;
    }
  }
}

// Every budget, not only one: IDA* re-expands the start at each new bound, and that expansion
// used to be counted without being checked, so a search could end one expansion over its budget.
TEST(GridBudget, NoAlgorithmExpandsMoreThanItsBudget) {
  GridMap map(12, 12);
  for (int y = 0; y < 10; ++y) map.set_passable(6, y, false);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    for (std::uint64_t budget = 0; budget <= 60; ++budget) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      options.budget.max_expansions = budget;
      const PathResult result = pathfinder.find_path({1, 1}, {10, 2}, options);
      EXPECT_LE(result.stats.expanded, budget) << to_string(algorithm) << " with a budget of " << budget;
    }
  }
}

TEST(GridBudget, CostLimit) {
  const GridMap map = serpentine_map(21, 21);
  const Cell start{0, 0};
  const Cell goal{0, 20};
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options;
  const PathResult full = pathfinder.find_path(start, goal, options);
  ASSERT_TRUE(full.found());
  for (const GridAlgorithm algorithm : {GridAlgorithm::dijkstra, GridAlgorithm::astar}) {
    options.algorithm = algorithm;
    options.budget.max_cost = full.cost / 2;
    const PathResult limited = pathfinder.find_path(start, goal, options);
    EXPECT_EQ(limited.status, SearchStatus::partial) << to_string(algorithm);
    EXPECT_EQ(limited.reason, StopReason::cost_limit) << to_string(algorithm);
    EXPECT_LE(limited.cost, full.cost / 2 + 1e-9) << to_string(algorithm);
    options.budget.max_cost = full.cost + 1e-6;
    const PathResult enough = pathfinder.find_path(start, goal, options);
    EXPECT_EQ(enough.status, SearchStatus::found) << to_string(algorithm);
    EXPECT_DOUBLE_EQ(enough.cost, full.cost) << to_string(algorithm);
  }
}

// The wave counts moves: with max_cost C and every move costing at least m, it tries every path
// of up to floor(C / m) moves and no longer ones.
TEST(GridBudget, BreadthFirstWaveHonoursTheCostLimit) {
  GridMap corridor(30, 1);
  GridQuery pathfinder(corridor, testing::derived_for(corridor, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::breadth_first;
  const PathResult full = pathfinder.find_path({0, 0}, {29, 0}, options);
  ASSERT_TRUE(full.found());
  ASSERT_EQ(full.cost, 29.0);

  options.budget.max_cost = 10.0;
  const PathResult limited = pathfinder.find_path({0, 0}, {29, 0}, options);
  EXPECT_EQ(limited.status, SearchStatus::partial);
  EXPECT_EQ(limited.reason, StopReason::cost_limit);
  EXPECT_EQ(limited.stats.expanded, 10u);  // the cells 0 to 9 moves from the start
  ASSERT_EQ(limited.nodes.size(), 10u);    // to the expanded cell closest to the goal
  EXPECT_EQ(corridor.cell_of(limited.nodes.back()), (Cell{9, 0}));
  EXPECT_LE(limited.cost, options.budget.max_cost);

  options.budget.max_cost = 28.5;  // the goal lies 29 moves away
  EXPECT_EQ(pathfinder.find_path({0, 0}, {29, 0}, options).reason, StopReason::cost_limit);
  options.budget.max_cost = 29.0;
  const PathResult enough = pathfinder.find_path({0, 0}, {29, 0}, options);
  EXPECT_EQ(enough.status, SearchStatus::found);
  EXPECT_EQ(enough.nodes, full.nodes);

  options.budget.max_cost = 10.0;
  options.return_partial = false;
  const PathResult exhausted = pathfinder.find_path({0, 0}, {29, 0}, options);
  EXPECT_EQ(exhausted.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(exhausted.reason, StopReason::cost_limit);
  EXPECT_TRUE(exhausted.nodes.empty());

  // On terrain whose cheapest cell costs 0.5, a cost of 5 allows paths of up to 10 moves.
  GridMap cheap(30, 1);
  for (int x = 0; x < 30; ++x) cheap.set_cost(x, 0, x < 15 ? 0.5f : 3.0f);
  GridQuery cheap_pathfinder(cheap, testing::derived_for(cheap, {GridAlgorithm::jump_point_plus}));
  options.return_partial = true;
  options.budget.max_cost = 5.0;
  const PathResult cheap_limited = cheap_pathfinder.find_path({0, 0}, {29, 0}, options);
  EXPECT_EQ(cheap_limited.reason, StopReason::cost_limit);
  EXPECT_EQ(cheap_limited.stats.expanded, 10u);

  // An open map, 8-connected: the wave stops at the ring the cost allows, long before the goal.
  GridMap open(200, 200);
  GridQuery open_pathfinder(open, testing::derived_for(open, {GridAlgorithm::jump_point_plus}));
  options.budget.max_cost = 5.0;
  const PathResult open_limited = open_pathfinder.find_path({100, 100}, {199, 199}, options);
  EXPECT_EQ(open_limited.reason, StopReason::cost_limit);
  EXPECT_EQ(open_limited.stats.expanded, 9u * 9u);  // the 9 x 9 square of cells up to 4 moves away
  EXPECT_EQ(open.cell_of(open_limited.nodes.back()), (Cell{104, 104}));

  options.budget.max_cost = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(open_pathfinder.find_path({100, 100}, {199, 199}, options).status, SearchStatus::invalid_input);
}

TEST(GridBudget, TimeLimit) {
  const GridMap map = serpentine_map(301, 301);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : {GridAlgorithm::dijkstra, GridAlgorithm::astar, GridAlgorithm::bidirectional_astar}) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.budget.max_time = std::chrono::nanoseconds(1);
    const PathResult result = pathfinder.find_path({0, 0}, {0, 300}, options);
    EXPECT_EQ(result.status, SearchStatus::partial) << to_string(algorithm);
    EXPECT_EQ(result.reason, StopReason::time_limit) << to_string(algorithm);
    // The deadline is checked every 256 expansions: far fewer than the whole serpentine.
    EXPECT_LT(result.stats.expanded, 20'000u) << to_string(algorithm);
  }
}

void expect_same_result(const PathResult& a, const PathResult& b, const std::string& label) {
  EXPECT_EQ(a.status, b.status) << label;
  EXPECT_EQ(a.reason, b.reason) << label;
  EXPECT_EQ(a.nodes, b.nodes) << label;
  EXPECT_EQ(a.points, b.points) << label;
  EXPECT_EQ(a.cost, b.cost) << label;
  EXPECT_EQ(a.stats.expanded, b.stats.expanded) << label;
  EXPECT_EQ(a.stats.generated, b.stats.generated) << label;
  EXPECT_EQ(a.stats.peak_open, b.stats.peak_open) << label;
}

TEST(GridStepping, SteppedResultEqualsOneShotResult) {
  const std::vector<std::pair<GridMap, std::pair<Cell, Cell>>> worlds = {
      {serpentine_map(31, 31), {Cell{0, 0}, Cell{0, 30}}},
      {scattered_map(48, 40, 11), {Cell{0, 0}, Cell{47, 39}}},
  };
  for (const auto& [map, query] : worlds) {
    const auto [start, goal] = query;
    for (const GridAlgorithm algorithm : steppable_algorithms) {
      for (const bool with_budget : {false, true}) {
        GridSearchOptions options;
        options.algorithm = algorithm;
        if (with_budget) options.budget.max_expansions = 40;
        GridQuery one_shot(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
        const PathResult expected = one_shot.find_path(start, goal, options);
        for (const std::uint64_t step_size : {1u, 7u, 1000u}) {
          const std::string label = std::string(to_string(algorithm)) + " step " + std::to_string(step_size) +
                                    (with_budget ? " with budget" : "");
          GridQuery stepped(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
          SearchStatus status = stepped.begin(start, goal, options);
          int steps = 0;
          while (status == SearchStatus::in_progress && steps < 1'000'000) {
            const PathResult so_far = stepped.result();
            ASSERT_EQ(so_far.status, SearchStatus::in_progress) << label;
            ASSERT_TRUE(so_far.nodes.empty()) << label;
            status = stepped.step(step_size);
            ++steps;
          }
          const PathResult result = stepped.result();
          EXPECT_EQ(result.status, status) << label;
          expect_same_result(result, expected, label);
          if (step_size == 1 && !with_budget) {
            EXPECT_GT(steps, 1) << label << ": the search was not really stepped";
          }
        }
      }
    }
  }
}

// A step limited by time only pauses the search: however the steps fall, the result is the
// one-shot result. One nanosecond per step makes every step end at its first clock reading.
TEST(GridStepping, TimedStepsEndWithTheOneShotResult) {
  const GridMap map = scattered_map(200, 160, 13);
  const Cell start{0, 0};
  const Cell goal{199, 159};
  for (const GridAlgorithm algorithm : steppable_algorithms) {
    for (const bool with_budget : {false, true}) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      if (with_budget) options.budget.max_expansions = 700;
      const std::string label = std::string(to_string(algorithm)) + (with_budget ? " with budget" : "");
      GridQuery one_shot(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
      const PathResult expected = one_shot.find_path(start, goal, options);
      GridQuery stepped(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
      SearchStatus status = stepped.begin(start, goal, options);
      int steps = 0;
      while (status == SearchStatus::in_progress && steps < 1'000'000) {
        status = stepped.step(StepBudget::time(std::chrono::nanoseconds(1)));
        ++steps;
      }
      expect_same_result(stepped.result(), expected, label);
      EXPECT_GT(steps, 1) << label << ": the search was not really stepped";
    }
  }
}

// On a search far longer than one step, a timed step returns in_progress after the first time
// check, having expanded time_check_interval nodes (a step checks the clock only that often).
TEST(GridStepping, TimedStepPausesALongSearch) {
  // Jump point search expands only a few hundred jump points on the serpentine; the scattered
  // map gives it thousands.
  const std::vector<std::pair<GridMap, std::pair<Cell, Cell>>> worlds = {
      {serpentine_map(301, 301), {Cell{0, 0}, Cell{0, 300}}},
      {scattered_map(300, 300, 17), {Cell{0, 0}, Cell{299, 299}}},
  };
  for (const GridAlgorithm algorithm : steppable_algorithms) {
    int long_searches = 0;
    for (const auto& [map, query] : worlds) {
      const auto [start, goal] = query;
      GridSearchOptions options;
      options.algorithm = algorithm;
      const std::string label(to_string(algorithm));
      GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
      const PathResult whole = pathfinder.find_path(start, goal, options);
      ASSERT_TRUE(whole.found()) << label;
      if (whole.stats.expanded <= 10 * StepBudget::time_check_interval) continue;
      ++long_searches;
      ASSERT_EQ(pathfinder.begin(start, goal, options), SearchStatus::in_progress) << label;
      EXPECT_EQ(pathfinder.step(StepBudget::time(std::chrono::nanoseconds(1))), SearchStatus::in_progress) << label;
      EXPECT_EQ(pathfinder.result().stats.expanded, StepBudget::time_check_interval) << label;
      // Expansions and time together: whichever runs out first ends the step.
      EXPECT_EQ(pathfinder.step(StepBudget{10, std::chrono::nanoseconds(1)}), SearchStatus::in_progress) << label;
      EXPECT_EQ(pathfinder.result().stats.expanded, StepBudget::time_check_interval + 10) << label;
      // A zero time is no limit.
      EXPECT_EQ(pathfinder.step(StepBudget{}), SearchStatus::found) << label;
      expect_same_result(pathfinder.result(), whole, label);
    }
    EXPECT_GT(long_searches, 0) << to_string(algorithm) << " was not tested on a long search";
  }
}

TEST(GridStepping, IdaStarFinishesInBegin) {
  const GridMap map = serpentine_map(7, 5);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::ida_star;
  const PathResult expected = pathfinder.find_path({0, 0}, {0, 4}, options);
  ASSERT_TRUE(expected.found()) << expected.message;
  const SearchStatus status = pathfinder.begin({0, 0}, {0, 4}, options);
  EXPECT_EQ(status, SearchStatus::found);
  EXPECT_EQ(pathfinder.step(10), SearchStatus::found);
  EXPECT_EQ(pathfinder.result().nodes, expected.nodes);
  EXPECT_EQ(pathfinder.result().cost, expected.cost);
}

// A result the caller owns is refilled in place: after a long path, a shorter one reuses the same
// memory (same data pointers and capacities), and every answer equals the returning overload's.
TEST(GridQuery, CallerOwnedResultIsReusedWithoutReallocating) {
  const GridMap map = scattered_map(24, 20, 3);
  const Cell far_start{0, 0}, far_goal{23, 19}, near_goal{6, 5};
  ASSERT_TRUE(map.passable(near_goal));
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    const std::string label(to_string(algorithm));
    GridSearchOptions options;
    options.algorithm = algorithm;
    GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
    PathResult out;
    EXPECT_EQ(pathfinder.find_path(far_start, far_goal, options, out), SearchStatus::found) << label;
    expect_same_result(out, pathfinder.find_path(far_start, far_goal, options), label);
    pathfinder.result(out);  // the same query's result again, into the same memory
    expect_same_result(out, pathfinder.find_path(far_start, far_goal, options), label);
    const NodeId* nodes = out.nodes.data();
    const Point* points = out.points.data();
    const std::size_t node_capacity = out.nodes.capacity();
    const std::size_t point_capacity = out.points.capacity();
    for (const Cell goal : {near_goal, far_goal}) {
      pathfinder.find_path(far_start, goal, options, out);
      expect_same_result(out, pathfinder.find_path(far_start, goal, options), label);
      EXPECT_EQ(out.nodes.data(), nodes) << label;
      EXPECT_EQ(out.points.data(), points) << label;
      EXPECT_EQ(out.nodes.capacity(), node_capacity) << label;
      EXPECT_EQ(out.points.capacity(), point_capacity) << label;
    }
    // A rejected query leaves its message; the next answer does not keep it.
    EXPECT_EQ(pathfinder.find_path(far_start, {-1, 0}, options, out), SearchStatus::invalid_input) << label;
    EXPECT_FALSE(out.message.empty()) << label;
    EXPECT_TRUE(out.nodes.empty()) << label;
    pathfinder.find_path(far_start, near_goal, options, out);
    EXPECT_TRUE(out.message.empty()) << label;
    expect_same_result(out, pathfinder.find_path(far_start, near_goal, options), label);
  }
}

// Stepping or asking for a result before any begin() is a caller's mistake, answered, not thrown.
TEST(GridStepping, StepAndResultBeforeBeginAreInvalidInput) {
  const GridMap map = serpentine_map(7, 5);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  EXPECT_EQ(pathfinder.step(10), SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.step(StepBudget::time(std::chrono::milliseconds(1))), SearchStatus::invalid_input);
  PathResult out;
  out.nodes = {1, 2, 3};
  pathfinder.result(out);
  EXPECT_EQ(out.status, SearchStatus::invalid_input);
  EXPECT_EQ(out.message, "no query has begun: call begin() before step() and result()");
  EXPECT_TRUE(out.nodes.empty());
  EXPECT_EQ(pathfinder.result().message, "no query has begun: call begin() before step() and result()");
  // A rejected query answers the same through begin, step and result.
  EXPECT_EQ(pathfinder.begin({0, 0}, {-1, 0}), SearchStatus::invalid_input);
  EXPECT_EQ(pathfinder.step(10), SearchStatus::invalid_input);
  EXPECT_NE(pathfinder.result().message.find("outside"), std::string::npos);
}

TEST(GridTrace, TracingDoesNotChangeTheSearch) {
  const GridMap map = scattered_map(40, 40, 5);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    if (algorithm == GridAlgorithm::ida_star) options.budget.max_expansions = 2'000'000;
    const Cell start{0, 0};
    const Cell goal = algorithm == GridAlgorithm::ida_star ? Cell{6, 5} : Cell{39, 39};
    const PathResult plain = pathfinder.find_path(start, goal, options);
    SearchTrace trace;
    options.trace = &trace;
    const PathResult traced = pathfinder.find_path(start, goal, options);
    const std::string label(to_string(algorithm));
    if (algorithm != GridAlgorithm::ida_star) {
      ASSERT_TRUE(plain.found()) << label << " " << plain.message;
    }
    expect_same_result(traced, plain, label);
    std::size_t closed = 0;
    std::size_t opened = 0;
    for (const TraceRecord& event : trace.events()) {
      EXPECT_LT(event.node, map.cell_count()) << label;
      if (event.event == TraceEvent::closed) ++closed;
      if (event.event == TraceEvent::opened) ++opened;
    }
    EXPECT_GT(opened, 0u) << label;
    EXPECT_EQ(closed, traced.stats.expanded) << label << ": one closed event per expansion";
  }
}

// ---------------------------------------------------------------------------------------------
// Bad queries: invalid_input with a message, never a crash

TEST(GridValidation, BadQueriesAreInvalidInput) {
  GridMap map(10, 8);
  map.set_passable(4, 4, false);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const auto expect_invalid = [&](Cell start, Cell goal, const GridSearchOptions& options, const std::string& what) {
    const PathResult result = pathfinder.find_path(start, goal, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input) << what;
    EXPECT_EQ(result.reason, StopReason::invalid_input) << what;
    EXPECT_FALSE(result.message.empty()) << what;
    EXPECT_TRUE(result.nodes.empty()) << what;
    // begin() reports the same.
    EXPECT_EQ(pathfinder.begin(start, goal, options), SearchStatus::invalid_input) << what;
    EXPECT_EQ(pathfinder.result().status, SearchStatus::invalid_input) << what;
  };
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    const std::string name(to_string(algorithm));
    expect_invalid({-1, 0}, {3, 3}, options, name + ": start left of the map");
    expect_invalid({0, 8}, {3, 3}, options, name + ": start below the map");
    expect_invalid({0, 0}, {10, 3}, options, name + ": goal right of the map");
    expect_invalid({0, 0}, {3, -5}, options, name + ": goal above the map");
    expect_invalid({4, 4}, {0, 0}, options, name + ": start blocked");
    expect_invalid({0, 0}, {4, 4}, options, name + ": goal blocked");
    expect_invalid({std::numeric_limits<int>::min(), 0}, {0, 0}, options, name + ": start at INT_MIN");
    expect_invalid({0, 0}, {std::numeric_limits<int>::max(), 0}, options, name + ": goal at INT_MAX");
  }
  for (const double weight : {std::numeric_limits<double>::quiet_NaN(), 0.5, 0.0, -2.0, infinite_cost}) {
    GridSearchOptions options;
    options.algorithm = GridAlgorithm::weighted_astar;
    options.weight = weight;
    expect_invalid({0, 0}, {9, 7}, options, "weighted A* with weight " + std::to_string(weight));
  }
  {
    GridSearchOptions options;
    options.budget.max_cost = std::numeric_limits<double>::quiet_NaN();
    expect_invalid({0, 0}, {9, 7}, options, "NaN max cost");
  }
}

/// Weighted A* orders cells by g + weight x h: a weight that makes that product overflow would
/// leave every priority infinite and the search without order (on a 512 x 512 map a weight of
/// 1e308 expanded 230 times the cells that 1e300 did). Such weights are refused with a message
/// that names the largest weight the map allows; every weight below it still finds a path.
TEST(GridValidation, WeightsThatWouldOverflowThePrioritiesAreRefused) {
  GridMap map(512, 512);
  for (int y = 100; y < 400; ++y) map.set_passable(256, y, false);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::weighted_astar;
  for (const double weight : {1e308, 1e306, std::numeric_limits<double>::max()}) {
    options.weight = weight;
    const PathResult result = pathfinder.find_path({0, 255}, {511, 255}, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input) << weight;
    EXPECT_NE(result.message.find("is too large for this 512x512 map"), std::string::npos) << result.message;
    EXPECT_NE(result.message.find("the largest accepted here is about 1.55e+304"), std::string::npos)
        << result.message;
  }
  // Large but safe weights search as greedily as the greedy algorithm: few expansions, a path.
  GridSearchOptions greedy;
  greedy.algorithm = GridAlgorithm::greedy_best_first;
  const PathResult greedy_result = pathfinder.find_path({0, 255}, {511, 255}, greedy);
  ASSERT_TRUE(greedy_result.found());
  for (const double weight : {1e300, 1.5e304}) {
    options.weight = weight;
    const PathResult result = pathfinder.find_path({0, 255}, {511, 255}, options);
    ASSERT_TRUE(result.found()) << weight << ": " << result.message;
    EXPECT_LE(result.stats.expanded, 2 * greedy_result.stats.expanded) << weight;
  }
  // The bound scales with the map: on a map of one cell nothing can overflow.
  const GridMap single(1, 1);
  GridQuery single_pathfinder(single, testing::derived_for(single, {GridAlgorithm::jump_point_plus}));
  options.weight = std::numeric_limits<double>::max();
  EXPECT_TRUE(single_pathfinder.find_path({0, 0}, {0, 0}, options).found());
  // Terrain scales the estimates down by the cheapest cost, so a cheap cell allows larger weights.
  GridMap cheap(512, 512);
  cheap.set_cost(0, 0, 0.25f);
  GridQuery cheap_pathfinder(cheap, testing::derived_for(cheap, {GridAlgorithm::jump_point_plus}));
  options.weight = 5e304;
  EXPECT_TRUE(cheap_pathfinder.find_path({0, 255}, {511, 255}, options).found());
  EXPECT_EQ(pathfinder.find_path({0, 255}, {511, 255}, options).status, SearchStatus::invalid_input);
}

/// Options arrive from bindings and configuration files as plain integers; values outside the
/// enumerations must be refused, not run.
TEST(GridValidation, OutOfRangeOptionsAreInvalidInput) {
  GridMap map(10, 8);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const auto expect_invalid = [&](const GridSearchOptions& options, const std::string& what) {
    const PathResult result = pathfinder.find_path({0, 0}, {9, 7}, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input) << what;
    EXPECT_FALSE(result.message.empty()) << what;
    EXPECT_TRUE(result.nodes.empty()) << what;
  };
  {
    GridSearchOptions options;
    options.algorithm = static_cast<GridAlgorithm>(200);
    expect_invalid(options, "unknown algorithm");
  }
  {
    GridSearchOptions options;
    options.diagonal = static_cast<DiagonalMode>(200);
    expect_invalid(options, "unknown diagonal mode");
  }
  {
    GridSearchOptions options;
    options.heuristic = static_cast<Heuristic>(200);
    expect_invalid(options, "unknown heuristic");
  }
}

TEST(GridValidation, EmptyMap) {
  const GridMap empty;
  GridQuery pathfinder(empty, testing::derived_for(empty, {GridAlgorithm::jump_point_plus}));
  const PathResult result = pathfinder.find_path({0, 0}, {0, 0});
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_FALSE(result.message.empty());
}

TEST(GridValidation, JumpPointSearchOnWeightedTerrainIsRefusedOrCorrect) {
  GridMap map(12, 12);
  for (int y = 0; y < 11; ++y) map.set_cost(6, y, 3.0f);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::jump_point;
  const PathResult result = pathfinder.find_path({0, 5}, {11, 5}, options);
  if (result.status == SearchStatus::invalid_input) {
    EXPECT_FALSE(result.message.empty());
  } else {
    options.algorithm = GridAlgorithm::dijkstra;
    const PathResult optimal = pathfinder.find_path({0, 5}, {11, 5}, options);
    ASSERT_EQ(result.status, SearchStatus::found);
    EXPECT_NEAR(result.cost, optimal.cost, 1e-9);
  }
}

TEST(GridQuery, MovedPathfinderKeepsWorking) {
  const GridMap map = serpentine_map(11, 11);
  GridQuery first(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  const PathResult before = first.find_path({0, 0}, {0, 10});
  GridQuery second(std::move(first));
  const PathResult after = second.find_path({0, 0}, {0, 10});
  expect_same_result(after, before, "after move");
}

TEST(SearchTraceLimit, KeepsTheFirstEventsAndCountsThemAll) {
  SearchTrace trace;
  trace.set_max_events(3);
  for (NodeId node = 0; node < 10; ++node) trace.record(TraceEvent::opened, node, invalid_node, 1.0);
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_EQ(trace.events()[2].node, 2u);
  EXPECT_EQ(trace.recorded(), 10u);
  trace.clear();
  EXPECT_EQ(trace.size(), 0u);
  EXPECT_EQ(trace.recorded(), 0u);

  // A search records into a bounded trace as into an unbounded one, keeping only the first.
  const GridMap map(32, 32);
  GridQuery pathfinder(map);
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::dijkstra;
  SearchTrace whole;
  options.trace = &whole;
  const PathResult unbounded = pathfinder.find_path(Cell{0, 0}, Cell{31, 31}, options);
  SearchTrace bounded;
  bounded.set_max_events(100);
  options.trace = &bounded;
  const PathResult cut = pathfinder.find_path(Cell{0, 0}, Cell{31, 31}, options);
  EXPECT_EQ(cut.cost, unbounded.cost);
  ASSERT_GT(whole.size(), 100u);
  EXPECT_EQ(bounded.size(), 100u);
  EXPECT_EQ(bounded.recorded(), whole.size());
  EXPECT_TRUE(std::equal(bounded.events().begin(), bounded.events().end(), whole.events().begin(),
                         [](const TraceRecord& a, const TraceRecord& b) { return a.node == b.node && a.event == b.event; }));
}

}  // namespace
}  // namespace wayfinder
