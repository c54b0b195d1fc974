// Goal bounding for JPS+ (GridGoalBounds + GridQuery::set_goal_bounds): every box against
// the boxes a brute-force Dijkstra from every neighbour gives, optimal lengths against a
// textbook Dijkstra on random maps with fewer expansions than JPS+ in all, every query of a real
// MovingAI map at its recorded optimum, threads, refusals, and the bounds' files. The build
// (canonical Dijkstra, then first moves from the optimal predecessors) is also compared, box for
// box, with the per-cell Dijkstra build it replaced, kept here as the reference.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "grid/jump/goal_box_build.hpp"
#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "temporary_folder.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

GridSearchOptions jps_plus_options() {
  GridSearchOptions options;
  options.algorithm = GridAlgorithm::jump_point_plus;
  return options;
}

GridMap random_uniform_map(TestRandom& random, int min_side, int max_side, double max_blocked) {
  RandomMapSpec spec;
  spec.min_side = min_side;
  spec.max_side = max_side;
  spec.max_blocked_fraction = max_blocked;
  spec.weighted_chance = 0.0;
  GridMap map = random_map(random, spec);
  map.forget_changes();
  return map;
}

std::string cell_text(Cell cell) { return "(" + std::to_string(cell.x) + "," + std::to_string(cell.y) + ")"; }

// The build the canonical one replaced: from every passable cell, a Dijkstra search that labels
// each cell with its set of optimal first moves (every tie kept; a cost is a + b*sqrt2, compared
// exactly on (a, b)), widening the source's box of each move in the set.
std::vector<GoalBox> per_cell_dijkstra_boxes(const GridMap& map) {
  std::vector<GoalBox> boxes(map.cell_count() * jump_direction_count);
  auto move_allowed = [&](Cell at, int d) {
    return reference_move_allowed(map, DiagonalMode::only_if_no_obstacles, at.x, at.y, jump_direction_dx[d],
                                  jump_direction_dy[d]);
  };
  auto value = [](std::int32_t a, std::int32_t b) { return a + b * 1.4142135623730950488; };
  struct Label {
    bool reached = false;
    bool closed = false;
    std::int32_t a = 0;
    std::int32_t b = 0;
    std::uint8_t moves = 0;
  };
  using Entry = std::pair<double, NodeId>;
  for (const Cell source : passable_cells(map)) {
    std::vector<Label> labels(map.cell_count());
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    labels[map.id_of(source)].reached = true;
    open.push({0.0, map.id_of(source)});
    GoalBox* out = boxes.data() + static_cast<std::size_t>(map.id_of(source)) * jump_direction_count;
    while (!open.empty()) {
      const NodeId at = open.top().second;
      open.pop();
      Label& label = labels[at];
      if (label.closed) continue;
      label.closed = true;
      const Cell cell = map.cell_of(at);
      for (int d = 0; d < jump_direction_count; ++d) {
        if ((label.moves & (1u << d)) == 0) continue;
        GoalBox& box = out[d];
        const auto x = static_cast<std::int16_t>(cell.x);
        const auto y = static_cast<std::int16_t>(cell.y);
        box = box.empty() ? GoalBox{x, y, x, y}
                          : GoalBox{std::min(box.min_x, x), std::min(box.min_y, y), std::max(box.max_x, x),
                                    std::max(box.max_y, y)};
      }
      for (int d = 0; d < jump_direction_count; ++d) {
        if (!move_allowed(cell, d)) continue;
        const NodeId next = map.id_of(cell.x + jump_direction_dx[d], cell.y + jump_direction_dy[d]);
        Label& to = labels[next];
        if (to.closed) continue;
        const bool diagonal = (d & 1) != 0;
        const std::int32_t a = label.a + (diagonal ? 0 : 1);
        const std::int32_t b = label.b + (diagonal ? 1 : 0);
        const auto moves = static_cast<std::uint8_t>(cell == source ? 1u << d : label.moves);
        if (to.reached && to.a == a && to.b == b) {
          to.moves |= moves;
        } else if (!to.reached || value(a, b) < value(to.a, to.b)) {
          to = {true, false, a, b, moves};
          open.push({value(a, b), next});
        }
      }
    }
  }
  return boxes;
}

