// Areas, flags and per-query filters on grids: the filter type, the map's areas and flags as
// edits, searches under a filter against an independent reference (Dijkstra on a map where the
// filter has been baked into terrain and walls), the fast path for neutral filters, refusals,
// and broken-path checks under a filter.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_breaks.hpp"

namespace wayfinder {
namespace {

using testing::TestRandom;

constexpr AreaFlags door = 1;
constexpr AreaFlags water = 2;
constexpr float excluded = std::numeric_limits<float>::infinity();

TEST(AreaFilter, DefaultPassesEverythingAtCostOne) {
  const AreaFilter filter;
  for (int area = 0; area < max_areas; ++area) {
    EXPECT_EQ(filter.cost(static_cast<AreaId>(area)), 1.0f);
    EXPECT_TRUE(filter.passes(static_cast<AreaId>(area), 0));
    EXPECT_TRUE(filter.passes(static_cast<AreaId>(area), 0xffff));
  }
  EXPECT_FALSE(filter.problem().has_value());
  EXPECT_TRUE(filter.neutral_for(~std::uint64_t{0}, 0xffff));
}

TEST(AreaFilter, FlagRules) {
  AreaFilter monster;
  monster.exclude(door);
  EXPECT_TRUE(monster.flags_pass(0));
  EXPECT_FALSE(monster.flags_pass(door));
  EXPECT_FALSE(monster.flags_pass(door | water));
  EXPECT_TRUE(monster.flags_pass(water));

  AreaFilter swimmer_only;
  swimmer_only.include(water);
  EXPECT_TRUE(swimmer_only.flags_pass(0)) << "plain ground is always included";
  EXPECT_TRUE(swimmer_only.flags_pass(water));
  EXPECT_TRUE(swimmer_only.flags_pass(water | door));
  EXPECT_FALSE(swimmer_only.flags_pass(door));
}

TEST(AreaFilter, AreaCostsAndValidation) {
  AreaFilter filter;
  filter.set_area_cost(3, 2.5f).exclude_area(7);
  EXPECT_EQ(filter.cost(3), 2.5f);
  EXPECT_FALSE(filter.area_passes(7));
  EXPECT_TRUE(filter.area_passes(3));
  EXPECT_THROW(filter.set_area_cost(64, 1.0f), std::invalid_argument);
  EXPECT_THROW(filter.set_area_cost(-1, 1.0f), std::invalid_argument);
  EXPECT_THROW(filter.set_area_cost(1, 0.0f), std::invalid_argument);
  EXPECT_THROW(filter.set_area_cost(1, -2.0f), std::invalid_argument);
  EXPECT_THROW(filter.set_area_cost(1, std::nanf("")), std::invalid_argument);

  // Neutral only where the changed areas and flags are not in use.
  EXPECT_TRUE(filter.neutral_for(0b1, 0));
  EXPECT_FALSE(filter.neutral_for(0b1000, 0));
  EXPECT_FALSE(filter.neutral_for(1u << 7, 0));
  filter.exclude(door);
  EXPECT_TRUE(filter.neutral_for(0b1, water));
  EXPECT_FALSE(filter.neutral_for(0b1, door));
  EXPECT_EQ(filter.smallest_cost(0b1001), 1.0f);
  EXPECT_EQ(filter.smallest_cost(0b1000), 2.5f);
  EXPECT_EQ(filter.smallest_cost(1u << 7), 1.0f) << "only excluded areas: no finite cost to scale by";

  // Costs written directly (as bindings might) are caught by problem().
  AreaFilter raw;
  raw.area_costs[5] = std::nanf("");
  ASSERT_TRUE(raw.problem().has_value());
  EXPECT_NE(raw.problem()->find("area 5"), std::string::npos) << *raw.problem();
  raw.area_costs[5] = 0.0f;
  EXPECT_TRUE(raw.problem().has_value());
}

TEST(GridAreas, AreasAndFlagsAreLoggedEdits) {
  GridMap map(8, 6);
  EXPECT_EQ(map.area(3, 3), 0);
  EXPECT_EQ(map.flags(3, 3), 0);
  EXPECT_EQ(map.area_data(), nullptr) << "no per-cell arrays until something is set";
  EXPECT_EQ(map.areas_in_use(), 1u);
  EXPECT_EQ(map.flags_in_use(), 0);

  map.set_area(Cell{3, 3}, 5);
  EXPECT_EQ(map.revision(), 1u);
  EXPECT_EQ(map.area(3, 3), 5);
  EXPECT_EQ(map.areas_in_use(), (std::uint64_t{1} << 5) | 1u);
  map.set_area(Cell{3, 3}, 5);
  EXPECT_EQ(map.revision(), 1u) << "an edit that changes nothing is not one";

  map.set_flags(GridRect{2, 1, 3, 2}, door);
  EXPECT_EQ(map.revision(), 2u);
  EXPECT_EQ(map.flags_in_use(), door);
  const auto changes = map.changes_since(1);
  ASSERT_TRUE(changes.has_value());
  ASSERT_EQ(changes->size(), 6u);
  for (const GridCellChange& change : *changes) {
    EXPECT_EQ(change.flags_before, 0);
    EXPECT_EQ(change.area_before, 0);
    EXPECT_EQ(change.cost_before, 1.0f);
    EXPECT_EQ(change.revision, 2u);
  }
  map.set_flags(GridRect{2, 1, 3, 2}, 0);
  EXPECT_EQ(map.flags_in_use(), 0) << "clearing the last flagged cell clears the flag's bit";
  map.set_area(Cell{3, 3}, 0);
  EXPECT_EQ(map.areas_in_use(), 1u);
  const auto last = map.changes_since(3);
  ASSERT_TRUE(last && last->size() == 1);
  EXPECT_EQ(last->front().area_before, 5);

  // Blocking keeps the area and records it.
  map.set_area(Cell{1, 1}, 2);
  map.block(Cell{1, 1});
  EXPECT_EQ(map.area(1, 1), 2);
  EXPECT_EQ(map.changes_since(map.revision() - 1)->front().area_before, 2);

  EXPECT_THROW(map.set_area(Cell{0, 0}, 64), std::invalid_argument);
  EXPECT_THROW(map.set_area(Cell{8, 0}, 1), std::out_of_range);
  EXPECT_THROW(map.set_flags(GridRect{6, 4, 3, 3}, door), std::out_of_range);
}

// The filter baked into an ordinary map: excluded cells blocked, costs multiplied. Searches on
// it with no filter are the reference for searches with the filter on the original map.
GridMap baked(const GridMap& map, const AreaFilter& filter) {
  GridMap out(map.width(), map.height());
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y) || !filter.passes(map.area(x, y), map.flags(x, y))) {
        out.set_passable(x, y, false);
      } else {
        out.set_cost(x, y, map.cost(x, y) * filter.cost(map.area(x, y)));
      }
    }
  return out;
}

