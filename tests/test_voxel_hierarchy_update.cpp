// The voxel hierarchy's local update (VoxelHierarchy::update): after random seeded edits (single
// blocks and walls added and removed, many of them on cluster borders and corners, so that they
// cut and join entrances), the updated hierarchy equals a fresh build of the edited world, node
// for node and edge for edge with the same costs, and its paths equal the fresh build's. On
// random worlds, generated terrain and a MovingAI voxel benchmark map, for walkers and flyers.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "voxel_test_support.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

/// Everything a query reads, compared between an updated hierarchy and a fresh build.
void expect_same_hierarchy(const VoxelHierarchy& updated, const VoxelHierarchy& fresh, const std::string& where) {
  ASSERT_EQ(updated.cluster_count(), fresh.cluster_count()) << where;
  ASSERT_EQ(updated.revision(), fresh.revision()) << where;
  for (int c = 0; c < static_cast<int>(fresh.cluster_count()); ++c) {
    ASSERT_EQ(updated.cluster_open(c), fresh.cluster_open(c)) << where << ", cluster " << c;
    const auto a = updated.cluster_places(c);
    const auto b = fresh.cluster_places(c);
    ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << where << ", places of cluster " << c;
    ASSERT_EQ(updated.cluster_first_node(c), fresh.cluster_first_node(c)) << where << ", cluster " << c;
    ASSERT_EQ(updated.cluster_end_node(c), fresh.cluster_end_node(c)) << where << ", cluster " << c;
  }
  ASSERT_EQ(updated.node_count(), fresh.node_count()) << where;
  for (std::uint32_t n = 0; n < fresh.node_count(); ++n) {
    ASSERT_EQ(updated.node_place(n), fresh.node_place(n)) << where << ", node " << n;
    const auto a = updated.edges(n);
    const auto b = fresh.edges(n);
    ASSERT_EQ(a.size(), b.size()) << where << ", edges of node " << n;
    for (std::size_t e = 0; e < b.size(); ++e) {
      EXPECT_EQ(a[e].to, b[e].to) << where << ", node " << n << " edge " << e;
      EXPECT_EQ(a[e].inter, b[e].inter) << where << ", node " << n << " edge " << e;
      EXPECT_EQ(a[e].cost, b[e].cost) << where << ", node " << n << " edge " << e;
    }
  }
  const VoxelHierarchyStats& s = updated.stats();
  const VoxelHierarchyStats& t = fresh.stats();
  EXPECT_EQ(s.places, t.places) << where;
  EXPECT_EQ(s.open_clusters, t.open_clusters) << where;
  EXPECT_EQ(s.transitions, t.transitions) << where;
  EXPECT_EQ(s.entrances, t.entrances) << where;
  EXPECT_EQ(s.nodes, t.nodes) << where;
  EXPECT_EQ(s.inter_edges, t.inter_edges) << where;
  EXPECT_EQ(s.intra_edges, t.intra_edges) << where;
  EXPECT_EQ(s.build_expansions, t.build_expansions) << where;
}

/// The same answers from both hierarchies on random pairs of places.
void expect_same_paths(const VoxelHierarchy& updated, const VoxelHierarchy& fresh, int queries, std::mt19937_64& random,
                       const std::string& where) {
  // Places of the world the hierarchy was built for (a wide agent's corners, not its footprint world's).
  const std::vector<VoxelCoord> places = all_voxel_places(updated.source_world(), updated.profile());
  if (places.size() < 2) return;
  VoxelHierarchyQuery on_updated(updated);
  VoxelHierarchyQuery on_fresh(fresh);
  for (int q = 0; q < queries; ++q) {
    const VoxelCoord start = places[random() % places.size()];
    const VoxelCoord goal = places[random() % places.size()];
    const PathResult a = on_updated.find_path(start, goal);
    const PathResult b = on_fresh.find_path(start, goal);
    const std::string pair = where + ", " + voxel_coord_text(start) + " -> " + voxel_coord_text(goal);
    ASSERT_EQ(a.status, b.status) << pair << ": " << a.message;
    ASSERT_TRUE(a.status == SearchStatus::found || a.status == SearchStatus::no_path) << pair << ": " << a.message;
    EXPECT_EQ(a.nodes, b.nodes) << pair;
    EXPECT_EQ(a.cost, b.cost) << pair;
  }
}

