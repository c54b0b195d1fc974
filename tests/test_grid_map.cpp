// GridMap: construction limits, passability and its bit grids (checked bit by bit against
// passable() on random maps), terrain costs.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

TEST(GridMap, NewMapIsPassableAtCostOne) {
  const GridMap map(7, 3);
  EXPECT_EQ(map.width(), 7);
  EXPECT_EQ(map.height(), 3);
  EXPECT_EQ(map.cell_count(), 21u);
  EXPECT_EQ(map.passable_count(), 21u);
  EXPECT_TRUE(map.uniform_cost());
  EXPECT_EQ(map.min_cost(), 1.0f);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 7; ++x) {
      EXPECT_TRUE(map.passable(x, y));
      EXPECT_EQ(map.cost(x, y), 1.0f);
    }
  const GridMap empty;
  EXPECT_EQ(empty.width(), 0);
  EXPECT_EQ(empty.cell_count(), 0u);
  EXPECT_FALSE(empty.contains(0, 0));
  EXPECT_FALSE(empty.passable(0, 0));
}

TEST(GridMap, RejectsBadSizes) {
  EXPECT_THROW(GridMap(0, 5), std::invalid_argument);
  EXPECT_THROW(GridMap(5, 0), std::invalid_argument);
  EXPECT_THROW(GridMap(-1, 5), std::invalid_argument);
  EXPECT_THROW(GridMap(max_grid_side + 1, 1), std::invalid_argument);
  EXPECT_THROW(GridMap(1, max_grid_side + 1), std::invalid_argument);
  EXPECT_THROW(GridMap(max_grid_side, max_grid_side), std::invalid_argument);  // 2^30 cells > 2^28
  EXPECT_THROW(GridMap(std::numeric_limits<int>::max(), std::numeric_limits<int>::max()), std::invalid_argument);
  EXPECT_NO_THROW(GridMap(max_grid_side, 1));
  EXPECT_NO_THROW(GridMap(1, max_grid_side));
}

TEST(GridMap, OutsideTheMapIsBlocked) {
  const GridMap map(4, 3);
  for (int i = -1; i <= 4; ++i) {
    EXPECT_FALSE(map.passable(i, -1));
    EXPECT_FALSE(map.passable(i, 3));
    EXPECT_FALSE(map.passable_unchecked(i, -1));
    EXPECT_FALSE(map.passable_unchecked(i, 3));
  }
  for (int y = -1; y <= 3; ++y) {
    EXPECT_FALSE(map.passable(-1, y));
    EXPECT_FALSE(map.passable(4, y));
    EXPECT_FALSE(map.passable_unchecked(-1, y));
    EXPECT_FALSE(map.passable_unchecked(4, y));
  }
  EXPECT_FALSE(map.passable(std::numeric_limits<int>::min(), 0));
  EXPECT_FALSE(map.passable(0, std::numeric_limits<int>::max()));
}

TEST(GridMap, IdsAndCentres) {
  const GridMap map(9, 5);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 9; ++x) {
      const NodeId id = map.id_of(x, y);
      EXPECT_EQ(id, static_cast<NodeId>(y * 9 + x));
      EXPECT_EQ(map.cell_of(id), (Cell{x, y}));
    }
  EXPECT_EQ(GridMap::centre({2, 3}), (Point{2.5, 3.5, 0.0}));
}

