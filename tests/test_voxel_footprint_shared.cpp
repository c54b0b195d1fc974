// The footprint world of wide agents as shared derived data (VoxelFootprint, voxel_footprint.hpp).
//
// - VoxelFootprint::update after random seeded edits (single blocks of every kind, many on the
//   world's faces and corners) equals a fresh footprint_world block for block, and the footprint
//   world's own change log lists exactly the footprint blocks that changed; a world log that no
//   longer reaches back gives the same.
// - Queries given one shared footprint (VoxelQuery::set_footprint) give the same statuses,
//   paths, costs, node ids and expansions as queries that make their own, before and after edits.
// - Footprints that do not fit are refused by name: width 1, a world too small, another world,
//   another width or kind of agent, a world edited since the footprint's update.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "query_test_support.hpp"
#include "voxel_test_support.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;
using wayfinder::testing::result_difference;

MovementProfile wide(int width, bool fly) {
  MovementProfile profile = fly ? MovementProfile::flyer() : MovementProfile::walker();
  profile.agent_width = width;
  return profile;
}

std::string agent_text(const MovementProfile& profile) {
  return std::string(profile.fly ? "flyer" : "walker") + " of width " + std::to_string(profile.agent_width);
}

/// Empty when `footprint` equals a fresh footprint world of its source, block for block.
std::string difference_from_fresh(const VoxelFootprint& footprint, const MovementProfile& profile) {
  const VoxelWorld fresh = footprint_world(footprint.source_world(), profile);
  const VoxelWorld& kept = footprint.world();
  if (kept.size_x() != fresh.size_x() || kept.size_y() != fresh.size_y() || kept.size_z() != fresh.size_z())
    return "sizes differ";
  for (int y = 0; y < fresh.size_y(); ++y)
    for (int z = 0; z < fresh.size_z(); ++z)
      for (int x = 0; x < fresh.size_x(); ++x)
        if (kept.block(x, y, z) != fresh.block(x, y, z))
          return "block " + voxel_coord_text({x, y, z}) + " is " + std::to_string(static_cast<int>(kept.block(x, y, z))) +
                 ", a fresh footprint world's " + std::to_string(static_cast<int>(fresh.block(x, y, z)));
  return "";
}

/// The positions where two worlds of one size differ.
std::set<std::tuple<int, int, int>> differing_blocks(const VoxelWorld& a, const VoxelWorld& b) {
  std::set<std::tuple<int, int, int>> differing;
  for (int y = 0; y < a.size_y(); ++y)
    for (int z = 0; z < a.size_z(); ++z)
      for (int x = 0; x < a.size_x(); ++x)
        if (a.block(x, y, z) != b.block(x, y, z)) differing.insert({x, y, z});
  return differing;
}

/// A random block, a third of them on a face or an edge of the world, of a random kind.
void random_edit(VoxelWorld& world, std::mt19937_64& random) {
  auto pick = [&](int extent) {
    const auto roll = random() % 6;
    if (roll == 0) return 0;
    if (roll == 1) return extent - 1;
    return static_cast<int>(random() % static_cast<unsigned>(extent));
  };
  static constexpr BlockKind kinds[] = {BlockKind::solid, BlockKind::air, BlockKind::solid, BlockKind::air,
                                        BlockKind::water, BlockKind::ladder};
  world.set_block(pick(world.size_x()), pick(world.size_y()), pick(world.size_z()), kinds[random() % 6]);
}

TEST(VoxelFootprintShared, UpdateAfterRandomEditsEqualsAFreshFootprintWorld) {
  for (const bool fly : {false, true})
    for (const int width : {2, 3}) {
      const MovementProfile profile = wide(width, fly);
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const std::string where = agent_text(profile) + ", seed " + std::to_string(seed);
        std::mt19937_64 random(seed * 13 + static_cast<std::uint64_t>(width) + (fly ? 100 : 0));
        VoxelWorld world = random_floor_world(random, 19 + static_cast<int>(seed), 9, 17, fly ? 3 : 20);
        VoxelFootprint footprint(world, profile);
        EXPECT_EQ(footprint.revision(), world.revision()) << where;
        EXPECT_EQ(footprint.world().revision(), 0u) << where;
        ASSERT_EQ(difference_from_fresh(footprint, profile), "") << where;
        std::size_t changed = 0;
        for (int round = 0; round < 12; ++round) {
          const std::string at = where + ", round " + std::to_string(round);
          const VoxelWorld before = footprint.world();
          const int edits = 1 + static_cast<int>(random() % 12);
          for (int e = 0; e < edits; ++e) random_edit(world, random);
          EXPECT_EQ(footprint.current(), world.revision() == footprint.revision()) << at;
          const std::size_t count = footprint.update();
          changed += count;
          ASSERT_TRUE(footprint.current()) << at;
          ASSERT_EQ(difference_from_fresh(footprint, profile), "") << at;
          // The footprint world's own log lists exactly the footprint blocks that changed.
          const std::set<std::tuple<int, int, int>> differing = differing_blocks(before, footprint.world());
          EXPECT_EQ(count, differing.size()) << at;
          EXPECT_EQ(footprint.world().revision(), before.revision() + count) << at;
          const auto logged = footprint.world().changes_since(before.revision());
          ASSERT_TRUE(logged.has_value()) << at;
          std::set<std::tuple<int, int, int>> logged_blocks;
          for (const VoxelBlockChange& change : *logged) logged_blocks.insert({change.at.x, change.at.y, change.at.z});
          EXPECT_EQ(logged_blocks, differing) << at;
        }
        EXPECT_GT(changed, 0u) << where << ": the edits never reached the footprint world";
        EXPECT_EQ(footprint.update(), 0u) << where << ": a current footprint has nothing to do";
      }
    }
}

