// The voxel hierarchy (HPA* over voxel moves): on random small worlds and generated terrain,
// for walkers and flyers and several cluster shapes, a path is found exactly when A* finds one,
// every move is legal by the independent rules of voxel_test_support.hpp, the cost is the sum
// of the moves and never below A*'s optimum; the build does not depend on its thread count;
// bad queries and edited worlds are refused in words; stepped queries end as whole ones (on a
// voxel benchmark world and random worlds) and every Budget field stops a query as it stops the
// other searches.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "query_test_support.hpp"
#include "test_environment.hpp"
#include "voxel_test_support.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

struct Tally {
  int found = 0;
  int unreachable = 0;
  double cost_ratio_sum = 0.0;
};

/// Compares the hierarchy with A* on `queries` random pairs of places.
void compare_with_astar(const VoxelWorld& world, const MovementProfile& profile, const VoxelHierarchyOptions& options,
                        int queries, std::mt19937_64& random, Tally& tally) {
  const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
  ASSERT_GE(places.size(), 2u);
  const VoxelHierarchy hierarchy(world, profile, options);
  VoxelHierarchyQuery hierarchical(hierarchy);
  VoxelQuery exact(world, profile);
  for (int q = 0; q < queries; ++q) {
    const VoxelCoord start = places[random() % places.size()];
    const VoxelCoord goal = places[random() % places.size()];
    const PathResult optimal = exact.find_path(start, goal);
    const PathResult found = hierarchical.find_path(start, goal);
    const std::string where = voxel_coord_text(start) + " -> " + voxel_coord_text(goal);
    ASSERT_TRUE(optimal.status == SearchStatus::found || optimal.status == SearchStatus::no_path) << where;
    ASSERT_EQ(found.status, optimal.status) << where << ": " << found.message;
    if (found.status != SearchStatus::found) {
      ++tally.unreachable;
      EXPECT_TRUE(found.nodes.empty());
      continue;
    }
    ++tally.found;
    const std::vector<VoxelCoord> path = coords_of(world, found);
    ASSERT_EQ(path.front(), start) << where;
    ASSERT_EQ(path.back(), goal) << where;
    ASSERT_EQ(found.points.size(), found.nodes.size());
    double cost = 0.0;
    const std::string problem =
        profile.fly ? check_fly_path(world, path, cost) : check_walk_path(world, profile, path, cost);
    ASSERT_EQ(problem, "") << where;
    if (profile.fly) cost *= profile.fly_cost;
    EXPECT_NEAR(found.cost, cost, 1e-9 * (1.0 + cost)) << where;
    EXPECT_GE(found.cost, optimal.cost - 1e-9 * (1.0 + optimal.cost)) << where;
    if (optimal.cost > 0.0) tally.cost_ratio_sum += found.cost / optimal.cost;
  }
}

