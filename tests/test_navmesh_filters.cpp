// Areas, flags and filters on navigation meshes: per-polygon areas and flags and their edits
// (revisions, the change log, a stepped query noticing an edit), AreaFilter in corridor
// searches (exclusions, costs, bad input), checked against brute-force searches on random
// meshes and, for neutral filters, bit for bit against the unfiltered search on nav_test; areas
// from OBJ names; and corridor breaks (first_blocked_polygon).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/mesh_query_file.hpp"
#include "query_test_support.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/navmesh/corridor_breaks.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;
using testing::sanitized_build;
using testing::square_grid;

constexpr float excluded = std::numeric_limits<float>::infinity();

PolygonId polygon_at(const NavMesh& mesh, double x, double z) {
  const MeshLocation location = mesh.locate({x, 0.0, z});
  EXPECT_TRUE(location.valid()) << x << ", " << z;
  return location.polygon;
}

bool contains(const std::vector<NodeId>& corridor, PolygonId polygon) {
  return std::find(corridor.begin(), corridor.end(), polygon) != corridor.end();
}

bool passes(const AreaFilter& filter, const NavMesh& mesh, PolygonId polygon) {
  return filter.passes(mesh.area(polygon), mesh.flags(polygon));
}

// ---- Areas, flags and their edits

TEST(NavMeshAreas, PolygonsStartInAreaZeroWithNoFlagsAtRevisionZero) {
  const NavMesh mesh = NavMesh::build(square_grid(3, 2));
  EXPECT_EQ(mesh.revision(), 0u);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    EXPECT_EQ(mesh.area(p), 0);
    EXPECT_EQ(mesh.flags(p), 0);
  }
  EXPECT_EQ(mesh.areas_in_use(), 1u);
  EXPECT_EQ(mesh.flags_in_use(), 0);
  ASSERT_TRUE(mesh.changes_since(0).has_value());
  EXPECT_TRUE(mesh.changes_since(0)->empty());
}

TEST(NavMeshAreas, EveryChangingEditIsOneRevisionAndIsLogged) {
  NavMesh mesh = NavMesh::build(square_grid(3, 2));
  mesh.set_area(1, 5);
  EXPECT_EQ(mesh.revision(), 1u);
  mesh.set_area(1, 5);  // no change, no revision
  EXPECT_EQ(mesh.revision(), 1u);
  mesh.set_flags(2, 0x3);
  EXPECT_EQ(mesh.revision(), 2u);
  mesh.set_area_and_flags(1, 7, 0x4);
  EXPECT_EQ(mesh.revision(), 3u);
  const std::vector<PolygonId> room{0, 3, 4, 4};
  mesh.set_area(room, 2);  // one edit; polygon 4 listed twice is changed once
  EXPECT_EQ(mesh.revision(), 4u);
  mesh.set_flags(std::vector<PolygonId>{0, 3}, 0x8);
  EXPECT_EQ(mesh.revision(), 5u);
  mesh.set_flags(std::vector<PolygonId>{0, 3}, 0x8);
  EXPECT_EQ(mesh.revision(), 5u);

  EXPECT_EQ(mesh.area(1), 7);
  EXPECT_EQ(mesh.flags(1), 0x4);
  EXPECT_EQ(mesh.area(4), 2);
  EXPECT_EQ(mesh.flags(0), 0x8);

  const auto all = mesh.changes_since(0);
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 8u);
  EXPECT_EQ((*all)[0].polygon, 1u);
  EXPECT_EQ((*all)[0].area_before, 0);
  EXPECT_EQ((*all)[0].revision, 1u);
  EXPECT_EQ((*all)[1].polygon, 2u);
  EXPECT_EQ((*all)[1].flags_before, 0);
  EXPECT_EQ((*all)[2].polygon, 1u);
  EXPECT_EQ((*all)[2].area_before, 5);
  EXPECT_EQ((*all)[2].flags_before, 0);
  EXPECT_EQ((*all)[2].revision, 3u);
  const auto since_three = mesh.changes_since(3);
  ASSERT_TRUE(since_three.has_value());
  ASSERT_EQ(since_three->size(), 5u);  // 0, 3, 4 (revision 4), then 0, 3 (revision 5)
  EXPECT_EQ((*since_three)[0].revision, 4u);
  EXPECT_EQ((*since_three)[4].flags_before, 0);
  EXPECT_FALSE(mesh.changes_since(6).has_value());  // a revision the mesh never had

  // Areas and flags in use follow the edits both ways.
  EXPECT_EQ(mesh.areas_in_use(), (1u << 0) | (1u << 2) | (1u << 7));
  EXPECT_EQ(mesh.flags_in_use(), 0x3 | 0x4 | 0x8);
  mesh.set_area_and_flags(1, 0, 0);
  mesh.set_flags(2, 0);
  EXPECT_EQ(mesh.areas_in_use(), (1u << 0) | (1u << 2));
  EXPECT_EQ(mesh.flags_in_use(), 0x8);

  mesh.forget_changes();
  EXPECT_EQ(mesh.revision(), 0u);
  EXPECT_TRUE(mesh.changes_since(0)->empty());
  EXPECT_EQ(mesh.area(4), 2);  // forgetting history keeps the areas
}