void expect_boxes_of_per_cell_dijkstra(const GridMap& map, const GridGoalBounds& bounds, const std::string& what) {
  const std::vector<GoalBox> expected = per_cell_dijkstra_boxes(map);
  std::size_t differ = 0;
  for (NodeId cell = 0; cell < map.cell_count(); ++cell)
    for (int d = 0; d < jump_direction_count; ++d)
      if (bounds.box(cell, d) != expected[static_cast<std::size_t>(cell) * jump_direction_count + d] &&
          ++differ <= 5)
        ADD_FAILURE() << what << ": cell " << cell_text(map.cell_of(cell)) << " direction " << d
                      << " differs from the per-cell Dijkstra build";
  EXPECT_EQ(differ, 0u) << what;
}

TEST(GridGoalBounds, CanonicalBuildGivesThePerCellDijkstraBoxes) {
  TestRandom random(20161111);
  // Open maps (many tied paths), cluttered ones and mazes of narrow passages.
  const double densities[] = {0.0, 0.05, 0.2, 0.35, 0.45};
  for (int round = 0; round < (sanitized_build() ? 5 : 30); ++round) {
    const double blocked = densities[round % 5];
    const GridMap map = random_uniform_map(random, 10, sanitized_build() ? 24 : 48, blocked);
    expect_boxes_of_per_cell_dijkstra(map, GridGoalBounds(map, {}, 1 + round % 2),
                                      "round " + std::to_string(round) + " (" + std::to_string(map.width()) + "x" +
                                          std::to_string(map.height()) + ")");
  }
}

// The canonical pass turning only at the source leaves most cells unreached or too costly; the
// check of every step and the exact search after it must still give the same boxes.
TEST(GridGoalBounds, CostsTheCanonicalPassMissesAreMadeExact) {
  TestRandom random(20161112);
  for (int round = 0; round < (sanitized_build() ? 4 : 12); ++round) {
    const GridMap map = random_uniform_map(random, 10, 32, 0.4);
    std::vector<GoalBox> mended(map.cell_count() * jump_direction_count);
    build_goal_boxes(map, 0, static_cast<NodeId>(map.cell_count()), mended.data(), {}, 1 + round % 2,
                     CanonicalTurns::at_source_only);
    const GridGoalBounds bounds(map);
    for (NodeId cell = 0; cell < map.cell_count(); ++cell)
      for (int d = 0; d < jump_direction_count; ++d)
        ASSERT_EQ(mended[static_cast<std::size_t>(cell) * jump_direction_count + d], bounds.box(cell, d))
            << "round " << round << " " << cell_text(map.cell_of(cell)) << " direction " << d;
    expect_boxes_of_per_cell_dijkstra(map, bounds, "round " + std::to_string(round));
  }
}

