// Grid flow fields: hand-made cases for the move rules and terrain, every kind of bad input,
// and proof that the field is exact: on random grids (every diagonal mode, terrain costs, one
// to three goals) and on MovingAI maps (Sturtevant 2012), following the field from every cell
// reaches a goal along legal moves, the traced path costs what cost_to_goal() says, and that
// cost equals an independent Dijkstra's and GridQuery's A* from the cell (the nearest goal's
// cost with several goals).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

constexpr DiagonalMode all_modes[] = {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                      DiagonalMode::only_if_no_obstacles, DiagonalMode::always};

GridMap map_from_rows(const std::vector<std::string>& rows) {
  GridMap map(static_cast<int>(rows.front().size()), static_cast<int>(rows.size()));
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const char c = rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
      if (c == '@') map.set_passable(x, y, false);
      if (c >= '2' && c <= '9') map.set_cost(x, y, static_cast<float>(c - '0'));
    }
  return map;
}

// ---------------------------------------------------------------------------------------------
// Following the field from every cell, independently of the field's own path_from()

struct FieldAudit {
  std::size_t reachable = 0;
  std::size_t failures = 0;
  std::string first_problem;
  double max_relative_error = 0.0;  ///< |traced cost - cost_to_goal| / max(1, cost)
  std::size_t longest_path = 0;     ///< moves

  void fail(const std::string& problem) {
    if (failures++ == 0) first_problem = problem;
  }
};

std::string text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

/// For every cell: a reachable cell's next move is legal under the diagonal mode and leads, in
/// at most reachable_count() moves, to the goal goal_index() names, along a path whose move costs
/// (summed by the documented rule) equal cost_to_goal(); an unreachable cell gives no move, an
/// infinite cost and no goal. Each cell's traced cost is the cost of its first move plus its next
/// cell's traced cost, so the whole map is checked in O(cells) rather than O(cells x length).
FieldAudit audit_field(const GridMap& map, const GridFlowField& field, DiagonalMode mode, const std::vector<Cell>& goals) {
  FieldAudit audit;
  const std::size_t count = map.cell_count();
  constexpr double unknown = -1.0;
  std::vector<double> traced(count, unknown);
  std::vector<std::size_t> moves(count, 0);
  std::vector<std::uint8_t> on_stack(count, 0);
  std::vector<std::size_t> stack;
  const auto id = [&](Cell c) { return static_cast<std::size_t>(map.id_of(c)); };

  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const Cell cell{x, y};
      if (!field.reachable(cell)) {
        if (field.next_cell(cell) || field.cost_to_goal(cell) != infinite_cost || field.goal_index(cell))
          audit.fail("unreachable cell " + text(cell) + " has a move, a cost or a goal");
        continue;
      }
      ++audit.reachable;
      if (traced[id(cell)] != unknown) continue;
      // Walk forwards to a cell whose traced cost is known (or a goal), then unwind.
      Cell at = cell;
      bool broken = false;
      while (traced[id(at)] == unknown) {
        const std::optional<Cell> next = field.next_cell(at);
        if (!next) {
          audit.fail("reachable cell " + text(at) + " has no next cell");
          broken = true;
          break;
        }
        if (*next == at) {  // a goal
          const std::optional<std::size_t> goal = field.goal_index(at);
          if (!goal || *goal >= goals.size() || !(goals[*goal] == at) || field.cost_to_goal(at) != 0.0) {
            audit.fail("path from " + text(cell) + " stops at " + text(at) + ", which is not its goal at cost 0");
            broken = true;
            break;
          }
          traced[id(at)] = 0.0;
          break;
        }
        if (!reference_move_allowed(map, mode, at.x, at.y, next->x - at.x, next->y - at.y)) {
          audit.fail("move " + text(at) + " -> " + text(*next) + " is not allowed with " + std::string(to_string(mode)));
          broken = true;
          break;
        }
        if (field.goal_index(*next) != field.goal_index(at)) {
          audit.fail("cells " + text(at) + " and " + text(*next) + " on one path lead to different goals");
          broken = true;
          break;
        }
        if (on_stack[id(at)] != 0 || stack.size() > field.reachable_count()) {
          audit.fail("following the field from " + text(cell) + " loops");
          broken = true;
          break;
        }
        on_stack[id(at)] = 1;
        stack.push_back(id(at));
        at = *next;
      }
      while (!stack.empty()) {
        const std::size_t here = stack.back();
        stack.pop_back();
        on_stack[here] = 0;
        if (broken) continue;
        const Cell from = map.cell_of(static_cast<NodeId>(here));
        const Cell to = *field.next_cell(from);
        traced[here] = reference_move_cost(map, from.x, from.y, to.x - from.x, to.y - from.y) + traced[id(to)];
        moves[here] = moves[id(to)] + 1;
      }
      if (broken) continue;
      const double expected = field.cost_to_goal(cell);
      const double error = std::abs(traced[id(cell)] - expected) / std::max(1.0, expected);
      audit.max_relative_error = std::max(audit.max_relative_error, error);
      audit.longest_path = std::max(audit.longest_path, moves[id(cell)]);
      if (error > 1e-9)
        audit.fail("path from " + text(cell) + " costs " + std::to_string(traced[id(cell)]) + " but cost_to_goal says " +
                   std::to_string(expected));
    }
  }
  if (audit.reachable != field.reachable_count())
    audit.fail("reachable_count() is " + std::to_string(field.reachable_count()) + " but " +
               std::to_string(audit.reachable) + " cells are reachable");
  return audit;
}