TEST(NavMeshAreas, BadEditsThrowAndChangeNothing) {
  NavMesh mesh = NavMesh::build(square_grid(2, 2));
  EXPECT_THROW(mesh.set_area(4, 1), std::out_of_range);
  EXPECT_THROW(mesh.set_flags(99, 1), std::out_of_range);
  EXPECT_THROW(mesh.set_area(0, 64), std::invalid_argument);
  EXPECT_THROW(mesh.set_area_and_flags(0, 200, 1), std::invalid_argument);
  EXPECT_THROW(mesh.set_area(std::vector<PolygonId>{0, 1, 7}, 3), std::out_of_range);
  EXPECT_THROW(mesh.set_area(std::vector<PolygonId>{0, 1}, 64), std::invalid_argument);
  EXPECT_THROW(mesh.set_flags(std::vector<PolygonId>{2, 4}, 1), std::out_of_range);
  EXPECT_EQ(mesh.revision(), 0u);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    EXPECT_EQ(mesh.area(p), 0);
    EXPECT_EQ(mesh.flags(p), 0);
  }
  try {
    mesh.set_area(9, 1);
    FAIL();
  } catch (const std::out_of_range& error) {
    EXPECT_NE(std::string(error.what()).find("polygon 9"), std::string::npos) << error.what();
  }
}

TEST(NavMeshAreas, BuildCarriesInputAreasToEverySplitPolygon) {
  // An L-shaped (concave) face in area 3 with flags 0x2 beside a square in area 1.
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 1}, {1, 0, 2}, {0, 0, 2}, {3, 0, 0}, {3, 0, 1}};
  geometry.polygons = {{0, 1, 2, 3, 4, 5}, {1, 6, 7, 2}};
  geometry.polygon_areas = {3, 1};
  geometry.polygon_flags = {0x2, 0};
  const NavMesh mesh = NavMesh::build(geometry);
  ASSERT_GT(mesh.polygon_count(), 2u);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    EXPECT_EQ(mesh.area(p), mesh.source_polygon(p) == 0 ? 3 : 1);
    EXPECT_EQ(mesh.flags(p), mesh.source_polygon(p) == 0 ? 0x2 : 0);
  }
  EXPECT_EQ(mesh.areas_in_use(), (1u << 1) | (1u << 3));
  EXPECT_EQ(mesh.flags_in_use(), 0x2);
  EXPECT_EQ(mesh.revision(), 0u);  // building is not an edit

  MeshGeometry bad_area = geometry;
  bad_area.polygon_areas = {3, 64};
  EXPECT_THROW((void)NavMesh::build(bad_area), LoadError);
  MeshGeometry wrong_count = geometry;
  wrong_count.polygon_flags = {1};
  EXPECT_THROW((void)NavMesh::build(wrong_count), LoadError);
}

TEST(NavMeshAreas, ASteppedQueryStopsWhenAnAreaIsEditedBetweenSteps) {
  NavMesh mesh = NavMesh::build(square_grid(30, 30));
  NavMeshQuery query(mesh);
  for (const bool filtered : {false, true})
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    if (filtered) options.filter = AreaFilter{}.set_area_cost(0, 1.5f);  // has an effect: the filtered search
    ASSERT_EQ(query.begin({0.5, 0, 0.5}, {29.5, 0, 29.5}, options), SearchStatus::in_progress);
    ASSERT_EQ(query.step(5), SearchStatus::in_progress);
    const PolygonId edited = polygon_at(mesh, 10.5, 10.5);
    mesh.set_area(edited, mesh.area(edited) == 4 ? 5 : 4);
    EXPECT_EQ(query.step(5), SearchStatus::world_changed);
    const PathResult changed = query.result();
    EXPECT_EQ(changed.status, SearchStatus::world_changed);
    EXPECT_NE(changed.message.find("edited"), std::string::npos) << changed.message;
    // Begun again on the edited mesh, it runs to the end, as find_path would.
    ASSERT_EQ(query.begin({0.5, 0, 0.5}, {29.5, 0, 29.5}, options), SearchStatus::in_progress);
    while (query.step(7) == SearchStatus::in_progress) {
    }
    const PathResult stepped = query.result();
    const PathResult whole = query.find_path({0.5, 0, 0.5}, {29.5, 0, 29.5}, options);
    EXPECT_EQ(stepped.status, SearchStatus::found);
    EXPECT_EQ(stepped.nodes, whole.nodes);
    EXPECT_EQ(stepped.points, whole.points);
    EXPECT_EQ(stepped.cost, whole.cost);
  }
  // An edit that changes nothing does not stop a search.
  const PolygonId edited = polygon_at(mesh, 10.5, 10.5);
  ASSERT_EQ(query.begin({0.5, 0, 0.5}, {29.5, 0, 29.5}), SearchStatus::in_progress);
  ASSERT_EQ(query.step(5), SearchStatus::in_progress);
  mesh.set_area(edited, mesh.area(edited));
  EXPECT_EQ(query.step(), SearchStatus::found);
}

// ---- Filters in queries

// Two rooms joined by two doorways: a wall of holes at x = 2 except at the squares (2, 0) and
// (2, 2). The query crosses from (0.5, 1.5) to (4.5, 1.5).
struct TwoDoors {
  NavMesh mesh = NavMesh::build(square_grid(5, 3, {false, false, false, false, false,  //
                                                   false, false, true, false, false,   //
                                                   false, false, false, false, false}));
  PolygonId near_door = polygon_at(mesh, 2.5, 0.5);
  PolygonId far_door = polygon_at(mesh, 2.5, 2.5);
  Point start{0.5, 0.0, 1.5};
  Point goal{4.5, 0.0, 1.5};
};

