// Budget::max_memory_bytes: a voxel search stops with StopReason::memory_limit once its paged
// state passes the limit (overrunning it by at most what one check interval of expansions can
// allocate), gives its partial path when asked, and finds the same path as without a limit when
// the limit is not reached; pages kept from earlier queries are given back first; dense
// contexts count their reserved arrays, in the one-way and the bidirectional search and IDA*
// (with its depth-first path).

#include <gtest/gtest.h>

#include <cstddef>

#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

/// An open world with a floor: a flyer's A* across it spreads over many chunks.
VoxelWorld open_world() {
  return VoxelWorld::from_function(160, 48, 160, [](int x, int y, int z) {
    if (y == 0) return BlockKind::solid;
    // A wall across the middle with a hole at one end, so the search spreads before it finds it.
    if (x == 80 && y < 40 && z > 8) return BlockKind::solid;
    return BlockKind::air;
  });
}

// One page of paged state, and the most a check interval of expansions can add: each expansion
// touches at most the 8 chunks around a block (a flyer's 26 neighbours).
constexpr std::size_t page_bytes = PagedSearchContext::page_size * (sizeof(NodeRecord) + sizeof(std::uint32_t)) + 1024;
constexpr std::size_t overrun_bound = Budget::time_check_interval * 8 * page_bytes;

TEST(MemoryBudget, AVoxelSearchStopsAtItsLimitAndGivesItsPartialPath) {
  const VoxelWorld world = open_world();
  const VoxelCoord start{2, 1, 150};
  const VoxelCoord goal{157, 1, 150};
  VoxelQuery free_search(world, MovementProfile::flyer());
  const PathResult unlimited = free_search.find_path(start, goal);
  ASSERT_EQ(unlimited.status, SearchStatus::found);
  const std::size_t used = free_search.search_memory_bytes();
  ASSERT_GT(used, 8 * page_bytes);

  // A limit of a quarter of what the search used ends it early.
  VoxelQuery capped(world, MovementProfile::flyer());
  VoxelSearchOptions options;
  options.budget.max_memory_bytes = used / 4;
  const PathResult stopped = capped.find_path(start, goal, options);
  EXPECT_EQ(stopped.status, SearchStatus::partial);
  EXPECT_EQ(stopped.reason, StopReason::memory_limit);
  EXPECT_EQ(to_string(stopped.reason), "memory_limit");
  ASSERT_FALSE(stopped.nodes.empty());
  EXPECT_EQ(world.coord_of(stopped.nodes.front()), start);
  EXPECT_LT(stopped.stats.expanded, unlimited.stats.expanded);
  EXPECT_LE(capped.search_memory_bytes(), options.budget.max_memory_bytes + overrun_bound);
  options.return_partial = false;
  const PathResult exhausted = capped.find_path(start, goal, options);
  EXPECT_EQ(exhausted.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(exhausted.reason, StopReason::memory_limit);
  EXPECT_TRUE(exhausted.nodes.empty());

  // A limit the search does not reach changes nothing.
  options.budget.max_memory_bytes = 2 * used + overrun_bound;
  const PathResult roomy = capped.find_path(start, goal, options);
  EXPECT_EQ(roomy.status, SearchStatus::found);
  EXPECT_EQ(roomy.nodes, unlimited.nodes);
  EXPECT_EQ(roomy.stats.expanded, unlimited.stats.expanded);

  // Stepped, the limit ends the search at the same place as in one go.
  options.budget.max_memory_bytes = used / 4;
  options.return_partial = true;
  VoxelQuery stepped(world, MovementProfile::flyer());
  SearchStatus status = stepped.begin(start, goal, options);
  while (status == SearchStatus::in_progress) status = stepped.step(100);
  const PathResult stepped_result = stepped.result();
  EXPECT_EQ(stepped_result.reason, StopReason::memory_limit);
  EXPECT_EQ(stepped_result.nodes, stopped.nodes);
}

TEST(MemoryBudget, PagesKeptFromEarlierQueriesAreGivenBackFirst) {
  const VoxelWorld world = open_world();
  VoxelQuery pathfinder(world, MovementProfile::flyer());
  ASSERT_EQ(pathfinder.find_path({2, 1, 150}, {157, 1, 150}).status, SearchStatus::found);
  const std::size_t held = pathfinder.search_memory_bytes();
  // A short query under a limit below what the pathfinder holds: the old pages go, the query
  // runs in a few pages of its own.
  VoxelSearchOptions options;
  options.budget.max_memory_bytes = held / 8;
  const PathResult near = pathfinder.find_path({10, 1, 10}, {14, 3, 12}, options);
  EXPECT_EQ(near.status, SearchStatus::found);
  EXPECT_LE(pathfinder.search_memory_bytes(), options.budget.max_memory_bytes);
  pathfinder.release_search_memory();
  EXPECT_LT(pathfinder.search_memory_bytes(), page_bytes);
}

// A voxel search with no budget holds what it explores, not what the world spans: a straight
// flight of 2047 blocks holds the pages of the chunks around its line (at most the 4 chunk
// columns a block's neighbourhood can reach, per 16 blocks of flight) and the page table, and
// the same flight in a world 64 times larger holds no more than its larger page table (8 bytes
// per 4096 node ids).
TEST(MemoryBudget, AVoxelFlightHoldsWhatItExploresNotTheWorld) {
  const VoxelCoord start{0, 8, 8};
  const VoxelCoord goal{2047, 8, 8};
  const VoxelWorld narrow(2048, 32, 32);
  const VoxelWorld wide(2048, 256, 256);
  VoxelQuery in_narrow(narrow, MovementProfile::flyer());
  VoxelQuery in_wide(wide, MovementProfile::flyer());
  const PathResult narrow_path = in_narrow.find_path(start, goal);
  const PathResult wide_path = in_wide.find_path(start, goal);
  ASSERT_EQ(narrow_path.status, SearchStatus::found);
  ASSERT_EQ(wide_path.status, SearchStatus::found);
  EXPECT_EQ(wide_path.stats.expanded, narrow_path.stats.expanded);
  auto page_table_bytes = [](const VoxelWorld& world) {
    return (world.node_count() / PagedSearchContext::page_size) * sizeof(void*);
  };
  const std::size_t chunks_along = 2048 / 16;
  EXPECT_LE(in_narrow.search_memory_bytes(), page_table_bytes(narrow) + 4 * chunks_along * page_bytes);
  EXPECT_LE(in_wide.search_memory_bytes(),
            in_narrow.search_memory_bytes() + page_table_bytes(wide) - page_table_bytes(narrow));
  // Per expanded block: a few pages' worth at most (the search is a line, each page a 16^3 chunk).
  EXPECT_LE(in_wide.search_memory_bytes() / wide_path.stats.expanded, std::size_t{32} << 10);
}

TEST(MemoryBudget, DenseContextsCountTheirReservedArrays) {
  GridMap map(64, 64);
  GridQuery pathfinder(map);
  for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::bidirectional_astar}) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    const PathResult free = pathfinder.find_path({0, 0}, {63, 63}, options);
    ASSERT_EQ(free.status, SearchStatus::found);
    options.budget.max_memory_bytes = 1024;  // below the arrays of 4096 cells
    options.return_partial = false;
    const PathResult stopped = pathfinder.find_path({0, 0}, {63, 63}, options);
    EXPECT_EQ(stopped.status, SearchStatus::budget_exhausted) << to_string(algorithm);
    EXPECT_EQ(stopped.reason, StopReason::memory_limit) << to_string(algorithm);
    options.budget.max_memory_bytes = std::size_t{64} << 20;
    const PathResult roomy = pathfinder.find_path({0, 0}, {63, 63}, options);
    EXPECT_EQ(roomy.nodes, free.nodes) << to_string(algorithm);
  }
  Budget budget;
  EXPECT_TRUE(budget.unlimited());
  budget.max_memory_bytes = 1;
  EXPECT_FALSE(budget.unlimited());
}

