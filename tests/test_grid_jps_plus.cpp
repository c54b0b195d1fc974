// JPS+ (GridJumpTable + GridAlgorithm::jump_point_plus): the table's distances on hand-made maps,
// optimal lengths against a textbook Dijkstra on random small grids and against the optimum of
// every MovingAI scenario query, stepping, refusals, revisions, and the table's files.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "temporary_folder.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
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

/// A map from rows of '.' (passable) and '@' (blocked).
GridMap map_from_rows(const std::vector<std::string>& rows) {
  GridMap map(static_cast<int>(rows.front().size()), static_cast<int>(rows.size()));
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] == '@') map.set_passable(x, y, false);
  map.forget_changes();
  return map;
}

/// The same distance computed the slow way: walk and test every cell (the rules of
/// grid_jump_table.hpp, written out again).
int reference_distance(const GridMap& map, Cell from, int direction) {
  const int dx = jump_direction_dx[direction];
  const int dy = jump_direction_dy[direction];
  auto straight_jump_point = [&](Cell at, int sx, int sy) {
    // Travelling (sx, sy), arrived at `at`: a side cell free and the one behind it blocked.
    for (const int s : {-1, 1}) {
      const int px = sy * s;
      const int py = sx * s;
      if (map.passable(at.x + px, at.y + py) && !map.passable(at.x + px - sx, at.y + py - sy)) return true;
    }
    return false;
  };
  Cell at = from;
  int steps = 0;
  while (true) {
    const Cell next{at.x + dx, at.y + dy};
    if (!map.passable(next)) return -steps;
    if (dx != 0 && dy != 0 && (!map.passable(at.x + dx, at.y) || !map.passable(at.x, at.y + dy))) return -steps;
    at = next;
    ++steps;
    if (dx == 0 || dy == 0) {
      if (straight_jump_point(at, dx, dy)) return steps;
    } else if (reference_distance(map, at, jump_direction_index(dx, 0)) > 0 ||
               reference_distance(map, at, jump_direction_index(0, dy)) > 0) {
      return steps;
    }
  }
}

TEST(GridJumpTable, DistancesOnAnOpenMapReachTheWalls) {
  const GridMap map(6, 4);
  const GridJumpTable table(map);
  EXPECT_EQ(table.distance(Cell{0, 0}, JumpDirection::east), -5);
  EXPECT_EQ(table.distance(Cell{0, 0}, JumpDirection::west), 0);
  EXPECT_EQ(table.distance(Cell{0, 0}, JumpDirection::south), -3);
  EXPECT_EQ(table.distance(Cell{0, 0}, JumpDirection::south_east), -3);
  EXPECT_EQ(table.distance(Cell{5, 3}, JumpDirection::north_west), -3);
  EXPECT_EQ(table.width(), 6);
  EXPECT_EQ(table.height(), 4);
  EXPECT_GE(table.memory_bytes(), map.cell_count() * 16);
  EXPECT_GE(table.build_seconds(), 0.0);
}

TEST(GridJumpTable, ForcedNeighboursMakeJumpPoints) {
  // Travelling east along row 1, the cell (3,1) has a forced neighbour: (3,0) is free while
  // (2,0) is blocked. A diagonal walk from (0,3) north-east meets row 1 at (2,1), whose east jump
  // reaches that jump point, so (2,1) is a diagonal jump point.
  const GridMap map = map_from_rows({
      "..@.....",
      "........",
      "........",
      "........",
  });
  const GridJumpTable table(map);
  EXPECT_EQ(table.distance(Cell{0, 1}, JumpDirection::east), 3);
  EXPECT_EQ(table.distance(Cell{3, 1}, JumpDirection::east), -4);
  EXPECT_EQ(table.distance(Cell{0, 3}, JumpDirection::north_east), 2);
  EXPECT_EQ(table.distance(Cell{2, 0}, JumpDirection::east), 0) << "blocked cells hold 0";
}

