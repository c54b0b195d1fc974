// Agents larger than one cell: the clearance annotation (grid_clearance.hpp) against a
// brute-force count, searches for 2x2 and 3x3 agents against a textbook Dijkstra over the body's
// positions that checks every cell of the body, property checks of every path (connected, every
// body cell passable on every step, no corner of a wall cut), the unit agent unchanged on
// MovingAI maps, and the errors for bad sizes, bad ends and unsupported algorithms.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/grid/world/grid_body_map.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/world/sized_agent_domain.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

std::string text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

// ---------------------------------------------------------------------------------------------
// References written from the definitions, cell by cell.

/// The largest k whose k x k square at (x, y) is all passable, by trying every k.
int brute_force_clearance(const GridMap& map, int x, int y) {
  int k = 0;
  while (reference_body_fits(map, x, y, k + 1)) ++k;
  return k;
}

/// Checks a path of a size x size agent step by step, from first principles: it runs from
/// start to goal; every step is to one of the 8 neighbours; every cell of the body is passable
/// at every position; a diagonal step is allowed by the diagonal mode, and under
/// only_if_no_obstacles every cell of the (size + 1) x (size + 1) square the body sweeps is
/// passable. Sums the documented costs.
ReferencePathCheck check_body_path(const GridMap& map, const std::vector<NodeId>& nodes, DiagonalMode mode, int size,
                                   Cell start, Cell goal) {
  ReferencePathCheck check;
  if (nodes.empty()) {
    check.problem = "empty path";
    return check;
  }
  const auto cell_of = [&](NodeId id) {
    return Cell{static_cast<int>(id % static_cast<NodeId>(map.width())),
                static_cast<int>(id / static_cast<NodeId>(map.width()))};
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] >= map.cell_count()) {
      check.problem = "node " + std::to_string(i) + " is outside the map";
      return check;
    }
    const Cell at = cell_of(nodes[i]);
    for (int dy = 0; dy < size; ++dy)
      for (int dx = 0; dx < size; ++dx)
        if (!map.passable(at.x + dx, at.y + dy)) {
          check.problem = "step " + std::to_string(i) + " at " + text(at) + ": body cell " +
                          text({at.x + dx, at.y + dy}) + " is blocked or outside";
          return check;
        }
  }
  if (!(cell_of(nodes.front()) == start) || !(cell_of(nodes.back()) == goal)) {
    check.problem = "path runs from " + text(cell_of(nodes.front())) + " to " + text(cell_of(nodes.back()));
    return check;
  }
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const Cell from = cell_of(nodes[i - 1]);
    const Cell to = cell_of(nodes[i]);
    const int dx = to.x - from.x;
    const int dy = to.y - from.y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) {
      check.problem = "step " + std::to_string(i) + " from " + text(from) + " to " + text(to) + " is not a move";
      return check;
    }
    if (!reference_move_allowed(map, mode, from.x, from.y, dx, dy, size)) {
      check.problem = "step " + std::to_string(i) + " from " + text(from) + " to " + text(to) + " breaks the rule";
      return check;
    }
    if (dx != 0 && dy != 0 && mode == DiagonalMode::only_if_no_obstacles) {
      const int left = std::min(from.x, to.x);
      const int top = std::min(from.y, to.y);
      for (int y = top; y <= top + size; ++y)
        for (int x = left; x <= left + size; ++x)
          if (!map.passable(x, y)) {
            check.problem = "step " + std::to_string(i) + " from " + text(from) + " to " + text(to) +
                            " cuts the corner of blocked cell " + text({x, y});
            return check;
          }
    }
    check.cost += reference_move_cost(map, from.x, from.y, dx, dy);
    ++check.moves;
  }
  return check;
}

std::vector<Cell> fitting_positions(const GridMap& map, int size) {
  std::vector<Cell> cells;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (reference_body_fits(map, x, y, size)) cells.push_back({x, y});
  return cells;
}