TEST(VoxelHierarchy, WalkersFindAPathExactlyWhenAStarDoesOnRandomWorlds) {
  std::mt19937_64 random(21);
  Tally tally;
  const int worlds = sanitized_build() ? 4 : 12;
  for (int trial = 0; trial < worlds; ++trial) {
    const int size_x = 14 + static_cast<int>(random() % 20);
    const int size_z = 14 + static_cast<int>(random() % 20);
    const int size_y = 5 + static_cast<int>(random() % 6);
    const VoxelWorld world = random_floor_world(random, size_x, size_y, size_z, 12 + static_cast<int>(random() % 25));
    MovementProfile profile = MovementProfile::walker();
    profile.agent_height = 1 + trial % 2;
    profile.walk_directions = trial % 3 == 0 ? 4 : 8;
    profile.jump_distance = trial % 4;
    profile.max_fall = 1 + trial % 5;
    profile.swim = trial % 2 == 0;
    VoxelHierarchyOptions options;
    options.cluster_size = 4 + trial % 5;
    options.cluster_height = trial % 3 == 2 ? 4 : 0;  // some with clusters stacked in height
    options.long_entrance = 1 + trial % 7;
    compare_with_astar(world, profile, options, 60, random, tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tally.found, 0);
  EXPECT_GT(tally.unreachable, 0);  // the random worlds have islands: the no-path answers are checked too
}

TEST(VoxelHierarchy, FlyersFindAPathExactlyWhenAStarDoesOnRandomWorlds) {
  std::mt19937_64 random(5);
  Tally tally;
  const int worlds = sanitized_build() ? 3 : 8;
  for (int trial = 0; trial < worlds; ++trial) {
    const int size = 10 + static_cast<int>(random() % 12);
    const int solid = 30 + static_cast<int>(random() % 35);  // dense ones fall apart into islands
    const VoxelWorld world = VoxelWorld::from_function(size, size - 2, size + 3, [&](int, int, int) {
      return static_cast<int>(random() % 100) < solid ? BlockKind::solid : BlockKind::air;
    });
    MovementProfile profile = MovementProfile::flyer();
    profile.fly_cost = trial % 2 == 0 ? 1.0 : 2.5;
    VoxelHierarchyOptions options;
    options.cluster_size = 4 + trial % 4;
    options.cluster_height = trial % 2 == 0 ? 0 : 5;
    compare_with_astar(world, profile, options, 60, random, tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tally.found, 0);
  EXPECT_GT(tally.unreachable, 0);
}

TEST(VoxelHierarchy, FlyersCrossOpenSkyAndWalledClusters) {
  // Mostly air: a floor, a few walls with holes and random pillars, so that most clusters hold
  // no solid block (open: octile intra-edges, no stored places) and some do.
  std::mt19937_64 random(17);
  Tally tally;
  for (int trial = 0; trial < (sanitized_build() ? 2 : 5); ++trial) {
    const int size = 24 + static_cast<int>(random() % 16);
    const int wall_x = 5 + static_cast<int>(random() % 10);
    const VoxelWorld world = VoxelWorld::from_function(size, 20, size, [&](int x, int y, int z) {
      if (y == 0) return BlockKind::solid;
      if (x == wall_x && !(y > 10 && z % 7 == 3)) return BlockKind::solid;  // a wall with a few holes up high
      if (x % 9 == 4 && z % 9 == 4 && y < 8) return BlockKind::solid;       // pillars
      return random() % 400 == 0 ? BlockKind::solid : BlockKind::air;
    });
    VoxelHierarchyOptions options;
    options.cluster_size = 4 + trial % 3;
    const VoxelHierarchy probe(world, MovementProfile::flyer(), options);
    EXPECT_GT(probe.stats().open_clusters, 0u);
    EXPECT_LT(probe.stats().open_clusters, probe.stats().clusters);
    compare_with_astar(world, MovementProfile::flyer(), options, 50, random, tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tally.found, 0);
}

TEST(VoxelHierarchy, GeneratedTerrainPathsStayCloseToOptimal) {
  VoxelWorldGeneratorOptions generator;
  generator.size_x = sanitized_build() ? 64 : 128;
  generator.size_y = 48;
  generator.size_z = generator.size_x;
  generator.seed = 3;
  generator.feature_size = 48.0;
  const VoxelWorld world = generate_voxel_world(generator);
  std::mt19937_64 random(8);
  Tally tally;
  VoxelHierarchyOptions options;
  options.build_threads = 2;
  compare_with_astar(world, MovementProfile::walker(), options, sanitized_build() ? 20 : 80, random, tally);
  ASSERT_GT(tally.found, 0);
  // HPA* on grids stays within about 1 % of optimal (Botea et al. report a few percent before
  // smoothing); with whole-height clusters on terrain the same holds on average.
  EXPECT_LT(tally.cost_ratio_sum / tally.found, 1.10);
}

TEST(VoxelHierarchy, TheBuildDoesNotDependOnItsThreads) {
  std::mt19937_64 random(4);
  const VoxelWorld world = random_floor_world(random, 40, 8, 36, 20);
  VoxelHierarchyOptions one;
  one.cluster_size = 8;
  VoxelHierarchyOptions two = one;
  two.build_threads = 2;
  std::size_t reports = 0;
  two.progress = [&](std::size_t done, std::size_t total) {
    EXPECT_LE(done, total);
    ++reports;
  };
  const VoxelHierarchy a(world, MovementProfile::walker(), one);
  const VoxelHierarchy b(world, MovementProfile::walker(), two);
  EXPECT_EQ(reports, 3 * b.cluster_count());
  ASSERT_EQ(a.node_count(), b.node_count());
  EXPECT_EQ(a.stats().transitions, b.stats().transitions);
  EXPECT_EQ(a.stats().entrances, b.stats().entrances);
  EXPECT_GT(a.stats().intra_edges, 0u);
  EXPECT_GT(a.stats().inter_edges, 0u);
  for (std::uint32_t n = 0; n < a.node_count(); ++n) {
    ASSERT_EQ(a.node_place(n), b.node_place(n));
    ASSERT_EQ(a.edges(n).size(), b.edges(n).size());
    for (std::size_t e = 0; e < a.edges(n).size(); ++e) {
      EXPECT_EQ(a.edges(n)[e].to, b.edges(n)[e].to);
      EXPECT_EQ(a.edges(n)[e].cost, b.edges(n)[e].cost);
      EXPECT_EQ(a.edges(n)[e].inter, b.edges(n)[e].inter);
    }
  }
  // Every node is a place of its cluster; every inter-edge joins two clusters.
  for (std::uint32_t n = 0; n < a.node_count(); ++n) {
    const VoxelCoord at = world.coord_of(a.node_place(n));
    const int cluster = a.cluster_of(at);
    EXPECT_GE(n, a.cluster_first_node(cluster));
    EXPECT_LT(n, a.cluster_end_node(cluster));
    EXPECT_TRUE(voxel_place_allowed(world, MovementProfile::walker(), at));
    for (const VoxelHierarchy::Edge& edge : a.edges(n))
      EXPECT_EQ(edge.inter, a.cluster_of(world.coord_of(a.node_place(edge.to))) != cluster);
  }
}

TEST(VoxelHierarchy, OneWayFallsAreFollowedOnlyDownwards) {
  // A high shelf (y = 6) to the west of x = 8, a low floor (y = 1) to the east: the walker
  // drops off the shelf's edge (a fall of 5 within max_fall 6) but cannot climb back.
  const VoxelWorld world = VoxelWorld::from_function(16, 10, 4, [](int x, int y, int) {
    if (y == 0) return BlockKind::solid;
    return x < 8 && y <= 5 ? BlockKind::solid : BlockKind::air;
  });
  MovementProfile profile = MovementProfile::walker();
  profile.max_fall = 6;
  VoxelHierarchyOptions options;
  options.cluster_size = 4;
  const VoxelHierarchy hierarchy(world, profile, options);
  VoxelHierarchyQuery pathfinder(hierarchy);
  const PathResult down = pathfinder.find_path({1, 6, 1}, {14, 1, 2});
  ASSERT_EQ(down.status, SearchStatus::found) << down.message;
  double cost = 0.0;
  EXPECT_EQ(check_walk_path(world, profile, coords_of(world, down), cost), "");
  const PathResult up = pathfinder.find_path({14, 1, 2}, {1, 6, 1});
  EXPECT_EQ(up.status, SearchStatus::no_path);
}

TEST(VoxelHierarchy, BadQueriesAndEditedWorldsAreRefusedInWords) {
  VoxelWorld world = VoxelWorld::from_function(20, 6, 20, [](int, int y, int) { return y == 0 ? BlockKind::solid : BlockKind::air; });
  VoxelHierarchyOptions options;
  options.cluster_size = 4;
  VoxelHierarchy hierarchy(world, MovementProfile::walker(), options);
  VoxelHierarchyQuery pathfinder(hierarchy);
  EXPECT_EQ(pathfinder.find_path({1, 1, 1}, {18, 1, 18}).status, SearchStatus::found);
  const PathResult in_the_air = pathfinder.find_path({1, 3, 1}, {18, 1, 18});
  EXPECT_EQ(in_the_air.status, SearchStatus::invalid_input);
  EXPECT_EQ(in_the_air.message, "start (1,3,1): the block below (1,2,1) is air, so nothing holds the agent");
  const PathResult outside = pathfinder.find_path({1, 1, 1}, {30, 1, 1});
  EXPECT_EQ(outside.status, SearchStatus::invalid_input);
  EXPECT_EQ(outside.message, "goal (30,1,1) is outside the world (size 20x6x20)");
  const PathResult same = pathfinder.find_path({3, 1, 3}, {3, 1, 3});
  EXPECT_EQ(same.status, SearchStatus::found);
  EXPECT_EQ(same.nodes.size(), 1u);
  EXPECT_EQ(same.cost, 0.0);

  // A wall across the world after the build: refused until rebuilt, then no path.
  for (int x = 0; x < 20; ++x)
    for (int y = 1; y < 6; ++y) world.set_block(x, y, 10, BlockKind::solid);
  const PathResult stale = pathfinder.find_path({1, 1, 1}, {18, 1, 18});
  EXPECT_EQ(stale.status, SearchStatus::invalid_input);
  EXPECT_NE(stale.message.find("edited since its hierarchy was built"), std::string::npos) << stale.message;
  hierarchy.rebuild();
  EXPECT_EQ(pathfinder.find_path({1, 1, 1}, {18, 1, 18}).status, SearchStatus::no_path);
  EXPECT_EQ(pathfinder.find_path({1, 1, 1}, {18, 1, 8}).status, SearchStatus::found);

  auto refused = [&](VoxelHierarchyOptions bad) {
    try {
      const VoxelHierarchy h(world, MovementProfile::walker(), bad);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  VoxelHierarchyOptions bad;
  bad.cluster_size = 2;
  EXPECT_EQ(refused(bad), "voxel hierarchy: cluster_size must be 4 to 64, not 2");
  bad = {};
  bad.cluster_height = 3;
  EXPECT_EQ(refused(bad), "voxel hierarchy: cluster_height must be 0 (automatic) or 4 to 256, not 3");
  bad = {};
  bad.build_threads = 0;
  EXPECT_EQ(refused(bad), "voxel hierarchy: build_threads must be 1 to 64, not 0");
  VoxelHierarchyOptions few;
  few.max_places = 10;
  try {
    const VoxelHierarchy h(world, MovementProfile::flyer(), few);
    ADD_FAILURE() << "built a hierarchy over more places than max_places";
  } catch (const std::length_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "voxel hierarchy: the agent has more than 10 places to store in this world (max_places); a flyer's "
              "places are the blocks that are not solid, stored for the clusters that hold a solid block");
  }
  MovementProfile broken = MovementProfile::walker();
  broken.agent_height = 0;
  EXPECT_THROW(VoxelHierarchy(world, broken), std::invalid_argument);
}

TEST(VoxelHierarchy, ThePathfinderRunsItAsAnAlgorithm) {
  std::mt19937_64 random(12);
  const VoxelWorld world = random_floor_world(random, 30, 7, 30, 15);
  const VoxelWorld other = random_floor_world(random, 30, 7, 30, 15);
  VoxelHierarchyOptions options;
  options.cluster_size = 6;
  const auto hierarchy = std::make_shared<const VoxelHierarchy>(world, MovementProfile::walker(), options);
  VoxelQuery pathfinder(world);
  VoxelHierarchyQuery direct(*hierarchy);
  VoxelSearchOptions hpa;
  hpa.algorithm = VoxelAlgorithm::hierarchical;
  EXPECT_EQ(parse_voxel_algorithm("hpa"), VoxelAlgorithm::hierarchical);
  EXPECT_EQ(to_string(VoxelAlgorithm::hierarchical), "hpa");

  const std::vector<VoxelCoord> places = all_voxel_places(world, MovementProfile::walker());
  const VoxelCoord start = places.front();
  const VoxelCoord goal = places.back();
  const PathResult without = pathfinder.find_path(start, goal, hpa);
  EXPECT_EQ(without.status, SearchStatus::invalid_input);
  EXPECT_NE(without.message.find("needs a hierarchy"), std::string::npos) << without.message;

  pathfinder.set_hierarchy(hierarchy);
  int compared = 0;
  for (int q = 0; q < 40; ++q) {
    const VoxelCoord a = places[random() % places.size()];
    const VoxelCoord b = places[random() % places.size()];
    const PathResult through_pathfinder = pathfinder.find_path(a, b, hpa);
    const PathResult expected = direct.find_path(a, b);
    ASSERT_EQ(through_pathfinder.status, expected.status);
    EXPECT_EQ(through_pathfinder.nodes, expected.nodes);
    EXPECT_EQ(through_pathfinder.cost, expected.cost);
    EXPECT_EQ(through_pathfinder.points.size(), expected.nodes.size());
    compared += expected.found() ? 1 : 0;
    // Stepped, the query ends as the whole one.
    SearchStatus status = pathfinder.begin(a, b, hpa);
    while (status == SearchStatus::in_progress) status = pathfinder.step(10);
    EXPECT_EQ(status, expected.status);
    EXPECT_EQ(pathfinder.result().nodes, expected.nodes);
  }
  EXPECT_GT(compared, 0);
  EXPECT_GT(pathfinder.search_memory_bytes(), 0u);

  VoxelSearchOptions flyer = hpa;
  flyer.profile = MovementProfile::flyer();
  const PathResult other_profile = pathfinder.find_path(start, start, flyer);
  EXPECT_EQ(other_profile.status, SearchStatus::invalid_input);
  EXPECT_NE(other_profile.message.find("another movement profile"), std::string::npos) << other_profile.message;
  VoxelQuery elsewhere(other);
  elsewhere.set_hierarchy(hierarchy);
  const PathResult other_world = elsewhere.find_path(start, start, hpa);
  EXPECT_EQ(other_world.status, SearchStatus::invalid_input);
  EXPECT_NE(other_world.message.find("another world"), std::string::npos) << other_world.message;
}

// ---- Stepping and budgets (the query contract every search keeps, query_object.hpp).

using testing::BudgetCase;
using testing::expect_bad_budget_refused;
using testing::expect_every_budget_stops_at_the_start;
using testing::expect_same_result;
using testing::stepped_result;

/// A voxel benchmark world (Warframe's maps, for flyers) and a sample of its scenario's queries;
/// no world when the data is missing.
struct SampledVoxelScenario {
  std::optional<VoxelWorld> world;
  std::vector<VoxelScenarioQuery> queries;
};

SampledVoxelScenario sample_voxel_scenario(const char* name, std::size_t count) {
  SampledVoxelScenario sample;
  const std::filesystem::path path = data_directory() / "voxel" / "warframe" / name;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return sample;
  sample.world.emplace(read_voxel_benchmark_map(voxel_scenario_map_path(path)));
  const VoxelScenario scenario = read_voxel_scenario(path);
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / count);
  for (std::size_t i = 0; i < scenario.queries.size() && sample.queries.size() < count; i += stride)
    sample.queries.push_back(scenario.queries[i]);
  return sample;
}

void skip_without_voxel_data() {
  if (data_required()) FAIL() << "no voxel benchmark data under " << (data_directory() / "voxel" / "warframe");
  GTEST_SKIP() << "no voxel benchmark data (set WAYFINDER_DATA_DIR to the shared data folder)";
}

TEST(VoxelHierarchy, SteppedQueriesEndAsWholeOnesOnABenchmarkWorld) {
  const SampledVoxelScenario sample = sample_voxel_scenario("Simple.3dmap.3dscen", sanitized_build() ? 6 : 30);
  if (!sample.world) return skip_without_voxel_data();
  const VoxelHierarchy hierarchy(*sample.world, MovementProfile::flyer());
  VoxelHierarchyQuery whole_query(hierarchy);
  VoxelHierarchyQuery step_query(hierarchy);
  std::size_t found = 0;
  for (const VoxelScenarioQuery& q : sample.queries) {
    const PathResult whole = whole_query.find_path(q.start, q.goal);
    const std::string where = voxel_coord_text(q.start) + " -> " + voxel_coord_text(q.goal);
    ASSERT_TRUE(whole.status == SearchStatus::found || whole.status == SearchStatus::no_path) << where << whole.message;
    found += whole.found() ? 1 : 0;
    for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}})
      expect_same_result(whole, stepped_result(step_query, q.start, q.goal, {}, step), where + " step " + std::to_string(step));
  }
  EXPECT_GT(found * 2, sample.queries.size());
}