/// The cheapest cost from each cell to its nearest goal, by the test's own Dijkstra from each
/// goal (moves cost the same both ways, as grid.md documents).
std::vector<double> reference_nearest_costs(const GridMap& map, DiagonalMode mode, const std::vector<Cell>& goals) {
  std::vector<double> nearest(map.cell_count(), std::numeric_limits<double>::infinity());
  for (const Cell goal : goals) {
    const std::vector<double> costs = reference_costs_from(map, mode, goal);
    for (std::size_t i = 0; i < costs.size(); ++i) nearest[i] = std::min(nearest[i], costs[i]);
  }
  return nearest;
}

// ---------------------------------------------------------------------------------------------
// Hand-made cases

TEST(GridFlowField, OpenGridCostsAreOctileDistances) {
  const GridMap map(12, 9);
  const Cell goal{3, 4};
  const GridFlowField field(map, goal);
  ASSERT_EQ(field.status(), FlowFieldStatus::built) << field.message();
  EXPECT_TRUE(field.message().empty());
  EXPECT_EQ(field.reachable_count(), map.cell_count());
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const double dx = std::abs(x - goal.x), dy = std::abs(y - goal.y);
      EXPECT_NEAR(field.cost_to_goal({x, y}), std::max(dx, dy) + (std::sqrt(2.0) - 1.0) * std::min(dx, dy), 1e-12);
      EXPECT_EQ(field.goal_index({x, y}), std::optional<std::size_t>(0));
    }
  EXPECT_EQ(field.next_cell(goal), std::optional<Cell>(goal));
  EXPECT_EQ(field.next_cell({0, 4}), std::optional<Cell>(Cell{1, 4}));
  EXPECT_EQ(field.next_cell({11, 8}), std::optional<Cell>(Cell{10, 7}));
  EXPECT_EQ(field.next_node(map.id_of(11, 8)), map.id_of(10, 7));
  EXPECT_EQ(field.next_node(map.id_of(goal)), map.id_of(goal));
  EXPECT_EQ(field.goals(), std::vector<Cell>{goal});
  EXPECT_EQ(field.width(), 12);
  EXPECT_EQ(field.height(), 9);
  EXPECT_EQ(field.diagonal(), DiagonalMode::only_if_no_obstacles);
}