TEST(NavMeshFilter, AnExcludedDoorMakesThePathGoRoundOrFail) {
  TwoDoors level;
  level.mesh.set_flags(level.near_door, 0x1);  // a door
  level.mesh.set_flags(level.far_door, 0x1 | 0x2);  // a locked door
  NavMeshQuery query(level.mesh);
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult open = query.find_path(level.start, level.goal, options);
    ASSERT_EQ(open.status, SearchStatus::found);

    options.filter = AreaFilter{}.exclude(0x1);  // no doors at all: no way through
    const PathResult shut = query.find_path(level.start, level.goal, options);
    EXPECT_EQ(shut.status, SearchStatus::no_path) << shut.message;
    options.partial_when_unreachable = true;
    const PathResult partial = query.find_path(level.start, level.goal, options);
    ASSERT_EQ(partial.status, SearchStatus::partial) << partial.message;
    EXPECT_FALSE(contains(partial.nodes, level.near_door));
    EXPECT_FALSE(contains(partial.nodes, level.far_door));
    EXPECT_NEAR(partial.points.back().x, 2.0, 1e-9);  // as close as the wall allows
    options.partial_when_unreachable = false;

    options.filter = AreaFilter{}.exclude(0x2);  // locked doors stay shut: the near door
    const PathResult near = query.find_path(level.start, level.goal, options);
    ASSERT_EQ(near.status, SearchStatus::found) << near.message;
    EXPECT_TRUE(contains(near.nodes, level.near_door));
    EXPECT_FALSE(contains(near.nodes, level.far_door));

    options.filter = AreaFilter{}.include(0x2);  // only a key holder's doors: the far one
    const PathResult far = query.find_path(level.start, level.goal, options);
    ASSERT_EQ(far.status, SearchStatus::found) << far.message;
    EXPECT_FALSE(contains(far.nodes, level.near_door));
    EXPECT_TRUE(contains(far.nodes, level.far_door));
    for (const PolygonId polygon : far.nodes) EXPECT_TRUE(passes(*options.filter, level.mesh, polygon));
  }
}

TEST(NavMeshFilter, ATraceOfAFilteredSearchNeverShowsTheExcludedPolygon) {
  TwoDoors level;
  level.mesh.set_area(level.near_door, 7);
  NavMeshQuery query(level.mesh);
  SearchTrace trace;
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    trace.clear();
    NavMeshSearchOptions options;
    options.nodes = nodes;
    options.trace = &trace;
    options.filter = AreaFilter{}.exclude_area(7);
    ASSERT_EQ(query.find_path(level.start, level.goal, options).status, SearchStatus::found);
    ASSERT_FALSE(trace.events().empty());
    for (const TraceRecord& record : trace.events()) {
      const Point p = query.corridor_node_position(record.node);
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.z));
      EXPECT_FALSE(p.x > 2.0 && p.x < 3.0 && p.z > 0.0 && p.z < 1.0) << "inside the excluded door";
    }
  }
}

TEST(NavMeshFilter, AnExcludedAreaIsNeverEntered) {
  TwoDoors level;
  level.mesh.set_area(level.far_door, 9);
  NavMeshQuery query(level.mesh);
  NavMeshSearchOptions options;
  options.filter = AreaFilter{}.exclude_area(9);
  const PathResult path = query.find_path({0.5, 0, 2.5}, {4.5, 0, 2.5}, options);
  ASSERT_EQ(path.status, SearchStatus::found);
  EXPECT_FALSE(contains(path.nodes, level.far_door));
  EXPECT_TRUE(contains(path.nodes, level.near_door));
}

TEST(NavMeshFilter, ACostlyAreaMakesTheSearchTakeACheaperDetour) {
  // A 9 x 3 field; the middle row's squares from x = 1 to 7 are mud (area 1).
  NavMesh mesh = NavMesh::build(square_grid(9, 3));
  std::vector<PolygonId> mud;
  for (int x = 1; x <= 7; ++x) mud.push_back(polygon_at(mesh, x + 0.5, 1.5));
  mesh.set_area(mud, 1);
  NavMeshQuery query(mesh);
  const Point start{0.5, 0, 1.5}, goal{8.5, 0, 1.5};
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult straight = query.find_path(start, goal, options);
    ASSERT_EQ(straight.status, SearchStatus::found);
    EXPECT_NEAR(straight.cost, 8.0, 1e-9);
    EXPECT_TRUE(contains(straight.nodes, mud[3]));

    // Mud a little slower: any way round is longer than 8.1, straight through costs 8.07.
    constexpr float slow = 1.01f;
    options.filter = AreaFilter{}.set_area_cost(1, slow);
    const PathResult through = query.find_path(start, goal, options);
    ASSERT_EQ(through.status, SearchStatus::found);
    EXPECT_TRUE(contains(through.nodes, mud[3]));
    // The cost is weighted: 1 unit on plain ground at the two ends, 7 units of mud.
    EXPECT_NEAR(through.cost, 1.0 + 7.0 * static_cast<double>(slow), 1e-9);
    EXPECT_NEAR(geometry::polyline_length(through.points), 8.0, 1e-9);

    options.filter = AreaFilter{}.set_area_cost(1, 10.0f);  // deep mud: round it
    const PathResult detour = query.find_path(start, goal, options);
    ASSERT_EQ(detour.status, SearchStatus::found);
    for (std::size_t i = 1; i + 1 < mud.size(); ++i) EXPECT_FALSE(contains(detour.nodes, mud[i])) << i;
    // Round the mud along its edge, all of it on plain ground: the cost is the length.
    EXPECT_GT(geometry::polyline_length(detour.points), 8.0);
    EXPECT_LT(geometry::polyline_length(detour.points), 8.5);
    EXPECT_NEAR(detour.cost, geometry::polyline_length(detour.points), 1e-9);
  }
}

TEST(NavMeshFilter, AUniformMultiplierScalesTheCostAndKeepsThePath) {
  const NavMesh mesh = NavMesh::build(square_grid(12, 12, {}, true, 7));
  NavMeshQuery query(mesh);
  NavMeshSearchOptions plain;
  NavMeshSearchOptions doubled;
  doubled.filter = AreaFilter{}.set_area_cost(0, 2.0f);
  const PathResult a = query.find_path({0.3, 0, 0.4}, {11.2, 0, 10.9}, plain);
  const PathResult b = query.find_path({0.3, 0, 0.4}, {11.2, 0, 10.9}, doubled);
  ASSERT_EQ(a.status, SearchStatus::found);
  ASSERT_EQ(b.status, SearchStatus::found);
  EXPECT_NEAR(geometry::polyline_length(b.points), a.cost, 1e-9);
  EXPECT_NEAR(b.cost, 2.0 * a.cost, 1e-9);
  const PathResult inside = query.find_path({0.2, 0, 0.1}, {0.3, 0, 0.15}, doubled);
  ASSERT_EQ(inside.status, SearchStatus::found);
  EXPECT_NEAR(inside.cost, 2.0 * std::hypot(0.1, 0.05), 1e-12);
}

