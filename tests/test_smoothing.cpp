// Line of sight and path smoothing, against an exact geometric reference: a segment between two
// cell centres "touches" a cell when it meets the cell's closed square (so passing exactly
// through a corner touches all four cells there). Waypoints must see each other and a smoothed
// path must never touch a blocked cell.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_smoothing.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

/// A fraction with a positive denominator, compared exactly in 64-bit integers.
struct Fraction {
  std::int64_t numerator;
  std::int64_t denominator;
};
bool less(Fraction a, Fraction b) { return a.numerator * b.denominator < b.numerator * a.denominator; }
Fraction make_fraction(std::int64_t numerator, std::int64_t denominator) {
  return denominator < 0 ? Fraction{-numerator, -denominator} : Fraction{numerator, denominator};
}

/// Whether the segment between the centres of `from` and `to` meets the closed square of
/// `cell`. Coordinates are doubled so that centres are integers and the test is exact
/// (Liang-Barsky clipping with rational parameters).
bool segment_touches_cell(Cell from, Cell to, Cell cell) {
  const std::int64_t start[2] = {2 * std::int64_t{from.x} + 1, 2 * std::int64_t{from.y} + 1};
  const std::int64_t delta[2] = {2 * std::int64_t{to.x - from.x}, 2 * std::int64_t{to.y - from.y}};
  const std::int64_t low[2] = {2 * std::int64_t{cell.x}, 2 * std::int64_t{cell.y}};
  Fraction enter{0, 1};
  Fraction exit{1, 1};
  for (int axis = 0; axis < 2; ++axis) {
    const std::int64_t high = low[axis] + 2;
    if (delta[axis] == 0) {
      if (start[axis] < low[axis] || start[axis] > high) return false;
      continue;
    }
    Fraction a = make_fraction(low[axis] - start[axis], delta[axis]);
    Fraction b = make_fraction(high - start[axis], delta[axis]);
    if (less(b, a)) std::swap(a, b);
    if (less(enter, a)) enter = a;
    if (less(b, exit)) exit = b;
  }
  return !less(exit, enter);
}

bool reference_line_of_sight(const GridMap& map, Cell from, Cell to) {
  for (int y = std::min(from.y, to.y) - 1; y <= std::max(from.y, to.y) + 1; ++y)
    for (int x = std::min(from.x, to.x) - 1; x <= std::max(from.x, to.x) + 1; ++x)
      if (segment_touches_cell(from, to, {x, y}) && !map.passable(x, y)) return false;
  return true;
}

TEST(ReferenceGeometry, TouchesCornersAndCrossings) {
  // Sanity of the reference itself: a diagonal through a corner touches all four cells there.
  EXPECT_TRUE(segment_touches_cell({0, 0}, {1, 1}, {1, 0}));
  EXPECT_TRUE(segment_touches_cell({0, 0}, {1, 1}, {0, 1}));
  EXPECT_FALSE(segment_touches_cell({0, 0}, {1, 1}, {2, 0}));
  EXPECT_FALSE(segment_touches_cell({0, 0}, {3, 0}, {1, 1}));
  EXPECT_TRUE(segment_touches_cell({0, 0}, {3, 0}, {2, 0}));
  // Slope 1/2 from (0.5,0.5) to (4.5,2.5) crosses x = 1.5 at y = 1: the edge between (1,0) and (1,1).
  EXPECT_TRUE(segment_touches_cell({0, 0}, {4, 2}, {1, 0}));
  EXPECT_TRUE(segment_touches_cell({0, 0}, {4, 2}, {1, 1}));
  EXPECT_FALSE(segment_touches_cell({0, 0}, {4, 2}, {0, 1}));
}

std::vector<GridMap> test_maps() {
  std::vector<GridMap> maps;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    TestRandom random(seed * 31);
    RandomMapSpec spec;
    spec.min_side = 6;
    spec.max_side = 30;
    spec.weighted_chance = 0.3;
    maps.push_back(random_map(random, spec));
  }
  return maps;
}