TEST(GridFlowField, EachDiagonalModeDecidesTheCornerMove) {
  // Goal at (2,0); the agent at (1,1) has a blocked cell at (1,0) above it and a free one at
  // (2,1) to its right; the agent at (0,2)'s diagonal has both side cells blocked.
  const GridMap map = map_from_rows({
      "@@.",
      "@..",
      ".@@",
  });
  const Cell goal{2, 0};
  struct Expected {
    DiagonalMode mode;
    double from_corner;               // cost from (1,1)
    std::optional<Cell> corner_next;  // next cell from (1,1)
    bool far_reachable;               // whether (0,2) reaches the goal (only by squeezing diagonally)
  };
  const Expected cases[] = {
      {DiagonalMode::never, 2.0, Cell{2, 1}, false},
      {DiagonalMode::at_least_one_walkable, std::sqrt(2.0), Cell{2, 0}, false},
      {DiagonalMode::only_if_no_obstacles, 2.0, Cell{2, 1}, false},
      {DiagonalMode::always, std::sqrt(2.0), Cell{2, 0}, true},
  };
  for (const Expected& expected : cases) {
    SCOPED_TRACE(std::string(to_string(expected.mode)));
    GridFlowFieldOptions options;
    options.diagonal = expected.mode;
    const GridFlowField field(map, goal, options);
    ASSERT_TRUE(field.built()) << field.message();
    EXPECT_NEAR(field.cost_to_goal({1, 1}), expected.from_corner, 1e-12);
    EXPECT_EQ(field.next_cell({1, 1}), expected.corner_next);
    EXPECT_EQ(field.reachable({0, 2}), expected.far_reachable);
    if (expected.far_reachable) {
      EXPECT_EQ(field.next_cell({0, 2}), std::optional<Cell>(Cell{1, 1}));
      EXPECT_NEAR(field.cost_to_goal({0, 2}), 2.0 * std::sqrt(2.0), 1e-12);
    } else {
      EXPECT_EQ(field.next_cell({0, 2}), std::nullopt);
      EXPECT_EQ(field.cost_to_goal({0, 2}), infinite_cost);
    }
  }
}

TEST(GridFlowField, TerrainCostsSendAgentsAroundASwamp) {
  // Straight through the swamp (cost 9) costs 1 + 9 + 9 + 1 = 20 halves = 10; around it
  // costs 2 sqrt 2 + 2 (4-connected: 6).
  const GridMap map = map_from_rows({
      ".....",
      "..9..",
      ".....",
  });
  const Cell goal{4, 1};
  GridFlowFieldOptions options;
  options.diagonal = DiagonalMode::never;
  const GridFlowField four(map, goal, options);
  ASSERT_TRUE(four.built());
  EXPECT_NEAR(four.cost_to_goal({0, 1}), 6.0, 1e-12);
  EXPECT_NE(four.next_cell({1, 1}), std::optional<Cell>(Cell{2, 1}));
  // Standing on the swamp, leaving it costs (9 + 1) / 2 = 5, then 1 more.
  EXPECT_NEAR(four.cost_to_goal({2, 1}), 6.0, 1e-12);

  const GridFlowField eight(map, goal);
  ASSERT_TRUE(eight.built());
  EXPECT_NEAR(eight.cost_to_goal({0, 1}), 2.0 * std::sqrt(2.0) + 2.0, 1e-12);
  const PathResult path = eight.path_from({0, 1});
  ASSERT_TRUE(path.found());
  for (const NodeId node : path.nodes) EXPECT_NE(node, map.id_of(2, 1)) << "the path crosses the swamp";
}

