// Voxel search benchmarks. Flying: every query of the MovingAI voxel scenarios (Brewer &
// Sturtevant 2018, warframe/Simple and warframe/Complex) from ../shared/data/voxel, per
// iteration, with A*, weighted A* and jump point search (fly_jps: the same queries as fly_astar,
// so their times compare directly). Walking: seeded random pairs of places a walker can be on the MagicaVoxel city
// scenes. Counters as in the grid benchmark: time_per_query (search only), expanded_per_query,
// expansions_per_second.
//
//   build/release/bench/wayfinder_bench_voxel --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace {

using namespace wayfinder;
using bench::data_dir;

void run_flying(benchmark::State& state, const std::string& name, VoxelAlgorithm algorithm) {
  const auto path = data_dir() / "voxel" / "warframe" / (name + ".3dmap.3dscen");
  std::unique_ptr<VoxelWorld> world;
  VoxelScenario scenario;
  try {
    scenario = read_voxel_scenario(path);
    world = std::make_unique<VoxelWorld>(read_voxel_benchmark_map(voxel_scenario_map_path(path)));
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  VoxelQuery pathfinder(*world, MovementProfile::flyer());
  VoxelSearchOptions options;
  options.algorithm = algorithm;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const VoxelScenarioQuery& query : scenario.queries) {
      const PathResult result = pathfinder.find_path(query.start, query.goal, options);
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, scenario.queries.size(), expanded);
  state.counters["search_memory_MiB"] = static_cast<double>(pathfinder.search_memory_bytes()) / (1024.0 * 1024.0);
}

void run_walking(benchmark::State& state, const std::string& scene) {
  std::unique_ptr<VoxelWorld> world;
  try {
    world = std::make_unique<VoxelWorld>(read_vox_file(data_dir() / "voxel" / "vox" / (scene + ".vox")));
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  VoxelQuery pathfinder(*world, MovementProfile::walker());
  std::vector<VoxelCoord> places;
  for (int y = 0; y < world->size_y(); ++y)
    for (int z = 0; z < world->size_z(); ++z)
      for (int x = 0; x < world->size_x(); ++x)
        if (!pathfinder.position_problem({x, y, z})) places.push_back({x, y, z});
  std::mt19937_64 random(7);
  std::vector<std::pair<VoxelCoord, VoxelCoord>> pairs;
  for (int i = 0; i < 200 && !places.empty(); ++i)
    pairs.emplace_back(places[random() % places.size()], places[random() % places.size()]);
  double expanded = 0.0;
  for (auto _ : state) {
    for (const auto& [start, goal] : pairs) {
      const PathResult result = pathfinder.find_path(start, goal);
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, pairs.size(), expanded);
}

void register_all() {
  for (const char* name : {"Simple", "Complex"})
    for (VoxelAlgorithm algorithm : {VoxelAlgorithm::astar, VoxelAlgorithm::weighted_astar, VoxelAlgorithm::jump_point}) {
      const std::string scenario(name);
      benchmark::RegisterBenchmark(("fly_" + std::string(to_string(algorithm)) + "/" + scenario).c_str(),
                                   [scenario, algorithm](benchmark::State& state) { run_flying(state, scenario, algorithm); })
          ->Unit(benchmark::kMicrosecond);
    }
  for (const char* name : {"scene_park3", "scene_store8"}) {
    const std::string scene(name);
    benchmark::RegisterBenchmark(("walk_astar/" + scene).c_str(), [scene](benchmark::State& state) { run_walking(state, scene); })
        ->Unit(benchmark::kMicrosecond);
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