TEST(LineOfSight, MatchesExactGeometryAndIsSymmetric) {
  std::size_t pairs = 0;
  std::size_t visible = 0;
  std::uint64_t seed = 0;
  for (const GridMap& map : test_maps()) {
    TestRandom random(++seed);
    for (int k = 0; k < 300; ++k) {
      // Any cells, including blocked ones: a blocked end cell is touched, so no sight line.
      const Cell a{random.between(0, map.width() - 1), random.between(0, map.height() - 1)};
      // Bias towards nearby cells, where corners and short diagonals matter most.
      const Cell b = random.chance(0.5)
                         ? Cell{std::clamp(a.x + random.between(-3, 3), 0, map.width() - 1),
                                std::clamp(a.y + random.between(-3, 3), 0, map.height() - 1)}
                         : Cell{random.between(0, map.width() - 1), random.between(0, map.height() - 1)};
      const bool expected = reference_line_of_sight(map, a, b);
      ++pairs;
      visible += expected;
      ASSERT_EQ(line_of_sight(map, a, b), expected)
          << "map " << seed << " (" << a.x << "," << a.y << ") -> (" << b.x << "," << b.y << ")";
      ASSERT_EQ(line_of_sight(map, b, a), expected)
          << "not symmetric: map " << seed << " (" << b.x << "," << b.y << ") -> (" << a.x << "," << a.y << ")";
    }
  }
  EXPECT_GT(visible, pairs / 10);
  EXPECT_LT(visible, pairs);
}

TEST(LineOfSight, CornerCuttingIsNotSight) {
  GridMap map(3, 3);
  map.set_passable(1, 0, false);
  EXPECT_FALSE(line_of_sight(map, {0, 0}, {1, 1})) << "the segment touches the blocked (1,0) at its corner";
  EXPECT_FALSE(line_of_sight(map, {0, 0}, {2, 2}));
  EXPECT_TRUE(line_of_sight(map, {0, 1}, {2, 1}));
  EXPECT_TRUE(line_of_sight(map, {0, 0}, {0, 2}));
  EXPECT_TRUE(line_of_sight(map, {1, 1}, {1, 1}));
  EXPECT_FALSE(line_of_sight(map, {1, 0}, {1, 0})) << "a blocked cell does not see itself";
}

double cell_path_length(const GridMap& map, const std::vector<NodeId>& cells) {
  std::vector<Point> centres;
  for (const NodeId id : cells) centres.push_back(GridMap::centre(map.cell_of(id)));
  return polyline_length(centres);
}

Cell cell_at(Point point) { return {static_cast<int>(std::floor(point.x)), static_cast<int>(std::floor(point.y))}; }

