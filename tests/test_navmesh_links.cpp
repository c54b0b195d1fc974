// Off-mesh links on navigation meshes (jumps, ladders, teleporters): placing them at build time
// and after, regions and dead-end pruning with links, corridor searches across them in both
// node placements and under filters, what the result says (PathResult::links, the waypoints),
// stepped searches, a brute-force Dijkstra over the same node graph on random meshes with
// random links, and the links file reader's errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "navmesh/search_tables.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

namespace wayfinder {
namespace {

constexpr CorridorNodes both_placements[] = {CorridorNodes::edge_points, CorridorNodes::polygon_centroids};

// A floor of `columns` x `rows` unit squares from (x0, z0) at height y, skipping the squares
// `blocked` says (by index z * columns + x).
void add_floor(MeshGeometry& geometry, double x0, double z0, double y, int columns, int rows,
               const std::vector<bool>& blocked = {}) {
  const auto base = static_cast<std::uint32_t>(geometry.vertices.size());
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) geometry.vertices.push_back({x0 + x, y, z0 + z});
  auto vertex = [&](int x, int z) { return base + static_cast<std::uint32_t>(z * (columns + 1) + x); };
  for (int z = 0; z < rows; ++z)
    for (int x = 0; x < columns; ++x)
      if (blocked.empty() || !blocked[static_cast<std::size_t>(z * columns + x)])
        geometry.polygons.push_back({vertex(x, z), vertex(x + 1, z), vertex(x + 1, z + 1), vertex(x, z + 1)});
}

OffMeshLink link_between(Point start, Point end, bool bidirectional = true) {
  OffMeshLink link;
  link.start = start;
  link.end = end;
  link.bidirectional = bidirectional;
  return link;
}

double distance(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z); }

bool same_point(const Point& a, const Point& b) { return distance(a, b) < 1e-9; }

// The cost the result should have: the walked pieces' 3D lengths plus each link's own cost.
double walked_plus_links(const NavMesh& mesh, const PathResult& result) {
  double total = 0.0;
  std::size_t next_link = 0;
  for (std::size_t i = 1; i < result.points.size(); ++i) {
    if (next_link < result.links.size() && result.links[next_link].waypoint == i - 1) {
      total += mesh.off_mesh_link(result.links[next_link].link).cost;
      ++next_link;
      continue;
    }
    total += distance(result.points[i - 1], result.points[i]);
  }
  return total;
}

// Two floors 4 x 2 that share nothing: a lower one at y = 0 from x = 0, an upper one at y = 3
// from x = 10. Only links join them.
struct TwoFloors {
  static MeshGeometry geometry(std::vector<OffMeshLink> links) {
    MeshGeometry geometry;
    add_floor(geometry, 0, 0, 0, 4, 2);
    add_floor(geometry, 10, 0, 3, 4, 2);
    geometry.off_mesh_links = std::move(links);
    return geometry;
  }
  static constexpr Point lower{0.5, 0, 0.5};
  static constexpr Point upper{13.5, 3, 1.5};
};

// ---- Placing links, regions

TEST(OffMeshLinks, BuildPlacesTheEndsOnPolygonsAndJoinsRegions) {
  const NavMesh without = NavMesh::build(TwoFloors::geometry({}));
  EXPECT_EQ(without.region_count(), 2u);
  EXPECT_EQ(without.off_mesh_link_count(), 0u);
  OffMeshLink jump = link_between({3.5, 0.4, 1.0}, {10.2, 3.0, 1.0}, false);  // start a little above the floor
  jump.user_id = 42;
  jump.area = 5;
  jump.flags = 0x4;
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({jump}));
  ASSERT_EQ(mesh.off_mesh_link_count(), 1u);
  EXPECT_EQ(mesh.region_count(), 1u);
  const PlacedOffMeshLink& placed = mesh.off_mesh_link(0);
  EXPECT_EQ(placed.input.user_id, 42u);
  EXPECT_EQ(placed.start_polygon, mesh.locate({3.5, 0, 1.0}).polygon);
  EXPECT_EQ(placed.end_polygon, mesh.locate({10.2, 3, 1.0}).polygon);
  EXPECT_TRUE(same_point(placed.start, {3.5, 0.0, 1.0}));  // put onto the floor
  EXPECT_NEAR(placed.cost, distance(placed.start, placed.end), 1e-12);  // no cost given: its length
  EXPECT_TRUE((mesh.areas_in_use() >> 5) & 1u) << "a link's area is in use";
  EXPECT_EQ(mesh.flags_in_use() & 0x4, 0x4);
  ASSERT_EQ(mesh.links_leaving(placed.start_polygon).size(), 1u);
  EXPECT_TRUE(mesh.links_leaving(placed.end_polygon).empty()) << "one-way";
}