TEST(NavMeshFilter, StartOrGoalOnAnExcludedPolygonIsInvalidInputNamingIt) {
  TwoDoors level;
  level.mesh.set_area(level.near_door, 6);
  level.mesh.set_flags(level.far_door, 0x4);
  NavMeshQuery query(level.mesh);
  NavMeshSearchOptions options;
  options.filter = AreaFilter{}.exclude_area(6).exclude(0x4);
  const PathResult from_door = query.find_path({2.5, 0, 0.5}, level.goal, options);
  EXPECT_EQ(from_door.status, SearchStatus::invalid_input);
  EXPECT_NE(from_door.message.find("start point stands on polygon " + std::to_string(level.near_door)), std::string::npos)
      << from_door.message;
  EXPECT_NE(from_door.message.find("area 6"), std::string::npos) << from_door.message;
  const PathResult to_door = query.find_path(level.start, {2.5, 0, 2.5}, options);
  EXPECT_EQ(to_door.status, SearchStatus::invalid_input);
  EXPECT_NE(to_door.message.find("goal point stands on polygon " + std::to_string(level.far_door)), std::string::npos)
      << to_door.message;
  EXPECT_NE(to_door.message.find("0x4"), std::string::npos) << to_door.message;

  // Snapped onto an excluded polygon from off the mesh.
  options.snap_distance = 1.0;
  const PathResult snapped = query.find_path({2.5, 0, -0.5}, level.goal, options);
  EXPECT_EQ(snapped.status, SearchStatus::invalid_input);
  EXPECT_NE(snapped.message.find("snaps onto polygon " + std::to_string(level.near_door)), std::string::npos)
      << snapped.message;

  // On the edge between the door and the room beside it, the point stands in the room.
  const PathResult from_edge = query.find_path({2.0, 0, 0.5}, level.goal, options);
  EXPECT_EQ(from_edge.status, SearchStatus::no_path) << from_edge.message;  // both doors shut
  EXPECT_EQ(level.mesh.locate({2.0, 0, 0.5}, 4.0, *options.filter).polygon, polygon_at(level.mesh, 1.5, 0.5));

  // find_corridor checks its located polygons too.
  const MeshLocation door{level.near_door, {2.5, 0, 0.5}};
  const MeshLocation room{polygon_at(level.mesh, 4.5, 1.5), level.goal};
  const PathResult corridor = query.find_corridor(door, room, options);
  EXPECT_EQ(corridor.status, SearchStatus::invalid_input);
  EXPECT_NE(corridor.message.find("start is located on polygon " + std::to_string(level.near_door)), std::string::npos)
      << corridor.message;

  // Without the filter the same queries are fine.
  EXPECT_EQ(query.find_path({2.5, 0, 0.5}, level.goal).status, SearchStatus::found);
}

TEST(NavMeshFilter, UnusableFiltersAreInvalidInput) {
  const NavMesh mesh = NavMesh::build(square_grid(3, 3));
  NavMeshQuery query(mesh);
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), 0.0f, -1.0f}) {
    NavMeshSearchOptions options;
    options.filter = AreaFilter{};
    options.filter->area_costs[17] = bad;  // set directly, as bindings or files might
    const PathResult result = query.find_path({0.5, 0, 0.5}, {2.5, 0, 2.5}, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input);
    EXPECT_NE(result.message.find("area 17"), std::string::npos) << result.message;
    EXPECT_EQ(query.find_corridor(mesh.locate({0.5, 0, 0.5}), mesh.locate({2.5, 0, 2.5}), options).status,
              SearchStatus::invalid_input);
  }
  EXPECT_THROW(AreaFilter{}.set_area_cost(64, 1.0f), std::invalid_argument);
  EXPECT_THROW(AreaFilter{}.set_area_cost(1, std::numeric_limits<float>::quiet_NaN()), std::invalid_argument);
}

// The answer with a filter must not depend on which polygons a search happened to look at
// first: a random mesh with random areas and flags, its polygon-centroid search against
// Dijkstra over the same graph (nodes at the centroids, the start and goal polygons at the
// query's points; a step costs its 3D length times the mean multiplier of its two polygons).
struct RandomAreas {
  explicit RandomAreas(std::uint32_t seed)
      : random(seed), mesh(NavMesh::build(square_grid(7, 6, holes(seed), true, seed))) {
    std::uniform_int_distribution<int> area(0, 4);
    for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
      mesh.set_area(p, static_cast<AreaId>(area(random)));
      mesh.set_flags(p, random() % 8 == 0 ? AreaFlags{0x1} : AreaFlags{0});
    }
    filter.set_area_cost(1, 2.0f).set_area_cost(2, 0.5f).set_area_cost(3, 5.0f).exclude_area(4).exclude(0x1);
  }
  static std::vector<bool> holes(std::uint32_t seed) {
    std::mt19937 random(seed * 7919u + 1u);
    std::vector<bool> blocked(42);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 7 == 0;
    return blocked;
  }
  // A point inside a polygon the filter passes.
  std::optional<MeshLocation> random_location() {
    std::vector<PolygonId> open;
    for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
      if (passes(filter, mesh, p)) open.push_back(p);
    if (open.empty()) return std::nullopt;
    const PolygonId polygon = open[random() % open.size()];
    const auto indices = mesh.polygon_vertices(polygon);
    std::uniform_real_distribution<double> weight(0.1, 1.0);
    Point point{0, 0, 0};
    double total = 0.0;
    for (const std::uint32_t index : indices) {
      const double w = weight(random);
      point = {point.x + w * mesh.vertex(index).x, 0.0, point.z + w * mesh.vertex(index).z};
      total += w;
    }
    return MeshLocation{polygon, {point.x / total, 0.0, point.z / total}};
  }

  std::mt19937 random;
  NavMesh mesh;
  AreaFilter filter;
};