TEST(GridFlowField, SeveralGoalsLeadEachCellToItsNearest) {
  const GridMap map = map_from_rows({
      "..........",
      "....@.....",
      "....@.....",
      "....@.....",
  });
  const std::vector<Cell> goals{{0, 3}, {9, 0}, {0, 3}};  // the third repeats the first
  const GridFlowField field(map, goals);
  ASSERT_TRUE(field.built()) << field.message();
  EXPECT_EQ(field.goals(), goals);
  EXPECT_EQ(field.goal_index({1, 2}), std::optional<std::size_t>(0));
  EXPECT_EQ(field.goal_index({8, 3}), std::optional<std::size_t>(1));
  EXPECT_EQ(field.goal_index({0, 3}), std::optional<std::size_t>(0)) << "a repeated goal leads to its first listing";
  EXPECT_EQ(field.cost_to_goal({9, 0}), 0.0);
  EXPECT_EQ(field.next_cell({9, 0}), std::optional<Cell>(Cell{9, 0}));
  const FieldAudit audit = audit_field(map, field, DiagonalMode::only_if_no_obstacles, goals);
  EXPECT_EQ(audit.failures, 0u) << audit.first_problem;
}

TEST(GridFlowField, CellsCutOffFromTheGoalAreUnreachable) {
  const GridMap map = map_from_rows({
      "..@..",
      "..@..",
      "@@@..",
      ".....",
  });
  const GridFlowField field(map, Cell{4, 3});
  ASSERT_TRUE(field.built());
  for (const Cell cut_off : {Cell{0, 0}, Cell{1, 1}}) {
    EXPECT_FALSE(field.reachable(cut_off));
    EXPECT_EQ(field.next_cell(cut_off), std::nullopt);
    EXPECT_EQ(field.cost_to_goal(cut_off), infinite_cost);
    EXPECT_EQ(field.goal_index(cut_off), std::nullopt);
    EXPECT_EQ(field.next_node(map.id_of(cut_off)), invalid_node);
    const PathResult path = field.path_from(cut_off);
    EXPECT_EQ(path.status, SearchStatus::no_path);
    EXPECT_TRUE(path.nodes.empty());
  }
  EXPECT_EQ(field.reachable_count(), 11u);
}

TEST(GridFlowField, PathFromFollowsTheField) {
  const GridMap map = map_from_rows({
      "......",
      ".@@@@.",
      ".....2",
  });
  const GridFlowField field(map, Cell{5, 0});
  ASSERT_TRUE(field.built());
  const Cell start{0, 2};
  const PathResult path = field.path_from(start);
  ASSERT_TRUE(path.found());
  EXPECT_EQ(path.reason, StopReason::goal_reached);
  EXPECT_EQ(path.cost, field.cost_to_goal(start));
  ASSERT_EQ(path.points.size(), path.nodes.size());
  Cell at = start;
  for (std::size_t i = 0; i < path.nodes.size(); ++i) {
    EXPECT_EQ(path.nodes[i], map.id_of(at));
    EXPECT_EQ(path.points[i], GridMap::centre(at));
    at = *field.next_cell(at);
  }
  const ReferencePathCheck check = reference_check_path(map, path.nodes, DiagonalMode::only_if_no_obstacles, start, {5, 0});
  ASSERT_TRUE(check.valid()) << check.problem;
  EXPECT_NEAR(check.cost, path.cost, 1e-12);
  const PathResult at_goal = field.path_from({5, 0});
  ASSERT_TRUE(at_goal.found());
  EXPECT_EQ(at_goal.nodes, std::vector<NodeId>{map.id_of(5, 0)});
  EXPECT_EQ(at_goal.cost, 0.0);
}

