// A randomized oracle: small random grids with random terrain, every diagonal mode, every
// algorithm, compared with a brute-force reference written independently in the test
// (grid_test_support.hpp). Seeds are fixed, so a failure reproduces exactly.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "grid_derived_test_support.hpp"
#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

constexpr DiagonalMode all_modes[] = {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                      DiagonalMode::only_if_no_obstacles, DiagonalMode::always};

/// Heuristics that never overestimate (and are consistent) for a mode: on a 4-connected grid
/// every one of them; with diagonals, Manhattan overestimates a diagonal step (2 > sqrt 2).
std::vector<Heuristic> admissible_heuristics(DiagonalMode mode) {
  std::vector<Heuristic> heuristics = {Heuristic::automatic, Heuristic::octile, Heuristic::euclidean,
                                       Heuristic::chebyshev};
  if (mode == DiagonalMode::never) heuristics.push_back(Heuristic::manhattan);
  return heuristics;
}

std::string describe_map(const GridMap& map) {
  std::string text;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y)) {
        text += '@';
      } else {
        const float cost = map.cost(x, y);
        text += cost == 1.0f ? '.' : cost == 2.0f ? '2' : cost == 3.0f ? '3' : '*';
      }
    }
    text += '\n';
  }
  return text;
}

/// Everything the checks need to name a failing case so it can be reproduced.
struct QueryContext {
  std::uint64_t seed;
  DiagonalMode mode;
  Cell start;
  Cell goal;
  std::string label;  ///< algorithm and options
  [[nodiscard]] std::string text() const {
    std::ostringstream out;
    out << "seed " << seed << ", diagonal " << to_string(mode) << ", " << label << ", (" << start.x << "," << start.y
        << ") -> (" << goal.x << "," << goal.y << ")";
    return out.str();
  }
};

/// Validates a found path both ways and checks it reports its own cost; returns the move count.
std::size_t expect_valid_path(const GridMap& map, const PathResult& result, const QueryContext& context) {
  const ReferencePathCheck own = reference_check_path(map, result.nodes, context.mode, context.start, context.goal);
  EXPECT_TRUE(own.valid()) << context.text() << ": " << own.problem << "\n" << describe_map(map);
  const GridPathCheck library = check_grid_path(map, result.nodes, context.mode);
  EXPECT_TRUE(library.valid) << context.text() << ": check_grid_path: " << library.problem;
  if (own.valid()) {
    EXPECT_TRUE(nearly_equal(own.cost, result.cost)) << context.text() << ": reported cost " << result.cost
                                                     << ", the path costs " << own.cost;
    EXPECT_TRUE(nearly_equal(library.cost, own.cost)) << context.text() << ": check_grid_path cost " << library.cost
                                                      << ", independent sum " << own.cost;
    EXPECT_EQ(library.moves, own.moves) << context.text();
  }
  EXPECT_EQ(result.points.size(), result.nodes.size()) << context.text();
  for (std::size_t i = 0; i < std::min(result.points.size(), result.nodes.size()); ++i) {
    if (!(result.points[i] == GridMap::centre(map.cell_of(result.nodes[i])))) {
      ADD_FAILURE() << context.text() << ": point " << i << " is not the centre of its cell";
      break;
    }
  }
  return own.moves;
}

struct Reference {
  double cost;  ///< infinity when unreachable
  int moves;    ///< unreachable_moves when unreachable
  [[nodiscard]] bool reachable() const { return std::isfinite(cost); }
};

class RandomOracleTest : public ::testing::TestWithParam<DiagonalMode> {};

