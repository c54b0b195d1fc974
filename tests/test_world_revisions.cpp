// The world contract: every edit that changes a grid cell or a voxel block bumps the world's
// revision once and is logged; a stepped search on an edited world stops with world_changed
// instead of reading two versions of it; readers and builders start worlds at revision 0.

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/core/change_log.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_breaks.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

std::vector<Cell> cells_of(const std::optional<std::span<const GridCellChange>>& changes) {
  std::vector<Cell> cells;
  if (changes)
    for (const GridCellChange& change : *changes) cells.push_back(change.cell);
  return cells;
}

TEST(GridRevisions, EveryChangingEditIsOneRevisionAndIsLogged) {
  GridMap map(10, 8);
  EXPECT_EQ(map.revision(), 0u);
  map.block({2, 3});
  EXPECT_EQ(map.revision(), 1u);
  map.block({2, 3});  // already blocked: nothing changes
  map.set_cost(4, 4, 1.0f);  // already cost 1
  EXPECT_EQ(map.revision(), 1u);
  map.set_cost(4, 4, 2.5f);
  EXPECT_EQ(map.revision(), 2u);
  map.block_rect(GridRect{5, 0, 2, 3});  // a door: six cells, one edit
  EXPECT_EQ(map.revision(), 3u);
  map.block_rect(GridRect{5, 0, 2, 3});
  EXPECT_EQ(map.revision(), 3u);
  map.unblock({2, 3});
  EXPECT_EQ(map.revision(), 4u);

  EXPECT_EQ(cells_of(map.changes_since(0)),
            (std::vector<Cell>{{2, 3}, {4, 4}, {5, 0}, {6, 0}, {5, 1}, {6, 1}, {5, 2}, {6, 2}, {2, 3}}));
  EXPECT_EQ(cells_of(map.changes_since(2)), (std::vector<Cell>{{5, 0}, {6, 0}, {5, 1}, {6, 1}, {5, 2}, {6, 2}, {2, 3}}));
  ASSERT_TRUE(map.changes_since(4));
  EXPECT_TRUE(map.changes_since(4)->empty());
  EXPECT_FALSE(map.changes_since(5)) << "a revision the map never had";
  const auto since_two = map.changes_since(2);  // keep the optional: the loop must not run over a temporary's span
  for (const GridCellChange& change : *since_two) EXPECT_GT(change.revision, 2u);
  EXPECT_EQ((*map.changes_since(0))[1].cost_before, 1.0f) << "(4,4) cost 1 before it became 2.5";
  EXPECT_EQ(map.changes_since(0)->back().cost_before, 0.0f) << "(2,3) was blocked before it was unblocked";

  EXPECT_FALSE(map.passable(5, 2));
  map.set_cost(GridRect{5, 0, 1, 3}, 3.0f);  // opens the door's left column at cost 3
  EXPECT_EQ(map.revision(), 5u);
  EXPECT_TRUE(map.passable(5, 2));
  EXPECT_EQ(map.cost(5, 2), 3.0f);
  EXPECT_FALSE(map.uniform_cost());
}

TEST(GridRevisions, BadEditsThrowAndChangeNothing) {
  GridMap map(6, 6);
  EXPECT_THROW(map.block_rect(GridRect{4, 4, 3, 1}), std::out_of_range);
  EXPECT_THROW(map.block_rect(GridRect{-1, 0, 2, 2}), std::out_of_range);
  EXPECT_THROW(map.block_rect(GridRect{0, 0, -2, 2}), std::out_of_range);
  EXPECT_THROW(map.set_cost(GridRect{0, 0, 2, 2}, -1.0f), std::invalid_argument);
  EXPECT_THROW(map.block(Cell{6, 0}), std::out_of_range);
  EXPECT_EQ(map.revision(), 0u);
  EXPECT_EQ(map.passable_count(), 36u);
  map.block_rect(GridRect{1, 1, 0, 0});  // an empty rectangle is no edit
  EXPECT_EQ(map.revision(), 0u);
}

TEST(GridRevisions, TheLogKeepsTheLatestChangesAndSaysWhenItCannotReachBack) {
  GridMap map(512, 512);
  const std::size_t edits = GridMap::change_log_limit + 1000;
  for (std::size_t i = 0; i < edits; ++i) map.block({static_cast<int>(i % 512), static_cast<int>(i / 512)});
  EXPECT_EQ(map.revision(), edits);
  EXPECT_FALSE(map.changes_since(0)) << "the oldest changes were dropped";
  const auto recent = map.changes_since(edits - 10);
  ASSERT_TRUE(recent);
  ASSERT_EQ(recent->size(), 10u);
  EXPECT_EQ(recent->back().cell, (Cell{static_cast<int>((edits - 1) % 512), static_cast<int>((edits - 1) / 512)}));
  map.forget_changes();
  EXPECT_EQ(map.revision(), 0u);
  ASSERT_TRUE(map.changes_since(0));
  EXPECT_TRUE(map.changes_since(0)->empty());
}