TEST(GridFlowField, RejectsBadInputWithAMessage) {
  const GridMap map = map_from_rows({
      "...",
      ".@.",
  });
  const auto rejected = [&](std::vector<Cell> goals, const GridFlowFieldOptions& options, const std::string& needle) {
    GridFlowField field;
    EXPECT_NO_THROW(field.build(map, goals, options));
    EXPECT_EQ(field.status(), FlowFieldStatus::invalid_input);
    EXPECT_NE(field.message().find(needle), std::string::npos) << field.message();
  };
  rejected({}, {}, "at least one goal");
  rejected({{3, 0}}, {}, "goal 0 (3,0) is outside the 3x2 map");
  rejected({{0, 0}, {-1, 1}}, {}, "goal 1 (-1,1) is outside");
  rejected({{0, 0}, {1, 1}}, {}, "goal 1 (1,1) is blocked");
  GridFlowFieldOptions bad_mode;
  bad_mode.diagonal = static_cast<DiagonalMode>(7);
  rejected({{0, 0}}, bad_mode, "unknown diagonal mode 7");
  GridFlowField on_empty;
  EXPECT_EQ(on_empty.build(GridMap{}, Cell{0, 0}), FlowFieldStatus::invalid_input);
  EXPECT_EQ(on_empty.message(), "the map is empty");
}

TEST(GridFlowField, ARejectedBuildLeavesNothingOfTheLastOne) {
  const GridMap map(4, 4);
  GridFlowField field(map, Cell{0, 0});
  ASSERT_TRUE(field.built());
  ASSERT_TRUE(field.reachable({3, 3}));
  EXPECT_EQ(field.build(map, Cell{9, 9}), FlowFieldStatus::invalid_input);
  EXPECT_FALSE(field.built());
  EXPECT_EQ(field.reachable_count(), 0u);
  EXPECT_TRUE(field.goals().empty());
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      EXPECT_FALSE(field.reachable({x, y}));
      EXPECT_EQ(field.next_cell({x, y}), std::nullopt);
      EXPECT_EQ(field.cost_to_goal({x, y}), infinite_cost);
      EXPECT_EQ(field.next_node(map.id_of(x, y)), invalid_node);
    }
  const PathResult path = field.path_from({1, 1});
  EXPECT_EQ(path.status, SearchStatus::invalid_input);
  EXPECT_NE(path.message.find("not built (status invalid_input)"), std::string::npos) << path.message;
  // And it can be built again.
  EXPECT_EQ(field.build(map, Cell{3, 3}), FlowFieldStatus::built);
  EXPECT_TRUE(field.message().empty());
  EXPECT_EQ(field.cost_to_goal({3, 3}), 0.0);
}

TEST(GridFlowField, QueriesOutsideTheMapOrOnBlockedCellsAreAnsweredNotCrashed) {
  const GridMap map = map_from_rows({
      "...",
      ".@.",
  });
  const GridFlowField empty;
  EXPECT_EQ(empty.status(), FlowFieldStatus::empty);
  EXPECT_EQ(empty.next_cell({0, 0}), std::nullopt);
  EXPECT_EQ(empty.next_node(0), invalid_node);
  EXPECT_EQ(empty.path_from({0, 0}).status, SearchStatus::invalid_input);

  const GridFlowField field(map, Cell{0, 0});
  ASSERT_TRUE(field.built());
  for (const Cell outside : {Cell{-1, 0}, Cell{0, -1}, Cell{3, 0}, Cell{0, 2}, Cell{std::numeric_limits<int>::min(), 0},
                             Cell{std::numeric_limits<int>::max(), std::numeric_limits<int>::max()}}) {
    EXPECT_EQ(field.next_cell(outside), std::nullopt);
    EXPECT_EQ(field.cost_to_goal(outside), infinite_cost);
    EXPECT_FALSE(field.reachable(outside));
    EXPECT_EQ(field.goal_index(outside), std::nullopt);
    const PathResult path = field.path_from(outside);
    EXPECT_EQ(path.status, SearchStatus::invalid_input);
    EXPECT_NE(path.message.find("is outside the 3x2 map"), std::string::npos) << path.message;
  }
  EXPECT_EQ(field.next_node(static_cast<NodeId>(map.cell_count())), invalid_node);
  EXPECT_EQ(field.next_node(invalid_node), invalid_node);
  const Cell blocked{1, 1};
  EXPECT_EQ(field.next_cell(blocked), std::nullopt);
  EXPECT_EQ(field.cost_to_goal(blocked), infinite_cost);
  const PathResult on_blocked = field.path_from(blocked);
  EXPECT_EQ(on_blocked.status, SearchStatus::invalid_input);
  EXPECT_EQ(on_blocked.message, "start (1,1) is blocked");
}

