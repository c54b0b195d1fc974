// Hierarchical search (HPA*, hierarchical_grid.hpp) against A* and jump point search: every
// query of the MovingAI scenarios on 512 x 512 maps, and random queries on a generated
// 4096 x 4096 map of rooms (made here, deterministically, not stored). The hierarchy is built
// before the timed loop (a game builds it once per map); its build is a benchmark of its own.
// The counter time_per_query is the mean time per query.
//
//   build/release/bench/wayfinder_bench_hierarchical --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

struct Query {
  Cell start;
  Cell goal;
  double optimal = 0.0;  ///< the optimal cost (the scenario's length, or jump point search's)
};

struct Loaded {
  GridMap map;
  std::vector<Query> queries;
};

/// A large map of rooms: walls every 32 cells with two to three doors of 2 to 6 cells in each
/// wall segment, and 8% of the cells inside the rooms blocked at random (raw mt19937_64 output,
/// so every standard library makes the same map).
GridMap rooms_map(int side, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  auto below = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
  GridMap map(side, side);
  constexpr int room = 32;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const bool wall = x % room == 0 || y % room == 0;
      if (wall || below(100) < 8) map.set_passable(x, y, false);
    }
  for (int a = 0; a < side; a += room)
    for (int b = 0; b + room <= side; b += room) {
      const int doors = 2 + below(2);
      for (int d = 0; d < doors; ++d) {
        const int width = 2 + below(5);
        const int at = b + 1 + below(room - 1 - width);
        for (int i = at; i < at + width; ++i) {
          if (a > 0) map.set_passable(a, i, true);  // a door in the vertical wall x = a
          if (a > 0) map.set_passable(i, a, true);  // and in the horizontal wall y = a
        }
      }
    }
  map.forget_changes();
  return map;
}

std::unique_ptr<Loaded> load_scenario(const std::string& relative) {
  const auto path = data_dir() / "movingai" / relative;
  auto loaded = std::make_unique<Loaded>(Loaded{read_movingai_map(scenario_map_path(path)), {}});
  for (const ScenarioQuery& query : read_movingai_scenario(path).queries)
    loaded->queries.push_back({query.start, query.goal, query.optimal_length});
  return loaded;
}

/// Random pairs of cells of the map's largest connected part (found by one search from a cell
/// near the centre: pairs are kept when both ends are reachable from it).
std::unique_ptr<Loaded> load_generated(int side, std::size_t count) {
  auto loaded = std::make_unique<Loaded>(Loaded{rooms_map(side, 4096), {}});
  const GridMap& map = loaded->map;
  std::mt19937_64 random(11);
  auto cell = [&] {
    return Cell{static_cast<int>(random() % static_cast<std::uint64_t>(side)),
                static_cast<int>(random() % static_cast<std::uint64_t>(side))};
  };
  GridQuery check(map);
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::jump_point;
  options.return_partial = false;
  while (loaded->queries.size() < count) {
    const Cell start = cell();
    const Cell goal = cell();
    if (!map.passable(start) || !map.passable(goal)) continue;
    const PathResult result = check.find_path(start, goal, options);
    if (result.found()) loaded->queries.push_back({start, goal, result.cost});
  }
  return loaded;
}

void run(benchmark::State& state, const Loaded& loaded, GridAlgorithm algorithm, int cluster_size) {
  GridSearchOptions options;
  options.algorithm = algorithm;
  options.cluster_size = cluster_size;
  // The hierarchy is built here, untimed.
  GridQuery pathfinder(loaded.map, build_grid_derived_data(loaded.map, options));
  double expanded = 0.0;
  double ratios = 0.0;
  double worst = 1.0;
  std::size_t counted = 0;
  for (auto _ : state) {
    for (const Query& query : loaded.queries) {
      PathResult result = pathfinder.find_path(query.start, query.goal, options);
      expanded += static_cast<double>(result.stats.expanded);
      if (query.optimal > 0.0) {
        ratios += result.cost / query.optimal;
        worst = std::max(worst, result.cost / query.optimal);
        ++counted;
      }
      // The path, not the cost: DoNotOptimize on a double may pass it through an integer register.
      benchmark::DoNotOptimize(result.nodes.data());
    }
  }
  bench::report_queries(state, loaded.queries.size(), expanded);
  // Path quality: cost over the optimal cost, mean and worst.
  if (counted > 0) {
    state.counters["cost_ratio"] = ratios / static_cast<double>(counted);
    state.counters["worst_ratio"] = worst;
  }
}

const char* const scenarios[] = {"bg512/AR0011SR.map.scen",        "bg512/AR0700SR.map.scen",
                                 "mazes/maze512-1-0.map.scen",     "random/random512-10-0.map.scen",
                                 "random/random512-40-0.map.scen", "rooms/32room_000.map.scen",
                                 "rooms/8room_000.map.scen",       "sc1/Aftershock.map.scen"};

constexpr GridAlgorithm compared[] = {GridAlgorithm::hierarchical, GridAlgorithm::astar, GridAlgorithm::jump_point};

void register_all() {
  for (const char* scenario : scenarios) {
    const std::string name(scenario);
    for (const GridAlgorithm algorithm : compared)
      benchmark::RegisterBenchmark((std::string(to_string(algorithm)) + "/" + name).c_str(),
                                   [name, algorithm](benchmark::State& state) {
                                     std::unique_ptr<Loaded> loaded;
                                     try {
                                       loaded = load_scenario(name);
                                     } catch (const std::exception& error) {
                                       state.SkipWithError(error.what());
                                       return;
                                     }
                                     run(state, *loaded, algorithm, 16);
                                   })
          ->Unit(benchmark::kMicrosecond);
  }
  // The generated map: 100 random queries, the hierarchy with clusters of 16 and 32.
  for (const int cluster_size : {16, 32})
    benchmark::RegisterBenchmark(("hpa_build/rooms4096/cluster" + std::to_string(cluster_size)).c_str(),
                                 [cluster_size](benchmark::State& state) {
                                   const GridMap map = rooms_map(4096, 4096);
                                   HierarchyOptions options;
                                   options.cluster_size = cluster_size;
                                   std::size_t bytes = 0;
                                   for (auto _ : state) {
                                     const HierarchicalGrid hierarchy(map, options);
                                     bytes = hierarchy.stats().memory_bytes;
                                   }
                                   state.counters["hierarchy_MB"] = static_cast<double>(bytes) / 1e6;
                                 })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  for (const GridAlgorithm algorithm : compared)
    for (const int cluster_size : {16, 32}) {
      if (algorithm != GridAlgorithm::hierarchical && cluster_size != 16) continue;
      const std::string label = algorithm == GridAlgorithm::hierarchical ? "/cluster" + std::to_string(cluster_size) : "";
      benchmark::RegisterBenchmark((std::string(to_string(algorithm)) + "/rooms4096" + label).c_str(),
                                   [algorithm, cluster_size](benchmark::State& state) {
                                     static const std::unique_ptr<Loaded> loaded = load_generated(4096, 100);
                                     run(state, *loaded, algorithm, cluster_size);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
