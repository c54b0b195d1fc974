// The room map generator and the SVG renderer that the demo and the command use.

#include <gtest/gtest.h>

#include <string>

#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/debug/grid_svg.hpp"
#include "common/room_map_generator.hpp"

namespace wayfinder {
namespace {

std::size_t count_of(const std::string& text, const std::string& piece) {
  std::size_t count = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++count;
  return count;
}

TEST(RoomMapGenerator, SameSeedSameMapAndEveryRoomReachable) {
  RoomMapOptions options;
  options.seed = 7;
  const RoomMap first = generate_room_map(options);
  const RoomMap second = generate_room_map(options);
  ASSERT_EQ(first.map.width(), options.width);
  ASSERT_EQ(first.map.height(), options.height);
  ASSERT_GE(first.rooms.size(), 2u);
  for (int y = 0; y < first.map.height(); ++y) {
    for (int x = 0; x < first.map.width(); ++x) {
      ASSERT_EQ(first.map.passable(x, y), second.map.passable(x, y)) << x << "," << y;
      if (first.map.passable(x, y)) {
        ASSERT_EQ(first.map.cost(x, y), second.map.cost(x, y));
      }
    }
  }
  EXPECT_FALSE(first.map.uniform_cost()) << "the demo map should have terrain";

  // Every room centre that is passable reaches the first one.
  GridQuery pathfinder(first.map);
  const Cell origin = first.rooms.front().centre();
  ASSERT_TRUE(first.map.passable(origin));
  for (const GridRect& room : first.rooms) {
    if (!first.map.passable(room.centre())) continue;
    const PathResult path = pathfinder.find_path(origin, room.centre());
    EXPECT_EQ(path.status, SearchStatus::found) << "room at " << room.x << "," << room.y;
  }
}

TEST(RoomMapGenerator, DifferentSeedsDiffer) {
  RoomMapOptions a;
  a.seed = 1;
  RoomMapOptions b = a;
  b.seed = 2;
  const GridMap first = generate_room_map(a).map;
  const GridMap second = generate_room_map(b).map;
  std::size_t different = 0;
  for (int y = 0; y < first.height(); ++y)
    for (int x = 0; x < first.width(); ++x) different += first.passable(x, y) != second.passable(x, y);
  EXPECT_GT(different, 0u);
}

TEST(RoomMapGenerator, RejectsBadOptions) {
  RoomMapOptions options;
  options.width = 0;
  EXPECT_THROW(generate_room_map(options), std::invalid_argument);
}

TEST(GridSvg, DrawsThePathTheTraceAndTheLegend) {
  GridMap map(12, 8);
  for (int y = 1; y < 7; ++y) map.set_passable(6, y, false);
  map.set_cost(2, 2, 3.0f);
  SearchTrace trace;
  GridSearchOptions options;
  options.trace = &trace;
  GridQuery pathfinder(map);
  const PathResult path = pathfinder.find_path({1, 4}, {10, 4}, options);
  ASSERT_TRUE(path.found());

  GridSvgOptions svg;
  svg.title = "a <test> & title";
  svg.trace = &trace;
  svg.start = Cell{1, 4};
  svg.goal = Cell{10, 4};
  svg.paths.push_back({"astar", "#ff0000", path.nodes, {}});
  const std::string text = render_grid_svg(map, svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
  EXPECT_NE(text.find("#ff0000"), std::string::npos) << "the path's colour";
  EXPECT_NE(text.find("a &lt;test&gt; &amp; title"), std::string::npos) << "the title, escaped";
  EXPECT_EQ(text.find("a <test>"), std::string::npos);
  EXPECT_GE(count_of(text, "astar"), 1u) << "the legend names the path";
}

}  // namespace
}  // namespace wayfinder