TEST(GridFlowField, RebuildingEqualsBuildingAfresh) {
  TestRandom random(77);
  RandomMapSpec spec;
  spec.min_side = 20;
  spec.max_side = 30;
  const GridMap big = random_map(random, spec);
  const GridMap small(6, 5);
  GridFlowField reused(big, passable_cells(big).front());
  ASSERT_TRUE(reused.built());
  const std::vector<Cell> goals{{5, 4}, {0, 0}};
  ASSERT_EQ(reused.build(small, goals), FlowFieldStatus::built);
  const GridFlowField fresh(small, goals);
  EXPECT_EQ(reused.width(), 6);
  EXPECT_EQ(reused.reachable_count(), fresh.reachable_count());
  for (int y = 0; y < small.height(); ++y)
    for (int x = 0; x < small.width(); ++x) {
      EXPECT_EQ(reused.cost_to_goal({x, y}), fresh.cost_to_goal({x, y}));
      EXPECT_EQ(reused.next_cell({x, y}), fresh.next_cell({x, y}));
      EXPECT_EQ(reused.goal_index({x, y}), fresh.goal_index({x, y}));
    }
}

TEST(GridFlowField, KeepsNineBytesPerCellForOneGoalAndThirteenForSeveral) {
  const GridMap map(64, 32);
  const GridFlowField one(map, Cell{1, 1});
  EXPECT_EQ(one.memory_bytes(), map.cell_count() * 9);
  const GridFlowField several(map, std::vector<Cell>{{1, 1}, {60, 30}});
  EXPECT_EQ(several.memory_bytes(), map.cell_count() * 13);
}

// ---------------------------------------------------------------------------------------------
// Random grids: every diagonal mode, terrain costs, one to three goals, every cell

TEST(GridFlowField, MatchesDijkstraAndAStarFromEveryCellOfRandomGrids) {
  TestRandom random(20240917);
  const int maps = sanitized_build() ? 40 : 150;
  std::size_t cells_checked = 0, astar_checked = 0;
  for (int trial = 0; trial < maps; ++trial) {
    const GridMap map = random_map(random);
    const std::vector<Cell> passable = passable_cells(map);
    if (passable.empty()) continue;
    std::vector<Cell> goals;
    const int goal_count = random.between(1, 3);
    for (int i = 0; i < goal_count; ++i)
      goals.push_back(passable[static_cast<std::size_t>(random.between(0, static_cast<int>(passable.size()) - 1))]);
    GridQuery pathfinder(map);
    for (const DiagonalMode mode : all_modes) {
      SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::string(to_string(mode)) + ", " +
                   std::to_string(map.width()) + "x" + std::to_string(map.height()) + ", " +
                   std::to_string(goals.size()) + " goals" + (map.uniform_cost() ? "" : ", weighted"));
      GridFlowFieldOptions options;
      options.diagonal = mode;
      const GridFlowField field(map, goals, options);
      ASSERT_TRUE(field.built()) << field.message();
      const FieldAudit audit = audit_field(map, field, mode, goals);
      ASSERT_EQ(audit.failures, 0u) << audit.first_problem;

      const std::vector<double> reference = reference_nearest_costs(map, mode, goals);
      GridSearchOptions search;
      search.diagonal = mode;
      for (const Cell cell : passable) {
        const double expected = reference[map.id_of(cell)];
        const double cost = field.cost_to_goal(cell);
        ++cells_checked;
        if (std::isinf(expected)) {
          ASSERT_FALSE(field.reachable(cell)) << text(cell);
          continue;
        }
        ASSERT_TRUE(nearly_equal(cost, expected)) << text(cell) << ": field " << cost << ", reference " << expected;
        // A* from the cell to each goal: the field's goal must be one of the nearest.
        double nearest = infinite_cost;
        std::vector<double> per_goal;
        for (const Cell goal : goals) {
          const PathResult path = pathfinder.find_path(cell, goal, search);
          per_goal.push_back(path.found() ? path.cost : infinite_cost);
          nearest = std::min(nearest, per_goal.back());
        }
        ++astar_checked;
        ASSERT_TRUE(nearly_equal(cost, nearest)) << text(cell) << ": field " << cost << ", A* " << nearest;
        ASSERT_TRUE(nearly_equal(per_goal[*field.goal_index(cell)], nearest))
            << text(cell) << " leads to goal " << *field.goal_index(cell) << ", which is not a nearest one";
      }
    }
  }
  std::cout << "[ flow     ] " << cells_checked << " cells checked, " << astar_checked << " against A*\n";
  EXPECT_GT(astar_checked, 1000u);
}