TEST(GridGoalBounds, EveryBoxIsTheBoxOfTheGoalsItsMoveReachesOptimally) {
  TestRandom random(20160212);
  std::size_t boxes = 0;
  for (int round = 0; round < (sanitized_build() ? 10 : 40); ++round) {
    const GridMap map = random_uniform_map(random, 1, 12, 0.45);
    const GridGoalBounds bounds(map);
    for (const Cell source : passable_cells(map)) {
      const std::vector<double> best = reference_costs_from(map, DiagonalMode::only_if_no_obstacles, source);
      for (int direction = 0; direction < jump_direction_count; ++direction) {
        const int dx = jump_direction_dx[direction];
        const int dy = jump_direction_dy[direction];
        GoalBox expected;
        if (reference_move_allowed(map, DiagonalMode::only_if_no_obstacles, source.x, source.y, dx, dy)) {
          const double step = (dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0;
          const std::vector<double> after =
              reference_costs_from(map, DiagonalMode::only_if_no_obstacles, {source.x + dx, source.y + dy});
          for (const Cell goal : passable_cells(map)) {
            const NodeId id = map.id_of(goal);
            if (goal == source || std::isinf(best[id]) || !nearly_equal(step + after[id], best[id])) continue;
            if (expected.empty()) {
              expected = {static_cast<std::int16_t>(goal.x), static_cast<std::int16_t>(goal.y),
                          static_cast<std::int16_t>(goal.x), static_cast<std::int16_t>(goal.y)};
            } else {
              expected.min_x = std::min<std::int16_t>(expected.min_x, static_cast<std::int16_t>(goal.x));
              expected.min_y = std::min<std::int16_t>(expected.min_y, static_cast<std::int16_t>(goal.y));
              expected.max_x = std::max<std::int16_t>(expected.max_x, static_cast<std::int16_t>(goal.x));
              expected.max_y = std::max<std::int16_t>(expected.max_y, static_cast<std::int16_t>(goal.y));
            }
          }
        }
        const GoalBox& box = bounds.box(map.id_of(source), direction);
        ASSERT_EQ(box.empty(), expected.empty()) << "round " << round << " " << cell_text(source) << " dir "
                                                 << direction;
        if (!expected.empty()) {
          ASSERT_EQ(box, expected) << "round " << round << " " << cell_text(source) << " dir " << direction;
        }
        ++boxes;
      }
    }
  }
  EXPECT_GT(boxes, 1000u);
}

TEST(GridGoalBounds, ThreadsDoNotChangeTheBoundsAndProgressReachesTheEnd) {
  TestRandom random(7);
  const GridMap map = random_uniform_map(random, 30, 40, 0.3);
  std::size_t last_done = 0;
  std::size_t last_total = 0;
  const GridGoalBounds one(map, [&](std::size_t done, std::size_t total) {
    EXPECT_GE(done, last_done);
    last_done = done;
    last_total = total;
  }, 1);
  EXPECT_EQ(last_done, passable_cells(map).size());
  EXPECT_EQ(last_total, passable_cells(map).size());
  const GridGoalBounds three(map, {}, 3);
  EXPECT_EQ(one.to_bytes(), three.to_bytes());
  EXPECT_EQ(three.build_threads(), 3);
  EXPECT_EQ(one.memory_bytes(), sizeof(GridGoalBounds) + map.cell_count() * 64);
  // A progress callback that throws stops the build (the helper threads are joined first).
  EXPECT_THROW(GridGoalBounds(map, [](std::size_t, std::size_t) { throw std::runtime_error("stop"); }, 3),
               std::runtime_error);
}

TEST(GridGoalBounds, OptimalOnRandomMapsAndExpandsLessThanJpsPlus) {
  TestRandom random(20160213);
  std::size_t queries = 0;
  std::size_t unreachable = 0;
  std::uint64_t expanded = 0;
  std::uint64_t plain_expanded = 0;
  std::size_t more = 0;
  std::uint64_t most_more = 0;
  const int maps = sanitized_build() ? 40 : 200;
  for (int round = 0; round < maps; ++round) {
    const GridMap map = random_uniform_map(random, 8, 40, 0.45);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.empty()) continue;
    GridQuery bounded(map);
    bounded.set_goal_bounds(std::make_shared<const GridGoalBounds>(map));
    GridQuery plain(map);
    for (int start_index = 0; start_index < 3; ++start_index) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const std::vector<double> best = reference_costs_from(map, DiagonalMode::only_if_no_obstacles, start);
      for (std::size_t g = 0; g < cells.size(); g += (cells.size() > 400 ? 3 : 1)) {
        const Cell goal = cells[g];
        const PathResult result = find_path_with_derived(bounded, start, goal, jps_plus_options());
        const PathResult reference = find_path_with_derived(plain, start, goal, jps_plus_options());
        ++queries;
        const double expected = best[map.id_of(goal)];
        const std::string where = "round " + std::to_string(round) + " " + cell_text(start) + " -> " + cell_text(goal);
        if (std::isinf(expected)) {
          ++unreachable;
          ASSERT_EQ(result.status, SearchStatus::no_path) << where;
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << where << ": " << result.message;
        ASSERT_TRUE(nearly_equal(result.cost, expected)) << where << ": cost " << result.cost << ", optimal "
                                                         << expected;
        const ReferencePathCheck check =
            reference_check_path(map, result.nodes, DiagonalMode::only_if_no_obstacles, start, goal);
        ASSERT_TRUE(check.valid()) << where << ": " << check.problem;
        ASSERT_TRUE(nearly_equal(check.cost, result.cost)) << where;
        // Pruning only removes successors, but a node reached by another parent can change the
        // order in which ties are expanded: a query may expand a node or two more.
        if (result.stats.expanded > reference.stats.expanded) {
          ++more;
          most_more = std::max(most_more, result.stats.expanded - reference.stats.expanded);
        }
        expanded += result.stats.expanded;
        plain_expanded += reference.stats.expanded;
      }
    }
  }
  EXPECT_GT(queries, 20000u);
  EXPECT_GT(unreachable, 0u);
  EXPECT_LT(expanded, plain_expanded);
  EXPECT_LT(more * 100, queries) << more << " queries expanded more than JPS+, by up to " << most_more;
  std::cout << "[ bounds   ] " << queries << " queries, expanded " << expanded << " with goal bounds, "
            << plain_expanded << " without; " << more << " queries expanded more, by up to " << most_more << "\n";
}

