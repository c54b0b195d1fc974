// The crowd's neighbour grid (src/crowd/neighbour_grid.hpp): its searches find exactly the
// agents in range, in the order the crowd's results depend on.

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "crowd/neighbour_grid.hpp"

namespace {

using wayfinder::PlanarVector;
using wayfinder::crowd_detail::NeighbourGrid;

/// Points spread over a 60 x 40 square, packed in one corner (a crowd in a jam), from a fixed
/// linear congruential sequence.
std::vector<PlanarVector> scattered_points(std::size_t count) {
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
  };
  std::vector<PlanarVector> points;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = next(), z = next();
    points.push_back(i % 3 == 0 ? PlanarVector{-20.0 + 3.0 * x, 5.0 + 3.0 * z} : PlanarVector{-20.0 + 60.0 * x, 40.0 * z});
  }
  return points;
}

TEST(CrowdNeighbourGrid, WithinVisitsExactlyThePointsInRangeInTheGridsOrder) {
  const std::vector<PlanarVector> points = scattered_points(2000);
  for (const double cell : {0.8, 2.5, 5.0}) {
    NeighbourGrid grid;
    grid.build(points, cell);
    for (std::size_t c = 0; c < points.size(); c += 37)
      for (const double range : {0.8, 1.6, 5.0}) {
        const PlanarVector centre = points[c];
        std::vector<std::pair<std::size_t, double>> within, expected;
        grid.for_each_within(centre, range, [&](std::size_t j, double squared) { within.emplace_back(j, squared); });
        // for_each_near's order, filtered by the distance the crowd tests.
        grid.for_each_near(centre, range, [&](std::size_t j) {
          const double squared = (points[j] - centre).length_squared();
          if (squared <= range * range) expected.emplace_back(j, squared);
        });
        EXPECT_EQ(within, expected) << "cell " << cell << ", centre " << c << ", range " << range;
        // And every point in range is there (for_each_near visits a superset of them).
        std::size_t in_range = 0;
        for (const PlanarVector& p : points) in_range += (p - centre).length_squared() <= range * range ? 1 : 0;
        EXPECT_EQ(within.size(), in_range);
      }
  }
}

TEST(CrowdNeighbourGrid, RebuiltForFewerPointsForgetsTheOthers) {
  std::vector<PlanarVector> points = scattered_points(500);
  NeighbourGrid grid;
  grid.build(points, 2.0);
  points.resize(10);
  grid.build(points, 2.0);
  std::size_t visited = 0;
  grid.for_each_within(points[0], 1000.0, [&](std::size_t j, double) {
    EXPECT_LT(j, points.size());
    ++visited;
  });
  EXPECT_EQ(visited, points.size());
}

}  // namespace