TEST(GridJumpTable, EveryDistanceMatchesTheSlowWalk) {
  TestRandom random(2015);
  for (int round = 0; round < 40; ++round) {
    RandomMapSpec spec;
    spec.weighted_chance = 0.0;
    spec.max_side = 16;
    const GridMap map = random_map(random, spec);
    const GridJumpTable table(map);
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x)
        for (int direction = 0; direction < jump_direction_count; ++direction) {
          const int expected = map.passable(x, y) ? reference_distance(map, {x, y}, direction) : 0;
          ASSERT_EQ(table.distance(map.id_of(x, y), direction), expected)
              << "round " << round << " cell (" << x << "," << y << ") direction " << direction;
        }
  }
}

TEST(GridJumpTable, ReportsProgressToTheEnd) {
  const GridMap map(100, 300);
  std::size_t last_done = 0;
  std::size_t last_total = 0;
  std::size_t calls = 0;
  const GridJumpTable table(map, [&](std::size_t done, std::size_t total) {
    EXPECT_GE(done, last_done);
    last_done = done;
    last_total = total;
    ++calls;
  });
  EXPECT_GT(calls, 1u);
  EXPECT_EQ(last_done, last_total);
  EXPECT_EQ(last_total, 8u * 300u);
}

TEST(GridJumpPointPlus, OptimalOnRandomGridsAgainstDijkstra) {
  TestRandom random(20150302);
  std::size_t queries = 0;
  std::size_t unreachable = 0;
  for (int round = 0; round < (sanitized_build() ? 60 : 300); ++round) {
    RandomMapSpec spec;
    spec.min_side = 1;
    spec.max_side = 20;
    spec.max_blocked_fraction = 0.5;
    spec.weighted_chance = 0.0;
    const GridMap map = random_map(random, spec);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.empty()) continue;
    GridQuery pathfinder(map, derived_for(map, {GridAlgorithm::jump_point_plus}));
    for (int start_index = 0; start_index < 4; ++start_index) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const std::vector<double> best = reference_costs_from(map, DiagonalMode::only_if_no_obstacles, start);
      for (const Cell goal : cells) {
        const PathResult result = pathfinder.find_path(start, goal, jps_plus_options());
        ++queries;
        const double expected = best[map.id_of(goal)];
        const std::string where = "round " + std::to_string(round) + " (" + std::to_string(start.x) + "," +
                                  std::to_string(start.y) + ") -> (" + std::to_string(goal.x) + "," +
                                  std::to_string(goal.y) + ")";
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
        ASSERT_EQ(result.points.size(), result.nodes.size());
      }
    }
  }
  EXPECT_GT(queries, 1000u);
  EXPECT_GT(unreachable, 0u);
}