double centroid_dijkstra(const NavMesh& mesh, const AreaFilter& filter, const MeshLocation& start,
                         const MeshLocation& goal) {
  auto position = [&](PolygonId p) {
    return p == start.polygon ? start.point : p == goal.polygon ? goal.point : mesh.centroid(p);
  };
  std::vector<double> best(mesh.polygon_count(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, PolygonId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[start.polygon] = 0.0;
  open.push({0.0, start.polygon});
  while (!open.empty()) {
    const auto [cost, polygon] = open.top();
    open.pop();
    if (cost > best[polygon]) continue;
    if (polygon == goal.polygon) return cost;
    for (const PolygonId next : mesh.polygon_neighbours(polygon)) {
      if (next == invalid_polygon || !passes(filter, mesh, next)) continue;
      const Point a = position(polygon), b = position(next);
      const double step = std::hypot(a.x - b.x, a.y - b.y, a.z - b.z) *
                          (0.5 * (filter.cost(mesh.area(polygon)) + filter.cost(mesh.area(next))));
      if (cost + step < best[next]) {
        best[next] = cost + step;
        open.push({best[next], next});
      }
    }
  }
  return std::numeric_limits<double>::infinity();
}

TEST(NavMeshFilter, CentroidSearchEqualsDijkstraOverPolygonsOnRandomMeshes) {
  int compared = 0, unreachable = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    RandomAreas world(seed);
    NavMeshQuery query(world.mesh);
    NavMeshSearchOptions options;
    options.nodes = CorridorNodes::polygon_centroids;
    options.filter = world.filter;
    for (int q = 0; q < 8; ++q) {
      const auto start = world.random_location(), goal = world.random_location();
      if (!start || !goal || start->polygon == goal->polygon) continue;
      const double expected = centroid_dijkstra(world.mesh, world.filter, *start, *goal);
      const PathResult corridor = query.find_corridor(*start, *goal, options);
      if (std::isinf(expected)) {
        EXPECT_EQ(corridor.status, SearchStatus::no_path) << "seed " << seed << " query " << q;
        ++unreachable;
        continue;
      }
      ASSERT_EQ(corridor.status, SearchStatus::found) << "seed " << seed << " query " << q << ": " << corridor.message;
      EXPECT_NEAR(corridor.cost, expected, 1e-9 * expected) << "seed " << seed << " query " << q;
      for (const PolygonId polygon : corridor.nodes) EXPECT_TRUE(passes(world.filter, world.mesh, polygon));
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(unreachable, 0);
}

// The edge-point search's cost is the weighted length of a path it could walk (straight moves
// across polygons, each at its polygon's multiplier), so it is never below the weighted
// shortest path; Dijkstra over many points on every shared edge comes within a hair of that
// from above. The search must never claim less than that (its costs would be wrong) and must
// agree on what is reachable. It is an approximation under cost multipliers: a weighted
// shortest path bends wherever it meets other ground (Snell's law), at any point of an edge,
// where the search has three points per edge; on these small random meshes of multipliers
// 0.5 to 5 it has been 1.065 times the fine Dijkstra's cost on average, up to 1.8 (exclusions alone: within
// 1.06, as without a filter). The upper bound below only guards against it getting worse.
double fine_dijkstra(const NavMesh& mesh, const AreaFilter& filter, const MeshLocation& start, const MeshLocation& goal) {
  constexpr int samples = 24;
  std::vector<Point> points{start.point, goal.point};
  std::vector<std::vector<std::uint32_t>> points_of(mesh.polygon_count());
  points_of[start.polygon].push_back(0);
  points_of[goal.polygon].push_back(1);
  for (std::uint32_t e = 0; e < mesh.shared_edge_count(); ++e) {
    const NavMesh::SharedEdge& edge = mesh.shared_edge(e);
    if (!passes(filter, mesh, edge.polygon_a) || !passes(filter, mesh, edge.polygon_b)) continue;
    const Point& a = mesh.vertex(edge.vertex_a);
    const Point& b = mesh.vertex(edge.vertex_b);
    for (int k = 0; k <= samples; ++k) {
      const double t = std::clamp(static_cast<double>(k) / samples, 1e-3, 1.0 - 1e-3);
      points.push_back({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t});
      const auto id = static_cast<std::uint32_t>(points.size() - 1);
      points_of[edge.polygon_a].push_back(id);
      points_of[edge.polygon_b].push_back(id);
    }
  }
  std::vector<double> best(points.size(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[0] = 0.0;
  open.push({0.0, 0});
  // Which polygons each point lies in (on a shared edge: both).
  std::vector<std::vector<PolygonId>> polygons_of(points.size());
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
    for (const std::uint32_t id : points_of[p]) polygons_of[id].push_back(p);
  while (!open.empty()) {
    const auto [cost, here] = open.top();
    open.pop();
    if (cost > best[here]) continue;
    if (here == 1) return cost;
    for (const PolygonId polygon : polygons_of[here]) {
      if (!passes(filter, mesh, polygon)) continue;
      const double multiplier = filter.cost(mesh.area(polygon));
      for (const std::uint32_t next : points_of[polygon]) {
        const double step = std::hypot(points[here].x - points[next].x, points[here].z - points[next].z) * multiplier;
        if (cost + step < best[next]) {
          best[next] = cost + step;
          open.push({best[next], next});
        }
      }
    }
  }
  return std::numeric_limits<double>::infinity();
}

// The weighted length of a path through a corridor measured by sampling: each short piece is
// charged the multiplier of the corridor polygon holding its middle.
double sampled_weighted_cost(const NavMesh& mesh, const AreaFilter& filter, const std::vector<NodeId>& corridor,
                             const std::vector<Point>& points) {
  double total = 0.0;
  constexpr int pieces = 400;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Point &a = points[i - 1], &b = points[i];
    const double piece = std::hypot(b.x - a.x, b.y - a.y, b.z - a.z) / pieces;
    for (int k = 0; k < pieces; ++k) {
      const double t = (k + 0.5) / pieces;
      const double x = a.x + (b.x - a.x) * t, z = a.z + (b.z - a.z) * t;
      float multiplier = excluded;
      for (const NodeId polygon : corridor)
        if (mesh.contains_xz(polygon, x, z)) multiplier = std::min(multiplier, filter.cost(mesh.area(polygon)));
      total += piece * multiplier;
    }
  }
  return total;
}

TEST(NavMeshFilter, EdgePointSearchAgreesWithAFineDijkstraOnRandomMeshes) {
  int compared = 0;
  double worst_ratio = 1.0, ratio_sum = 0.0;
  for (std::uint32_t seed = 1; seed <= (sanitized_build() ? 12u : 30u); ++seed) {
    RandomAreas world(seed);
    NavMeshQuery query(world.mesh);
    NavMeshSearchOptions options;
    options.filter = world.filter;
    for (int q = 0; q < 6; ++q) {
      const auto start = world.random_location(), goal = world.random_location();
      if (!start || !goal || start->polygon == goal->polygon) continue;
      const double oracle = fine_dijkstra(world.mesh, world.filter, *start, *goal);
      const PathResult corridor = query.find_corridor(*start, *goal, options);
      const PathResult path = query.find_path(start->point, goal->point, options);
      if (std::isinf(oracle)) {
        EXPECT_EQ(corridor.status, SearchStatus::no_path) << "seed " << seed << " query " << q;
        EXPECT_EQ(path.status, SearchStatus::no_path) << "seed " << seed << " query " << q;
        continue;
      }
      ASSERT_EQ(corridor.status, SearchStatus::found) << "seed " << seed << " query " << q;
      ASSERT_EQ(path.status, SearchStatus::found) << "seed " << seed << " query " << q;
      EXPECT_GE(corridor.cost, oracle * 0.99) << "seed " << seed << " query " << q;
      EXPECT_LE(corridor.cost, oracle * 2.5) << "seed " << seed << " query " << q;
      worst_ratio = std::max(worst_ratio, corridor.cost / oracle);
      ratio_sum += corridor.cost / oracle;
      for (std::size_t i = 0; i < path.nodes.size(); ++i) {
        EXPECT_TRUE(passes(world.filter, world.mesh, path.nodes[i]));
        if (i > 0) {
          const auto neighbours = world.mesh.polygon_neighbours(path.nodes[i - 1]);
          EXPECT_NE(std::find(neighbours.begin(), neighbours.end(), path.nodes[i]), neighbours.end());
        }
      }
      // The path's cost is its weighted length, piece by piece, and no path does better.
      EXPECT_NEAR(path.cost, sampled_weighted_cost(world.mesh, world.filter, path.nodes, path.points), 0.01 * path.cost)
          << "seed " << seed << " query " << q;
      EXPECT_GE(path.cost, oracle * 0.99) << "seed " << seed << " query " << q;
      ++compared;
    }
  }
  EXPECT_GT(compared, sanitized_build() ? 15 : 40);
  std::cout << compared << " queries; corridor cost / fine Dijkstra: largest " << worst_ratio << ", mean "
            << ratio_sum / std::max(compared, 1) << "\n";
}

// ---- Neutral filters on real data: the unfiltered search itself, bit for bit.

TEST(NavMeshFilter, NeutralFiltersGiveBitIdenticalAnswersOnNavTest) {
  const std::filesystem::path root = data_directory() / "meshes" / "derived";
  const std::filesystem::path mesh_path = root / "nav_test_navmesh.obj";
  const std::filesystem::path queries_path = root / "nav_test_reference_queries.csv";
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (testing::data_required()) FAIL() << "no mesh data at " << root;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  const NavMesh mesh = NavMesh::build(read_obj_mesh(mesh_path));
  const auto queries = read_mesh_queries(queries_path, sanitized_build() ? 200 : 2000);
  NavMeshQuery plain_query(mesh), filtered_query(mesh);
  std::vector<AreaFilter> neutral(3);
  neutral[1].set_area_cost(5, 9.0f).exclude_area(6);  // areas nobody uses
  neutral[2].exclude(0x10).include(0x1);              // flags nobody has
  AreaFilter doubled;
  doubled.set_area_cost(0, 2.0f);
  std::size_t found = 0;
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    for (const MeshQueryCase& q : queries) {
      NavMeshSearchOptions options;
      options.nodes = nodes;
      const PathResult plain = plain_query.find_path(q.start, q.goal, options);
      for (const AreaFilter& filter : neutral) {
        options.filter = filter;
        const PathResult filtered = filtered_query.find_path(q.start, q.goal, options);
        ASSERT_EQ(filtered.status, plain.status) << "line " << q.line;
        ASSERT_EQ(filtered.nodes, plain.nodes) << "line " << q.line;
        ASSERT_EQ(filtered.points, plain.points) << "line " << q.line;
        ASSERT_EQ(filtered.cost, plain.cost) << "line " << q.line;  // bit for bit
        ASSERT_EQ(filtered.stats.expanded, plain.stats.expanded) << "line " << q.line;
      }
      // Not neutral, but every polygon costs twice as much: the same paths at twice the cost.
      options.filter = doubled;
      const PathResult twice = filtered_query.find_path(q.start, q.goal, options);
      ASSERT_EQ(twice.status, plain.status) << "line " << q.line;
      if (plain.status == SearchStatus::found) {
        ++found;
        EXPECT_NEAR(twice.cost, 2.0 * plain.cost, 1e-9 * plain.cost) << "line " << q.line;
        EXPECT_NEAR(geometry::polyline_length(twice.points), plain.cost, 1e-6 * plain.cost) << "line " << q.line;
      }
    }
  }
  EXPECT_GT(found, 20u);
}

// A real level (nav_test, several floors) with random areas and flags: every path found keeps
// to the polygons the filter passes, costs at least its length times the smallest multiplier,
// and the search finds a path exactly when the polygons the filter passes join start and goal.
TEST(NavMeshFilter, FilteredQueriesOnNavTestKeepToTheFilterAndFindWhatIsReachable) {
  const std::filesystem::path root = data_directory() / "meshes" / "derived";
  const std::filesystem::path mesh_path = root / "nav_test_navmesh.obj";
  const std::filesystem::path queries_path = root / "nav_test_reference_queries.csv";
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (testing::data_required()) FAIL() << "no mesh data at " << root;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  NavMesh mesh = NavMesh::build(read_obj_mesh(mesh_path));
  std::mt19937 random(2024);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    mesh.set_area(p, static_cast<AreaId>(random() % 12 == 0 ? 3 : random() % 3));
    mesh.set_flags(p, random() % 20 == 0 ? AreaFlags{0x2} : AreaFlags{0});
  }
  AreaFilter filter;
  filter.set_area_cost(1, 0.75f).set_area_cost(2, 3.0f).exclude_area(3).exclude(0x2);
  // Which polygons the filter passes that are joined to each polygon: a flood fill.
  std::vector<std::uint32_t> component(mesh.polygon_count(), invalid_node);
  std::uint32_t components = 0;
  for (PolygonId seed = 0; seed < mesh.polygon_count(); ++seed) {
    if (component[seed] != invalid_node || !passes(filter, mesh, seed)) continue;
    std::vector<PolygonId> stack{seed};
    component[seed] = components;
    while (!stack.empty()) {
      const PolygonId polygon = stack.back();
      stack.pop_back();
      for (const PolygonId next : mesh.polygon_neighbours(polygon))
        if (next != invalid_polygon && component[next] == invalid_node && passes(filter, mesh, next)) {
          component[next] = components;
          stack.push_back(next);
        }
    }
    ++components;
  }
  const auto queries = read_mesh_queries(queries_path, 1500);  // fast enough under sanitizers too
  NavMeshQuery query(mesh);
  std::size_t found = 0, unreachable = 0, refused = 0;
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    options.filter = filter;
    for (const MeshQueryCase& q : queries) {
      const PathResult path = query.find_path(q.start, q.goal, options);
      if (path.status == SearchStatus::invalid_input) {
        // Only for an end that stands on excluded polygons alone.
        EXPECT_NE(path.message.find("which the filter excludes"), std::string::npos) << path.message;
        ++refused;
        continue;
      }
      const MeshLocation start = mesh.locate(q.start, NavMesh::default_height_tolerance, filter);
      const MeshLocation goal = mesh.locate(q.goal, NavMesh::default_height_tolerance, filter);
      ASSERT_TRUE(start.valid() && goal.valid()) << "line " << q.line;
      const bool joined = component[start.polygon] == component[goal.polygon];
      if (!joined) {
        EXPECT_EQ(path.status, SearchStatus::no_path) << "line " << q.line;
        ++unreachable;
        continue;
      }
      ASSERT_EQ(path.status, SearchStatus::found) << "line " << q.line << ": " << path.message;
      for (const PolygonId polygon : path.nodes) ASSERT_TRUE(passes(filter, mesh, polygon)) << "line " << q.line;
      EXPECT_GE(path.cost, 0.75 * geometry::polyline_length(path.points) * (1.0 - 1e-12)) << "line " << q.line;
      EXPECT_LE(path.cost, 3.0 * geometry::polyline_length(path.points) * (1.0 + 1e-12)) << "line " << q.line;
      ++found;
    }
  }
  EXPECT_GT(found, 20u);
  EXPECT_GT(unreachable, 0u);
  std::cout << found << " found, " << unreachable << " cut off by the filter or regions, " << refused
            << " ends on excluded polygons\n";
}

// ---- Areas from OBJ names

constexpr const char* marked_level = R"(# no mtllib: materials are known by name alone
v 0 0 0
v 1 0 0
v 2 0 0
v 3 0 0
v 4 0 0
v 0 0 1
v 1 0 1
v 2 0 1
v 3 0 1
v 4 0 1
o Level Floor
f 1 2 7 6
usemtl lava
f 2 3 8 7
usemtl stone floor
g doors west_wing
f 3 4 9 8
usemtl
g west_wing
f 4 5 10 9
)";