TEST(OffMeshLinks, AnEndBesideTheMeshSnapsWithinItsRadiusAndOtherwiseFailsTheBuild) {
  OffMeshLink near = link_between({4.3, 0, 1.0}, {10.5, 3, 1.0});  // 0.3 beyond the lower floor's edge
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({near}));
  EXPECT_NEAR(mesh.off_mesh_link(0).start.x, 4.0, 1e-9);

  OffMeshLink far = link_between({0.5, 0, 0.5}, {7.0, 1.5, 1.0});  // between the floors
  far.radius = 0.5;
  far.line = 7;
  try {
    (void)NavMesh::build(TwoFloors::geometry({near, far}));
    FAIL() << "an end off the mesh must fail the build";
  } catch (const LoadError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("off-mesh link 1"), std::string::npos) << what;
    EXPECT_NE(what.find(":7:"), std::string::npos) << what;
    EXPECT_NE(what.find("end"), std::string::npos) << what;
  }
  OffMeshLink bad_cost = near;
  bad_cost.cost = -1.0;
  EXPECT_THROW((void)NavMesh::build(TwoFloors::geometry({bad_cost})), LoadError);
  OffMeshLink bad_area = near;
  bad_area.area = max_areas;
  EXPECT_THROW((void)NavMesh::build(TwoFloors::geometry({bad_area})), LoadError);
  OffMeshLink not_finite = near;
  not_finite.end.y = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW((void)NavMesh::build(TwoFloors::geometry({not_finite})), LoadError);
}

TEST(OffMeshLinks, ACostBelowTheLinksLengthIsRaisedToIt) {
  OffMeshLink cheap = link_between({3.5, 0, 1}, {10.5, 3, 1});
  cheap.cost = 0.5;
  OffMeshLink dear = cheap;
  dear.cost = 100.0;
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({cheap, dear}));
  EXPECT_NEAR(mesh.off_mesh_link(0).cost, distance({3.5, 0, 1}, {10.5, 3, 1}), 1e-12);
  EXPECT_EQ(mesh.off_mesh_link(1).cost, 100.0);
}

// ---- Searching across links

TEST(OffMeshLinks, AOneWayLinkBetweenTwoFloorsIsTakenOneWayOnly) {
  // Along the lower floor's first row, and the upper one's second: straight walks.
  const Point takeoff{3.5, 0, 0.5}, landing{10.5, 3, 1.5};
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({link_between(takeoff, landing, false)}));
  NavMeshQuery query(mesh);
  for (const CorridorNodes nodes : both_placements) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult down = query.find_path(TwoFloors::lower, TwoFloors::upper, options);
    ASSERT_EQ(down.status, SearchStatus::found) << to_string(nodes) << ": " << down.message;
    ASSERT_EQ(down.links.size(), 1u);
    const PathLinkStep& step = down.links[0];
    EXPECT_EQ(step.link, 0u);
    EXPECT_FALSE(step.reverse);
    // The waypoints go to the link's start, then on from its end, in that order.
    ASSERT_LT(step.waypoint + 1, down.points.size());
    EXPECT_TRUE(same_point(down.points[step.waypoint], takeoff));
    EXPECT_TRUE(same_point(down.points[step.waypoint + 1], landing));
    EXPECT_TRUE(same_point(down.points.front(), TwoFloors::lower));
    EXPECT_TRUE(same_point(down.points.back(), TwoFloors::upper));
    // The corridor: the lower floor's polygons up to the take-off polygon, then the upper's.
    ASSERT_LT(step.node + 1, down.nodes.size());
    EXPECT_EQ(down.nodes[step.node], mesh.off_mesh_link(0).start_polygon);
    EXPECT_EQ(down.nodes[step.node + 1], mesh.off_mesh_link(0).end_polygon);
    EXPECT_EQ(down.nodes.front(), mesh.locate(TwoFloors::lower).polygon);
    EXPECT_EQ(down.nodes.back(), mesh.locate(TwoFloors::upper).polygon);
    EXPECT_NEAR(down.cost, walked_plus_links(mesh, down), 1e-9);
    EXPECT_NEAR(down.cost, distance(TwoFloors::lower, takeoff) + distance(takeoff, landing) +
                               distance(landing, TwoFloors::upper), 1e-9);

    // Back up the other way there is none: the same region (links join regions both ways), so
    // the search finds out.
    const PathResult up = query.find_path(TwoFloors::upper, TwoFloors::lower, options);
    EXPECT_EQ(up.status, SearchStatus::no_path) << to_string(nodes);
    EXPECT_TRUE(up.links.empty());
  }
}