// ---------------------------------------------------------------------------------------------
// The clearance itself

TEST(GridClearance, EqualsTheBruteForceCountOnRandomMaps) {
  TestRandom random(20080815);
  RandomMapSpec spec;
  spec.min_side = 1;
  spec.max_side = 30;
  spec.max_blocked_fraction = 0.5;
  for (int round = 0; round < 300; ++round) {
    const GridMap map = random_map(random, spec);
    const GridClearance clearance(map);
    ASSERT_TRUE(clearance.current_for(map));
    ASSERT_EQ(clearance.width(), map.width());
    ASSERT_EQ(clearance.height(), map.height());
    for (int y = -1; y <= map.height(); ++y)
      for (int x = -1; x <= map.width(); ++x)
        ASSERT_EQ(clearance.value(x, y), brute_force_clearance(map, x, y))
            << "map " << round << " (" << map.width() << "x" << map.height() << ") at " << text({x, y});
  }
}

TEST(GridClearance, NeighbourhoodBitsMatchTheValues) {
  TestRandom random(7);
  RandomMapSpec spec;
  spec.max_side = 16;
  for (int round = 0; round < 50; ++round) {
    const GridMap map = random_map(random, spec);
    const GridClearance clearance(map);
    for (int size = 1; size <= 4; ++size)
      for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
          std::uint32_t expected = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              if (reference_body_fits(map, x + dx, y + dy, size)) expected |= 1u << ((dy + 1) * 3 + (dx + 1));
          ASSERT_EQ(clearance.fitting_neighbourhood(x, y, static_cast<std::uint8_t>(size)), expected);
          if (size == 1) {
            ASSERT_EQ(expected, map.neighbourhood(x, y));
          }
        }
  }
}

TEST(GridClearance, IsCappedAt255) {
  GridMap map(300, 290);
  map.set_passable(299, 0, false);
  const GridClearance clearance(map);
  EXPECT_EQ(clearance.value(0, 0), max_clearance);  // 290 without the cap
  EXPECT_EQ(clearance.value(10, 20), max_clearance);
  EXPECT_EQ(clearance.value(40, 30), max_clearance);  // 260 without the cap
  EXPECT_EQ(clearance.value(280, 1), 20);
  EXPECT_EQ(clearance.value(298, 0), 1);
  EXPECT_EQ(clearance.value(299, 0), 0);
  EXPECT_EQ(clearance.value(299, 289), 1);
  EXPECT_EQ(clearance.value(100, 100), 190);
  EXPECT_EQ(clearance.value(300, 0), 0);
}

TEST(GridClearance, KnowsTheRevisionItWasComputedFor) {
  GridMap map(8, 6);
  GridClearance clearance;
  EXPECT_FALSE(clearance.current_for(map));
  clearance.recompute(map);
  EXPECT_TRUE(clearance.current_for(map));
  EXPECT_EQ(clearance.value(0, 0), 6);
  map.block({5, 4});
  EXPECT_FALSE(clearance.current_for(map));
  EXPECT_EQ(clearance.value(0, 0), 6);  // never updated by edits
  clearance.recompute(map);
  EXPECT_TRUE(clearance.current_for(map));
  EXPECT_EQ(clearance.revision(), map.revision());
  EXPECT_EQ(clearance.value(0, 0), 5);
  EXPECT_FALSE(clearance.current_for(GridMap(8, 7)));
}

TEST(GridClearance, NamesTheFirstBlockedBodyCell) {
  GridMap map(6, 6);
  map.block({3, 2});
  EXPECT_EQ(first_blocked_body_cell(map, {2, 1}, 3), (Cell{3, 2}));
  EXPECT_EQ(first_blocked_body_cell(map, {0, 0}, 2), std::nullopt);
  EXPECT_EQ(first_blocked_body_cell(map, {5, 5}, 2), (Cell{6, 5}));
}

// ---------------------------------------------------------------------------------------------
// Searches for agents of 1, 2 and 3 cells against the reference