TEST(GridJumpPointPlus, SteppedEqualsOneShot) {
  TestRandom random(77);
  RandomMapSpec spec;
  spec.min_side = 30;
  spec.max_side = 40;
  spec.max_blocked_fraction = 0.3;
  spec.weighted_chance = 0.0;
  const GridMap map = random_map(random, spec);
  const std::vector<Cell> cells = passable_cells(map);
  GridQuery one_shot(map, derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridQuery stepped(map, derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (int i = 0; i < 50; ++i) {
    const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    const PathResult expected = one_shot.find_path(start, goal, jps_plus_options());
    SearchStatus status = stepped.begin(start, goal, jps_plus_options());
    int steps = 0;
    while (status == SearchStatus::in_progress) {
      status = stepped.step(1);
      ASSERT_LT(++steps, 100000);
    }
    const PathResult result = stepped.result();
    EXPECT_EQ(result.status, expected.status);
    EXPECT_EQ(result.nodes, expected.nodes);
    EXPECT_EQ(result.cost, expected.cost);
    EXPECT_EQ(result.stats.expanded, expected.stats.expanded);
  }
}

TEST(GridJumpPointPlus, RefusesWhatItCannotSearch) {
  GridMap map(10, 10);
  GridQuery pathfinder(map, derived_for(map, {GridAlgorithm::jump_point_plus}));
  GridSearchOptions options = jps_plus_options();

  options.diagonal = DiagonalMode::always;
  PathResult result = pathfinder.find_path({0, 0}, {9, 9}, options);
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_NE(result.message.find("only_if_no_obstacles"), std::string::npos) << result.message;

  // A larger agent is searched on its body map (tested in test_grid_clearance.cpp), not refused.
  options = jps_plus_options();
  options.agent_size = 2;
  result = find_path_with_derived(pathfinder, {0, 0}, {8, 8}, options);
  EXPECT_EQ(result.status, SearchStatus::found) << result.message;
  EXPECT_NEAR(result.cost, 8 * sqrt2, 1e-9);

  map.set_area(GridRect{2, 2, 3, 3}, 1);
  options = jps_plus_options();
  AreaFilter filter;
  filter.set_area_cost(1, 5.0f);
  options.filter = filter;
  result = pathfinder.find_path({0, 0}, {9, 9}, options);
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_NE(result.message.find("filter"), std::string::npos) << result.message;

  map.set_cost(5, 5, 2.0f);
  result = pathfinder.find_path({0, 0}, {9, 9}, jps_plus_options());
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
  EXPECT_NE(result.message.find("costs 1"), std::string::npos) << result.message;

  EXPECT_EQ(parse_grid_algorithm("jps-plus"), GridAlgorithm::jump_point_plus);
  EXPECT_EQ(to_string(GridAlgorithm::jump_point_plus), "jps-plus");
}

TEST(GridJumpPointPlus, ATableIsBuiltOnceAndAgainAfterAnEdit) {
  GridMap map(20, 20);
  GridQuery pathfinder(map);
  EXPECT_EQ(pathfinder.jump_table(), nullptr);
  const PathResult without = pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options());
  EXPECT_EQ(without.status, SearchStatus::invalid_input) << "the pathfinder never builds a table";
  EXPECT_NE(without.message.find("build_grid_derived_data"), std::string::npos) << without.message;
  rebuild_derived(pathfinder, jps_plus_options());
  EXPECT_EQ(pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options()).status, SearchStatus::found);
  const std::shared_ptr<const GridJumpTable> first = pathfinder.jump_table();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(pathfinder.find_path({0, 19}, {19, 0}, jps_plus_options()).status, SearchStatus::found);
  EXPECT_EQ(pathfinder.jump_table(), first) << "the table is kept while the map is unchanged";

  // A wall across the map but for one gap: the table of the old map would walk through it.
  map.block_rect({0, 10, 19, 1});
  EXPECT_THROW(first->check(map), std::invalid_argument);
  EXPECT_NE(first->mismatch(map)->find("revision"), std::string::npos);
  const PathResult stale = pathfinder.find_path({0, 0}, {0, 19}, jps_plus_options());
  EXPECT_EQ(stale.status, SearchStatus::invalid_input) << "a stale table is refused, never used";
  EXPECT_NE(stale.message.find("revision"), std::string::npos) << stale.message;
  rebuild_derived(pathfinder, jps_plus_options());
  const PathResult result = pathfinder.find_path({0, 0}, {0, 19}, jps_plus_options());
  ASSERT_EQ(result.status, SearchStatus::found) << result.message;
  EXPECT_NE(pathfinder.jump_table(), first);
  const std::vector<double> best = reference_costs_from(map, DiagonalMode::only_if_no_obstacles, {0, 0});
  EXPECT_TRUE(nearly_equal(result.cost, best[map.id_of(0, 19)]));
  EXPECT_TRUE(reference_check_path(map, result.nodes, DiagonalMode::only_if_no_obstacles, {0, 0}, {0, 19}).valid());
}