TEST(OffMeshLinks, ATwoWayLadderIsClimbedBothWays) {
  const Point bottom{3.5, 0, 0.5}, top{10.5, 3, 1.5};
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({link_between(bottom, top, true)}));
  NavMeshQuery query(mesh);
  for (const CorridorNodes nodes : both_placements) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult up = query.find_path(TwoFloors::lower, TwoFloors::upper, options);
    ASSERT_EQ(up.status, SearchStatus::found);
    ASSERT_EQ(up.links.size(), 1u);
    EXPECT_FALSE(up.links[0].reverse);
    const PathResult down = query.find_path(TwoFloors::upper, TwoFloors::lower, options);
    ASSERT_EQ(down.status, SearchStatus::found) << down.message;
    ASSERT_EQ(down.links.size(), 1u);
    EXPECT_TRUE(down.links[0].reverse);
    EXPECT_TRUE(same_point(down.points[down.links[0].waypoint], top));
    EXPECT_TRUE(same_point(down.points[down.links[0].waypoint + 1], bottom));
    EXPECT_NEAR(up.cost, down.cost, 1e-9);
  }
}

// A U: two arms 1 wide and 8 long (x = 0..1 and x = 4..5) joined at the far end (z = 7..8).
MeshGeometry u_shape(std::vector<OffMeshLink> links) {
  MeshGeometry geometry;
  std::vector<bool> blocked(5 * 8, false);
  for (int z = 0; z < 7; ++z)
    for (int x = 1; x < 4; ++x) blocked[static_cast<std::size_t>(z * 5 + x)] = true;
  add_floor(geometry, 0, 0, 0, 5, 8, blocked);
  geometry.off_mesh_links = std::move(links);
  return geometry;
}

TEST(OffMeshLinks, AShortcutIsTakenOnlyWhenItIsCheaper) {
  const Point a{0.5, 0, 0.5}, b{4.5, 0, 0.5};
  const double around = 2 * 7.0 + 4.0;  // about: up one arm, across, down the other
  for (const double cost : {5.0, 40.0}) {
    OffMeshLink bridge = link_between({0.9, 0, 0.5}, {4.1, 0, 0.5});
    bridge.cost = cost;
    const NavMesh mesh = NavMesh::build(u_shape({bridge}));
    NavMeshQuery query(mesh);
    for (const CorridorNodes nodes : both_placements) {
      NavMeshSearchOptions options;
      options.nodes = nodes;
      const PathResult path = query.find_path(a, b, options);
      ASSERT_EQ(path.status, SearchStatus::found);
      if (cost < around) {
        ASSERT_EQ(path.links.size(), 1u) << "cost " << cost;
        EXPECT_NEAR(path.cost, 0.4 + cost + 0.4, 1e-9);
      } else {
        EXPECT_TRUE(path.links.empty()) << "cost " << cost << " " << to_string(nodes);
        EXPECT_LT(path.cost, cost);
      }
    }
  }
}