struct AlgorithmCase {
  GridAlgorithm algorithm;
  bool optimal;
};

constexpr AlgorithmCase sized_algorithms[] = {
    {GridAlgorithm::astar, true},          {GridAlgorithm::dijkstra, true},
    {GridAlgorithm::bidirectional_astar, true}, {GridAlgorithm::weighted_astar, false},
    {GridAlgorithm::greedy_best_first, false},
};

TEST(SizedAgentSearch, AgreesWithDijkstraOverBodyPositionsOnRandomMaps) {
  TestRandom random(2008);
  const int map_count = sanitized_build() ? 60 : 200;
  constexpr DiagonalMode modes[] = {DiagonalMode::only_if_no_obstacles, DiagonalMode::never,
                                    DiagonalMode::at_least_one_walkable, DiagonalMode::always};
  std::size_t compared = 0, unreachable = 0, ida_compared = 0, jump_compared = 0, hierarchical_compared = 0;
  for (int round = 0; round < map_count; ++round) {
    const int width = random.between(12, 24);
    const int height = random.between(12, 24);
    GridMap map(width, height);
    const bool weighted = random.chance(0.3);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        if (random.chance(0.3))
          map.set_passable(x, y, false);
        else if (weighted && random.chance(0.5))
          map.set_cost(x, y, static_cast<float>(random.between(2, 4)) * 0.5f);
      }
    GridQuery pathfinder(map);
    const DiagonalMode mode = modes[round % 4];
    for (int size = 1; size <= 3; ++size) {
      const std::vector<Cell> positions = fitting_positions(map, size);
      if (positions.size() < 2) continue;
      for (int pair = 0; pair < 3; ++pair) {
        const Cell start = positions[static_cast<std::size_t>(random.between(0, static_cast<int>(positions.size()) - 1))];
        const Cell goal = positions[static_cast<std::size_t>(random.between(0, static_cast<int>(positions.size()) - 1))];
        const std::vector<double> reference = reference_costs_from(map, mode, start, size);
        const double optimal = reference[map.id_of(goal)];
        const std::string where = "map " + std::to_string(round) + " (" + std::to_string(width) + "x" +
                                  std::to_string(height) + ", " + std::string(to_string(mode)) + "), size " +
                                  std::to_string(size) + ", " + text(start) + " -> " + text(goal);
        std::vector<AlgorithmCase> algorithms(std::begin(sized_algorithms), std::end(sized_algorithms));
        // IDA* is exponential on open ground: a few small queries only.
        if (pair == 0 && std::isfinite(optimal) && optimal < 12.0) algorithms.push_back({GridAlgorithm::ida_star, true});
        // The one-cell searches on the body map: the MovingAI rule only, jump points on
        // uniform costs only; the hierarchy (small clusters, so that the maps have several)
        // is near-optimal.
        if (mode == DiagonalMode::only_if_no_obstacles) {
          if (!weighted) {
            algorithms.push_back({GridAlgorithm::jump_point, true});
            algorithms.push_back({GridAlgorithm::jump_point_plus, true});
          }
          algorithms.push_back({GridAlgorithm::hierarchical, false});
        }
        for (const AlgorithmCase& entry : algorithms) {
          GridSearchOptions options;
          options.algorithm = entry.algorithm;
          options.diagonal = mode;
          options.agent_size = size;
          options.cluster_size = 4;
          const PathResult result = find_path_with_derived(pathfinder, start, goal, options);
          const std::string what = where + ", " + std::string(to_string(entry.algorithm));
          if (std::isinf(optimal)) {
            ASSERT_EQ(result.status, SearchStatus::no_path) << what << ": " << result.message;
            continue;
          }
          ASSERT_EQ(result.status, SearchStatus::found) << what << ": " << result.message;
          const ReferencePathCheck check = check_body_path(map, result.nodes, mode, size, start, goal);
          ASSERT_TRUE(check.valid()) << what << ": " << check.problem;
          ASSERT_TRUE(nearly_equal(check.cost, result.cost)) << what << ": reported " << result.cost << ", path costs "
                                                             << check.cost;
          if (entry.optimal) {
            ASSERT_TRUE(nearly_equal(result.cost, optimal)) << what << ": " << result.cost << " against " << optimal;
          } else if (entry.algorithm == GridAlgorithm::weighted_astar) {
            ASSERT_LE(result.cost, options.weight * optimal * (1 + 1e-9)) << what;
          }
          // Points are the centres of the body.
          ASSERT_EQ(result.points.size(), result.nodes.size());
          const Cell first = map.cell_of(result.nodes.front());
          ASSERT_DOUBLE_EQ(result.points.front().x, first.x + 0.5 * size) << what;
          ASSERT_DOUBLE_EQ(result.points.front().y, first.y + 0.5 * size) << what;
          if (entry.algorithm == GridAlgorithm::ida_star) ++ida_compared;
          if (entry.algorithm == GridAlgorithm::jump_point && size > 1) ++jump_compared;
          if (entry.algorithm == GridAlgorithm::hierarchical && size > 1) ++hierarchical_compared;
        }
        (std::isinf(optimal) ? unreachable : compared) += 1;
      }
    }
  }
  EXPECT_GT(compared, static_cast<std::size_t>(map_count));
  EXPECT_GT(unreachable, 0u);
  EXPECT_GT(ida_compared, 10u);
  // A quarter of the maps use the MovingAI rule, about 70% of those have uniform costs.
  EXPECT_GE(jump_compared, static_cast<std::size_t>(map_count / 10));
  EXPECT_GE(hierarchical_compared, static_cast<std::size_t>(map_count / 10));
}