TEST(GridGoalBounds, RefusedForOtherMapsAndOnceTheMapChanges) {
  TestRandom random(11);
  GridMap map = random_uniform_map(random, 12, 16, 0.2);
  const std::vector<Cell> cells = passable_cells(map);
  GridQuery pathfinder(map);
  auto bounds = std::make_shared<const GridGoalBounds>(map);
  pathfinder.set_goal_bounds(bounds);
  EXPECT_EQ(pathfinder.goal_bounds(), bounds);
  EXPECT_TRUE(find_path_with_derived(pathfinder, cells.front(), cells.back(), jps_plus_options()).found());

  GridMap other = map;
  other.set_passable(cells[cells.size() / 2].x, cells[cells.size() / 2].y, false);
  other.forget_changes();
  GridQuery other_pathfinder(other);
  EXPECT_THROW(other_pathfinder.set_goal_bounds(bounds), std::invalid_argument);
  const GridMap bigger(map.width() + 1, map.height());
  EXPECT_NE(bounds->mismatch(bigger), std::nullopt);

  map.set_passable(cells[cells.size() / 2].x, cells[cells.size() / 2].y, false);
  const PathResult refused = find_path_with_derived(pathfinder, cells.front(), cells.back(), jps_plus_options());
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("goal bounds"), std::string::npos) << refused.message;
  EXPECT_THROW(bounds->check(map), std::invalid_argument);
  pathfinder.set_goal_bounds(nullptr);
  EXPECT_NE(find_path_with_derived(pathfinder, cells.front(), cells.back(), jps_plus_options()).status,
            SearchStatus::invalid_input);
  pathfinder.set_goal_bounds(std::make_shared<const GridGoalBounds>(map));
  EXPECT_NE(find_path_with_derived(pathfinder, cells.front(), cells.back(), jps_plus_options()).status,
            SearchStatus::invalid_input);
}

TEST(GridGoalBounds, ALargerAgentSearchesItsBodyMapWithoutTheBounds) {
  TestRandom random(12);
  const GridMap map = random_uniform_map(random, 20, 24, 0.15);
  GridQuery bounded(map);
  bounded.set_goal_bounds(std::make_shared<const GridGoalBounds>(map));
  GridQuery reference(map);
  GridSearchOptions jps_plus = jps_plus_options();
  jps_plus.agent_size = 2;
  GridSearchOptions astar;
  astar.agent_size = 2;
  const std::vector<Cell> cells = passable_cells(map);
  std::size_t found = 0;
  for (std::size_t i = 0; i < cells.size(); i += 11) {
    const PathResult a = find_path_with_derived(bounded, cells.front(), cells[i], jps_plus);
    const PathResult b = find_path_with_derived(reference, cells.front(), cells[i], astar);
    ASSERT_EQ(a.status, b.status) << cell_text(cells[i]) << ": " << a.message;
    if (b.found()) {
      ++found;
      EXPECT_TRUE(nearly_equal(a.cost, b.cost)) << cell_text(cells[i]);
    }
  }
  EXPECT_GT(found, 0u);
}

// ---- Files

class GoalBoundsFiles : public TemporaryFolderTest {};