TEST(VoxelFootprintShared, ALogThatNoLongerReachesBackRecomputesEveryBlock) {
  for (const bool fly : {false, true}) {
    const MovementProfile profile = wide(2, fly);
    std::mt19937_64 random(fly ? 7 : 8);
    VoxelWorld world = random_floor_world(random, 20, 8, 20, 25);
    world.set_block(5, 3, 5, BlockKind::air);
    world.set_block(6, 3, 5, BlockKind::air);
    world.set_block(9, 2, 9, BlockKind::air);
    world.set_block(0, 1, 0, BlockKind::air);
    world.forget_changes();
    VoxelFootprint footprint(world, profile);
    world.set_block(5, 3, 5, BlockKind::solid);
    world.set_block(6, 3, 5, BlockKind::ladder);
    footprint.update();  // at revision 2
    world.set_block(9, 2, 9, BlockKind::solid);
    world.forget_changes();  // revision 0 again, behind the footprint's
    world.set_block(0, 1, 0, BlockKind::solid);
    ASSERT_EQ(world.revision(), 1u);
    ASSERT_FALSE(footprint.current());
    const std::uint64_t before = footprint.world().revision();
    footprint.update();
    EXPECT_TRUE(footprint.current()) << agent_text(profile);
    EXPECT_EQ(difference_from_fresh(footprint, profile), "") << agent_text(profile);
    EXPECT_GT(footprint.world().revision(), before) << agent_text(profile) << ": the footprint's revision only grows";
  }
}

/// Random places of the agent, found on the world itself.
std::vector<VoxelCoord> some_places(const VoxelWorld& world, const MovementProfile& profile) {
  return all_voxel_places(world, profile);
}

TEST(VoxelFootprintShared, QueriesSharingOneFootprintGiveTheirOwnFootprintsPaths) {
  int found = 0;
  for (const bool fly : {false, true})
    for (const int width : {2, 3}) {
      const MovementProfile profile = wide(width, fly);
      std::mt19937_64 random(static_cast<std::uint64_t>(width) * 5 + (fly ? 1 : 0));
      VoxelWorld world = random_floor_world(random, 24, 10, 22, fly ? 4 : 15);
      auto shared = std::make_shared<VoxelFootprint>(world, profile);
      VoxelQuery own(world, profile);
      VoxelQuery first(world, profile);
      VoxelQuery second(world, MovementProfile::walker());  // the agent comes with each request
      first.set_footprint(shared);
      second.set_footprint(shared);
      EXPECT_EQ(first.footprint(), shared);
      std::vector<VoxelAlgorithm> algorithms = {VoxelAlgorithm::astar, VoxelAlgorithm::dijkstra,
                                                VoxelAlgorithm::weighted_astar, VoxelAlgorithm::greedy_best_first};
      if (fly) algorithms.push_back(VoxelAlgorithm::jump_point);
      for (int round = 0; round < 3; ++round) {
        const std::vector<VoxelCoord> places = some_places(world, profile);
        ASSERT_GT(places.size(), 20u) << agent_text(profile);
        for (int i = 0; i < 24; ++i) {
          VoxelSearchOptions options;
          options.algorithm = algorithms[static_cast<std::size_t>(i) % algorithms.size()];
          const VoxelCoord start = places[random() % places.size()];
          const VoxelCoord goal = places[random() % places.size()];
          const std::string where = agent_text(profile) + ", round " + std::to_string(round) + ", " +
                                    std::string(to_string(options.algorithm)) + " from " + voxel_coord_text(start) +
                                    " to " + voxel_coord_text(goal);
          const PathResult expected = own.find_path(start, goal, options);
          ASSERT_TRUE(expected.status == SearchStatus::found || expected.status == SearchStatus::no_path)
              << where << ": " << expected.message;
          found += expected.found() ? 1 : 0;
          EXPECT_EQ(result_difference(expected, first.find_path(start, goal, options)), "") << where;
          options.profile = profile;
          EXPECT_EQ(result_difference(expected, second.find_path(start, goal, options)), "") << where;
          if (expected.found()) {
            const std::vector<VoxelMove> a = own.moves_of(expected);
            const std::vector<VoxelMove> b = first.moves_of(expected);
            ASSERT_EQ(a.size(), b.size()) << where;
            for (std::size_t k = 0; k < a.size(); ++k) {
              EXPECT_EQ(a[k].kind, b[k].kind) << where << ", move " << k;
              EXPECT_EQ(a[k].cost, b[k].cost) << where << ", move " << k;
            }
          }
        }
        // Edits: the query's own footprint follows them; the shared one once updated.
        for (int e = 0; e < 15; ++e) random_edit(world, random);
        shared->update();
      }
    }
  EXPECT_GT(found, 100) << "too few reachable pairs to prove anything";
}