TEST(ObjAreas, MaterialsThenGroupsThenObjectsNameAreas) {
  ObjReadOptions options;
  options.areas = {{"lava", {5, 0x2}},
                   {"doors", {1, 0x1}},
                   {"west_wing", {2, 0}},
                   {"Level Floor", {3, 0}},
                   {"stone floor", {4, 0}}};
  const MeshGeometry geometry = parse_obj_mesh(marked_level, "marked.obj", options);
  ASSERT_EQ(geometry.polygons.size(), 4u);
  ASSERT_EQ(geometry.polygon_areas.size(), 4u);
  ASSERT_EQ(geometry.polygon_flags.size(), 4u);
  EXPECT_EQ(geometry.polygon_areas[0], 3);  // the object
  EXPECT_EQ(geometry.polygon_areas[1], 5);  // its material
  EXPECT_EQ(geometry.polygon_flags[1], 0x2);
  EXPECT_EQ(geometry.polygon_areas[2], 4);  // the material (a name with a space) before its groups
  EXPECT_EQ(geometry.polygon_areas[3], 2);  // no material: its group
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_EQ(mesh.area(1), 5);
  EXPECT_EQ(mesh.flags(1), 0x2);

  // Groups in order when the material has no entry; unknown names give area 0, no flags.
  options.areas = {{"doors", {1, 0x1}}, {"west_wing", {2, 0}}};
  const MeshGeometry by_groups = parse_obj_mesh(marked_level, "marked.obj", options);
  EXPECT_EQ(by_groups.polygon_areas, (std::vector<AreaId>{0, 0, 1, 2}));
  EXPECT_EQ(by_groups.polygon_flags, (std::vector<AreaFlags>{0, 0, 1, 0}));

  // No table: no areas are read.
  EXPECT_TRUE(parse_obj_mesh(marked_level, "marked.obj").polygon_areas.empty());

  // A material library that does not exist changes nothing: it is never opened.
  const std::string with_library = std::string("mtllib missing.mtl\n") + marked_level;
  options.areas = {{"lava", {5, 0x2}}};
  EXPECT_EQ(parse_obj_mesh(with_library, "marked.obj", options).polygon_areas, (std::vector<AreaId>{0, 5, 0, 0}));
}