TEST(VoxelHierarchy, SteppedQueriesEndAsWholeOnesForWalkers) {
  std::mt19937_64 random(31);
  const VoxelWorld world = random_floor_world(random, 30, 8, 30, 15);
  VoxelHierarchyOptions options;
  options.cluster_size = 6;
  const VoxelHierarchy hierarchy(world, MovementProfile::walker(), options);
  VoxelHierarchyQuery whole_query(hierarchy);
  VoxelHierarchyQuery step_query(hierarchy);
  const std::vector<VoxelCoord> places = all_voxel_places(world, MovementProfile::walker());
  for (int i = 0; i < 30; ++i) {
    const VoxelCoord start = places[random() % places.size()];
    const VoxelCoord goal = places[random() % places.size()];
    const PathResult whole = whole_query.find_path(start, goal);
    const std::string where = voxel_coord_text(start) + " -> " + voxel_coord_text(goal);
    for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}})
      expect_same_result(whole, stepped_result(step_query, start, goal, {}, step), where + " step " + std::to_string(step));
  }
}

TEST(VoxelHierarchy, VoxelQueryStepsTheHierarchy) {
  const SampledVoxelScenario sample = sample_voxel_scenario("Simple.3dmap.3dscen", 8);
  if (!sample.world) return skip_without_voxel_data();
  const VoxelWorld& world = *sample.world;
  const auto hierarchy = std::make_shared<const VoxelHierarchy>(world, MovementProfile::flyer());
  VoxelQuery query(world, MovementProfile::flyer());
  query.set_hierarchy(hierarchy);
  VoxelHierarchyQuery direct(*hierarchy);
  VoxelSearchOptions hpa;
  hpa.algorithm = VoxelAlgorithm::hierarchical;
  for (const VoxelScenarioQuery& q : sample.queries) {
    const PathResult whole = direct.find_path(q.start, q.goal);
    if (!whole.found() || whole.stats.expanded < 10) continue;
    const std::string where = voxel_coord_text(q.start) + " -> " + voxel_coord_text(q.goal);
    // Paused by expansions, then by time: the same path in the end.
    ASSERT_EQ(query.begin(q.start, q.goal, hpa), SearchStatus::in_progress) << where;
    std::size_t steps = 0;
    while (query.step(StepBudget::expansions(5)) == SearchStatus::in_progress) ++steps;
    EXPECT_EQ(steps, (whole.stats.expanded - 1) / 5) << where;  // five expansions a step
    expect_same_result(whole, query.result(), where);
    ASSERT_EQ(query.begin(q.start, q.goal, hpa), SearchStatus::in_progress) << where;
    while (query.step(StepBudget::time(std::chrono::microseconds(20))) == SearchStatus::in_progress) {
    }
    expect_same_result(whole, query.result(), where + " timed");
  }
}