TEST(SizedAgentSearch, TheBodyDoesNotCutCorners) {
  // A 2x2 agent at (0,0) going right and down past a single blocked cell at (2,2):
  //   . . . . .
  //   . . . . .
  //   . . # . .
  //   . . . . .
  // Unit agents would go diagonally from (0,0) to (1,1), but the body at (1,1) covers (2,2).
  GridMap map(5, 5);
  map.block({2, 2});
  GridQuery pathfinder(map);
  GridSearchOptions options;
  options.agent_size = 2;
  EXPECT_EQ(find_path_with_derived(pathfinder, {0, 0}, {3, 3}, options).status, SearchStatus::found);
  // Open corridor two cells wide: a 2x2 agent passes, a 3x3 does not fit.
  GridMap corridor(10, 6);
  corridor.block_rect({0, 0, 10, 2});
  corridor.block_rect({0, 4, 10, 2});
  GridQuery along(corridor);
  const PathResult wide = find_path_with_derived(along, {0, 2}, {8, 2}, options);
  ASSERT_EQ(wide.status, SearchStatus::found) << wide.message;
  EXPECT_DOUBLE_EQ(wide.cost, 8.0);
  EXPECT_DOUBLE_EQ(wide.points.back().x, 9.0);
  EXPECT_DOUBLE_EQ(wide.points.back().y, 3.0);
  options.agent_size = 3;
  const PathResult too_big = find_path_with_derived(along, {0, 2}, {7, 2}, options);
  EXPECT_EQ(too_big.status, SearchStatus::invalid_input);
  // A diagonal past a corner: the 2x2 agent at (0,0) to (1,1) needs the 3x3 square at (0,0)
  // free; with (2,0) blocked it must step down, then right.
  GridMap corner(4, 4);
  corner.block({2, 0});
  GridQuery around(corner);
  options.agent_size = 2;
  const PathResult strict = find_path_with_derived(around, {0, 0}, {1, 1}, options);
  ASSERT_EQ(strict.status, SearchStatus::found);
  EXPECT_DOUBLE_EQ(strict.cost, 2.0);
  options.diagonal = DiagonalMode::at_least_one_walkable;
  const PathResult cutting = find_path_with_derived(around, {0, 0}, {1, 1}, options);
  ASSERT_EQ(cutting.status, SearchStatus::found);
  EXPECT_DOUBLE_EQ(cutting.cost, std::sqrt(2.0));
}

