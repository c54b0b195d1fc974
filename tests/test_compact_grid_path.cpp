// CompactGridPath: exact round trips in both forms (random walks, real A* paths on a MovingAI
// map), the documented sizes, iteration without decoding, and rejected paths.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/grid/paths/compact_grid_path.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;
using testing::data_required;
using testing::TestRandom;
using Form = CompactGridPath::Form;

static_assert(std::forward_iterator<CompactGridPath::Iterator>);

constexpr Form both_forms[] = {Form::plain, Form::run_length};

/// A walk of `steps` moves from `start`; with probability `keep_going` a move repeats the one
/// before, so that the walk has straight runs of every length for the run-length form.
std::vector<Cell> random_walk(TestRandom& random, Cell start, std::size_t steps, double keep_going) {
  constexpr int step_x[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  constexpr int step_y[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  std::vector<Cell> cells{start};
  int direction = random.between(0, 7);
  for (std::size_t i = 0; i < steps; ++i) {
    if (!random.chance(keep_going)) direction = random.between(0, 7);
    const auto d = static_cast<std::size_t>(direction);
    cells.push_back({cells.back().x + step_x[d], cells.back().y + step_y[d]});
  }
  return cells;
}

std::vector<Cell> iterated(const CompactGridPath& path) {
  std::vector<Cell> cells;
  for (const Cell cell : path) cells.push_back(cell);
  return cells;
}

void expect_round_trip(const std::vector<Cell>& cells, Form form) {
  const CompactGridPath path(cells, form);
  ASSERT_EQ(path.size(), cells.size());
  EXPECT_EQ(path.steps(), cells.empty() ? 0 : cells.size() - 1);
  EXPECT_EQ(path.form(), form);
  EXPECT_EQ(path.cells(), cells);
  EXPECT_EQ(iterated(path), cells);
  std::vector<Cell> visited;
  path.for_each([&](Cell cell) { visited.push_back(cell); });
  EXPECT_EQ(visited, cells);
  EXPECT_EQ(static_cast<std::size_t>(std::distance(path.begin(), path.end())), cells.size());
  if (form == Form::plain) {
    EXPECT_EQ(path.code_bytes(), path.steps() / 2);
  }
  EXPECT_EQ(path.bytes(), cells.empty() ? 0 : CompactGridPath::header_bytes + path.code_bytes());
}

TEST(CompactGridPath, RandomWalksRoundTripInBothForms) {
  TestRandom random(20261122);
  for (int walk = 0; walk < 400; ++walk) {
    const auto steps = static_cast<std::size_t>(random.between(0, walk < 300 ? 40 : 3000));
    const double keep_going = walk % 4 == 0 ? 0.0 : walk % 4 == 1 ? 0.5 : walk % 4 == 2 ? 0.9 : 0.995;
    const Cell start{random.between(-1000, 1000), random.between(-1000, 1000)};
    const std::vector<Cell> cells = random_walk(random, start, steps, keep_going);
    for (const Form form : both_forms) {
      SCOPED_TRACE("walk " + std::to_string(walk) + ", " + std::to_string(steps) + " steps, " +
                   (form == Form::plain ? "plain" : "run-length"));
      expect_round_trip(cells, form);
      if (HasFatalFailure()) return;
    }
    // The run-length form is never longer, and both encode the same cells.
    const CompactGridPath plain(cells, Form::plain);
    const CompactGridPath run_length(cells, Form::run_length);
    EXPECT_LE(run_length.code_bytes(), plain.code_bytes());
    EXPECT_EQ(plain, run_length);
  }
}

TEST(CompactGridPath, EmptyAndOneCellPaths) {
  for (const Form form : both_forms) {
    const CompactGridPath empty(std::vector<Cell>{}, form);
    EXPECT_TRUE(empty.empty());
    EXPECT_EQ(empty.size(), 0u);
    EXPECT_EQ(empty.bytes(), 0u);
    EXPECT_TRUE(empty.cells().empty());
    EXPECT_EQ(empty.begin(), empty.end());
    EXPECT_EQ(empty, CompactGridPath());

    const std::vector<Cell> one{{7, -3}};
    const CompactGridPath single(one, form);
    EXPECT_FALSE(single.empty());
    EXPECT_EQ(single.size(), 1u);
    EXPECT_EQ(single.steps(), 0u);
    EXPECT_EQ(single.start(), (Cell{7, -3}));
    EXPECT_EQ(single.bytes(), CompactGridPath::header_bytes);
    EXPECT_EQ(single.cells(), one);
    EXPECT_EQ(iterated(single), one);
    EXPECT_NE(single, empty);
  }
}

TEST(CompactGridPath, SizesFollowTheDocumentedEncoding) {
  // 12 steps east: the header holds the first code; plain form 11 more codes in 6 bytes; the
  // run-length form is the direction and the digits of 12 - 3 = 9 = octal 11, in 1 byte.
  std::vector<Cell> east;
  for (int x = 0; x <= 12; ++x) east.push_back({x, 5});
  EXPECT_EQ(CompactGridPath(east, Form::plain).code_bytes(), 6u);
  EXPECT_EQ(CompactGridPath(east, Form::run_length).code_bytes(), 1u);
  // Runs of 3 to 10 steps take one digit, and 2 steps take two plain codes.
  for (int run = 1; run <= 12; ++run) {
    std::vector<Cell> cells{{0, 0}};
    for (int i = 0; i < run; ++i) cells.push_back({0, cells.back().y - 1});
    const std::size_t codes = run <= 2 ? static_cast<std::size_t>(run) : run <= 10 ? 2 : 3;
    EXPECT_EQ(CompactGridPath(cells, Form::run_length).code_bytes(), codes / 2) << run << " steps";
    expect_round_trip(cells, Form::run_length);
  }
  // A run long enough for many digits.
  std::vector<Cell> diagonal{{0, 0}};
  for (int i = 0; i < 100000; ++i) diagonal.push_back({diagonal.back().x - 1, diagonal.back().y + 1});
  const CompactGridPath long_run(diagonal, Form::run_length);
  EXPECT_LE(long_run.code_bytes(), 3u);  // 1 direction + 6 octal digits of 99997
  expect_round_trip(diagonal, Form::run_length);
  expect_round_trip(diagonal, Form::plain);
}

TEST(CompactGridPath, IteratorsAreMultiPass) {
  TestRandom random(7);
  const std::vector<Cell> cells = random_walk(random, {0, 0}, 200, 0.8);
  for (const Form form : both_forms) {
    const CompactGridPath path(cells, form);
    auto it = path.begin();
    std::advance(it, 50);
    const auto copy = it;
    std::vector<Cell> first, second;
    for (auto i = it; i != path.end(); ++i) first.push_back(*i);
    for (auto i = copy; i != path.end(); i++) second.push_back(*i);
    EXPECT_EQ(first, second);
    EXPECT_EQ(first, std::vector<Cell>(cells.begin() + 50, cells.end()));
  }
}

TEST(CompactGridPath, RejectsCellsThatAreNotNeighbours) {
  const std::vector<std::vector<Cell>> bad = {
      {{0, 0}, {2, 0}},                  // a jump
      {{0, 0}, {1, 1}, {1, 1}},          // a wait
      {{0, 0}, {0, 1}, {5, 9}},          // far away
      {{2147483647, 0}, {-2147483647 - 1, 0}},  // would wrap round in 32 bits
  };
  for (const std::vector<Cell>& cells : bad)
    for (const Form form : both_forms) EXPECT_THROW((void)CompactGridPath(cells, form), std::invalid_argument);
  try {
    const std::vector<Cell> jump = {{0, 0}, {1, 0}, {3, 0}};
    (void)CompactGridPath(jump);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("cells 1 (1, 0) and 2 (3, 0) are not 8-neighbours"), std::string::npos)
        << error.what();
  }
}

TEST(CompactGridPath, NodeIdsRoundTripOnAMap) {
  const GridMap map(10, 4);
  // Ids of a row's end and the next row's start are consecutive, but the cells are not neighbours.
  const std::vector<NodeId> wrapped = {map.id_of(9, 0), map.id_of(0, 1)};
  EXPECT_THROW((void)CompactGridPath(map, wrapped), std::invalid_argument);
  const std::vector<NodeId> outside = {map.id_of(9, 3), static_cast<NodeId>(map.cell_count())};
  EXPECT_THROW((void)CompactGridPath(map, outside), std::invalid_argument);

  const std::vector<NodeId> ids = {map.id_of(0, 0), map.id_of(1, 1), map.id_of(2, 1), map.id_of(3, 1),
                                   map.id_of(4, 1), map.id_of(5, 2), map.id_of(5, 3), map.id_of(4, 3)};
  for (const Form form : both_forms) {
    const CompactGridPath path(map, ids, form);
    EXPECT_EQ(path.node_ids(map), ids);
    // The same cells on a narrower map fall outside it.
    EXPECT_THROW((void)path.node_ids(GridMap(3, 4)), std::invalid_argument);
  }
}

TEST(CompactGridPath, AStarPathsOnAMovingAIMapRoundTrip) {
  const std::filesystem::path scenario_path = data_directory() / "movingai" / "dao" / "arena2.map.scen";
  if (!std::filesystem::exists(scenario_path)) {
    const std::string message = scenario_path.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << message;
  }
  const Scenario scenario = read_movingai_scenario(scenario_path);
  const GridMap map = read_movingai_map(scenario_map_path(scenario_path));
  GridQuery pathfinder(map);
  std::size_t paths = 0, steps = 0, plain_bytes = 0, run_length_bytes = 0;
  for (const ScenarioQuery& query : scenario.queries) {
    const PathResult result = pathfinder.find_path(query.start, query.goal);
    if (!result.found()) continue;
    for (const Form form : both_forms) {
      const CompactGridPath path(map, result.nodes, form);
      ASSERT_EQ(path.node_ids(map), result.nodes) << "line " << query.line;
      ASSERT_TRUE(std::equal(path.begin(), path.end(), result.nodes.begin(), result.nodes.end(),
                             [&](Cell cell, NodeId id) { return map.id_of(cell) == id; }))
          << "line " << query.line;
      (form == Form::plain ? plain_bytes : run_length_bytes) += path.code_bytes();
    }
    ++paths;
    steps += result.nodes.size() - 1;
  }
  EXPECT_GT(paths, 100u);
  EXPECT_LE(2 * plain_bytes, steps);
  EXPECT_LT(run_length_bytes, plain_bytes);
}

}  // namespace
}  // namespace wayfinder
