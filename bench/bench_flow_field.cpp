// Flow fields on 512 x 512 MovingAI maps (../shared/data/movingai): the cost of building a field
// towards one goal, the cost of one agent's step once it is built, and, for comparison, the cost
// of giving 100 agents a path each with A* (and with jump point search, the fastest optimal
// search here on maps of uniform cost). The goal is that of the scenario's last (longest) query;
// the agents stand on 100 reachable cells spread evenly over the map. Maps are loaded before the
// timed loops. `engine_flood` is the same whole-map Dijkstra run by the search engine
// (BestFirstSearch from the goal with no heuristic, until its open list is empty), its costs and
// parents then copied into a field's arrays: what the field's build would cost on the engine.
//
//   build/release/bench/wayfinder_bench_flow_field --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <memory>
#include <string>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

constexpr std::size_t agent_count = 100;

struct Crowd {
  GridMap map;
  Cell goal;
  GridFlowField field;       ///< built once, for the step benchmarks and to choose agents
  std::vector<Cell> agents;  ///< reachable cells spread over the map
};

std::unique_ptr<Crowd> load_or_skip(benchmark::State& state, const std::string& scenario_file) {
  try {
    const auto path = data_dir() / "movingai" / scenario_file;
    auto crowd = std::make_unique<Crowd>();
    crowd->map = read_movingai_map(scenario_map_path(path));
    crowd->goal = read_movingai_scenario(path).queries.back().goal;
    crowd->field.build(crowd->map, crowd->goal);
    if (!crowd->field.built()) {
      state.SkipWithError(crowd->field.message().c_str());
      return nullptr;
    }
    std::vector<Cell> reachable;
    for (int y = 0; y < crowd->map.height(); ++y)
      for (int x = 0; x < crowd->map.width(); ++x)
        if (crowd->field.reachable({x, y})) reachable.push_back({x, y});
    for (std::size_t i = 0; i < agent_count; ++i) crowd->agents.push_back(reachable[i * reachable.size() / agent_count]);
    return crowd;
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return nullptr;
  }
}

void build_field(benchmark::State& state, const std::string& scenario_file) {
  const std::unique_ptr<Crowd> crowd = load_or_skip(state, scenario_file);
  if (!crowd) return;
  GridFlowField field;
  for (auto _ : state) {
    field.build(crowd->map, crowd->goal);
    benchmark::DoNotOptimize(field.reachable_count());
  }
  state.counters["cells"] = static_cast<double>(crowd->map.cell_count());
  state.counters["reachable"] = static_cast<double>(field.reachable_count());
  state.counters["bytes"] = static_cast<double>(field.memory_bytes());
}

// The engine floods the map from the goal: Dijkstra (h weight 0) towards a blocked cell, which no
// move reaches, so it settles every reachable cell and stops with an empty open list. Then each
// reached cell's cost and parent are copied out, as a field keeps them.
template <GridCosts Costs>
void flood_with_engine(benchmark::State& state, const Crowd& crowd) {
  const GridMap& map = crowd.map;
  NodeId never_reached = invalid_node;
  for (NodeId id = 0; id < map.cell_count() && never_reached == invalid_node; ++id)
    if (!map.passable(map.cell_of(id))) never_reached = id;
  if (never_reached == invalid_node) {
    state.SkipWithError("the map has no blocked cell to aim at");
    return;
  }
  const GridDomain<Costs> domain(map, DiagonalMode::only_if_no_obstacles, Heuristic::octile);
  SearchContext context;
  BestFirstSearch<GridDomain<Costs>> search(domain, context);
  SearchOptions options;
  options.h_weight = 0.0;
  std::vector<Cost> costs(map.cell_count());
  std::vector<NodeId> parents(map.cell_count());
  std::uint64_t reached = 0;
  for (auto _ : state) {
    search.start(map.id_of(crowd.goal), never_reached, options);
    search.step();
    reached = 0;
    for (NodeId id = 0; id < map.cell_count(); ++id) {
      const bool seen = context.reached(id);
      costs[id] = seen ? context.g(id) : infinite_cost;
      parents[id] = seen ? context.record(id).parent : invalid_node;
      reached += seen ? 1 : 0;
    }
    benchmark::DoNotOptimize(costs.data());
    benchmark::DoNotOptimize(parents.data());
  }
  state.counters["reachable"] = static_cast<double>(reached);
}

void flood_field_with_engine(benchmark::State& state, const std::string& scenario_file) {
  const std::unique_ptr<Crowd> crowd = load_or_skip(state, scenario_file);
  if (!crowd) return;
  if (crowd->map.uniform_cost())
    flood_with_engine<GridCosts::uniform>(state, *crowd);
  else
    flood_with_engine<GridCosts::terrain>(state, *crowd);
}

// Every agent takes one step per pass; an agent that reaches the goal starts again from where it
// first stood, so the steps are taken all over the map, not at the goal.
void step_agents(benchmark::State& state, const std::string& scenario_file) {
  const std::unique_ptr<Crowd> crowd = load_or_skip(state, scenario_file);
  if (!crowd) return;
  constexpr std::size_t agents_per_pass = 10'000;
  std::vector<Cell> origins;
  for (std::size_t i = 0; i < agents_per_pass; ++i) origins.push_back(crowd->agents[i % agent_count]);
  // Stagger the agents along their paths so that they do not move in lockstep.
  std::vector<Cell> at = origins;
  for (std::size_t i = 0; i < agents_per_pass; ++i)
    for (std::size_t s = 0; s < i % 97; ++s) at[i] = *crowd->field.next_cell(at[i]);
  for (auto _ : state) {
    for (std::size_t i = 0; i < agents_per_pass; ++i) {
      const Cell next = *crowd->field.next_cell(at[i]);
      at[i] = next == at[i] ? origins[i] : next;
    }
    benchmark::DoNotOptimize(at.data());
    benchmark::ClobberMemory();
  }
  state.counters["time_per_step"] = benchmark::Counter(static_cast<double>(agents_per_pass),
                                                       benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// One path per agent, from its cell to the goal.
void paths_per_agent(benchmark::State& state, const std::string& scenario_file, GridAlgorithm algorithm) {
  const std::unique_ptr<Crowd> crowd = load_or_skip(state, scenario_file);
  if (!crowd) return;
  GridQuery pathfinder(crowd->map);
  GridSearchOptions options;
  options.algorithm = algorithm;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const Cell agent : crowd->agents) {
      const PathResult result = pathfinder.find_path(agent, crowd->goal, options);
      if (!result.found()) {
        state.SkipWithError("an agent found no path");
        return;
      }
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, crowd->agents.size(), expanded);
}

const char* const scenarios[] = {"bg512/AR0011SR.map.scen", "sc1/Aftershock.map.scen", "rooms/32room_000.map.scen"};

void register_all() {
  for (const char* scenario : scenarios) {
    const std::string name(scenario);
    benchmark::RegisterBenchmark(("flow_field_build/" + name).c_str(),
                                 [name](benchmark::State& state) { build_field(state, name); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("engine_flood/" + name).c_str(),
                                 [name](benchmark::State& state) { flood_field_with_engine(state, name); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("flow_field_step_10000_agents/" + name).c_str(),
                                 [name](benchmark::State& state) { step_agents(state, name); })
        ->Unit(benchmark::kMicrosecond);
    for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::jump_point})
      benchmark::RegisterBenchmark((std::string(to_string(algorithm)) + "_100_agents/" + name).c_str(),
                                   [name, algorithm](benchmark::State& state) { paths_per_agent(state, name, algorithm); })
          ->Unit(benchmark::kMillisecond);
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