TEST(SmoothPath, WaypointsSeeEachOtherAndAvoidObstacles) {
  std::size_t paths = 0;
  std::size_t shortened = 0;
  std::uint64_t seed = 0;
  for (const GridMap& map : test_maps()) {
    TestRandom random(++seed + 1000);
    const std::vector<Cell> cells = passable_cells(map);
    if (cells.size() < 2) continue;
    GridQuery pathfinder(map);
    for (int q = 0; q < 10; ++q) {
      const Cell start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      const Cell goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
      GridSearchOptions options;
      options.diagonal = q % 2 == 0 ? DiagonalMode::only_if_no_obstacles : DiagonalMode::never;
      const PathResult path = pathfinder.find_path(start, goal, options);
      if (!path.found()) continue;
      ++paths;
      const std::string where = "map " + std::to_string(seed) + " query " + std::to_string(q);
      const std::vector<Point> waypoints = smooth_path(map, path.nodes);
      ASSERT_FALSE(waypoints.empty()) << where;
      EXPECT_EQ(waypoints.front(), GridMap::centre(start)) << where;
      EXPECT_EQ(waypoints.back(), GridMap::centre(goal)) << where;
      if (path.nodes.size() >= 2) {
        EXPECT_GE(waypoints.size(), 2u) << where;
      }

      // Waypoints are cells of the path, in order.
      std::size_t next_index = 0;
      for (const Point& waypoint : waypoints) {
        const Cell cell = cell_at(waypoint);
        EXPECT_EQ(waypoint, GridMap::centre(cell)) << where << ": waypoints are cell centres";
        while (next_index < path.nodes.size() && path.nodes[next_index] != map.id_of(cell)) ++next_index;
        ASSERT_LT(next_index, path.nodes.size()) << where << ": waypoint (" << cell.x << "," << cell.y
                                                 << ") is not a later cell of the path";
        ++next_index;
      }

      for (std::size_t i = 1; i < waypoints.size(); ++i) {
        const Cell from = cell_at(waypoints[i - 1]);
        const Cell to = cell_at(waypoints[i]);
        ASSERT_TRUE(reference_line_of_sight(map, from, to))
            << where << ": waypoints (" << from.x << "," << from.y << ") and (" << to.x << "," << to.y
            << ") do not see each other";
        // Independently of the exact test, sample the segment densely: every sampled point must
        // lie in a passable cell, and where it lies on a grid line, in all cells it touches.
        constexpr int samples = 400;
        for (int s = 0; s <= samples; ++s) {
          const double t = static_cast<double>(s) / samples;
          const double x = waypoints[i - 1].x + t * (waypoints[i].x - waypoints[i - 1].x);
          const double y = waypoints[i - 1].y + t * (waypoints[i].y - waypoints[i - 1].y);
          const double rx = std::round(x);
          const double ry = std::round(y);
          // On a grid line the point touches the cells on both sides of it.
          std::vector<int> columns{static_cast<int>(std::floor(x))};
          std::vector<int> rows{static_cast<int>(std::floor(y))};
          if (std::abs(x - rx) < 1e-9) columns = {static_cast<int>(rx) - 1, static_cast<int>(rx)};
          if (std::abs(y - ry) < 1e-9) rows = {static_cast<int>(ry) - 1, static_cast<int>(ry)};
          for (const int cx : columns)
            for (const int cy : rows)
              ASSERT_TRUE(map.passable(cx, cy)) << where << ": segment point (" << x << "," << y
                                                << ") touches blocked cell (" << cx << "," << cy << ")";
        }
      }
      const double smoothed = polyline_length(waypoints);
      const double original = cell_path_length(map, path.nodes);
      EXPECT_LE(smoothed, original + 1e-9) << where;
      if (smoothed < original - 1e-9) ++shortened;
    }
  }
  EXPECT_GT(paths, 100u);
  EXPECT_GT(shortened, 10u) << "smoothing should shorten some paths";
}

TEST(SmoothPath, ShortPathsAndPolylineLength) {
  const GridMap map(5, 5);
  EXPECT_TRUE(smooth_path(map, {}).empty());
  const std::vector<Point> single = smooth_path(map, {map.id_of(2, 2)});
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0], GridMap::centre({2, 2}));
  // A straight staircase on an empty map becomes one segment.
  const std::vector<Point> straight =
      smooth_path(map, {map.id_of(0, 0), map.id_of(1, 0), map.id_of(2, 1), map.id_of(3, 1), map.id_of(4, 2)});
  ASSERT_EQ(straight.size(), 2u);
  EXPECT_DOUBLE_EQ(polyline_length(straight), std::sqrt(16.0 + 4.0));

  EXPECT_EQ(polyline_length({}), 0.0);
  EXPECT_EQ(polyline_length({Point{1, 1, 0}}), 0.0);
  EXPECT_DOUBLE_EQ(polyline_length({Point{0, 0, 0}, Point{3, 4, 0}, Point{3, 10, 0}}), 11.0);
}

}  // namespace
}  // namespace wayfinder