TEST(SizedAgentSearch, SteppingEqualsFindPathAndEditsAreSeen) {
  TestRandom random(99);
  GridMap map(40, 30);
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x)
      if (random.chance(0.05)) map.set_passable(x, y, false);
  map.unblock_rect({0, 0, 3, 3});
  map.unblock_rect({36, 26, 3, 3});
  GridQuery pathfinder(map);
  GridSearchOptions options;
  options.agent_size = 3;
  const PathResult whole = find_path_with_derived(pathfinder, {0, 0}, {36, 26}, options);
  ASSERT_TRUE(whole.found()) << whole.message;
  ASSERT_EQ(begin_with_derived(pathfinder, {0, 0}, {36, 26}, options), SearchStatus::in_progress);
  while (pathfinder.step(7) == SearchStatus::in_progress) {
  }
  const PathResult stepped = pathfinder.result();
  EXPECT_EQ(stepped.status, whole.status);
  EXPECT_EQ(stepped.nodes, whole.nodes);
  EXPECT_EQ(stepped.cost, whole.cost);

  // A wall across the map with a gap of two cells: the 3x3 agent cannot pass any more (the
  // pathfinder must not keep the clearance it computed before the edit), a 2x2 agent can only
  // pass through the gap.
  map.block_rect({20, 0, 1, 30});
  map.unblock_rect({20, 10, 1, 2});
  const PathResult blocked = find_path_with_derived(pathfinder, {0, 0}, {36, 26}, options);
  EXPECT_EQ(blocked.status, SearchStatus::no_path) << blocked.message;
  options.agent_size = 2;
  const PathResult through = find_path_with_derived(pathfinder, {0, 0}, {36, 26}, options);
  if (through.found()) {
    EXPECT_TRUE(check_body_path(map, through.nodes, options.diagonal, 2, {0, 0}, {36, 26}).valid());
    EXPECT_NE(std::find(through.nodes.begin(), through.nodes.end(), map.id_of(20, 10)), through.nodes.end());
  }
  // An edit between steps ends the search as for any size.
  options.agent_size = 2;
  ASSERT_EQ(begin_with_derived(pathfinder, {0, 0}, {1, 1}, options), SearchStatus::in_progress);
  map.block({30, 3});
  EXPECT_EQ(pathfinder.step(1), SearchStatus::world_changed);
}

// ---------------------------------------------------------------------------------------------
// The body map and the one-cell searches that run on it

// Every cell of `body` as a body map of `map` for `size` must read: passable where the body
// fits, at the top-left cell's cost.
void expect_body_map_of(const GridBodyMap& body, const GridMap& map, int size, const std::string& where) {
  const GridClearance clearance(map);
  ASSERT_EQ(body.map().width(), map.width());
  ASSERT_EQ(body.map().height(), map.height());
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const bool fits = clearance.fits({x, y}, size);
      ASSERT_EQ(body.map().passable(x, y), fits) << where << ", cell " << text({x, y});
      if (fits) {
        ASSERT_EQ(body.map().cost(x, y), map.cost(x, y)) << where << ", cell " << text({x, y});
      }
    }
}