TEST(GridRevisions, MapsReadFromFilesStartAtRevisionZero) {
  const std::filesystem::path path = data_directory() / "movingai" / "dao" / "arena2.map";
  if (!std::filesystem::exists(path)) {
    if (data_required()) FAIL() << path << " not found";
    GTEST_SKIP() << path << " not found";
  }
  const GridMap map = read_movingai_map(path);
  EXPECT_EQ(map.revision(), 0u);
  EXPECT_LT(map.passable_count(), map.cell_count()) << "the reader did edit the map";
}

TEST(GridRevisions, ASteppedSearchStopsWhenTheMapIsEditedBetweenSteps) {
  for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::bidirectional_astar,
                                        GridAlgorithm::jump_point, GridAlgorithm::breadth_first}) {
    SCOPED_TRACE(std::string(to_string(algorithm)));
    GridMap map(60, 60);
    for (int y = 2; y < 60; y += 4)  // pillars, so that jump point search has many jump points
      for (int x = 2; x < 60; x += 4) map.block({x, y});
    GridQuery pathfinder(map);
    GridSearchOptions options;
    options.algorithm = algorithm;
    ASSERT_EQ(pathfinder.begin({0, 0}, {59, 30}, options), SearchStatus::in_progress);
    ASSERT_EQ(pathfinder.step(3), SearchStatus::in_progress);
    const std::uint64_t expanded = pathfinder.stats().expanded;
    map.block_rect(GridRect{31, 10, 1, 40});  // a wall appears
    EXPECT_EQ(pathfinder.step(100), SearchStatus::world_changed);
    EXPECT_EQ(pathfinder.step(100), SearchStatus::world_changed) << "and stays stopped";
    const PathResult stopped = pathfinder.result();
    EXPECT_EQ(stopped.status, SearchStatus::world_changed);
    EXPECT_EQ(stopped.reason, StopReason::world_changed);
    EXPECT_TRUE(stopped.nodes.empty());
    EXPECT_EQ(stopped.stats.expanded, expanded) << "no expansion after the edit";
    EXPECT_NE(stopped.message.find("begin the query again"), std::string::npos) << stopped.message;
    // Begun again, the search sees the new map and answers as a fresh pathfinder does.
    PathResult again;
    pathfinder.find_path({0, 0}, {59, 30}, options, again);
    GridQuery fresh(map);
    const PathResult expected = fresh.find_path({0, 0}, {59, 30}, options);
    EXPECT_EQ(again.status, SearchStatus::found);
    EXPECT_EQ(again.cost, expected.cost);
    EXPECT_EQ(again.nodes, expected.nodes);
  }
}

TEST(GridRevisions, AnEditThatChangesNothingDoesNotStopASearch) {
  GridMap map(40, 40);
  map.block({20, 20});
  GridQuery pathfinder(map);
  ASSERT_EQ(pathfinder.begin({0, 0}, {39, 39}), SearchStatus::in_progress);
  pathfinder.step(5);
  map.block({20, 20});
  SearchStatus status = SearchStatus::in_progress;
  while (status == SearchStatus::in_progress) status = pathfinder.step(5);
  EXPECT_EQ(status, SearchStatus::found);
}

/// The index of the first step of `path` that enters or leaves `cell` (the step into it).
std::size_t step_into(const GridMap& map, const std::vector<NodeId>& path, Cell cell) {
  for (std::size_t i = 1; i < path.size(); ++i)
    if (path[i] == map.id_of(cell)) return i - 1;
  return path.size();
}

TEST(PathBreaks, FindsTheFirstStepAnEditBroke) {
  GridMap map(30, 30);
  GridQuery pathfinder(map);
  const PathResult planned = pathfinder.find_path({0, 0}, {29, 29});
  ASSERT_TRUE(planned.found());
  const std::vector<NodeId>& path = planned.nodes;  // the diagonal (0,0) .. (29,29)
  const std::uint64_t revision = map.revision();
  EXPECT_FALSE(first_blocked_step(map, path, revision)) << "nothing changed";

  map.block({3, 20});  // off the path
  EXPECT_FALSE(first_blocked_step(map, path, revision));

  map.block({10, 10});
  auto broken = first_blocked_step(map, path, revision);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->reason, PathBreak::blocked_cell);
  EXPECT_EQ(broken->step, step_into(map, path, {10, 10}));
  map.unblock({10, 10});
  EXPECT_FALSE(first_blocked_step(map, path, revision)) << "blocked and opened again at its cost: intact";

  map.block({6, 5});  // a corner of the diagonal step (5,5) -> (6,6)
  broken = first_blocked_step(map, path, revision);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->reason, PathBreak::blocked_corner);
  EXPECT_EQ(broken->step, step_into(map, path, {6, 6}));
  EXPECT_FALSE(first_blocked_step(map, path, revision, DiagonalMode::always)) << "corners do not matter there";
  map.unblock({6, 5});

  map.set_cost(20, 20, 0.5f);  // cheaper: not broken
  EXPECT_FALSE(first_blocked_step(map, path, revision));
  map.set_cost(25, 25, 4.0f);
  broken = first_blocked_step(map, path, revision);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->reason, PathBreak::cost_grew);
  EXPECT_EQ(broken->step, step_into(map, path, {25, 25}));

  // Planned later, the same path is intact against the edits since.
  EXPECT_FALSE(first_blocked_step(map, path, map.revision()));
}