TEST(OffMeshLinks, AFilterPricesAndExcludesLinksByTheirArea) {
  OffMeshLink bridge = link_between({0.9, 0, 0.5}, {4.1, 0, 0.5});
  bridge.area = 3;
  bridge.flags = 0x2;
  const NavMesh mesh = NavMesh::build(u_shape({bridge}));
  NavMeshQuery query(mesh);
  const Point a{0.5, 0, 0.5}, b{4.5, 0, 0.5};
  for (const CorridorNodes nodes : both_placements) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    options.filter = AreaFilter{};
    options.filter->set_area_cost(3, 2.0f);  // only the link has area 3: the filter is not neutral
    const PathResult priced = query.find_path(a, b, options);
    ASSERT_EQ(priced.status, SearchStatus::found);
    ASSERT_EQ(priced.links.size(), 1u);
    EXPECT_NEAR(priced.cost, 0.4 + 2.0 * 3.2 + 0.4, 1e-9);

    options.filter = AreaFilter{};
    options.filter->exclude_area(3);
    const PathResult around_by_area = query.find_path(a, b, options);
    ASSERT_EQ(around_by_area.status, SearchStatus::found);
    EXPECT_TRUE(around_by_area.links.empty());
    EXPECT_GT(around_by_area.cost, 14.0);

    options.filter = AreaFilter{};
    options.filter->exclude(0x2);
    const PathResult around_by_flags = query.find_path(a, b, options);
    EXPECT_TRUE(around_by_flags.links.empty());
  }
  // Two floors joined only by an excluded link: no path.
  OffMeshLink ladder = link_between({3.5, 0, 1}, {10.5, 3, 1});
  ladder.area = 3;
  const NavMesh floors = NavMesh::build(TwoFloors::geometry({ladder}));
  NavMeshQuery floors_query(floors);
  for (const CorridorNodes nodes : both_placements) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    options.filter = AreaFilter{};
    options.filter->exclude_area(3);
    EXPECT_EQ(floors_query.find_path(TwoFloors::lower, TwoFloors::upper, options).status, SearchStatus::no_path);
  }
}

TEST(OffMeshLinks, SteppedSearchesEqualOneShotAndTracesPlaceLinkNodes) {
  OffMeshLink one_way = link_between({3.5, 0, 1}, {10.5, 3, 1}, false);
  OffMeshLink back = link_between({13.5, 3, 0.5}, {0.5, 0, 1.5}, false);
  const NavMesh mesh = NavMesh::build(TwoFloors::geometry({one_way, back}));
  NavMeshQuery query(mesh);
  for (const CorridorNodes nodes : both_placements) {
    for (const bool filtered : {false, true}) {
      NavMeshSearchOptions options;
      options.nodes = nodes;
      if (filtered) options.filter = AreaFilter{}.set_area_cost(0, 1.5f);
      for (const auto& [from, to] : {std::pair{TwoFloors::lower, TwoFloors::upper}, std::pair{TwoFloors::upper, TwoFloors::lower}}) {
        const PathResult once = query.find_path(from, to, options);
        ASSERT_EQ(once.status, SearchStatus::found);
        ASSERT_EQ(once.links.size(), 1u);
        SearchTrace trace;
        options.trace = &trace;
        ASSERT_EQ(query.begin(from, to, options), SearchStatus::in_progress);
        SearchStatus status = SearchStatus::in_progress;
        while (status == SearchStatus::in_progress) status = query.step(1);
        const PathResult stepped = query.result();
        options.trace = nullptr;
        EXPECT_EQ(stepped.status, once.status);
        EXPECT_EQ(stepped.nodes, once.nodes);
        EXPECT_EQ(stepped.links, once.links);
        EXPECT_EQ(stepped.cost, once.cost);
        ASSERT_EQ(stepped.points.size(), once.points.size());
        for (std::size_t i = 0; i < once.points.size(); ++i) EXPECT_TRUE(same_point(stepped.points[i], once.points[i]));
        // A link's node is drawn where the link lands.
        const PlacedOffMeshLink& taken = mesh.off_mesh_link(once.links[0].link);
        const NodeId first_link_node = nodes == CorridorNodes::polygon_centroids
                                           ? static_cast<NodeId>(mesh.polygon_count())
                                           : static_cast<NodeId>(SearchTables::edge_point_graph(mesh).node_count() + 2);
        const NodeId link_node = first_link_node + 2 * once.links[0].link;
        EXPECT_TRUE(same_point(query.corridor_node_position(link_node), taken.end)) << to_string(nodes);
        EXPECT_TRUE(std::any_of(trace.events().begin(), trace.events().end(),
                                [&](const TraceRecord& record) { return record.node == link_node; }))
            << "the trace shows the link's node";
      }
    }
  }
}