TEST(GridBodyMap, FollowsEditsAndSizesAsAFreshBuildWould) {
  TestRandom random(2011);
  GridMap map(30, 20);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 30; ++x)
      if (random.chance(0.2)) map.set_passable(x, y, false);
  GridClearance clearance(map);
  GridBodyMap body;
  body.update(map, clearance, 2);
  EXPECT_TRUE(body.current_for(map, 2));
  EXPECT_FALSE(body.current_for(map, 3));
  expect_body_map_of(body, map, 2, "built");
  EXPECT_EQ(body.map().revision(), 0u);

  // Nothing changed: no edit of the body map.
  body.update(map, clearance, 2);
  EXPECT_EQ(body.map().revision(), 0u);

  for (int round = 0; round < 40; ++round) {
    const int size = random.between(1, 4);
    const Cell cell{random.between(0, 29), random.between(0, 19)};
    if (random.chance(0.3))
      map.set_cost(cell.x, cell.y, 2.0f);
    else
      map.set_passable(cell.x, cell.y, !map.passable(cell));
    EXPECT_FALSE(body.current_for(map, size));
    clearance.recompute(map);
    const std::uint64_t before = body.map().revision();
    body.update(map, clearance, size);
    expect_body_map_of(body, map, size, "round " + std::to_string(round));
    // Only the cells that changed for the agent are edited, and they are logged for the
    // structures built over the body map.
    const auto changes = body.map().changes_since(before);
    ASSERT_TRUE(changes.has_value());
    EXPECT_LE(changes->size(), static_cast<std::size_t>(map.cell_count()));
  }
}