/// Every bit-level view of the map against passable(), on random maps of awkward widths (around
/// multiples of 64, where the bit grids change word).
TEST(GridMap, BitGridsAgreeWithPassable) {
  const int sides[][2] = {{1, 1}, {3, 70}, {63, 2}, {64, 5}, {65, 9}, {127, 3}, {129, 130}, {200, 17}, {31, 64}};
  std::uint64_t seed = 1;
  for (const auto& side : sides) {
    TestRandom random(seed++);
    const int width = side[0];
    const int height = side[1];
    GridMap map(width, height);
    std::vector<char> expected(static_cast<std::size_t>(width) * height, 1);
    const double density = random.unit();
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        if (random.chance(density)) {
          map.set_passable(x, y, false);
          expected[static_cast<std::size_t>(y) * width + x] = 0;
        }
    // Reopen a few cells, so set_passable(true) is covered too.
    for (int k = 0; k < 20; ++k) {
      const int x = random.between(0, width - 1);
      const int y = random.between(0, height - 1);
      map.set_passable(x, y, true);
      expected[static_cast<std::size_t>(y) * width + x] = 1;
    }
    const auto truth = [&](int x, int y) {
      return x >= 0 && y >= 0 && x < width && y < height && expected[static_cast<std::size_t>(y) * width + x] != 0;
    };
    std::size_t passable = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        ASSERT_EQ(map.passable(x, y), truth(x, y)) << x << "," << y;
        ASSERT_EQ(map.passable_unchecked(x, y), truth(x, y)) << x << "," << y;
        passable += truth(x, y);
        const std::uint32_t around = map.neighbourhood(x, y);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            ASSERT_EQ((around >> ((dy + 1) * 3 + (dx + 1))) & 1u, truth(x + dx, y + dy) ? 1u : 0u)
                << "neighbourhood of " << x << "," << y << " at " << dx << "," << dy << " on " << width << "x" << height;
        EXPECT_EQ(around >> 9, 0u) << "only 9 bits may be set";
      }
    EXPECT_EQ(map.passable_count(), passable);

    // 57 bits forward from any x in [-64, width], backward ending at any x in the map.
    for (int y = 0; y < height; ++y) {
      for (int x = -64; x <= width; ++x) {
        const std::uint64_t bits = map.row_bits_forward(x, y);
        for (int i = 0; i < 57; ++i)
          ASSERT_EQ((bits >> i) & 1u, truth(x + i, y) ? 1u : 0u)
              << "row_bits_forward(" << x << "," << y << ") bit " << i << " on " << width << "x" << height;
      }
      for (int x = 0; x < width; ++x) {
        const std::uint64_t bits = map.row_bits_backward(x, y);
        for (int i = 0; i < 57; ++i)
          ASSERT_EQ((bits >> (63 - i)) & 1u, truth(x - i, y) ? 1u : 0u)
              << "row_bits_backward(" << x << "," << y << ") bit " << 63 - i << " on " << width << "x" << height;
      }
    }
    for (int x = 0; x < width; ++x) {
      for (int y = -64; y <= height; ++y) {
        const std::uint64_t bits = map.column_bits_forward(x, y);
        for (int i = 0; i < 57; ++i)
          ASSERT_EQ((bits >> i) & 1u, truth(x, y + i) ? 1u : 0u)
              << "column_bits_forward(" << x << "," << y << ") bit " << i << " on " << width << "x" << height;
      }
      for (int y = 0; y < height; ++y) {
        const std::uint64_t bits = map.column_bits_backward(x, y);
        for (int i = 0; i < 57; ++i)
          ASSERT_EQ((bits >> (63 - i)) & 1u, truth(x, y - i) ? 1u : 0u)
              << "column_bits_backward(" << x << "," << y << ") bit " << 63 - i << " on " << width << "x" << height;
      }
    }
  }
}

TEST(GridMap, TerrainCosts) {
  GridMap map(6, 4);
  map.set_cost(1, 1, 3.0f);
  EXPECT_EQ(map.cost(1, 1), 3.0f);
  EXPECT_EQ(map.cost(map.id_of(1, 1)), 3.0f);
  EXPECT_FALSE(map.uniform_cost());
  EXPECT_LE(map.min_cost(), 1.0f);
  EXPECT_GT(map.min_cost(), 0.0f);

  map.set_cost(2, 2, 0.5f);
  EXPECT_LE(map.min_cost(), 0.5f) << "min_cost must bound every passable cell's cost from below";
  EXPECT_GT(map.min_cost(), 0.0f);

  // Back to cost 1 everywhere: uniform again.
  map.set_cost(1, 1, 1.0f);
  map.set_cost(2, 2, 1.0f);
  EXPECT_TRUE(map.uniform_cost());

  // set_cost makes a blocked cell passable; blocking keeps the cost for when it reopens.
  map.set_passable(3, 3, false);
  map.set_cost(3, 3, 2.0f);
  EXPECT_TRUE(map.passable(3, 3));
  EXPECT_EQ(map.cost(3, 3), 2.0f);
  map.set_passable(3, 3, false);
  EXPECT_FALSE(map.passable(3, 3));
  map.set_passable(3, 3, true);
  EXPECT_EQ(map.cost(3, 3), 2.0f);
  EXPECT_FALSE(map.uniform_cost());

  for (const float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()})
    EXPECT_THROW(map.set_cost(0, 0, bad), std::invalid_argument) << bad;
  EXPECT_EQ(map.cost(0, 0), 1.0f) << "a rejected cost must leave the cell as it was";
}