TEST(OffMeshLinks, AddingALinkAfterBuildingIsAnEditThatJoinsRegions) {
  NavMesh mesh = NavMesh::build(TwoFloors::geometry({}));
  NavMeshQuery query(mesh);
  EXPECT_EQ(query.find_path(TwoFloors::lower, TwoFloors::upper).status, SearchStatus::no_path);
  // A stepped search begun before the edit notices it.
  ASSERT_EQ(query.begin(TwoFloors::lower, {3.5, 0, 1.5}), SearchStatus::in_progress);
  const std::uint64_t before = mesh.revision();
  const OffMeshLinkId id = mesh.add_off_mesh_link(link_between({3.5, 0, 1}, {10.5, 3, 1}, false));
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(mesh.revision(), before + 1);
  ASSERT_TRUE(mesh.changes_since(before).has_value());
  EXPECT_TRUE(mesh.changes_since(before)->empty()) << "no polygon changed";
  EXPECT_EQ(query.step(), SearchStatus::world_changed);
  EXPECT_EQ(mesh.region_count(), 1u);
  const PathResult path = query.find_path(TwoFloors::lower, TwoFloors::upper);
  ASSERT_EQ(path.status, SearchStatus::found);
  EXPECT_EQ(path.links.size(), 1u);
  // Bad links change nothing.
  EXPECT_THROW((void)mesh.add_off_mesh_link(link_between({0.5, 0, 0.5}, {50, 0, 50})), std::invalid_argument);
  OffMeshLink bad = link_between({0.5, 0, 0.5}, {1.5, 0, 0.5});
  bad.cost = std::numeric_limits<double>::infinity();
  EXPECT_THROW((void)mesh.add_off_mesh_link(bad), std::invalid_argument);
  EXPECT_EQ(mesh.off_mesh_link_count(), 1u);
  EXPECT_EQ(mesh.revision(), before + 1);
}

// A dead-end pocket off a corridor, entered by one edge (a bridge of the polygons alone), with
// a link from inside the pocket to a far floor: the way to the far floor goes into the pocket,
// which pruning must not cut off, whether the link came with the build or was added later.
TEST(OffMeshLinks, ALinkOutOfADeadEndPocketIsStillFound) {
  auto pocket_geometry = [] {
    MeshGeometry geometry;
    // A corridor x = 0..6, z = 0..1, and a pocket above its last square, x = 5..6, z = 1..4.
    std::vector<bool> blocked(6 * 4, true);
    for (std::size_t x = 0; x < 6; ++x) blocked[x] = false;
    for (std::size_t z = 1; z < 4; ++z) blocked[z * 6 + 5] = false;
    add_floor(geometry, 0, 0, 0, 6, 4, blocked);
    add_floor(geometry, 20, 0, 2, 2, 2);  // the far floor
    return geometry;
  };
  const OffMeshLink out = link_between({5.5, 0, 3.5}, {20.5, 2, 0.5}, false);
  MeshGeometry with_link = pocket_geometry();
  with_link.off_mesh_links = {out};
  NavMesh built = NavMesh::build(with_link);
  NavMesh added = NavMesh::build(pocket_geometry());
  (void)added.add_off_mesh_link(out);
  for (const NavMesh* mesh : {&built, &added}) {
    NavMeshQuery query(*mesh);
    for (const CorridorNodes nodes : both_placements) {
      NavMeshSearchOptions options;
      options.nodes = nodes;
      const PathResult path = query.find_path({0.5, 0, 0.5}, {21.5, 2, 1.5}, options);
      ASSERT_EQ(path.status, SearchStatus::found) << to_string(nodes) << ": " << path.message;
      EXPECT_EQ(path.links.size(), 1u);
      // And the pocket is still pruned for a goal in the corridor: nothing changes there.
      EXPECT_EQ(query.find_path({0.5, 0, 0.5}, {5.5, 0, 0.5}, options).status, SearchStatus::found);
    }
  }
}