GridMap test_map() {
  TestRandom random(4);
  return random_uniform_map(random, 20, 30, 0.45);
}

constexpr TableFileWords goal_bounds_file{"map.bounds", "not a goal bounds file", "after the boxes", 389, 523};

std::string load_problem(const std::vector<unsigned char>& bytes, const GridMap& map) {
  return table_load_problem<GridGoalBounds>(bytes, map, goal_bounds_file.file_name);
}

TEST_F(GoalBoundsFiles, RoundTripGivesTheSameBoundsAndPaths) {
  const GridMap map = test_map();
  const GridGoalBounds built(map);
  const std::filesystem::path file = directory_ / "map.bounds";
  built.save(file);
  EXPECT_EQ(std::filesystem::file_size(file), 40 + map.cell_count() * 64);
  const GridGoalBounds loaded = GridGoalBounds::load(file, map);
  for (NodeId cell = 0; cell < map.cell_count(); ++cell)
    for (int direction = 0; direction < jump_direction_count; ++direction)
      ASSERT_EQ(loaded.box(cell, direction), built.box(cell, direction));
  EXPECT_EQ(loaded.to_bytes(), built.to_bytes());
  EXPECT_EQ(loaded.build_seconds(), 0.0);

  GridQuery with_loaded(map);
  with_loaded.set_goal_bounds(std::make_shared<const GridGoalBounds>(loaded));
  GridQuery reference(map);
  const std::vector<Cell> cells = passable_cells(map);
  for (std::size_t i = 0; i < cells.size(); i += 5) {
    const PathResult a = find_path_with_derived(with_loaded, cells.front(), cells[i], jps_plus_options());
    const PathResult b = find_path_with_derived(reference, cells.front(), cells[i], GridSearchOptions{});
    ASSERT_EQ(a.status, b.status);
    if (b.found()) {
      EXPECT_TRUE(nearly_equal(a.cost, b.cost));
    }
  }
}

TEST_F(GoalBoundsFiles, RejectsFilesForOtherMapsVersionsAndDamage) {
  const GridMap map = test_map();
  expect_damaged_table_files_refused<GridGoalBounds>(map, goal_bounds_file);
  // A jump table is not goal bounds.
  EXPECT_NE(load_problem(GridJumpTable(map).to_bytes(), map).find("not a goal bounds file"), std::string::npos);
}

/// `bytes` (a goal bounds file for `map`) with the box of `cell` in `direction` replaced and the
/// checksum of the values made to match again.
std::vector<unsigned char> forge_box(std::vector<unsigned char> bytes, const GridMap& map, Cell cell, int direction,
                                     GoalBox box) {
  const std::size_t at = 40 + (map.id_of(cell) * jump_direction_count + static_cast<std::size_t>(direction)) * 8;
  const std::int16_t values[4] = {box.min_x, box.min_y, box.max_x, box.max_y};
  for (int i = 0; i < 4; ++i) {
    const auto value = static_cast<std::uint16_t>(values[i]);
    bytes[at + 2 * static_cast<std::size_t>(i)] = static_cast<unsigned char>(value & 0xff);
    bytes[at + 2 * static_cast<std::size_t>(i) + 1] = static_cast<unsigned char>(value >> 8);
  }
  forge_table_checksum(bytes);
  return bytes;
}