TEST(ObjAreas, AnAreaOutsideTheRangeIsRefused) {
  ObjReadOptions options;
  options.areas = {{"lava", {64, 0}}};
  try {
    (void)parse_obj_mesh(marked_level, "marked.obj", options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("'lava' has area 64"), std::string::npos) << error.what();
  }
}

// ---- Corridor breaks

struct PlannedCorridor {
  PlannedCorridor() {
    NavMeshQuery query(mesh);
    const PathResult path = query.find_path({0.5, 0, 0.5}, {6.5, 0, 0.5});
    corridor = path.nodes;
    revision = mesh.revision();
  }
  NavMesh mesh = NavMesh::build(square_grid(7, 3));
  std::vector<NodeId> corridor;
  std::uint64_t revision = 0;
};

TEST(CorridorBreaks, FindsTheFirstPolygonAnEditBroke) {
  PlannedCorridor planned;
  ASSERT_EQ(planned.corridor.size(), 7u);
  AreaFilter filter;
  filter.set_area_cost(1, 3.0f).set_area_cost(2, 0.5f).exclude_area(9).exclude(0x4);
  EXPECT_FALSE(first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter));

  // Edits off the corridor, and a cheaper area on it, break nothing.
  planned.mesh.set_area(polygon_at(planned.mesh, 3.5, 2.5), 9);
  planned.mesh.set_area(static_cast<PolygonId>(planned.corridor[2]), 2);
  EXPECT_FALSE(first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter));

  // A dearer area: cost_grew; an excluded one before it wins.
  planned.mesh.set_area(static_cast<PolygonId>(planned.corridor[5]), 1);
  auto broken = first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->index, 5u);
  EXPECT_EQ(broken->reason, CorridorBreak::cost_grew);
  planned.mesh.set_flags(static_cast<PolygonId>(planned.corridor[4]), 0x4);
  broken = first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->index, 4u);
  EXPECT_EQ(broken->reason, CorridorBreak::excluded_polygon);
  planned.mesh.set_area(static_cast<PolygonId>(planned.corridor[3]), 9);
  broken = first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->index, 3u);

  // Only edits after the planning revision count: replanned now, nothing is broken yet.
  EXPECT_FALSE(first_blocked_polygon(planned.mesh, std::span(planned.corridor).first(3), planned.mesh.revision(), &filter));
  // Without a filter, areas and flags do not matter to the query, so nothing breaks.
  EXPECT_FALSE(first_blocked_polygon(planned.mesh, planned.corridor, planned.revision));

  // An area edited and edited back is what it was when planned.
  PlannedCorridor again;
  again.mesh.set_area(static_cast<PolygonId>(again.corridor[1]), 9);
  again.mesh.set_area(static_cast<PolygonId>(again.corridor[1]), 0);
  EXPECT_FALSE(first_blocked_polygon(again.mesh, again.corridor, again.revision, &filter));
}

