#pragma once
// What the tests of the grid's two replanners (GridReplanner, D* Lite; GridAdaptiveReplanner,
// MPAA*) share: the random edits they are driven by, and the checks of the interface both
// inherit from GridReplannerBase (refusals, a goal cut off and reopened, an overrun change log).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "grid_test_support.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::testing {

/// Any cell of the map, blocked or not.
inline Cell random_cell(TestRandom& random, const GridMap& map) {
  return {random.between(0, map.width() - 1), random.between(0, map.height() - 1)};
}

/// A door with its corner at `corner`: a short wall of one to four cells, across or along,
/// clipped to the map.
inline GridRect door_at(TestRandom& random, const GridMap& map, Cell corner) {
  const bool across = random.chance(0.5);
  GridRect door{corner.x, corner.y, across ? random.between(1, 4) : 1, across ? 1 : random.between(1, 4)};
  door.width = std::min(door.width, map.width() - door.x);
  door.height = std::min(door.height, map.height() - door.y);
  return door;
}

/// A door anywhere on the map.
inline GridRect random_door(TestRandom& random, const GridMap& map) {
  const Cell corner = random_cell(random, map);
  return door_at(random, map, corner);
}

/// A `Replanner` refuses a start outside the map in words, has no plan before plan(), stays
/// where it is with an infinite cost while a wall cuts the goal off, goes through the gap opened
/// in that wall, and says in words that a blocked goal is blocked.
template <class Replanner>
void expect_refusals_and_cut_off_goals() {
  GridMap map(10, 10);
  Replanner outside(map, {-1, 0}, {5, 5});
  EXPECT_EQ(outside.plan(), SearchStatus::invalid_input);
  EXPECT_NE(outside.message().find("start (-1,0) is outside"), std::string::npos) << outside.message();

  Replanner replanner(map, {0, 0}, {9, 9});
  EXPECT_FALSE(replanner.path().found()) << "no plan before plan()";
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  map.block_rect({0, 5, 10, 1});  // a wall across the whole map
  replanner.notify_changes();
  EXPECT_EQ(replanner.plan(), SearchStatus::no_path);
  EXPECT_FALSE(replanner.path().found());
  EXPECT_EQ(replanner.cost(), infinite_cost);
  EXPECT_EQ(replanner.next_cell(), (Cell{0, 0})) << "no path: stay";
  map.unblock({4, 5});  // a gap
  replanner.notify_changes();
  ASSERT_EQ(replanner.plan(), SearchStatus::found);
  bool uses_gap = false;
  for (const NodeId node : replanner.path().nodes) uses_gap |= node == map.id_of(4, 5);
  EXPECT_TRUE(uses_gap);
  map.block({9, 9});  // the goal itself
  replanner.notify_changes();
  EXPECT_EQ(replanner.plan(), SearchStatus::no_path);
  EXPECT_NE(replanner.message().find("goal (9,9) is blocked"), std::string::npos) << replanner.message();
}

/// Doubles the cost of the cells of a 300 x 300 map's rows 1 to 279 (but the last column) until
/// its change log no longer reaches back to the revision it had, so that a replanner on it finds
/// its log overrun.
inline void edit_past_the_change_log(GridMap& map) {
  for (int y = 1; y < 280; ++y)
    for (int x = 0; x < 300; x += 1)
      if (map.revision() <= GridMap::change_log_limit + 5 && x != 299) map.set_cost(x, y, 2.0f);
}

}  // namespace wayfinder::testing