void paint_random_areas(TestRandom& random, GridMap& map) {
  const int rectangles = random.between(0, 6);
  for (int i = 0; i < rectangles; ++i) {
    const int x = random.between(0, map.width() - 1), y = random.between(0, map.height() - 1);
    const GridRect rect{x, y, random.between(1, map.width() - x), random.between(1, map.height() - y)};
    if (random.chance(0.5)) {
      map.set_area(rect, static_cast<AreaId>(random.between(0, 3)));
    } else {
      map.set_flags(rect, random.chance(0.5) ? door : water);
    }
  }
}

AreaFilter random_filter(TestRandom& random) {
  constexpr float costs[] = {1.0f, 1.0f, 0.5f, 2.0f, 5.0f, 1.25f, excluded};
  AreaFilter filter;
  for (int area = 0; area < 4; ++area)
    filter.area_costs[static_cast<std::size_t>(area)] = costs[random.between(0, static_cast<int>(std::size(costs)) - 1)];
  if (random.chance(0.4)) filter.exclude(door);
  if (random.chance(0.3)) filter.include(water);
  return filter;
}

TEST(GridFilter, SearchesMatchTheBakedReference) {
  TestRandom random(20261122);
  int compared = 0, unreachable = 0;
  for (int trial = 0; trial < 150; ++trial) {
    GridMap map = testing::random_map(random, {.min_side = 5, .max_side = 20, .max_blocked_fraction = 0.3});
    paint_random_areas(random, map);
    const AreaFilter filter = random_filter(random);
    const GridMap reference_map = baked(map, filter);
    const auto cells = testing::passable_cells(reference_map);
    if (cells.size() < 2) continue;
    const DiagonalMode mode = static_cast<DiagonalMode>(random.between(0, 3));
    GridQuery finder(map);
    for (int q = 0; q < 4; ++q) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const double optimal = testing::reference_costs_from(reference_map, mode, start)[reference_map.id_of(goal)];
      for (const GridAlgorithm algorithm :
           {GridAlgorithm::astar, GridAlgorithm::dijkstra, GridAlgorithm::bidirectional_astar, GridAlgorithm::ida_star,
            GridAlgorithm::weighted_astar, GridAlgorithm::greedy_best_first}) {
        GridSearchOptions options;
        options.algorithm = algorithm;
        options.diagonal = mode;
        options.filter = filter;
        const bool ida = algorithm == GridAlgorithm::ida_star;
        // IDA* as the oracle test runs it: small maps, a budget; when it answers, it is optimal.
        if (ida && map.cell_count() > 100) continue;
        if (ida) options.budget.max_expansions = 200'000;
        const PathResult result = finder.find_path(start, goal, options);
        SCOPED_TRACE("trial " + std::to_string(trial) + " " + std::string(to_string(algorithm)));
        if (ida && (result.status == SearchStatus::partial || result.status == SearchStatus::budget_exhausted)) continue;
        if (std::isinf(optimal)) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << result.message;
          ++unreachable;
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << result.message;
        // The path is legal and costs what it says on the baked map.
        const auto check = testing::reference_check_path(reference_map, result.nodes, mode, start, goal);
        ASSERT_TRUE(check.valid()) << check.problem;
        EXPECT_TRUE(testing::nearly_equal(check.cost, result.cost)) << check.cost << " vs " << result.cost;
        if (algorithm == GridAlgorithm::weighted_astar) {
          EXPECT_LE(result.cost, options.weight * optimal * (1 + 1e-9));
        } else if (algorithm != GridAlgorithm::greedy_best_first) {
          EXPECT_TRUE(testing::nearly_equal(result.cost, optimal)) << result.cost << " vs optimal " << optimal;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(unreachable, 0) << "some filters should cut maps in two";
}

// A corridor with a door in the middle and a long way round: the key holder goes through, the
// monster (door excluded) takes the long way, and with the long way walled, finds no path.
GridMap door_map() {
  GridMap map(11, 5);
  // Row 2 is the corridor; a wall in column 5 except the door at (5, 2); rows 0 and 4 are the
  // way round, open at the wall's ends.
  for (int y = 1; y <= 3; ++y) map.set_passable(5, y, false);
  map.set_passable(5, 2, true);
  map.set_flags(Cell{5, 2}, door);
  map.forget_changes();
  return map;
}

TEST(GridFilter, TwoAgentsSeeOneDoorDifferently) {
  GridMap map = door_map();
  GridQuery finder(map);
  GridSearchOptions key_holder;
  GridSearchOptions monster;
  monster.filter = AreaFilter{}.exclude(door);
  const PathResult through = finder.find_path({0, 2}, {10, 2}, key_holder);
  ASSERT_EQ(through.status, SearchStatus::found);
  EXPECT_DOUBLE_EQ(through.cost, 10.0);
  const PathResult round = finder.find_path({0, 2}, {10, 2}, monster);
  ASSERT_EQ(round.status, SearchStatus::found) << round.message;
  EXPECT_GT(round.cost, 10.0);
  for (const NodeId node : round.nodes) EXPECT_NE(node, map.id_of(5, 2)) << "the monster walked through the door";

  map.block(Cell{5, 0});
  map.block(Cell{5, 4});
  EXPECT_EQ(finder.find_path({0, 2}, {10, 2}, monster).status, SearchStatus::no_path);
  EXPECT_EQ(finder.find_path({0, 2}, {10, 2}, key_holder).status, SearchStatus::found);
  monster.partial_when_unreachable = true;
  const PathResult partial = finder.find_path({0, 2}, {10, 2}, monster);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(map.cell_of(partial.nodes.back()), (Cell{4, 2}));
}

TEST(GridFilter, AreaCostsChooseTheCheaperWay) {
  // The straight corridor is swamp (area 1): at cost 3 the way round is cheaper.
  GridMap map = door_map();
  map.set_flags(Cell{5, 2}, 0);
  map.set_area(GridRect{1, 2, 9, 1}, 1);
  GridQuery finder(map);
  GridSearchOptions options;
  EXPECT_DOUBLE_EQ(finder.find_path({0, 2}, {10, 2}, options).cost, 10.0);
  options.filter = AreaFilter{}.set_area_cost(1, 3.0f);
  const PathResult detour = finder.find_path({0, 2}, {10, 2}, options);
  ASSERT_EQ(detour.status, SearchStatus::found);
  EXPECT_LT(detour.cost, 3.0 * 9 + 1.0);
  EXPECT_FALSE(std::find(detour.nodes.begin(), detour.nodes.end(), map.id_of(5, 2)) != detour.nodes.end());
}

TEST(GridFilter, RefusalsNameTheProblem) {
  GridMap map = door_map();
  map.set_area(Cell{0, 0}, 2);
  GridQuery finder(map, testing::derived_for_every_algorithm(map));
  GridSearchOptions options;
  options.filter = AreaFilter{}.exclude(door);

  const PathResult on_door = finder.find_path({5, 2}, {10, 2}, options);
  EXPECT_EQ(on_door.status, SearchStatus::invalid_input);
  EXPECT_NE(on_door.message.find("start (5,2)"), std::string::npos) << on_door.message;
  EXPECT_NE(on_door.message.find("excluded by the filter"), std::string::npos) << on_door.message;
  const PathResult to_door = finder.find_path({0, 2}, {5, 2}, options);
  EXPECT_NE(to_door.message.find("goal (5,2)"), std::string::npos) << to_door.message;

  for (const GridAlgorithm algorithm : {GridAlgorithm::jump_point, GridAlgorithm::jump_point_plus,
                                        GridAlgorithm::breadth_first, GridAlgorithm::crash_right,
                                        GridAlgorithm::divide}) {
    options.algorithm = algorithm;
    const PathResult refused = finder.find_path({0, 2}, {10, 2}, options);
    EXPECT_EQ(refused.status, SearchStatus::invalid_input) << to_string(algorithm);
    EXPECT_NE(refused.message.find("cannot use this filter"), std::string::npos) << refused.message;
  }

  // A filter that changes nothing on this map is accepted by every algorithm: area 5 is not
  // used and water is not a flag any cell has.
  options.filter = AreaFilter{}.exclude_area(5).exclude(water);
  for (const GridAlgorithm algorithm : every_grid_algorithm) {
    options.algorithm = algorithm;
    const PathResult result = finder.find_path({0, 2}, {10, 2}, options);
    EXPECT_NE(result.status, SearchStatus::invalid_input) << to_string(algorithm) << ": " << result.message;
  }

  AreaFilter nan_cost;
  nan_cost.area_costs[2] = std::nanf("");
  options.algorithm = GridAlgorithm::astar;
  options.filter = nan_cost;
  const PathResult bad = finder.find_path({0, 2}, {10, 2}, options);
  EXPECT_EQ(bad.status, SearchStatus::invalid_input);
  EXPECT_NE(bad.message.find("area 2"), std::string::npos) << bad.message;
}

std::filesystem::path den520d_scenario() {
  return testing::data_directory() / "movingai" / "dao" / "den520d.map.scen";
}

TEST(GridFilter, NeutralFilterGivesTheUnfilteredAnswerOnRealMaps) {
  const auto scenario_path = den520d_scenario();
  if (!std::filesystem::exists(scenario_path)) {
    if (testing::data_required()) FAIL() << scenario_path << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << scenario_path << " not found";
  }
  const GridMap map = read_movingai_map(scenario_map_path(scenario_path));
  const Scenario scenario = read_movingai_scenario(scenario_path, 60);
  GridQuery finder(map);
  for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::jump_point}) {
    GridSearchOptions plain;
    plain.algorithm = algorithm;
    GridSearchOptions neutral = plain;
    neutral.filter = AreaFilter{}.exclude(door).set_area_cost(9, 4.0f);
    for (const ScenarioQuery& query : scenario.queries) {
      const PathResult a = finder.find_path(query.start, query.goal, plain);
      const PathResult b = finder.find_path(query.start, query.goal, neutral);
      EXPECT_EQ(a.nodes, b.nodes);
      EXPECT_EQ(a.cost, b.cost);
      EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    }
  }
}

TEST(GridFilter, FilteredSearchOnARealMapMatchesTheBakedMap) {
  const auto scenario_path = den520d_scenario();
  if (!std::filesystem::exists(scenario_path)) {
    if (testing::data_required()) FAIL() << scenario_path << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << scenario_path << " not found";
  }
  GridMap map = read_movingai_map(scenario_map_path(scenario_path));
  TestRandom random(7);
  for (int i = 0; i < 40; ++i) {
    const int x = random.between(0, map.width() - 20), y = random.between(0, map.height() - 20);
    map.set_area(GridRect{x, y, random.between(4, 20), random.between(4, 20)}, static_cast<AreaId>(random.between(1, 3)));
  }
  AreaFilter filter;
  filter.set_area_cost(1, 3.0f).set_area_cost(2, 0.5f).exclude_area(3);
  const GridMap reference_map = baked(map, filter);
  const Scenario scenario = read_movingai_scenario(scenario_path, testing::sanitized_build() ? 20 : 120);
  GridQuery filtered(map);
  GridQuery reference(reference_map);
  GridSearchOptions options;
  options.filter = filter;
  int found = 0;
  for (const ScenarioQuery& query : scenario.queries) {
    const PathResult a = filtered.find_path(query.start, query.goal, options);
    const PathResult b = reference.find_path(query.start, query.goal, GridSearchOptions{});
    if (b.status == SearchStatus::invalid_input) {
      EXPECT_EQ(a.status, SearchStatus::invalid_input) << "an excluded start or goal";
      continue;
    }
    ASSERT_EQ(a.status, b.status) << a.message;
    if (a.status != SearchStatus::found) continue;
    ++found;
    EXPECT_TRUE(testing::nearly_equal(a.cost, b.cost)) << a.cost << " vs " << b.cost;
  }
  EXPECT_GT(found, 10);
}

TEST(GridFilter, SteppedFilteredSearchNoticesAreaEdits) {
  GridMap map(64, 64);
  map.set_area(GridRect{10, 0, 5, 60}, 1);
  GridQuery finder(map);
  GridSearchOptions options;
  options.filter = AreaFilter{}.set_area_cost(1, 4.0f);
  const PathResult whole = finder.find_path({0, 0}, {63, 10}, options);
  ASSERT_EQ(whole.status, SearchStatus::found);
  ASSERT_EQ(finder.begin({0, 0}, {63, 10}, options), SearchStatus::in_progress);
  while (finder.step(16) == SearchStatus::in_progress) {
  }
  const PathResult stepped = finder.result();
  EXPECT_EQ(stepped.nodes, whole.nodes);
  EXPECT_EQ(stepped.cost, whole.cost);

  ASSERT_EQ(finder.begin({0, 0}, {63, 10}, options), SearchStatus::in_progress);
  ASSERT_EQ(finder.step(8), SearchStatus::in_progress);
  map.set_area(Cell{40, 40}, 2);
  EXPECT_EQ(finder.step(8), SearchStatus::world_changed);
}

TEST(GridFilter, BrokenStepsUnderAFilter) {
  GridMap map = door_map();
  map.set_flags(Cell{5, 2}, 0);
  GridQuery finder(map);
  const PathResult path = finder.find_path({0, 2}, {10, 2});
  ASSERT_EQ(path.status, SearchStatus::found);
  const std::uint64_t planned = map.revision();
  const AreaFilter monster = AreaFilter{}.exclude(door).set_area_cost(4, 2.0f);
  constexpr DiagonalMode mode = DiagonalMode::only_if_no_obstacles;

  map.set_flags(Cell{5, 2}, door);  // the door is shut: monsters may not pass
  EXPECT_FALSE(first_blocked_step(map, path.nodes, planned, mode).has_value()) << "a key holder still passes";
  const auto broken = first_blocked_step(map, path.nodes, planned, mode, &monster);
  ASSERT_TRUE(broken.has_value());
  EXPECT_EQ(broken->reason, PathBreak::blocked_cell);
  EXPECT_EQ(map.cell_of(path.nodes[broken->step + 1]), (Cell{5, 2}));

  map.set_flags(Cell{5, 2}, 0);
  map.set_area(Cell{7, 2}, 4);  // area 4 costs the monster double now
  EXPECT_FALSE(first_blocked_step(map, path.nodes, planned, mode).has_value());
  const auto dearer = first_blocked_step(map, path.nodes, planned, mode, &monster);
  ASSERT_TRUE(dearer.has_value());
  EXPECT_EQ(dearer->reason, PathBreak::cost_grew);
  EXPECT_EQ(map.cell_of(path.nodes[dearer->step + 1]), (Cell{7, 2}));
}

}  // namespace
}  // namespace wayfinder