TEST(CorridorBreaks, BeyondTheLogTheWholeCorridorIsChecked) {
  PlannedCorridor planned;
  AreaFilter filter;
  filter.exclude_area(9);
  // More edits than the log keeps, all off the corridor.
  const PolygonId aside = polygon_at(planned.mesh, 3.5, 2.5);
  for (std::size_t i = 0; i <= NavMesh::change_log_limit; ++i)
    planned.mesh.set_area(aside, static_cast<AreaId>(i % 2 == 0 ? 1 : 0));
  ASSERT_FALSE(planned.mesh.changes_since(planned.revision).has_value());
  auto broken = first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->index, 0u);
  EXPECT_EQ(broken->reason, CorridorBreak::unknown_history);
  planned.mesh.set_area(static_cast<PolygonId>(planned.corridor[2]), 9);
  broken = first_blocked_polygon(planned.mesh, planned.corridor, planned.revision, &filter);
  ASSERT_TRUE(broken);
  EXPECT_EQ(broken->index, 2u);
  EXPECT_EQ(broken->reason, CorridorBreak::excluded_polygon);
}

TEST(CorridorBreaks, RefusesCorridorsThatAreNotCorridors) {
  PlannedCorridor planned;
  const std::vector<PolygonId> outside{0, 1, 99};
  EXPECT_THROW((void)first_blocked_polygon(planned.mesh, outside, 0), std::invalid_argument);
  const std::vector<PolygonId> apart{0, 2};
  EXPECT_THROW((void)first_blocked_polygon(planned.mesh, apart, 0), std::invalid_argument);
  AreaFilter broken_filter;
  broken_filter.area_costs[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW((void)first_blocked_polygon(planned.mesh, planned.corridor, 0, &broken_filter), std::invalid_argument);
}

}  // namespace
}  // namespace wayfinder
