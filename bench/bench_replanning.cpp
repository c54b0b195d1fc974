// Replanning after changes: the experiment of `wayfinder grid replan` (agents walk scenario
// paths while doors close ahead of them) in Google Benchmark form. Each iteration runs the
// whole experiment; the counters are the experiment's means per replan, so the D* Lite repair,
// the Multipath Adaptive A* replan and the A* / JPS plans from scratch are compared in one process.

#include <benchmark/benchmark.h>

#include <string>

#include "bench_support.hpp"
#include "common/replan_experiment.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;

void BM_ReplanAfterDoorsClose(benchmark::State& state, const std::string& scenario_name) {
  const auto path = bench::data_dir() / "movingai" / scenario_name;
  const GridMap map = read_movingai_map(path);
  const Scenario scenario = read_movingai_scenario(path.string() + ".scen");
  ReplanExperimentOptions options;
  options.query_limit = 100;
  options.changes_per_query = 10;
  ReplanExperimentResult result;
  for (auto _ : state) {
    result = run_replan_experiment(map, scenario, options);
    benchmark::DoNotOptimize(result.replans);
  }
  state.counters["replans"] = static_cast<double>(result.replans);
  state.counters["mismatches"] = static_cast<double>(result.mismatches);
  state.counters["mpaa_mismatches"] = static_cast<double>(result.mpaa_mismatches);
  state.counters["dstar_mean_us"] = result.dstar_mean_us;
  state.counters["mpaa_mean_us"] = result.mpaa_mean_us;
  state.counters["astar_mean_us"] = result.astar_mean_us;
  state.counters["jps_mean_us"] = result.jps_mean_us;
  if (result.mismatches != 0) state.SkipWithError("D* Lite disagreed with A*");
  if (result.mpaa_mismatches != 0) state.SkipWithError("MPAA* disagreed with A*");
}

BENCHMARK_CAPTURE(BM_ReplanAfterDoorsClose, den520d, std::string("dao/den520d.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReplanAfterDoorsClose, arena2, std::string("dao/arena2.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReplanAfterDoorsClose, room32, std::string("rooms/32room_000.map"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
