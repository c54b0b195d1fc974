// The frame-budgeted request queue: 200 agents on a MovingAI map ask for paths at once, and the
// queue answers them a frame budget at a time. Reports how many frames the whole crowd needs and
// the worst frame: in expansions for an expansion budget (never above the budget), in
// microseconds for a time budget (the overrun a game must allow for).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench_support.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;

struct Crowd {
  GridMap map;
  std::vector<GridPathRequest> requests;
};

/// 200 queries spread over den520d's scenario, short and long mixed.
const Crowd& crowd() {
  static const Crowd loaded = [] {
    Crowd c;
    const auto path = bench::data_dir() / "movingai" / "dao" / "den520d.map";
    c.map = read_movingai_map(path);
    const Scenario scenario = read_movingai_scenario(path.string() + ".scen");
    const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / 200);
    for (std::size_t i = 0; i < scenario.queries.size() && c.requests.size() < 200; i += stride)
      c.requests.push_back({scenario.queries[i].start, scenario.queries[i].goal, {}});
    return c;
  }();
  return loaded;
}

void run_crowd(benchmark::State& state, const StepBudget& budget) {
  const Crowd& c = crowd();
  std::size_t frames = 0;
  std::uint64_t worst_expansions = 0;
  double worst_microseconds = 0.0;
  double worst_later_microseconds = 0.0;  // frames after the first (which builds the query objects)
  std::vector<double> frame_microseconds;
  for (auto _ : state) {
    PathRequestQueue<GridMap> queue(c.map);
    for (const GridPathRequest& request : c.requests) queue.submit(request);
    frames = 0;
    frame_microseconds.clear();
    while (!queue.idle()) {
      const QueueUpdate frame = queue.update(budget);
      ++frames;
      worst_expansions = std::max(worst_expansions, frame.expansions);
      worst_microseconds = std::max(worst_microseconds, frame.microseconds);
      if (frames > 1) worst_later_microseconds = std::max(worst_later_microseconds, frame.microseconds);
      frame_microseconds.push_back(frame.microseconds);
    }
    benchmark::DoNotOptimize(queue.finished_count());
  }
  std::sort(frame_microseconds.begin(), frame_microseconds.end());
  state.counters["frames"] = static_cast<double>(frames);
  state.counters["worst_frame_expansions"] = static_cast<double>(worst_expansions);
  state.counters["worst_frame_us"] = worst_microseconds;
  state.counters["worst_later_frame_us"] = worst_later_microseconds;
  state.counters["median_frame_us"] = frame_microseconds.empty() ? 0.0 : frame_microseconds[frame_microseconds.size() / 2];
  state.counters["p99_frame_us"] =
      frame_microseconds.empty() ? 0.0 : frame_microseconds[frame_microseconds.size() * 99 / 100];
}

void BM_QueueCrowdExpansionBudget(benchmark::State& state) {
  run_crowd(state, StepBudget::expansions(static_cast<std::uint64_t>(state.range(0))));
}
BENCHMARK(BM_QueueCrowdExpansionBudget)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_QueueCrowdTimeBudget(benchmark::State& state) {
  run_crowd(state, StepBudget::time(std::chrono::microseconds(state.range(0))));
}
BENCHMARK(BM_QueueCrowdTimeBudget)->Arg(250)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
