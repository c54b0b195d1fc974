// The generated worlds (voxel_world_generator.hpp): deterministic from the seed, the size and
// layers asked for (bedrock, ground up to the surface, caves below it, water in the valleys),
// bad options refused in words, an honest memory estimate, and walking and flying answers on a
// generated world checked move by move and against Dijkstra's costs.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <tuple>
#include <limits>
#include <stdexcept>

#include "voxel_test_support.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace wayfinder {
namespace {

VoxelWorldGeneratorOptions small_options(std::uint64_t seed = 7) {
  VoxelWorldGeneratorOptions options;
  options.size_x = 64;
  options.size_y = 32;
  options.size_z = 64;
  options.seed = seed;
  options.feature_size = 32.0;
  options.cave_size = 12.0;
  options.cave_width = 0.15;
  return options;
}

bool same_blocks(const VoxelWorld& a, const VoxelWorld& b) {
  if (a.size_x() != b.size_x() || a.size_y() != b.size_y() || a.size_z() != b.size_z()) return false;
  for (int y = 0; y < a.size_y(); ++y)
    for (int z = 0; z < a.size_z(); ++z)
      for (int x = 0; x < a.size_x(); ++x)
        if (a.block(x, y, z) != b.block(x, y, z)) return false;
  return true;
}

TEST(VoxelWorldGenerator, SameSeedSameWorldOtherSeedOtherWorld) {
  const VoxelWorld first = generate_voxel_world(small_options(7));
  const VoxelWorld again = generate_voxel_world(small_options(7));
  const VoxelWorld other = generate_voxel_world(small_options(8));
  EXPECT_TRUE(same_blocks(first, again));
  EXPECT_FALSE(same_blocks(first, other));
  EXPECT_EQ(first.revision(), 0u);  // building is not history
}

TEST(VoxelWorldGenerator, FixedSeedGivesTheSameWorldEverywhere) {
  // The noise is the project's own (splitmix64 hash, value noise), not a standard library
  // distribution: these numbers must not change with the compiler, the standard library or the
  // platform. A deliberate change of the generator changes them here.
  const VoxelWorldGeneratorOptions options = small_options(7);
  EXPECT_EQ(generated_surface_height(options, 0, 0), 12);
  EXPECT_EQ(generated_surface_height(options, 31, 17), 10);
  EXPECT_EQ(generated_surface_height(options, 63, 63), 11);
  const std::array<std::uint64_t, 4> counts = generate_voxel_world(options).block_counts();
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::air)], 85137u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::solid)], 45531u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::water)], 404u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::ladder)], 0u);
}

TEST(VoxelWorldGenerator, LayersBedrockGroundCavesWater) {
  const VoxelWorldGeneratorOptions options = small_options();
  const VoxelWorld world = generate_voxel_world(options);
  ASSERT_EQ(world.size_x(), 64);
  ASSERT_EQ(world.size_y(), 32);
  ASSERT_EQ(world.size_z(), 64);
  const int water_y = static_cast<int>(std::floor(options.water_level * options.size_y));
  int lowest = options.size_y;
  int highest = -1;
  std::uint64_t caved_columns = 0;  // air below a solid roof
  std::uint64_t water_blocks = 0;
  for (int z = 0; z < world.size_z(); ++z)
    for (int x = 0; x < world.size_x(); ++x) {
      const int surface = generated_surface_height(options, x, z);
      lowest = std::min(lowest, surface);
      highest = std::max(highest, surface);
      EXPECT_EQ(world.block(x, 0, z), BlockKind::solid) << "bedrock at " << x << "," << z;
      bool roof = false;
      bool cave = false;
      for (int y = surface; y >= 1; --y) {
        const BlockKind kind = world.block(x, y, z);
        ASSERT_TRUE(kind == BlockKind::solid || kind == BlockKind::air) << x << "," << y << "," << z;
        if (kind == BlockKind::solid) roof = true;
        if (kind == BlockKind::air && roof) cave = true;
      }
      if (cave) ++caved_columns;
      for (int y = surface + 1; y < world.size_y(); ++y) {
        const BlockKind expected = y <= water_y ? BlockKind::water : BlockKind::air;
        ASSERT_EQ(world.block(x, y, z), expected) << x << "," << y << "," << z;
        if (expected == BlockKind::water) ++water_blocks;
      }
    }
  EXPECT_GE(highest - lowest, 5) << "terrain should rise and fall";
  EXPECT_GT(caved_columns, 50u) << "caves: air under solid ground";
  EXPECT_GT(water_blocks, 0u);
  EXPECT_EQ(world.block_counts()[static_cast<std::size_t>(BlockKind::water)], water_blocks);

  VoxelWorldGeneratorOptions no_caves = options;
  no_caves.caves = false;
  no_caves.water_level = -1.0;
  const VoxelWorld solid = generate_voxel_world(no_caves);
  for (int z = 0; z < solid.size_z(); ++z)
    for (int x = 0; x < solid.size_x(); ++x) {
      const int surface = generated_surface_height(no_caves, x, z);
      EXPECT_EQ(solid.top_block(x, z), surface);
      for (int y = 0; y <= surface; ++y) ASSERT_EQ(solid.block(x, y, z), BlockKind::solid);
    }
  EXPECT_EQ(solid.block_counts()[static_cast<std::size_t>(BlockKind::water)], 0u);
}