TEST(GridMap, FromCostsReadsCostsAndTheBlockedMask) {
  constexpr float wall = std::numeric_limits<float>::infinity();
  // 3 x 2, row-major: an infinite cost and a masked cell are both walls.
  const std::vector<float> costs = {1.0f, 2.5f, wall, 1.0f, 4.0f, 1.0f};
  const std::vector<std::uint8_t> blocked = {0, 0, 0, 1, 0, 0};
  const GridMap map = GridMap::from_costs(3, 2, costs, blocked);
  EXPECT_EQ(map.width(), 3);
  EXPECT_EQ(map.height(), 2);
  EXPECT_TRUE(map.passable(0, 0));
  EXPECT_EQ(map.cost(1, 0), 2.5f);
  EXPECT_FALSE(map.passable(2, 0));
  EXPECT_FALSE(map.passable(0, 1));
  EXPECT_EQ(map.cost(1, 1), 4.0f);
  EXPECT_FALSE(map.uniform_cost());
  EXPECT_EQ(map.min_cost(), 1.0f);
  EXPECT_EQ(map.revision(), 0u) << "building is not an edit";
  EXPECT_TRUE(map.changes_since(0).has_value() && map.changes_since(0)->empty());

  // Without costs every open cell costs 1; without a mask only infinite costs block.
  const GridMap masked = GridMap::from_costs(3, 2, {}, blocked);
  EXPECT_TRUE(masked.uniform_cost());
  EXPECT_FALSE(masked.passable(0, 1));
  EXPECT_EQ(masked.passable_count(), 5u);
  EXPECT_EQ(GridMap::from_costs(3, 2, costs).passable_count(), 5u);
  EXPECT_EQ(GridMap::from_costs(3, 2, {}).passable_count(), 6u);
}

TEST(GridMap, FromCostsRefusesBadInputInWords) {
  const auto message_of = [](auto&& build) {
    try {
      build();
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const std::vector<float> short_costs(5, 1.0f);
  EXPECT_NE(message_of([&] { (void)GridMap::from_costs(3, 2, short_costs); }).find("costs has 5 values"),
            std::string::npos);
  const std::vector<std::uint8_t> long_mask(7, 0);
  EXPECT_NE(message_of([&] { (void)GridMap::from_costs(3, 2, {}, long_mask); }).find("blocked has 7 values"),
            std::string::npos);
  EXPECT_NE(message_of([&] { (void)GridMap::from_costs(0, 2, {}); }).find("grid size"), std::string::npos);
  for (const float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
    std::vector<float> costs(6, 1.0f);
    costs[4] = bad;
    const std::string message = message_of([&] { (void)GridMap::from_costs(3, 2, costs); });
    EXPECT_NE(message.find("cell (1, 1) has cost"), std::string::npos) << message;
    EXPECT_NE(message.find("costs must be > 0"), std::string::npos) << message;
    // A bad cost under the mask is never read as a cost.
    std::vector<std::uint8_t> mask(6, 0);
    mask[4] = 1;
    EXPECT_FALSE(GridMap::from_costs(3, 2, costs, mask).passable(1, 1));
  }
}

TEST(GridMap, MinCostBoundsRandomTerrain) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    TestRandom random(seed);
    RandomMapSpec spec;
    spec.weighted_chance = 1.0;
    const GridMap map = random_map(random, spec);
    bool all_unit = true;
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x)
        if (map.passable(x, y)) {
          EXPECT_LE(map.min_cost(), map.cost(x, y));
          all_unit = all_unit && map.cost(x, y) == 1.0f;
        }
    EXPECT_GT(map.min_cost(), 0.0f);
    if (!all_unit) {
      EXPECT_FALSE(map.uniform_cost()) << seed;
    }
  }
}