TEST(SizedAgentSearch, JumpPointsAndTheHierarchyFollowEditsOnTheBodyMap) {
  TestRandom random(1204);
  GridMap map(48, 36);
  for (int y = 0; y < 36; ++y)
    for (int x = 0; x < 48; ++x)
      if (random.chance(0.08)) map.set_passable(x, y, false);
  GridQuery pathfinder(map);
  std::size_t found = 0;
  for (int round = 0; round < 30; ++round) {
    // A few cells flip each round: the body map, its JPS+ table and its hierarchy must follow.
    for (int edit = 0; edit < 4; ++edit) {
      const Cell cell{random.between(0, 47), random.between(0, 35)};
      map.set_passable(cell.x, cell.y, !map.passable(cell));
    }
    const int size = random.between(2, 3);
    const std::vector<Cell> positions = fitting_positions(map, size);
    ASSERT_GE(positions.size(), 2u);
    const Cell start = positions[static_cast<std::size_t>(random.between(0, static_cast<int>(positions.size()) - 1))];
    const Cell goal = positions[static_cast<std::size_t>(random.between(0, static_cast<int>(positions.size()) - 1))];
    const double optimal = reference_costs_from(map, DiagonalMode::only_if_no_obstacles, start, size)[map.id_of(goal)];
    const std::string where = "round " + std::to_string(round) + ", size " + std::to_string(size) + ", " +
                              text(start) + " -> " + text(goal);
    for (const GridAlgorithm algorithm :
         {GridAlgorithm::jump_point, GridAlgorithm::jump_point_plus, GridAlgorithm::hierarchical}) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      options.agent_size = size;
      options.cluster_size = 8;
      const PathResult result = find_path_with_derived(pathfinder, start, goal, options);
      const std::string what = where + ", " + std::string(to_string(algorithm));
      if (std::isinf(optimal)) {
        ASSERT_EQ(result.status, SearchStatus::no_path) << what << ": " << result.message;
        continue;
      }
      ASSERT_EQ(result.status, SearchStatus::found) << what << ": " << result.message;
      const ReferencePathCheck check = check_body_path(map, result.nodes, DiagonalMode::only_if_no_obstacles, size,
                                                       start, goal);
      ASSERT_TRUE(check.valid()) << what << ": " << check.problem;
      if (algorithm == GridAlgorithm::hierarchical)
        ASSERT_GE(result.cost, optimal * (1 - 1e-9)) << what;
      else
        ASSERT_TRUE(nearly_equal(result.cost, optimal)) << what << ": " << result.cost << " against " << optimal;
      ++found;
    }
    // The one-cell agent's searches are untouched by the larger agent's.
    GridSearchOptions unit;
    unit.algorithm = GridAlgorithm::jump_point_plus;
    const PathResult plain = find_path_with_derived(pathfinder, start, goal, unit);
    unit.algorithm = GridAlgorithm::astar;
    const PathResult reference = find_path_with_derived(pathfinder, start, goal, unit);
    ASSERT_EQ(plain.status, reference.status) << where;
    if (plain.found()) {
      ASSERT_TRUE(nearly_equal(plain.cost, reference.cost)) << where;
    }
  }
  EXPECT_GT(found, 30u);
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(SizedAgentSearch, RefusesBadSizesEndsAndAlgorithms) {
  GridMap map(10, 10);
  map.block({4, 4});
  GridQuery pathfinder(map);
  GridSearchOptions options;
  for (const int size : {0, -1, 256, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    options.agent_size = size;
    const PathResult result = find_path_with_derived(pathfinder, {0, 0}, {9, 9}, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input) << size;
    EXPECT_NE(result.message.find("agent_size must be from 1 to 255"), std::string::npos) << result.message;
  }
  options.agent_size = 2;
  PathResult result = find_path_with_derived(pathfinder, {3, 3}, {0, 0}, options);
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_EQ(result.message, "start (3,3): a 2x2 agent with its top-left cell there does not fit: its cell (4,4) is blocked");
  result = find_path_with_derived(pathfinder, {0, 0}, {9, 5}, options);
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_EQ(result.message,
            "goal (9,5): a 2x2 agent with its top-left cell there does not fit: its cell (10,5) is outside the 10x10 map");
  options.agent_size = 11;
  result = find_path_with_derived(pathfinder, {0, 0}, {0, 0}, options);
  EXPECT_NE(result.message.find("start (0,0): a 11x11 agent"), std::string::npos) << result.message;

  options.agent_size = 2;
  for (const GridAlgorithm algorithm : every_grid_algorithm) {
    options.algorithm = algorithm;
    result = find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options);
    const bool supported = algorithm != GridAlgorithm::breadth_first && !is_reactive_walker(algorithm);
    if (supported) {
      EXPECT_EQ(result.status, SearchStatus::found) << to_string(algorithm) << ": " << result.message;
    } else {
      EXPECT_EQ(result.status, SearchStatus::invalid_input) << to_string(algorithm);
      EXPECT_NE(result.message.find(" supports only agent_size 1, not 2: "), std::string::npos) << result.message;
      EXPECT_EQ(result.message.rfind(std::string(to_string(algorithm)), 0), 0u) << result.message;
    }
  }
  options.algorithm = GridAlgorithm::breadth_first;
  result = find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options);
  EXPECT_EQ(result.message,
            "bfs supports only agent_size 1, not 2: the wave reads the map's cells directly (use astar, jps or another "
            "search)");

  // A filter that changes nothing is dropped; one that does is refused for large agents.
  options.algorithm = GridAlgorithm::astar;
  options.filter = AreaFilter{};
  EXPECT_EQ(find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options).status, SearchStatus::found);
  map.set_area(GridRect{0, 5, 10, 1}, 1);
  options.filter = AreaFilter{}.set_area_cost(1, 3.0f);
  result = find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options);
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_NE(result.message.find("agent_size 2 cannot be combined with a filter"), std::string::npos) << result.message;
  options.agent_size = 1;
  EXPECT_EQ(find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options).status, SearchStatus::found);
}

// ---------------------------------------------------------------------------------------------
// MovingAI maps: the unit agent is the plain search, and the clearance domain with size 1 finds
// the same costs (the moves it generates are the unit agent's exactly); larger agents give
// valid paths on real maps.

struct DataCase {
  const char* name;
  const char* scenario;  ///< relative to <data>/movingai
};

void PrintTo(const DataCase& data, std::ostream* out) { *out << data.name; }

const DataCase data_cases[] = {
    {"arena2", "dao/arena2.map.scen"},
    {"den520d", "dao/den520d.map.scen"},
    {"AR0011SR", "bg512/AR0011SR.map.scen"},
    {"Berlin_1_256", "cities/Berlin_1_256.map.scen"},
    {"ht_chantry", "da2/ht_chantry.map.scen"},
};