TEST(PathBreaks, BeyondTheLogTheWholePathIsChecked) {
  GridMap map(300, 300);
  GridQuery pathfinder(map);
  const PathResult planned = pathfinder.find_path({0, 150}, {299, 150});
  ASSERT_TRUE(planned.found());
  const std::uint64_t revision = map.revision();
  // More edits than the log keeps, none of them on the path (row 150).
  for (int y = 0; y < 300 && map.revision() < revision + GridMap::change_log_limit + 10; ++y)
    if (y < 148 || y > 152)
      for (int x = 0; x < 300; ++x) map.set_cost(x, y, 2.0f);
  ASSERT_FALSE(map.changes_since(revision));
  auto broken = first_blocked_step(map, planned.nodes, revision);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->reason, PathBreak::unknown_history);
  map.block({100, 150});
  broken = first_blocked_step(map, planned.nodes, revision);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->reason, PathBreak::blocked_cell);
  EXPECT_EQ(broken->step, 99u);
}

TEST(PathBreaks, RefusesPathsThatAreNotPaths) {
  const GridMap map(10, 10);
  const std::vector<NodeId> jump{map.id_of(0, 0), map.id_of(2, 0)};
  EXPECT_THROW((void)first_blocked_step(map, jump, 0), std::invalid_argument);
  const std::vector<NodeId> outside{map.id_of(0, 0), 1000};
  EXPECT_THROW((void)first_blocked_step(map, outside, 0), std::invalid_argument);
  EXPECT_FALSE(first_blocked_step(map, std::vector<NodeId>{}, 0));
}

TEST(VoxelRevisions, EditsAreCountedLoggedAndStopASteppedSearch) {
  VoxelWorld world = VoxelWorld::from_function(20, 6, 20, [](int, int y, int) {
    return y == 0 ? BlockKind::solid : BlockKind::air;
  });
  EXPECT_EQ(world.revision(), 0u) << "building is not history";
  world.set_block({3, 0, 3}, BlockKind::solid);  // already solid
  EXPECT_EQ(world.revision(), 0u);
  world.set_block({3, 1, 3}, BlockKind::solid);
  world.set_block({4, 1, 3}, BlockKind::water);
  EXPECT_EQ(world.revision(), 2u);
  const auto changes = world.changes_since(0);
  ASSERT_TRUE(changes);
  ASSERT_EQ(changes->size(), 2u);
  EXPECT_EQ((*changes)[1].at, (VoxelCoord{4, 1, 3}));
  EXPECT_EQ((*changes)[1].revision, 2u);
  EXPECT_EQ((*changes)[1].before, BlockKind::air);

  VoxelQuery pathfinder(world);
  ASSERT_EQ(pathfinder.begin({1, 1, 1}, {18, 1, 18}), SearchStatus::in_progress);
  pathfinder.step(2);
  world.set_block({10, 1, 10}, BlockKind::solid);
  EXPECT_EQ(pathfinder.step(1000), SearchStatus::world_changed);
  EXPECT_EQ(pathfinder.result().status, SearchStatus::world_changed);
  EXPECT_EQ(pathfinder.find_path({1, 1, 1}, {18, 1, 18}).status, SearchStatus::found);
}

struct NumberChange {
  int at = 0;
  std::uint64_t revision = 0;
};

TEST(ChangeLog, RecordsPerEditAndAnswersOnlyWhatItStillHolds) {
  ChangeLog<NumberChange> log;
  EXPECT_TRUE(log.since(0) && log.since(0)->empty());
  log.record({7});
  log.record({8});
  log.commit();  // one edit, two positions
  log.record({9});
  log.commit();
  EXPECT_EQ(log.revision(), 2u);
  ASSERT_TRUE(log.since(1));
  ASSERT_EQ(log.since(1)->size(), 1u);
  EXPECT_EQ((*log.since(1))[0].at, 9);
  EXPECT_EQ(log.since(0)->size(), 3u);
  EXPECT_FALSE(log.since(3));
}

}  // namespace
}  // namespace wayfinder