TEST(VoxelHierarchy, EveryBudgetFieldStopsTheQuery) {
  const SampledVoxelScenario sample = sample_voxel_scenario("Simple.3dmap.3dscen", 12);
  if (!sample.world) return skip_without_voxel_data();
  const VoxelHierarchy hierarchy(*sample.world, MovementProfile::flyer());
  VoxelHierarchyQuery query(hierarchy);
  VoxelQuery pathfinder(*sample.world, MovementProfile::flyer());
  pathfinder.set_hierarchy(std::shared_ptr<const VoxelHierarchy>(&hierarchy, [](const VoxelHierarchy*) {}));
  std::size_t checked = 0;
  for (const VoxelScenarioQuery& q : sample.queries) {
    const PathResult whole = query.find_path(q.start, q.goal);
    if (!whole.found() || whole.stats.expanded < 20 || whole.cost < 10.0) continue;
    ++checked;
    const std::string where = voxel_coord_text(q.start) + " -> " + voxel_coord_text(q.goal);
    expect_every_budget_stops_at_the_start<QueryOptions>(
        query, q.start, q.goal, whole, sample.world->node_of(q.start), where,
        [&](const BudgetCase& c, bool partial, SearchStatus expected) {
          // Through VoxelQuery, the same stop.
          VoxelSearchOptions hpa;
          hpa.algorithm = VoxelAlgorithm::hierarchical;
          hpa.budget = c.budget;
          hpa.return_partial = partial;
          const PathResult through = pathfinder.find_path(q.start, q.goal, hpa);
          EXPECT_EQ(through.status, expected) << where << " " << c.name << " through VoxelQuery";
          EXPECT_EQ(through.reason, c.reason) << where << " " << c.name << " through VoxelQuery";
        });
    // A budget the query fits in changes nothing.
    QueryOptions roomy;
    roomy.budget.max_expansions = whole.stats.expanded;
    roomy.budget.max_time = std::chrono::seconds(60);
    roomy.budget.max_memory_bytes = std::size_t{1} << 32;
    expect_same_result(whole, query.find_path(q.start, q.goal, roomy), where + " roomy");
    // Nor does a max_cost above the path's cost change the answer; it may spare work: between
    // neighbouring clusters the abstract search stops at max_cost when the direct path is cheaper.
    roomy.budget.max_cost = whole.cost * 1.5;
    const PathResult bounded = query.find_path(q.start, q.goal, roomy);
    EXPECT_EQ(bounded.status, whole.status) << where << " roomy max_cost";
    EXPECT_EQ(bounded.nodes, whole.nodes) << where << " roomy max_cost";
    EXPECT_EQ(bounded.cost, whole.cost) << where << " roomy max_cost";
    EXPECT_LE(bounded.stats.expanded, whole.stats.expanded) << where << " roomy max_cost";
  }
  EXPECT_GT(checked, 3u);
  expect_bad_budget_refused<QueryOptions>(query, sample.queries.front().start, sample.queries.front().goal);
}

}  // namespace
}  // namespace wayfinder