TEST(VoxelFootprintShared, FootprintsThatDoNotFitAreRefusedByName) {
  std::mt19937_64 random(3);
  VoxelWorld world = random_floor_world(random, 12, 6, 12, 10);
  const VoxelWorld other = world;
  auto expect_thrown = [](const std::function<void()>& build, const std::string& words) {
    try {
      build();
      ADD_FAILURE() << "built, expected a refusal with \"" << words << "\"";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  };
  expect_thrown([&] { VoxelFootprint footprint(world, wide(1, false)); }, "agent_width must be 2 to 3, got 1");
  expect_thrown([&] { VoxelFootprint footprint(world, wide(4, true)); }, "agent_width must be 2 to 3, got 4");
  const VoxelWorld narrow(2, 4, 5);
  expect_thrown([&] { VoxelFootprint footprint(narrow, wide(3, false)); }, "narrower than the agent (3 blocks wide)");

  auto walker2 = std::make_shared<VoxelFootprint>(world, wide(2, false));
  VoxelQuery query(world, wide(2, false));
  query.set_footprint(walker2);
  const std::vector<VoxelCoord> places = all_voxel_places(world, wide(3, true));
  ASSERT_GT(places.size(), 2u);
  const VoxelCoord start = places.front();
  const VoxelCoord goal = places.back();
  auto refusal = [&](const MovementProfile& profile, VoxelAlgorithm algorithm = VoxelAlgorithm::astar) {
    VoxelSearchOptions options;
    options.profile = profile;
    options.algorithm = algorithm;
    const std::optional<std::string> problem = query.options_problem(options);
    const PathResult result = query.find_path(start, goal, options);
    if (problem) {
      EXPECT_EQ(result.status, SearchStatus::invalid_input) << *problem;
      EXPECT_NE(result.message.find(*problem), std::string::npos) << result.message;
    }
    return problem.value_or("");
  };
  EXPECT_NE(refusal(wide(3, false)).find("built for agents 2 blocks wide, not 3: build one for this agent_width"),
            std::string::npos);
  EXPECT_NE(refusal(wide(2, true)).find("built for walkers, not flyers: build one for this kind of agent"), std::string::npos);
  EXPECT_EQ(refusal(wide(1, true)), "") << "one-column agents do not read the footprint";
  EXPECT_EQ(refusal(wide(2, false)), "");

  world.set_block(6, 4, 6, BlockKind::solid);
  EXPECT_NE(refusal(wide(2, false)).find("the footprint given to set_footprint is behind its world: the world was edited "
                                         "since the footprint was built or updated (footprint at revision 0, world at 1): "
                                         "call VoxelFootprint::update() first"),
            std::string::npos);
  walker2->update();
  EXPECT_EQ(refusal(wide(2, false)), "");

  query.set_footprint(std::make_shared<const VoxelFootprint>(other, wide(2, false)));
  EXPECT_NE(refusal(wide(2, false)).find("the footprint given to set_footprint was built for another world"),
            std::string::npos);
  query.set_footprint(nullptr);
  EXPECT_EQ(query.footprint(), nullptr);
  EXPECT_EQ(refusal(wide(2, false)), "") << "without a shared footprint the query makes its own";
}

}  // namespace
}  // namespace wayfinder