TEST_P(RandomOracleTest, AlgorithmsAgreeWithBruteForce) {
  const DiagonalMode mode = GetParam();
  constexpr int map_count = 600;
  constexpr int queries_per_map = 8;
  std::size_t queries_checked = 0;
  std::size_t unreachable_checked = 0;
  std::size_t ida_solved = 0;
  std::size_t jps_checked = 0;

  for (int map_index = 0; map_index < map_count; ++map_index) {
    const std::uint64_t seed = 0x5eed0000u + static_cast<std::uint64_t>(map_index) * 7919u + static_cast<std::uint64_t>(mode);
    TestRandom random(seed);
    const GridMap map = random_map(random);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));

    for (int q = 0; q < queries_per_map; ++q) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const std::vector<double> costs = reference_costs_from(map, mode, start);
      const std::vector<int> fewest = reference_moves_from(map, mode, start);
      const Reference reference{costs[map.id_of(goal)], fewest[map.id_of(goal)]};
      ASSERT_EQ(reference.reachable(), reference.moves != unreachable_moves) << "the two references disagree";
      ++queries_checked;
      if (!reference.reachable()) ++unreachable_checked;

      auto run = [&](GridSearchOptions options, const std::string& label) {
        options.diagonal = mode;
        QueryContext context{seed, mode, start, goal, label};
        PathResult result = pathfinder.find_path(start, goal, options);
        return std::pair{std::move(result), context};
      };

      // Optimal algorithms, with every admissible heuristic for A*.
      std::vector<std::pair<GridSearchOptions, std::string>> optimal_runs;
      for (const Heuristic heuristic : admissible_heuristics(mode)) {
        GridSearchOptions options;
        options.algorithm = GridAlgorithm::astar;
        options.heuristic = heuristic;
        optimal_runs.push_back({options, "astar/" + std::string(to_string(heuristic))});
      }
      for (const GridAlgorithm algorithm : {GridAlgorithm::dijkstra, GridAlgorithm::bidirectional_astar}) {
        GridSearchOptions options;
        options.algorithm = algorithm;
        optimal_runs.push_back({options, std::string(to_string(algorithm))});
      }
      for (const auto& [options, label] : optimal_runs) {
        const auto [result, context] = run(options, label);
        if (!reference.reachable()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
          EXPECT_TRUE(result.nodes.empty()) << context.text();
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message << "\n"
                                                      << describe_map(map);
        expect_valid_path(map, result, context);
        EXPECT_TRUE(nearly_equal(result.cost, reference.cost))
            << context.text() << ": cost " << result.cost << ", optimal " << reference.cost << "\n" << describe_map(map);
      }

      // Jump point search and JPS+: optimal on uniform-cost maps under the MovingAI rule.
      // Elsewhere they may refuse (invalid_input) but must never return a wrong answer.
      for (const GridAlgorithm jumps : {GridAlgorithm::jump_point, GridAlgorithm::jump_point_plus}) {
        GridSearchOptions options;
        options.algorithm = jumps;
        const auto [result, context] = run(options, jumps == GridAlgorithm::jump_point ? "jps" : "jps-plus");
        const bool supported = map.uniform_cost() && mode == DiagonalMode::only_if_no_obstacles;
        if (supported) ++jps_checked;
        if (!supported && result.status == SearchStatus::invalid_input) {
          EXPECT_FALSE(result.message.empty()) << context.text();
        } else if (!reference.reachable()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
        } else {
          ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message << "\n"
                                                        << describe_map(map);
          expect_valid_path(map, result, context);
          EXPECT_TRUE(nearly_equal(result.cost, reference.cost))
              << context.text() << ": cost " << result.cost << ", optimal " << reference.cost << "\n"
              << describe_map(map);
        }
      }

      // Weighted A*: within weight x optimal (Pohl 1970), never below optimal.
      for (const double weight : {1.0, 1.5, 3.0}) {
        GridSearchOptions options;
        options.algorithm = GridAlgorithm::weighted_astar;
        options.weight = weight;
        const auto [result, context] = run(options, "weighted-astar w=" + std::to_string(weight));
        if (!reference.reachable()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
          continue;
        }
        ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message;
        expect_valid_path(map, result, context);
        EXPECT_LE(result.cost, weight * reference.cost * (1 + 1e-9) + 1e-9) << context.text() << ", optimal "
                                                                           << reference.cost;
        EXPECT_GE(result.cost, reference.cost * (1 - 1e-9) - 1e-9) << context.text();
      }

      // Greedy best-first: any valid path, when one exists.
      {
        GridSearchOptions options;
        options.algorithm = GridAlgorithm::greedy_best_first;
        const auto [result, context] = run(options, "greedy");
        if (!reference.reachable()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
        } else {
          ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message;
          expect_valid_path(map, result, context);
          EXPECT_GE(result.cost, reference.cost * (1 - 1e-9) - 1e-9) << context.text();
        }
      }

      // Breadth-first wave: the fewest moves, whatever the terrain.
      {
        GridSearchOptions options;
        options.algorithm = GridAlgorithm::breadth_first;
        const auto [result, context] = run(options, "bfs");
        if (!reference.reachable()) {
          EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
        } else {
          ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message;
          const std::size_t moves = expect_valid_path(map, result, context);
          EXPECT_EQ(static_cast<int>(moves), reference.moves) << context.text() << "\n" << describe_map(map);
        }
      }

      // IDA*: small maps only, with a budget; when it answers, the answer is optimal.
      if (map.cell_count() <= 100) {
        GridSearchOptions options;
        options.algorithm = GridAlgorithm::ida_star;
        options.budget.max_expansions = 200'000;
        const auto [result, context] = run(options, "ida");
        if (result.status == SearchStatus::found) {
          ASSERT_TRUE(reference.reachable()) << context.text() << ": IDA* found a path to an unreachable goal";
          ++ida_solved;
          expect_valid_path(map, result, context);
          EXPECT_TRUE(nearly_equal(result.cost, reference.cost))
              << context.text() << ": cost " << result.cost << ", optimal " << reference.cost << "\n"
              << describe_map(map);
        } else {
          EXPECT_TRUE(result.status == SearchStatus::partial || result.status == SearchStatus::budget_exhausted ||
                      (result.status == SearchStatus::no_path && !reference.reachable()))
              << context.text() << ": status " << to_string(result.status) << " " << result.message;
        }
      }
    }
  }
  std::cout << "[ oracle   ] diagonal " << to_string(mode) << ": " << queries_checked << " queries ("
            << unreachable_checked << " unreachable), jps on " << jps_checked << " supported queries, IDA* solved "
            << ida_solved << "\n";
  EXPECT_GT(queries_checked, 500u);
  EXPECT_GT(unreachable_checked, 10u) << "the random maps should include unreachable goals";
  EXPECT_GT(ida_solved, 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryDiagonalMode, RandomOracleTest, ::testing::ValuesIn(all_modes),
                         [](const ::testing::TestParamInfo<DiagonalMode>& mode) {
                           return std::string(to_string(mode.param));
                         });