TEST(GridJumpPointPlus, ASetTableIsRefusedOnceTheMapChanges) {
  GridMap map(20, 20);
  GridMap other(20, 20);
  other.block_rect({3, 3, 4, 4});
  other.forget_changes();
  GridQuery pathfinder(map);
  EXPECT_THROW(pathfinder.set_jump_table(std::make_shared<const GridJumpTable>(other)), std::invalid_argument)
      << "a table of another map of the same size and revision";
  EXPECT_THROW(pathfinder.set_jump_table(std::make_shared<const GridJumpTable>(GridMap(5, 5))), std::invalid_argument);

  auto table = std::make_shared<const GridJumpTable>(map);
  pathfinder.set_jump_table(table);
  EXPECT_EQ(pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options()).status, SearchStatus::found);
  EXPECT_EQ(pathfinder.jump_table(), table);

  map.set_passable(5, 5, false);
  const PathResult refused = pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options());
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("revision"), std::string::npos) << refused.message;

  pathfinder.set_jump_table(nullptr);
  EXPECT_EQ(pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options()).status, SearchStatus::invalid_input);
  rebuild_derived(pathfinder, jps_plus_options());  // a table of the map as it is now
  EXPECT_EQ(pathfinder.find_path({0, 0}, {19, 19}, jps_plus_options()).status, SearchStatus::found);
  EXPECT_NE(pathfinder.jump_table(), table);
}

TEST(GridJumpPointPlus, AnEditBetweenStepsIsNoticed) {
  GridMap map(200, 200);
  GridQuery pathfinder(map);
  // A maze of walls with gaps, so the search takes many expansions.
  for (int x = 4; x < 200; x += 4) map.block_rect({x, x % 8 == 0 ? 1 : 0, 1, 199});
  pathfinder.set_derived_data(derived_for(map, {GridAlgorithm::jump_point_plus}));
  ASSERT_EQ(pathfinder.begin({0, 0}, {199, 199}, jps_plus_options()), SearchStatus::in_progress);
  ASSERT_EQ(pathfinder.step(2), SearchStatus::in_progress);
  map.set_passable(1, 199, false);
  EXPECT_EQ(pathfinder.step(1000000), SearchStatus::world_changed);
}

// ---- Files

class JumpTableFiles : public TemporaryFolderTest {};

GridMap test_map() {
  TestRandom random(4);
  RandomMapSpec spec;
  spec.min_side = 20;
  spec.max_side = 30;
  spec.weighted_chance = 0.0;
  GridMap map = random_map(random, spec);
  map.forget_changes();
  return map;
}

constexpr TableFileWords jump_table_file{"table.jump", "not a jump table file", "after the distances", 97, 131};

/// The cause of the LoadError that loading `bytes` for `map` throws ("" if none).
std::string load_problem(const std::vector<unsigned char>& bytes, const GridMap& map) {
  return table_load_problem<GridJumpTable>(bytes, map, jump_table_file.file_name);
}

TEST_F(JumpTableFiles, RoundTripGivesTheSameTableAndPaths) {
  const GridMap map = test_map();
  const GridJumpTable built(map);
  const std::filesystem::path file = directory_ / "map.jump";
  built.save(file);
  EXPECT_EQ(std::filesystem::file_size(file), 40 + map.cell_count() * 16);
  const GridJumpTable loaded = GridJumpTable::load(file, map);
  for (NodeId cell = 0; cell < map.cell_count(); ++cell)
    for (int direction = 0; direction < jump_direction_count; ++direction)
      ASSERT_EQ(loaded.distance(cell, direction), built.distance(cell, direction));
  EXPECT_EQ(loaded.to_bytes(), built.to_bytes());
  EXPECT_EQ(loaded.build_seconds(), 0.0);

  GridQuery with_loaded(map);
  with_loaded.set_jump_table(std::make_shared<const GridJumpTable>(loaded));
  GridQuery reference(map);
  GridSearchOptions astar;
  const std::vector<Cell> cells = passable_cells(map);
  for (std::size_t i = 0; i < cells.size(); i += 7) {
    const PathResult a = with_loaded.find_path(cells.front(), cells[i], jps_plus_options());
    const PathResult b = reference.find_path(cells.front(), cells[i], astar);
    ASSERT_EQ(a.status, b.status);
    if (b.found()) {
      EXPECT_TRUE(nearly_equal(a.cost, b.cost));
    }
  }
}