TEST(MemoryBudget, TheWaveCountsItsArrays) {
  GridMap map(64, 64);
  GridQuery pathfinder(map);
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::breadth_first;
  const PathResult free = pathfinder.find_path({0, 0}, {63, 63}, options);
  ASSERT_EQ(free.status, SearchStatus::found);
  options.budget.max_memory_bytes = 1024;  // below the wave's arrays for 4096 cells
  options.return_partial = false;
  const PathResult stopped = pathfinder.find_path({0, 0}, {63, 63}, options);
  EXPECT_EQ(stopped.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(stopped.reason, StopReason::memory_limit);
  options.return_partial = true;
  const PathResult partial = pathfinder.find_path({0, 0}, {63, 63}, options);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::memory_limit);
  options.budget.max_memory_bytes = std::size_t{64} << 20;
  const PathResult roomy = pathfinder.find_path({0, 0}, {63, 63}, options);
  EXPECT_EQ(roomy.nodes, free.nodes);
}

TEST(MemoryBudget, IdaStarCountsItsTableAndItsPath) {
  GridMap map(48, 48);
  for (int y = 36; y < 44; ++y) map.set_passable(24, y, false);  // a short wall to go around
  GridQuery pathfinder(map);
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::ida_star;
  const PathResult free = pathfinder.find_path({2, 40}, {45, 40}, options);
  ASSERT_EQ(free.status, SearchStatus::found) << free.stats.expanded;
  options.budget.max_memory_bytes = 1024;  // below the transposition table of 2304 cells
  options.return_partial = false;
  const PathResult stopped = pathfinder.find_path({2, 40}, {45, 40}, options);
  EXPECT_EQ(stopped.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(stopped.reason, StopReason::memory_limit);
  EXPECT_TRUE(stopped.nodes.empty());
  options.return_partial = true;
  const PathResult partial = pathfinder.find_path({2, 40}, {45, 40}, options);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::memory_limit);
  ASSERT_FALSE(partial.nodes.empty());
  EXPECT_EQ(partial.nodes.front(), map.id_of(2, 40));
  options.budget.max_memory_bytes = std::size_t{64} << 20;
  const PathResult roomy = pathfinder.find_path({2, 40}, {45, 40}, options);
  EXPECT_EQ(roomy.nodes, free.nodes);
  EXPECT_EQ(roomy.stats.expanded, free.stats.expanded);
}

}  // namespace
}  // namespace wayfinder