// ---------------------------------------------------------------------------------------------
// MovingAI maps

struct MapCase {
  std::string name;       ///< for the test's name
  std::string scenario;   ///< relative to <data>/movingai; the goals are those of its last queries
  int goal_count = 1;
  std::size_t astar_sample = 0;  ///< cells compared with A* (0: every reachable cell)
};

void PrintTo(const MapCase& data, std::ostream* out) { *out << data.name; }

const MapCase map_cases[] = {
    {"arena2", "dao/arena2.map.scen", 1, 0},
    {"den520d", "dao/den520d.map.scen", 1, 2000},
    {"den520d_three_goals", "dao/den520d.map.scen", 3, 1000},
    {"AR0011SR", "bg512/AR0011SR.map.scen", 1, 1500},
    {"Aftershock", "sc1/Aftershock.map.scen", 1, 1500},
    {"Aftershock_two_goals", "sc1/Aftershock.map.scen", 2, 600},
    {"maze512", "mazes/maze512-1-0.map.scen", 1, 200},
    {"random512_40", "random/random512-40-0.map.scen", 1, 600},
};

class FlowFieldMapTest : public ::testing::TestWithParam<MapCase> {};

TEST_P(FlowFieldMapTest, EveryCellFollowsACheapestPathToItsNearestGoal) {
  const MapCase& data = GetParam();
  const std::filesystem::path scenario_path = data_directory() / "movingai" / data.scenario;
  if (!std::filesystem::exists(scenario_path)) {
    const std::string message = scenario_path.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << message;
  }
  const Scenario scenario = read_movingai_scenario(scenario_path);
  const GridMap map = read_movingai_map(scenario_map_path(scenario_path));
  ASSERT_GE(scenario.queries.size(), static_cast<std::size_t>(data.goal_count));
  // The goals of the last (longest) queries: far-apart cells on the main component.
  std::vector<Cell> goals;
  for (int i = 0; i < data.goal_count; ++i) goals.push_back(scenario.queries[scenario.queries.size() - 1 - static_cast<std::size_t>(i) * 7].goal);
  constexpr DiagonalMode mode = DiagonalMode::only_if_no_obstacles;

  const auto began = std::chrono::steady_clock::now();
  const GridFlowField field(map, goals);
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  ASSERT_TRUE(field.built()) << field.message();

  // Every cell: the traced path is legal, ends at its goal and costs cost_to_goal().
  const FieldAudit audit = audit_field(map, field, mode, goals);
  EXPECT_EQ(audit.failures, 0u) << audit.failures << " problems; the first: " << audit.first_problem;

  // Every cell: the cost equals an independent Dijkstra's, and unreachable cells agree.
  const std::vector<double> reference = reference_nearest_costs(map, mode, goals);
  std::size_t mismatches = 0, unreachable = 0;
  std::vector<Cell> reachable_cells;
  for (const Cell cell : passable_cells(map)) {
    const double expected = reference[map.id_of(cell)];
    if (std::isinf(expected)) {
      ++unreachable;
      if (field.reachable(cell) && mismatches++ < 5) ADD_FAILURE() << text(cell) << " is reachable in the field only";
      continue;
    }
    reachable_cells.push_back(cell);
    if (!nearly_equal(field.cost_to_goal(cell), expected) && mismatches++ < 5)
      ADD_FAILURE() << text(cell) << ": field " << field.cost_to_goal(cell) << ", reference " << expected;
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(reachable_cells.size(), field.reachable_count());

  // A* from the cells (all of them, or an even sample; fewer in sanitizer builds) to each goal.
  std::size_t sample = data.astar_sample == 0 ? reachable_cells.size() : data.astar_sample;
  if (sanitized_build()) sample = std::min<std::size_t>(sample, data.astar_sample == 0 ? 60 : 20);
  sample = std::min(sample, reachable_cells.size());
  const std::size_t stride = std::max<std::size_t>(1, reachable_cells.size() / std::max<std::size_t>(1, sample));
  GridQuery pathfinder(map);
  std::size_t astar_checked = 0, astar_mismatches = 0;
  double max_error = 0.0;
  for (std::size_t i = 0; i < reachable_cells.size() && astar_checked < sample; i += stride) {
    const Cell cell = reachable_cells[i];
    double nearest = infinite_cost;
    double to_field_goal = infinite_cost;
    for (std::size_t g = 0; g < goals.size(); ++g) {
      const PathResult path = pathfinder.find_path(cell, goals[g]);
      const double cost = path.found() ? path.cost : infinite_cost;
      nearest = std::min(nearest, cost);
      if (field.goal_index(cell) == g) to_field_goal = cost;
    }
    ++astar_checked;
    const double cost = field.cost_to_goal(cell);
    max_error = std::max(max_error, std::abs(cost - nearest) / std::max(1.0, nearest));
    if ((!nearly_equal(cost, nearest) || !nearly_equal(to_field_goal, nearest)) && astar_mismatches++ < 5)
      ADD_FAILURE() << text(cell) << ": field " << cost << " to goal " << *field.goal_index(cell) << " (A* "
                    << to_field_goal << "), nearest by A* " << nearest;
    // The same path through path_from(), its moves summed from the start end by the test's own
    // checker (the audit above sums from the goal end, as the build does).
    const PathResult path = field.path_from(cell);
    const ReferencePathCheck check =
        reference_check_path(map, path.nodes, mode, cell, goals[field.goal_index(cell).value_or(0)]);
    if ((!path.found() || !check.valid() || !nearly_equal(check.cost, cost)) && astar_mismatches++ < 5)
      ADD_FAILURE() << text(cell) << ": path_from gives " << to_string(path.status) << " " << check.problem
                    << ", cost " << check.cost << " against " << cost;
  }
  EXPECT_EQ(astar_mismatches, 0u);
  EXPECT_GT(astar_checked, 0u);

  // Cells the field cannot reach: A* agrees on a few.
  std::size_t unreachable_checked = 0;
  for (const Cell cell : passable_cells(map)) {
    if (field.reachable(cell) || unreachable_checked >= 20) continue;
    ++unreachable_checked;
    EXPECT_EQ(pathfinder.find_path(cell, goals.front()).status, SearchStatus::no_path) << text(cell);
  }

  std::cout << "[ flow     ] " << data.scenario << " " << goals.size() << " goal(s): built in " << build_ms << " ms, "
            << field.reachable_count() << " reachable, " << unreachable << " unreachable, longest path "
            << audit.longest_path << " moves, max traced error " << audit.max_relative_error << ", " << astar_checked
            << " cells against A* (max relative error " << max_error << ")\n";
}

INSTANTIATE_TEST_SUITE_P(MovingAi, FlowFieldMapTest, ::testing::ValuesIn(map_cases),
                         [](const ::testing::TestParamInfo<MapCase>& param) { return param.param.name; });

}  // namespace
}  // namespace wayfinder