TEST_F(JumpTableFiles, RejectsFilesForOtherMapsVersionsAndDamage) {
  // Every truncation is refused, and so is every flipped bit of the header and a sample of the
  // distances.
  expect_damaged_table_files_refused<GridJumpTable>(test_map(), jump_table_file);
}

TEST_F(JumpTableFiles, RefusesDistancesEditedAndChecksummedAgain) {
  // A wall between the start and the goal, with a gap far below: the only paths go round.
  const GridMap map = map_from_rows({"..........",
                                     "....@.....",
                                     "....@.....",
                                     "....@.....",
                                     "....@.....",
                                     ".........."});
  const std::vector<unsigned char> good = GridJumpTable(map).to_bytes();
  ASSERT_EQ(load_problem(good, map), "");
  // Make the east jump from (1,2) land on (7,2), across the wall at (4,2): a search that trusted
  // it would return a path through the wall.
  const std::size_t entry = 40 + (map.id_of(1, 2) * jump_direction_count + 2) * sizeof(std::int16_t);
  std::vector<unsigned char> forged = good;
  forged[entry] = 6;
  forged[entry + 1] = 0;
  forge_table_checksum(forged);
  const std::string problem = load_problem(forged, map);
  // The first distance found inconsistent is named: the edited one, or one that depends on it.
  EXPECT_NE(problem.find("corrupted: the distance of cell ("), std::string::npos) << problem;
  EXPECT_NE(problem.find(", the map gives "), std::string::npos) << problem;

  // Any other single edited distance is refused too, even one that stays on the map, on a
  // passable cell or a blocked one.
  const GridMap random = test_map();
  const std::vector<unsigned char> random_good = GridJumpTable(random).to_bytes();
  for (std::size_t at = 40; at < random_good.size(); at += 2 * 37) {
    for (const int change : {1, -1, 2}) {
      std::vector<unsigned char> bytes = random_good;
      const auto value = static_cast<std::int16_t>(bytes[at] | (bytes[at + 1] << 8));
      const auto edited = static_cast<std::uint16_t>(value + change);
      bytes[at] = static_cast<unsigned char>(edited & 0xff);
      bytes[at + 1] = static_cast<unsigned char>(edited >> 8);
      forge_table_checksum(bytes);
      EXPECT_NE(load_problem(bytes, random).find("corrupted"), std::string::npos) << "byte " << at << " by " << change;
    }
  }
}

TEST(GridJumpTable, ItsMemoryIsKnownBeforeBuilding) {
  const GridMap map = test_map();
  EXPECT_EQ(GridJumpTable::memory_bytes_for(map), GridJumpTable(map).memory_bytes());
  EXPECT_EQ(GridJumpTable::memory_bytes_for(GridMap(1000, 500)) - sizeof(GridJumpTable), std::size_t{1000 * 500 * 16});
}

TEST_F(JumpTableFiles, ErrorsNameTheFile) {
  expect_table_load_errors_name_the_file<GridJumpTable>(directory_, test_map(), ".jump");
}

// ---- MovingAI data: every query of every scenario (a sample under sanitizers) at the optimum
// the scenario file records, as tests/test_movingai_data.cpp checks the other searches.

double length_tolerance(const std::string& relative_name, double optimal_length) {
  if (relative_name.starts_with("bg512/")) return 0.011;
  const double half_last_digit =
      optimal_length >= 1.0 ? 0.5 * std::pow(10.0, std::floor(std::log10(optimal_length)) - 5.0) : 0.0;
  return std::max(1e-3, half_last_digit + 1e-9);
}