TEST(VoxelWorldGenerator, MemoryEstimateIsAnUpperBound) {
  for (const auto& [sx, sy, sz] : {std::tuple{64, 32, 64}, std::tuple{200, 100, 150}, std::tuple{17, 3, 40}}) {
    VoxelWorldGeneratorOptions options = small_options();
    options.size_x = sx;
    options.size_y = sy;
    options.size_z = sz;
    const VoxelWorld world = generate_voxel_world(options);
    EXPECT_LE(world.memory_bytes(), estimate_generated_world_bytes(options)) << sx << "x" << sy << "x" << sz;
    // ... and not wildly above it: the estimate counts the chunks up to the highest surface.
    EXPECT_GE(world.memory_bytes() * 3, estimate_generated_world_bytes(options)) << sx << "x" << sy << "x" << sz;
  }
}

TEST(VoxelWorldGenerator, BadOptionsAreRefusedInWords) {
  auto problem_of = [](auto change) {
    VoxelWorldGeneratorOptions options = small_options();
    change(options);
    return voxel_generator_problem(options);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(problem_of([](auto&) {}), std::nullopt);
  EXPECT_NE(problem_of([](auto& o) { o.size_x = 0; }).value_or("").find("at least 1"), std::string::npos);
  EXPECT_NE(problem_of([](auto& o) { o.size_y = -5; }).value_or("").find("at least 1"), std::string::npos);
  EXPECT_NE(problem_of([](auto& o) { o.size_x = o.size_z = 4096, o.size_y = 4096; }).value_or("").find("too large"), std::string::npos);
  EXPECT_EQ(problem_of([nan](auto& o) { o.ground_level = nan; }), "ground level must be a fraction from 0 to 1");
  EXPECT_EQ(problem_of([](auto& o) { o.relief = 1.5; }), "relief must be a fraction from 0 to 1");
  EXPECT_EQ(problem_of([](auto& o) { o.feature_size = 0.0; }), "feature size must be a finite number of blocks, at least 1");
  EXPECT_EQ(problem_of([](auto& o) { o.feature_size = std::numeric_limits<double>::infinity(); }),
            "feature size must be a finite number of blocks, at least 1");
  EXPECT_EQ(problem_of([](auto& o) { o.octaves = 0; }), "octaves must be from 1 to 12");
  EXPECT_EQ(problem_of([](auto& o) { o.octaves = 13; }), "octaves must be from 1 to 12");
  EXPECT_EQ(problem_of([nan](auto& o) { o.cave_width = nan; }), "cave width must be a fraction from 0 to 1");
  EXPECT_EQ(problem_of([](auto& o) { o.cave_size = 0.5; }), "cave size must be a finite number of blocks, at least 1");
  EXPECT_EQ(problem_of([nan](auto& o) { o.water_level = nan; }),
            "water level must be a fraction from 0 to 1, or negative for no water");
  EXPECT_EQ(problem_of([](auto& o) { o.water_level = -1.0; }), std::nullopt);
  const std::string memory = problem_of([](auto& o) {
    o.size_x = o.size_z = 2048;
    o.size_y = 256;
    o.max_memory_bytes = std::size_t{64} << 20;
  }).value_or("");
  EXPECT_NE(memory.find("world size 2048 x 256 x 2048 could take"), std::string::npos) << memory;
  EXPECT_NE(memory.find("more than the limit of 64.0 MiB"), std::string::npos) << memory;

  VoxelWorldGeneratorOptions bad = small_options();
  bad.octaves = 0;
  EXPECT_THROW((void)generate_voxel_world(bad), std::invalid_argument);
}

TEST(VoxelWorldGenerator, TinyAndFlatWorldsAreBuilt) {
  VoxelWorldGeneratorOptions options = small_options();
  options.size_x = options.size_y = options.size_z = 1;
  const VoxelWorld one = generate_voxel_world(options);
  EXPECT_EQ(one.block(0, 0, 0), BlockKind::solid);
  options = small_options();
  options.relief = 0.0;
  options.caves = false;
  options.water_level = -1.0;
  const VoxelWorld flat = generate_voxel_world(options);
  const int level = static_cast<int>(std::lround(options.ground_level * options.size_y));
  for (int z = 0; z < flat.size_z(); ++z)
    for (int x = 0; x < flat.size_x(); ++x) ASSERT_EQ(flat.top_block(x, z), level);
}

// Answers on a generated world: every path legal move by move (the independent rules of
// voxel_test_support.hpp), its cost the sum of its moves, and A* as cheap as Dijkstra.
void check_answers(const MovementProfile& profile, std::size_t want_found) {
  const VoxelWorld world = generate_voxel_world(small_options(11));
  const VoxelPlaceSample sample = sample_voxel_places(world, profile, 10);
  ASSERT_EQ(sample.places.size(), 10u);
  VoxelQuery pathfinder(world, profile);
  VoxelSearchOptions astar;
  VoxelSearchOptions dijkstra;
  dijkstra.algorithm = VoxelAlgorithm::dijkstra;
  std::size_t found = 0;
  for (std::size_t i = 0; i < sample.places.size(); ++i)
    for (std::size_t j = 0; j < sample.places.size(); ++j) {
      if (i == j) continue;
      const VoxelCoord from = sample.places[i];
      const VoxelCoord to = sample.places[j];
      const PathResult a = pathfinder.find_path(from, to, astar);
      const PathResult d = pathfinder.find_path(from, to, dijkstra);
      ASSERT_EQ(a.status, d.status) << voxel_coord_text(from) << " -> " << voxel_coord_text(to);
      if (!a.found()) continue;
      ++found;
      EXPECT_NEAR(a.cost, d.cost, 1e-9 * std::max(1.0, d.cost));
      std::vector<VoxelCoord> path;
      for (const Point& p : a.points)
        path.push_back({static_cast<int>(p.x), static_cast<int>(p.y), static_cast<int>(p.z)});
      ASSERT_EQ(path.front(), from);
      ASSERT_EQ(path.back(), to);
      double cost = 0.0;
      const std::string problem = profile.fly ? voxel_testing::check_fly_path(world, path, cost)
                                              : voxel_testing::check_walk_path(world, profile, path, cost);
      ASSERT_EQ(problem, "") << voxel_coord_text(from) << " -> " << voxel_coord_text(to);
      EXPECT_NEAR(cost * (profile.fly ? profile.fly_cost : 1.0), a.cost, 1e-9 * std::max(1.0, a.cost));
    }
  EXPECT_GE(found, want_found);
}

TEST(VoxelWorldGenerator, WalkingPathsAreLegalAndOptimal) { check_answers(MovementProfile::walker(), 20); }

TEST(VoxelWorldGenerator, FlyingPathsAreLegalAndOptimal) { check_answers(MovementProfile::flyer(), 60); }

}  // namespace
}  // namespace wayfinder