/// A start or goal sealed off by walls: every algorithm reports no_path (IDA* included, since
/// the start's pocket is tiny and it can prove the goal unreachable).
TEST(UnreachableGoal, EveryAlgorithmReportsNoPath) {
  // The cell (1,1) sits in a 2x2 pocket closed by walls on x = 2 and y = 2; no move of any
  // diagonal mode leaves it, since every cell next to the pocket is part of the wall.
  GridMap map(12, 8);
  for (int i = 0; i <= 2; ++i) {
    map.set_passable(i, 2, false);
    map.set_passable(2, i, false);
  }
  const Cell pocket{1, 1};
  const Cell open_area{9, 6};
  for (const DiagonalMode mode : all_modes) {
    for (const GridAlgorithm algorithm : all_grid_algorithms) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      options.diagonal = mode;
      options.budget.max_expansions = 1'000'000;
      GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
      for (const auto& [start, goal] : {std::pair{pocket, open_area}, std::pair{open_area, pocket}}) {
        const PathResult result = pathfinder.find_path(start, goal, options);
        const std::string label = std::string(to_string(algorithm)) + " " + std::string(to_string(mode)) +
                                  (start == pocket ? " from the pocket" : " into the pocket");
        const bool jumps = algorithm == GridAlgorithm::jump_point || algorithm == GridAlgorithm::jump_point_plus;
        if (jumps && mode != DiagonalMode::only_if_no_obstacles && result.status == SearchStatus::invalid_input)
          continue;  // documented: jump point search (and JPS+) needs the MovingAI rule
        if (algorithm == GridAlgorithm::ida_star && start == open_area) {
          // From the open side IDA* cannot exhaust the area within a budget; it must not claim a path.
          EXPECT_NE(result.status, SearchStatus::found) << label;
          continue;
        }
        EXPECT_EQ(result.status, SearchStatus::no_path) << label << ": " << result.message;
        EXPECT_TRUE(result.nodes.empty()) << label;
      }
    }
  }
}