TEST_F(GoalBoundsFiles, RefusesBoxesEditedAndChecksummedAgain) {
  // Two rooms joined by a door in the wall at x = 4, and a closed room on the right.
  GridMap map(12, 6);
  for (int y = 0; y < 6; ++y) {
    if (y != 5) map.set_passable(4, y, false);
    map.set_passable(8, y, false);
  }
  map.forget_changes();
  const std::vector<unsigned char> good = GridGoalBounds(map).to_bytes();
  ASSERT_EQ(load_problem(good, map), "");
  auto expect_refused = [&](Cell cell, int direction, GoalBox box, const std::string& words) {
    const std::string problem = load_problem(forge_box(good, map, cell, direction, box), map);
    EXPECT_NE(problem.find(words), std::string::npos) << problem;
    EXPECT_NE(problem.find("corrupted"), std::string::npos) << problem;
  };
  const GridGoalBounds built(map);
  const int east = 2;
  const int north_east = 1;
  // A box for a move into the wall.
  expect_refused({3, 1}, east, {0, 0, 3, 5}, "no move leaves the cell that way");
  // A box on a blocked cell.
  expect_refused({4, 1}, east, {5, 0, 7, 5}, "no move leaves the cell that way");
  // A diagonal move that would cut the wall's corner.
  expect_refused({3, 5}, north_east, {5, 0, 7, 5}, "no move leaves the cell that way");
  // A box without the cell its move reaches.
  expect_refused({1, 1}, east, {5, 0, 7, 5}, "leaves out the cell");
  // A box reaching the closed room on the right, or out of the map.
  GoalBox wider = built.box(map.id_of(6, 2), east);
  wider.max_x = 10;
  expect_refused({6, 2}, east, wider, "outside the cell's connected region");
  wider.max_x = 30;
  expect_refused({6, 2}, east, wider, "outside the cell's connected region");
  // A possible move with no box, and boxes that leave part of the region out.
  expect_refused({1, 1}, east, GoalBox{}, "leaves out the cell");
  // The one box of a cell that reaches the region's right side, made to stop one column short.
  bool narrowed = false;
  for (NodeId id = 0; id < map.cell_count() && !narrowed; ++id)
    for (int direction = 0; direction < jump_direction_count && !narrowed; ++direction) {
      const Cell cell = map.cell_of(id);
      GoalBox narrower = built.box(id, direction);
      if (narrower.empty() || narrower.max_x <= cell.x + jump_direction_dx[direction]) continue;
      bool alone = true;
      for (int other = 0; other < jump_direction_count; ++other)
        if (other != direction && !built.box(id, other).empty() && built.box(id, other).max_x >= narrower.max_x)
          alone = false;
      if (!alone) continue;
      narrower.max_x = static_cast<std::int16_t>(narrower.max_x - 1);
      expect_refused(cell, direction, narrower, "do not cover its connected region");
      narrowed = true;
    }
  EXPECT_TRUE(narrowed);
}

TEST_F(GoalBoundsFiles, ForgedBoundsThatLoadNeverGiveAPathThroughAWall) {
  // What the load checks cannot see: a box shrunk inside its region. Such bounds only remove
  // jumps, so a search may lose optimality or the path, but never crosses a wall.
  const GridMap map = test_map();
  const GridGoalBounds built(map);
  const std::vector<unsigned char> good = built.to_bytes();
  const std::vector<Cell> cells = passable_cells(map);
  GridQuery reference(map);
  TestRandom random(9);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<unsigned char> bytes = good;
    // Shrink several boxes to the one cell their move reaches, which the checks allow as long
    // as another of the cell's boxes still covers the region.
    for (int edit = 0; edit < 20; ++edit) {
      const Cell cell = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const int direction = random.between(0, jump_direction_count - 1);
      const GoalBox box = built.box(map.id_of(cell), direction);
      if (box.empty()) continue;
      const Cell next{cell.x + jump_direction_dx[direction], cell.y + jump_direction_dy[direction]};
      const std::vector<unsigned char> candidate = forge_box(bytes, map, cell, direction,
                                                             {static_cast<std::int16_t>(next.x),
                                                              static_cast<std::int16_t>(next.y),
                                                              static_cast<std::int16_t>(next.x),
                                                              static_cast<std::int16_t>(next.y)});
      if (load_problem(candidate, map).empty()) bytes = candidate;
    }
    GridQuery forged(map);
    forged.set_goal_bounds(std::make_shared<const GridGoalBounds>(
        GridGoalBounds::from_bytes(bytes.data(), bytes.size(), map, "forged.bounds")));
    for (int query = 0; query < 20; ++query) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const PathResult a = find_path_with_derived(forged, start, goal, jps_plus_options());
      const PathResult b = reference.find_path(start, goal, GridSearchOptions{});
      if (!a.found()) continue;
      ASSERT_TRUE(b.found());
      const GridPathCheck check = check_grid_path(map, a.nodes, DiagonalMode::only_if_no_obstacles);
      ASSERT_TRUE(check.valid) << check.problem;
      EXPECT_TRUE(nearly_equal(check.cost, a.cost));
      EXPECT_GE(a.cost, b.cost - 1e-9);
    }
  }
}