// ---- Brute force: random meshes with random links, the centroid search against Dijkstra over
// the same node graph (polygons at their centroids, the start and goal polygons at the query's
// points; one node per directed link, where it lands: reaching it costs the walk to its
// take-off point times the polygon's multiplier plus the link's cost times its area's, leaving it
// the walk from its landing point to its polygon's node times that polygon's multiplier).

struct RandomLinkedMesh {
  explicit RandomLinkedMesh(std::uint32_t seed) : random(seed) {
    MeshGeometry geometry;
    std::vector<bool> blocked(6 * 6);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 4 == 0;
    add_floor(geometry, 0, 0, 0, 6, 6, blocked);
    std::vector<bool> upper_blocked(4 * 4);
    for (std::size_t i = 0; i < upper_blocked.size(); ++i) upper_blocked[i] = random() % 5 == 0;
    add_floor(geometry, 2, 10, 2, 4, 4, upper_blocked);
    const NavMesh plain = NavMesh::build(geometry);
    std::uniform_int_distribution<int> link_count(0, 5);
    const int links = link_count(random);
    for (int i = 0; i < links; ++i) {
      OffMeshLink link = link_between(random_point(plain).point, random_point(plain).point, random() % 2 == 0);
      if (random() % 2 == 0) link.cost = std::uniform_real_distribution<double>(0.0, 8.0)(random);
      link.area = static_cast<AreaId>(random() % 4);
      geometry.off_mesh_links.push_back(link);
    }
    mesh = NavMesh::build(geometry);
    for (PolygonId p = 0; p < mesh.polygon_count(); ++p) mesh.set_area(p, static_cast<AreaId>(random() % 4));
    filter.set_area_cost(1, 2.0f).set_area_cost(2, 0.5f).exclude_area(3);
  }

  MeshLocation random_point(const NavMesh& on) {
    const auto polygon = static_cast<PolygonId>(random() % on.polygon_count());
    const auto indices = on.polygon_vertices(polygon);
    std::uniform_real_distribution<double> weight(0.1, 1.0);
    double x = 0, z = 0, total = 0;
    for (const std::uint32_t index : indices) {
      const double w = weight(random);
      x += w * on.vertex(index).x;
      z += w * on.vertex(index).z;
      total += w;
    }
    x /= total;
    z /= total;
    return {polygon, {x, on.height_at(polygon, x, z), z}};
  }

  std::mt19937 random;
  NavMesh mesh = NavMesh::build(TwoFloors::geometry({}));
  AreaFilter filter;
};