/// Random edits, most of them on or next to cluster borders and corners: single blocks of any
/// kind, and walls and their removal across a border plane, which cut and join entrances.
class Editor {
 public:
  Editor(VoxelWorld& world, int cluster_size, int cluster_height, std::mt19937_64& random)
      : world_(world), size_(cluster_size), height_(cluster_height), random_(random) {}

  void edit(int count) {
    for (int i = 0; i < count; ++i) {
      switch (random_() % 4) {
        case 0:
        case 1: block(); break;
        case 2: wall(BlockKind::solid); break;
        default: wall(BlockKind::air); break;
      }
    }
  }

 private:
  int pick(int extent, int cluster) {
    if (random_() % 3 == 0 || extent <= cluster) return static_cast<int>(random_() % static_cast<unsigned>(extent));
    const int borders = extent / cluster;
    const int border = cluster * (1 + static_cast<int>(random_() % static_cast<unsigned>(std::max(1, borders))));
    return std::clamp(border + static_cast<int>(random_() % 4) - 2, 0, extent - 1);
  }

  void block() {
    static constexpr BlockKind kinds[] = {BlockKind::solid, BlockKind::air, BlockKind::solid,
                                          BlockKind::air,   BlockKind::water, BlockKind::ladder};
    const VoxelCoord at{pick(world_.size_x(), size_), pick(world_.size_y(), height_), pick(world_.size_z(), size_)};
    world_.set_block(at, kinds[random_() % 6]);
  }

  /// A wall in a plane next to a border, along the other axis, across a corner now and then.
  void wall(BlockKind kind) {
    const bool across_x = random_() % 2 == 0;
    const int plane = pick(across_x ? world_.size_x() : world_.size_z(), size_);
    const int along_extent = across_x ? world_.size_z() : world_.size_x();
    const int length = 2 + static_cast<int>(random_() % static_cast<unsigned>(size_ + 4));
    const int first = std::clamp(pick(along_extent, size_) - length / 2, 0, along_extent - 1);
    const int bottom = static_cast<int>(random_() % static_cast<unsigned>(world_.size_y()));
    const int top = std::min(world_.size_y() - 1, bottom + 1 + static_cast<int>(random_() % 4));
    for (int a = first; a < std::min(along_extent, first + length); ++a)
      for (int y = bottom; y <= top; ++y) {
        const VoxelCoord at = across_x ? VoxelCoord{plane, y, a} : VoxelCoord{a, y, plane};
        world_.set_block(at, kind);
      }
  }

  VoxelWorld& world_;
  int size_;
  int height_;
  std::mt19937_64& random_;
};