class SizedAgentDataTest : public ::testing::TestWithParam<DataCase> {};

TEST_P(SizedAgentDataTest, SizeOneIsThePlainSearchAndLargerAgentsGetValidPaths) {
  const DataCase& data = GetParam();
  const std::filesystem::path scenario_path = data_directory() / "movingai" / data.scenario;
  if (!std::filesystem::exists(scenario_path)) {
    const std::string message = scenario_path.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << message;
  }
  const Scenario scenario = read_movingai_scenario(scenario_path);
  const GridMap map = read_movingai_map(scenario_map_path(scenario_path));
  const GridClearance clearance(map);
  GridQuery pathfinder(map);
  SearchContext context;
  const std::size_t sample = std::min<std::size_t>(scenario.queries.size(), sanitized_build() ? 20 : 300);
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / sample);
  std::size_t checked = 0, sized_found = 0;
  for (std::size_t i = 0; i < scenario.queries.size() && checked < sample; i += stride, ++checked) {
    const ScenarioQuery& query = scenario.queries[i];
    GridSearchOptions plain;
    const PathResult expected = find_path_with_derived(pathfinder, query.start, query.goal, plain);
    ASSERT_EQ(expected.status, SearchStatus::found) << "line " << query.line;
    EXPECT_NEAR(expected.cost, query.optimal_length, std::max(0.011, 1e-5 * query.optimal_length)) << "line " << query.line;

    GridSearchOptions one = plain;
    one.agent_size = 1;
    const PathResult same = find_path_with_derived(pathfinder, query.start, query.goal, one);
    EXPECT_EQ(same.nodes, expected.nodes) << "line " << query.line;
    EXPECT_EQ(same.cost, expected.cost) << "line " << query.line;
    EXPECT_EQ(same.stats.expanded, expected.stats.expanded) << "line " << query.line;

    // The clearance domain at size 1, driven by the engine directly.
    const SizedAgentGridDomain<GridCosts::uniform> domain(map, clearance, 1, DiagonalMode::only_if_no_obstacles,
                                                          Heuristic::automatic);
    BestFirstSearch<SizedAgentGridDomain<GridCosts::uniform>> search(domain, context);
    SearchOptions engine;
    const PathResult sized_one = search.run(map.id_of(query.start), map.id_of(query.goal), engine);
    ASSERT_EQ(sized_one.status, SearchStatus::found) << "line " << query.line;
    EXPECT_TRUE(nearly_equal(sized_one.cost, expected.cost)) << "line " << query.line;

    // A 2x2 agent from the same start, when it fits there, to the same goal, when it fits.
    GridSearchOptions two = plain;
    two.agent_size = 2;
    if (!clearance.fits(query.start, 2) || !clearance.fits(query.goal, 2)) continue;
    const PathResult large = find_path_with_derived(pathfinder, query.start, query.goal, two);
    ASSERT_TRUE(large.found() || large.status == SearchStatus::no_path) << "line " << query.line << ": " << large.message;
    if (!large.found()) continue;
    ++sized_found;
    const ReferencePathCheck check =
        check_body_path(map, large.nodes, DiagonalMode::only_if_no_obstacles, 2, query.start, query.goal);
    EXPECT_TRUE(check.valid()) << "line " << query.line << ": " << check.problem;
    EXPECT_TRUE(nearly_equal(check.cost, large.cost)) << "line " << query.line;
    EXPECT_GE(large.cost, expected.cost - 1e-9) << "line " << query.line;
  }
  EXPECT_GT(checked, 0u);
  EXPECT_GT(sized_found, 0u);
}

INSTANTIATE_TEST_SUITE_P(MovingAI, SizedAgentDataTest, ::testing::ValuesIn(data_cases),
                         [](const ::testing::TestParamInfo<DataCase>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace wayfinder