TEST(GridRules, MoveCostsAndDistances) {
  GridMap map(3, 3);
  map.set_cost(1, 1, 3.0f);
  EXPECT_DOUBLE_EQ(grid_move_cost(map, map.id_of(0, 0), map.id_of(1, 0), false), 1.0);
  EXPECT_DOUBLE_EQ(grid_move_cost(map, map.id_of(0, 1), map.id_of(1, 1), false), 2.0);
  EXPECT_DOUBLE_EQ(grid_move_cost(map, map.id_of(0, 0), map.id_of(1, 1), true), 2.0 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(grid_move_cost(map, map.id_of(1, 1), map.id_of(0, 0), true), 2.0 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(grid_distance(Heuristic::octile, 3, -1), 2.0 + std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(grid_distance(Heuristic::manhattan, 3, -1), 4.0);
  EXPECT_DOUBLE_EQ(grid_distance(Heuristic::chebyshev, -3, 1), 3.0);
  EXPECT_DOUBLE_EQ(grid_distance(Heuristic::euclidean, 3, 4), 5.0);
  EXPECT_EQ(resolve_heuristic(Heuristic::automatic, DiagonalMode::never), Heuristic::manhattan);
  EXPECT_EQ(resolve_heuristic(Heuristic::automatic, DiagonalMode::always), Heuristic::octile);
  EXPECT_EQ(resolve_heuristic(Heuristic::euclidean, DiagonalMode::never), Heuristic::euclidean);
  for (const DiagonalMode mode : {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                  DiagonalMode::only_if_no_obstacles, DiagonalMode::always})
    EXPECT_EQ(parse_diagonal_mode(to_string(mode)), mode);
  EXPECT_EQ(parse_diagonal_mode("only-if-no-obstacles"), DiagonalMode::only_if_no_obstacles);
  EXPECT_EQ(parse_diagonal_mode("sometimes"), std::nullopt);
  for (const Heuristic heuristic :
       {Heuristic::automatic, Heuristic::octile, Heuristic::euclidean, Heuristic::manhattan, Heuristic::chebyshev})
    EXPECT_EQ(parse_heuristic(to_string(heuristic)), heuristic);
  EXPECT_EQ(parse_heuristic("straight"), std::nullopt);
}

TEST(GridRules, DiagonalAllowedMatchesTheModes) {
  // Every 3x3 neighbourhood with the diagonal target passable, every mode, every direction,
  // against the rule written out in the test support.
  for (std::uint32_t around = 0; around < 512; ++around) {
    if (!(around & (1u << 4))) continue;  // the centre is where we stand
    GridMap map(3, 3);
    for (int bit = 0; bit < 9; ++bit)
      if (!(around & (1u << bit))) map.set_passable(bit % 3, bit / 3, false);
    ASSERT_EQ(map.neighbourhood(1, 1), around);
    for (const DiagonalMode mode : {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                    DiagonalMode::only_if_no_obstacles, DiagonalMode::always})
      for (const Move move : diagonal_moves) {
        if (!map.passable(1 + move.dx, 1 + move.dy)) continue;
        EXPECT_EQ(diagonal_allowed(mode, around, move.dx, move.dy),
                  reference_move_allowed(map, mode, 1, 1, move.dx, move.dy))
            << "neighbourhood " << around << " mode " << to_string(mode) << " move " << move.dx << "," << move.dy;
      }
  }
}

TEST(GridAlgorithmNames, RoundTrip) {
  for (const GridAlgorithm algorithm : all_grid_algorithms)
    EXPECT_EQ(parse_grid_algorithm(to_string(algorithm)), algorithm) << to_string(algorithm);
  for (const char* name : {"bfs", "dijkstra", "astar", "weighted-astar", "greedy", "bidirectional", "ida", "jps"})
    EXPECT_TRUE(parse_grid_algorithm(name).has_value()) << name;
  EXPECT_EQ(parse_grid_algorithm("teleport"), std::nullopt);
}

}  // namespace
}  // namespace wayfinder