/// Rounds of edits, each followed by update() and the comparison with a fresh build.
void edit_and_compare(VoxelWorld& world, const MovementProfile& profile, const VoxelHierarchyOptions& options,
                      int rounds, int edits_per_round, int queries, std::uint64_t seed, const std::string& name) {
  std::mt19937_64 random(seed);
  VoxelHierarchy hierarchy(world, profile, options);
  Editor editor(world, hierarchy.cluster_size(), hierarchy.cluster_height(), random);
  std::size_t redone = 0;
  for (int round = 0; round < rounds; ++round) {
    editor.edit(1 + static_cast<int>(random() % static_cast<unsigned>(edits_per_round)));
    const std::string where = name + ", round " + std::to_string(round);
    if (world.revision() == hierarchy.revision()) continue;  // every edit happened to change nothing
    ASSERT_FALSE(hierarchy.current()) << where;
    redone += hierarchy.update();
    ASSERT_TRUE(hierarchy.current()) << where;
    const VoxelHierarchy fresh(world, profile, options);
    expect_same_hierarchy(hierarchy, fresh, where);
    if (::testing::Test::HasFatalFailure()) return;
    expect_same_paths(hierarchy, fresh, queries, random, where);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // The point of updating: most rounds redo far fewer clusters than a build.
  EXPECT_LT(redone, static_cast<std::size_t>(rounds) * hierarchy.cluster_count()) << name;
  EXPECT_EQ(hierarchy.update(), 0u) << name << ": a current hierarchy has nothing to do";
}

TEST(VoxelHierarchyUpdate, WalkersOnRandomWorldsMatchAFreshBuild) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 random(seed);
    VoxelWorld world = random_floor_world(random, 44, 10, 36, 18 + static_cast<int>(seed) * 4);
    VoxelHierarchyOptions options;
    options.cluster_size = seed % 2 == 0 ? 8 : 5;
    options.cluster_height = seed == 3 ? 4 : 0;
    options.build_threads = seed == 4 ? 2 : 1;
    MovementProfile profile = MovementProfile::walker();
    if (seed == 2) profile.walk_directions = 4;
    if (seed == 3) profile.jump_distance = 4;
    edit_and_compare(world, profile, options, 14, 6, 20, seed * 101, "walker, seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(VoxelHierarchyUpdate, FlyersOnRandomWorldsMatchAFreshBuild) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 random(seed + 50);
    VoxelWorld world = random_floor_world(random, 30, 20, 26, seed == 1 ? 4 : 25);
    VoxelHierarchyOptions options;
    options.cluster_size = seed == 2 ? 4 : 8;
    options.long_entrance = seed == 3 ? 3 : 6;
    edit_and_compare(world, MovementProfile::flyer(), options, 12, 6, 20, seed * 977, "flyer, seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(VoxelHierarchyUpdate, GeneratedTerrainMatchesAFreshBuild) {
  VoxelWorldGeneratorOptions generated;
  generated.size_x = 96;
  generated.size_y = 48;
  generated.size_z = 80;
  generated.feature_size = 48.0;
  generated.seed = 7;
  VoxelWorld world = generate_voxel_world(generated);
  VoxelHierarchyOptions options;
  edit_and_compare(world, MovementProfile::walker(), options, 10, 8, 30, 11, "generated, walker");
  if (HasFatalFailure()) return;
  world = generate_voxel_world(generated);
  options.cluster_size = 12;
  edit_and_compare(world, MovementProfile::flyer(), options, 6, 8, 20, 12, "generated, flyer");
}

TEST(VoxelHierarchyUpdate, BenchmarkMapMatchesAFreshBuild) {
  const std::filesystem::path path = data_directory() / "voxel" / "warframe" / "Simple.3dmap";
  WAYFINDER_SKIP_WITHOUT(path);
  VoxelWorld world = read_voxel_benchmark_map(path);
  VoxelHierarchyOptions options;
  options.cluster_size = 16;
  edit_and_compare(world, MovementProfile::flyer(), options, 6, 8, 20, 21, "Simple.3dmap, flyer");
  if (HasFatalFailure()) return;
  world = read_voxel_benchmark_map(path);
  edit_and_compare(world, MovementProfile::walker(), options, 6, 8, 20, 22, "Simple.3dmap, walker");
}

TEST(VoxelHierarchyUpdate, OneEditRedoesOnlyTheClustersNearIt) {
  std::mt19937_64 random(5);
  VoxelWorld world = random_floor_world(random, 128, 8, 128, 10);
  VoxelHierarchyOptions options;
  options.cluster_size = 16;
  VoxelHierarchy hierarchy(world, MovementProfile::walker(), options);
  EXPECT_EQ(hierarchy.stats().clusters_rebuilt, hierarchy.cluster_count());
  world.set_block(64, 3, 64, BlockKind::solid);  // a corner of four clusters
  const std::size_t redone = hierarchy.update();
  EXPECT_GE(redone, 4u);
  EXPECT_LT(redone, hierarchy.cluster_count() / 2);
  EXPECT_EQ(hierarchy.stats().clusters_rebuilt, redone);
  expect_same_hierarchy(hierarchy, VoxelHierarchy(world, MovementProfile::walker(), options), "one edit");
}

TEST(VoxelHierarchyUpdate, ALogThatNoLongerReachesBackRebuildsEverything) {
  std::mt19937_64 random(9);
  VoxelWorld world = random_floor_world(random, 40, 8, 40, 20);
  VoxelHierarchy hierarchy(world, MovementProfile::walker());
  world.set_block(10, 2, 10, BlockKind::solid);
  world.set_block(11, 2, 10, BlockKind::solid);
  hierarchy.update();  // at revision 2
  world.set_block(20, 2, 20, BlockKind::solid);
  world.forget_changes();  // revision 0 again, behind the hierarchy's
  world.set_block(30, 2, 30, BlockKind::air);
  ASSERT_FALSE(hierarchy.current());
  EXPECT_EQ(hierarchy.update(), hierarchy.cluster_count());
  EXPECT_TRUE(hierarchy.current());
  expect_same_hierarchy(hierarchy, VoxelHierarchy(world, MovementProfile::walker()), "after the log restarted");
}

// Wide agents: the update goes through the footprint world (VoxelFootprint::update), then the
// one-column update on it; it must equal a fresh build all the same.
TEST(VoxelHierarchyUpdate, WideWalkersAndFlyersOnRandomWorldsMatchAFreshBuild) {
  for (const bool fly : {false, true})
    for (const int width : {2, 3})
      for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        std::mt19937_64 random(seed * (fly ? 11 : 7) + static_cast<std::uint64_t>(width));
        VoxelWorld world = fly ? random_floor_world(random, 28, 18, 26, seed == 1 ? 4 : 10)
                               : random_floor_world(random, 40, 10, 34, 12 + static_cast<int>(seed) * 4);
        VoxelHierarchyOptions options;
        options.cluster_size = fly || seed == 1 ? 8 : 6;
        MovementProfile profile = fly ? MovementProfile::flyer() : MovementProfile::walker();
        profile.agent_width = width;
        edit_and_compare(world, profile, options, fly ? 8 : 10, 6, 20, seed * (fly ? 53 : 31) + static_cast<std::uint64_t>(width),
                         std::string(fly ? "flyer" : "walker") + " of width " + std::to_string(width) + ", seed " +
                             std::to_string(seed));
        if (HasFatalFailure()) return;
      }
}

TEST(VoxelHierarchyUpdate, OneEditOfAWideAgentsWorldRedoesOnlyTheClustersNearIt) {
  std::mt19937_64 random(5);
  VoxelWorld world = random_floor_world(random, 128, 8, 128, 10);
  VoxelHierarchyOptions options;
  options.cluster_size = 16;
  MovementProfile profile = MovementProfile::walker();
  profile.agent_width = 2;
  VoxelHierarchy hierarchy(world, profile, options);
  world.set_block(64, 3, 64, BlockKind::solid);  // next to a corner of four clusters of the footprint world
  const std::size_t redone = hierarchy.update();
  EXPECT_GE(redone, 1u);
  EXPECT_LT(redone, hierarchy.cluster_count() / 2);
  EXPECT_TRUE(hierarchy.current());
  expect_same_hierarchy(hierarchy, VoxelHierarchy(world, profile, options), "one edit, width 2");
  // An edit the agent cannot tell from before (a solid block under a solid footprint block)
  // changes no footprint block: nothing to redo.
  world.set_block(64, 0, 64, BlockKind::air);
  world.set_block(64, 0, 64, BlockKind::solid);
  EXPECT_FALSE(hierarchy.current());
  EXPECT_EQ(hierarchy.update(), 0u);
  EXPECT_TRUE(hierarchy.current());
}

TEST(VoxelHierarchyUpdate, TooManyPlacesLeavesTheHierarchyAsItWas) {
  VoxelWorld world = VoxelWorld::from_function(24, 8, 24, [](int, int y, int) {
    return y < 4 ? BlockKind::solid : BlockKind::air;
  });
  VoxelHierarchyOptions options;
  options.cluster_size = 8;
  options.max_places = 24 * 24 * 8 / 2 + 10;  // a few more than the air blocks of the non-open clusters
  VoxelHierarchy hierarchy(world, MovementProfile::flyer(), options);
  const std::size_t nodes = hierarchy.node_count();
  const std::uint64_t revision = hierarchy.revision();
  for (int x = 0; x < 24; ++x)
    for (int z = 0; z < 24; ++z) world.set_block(x, 3, z, BlockKind::air);  // a layer more of places
  EXPECT_THROW(hierarchy.update(), std::length_error);
  EXPECT_FALSE(hierarchy.current());
  EXPECT_EQ(hierarchy.revision(), revision);
  EXPECT_EQ(hierarchy.node_count(), nodes);
}

}  // namespace
}  // namespace wayfinder