std::vector<std::filesystem::path> movingai_scenarios() {
  std::vector<std::filesystem::path> scenarios;
  std::error_code error;
  const std::filesystem::path root = data_directory() / "movingai";
  if (std::filesystem::is_directory(root, error))
    for (auto it = std::filesystem::recursive_directory_iterator(root, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
      if (it->is_regular_file() && it->path().extension() == ".scen") scenarios.push_back(it->path());
  std::sort(scenarios.begin(), scenarios.end());
  return scenarios;
}

TEST(GridJumpPointPlusData, OptimalOnEveryMovingAiQuery) {
  const std::vector<std::filesystem::path> scenarios = movingai_scenarios();
  if (scenarios.empty()) {
    const std::string message = "no MovingAI scenarios under " + (data_directory() / "movingai").string();
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires them";
    GTEST_SKIP() << message;
  }
  const bool sampled = sanitized_build();
  const std::filesystem::path root = data_directory() / "movingai";
  for (const auto& path : scenarios) {
    const std::string name = std::filesystem::relative(path, root).generic_string();
    const Scenario scenario = read_movingai_scenario(path);
    const GridMap map = read_movingai_map(scenario_map_path(path));
    if (!map.uniform_cost()) {
      std::cout << "[ data     ] " << name << ": terrain costs, not a JPS+ map\n";
      continue;
    }
    GridQuery pathfinder(map, derived_for(map, {GridAlgorithm::jump_point_plus}));
    GridQuery jps(map);
    GridSearchOptions jps_options;
    jps_options.algorithm = GridAlgorithm::jump_point;
    std::size_t run = 0;
    std::size_t failures = 0;
    std::uint64_t expanded = 0;
    std::uint64_t jps_expanded = 0;
    std::size_t jps_run = 0;
    const std::size_t stride = sampled ? 40 : 1;
    for (std::size_t i = 0; i < scenario.queries.size(); i += stride) {
      const ScenarioQuery& query = scenario.queries[i];
      const PathResult result = pathfinder.find_path(query.start, query.goal, jps_plus_options());
      ++run;
      expanded += result.stats.expanded;
      const double tolerance = length_tolerance(name, query.optimal_length);
      std::string problem;
      if (!result.found()) {
        problem = "status " + std::string(to_string(result.status)) + " " + result.message;
      } else if (std::abs(result.cost - query.optimal_length) > tolerance) {
        problem = "cost " + std::to_string(result.cost) + " is not the optimum";
      } else {
        const GridPathCheck check = check_grid_path(map, result.nodes, DiagonalMode::only_if_no_obstacles);
        if (!check.valid) {
          problem = "check_grid_path: " + check.problem;
        } else if (std::abs(check.cost - result.cost) > 1e-6) {
          problem = "the path costs " + std::to_string(check.cost);
        } else if (!(map.cell_of(result.nodes.front()) == query.start) ||
                   !(map.cell_of(result.nodes.back()) == query.goal)) {
          problem = "the path does not join the start and the goal";
        }
      }
      // JPS on a sample, for the comparison printed below (both prune alike).
      if (i % (stride * 10) == 0) {
        jps_expanded += jps.find_path(query.start, query.goal, jps_options).stats.expanded;
        ++jps_run;
      }
      if (!problem.empty() && ++failures <= 10)
        ADD_FAILURE() << name << ":" << query.line << " (" << query.start.x << "," << query.start.y << ") -> ("
                      << query.goal.x << "," << query.goal.y << "), optimal " << query.optimal_length << ": "
                      << problem;
    }
    EXPECT_EQ(failures, 0u) << name << ": " << failures << " of " << run << " queries failed";
    std::cout << "[ data     ] " << name << " jps-plus: " << run << " of " << scenario.queries.size()
              << " queries run, " << failures << " failed, mean expanded " << static_cast<double>(expanded) / static_cast<double>(run)
              << " (jps " << static_cast<double>(jps_expanded) / static_cast<double>(std::max<std::size_t>(1, jps_run))
              << " on every 10th), table " << pathfinder.jump_table()->memory_bytes() / 1024 << " KiB built in "
              << pathfinder.jump_table()->build_seconds() * 1000.0 << " ms\n";
  }
}

}  // namespace
}  // namespace wayfinder