/// 'always' squeezes diagonally between two blocked side cells; no other mode does.
TEST(DiagonalModes, OnlyAlwaysPassesBetweenTwoBlockedSides) {
  GridMap corner(4, 4);
  corner.set_passable(1, 0, false);
  corner.set_passable(0, 1, false);
  GridQuery pathfinder(corner, testing::derived_for(corner, {GridAlgorithm::jump_point_plus}));
  for (const DiagonalMode mode : all_modes) {
    GridSearchOptions options;
    options.algorithm = GridAlgorithm::dijkstra;
    options.diagonal = mode;
    const PathResult result = pathfinder.find_path({0, 0}, {3, 3}, options);
    if (mode == DiagonalMode::always) {
      EXPECT_EQ(result.status, SearchStatus::found) << "'always' squeezes between two blocked side cells";
    } else {
      EXPECT_EQ(result.status, SearchStatus::no_path) << to_string(mode);
    }
  }
}

/// Start equal to goal: a one-cell path of cost 0 from every algorithm.
TEST(TrivialQuery, StartEqualsGoal) {
  GridMap map(6, 5);
  map.set_cost(2, 2, 3.0f);
  GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
  for (const GridAlgorithm algorithm : all_grid_algorithms) {
    for (const Cell cell : {Cell{0, 0}, Cell{2, 2}, Cell{5, 4}}) {
      GridSearchOptions options;
      options.algorithm = algorithm;
      const PathResult result = pathfinder.find_path(cell, cell, options);
      const bool jumps = algorithm == GridAlgorithm::jump_point || algorithm == GridAlgorithm::jump_point_plus;
      if (jumps && result.status == SearchStatus::invalid_input) continue;  // terrain on this map
      ASSERT_EQ(result.status, SearchStatus::found) << to_string(algorithm) << " " << result.message;
      ASSERT_EQ(result.nodes.size(), 1u) << to_string(algorithm);
      EXPECT_EQ(result.nodes[0], map.id_of(cell)) << to_string(algorithm);
      EXPECT_EQ(result.cost, 0.0) << to_string(algorithm);
    }
  }
}

/// Larger uniform-cost maps, whose rows span several 64-bit words of the bit grids: jump point
/// search scans them a word at a time, so word boundaries must not change its answers.
TEST(LargerUniformMaps, OptimalAlgorithmsAgreeWithBruteForce) {
  std::size_t checked = 0;
  for (int map_index = 0; map_index < 30; ++map_index) {
    const std::uint64_t seed = 0xb16u + static_cast<std::uint64_t>(map_index);
    TestRandom random(seed);
    RandomMapSpec spec;
    spec.min_side = 50;
    spec.max_side = 150;
    spec.max_blocked_fraction = 0.4;
    spec.weighted_chance = 0.0;
    const GridMap map = random_map(random, spec);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    GridQuery pathfinder(map, testing::derived_for(map, {GridAlgorithm::jump_point_plus}));
    constexpr DiagonalMode mode = DiagonalMode::only_if_no_obstacles;
    for (int q = 0; q < 6; ++q) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const std::vector<double> costs = reference_costs_from(map, mode, start);
      for (int g = 0; g < 5; ++g) {
        const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
        const double optimal = costs[map.id_of(goal)];
        for (const GridAlgorithm algorithm :
             {GridAlgorithm::jump_point, GridAlgorithm::jump_point_plus, GridAlgorithm::astar,
              GridAlgorithm::bidirectional_astar}) {
          GridSearchOptions options;
          options.algorithm = algorithm;
          const PathResult result = pathfinder.find_path(start, goal, options);
          const QueryContext context{seed, mode, start, goal, std::string(to_string(algorithm))};
          ++checked;
          if (!std::isfinite(optimal)) {
            EXPECT_EQ(result.status, SearchStatus::no_path) << context.text();
            continue;
          }
          ASSERT_EQ(result.status, SearchStatus::found) << context.text() << " " << result.message;
          expect_valid_path(map, result, context);
          EXPECT_TRUE(nearly_equal(result.cost, optimal))
              << context.text() << " on a " << map.width() << "x" << map.height() << " map: cost " << result.cost
              << ", optimal " << optimal;
        }
      }
    }
  }
  EXPECT_GT(checked, 2000u);
}

}  // namespace
}  // namespace wayfinder