TEST(GridGoalBounds, TheirBuildsMemoryIsEstimatedBeforeBuilding) {
  const GridMap map = test_map();
  const std::size_t one_thread = GridGoalBounds::build_memory_bytes_for(map, 1);
  EXPECT_GE(one_thread, GridGoalBounds(map, {}, 1).memory_bytes());
  // Each thread adds its own search's arrays.
  EXPECT_GT(GridGoalBounds::build_memory_bytes_for(map, 2), one_thread);
  EXPECT_EQ(GridGoalBounds::build_memory_bytes_for(map, 0), one_thread);
}

TEST_F(GoalBoundsFiles, ErrorsNameTheFile) {
  expect_table_load_errors_name_the_file<GridGoalBounds>(directory_, test_map(), ".bounds");
}

// ---- MovingAI data: a real map small enough to build its bounds in a few seconds (da2's
// ht_chantry, 7461 passable cells); every query (a sample with WAYFINDER_SAMPLE_DATA=1 or under
// sanitizers, which also build on a third of the time) at the recorded optimum.

TEST(GridGoalBoundsData, OptimalOnEveryQueryOfASmallMovingAiMap) {
  const std::filesystem::path path = data_directory() / "movingai" / "da2" / "ht_chantry.map.scen";
  if (!std::filesystem::exists(path)) {
    const std::string message = "no " + path.string();
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << message;
  }
  const Scenario scenario = read_movingai_scenario(path);
  const GridMap map = read_movingai_map(scenario_map_path(path));
  ASSERT_TRUE(map.uniform_cost());
  auto bounds = std::make_shared<const GridGoalBounds>(map, GridGoalBounds::Progress{}, 2);
  if (!sanitized_build()) expect_boxes_of_per_cell_dijkstra(map, *bounds, "ht_chantry");
  GridQuery bounded(map);
  bounded.set_goal_bounds(bounds);
  GridQuery plain(map);
  const std::size_t stride = sanitized_build() ? 20 : 1;
  std::size_t run = 0;
  std::size_t failures = 0;
  std::uint64_t expanded = 0;
  std::uint64_t plain_expanded = 0;
  for (std::size_t i = 0; i < scenario.queries.size(); i += stride) {
    const ScenarioQuery& query = scenario.queries[i];
    const PathResult result = find_path_with_derived(bounded, query.start, query.goal, jps_plus_options());
    const PathResult reference = find_path_with_derived(plain, query.start, query.goal, jps_plus_options());
    ++run;
    expanded += result.stats.expanded;
    plain_expanded += reference.stats.expanded;
    std::string problem;
    if (!result.found()) {
      problem = "status " + std::string(to_string(result.status)) + " " + result.message;
    } else if (std::abs(result.cost - query.optimal_length) > 1e-3) {
      problem = "cost " + std::to_string(result.cost) + " is not the optimum";
    } else {
      const GridPathCheck check = check_grid_path(map, result.nodes, DiagonalMode::only_if_no_obstacles);
      if (!check.valid) problem = "check_grid_path: " + check.problem;
    }
    if (result.stats.expanded > reference.stats.expanded) problem += " expanded more than JPS+";
    if (!problem.empty() && ++failures <= 10)
      ADD_FAILURE() << "ht_chantry:" << query.line << " " << cell_text(query.start) << " -> " << cell_text(query.goal)
                    << ", optimal " << query.optimal_length << ": " << problem;
  }
  EXPECT_EQ(failures, 0u) << failures << " of " << run << " queries failed";
  EXPECT_GT(run, 0u);
  std::cout << "[ data     ] da2/ht_chantry goal bounds: " << run << " queries, mean expanded "
            << static_cast<double>(expanded) / static_cast<double>(run) << " (jps-plus "
            << static_cast<double>(plain_expanded) / static_cast<double>(run) << "), bounds "
            << bounds->memory_bytes() / 1024 << " KiB built in " << bounds->build_seconds() * 1000.0 << " ms\n";
}

}  // namespace
}  // namespace wayfinder
