// Connected parts of voxel worlds: hand-made worlds with known parts (two floors apart, a drop
// that cannot be walked back, a wall a flyer cannot pass), and on generated worlds the property
// the parts promise: two places share a part exactly when the search finds a path both ways.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "wayfinder/voxel/voxel_connected_parts.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace wayfinder {
namespace {

/// A floor of solid blocks at y 0 from x = from_x to to_x (inclusive), z 0 to 2.
void add_floor(VoxelWorld& world, int from_x, int to_x, int y = 0) {
  for (int x = from_x; x <= to_x; ++x)
    for (int z = 0; z < 3; ++z) world.set_block(x, y, z, BlockKind::solid);
}

TEST(VoxelConnectedParts, TwoFloorsAGapApartAreTwoParts) {
  VoxelWorld world(12, 4, 3);
  add_floor(world, 0, 3);
  add_floor(world, 8, 11);  // four columns of air between: wider than the walker's jump
  const VoxelConnectedParts parts(world, MovementProfile::walker());
  ASSERT_EQ(parts.part_count(), 2u);
  EXPECT_EQ(parts.place_count(), 24u);
  EXPECT_EQ(parts.part_sizes(), (std::vector<std::uint64_t>{12, 12}));
  // Equal sizes: the part with the first place (by y, z, x) comes first.
  EXPECT_EQ(parts.part_of({0, 1, 0}), 0u);
  EXPECT_EQ(parts.part_of({3, 1, 2}), 0u);
  EXPECT_EQ(parts.part_of({8, 1, 0}), 1u);
  EXPECT_EQ(parts.part_of({5, 1, 0}), VoxelConnectedParts::no_part) << "air with nothing below is no place";
  EXPECT_EQ(parts.part_of({0, 0, 0}), VoxelConnectedParts::no_part) << "inside the floor";
  EXPECT_EQ(parts.part_of({-1, 1, 0}), VoxelConnectedParts::no_part) << "outside the world";
  const std::vector<VoxelCoord> second = parts.places_in(1);
  ASSERT_EQ(second.size(), 12u);
  EXPECT_EQ(second.front(), (VoxelCoord{8, 1, 0}));
  EXPECT_TRUE(parts.places_in(2).empty());
}

TEST(VoxelConnectedParts, ADropTheWalkerCannotClimbSplitsTheParts) {
  // A ledge three blocks above a floor: the walker falls off (max_fall 3) but cannot step or
  // jump back up, so the ledge reaches the floor one way only and the two are parts apart,
  // although a flood from the ledge would reach the floor.
  VoxelWorld world(8, 6, 3);
  add_floor(world, 0, 7);
  for (int y = 1; y <= 3; ++y) add_floor(world, 0, 2, y);
  const MovementProfile walker = MovementProfile::walker();
  const VoxelConnectedParts parts(world, walker);
  ASSERT_EQ(parts.part_count(), 2u);
  EXPECT_EQ(parts.part_sizes(), (std::vector<std::uint64_t>{15, 9}));
  const std::uint32_t floor = parts.part_of({5, 1, 1});
  const std::uint32_t ledge = parts.part_of({1, 4, 1});
  EXPECT_EQ(floor, 0u);
  EXPECT_EQ(ledge, 1u);
  VoxelQuery query(world, walker);
  EXPECT_TRUE(query.find_path({1, 4, 1}, {5, 1, 1}).found()) << "the walker falls off the ledge";
  EXPECT_FALSE(query.find_path({5, 1, 1}, {1, 4, 1}).found()) << "but cannot come back";

  // A walker that jumps three blocks high comes back up: one part.
  MovementProfile jumper = walker;
  jumper.jump_height = 3;
  EXPECT_EQ(VoxelConnectedParts(world, jumper).part_count(), 1u);
}

TEST(VoxelConnectedParts, AFlyerIsKeptApartByAWallOnly) {
  VoxelWorld world(5, 3, 3);
  for (int y = 0; y < 3; ++y)
    for (int z = 0; z < 3; ++z) world.set_block(2, y, z, BlockKind::solid);
  const VoxelConnectedParts parts(world, MovementProfile::flyer());
  EXPECT_EQ(parts.part_sizes(), (std::vector<std::uint64_t>{18, 18}));
  EXPECT_NE(parts.part_of({0, 0, 0}), parts.part_of({4, 2, 2}));
  world.set_block(2, 1, 1, BlockKind::air);  // a hole in the wall
  EXPECT_EQ(VoxelConnectedParts(world, MovementProfile::flyer()).part_count(), 1u);
}

TEST(VoxelConnectedParts, AWorldWithoutPlacesHasNoParts) {
  const VoxelWorld world(4, 4, 4);  // all air: nothing holds a walker
  const VoxelConnectedParts parts(world, MovementProfile::walker());
  EXPECT_EQ(parts.part_count(), 0u);
  EXPECT_EQ(parts.place_count(), 0u);
}

TEST(VoxelConnectedParts, ABadProfileIsRefused) {
  MovementProfile profile = MovementProfile::walker();
  profile.agent_height = 0;
  EXPECT_THROW(VoxelConnectedParts(VoxelWorld(4, 4, 4), profile), std::invalid_argument);
}

/// Two places share a part exactly when A* finds a path from the first to the second and back.
void expect_parts_agree_with_search(const VoxelWorld& world, const MovementProfile& profile) {
  const VoxelConnectedParts parts(world, profile);
  const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
  ASSERT_EQ(parts.place_count(), places.size());
  ASSERT_GT(parts.part_count(), 10u) << "the test needs a world of many parts";
  std::uint64_t sum = 0;
  for (const std::uint64_t size : parts.part_sizes()) sum += size;
  EXPECT_EQ(sum, places.size());
  VoxelQuery query(world, profile);
  std::mt19937_64 random(7);
  int same = 0;
  for (int i = 0; i < 300; ++i) {
    const VoxelCoord a = places[random() % places.size()];
    // Half the pairs from one part, so that both answers are tried often.
    const std::vector<VoxelCoord> own = i % 2 == 0 ? parts.places_in(parts.part_of(a)) : places;
    const VoxelCoord b = own[random() % own.size()];
    const bool both_ways = query.find_path(a, b).found() && query.find_path(b, a).found();
    EXPECT_EQ(parts.part_of(a) == parts.part_of(b), both_ways)
        << voxel_coord_text(a) << " and " << voxel_coord_text(b);
    same += both_ways ? 1 : 0;
  }
  EXPECT_GT(same, 100);
  EXPECT_LT(same, 300);
}

TEST(VoxelConnectedParts, WalkerPartsAgreeWithTheSearch) {
  // Steep hills with caves: ledges the walker drops from and pits it cannot leave.
  VoxelWorldGeneratorOptions options;
  options.size_x = 48;
  options.size_y = 32;
  options.size_z = 48;
  options.seed = 5;
  options.relief = 0.5;
  options.feature_size = 8.0;
  expect_parts_agree_with_search(generate_voxel_world(options), MovementProfile::walker());
}

TEST(VoxelConnectedParts, FlyerPartsAgreeWithTheSearch) {
  // Blocks solid at random, so that many pockets of air are closed off.
  std::mt19937_64 random(11);
  const VoxelWorld world = VoxelWorld::from_function(
      20, 20, 20, [&](int, int, int) { return random() % 100 < 45 ? BlockKind::solid : BlockKind::air; });
  expect_parts_agree_with_search(world, MovementProfile::flyer());
}

}  // namespace
}  // namespace wayfinder
