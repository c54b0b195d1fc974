// Generated voxel worlds (voxel_world_generator.hpp): how long a world takes to build and how
// much memory it holds, and walking and flying queries across a 1024 x 256 x 1024 world (from
// the first eighth of its x range to the last, like `wayfinder voxel generate --queries`).
// The hierarchical search (hpa) runs on each profile's VoxelHierarchy, built once (2 threads)
// before its first query; hierarchy_build/* time that build alone. hierarchy_update/walker times
// VoxelHierarchy::update() after one edit of a copy of the world (a wall of 4 blocks on the
// ground across a corner of four clusters, put up in one iteration and taken down in the next,
// at another corner every two iterations), against the build it replaces.
// Counters: world_MiB (VoxelWorld::memory_bytes), time_per_query (search only),
// expanded_per_query, expansions_per_second, search_memory_MiB (the pathfinder's paged state
// after the last query; one pathfinder serves all the queries of a benchmark, so its pages are
// warm after the first iteration); clusters_redone (per update).
//
//   build/release/bench/wayfinder_bench_voxel_big_world --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one command line)

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace {

using namespace wayfinder;

VoxelWorldGeneratorOptions world_options(int size_x, int size_y, int size_z) {
  VoxelWorldGeneratorOptions options;
  options.size_x = size_x;
  options.size_y = size_y;
  options.size_z = size_z;
  options.seed = 1;
  return options;
}

/// The big world and its pairs, built the first time a query benchmark runs (so that running
/// only the generation benchmarks does not build it).
class BigWorld {
 public:
  const VoxelWorld& world() {
    if (!world_) {
      world_ = std::make_unique<VoxelWorld>(generate_voxel_world(world_options(1024, 256, 1024)));
      pick_pairs();
    }
    return *world_;
  }
  const std::vector<std::pair<VoxelCoord, VoxelCoord>>& pairs() {
    (void)world();
    return pairs_;
  }
  /// The profile's hierarchy, built on first use.
  const std::shared_ptr<const VoxelHierarchy>& hierarchy(const MovementProfile& profile) {
    std::shared_ptr<const VoxelHierarchy>& slot = profile.fly ? flyer_hierarchy_ : walker_hierarchy_;
    if (!slot) slot = std::make_shared<const VoxelHierarchy>(world(), profile, hierarchy_options());
    return slot;
  }
  /// A copy of the world to edit, made on first use (the hierarchies above stay current).
  VoxelWorld& editable_world() {
    if (!editable_) editable_ = std::make_unique<VoxelWorld>(world());
    return *editable_;
  }
  static VoxelHierarchyOptions hierarchy_options() {
    VoxelHierarchyOptions options;
    options.build_threads = 2;
    return options;
  }

 private:
  // Deterministic pairs: columns on a fixed stride in the first and last eighth of the x range,
  // each moved to the nearest place a walker can be at its surface.
  void pick_pairs() {
    const MovementProfile walker = MovementProfile::walker();
    auto place = [&](int x, int z) {
      return nearest_voxel_place(*world_, walker, {x, world_->top_block(x, z) + 1, z}, 8);
    };
    for (int i = 0; pairs_.size() < 5 && i < 64; ++i) {
      const int z = 97 + i * 181 % 830;
      const std::optional<VoxelCoord> start = place(20 + i * 13 % 100, z);
      const std::optional<VoxelCoord> goal = place(1000 - i * 17 % 100, (z + 311) % 1024);
      if (start && goal) pairs_.emplace_back(*start, *goal);
    }
  }
  std::unique_ptr<VoxelWorld> world_;
  std::unique_ptr<VoxelWorld> editable_;
  std::vector<std::pair<VoxelCoord, VoxelCoord>> pairs_;
  std::shared_ptr<const VoxelHierarchy> walker_hierarchy_;
  std::shared_ptr<const VoxelHierarchy> flyer_hierarchy_;
};

void run_generate(benchmark::State& state, int size_x, int size_y, int size_z) {
  const VoxelWorldGeneratorOptions options = world_options(size_x, size_y, size_z);
  std::size_t bytes = 0;
  for (auto _ : state) {
    const VoxelWorld world = generate_voxel_world(options);
    bytes = world.memory_bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["world_MiB"] = static_cast<double>(bytes) / (1024.0 * 1024.0);
  state.counters["blocks_per_second"] =
      benchmark::Counter(static_cast<double>(size_x) * size_y * size_z, benchmark::Counter::kIsIterationInvariantRate);
}

void run_cross_world(benchmark::State& state, BigWorld& big, const MovementProfile& profile, VoxelAlgorithm algorithm) {
  const VoxelWorld& world = big.world();
  const auto& pairs = big.pairs();
  if (pairs.empty()) {
    state.SkipWithError("no pairs");
    return;
  }
  VoxelQuery pathfinder(world, profile);
  if (algorithm == VoxelAlgorithm::hierarchical) pathfinder.set_hierarchy(big.hierarchy(profile));
  VoxelSearchOptions options;
  options.algorithm = algorithm;
  double expanded = 0.0;
  for (auto _ : state) {
    for (const auto& [start, goal] : pairs) {
      const PathResult result = pathfinder.find_path(start, goal, options);
      if (!result.found()) state.SkipWithError("a pair has no path");
      expanded += static_cast<double>(result.stats.expanded);
      benchmark::DoNotOptimize(result.cost);
    }
  }
  bench::report_queries(state, pairs.size(), expanded);
  state.counters["search_memory_MiB"] = static_cast<double>(pathfinder.search_memory_bytes()) / (1024.0 * 1024.0);
}

/// One edit and the update that follows it, per iteration: a wall of 4 blocks on the ground
/// across the corner of four clusters, put up, then taken down, then at the next corner.
void run_update(benchmark::State& state, BigWorld& big, const MovementProfile& profile) {
  VoxelWorld& world = big.editable_world();
  VoxelHierarchy hierarchy(world, profile, BigWorld::hierarchy_options());
  const int cluster = hierarchy.cluster_size();
  std::vector<VoxelCoord> corners;
  for (int i = 1; corners.size() < 16 && i < 64; ++i) {
    const int x = cluster * (1 + i * 7 % (world.size_x() / cluster - 1));
    const int z = cluster * (1 + i * 11 % (world.size_z() / cluster - 1));
    const int y = world.top_block(x, z) + 1;
    if (y > 0 && y < world.size_y()) corners.push_back({x, y, z});
  }
  std::size_t iteration = 0;
  std::size_t redone = 0;
  for (auto _ : state) {
    const VoxelCoord corner = corners[(iteration / 2) % corners.size()];
    const BlockKind kind = iteration % 2 == 0 ? BlockKind::solid : BlockKind::air;
    for (int dx = -2; dx < 2; ++dx) world.set_block(corner.x + dx, corner.y, corner.z, kind);
    redone += hierarchy.update();
    ++iteration;
  }
  state.counters["clusters_redone"] = static_cast<double>(redone) / static_cast<double>(std::max<std::size_t>(iteration, 1));
  state.counters["clusters"] = static_cast<double>(hierarchy.cluster_count());
}

void register_all(BigWorld& big) {
  benchmark::RegisterBenchmark("generate/256x128x256", [](benchmark::State& state) { run_generate(state, 256, 128, 256); })
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("generate/1024x256x1024", [](benchmark::State& state) { run_generate(state, 1024, 256, 1024); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  for (const bool fly : {false, true}) {
    const std::string name = std::string("hierarchy_build/") + (fly ? "flyer" : "walker") + "/1024x256x1024";
    benchmark::RegisterBenchmark(name.c_str(), [&big, fly](benchmark::State& state) {
      const VoxelWorld& world = big.world();
      const MovementProfile profile = fly ? MovementProfile::flyer() : MovementProfile::walker();
      std::size_t bytes = 0;
      std::size_t nodes = 0;
      for (auto _ : state) {
        const VoxelHierarchy hierarchy(world, profile, BigWorld::hierarchy_options());
        bytes = hierarchy.stats().memory_bytes;
        nodes = hierarchy.stats().nodes;
      }
      state.counters["hierarchy_MiB"] = static_cast<double>(bytes) / (1024.0 * 1024.0);
      state.counters["nodes"] = static_cast<double>(nodes);
    })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  for (const bool fly : {false, true}) {
    const std::string name = std::string("hierarchy_update/") + (fly ? "flyer" : "walker") + "/1024x256x1024";
    benchmark::RegisterBenchmark(name.c_str(), [&big, fly](benchmark::State& state) {
      run_update(state, big, fly ? MovementProfile::flyer() : MovementProfile::walker());
    })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(20);
  }
  for (const bool fly : {false, true})
    for (const VoxelAlgorithm algorithm :
         {VoxelAlgorithm::astar, VoxelAlgorithm::weighted_astar, VoxelAlgorithm::hierarchical}) {
      const MovementProfile profile = fly ? MovementProfile::flyer() : MovementProfile::walker();
      const std::string name = std::string(fly ? "fly_" : "walk_") + std::string(to_string(algorithm)) + "/1024x256x1024";
      benchmark::RegisterBenchmark(name.c_str(), [&big, profile, algorithm](benchmark::State& state) {
        run_cross_world(state, big, profile, algorithm);
      })->Unit(benchmark::kMillisecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  BigWorld big;
  register_all(big);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