double linked_centroid_dijkstra(const NavMesh& mesh, const AreaFilter* filter, const MeshLocation& start,
                                const MeshLocation& goal) {
  const auto polygons = static_cast<NodeId>(mesh.polygon_count());
  auto passes = [&](AreaId area, AreaFlags flags) { return filter == nullptr || filter->passes(area, flags); };
  auto multiplier = [&](AreaId area) { return filter == nullptr ? 1.0 : static_cast<double>(filter->cost(area)); };
  auto position = [&](NodeId node) {
    if (node >= polygons) {
      const PlacedOffMeshLink& link = mesh.off_mesh_link((node - polygons) / 2);
      return (node - polygons) % 2 == 0 ? link.end : link.start;
    }
    return node == start.polygon ? start.point : node == goal.polygon ? goal.point : mesh.centroid(node);
  };
  std::vector<double> best(polygons + 2 * mesh.off_mesh_link_count(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[start.polygon] = 0.0;
  open.push({0.0, start.polygon});
  auto relax = [&](NodeId next, double cost) {
    if (cost < best[next]) {
      best[next] = cost;
      open.push({cost, next});
    }
  };
  while (!open.empty()) {
    const auto [cost, node] = open.top();
    open.pop();
    if (cost > best[node]) continue;
    if (node == goal.polygon) return cost;
    if (node >= polygons) {
      const PlacedOffMeshLink& link = mesh.off_mesh_link((node - polygons) / 2);
      const PolygonId landed = (node - polygons) % 2 == 0 ? link.end_polygon : link.start_polygon;
      relax(landed, cost + distance(position(node), position(landed)) * multiplier(mesh.area(landed)));
      continue;
    }
    const double here = multiplier(mesh.area(node));
    for (const PolygonId next : mesh.polygon_neighbours(node)) {
      if (next == invalid_polygon || !passes(mesh.area(next), mesh.flags(next))) continue;
      relax(next, cost + distance(position(node), position(next)) * (0.5 * (here + multiplier(mesh.area(next)))));
    }
    for (OffMeshLinkId id = 0; id < mesh.off_mesh_link_count(); ++id) {
      const PlacedOffMeshLink& link = mesh.off_mesh_link(id);
      if (!passes(link.input.area, link.input.flags)) continue;
      for (const bool reverse : {false, true}) {
        if (reverse && !link.input.bidirectional) continue;
        const PolygonId from = reverse ? link.end_polygon : link.start_polygon;
        const PolygonId to = reverse ? link.start_polygon : link.end_polygon;
        if (from != node || !passes(mesh.area(to), mesh.flags(to))) continue;
        relax(polygons + 2 * id + (reverse ? 1 : 0),
              cost + distance(position(node), reverse ? link.end : link.start) * here +
                  link.cost * multiplier(link.input.area));
      }
    }
  }
  return std::numeric_limits<double>::infinity();
}

TEST(OffMeshLinks, CentroidSearchEqualsDijkstraOverTheSameGraphOnRandomMeshesWithLinks) {
  int compared = 0, unreachable = 0, across_links = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    RandomLinkedMesh world(seed);
    NavMeshQuery query(world.mesh);
    for (const bool filtered : {false, true}) {
      for (int q = 0; q < 10; ++q) {
        const MeshLocation start = world.random_point(world.mesh), goal = world.random_point(world.mesh);
        if (start.polygon == goal.polygon) continue;
        const AreaFilter* filter = filtered ? &world.filter : nullptr;
        if (filter != nullptr && (!filter->passes(world.mesh.area(start.polygon), 0) ||
                                  !filter->passes(world.mesh.area(goal.polygon), 0)))
          continue;
        NavMeshSearchOptions options;
        options.nodes = CorridorNodes::polygon_centroids;
        if (filter != nullptr) options.filter = *filter;
        const double expected = linked_centroid_dijkstra(world.mesh, filter, start, goal);
        const PathResult corridor = query.find_corridor(start, goal, options);
        // The edge-point search agrees on reachability and walks what it reports.
        NavMeshSearchOptions edge_options = options;
        edge_options.nodes = CorridorNodes::edge_points;
        const PathResult path = query.find_path(start.point, goal.point, edge_options);
        const std::string where = "seed " + std::to_string(seed) + " query " + std::to_string(q) +
                                  (filtered ? " filtered" : "");
        if (std::isinf(expected)) {
          EXPECT_EQ(corridor.status, SearchStatus::no_path) << where;
          EXPECT_EQ(path.status, SearchStatus::no_path) << where;
          ++unreachable;
          continue;
        }
        ASSERT_EQ(corridor.status, SearchStatus::found) << where << ": " << corridor.message;
        EXPECT_NEAR(corridor.cost, expected, 1e-9 * std::max(1.0, expected)) << where;
        ASSERT_EQ(path.status, SearchStatus::found) << where << ": " << path.message;
        if (filter == nullptr) {
          EXPECT_NEAR(path.cost, walked_plus_links(world.mesh, path), 1e-9) << where;
        }
        EXPECT_GE(path.cost, distance(start.point, goal.point) * (filter != nullptr ? 0.5 : 1.0) - 1e-9) << where;
        for (const PathLinkStep& step : path.links) {
          const PlacedOffMeshLink& link = world.mesh.off_mesh_link(step.link);
          EXPECT_TRUE(same_point(path.points[step.waypoint], step.reverse ? link.end : link.start)) << where;
          EXPECT_TRUE(same_point(path.points[step.waypoint + 1], step.reverse ? link.start : link.end)) << where;
          EXPECT_TRUE(!step.reverse || link.input.bidirectional) << where;
        }
        across_links += path.links.empty() ? 0 : 1;
        // A filtered search for a partial path does not prune (nor does any filtered search
        // with links): the same cost.
        if (filter != nullptr) {
          options.partial_when_unreachable = true;
          EXPECT_NEAR(query.find_corridor(start, goal, options).cost, corridor.cost, 1e-9 * std::max(1.0, expected))
              << where;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 300);
  EXPECT_GT(unreachable, 10);
  EXPECT_GT(across_links, 30);
}

// ---- The links file

TEST(OffMeshLinkReader, ReadsLinksWithDefaultsCommentsAndSettings) {
  const std::vector<OffMeshLink> links = parse_off_mesh_links(
      "# links\n"
      "\n"
      "12.5 3 4   12.5 0 7   oneway  cost=2 area=3   # a jump\r\n"
      "0 0 0 0 6 1 both flags=4 radius=0.5 id=17\n"
      "\t1 2 3 4 5 6\n",
      "links.txt");
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0].line, 3);
  EXPECT_FALSE(links[0].bidirectional);
  ASSERT_TRUE(links[0].cost.has_value());
  EXPECT_EQ(*links[0].cost, 2.0);
  EXPECT_EQ(links[0].area, 3);
  EXPECT_EQ(links[0].start.x, 12.5);
  EXPECT_EQ(links[0].end.z, 7.0);
  EXPECT_TRUE(links[1].bidirectional);
  EXPECT_EQ(links[1].flags, 4);
  EXPECT_EQ(links[1].radius, 0.5);
  EXPECT_EQ(links[1].user_id, 17u);
  EXPECT_FALSE(links[2].cost.has_value());
  EXPECT_TRUE(links[2].bidirectional);
  EXPECT_EQ(links[2].radius, 1.0);
  EXPECT_TRUE(parse_off_mesh_links("", "empty.txt").empty());
}

TEST(OffMeshLinkReader, ErrorsNameTheFileLineAndColumn) {
  const std::pair<const char*, const char*> cases[] = {
      {"1 2 3 4 5\n", "links.txt:1:9: a link needs 6 numbers"},
      {"# ok\n1 2 3 4 5 x\n", "links.txt:2:11: non-numeric end z 'x'"},
      {"1 2 3 4 5 6abc\n", "non-numeric end z '6abc'"},
      {"nan 2 3 4 5 6\n", "links.txt:1:1: start x 'nan' is not a finite number"},
      {"1 2 3 4 5 1e999\n", "is out of range"},
      {"1 2 3 4 5 6 sideways\n", "links.txt:1:13: unknown word 'sideways'"},
      {"1 2 3 4 5 6 speed=3\n", "unknown key 'speed'"},
      {"1 2 3 4 5 6 cost=-1\n", "negative cost '-1'"},
      {"1 2 3 4 5 6 cost=nan\n", "cost 'nan' is not a finite number"},
      {"1 2 3 4 5 6 cost=\n", "non-numeric cost ''"},
      {"1 2 3 4 5 6 radius=-2\n", "negative radius '-2'"},
      {"1 2 3 4 5 6 area=64\n", "area '64' is out of range (0 to 63)"},
      {"1 2 3 4 5 6 area=-1\n", "negative area '-1'"},
      {"1 2 3 4 5 6 flags=65536\n", "flags '65536' is out of range"},
      {"1 2 3 4 5 6 id=4294967296\n", "id '4294967296' is out of range"},
      {"1 2 3 4 5 6 cost=1 cost=2\n", "cost is given twice"},
      {"1 2 3 4 5 6 oneway both\n", "the direction is given twice"},
  };
  for (const auto& [text, expected] : cases) {
    try {
      (void)parse_off_mesh_links(text, "links.txt");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const LoadError& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what() << " / expected " << expected;
    }
  }
  EXPECT_THROW((void)read_off_mesh_links("/nonexistent/links.txt"), LoadError);
}

}  // namespace
}  // namespace wayfinder
