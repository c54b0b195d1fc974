// Grid search benchmarks on MovingAI scenarios from ../shared/data/movingai. Each benchmark
// iteration runs every query of a scenario (scenarios are sorted by length, so a partial pass
// would be biased to short queries); the counter time_per_query is the mean time per query,
// search only: maps and scenarios are loaded before the timed loop.
// The textbook A* baseline runs in the same process on the same queries.
//
//   build/release/bench/wayfinder_bench_grid --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "textbook_astar.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

struct LoadedScenario {
  GridMap map;
  Scenario scenario;
};

// Loaded by each benchmark run, before its timed loop.
std::unique_ptr<LoadedScenario> load(const std::string& relative_scenario) {
  const auto path = data_dir() / "movingai" / relative_scenario;
  return std::make_unique<LoadedScenario>(
      LoadedScenario{read_movingai_map(scenario_map_path(path)), read_movingai_scenario(path)});
}

// The scenario, or null after marking the benchmark skipped with the loader's error.
std::unique_ptr<LoadedScenario> load_or_skip(benchmark::State& state, const std::string& scenario_file) {
  try {
    return load(scenario_file);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return nullptr;
  }
}

void run_wayfinder(benchmark::State& state, const std::string& scenario_file, GridAlgorithm algorithm) {
  const std::unique_ptr<LoadedScenario> loaded = load_or_skip(state, scenario_file);
  if (!loaded) return;
  GridQuery pathfinder(loaded->map);
  GridSearchOptions options;
  options.algorithm = algorithm;
  // JPS+ searches a table built once per map, before the timed loop; its build time and size
  // are reported beside the query time.
  if (algorithm == GridAlgorithm::jump_point_plus) {
    auto table = std::make_shared<const GridJumpTable>(loaded->map);
    state.counters["table_ms"] = table->build_seconds() * 1000.0;
    state.counters["table_bytes"] = static_cast<double>(table->memory_bytes());
    pathfinder.set_jump_table(std::move(table));
  }
  const auto& queries = loaded->scenario.queries;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const ScenarioQuery& query : queries) {
      PathResult result = pathfinder.find_path(query.start, query.goal, options);
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, queries.size(), expanded);
}

void run_textbook(benchmark::State& state, const std::string& scenario_file) {
  const std::unique_ptr<LoadedScenario> loaded = load_or_skip(state, scenario_file);
  if (!loaded) return;
  const auto& queries = loaded->scenario.queries;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const ScenarioQuery& query : queries) {
      const bench::TextbookResult result = bench::textbook_astar(loaded->map, query.start, query.goal);
      expanded += static_cast<double>(result.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, queries.size(), expanded);
}

const char* const scenarios[] = {"dao/den520d.map.scen", "dao/brc202d.map.scen", "rooms/32room_000.map.scen",
                                 "sc1/Aftershock.map.scen", "mazes/maze512-1-0.map.scen"};

void register_all() {
  for (const char* scenario : scenarios) {
    const std::string name(scenario);
    benchmark::RegisterBenchmark(("textbook_astar/" + name).c_str(),
                                 [name](benchmark::State& state) { run_textbook(state, name); })
        ->Unit(benchmark::kMicrosecond);
    for (GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::jump_point, GridAlgorithm::jump_point_plus,
                                    GridAlgorithm::bidirectional_astar}) {
      benchmark::RegisterBenchmark((std::string(to_string(algorithm)) + "/" + name).c_str(),
                                   [name, algorithm](benchmark::State& state) { run_wayfinder(state, name, algorithm); })
          ->Unit(benchmark::kMicrosecond);
    }
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
