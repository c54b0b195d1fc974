// The navigation mesh on meshes made here: building (adjacency, regions, repairs, errors), point
// location, nearest points, portals, the funnel, and path queries checked against an
// independent shortest-path oracle on random meshes.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <queue>
#include <random>
#include <vector>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder {
namespace {

double length_xz(const std::vector<Point>& points) {
  double length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i)
    length += std::hypot(points[i].x - points[i - 1].x, points[i].z - points[i - 1].z);
  return length;
}

// A rows x columns grid of unit squares in the x-z plane (at height y = 0), each square a
// polygon unless `blocked` says it is a hole. Vertices are shared, so squares are neighbours.
MeshGeometry square_grid(int columns, int rows, const std::vector<bool>& blocked = {}, bool split_into_triangles = false,
                         std::uint32_t seed = 0) {
  MeshGeometry geometry;
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) geometry.vertices.push_back({double(x), 0.0, double(z)});
  auto vertex = [&](int x, int z) { return static_cast<std::uint32_t>(z * (columns + 1) + x); };
  std::mt19937 random(seed);
  for (int z = 0; z < rows; ++z) {
    for (int x = 0; x < columns; ++x) {
      if (!blocked.empty() && blocked[static_cast<std::size_t>(z * columns + x)]) continue;
      const std::uint32_t a = vertex(x, z), b = vertex(x + 1, z), c = vertex(x + 1, z + 1), d = vertex(x, z + 1);
      if (!split_into_triangles) {
        geometry.polygons.push_back({a, b, c, d});
      } else if (random() % 2 == 0) {
        geometry.polygons.push_back({a, b, c});
        geometry.polygons.push_back({a, c, d});
      } else {
        geometry.polygons.push_back({a, b, d});
        geometry.polygons.push_back({b, c, d});
      }
    }
  }
  return geometry;
}

TEST(NavMeshBuild, FindsSharedEdgesRegionsAndBounds) {
  const NavMesh mesh = NavMesh::build(square_grid(2, 2));
  EXPECT_EQ(mesh.polygon_count(), 4u);
  EXPECT_EQ(mesh.vertex_count(), 9u);
  EXPECT_EQ(mesh.shared_edge_count(), 4u);
  EXPECT_EQ(mesh.region_count(), 1u);
  EXPECT_TRUE(mesh.problems().empty());
  EXPECT_EQ(mesh.bounds().min.x, 0.0);
  EXPECT_EQ(mesh.bounds().max.z, 2.0);
  // Polygon 0 (x 0..1, z 0..1) touches 1 (to +x) and 2 (to +z).
  std::vector<PolygonId> neighbours;
  for (PolygonId n : mesh.polygon_neighbours(0))
    if (n != invalid_polygon) neighbours.push_back(n);
  std::sort(neighbours.begin(), neighbours.end());
  EXPECT_EQ(neighbours, (std::vector<PolygonId>{1, 2}));
  EXPECT_NEAR(mesh.centroid(3).x, 1.5, 1e-12);
  EXPECT_NEAR(mesh.centroid(3).z, 1.5, 1e-12);
}

TEST(NavMeshBuild, SeparateIslandsAreSeparateRegions) {
  // Columns 0 and 2 walkable, column 1 a hole: two regions.
  const NavMesh mesh = NavMesh::build(square_grid(3, 2, {false, true, false, false, true, false}));
  EXPECT_EQ(mesh.region_count(), 2u);
  EXPECT_NE(mesh.region(0), mesh.region(1));
}

TEST(NavMeshBuild, FindsBridgesAndDeadEnds) {
  // A chain of three squares: both shared edges are bridges.
  const NavMesh chain = NavMesh::build(square_grid(3, 1));
  ASSERT_EQ(chain.shared_edge_count(), 2u);
  for (std::uint32_t e = 0; e < 2; ++e) {
    const NavMesh::SharedEdge& edge = chain.shared_edge(e);
    // Crossing towards the side that holds the goal leads on; away from it is a dead end.
    for (PolygonId goal = 0; goal < 3; ++goal) {
      const PolygonId low = std::min(edge.polygon_a, edge.polygon_b), high = std::max(edge.polygon_a, edge.polygon_b);
      EXPECT_EQ(chain.leads_towards(e, high, goal), goal >= high) << "edge " << e << " goal " << goal;
      EXPECT_EQ(chain.leads_towards(e, low, goal), goal <= low) << "edge " << e << " goal " << goal;
    }
  }
  // A ring of four squares around nothing (2 x 2): no bridges, every way leads on.
  const NavMesh ring = NavMesh::build(square_grid(2, 2));
  for (std::uint32_t e = 0; e < ring.shared_edge_count(); ++e) {
    for (PolygonId goal = 0; goal < 4; ++goal) {
      EXPECT_TRUE(ring.leads_towards(e, ring.shared_edge(e).polygon_a, goal));
      EXPECT_TRUE(ring.leads_towards(e, ring.shared_edge(e).polygon_b, goal));
    }
  }
  // A corridor with a long dead-end branch: the search never enters the branch.
  std::vector<bool> blocked(9 * 9, true);
  for (int x = 0; x < 9; ++x) blocked[static_cast<std::size_t>(4 * 9 + x)] = false;   // the corridor, z = 4
  for (int z = 5; z < 9; ++z) blocked[static_cast<std::size_t>(z * 9 + 4)] = false;   // the branch, x = 4
  const NavMesh branched = NavMesh::build(square_grid(9, 9, blocked));
  NavMeshQuery query(branched);
  SearchTrace trace;
  for (CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    trace.clear();
    NavMeshSearchOptions options;
    options.nodes = nodes;
    options.trace = &trace;
    const PathResult result = query.find_path({0.5, 0, 4.5}, {8.5, 0, 4.5}, options);
    ASSERT_TRUE(result.found());
    EXPECT_NEAR(result.cost, 8.0, 1e-12);
    for (const TraceRecord& record : trace.events()) {
      EXPECT_LT(query.corridor_node_position(record.node).z, 5.0 - 1e-9) << "entered the dead end";
    }
  }
}

TEST(NavMeshBuild, ClockwiseInputIsTurnedAround) {
  MeshGeometry geometry = square_grid(2, 1);
  for (auto& polygon : geometry.polygons) std::reverse(polygon.begin(), polygon.end());
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_EQ(mesh.shared_edge_count(), 1u);
  const auto indices = mesh.polygon_vertices(0);
  double twice_area = 0.0;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const Point& a = mesh.vertex(indices[i]);
    const Point& b = mesh.vertex(indices[(i + 1) % indices.size()]);
    twice_area += a.x * b.z - b.x * a.z;
  }
  EXPECT_GT(twice_area, 0.0);
}

TEST(NavMeshBuild, ConcavePolygonIsSplitIntoTriangles) {
  MeshGeometry geometry;
  // An L shape: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2).
  geometry.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 1}, {1, 0, 2}, {0, 0, 2}};
  geometry.polygons = {{0, 1, 2, 3, 4, 5}};
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_EQ(mesh.polygon_count(), 4u);
  ASSERT_EQ(mesh.problems().size(), 1u);
  EXPECT_EQ(mesh.problems()[0].kind, MeshProblem::Kind::concave_polygon);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) EXPECT_EQ(mesh.source_polygon(p), 0u);
  EXPECT_EQ(mesh.region_count(), 1u);
  // A path around the inner corner bends there.
  NavMeshQuery query(mesh);
  const PathResult result = query.find_path({1.5, 0, 0.5}, {0.5, 0, 1.8});
  ASSERT_TRUE(result.found());
  ASSERT_EQ(result.points.size(), 3u);
  EXPECT_NEAR(result.points[1].x, 1.0, 1e-12);
  EXPECT_NEAR(result.points[1].z, 1.0, 1e-12);
  EXPECT_NEAR(result.cost, std::hypot(0.5, 0.5) + std::hypot(0.5, 0.8), 1e-12);
}

TEST(NavMeshBuild, RepairsAndReportsProblems) {
  MeshGeometry geometry;
  geometry.source = "mesh.obj";
  geometry.vertices = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {2, 0, 0}, {0.5, 0, 0.5}, {1, 0, -1}};
  geometry.polygons = {
      {0, 1, 1, 2, 3},  // repeated vertex
      {0, 1, 5},        // a proper triangle above edge 0-1
      {0, 4, 1},        // collinear: no area
      {0, 6, 1},        // a third polygon on edge 0-1 (with 0 and 1 above): non-manifold
  };
  geometry.polygon_lines = {10, 11, 12, 13};
  const NavMesh mesh = NavMesh::build(geometry);
  auto count = [&](MeshProblem::Kind kind) {
    return std::count_if(mesh.problems().begin(), mesh.problems().end(),
                         [&](const MeshProblem& problem) { return problem.kind == kind; });
  };
  EXPECT_EQ(count(MeshProblem::Kind::repeated_vertex), 1);
  EXPECT_EQ(count(MeshProblem::Kind::degenerate_polygon), 1);
  EXPECT_EQ(count(MeshProblem::Kind::non_manifold_edge), 1);
  EXPECT_EQ(mesh.polygon_count(), 3u);
  const auto repeated = std::find_if(mesh.problems().begin(), mesh.problems().end(), [](const MeshProblem& problem) {
    return problem.kind == MeshProblem::Kind::repeated_vertex;
  });
  EXPECT_EQ(repeated->line, 10);
  EXPECT_NE(repeated->message.find("mesh.obj:10:"), std::string::npos) << repeated->message;
  // The non-manifold edge is a wall for everyone.
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    for (PolygonId n : mesh.polygon_neighbours(p)) EXPECT_EQ(n, invalid_polygon);
  }
}

TEST(NavMeshBuild, RejectsFatalInput) {
  auto expect_error = [](const MeshGeometry& geometry, const std::string& cause) {
    try {
      (void)NavMesh::build(geometry);
      ADD_FAILURE() << "no error for " << cause;
    } catch (const LoadError& error) {
      EXPECT_NE(std::string(error.what()).find(cause), std::string::npos) << error.what();
    }
  };
  MeshGeometry empty;
  expect_error(empty, "empty mesh");

  MeshGeometry two_vertices = square_grid(1, 1);
  two_vertices.polygons[0].resize(2);
  two_vertices.polygon_lines = {7};
  expect_error(two_vertices, "needs at least 3");
  try {
    (void)NavMesh::build(two_vertices);
  } catch (const LoadError& error) {
    EXPECT_EQ(error.line(), 7);
  }

  MeshGeometry out_of_range = square_grid(1, 1);
  out_of_range.polygons[0][1] = 99;
  expect_error(out_of_range, "uses vertex 99");

  MeshGeometry not_a_number = square_grid(1, 1);
  not_a_number.vertices[2].y = std::nan("");
  expect_error(not_a_number, "non-finite");

  MeshGeometry flat;
  flat.vertices = {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}};  // a vertical wall: no area seen from above
  flat.polygons = {{0, 1, 2}};
  expect_error(flat, "no usable polygons");

  const Point vertices[] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}};
  const std::uint32_t indices[] = {0, 1, 2};
  const std::uint32_t too_many[] = {4};
  EXPECT_THROW((void)NavMesh::from_arrays(vertices, indices, too_many), LoadError);
  const std::uint32_t sizes[] = {3};
  EXPECT_EQ(NavMesh::from_arrays(vertices, indices, sizes).polygon_count(), 1u);
}

TEST(NavMeshLocate, FindsThePolygonAndRespectsHeight) {
  // Two floors over the same square: y = 0 and y = 5, not connected.
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {0, 5, 0}, {4, 5, 0}, {4, 5, 4}, {0, 5, 4}};
  geometry.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_EQ(mesh.region_count(), 2u);
  EXPECT_EQ(mesh.locate({1, 0.3, 1}).polygon, 0u);
  EXPECT_EQ(mesh.locate({1, 4.5, 1}).polygon, 1u);
  EXPECT_FALSE(mesh.locate({1, 2.4, 1}).valid());       // more than 2 (the default tolerance) from both
  EXPECT_EQ(mesh.locate({1, 2.4, 1}, 3.0).polygon, 0u);  // within 3 of both: the nearer one
  EXPECT_EQ(mesh.locate({1, 2.6, 1}, 3.0).polygon, 1u);
  EXPECT_FALSE(mesh.locate({1, 8.0, 1}).valid());        // 3 above the top floor: beyond the tolerance
  EXPECT_TRUE(mesh.locate({1, 8.0, 1}, 3.5).valid());
  EXPECT_FALSE(mesh.locate({5, 0, 1}).valid());          // off the side
  EXPECT_FALSE(mesh.locate({std::nan(""), 0, 1}).valid());
  const MeshLocation located = mesh.locate({1, 0.3, 1});
  EXPECT_EQ(located.point.y, 0.0);  // moved onto the surface
  EXPECT_EQ(located.point.x, 1.0);

  NavMeshQuery query(mesh);
  const PathResult between_floors = query.find_path({1, 0, 1}, {3, 5, 3});
  EXPECT_EQ(between_floors.status, SearchStatus::no_path);
  EXPECT_EQ(between_floors.stats.expanded, 0u);  // rejected by region, without searching
}

TEST(NavMeshLocate, SlopedPolygonGivesInterpolatedHeight) {
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {10, 5, 0}, {10, 5, 10}, {0, 0, 10}};
  geometry.polygons = {{0, 1, 2, 3}};
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_NEAR(mesh.height_at(0, 4, 7), 2.0, 1e-12);
  const MeshLocation located = mesh.locate({4, 3.5, 7});
  ASSERT_TRUE(located.valid());
  EXPECT_NEAR(located.point.y, 2.0, 1e-12);
}

TEST(NavMeshLocate, PointsOnSharedEdgesBelongToEitherSide) {
  const NavMesh mesh = NavMesh::build(square_grid(2, 1));
  const MeshLocation located = mesh.locate({1.0, 0.0, 0.5});
  ASSERT_TRUE(located.valid());
  EXPECT_TRUE(mesh.contains_xz(0, 1.0, 0.5));
  EXPECT_TRUE(mesh.contains_xz(1, 1.0, 0.5));
  // Exactly on the mesh's corner and outer edge.
  EXPECT_TRUE(mesh.locate({0.0, 0.0, 0.0}).valid());
  EXPECT_TRUE(mesh.locate({2.0, 0.0, 1.0}).valid());
}

TEST(NavMeshNearestPoint, ClampsPointsOffTheMesh) {
  const NavMesh mesh = NavMesh::build(square_grid(2, 2));
  const MeshLocation clamped = mesh.nearest_point({2.5, 0.0, 1.0}, 1.0);
  ASSERT_TRUE(clamped.valid());
  EXPECT_NEAR(clamped.point.x, 2.0, 1e-12);
  EXPECT_NEAR(clamped.point.z, 1.0, 1e-12);
  EXPECT_FALSE(mesh.nearest_point({4.0, 0.0, 1.0}, 1.0).valid());
  // Beyond a corner: to the corner.
  const MeshLocation corner = mesh.nearest_point({-1.0, 0.0, -1.0}, 2.0);
  ASSERT_TRUE(corner.valid());
  EXPECT_NEAR(corner.point.x, 0.0, 1e-12);
  EXPECT_NEAR(corner.point.z, 0.0, 1e-12);
  // On the mesh: unchanged in x and z; above it: dropped onto it.
  const MeshLocation above = mesh.nearest_point({0.7, 3.0, 0.2}, 5.0);
  ASSERT_TRUE(above.valid());
  EXPECT_EQ(above.point.x, 0.7);
  EXPECT_EQ(above.point.z, 0.2);
  EXPECT_EQ(above.point.y, 0.0);
  EXPECT_FALSE(mesh.nearest_point({std::nan(""), 0, 0}, 1.0).valid());
  EXPECT_TRUE(mesh.nearest_point({100.0, 0, 0}, std::numeric_limits<double>::infinity()).valid());

  // Queries can clamp their end points.
  NavMeshQuery query(mesh);
  EXPECT_EQ(query.find_path({2.5, 0, 1}, {0.5, 0, 0.5}).status, SearchStatus::invalid_input);
  NavMeshSearchOptions options;
  options.snap_distance = 1.0;
  const PathResult snapped = query.find_path({2.5, 0, 1}, {0.5, 0, 0.5}, options);
  ASSERT_TRUE(snapped.found());
  EXPECT_NEAR(snapped.points.front().x, 2.0, 1e-12);
}

TEST(Funnel, StraightCorridorGivesTheSegment) {
  const NavMesh mesh = NavMesh::build(square_grid(5, 1));
  const std::vector<PolygonId> corridor = {0, 1, 2, 3, 4};
  const auto portals = corridor_portals(mesh, corridor);
  ASSERT_EQ(portals.size(), 4u);
  // Walking along +x, the left end of each portal is the one at larger z... seen with x right
  // and z up, left of +x is +z.
  EXPECT_EQ(portals[0].left.z, 1.0);
  EXPECT_EQ(portals[0].right.z, 0.0);
  const auto path = funnel_path({0.5, 0, 0.2}, {4.5, 0, 0.9}, portals);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_THROW((void)corridor_portals(mesh, std::vector<PolygonId>{0, 2}), std::invalid_argument);
}

TEST(Funnel, TurnsAtTheInnerCornersOfAZigZag) {
  // An S-shaped corridor of unit squares: right along z = 0, up at x = 2, right along z = 2.
  std::vector<bool> blocked(3 * 3, true);
  for (int cell : {0, 1, 2, 5, 8}) blocked[static_cast<std::size_t>(cell)] = false;  // (0,0) (1,0) (2,0) (2,1) (2,2)
  const NavMesh mesh = NavMesh::build(square_grid(3, 3, blocked));
  NavMeshQuery query(mesh);
  const PathResult result = query.find_path({0.5, 0, 0.5}, {2.5, 0, 2.5});
  ASSERT_TRUE(result.found());
  ASSERT_EQ(result.points.size(), 3u);
  EXPECT_EQ(result.points[1].x, 2.0);
  EXPECT_EQ(result.points[1].z, 1.0);
  EXPECT_NEAR(result.cost, std::hypot(1.5, 0.5) + std::hypot(0.5, 1.5), 1e-12);
  EXPECT_EQ(result.nodes.size(), 5u);
}

TEST(NavMeshQuery, InsideOnePolygonReturnsTheStraightSegment) {
  const NavMesh mesh = NavMesh::build(square_grid(3, 3));
  NavMeshQuery query(mesh);
  for (CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult result = query.find_path({1.1, 0, 1.2}, {1.8, 0, 1.9}, options);
    ASSERT_TRUE(result.found());
    ASSERT_EQ(result.points.size(), 2u);
    EXPECT_EQ(result.nodes, std::vector<PolygonId>{4});
    EXPECT_NEAR(result.cost, std::hypot(0.7, 0.7), 1e-12);
  }
}

TEST(NavMeshQuery, RejectsBadQueriesWithMessages) {
  const NavMesh mesh = NavMesh::build(square_grid(2, 2));
  NavMeshQuery query(mesh);
  const PathResult nan_start = query.find_path({std::nan(""), 0, 0}, {1, 0, 1});
  EXPECT_EQ(nan_start.status, SearchStatus::invalid_input);
  EXPECT_FALSE(nan_start.message.empty());
  const PathResult off_mesh = query.find_path({-5, 0, 0}, {1, 0, 1});
  EXPECT_EQ(off_mesh.status, SearchStatus::invalid_input);
  EXPECT_NE(off_mesh.message.find("start"), std::string::npos);
  NavMeshSearchOptions bad;
  bad.heuristic_weight = -1.0;
  EXPECT_EQ(query.find_path({0.5, 0, 0.5}, {1.5, 0, 1.5}, bad).status, SearchStatus::invalid_input);
  EXPECT_EQ(parse_corridor_nodes("edge-points"), CorridorNodes::edge_points);
  EXPECT_EQ(parse_corridor_nodes("centroids"), CorridorNodes::polygon_centroids);
  EXPECT_FALSE(parse_corridor_nodes("nope").has_value());
}

// ---------------------------------------------------------------------------------------------
// Random meshes against an independent oracle

// True when the segment a-b (x-z) stays on the walkable squares of the grid: sampled densely,
// every sample lies in a walkable square (closed squares, so sliding along a wall or touching a
// corner is allowed, as for the mesh).
bool segment_on_grid(const Point& a, const Point& b, int columns, int rows, const std::vector<bool>& blocked) {
  const int samples = 2 + static_cast<int>(std::hypot(b.x - a.x, b.z - a.z) * 64);
  for (int i = 0; i <= samples; ++i) {
    const double t = double(i) / samples;
    const double x = a.x + (b.x - a.x) * t, z = a.z + (b.z - a.z) * t;
    bool inside = false;
    // Any closed square containing the point that is walkable.
    for (int cz = static_cast<int>(std::floor(z - 1e-9)); cz <= static_cast<int>(std::floor(z + 1e-9)) && !inside; ++cz) {
      for (int cx = static_cast<int>(std::floor(x - 1e-9)); cx <= static_cast<int>(std::floor(x + 1e-9)) && !inside; ++cx) {
        if (cx >= 0 && cz >= 0 && cx < columns && cz < rows && !blocked[static_cast<std::size_t>(cz * columns + cx)])
          inside = true;
      }
    }
    if (!inside) return false;
  }
  return true;
}

// The shortest path through the walkable squares by a visibility graph over the grid's corners
// and the two end points (shortest paths in a polygonal domain bend only at its corners), with
// visibility tested by dense sampling. Returns -1 when the goal cannot be reached.
double visibility_graph_oracle(const Point& start, const Point& goal, int columns, int rows,
                               const std::vector<bool>& blocked) {
  std::vector<Point> nodes = {start, goal};
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) nodes.push_back({double(x), 0.0, double(z)});
  const std::size_t n = nodes.size();
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<bool> done(n, false);
  best[0] = 0.0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t at = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && std::isfinite(best[i]) && (at == n || best[i] < best[at])) at = i;
    if (at == n) break;
    if (at == 1) return best[1];
    done[at] = true;
    for (std::size_t next = 0; next < n; ++next) {
      if (done[next]) continue;
      const double length = std::hypot(nodes[next].x - nodes[at].x, nodes[next].z - nodes[at].z);
      if (best[at] + length >= best[next]) continue;
      if (segment_on_grid(nodes[at], nodes[next], columns, rows, blocked)) best[next] = best[at] + length;
    }
  }
  return -1.0;
}

TEST(NavMeshQuery, RandomMeshesAgainstAVisibilityGraphOracle) {
  constexpr int columns = 8, rows = 8;
  std::mt19937 random(20261121);
  int compared = 0;
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<bool> blocked(columns * rows);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 100 < 25;
    // Squares that touch only at a corner are not neighbours on the mesh (no shared edge), but
    // the oracle's closed squares would let a path slip through that corner: open one of the
    // other two squares of every such 2 x 2 block.
    auto at = [&](int x, int z) { return blocked[static_cast<std::size_t>(z * columns + x)]; };
    for (bool changed = true; changed;) {
      changed = false;
      for (int z = 0; z + 1 < rows; ++z) {
        for (int x = 0; x + 1 < columns; ++x) {
          const bool a = at(x, z), b = at(x + 1, z), c = at(x, z + 1), d = at(x + 1, z + 1);
          if ((!a && !d && b && c) || (a && d && !b && !c)) {
            blocked[static_cast<std::size_t>(z * columns + x + (a ? 0 : 1))] = false;
            changed = true;
          }
        }
      }
    }
    const NavMesh mesh = NavMesh::build(square_grid(columns, rows, blocked, trial % 2 == 1, static_cast<std::uint32_t>(random())));
    NavMeshQuery query(mesh);
    std::uniform_real_distribution<double> coordinate(0.0, double(columns));
    for (int q = 0; q < 10; ++q) {
      Point start{coordinate(random), 0.0, coordinate(random)};
      Point goal{coordinate(random), 0.0, coordinate(random)};
      auto walkable = [&](const Point& p) {
        return !blocked[static_cast<std::size_t>(static_cast<int>(p.z) * columns + static_cast<int>(p.x))];
      };
      if (!walkable(start) || !walkable(goal)) continue;
      const double optimal = visibility_graph_oracle(start, goal, columns, rows, blocked);
      for (CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
        NavMeshSearchOptions options;
        options.nodes = nodes;
        const PathResult result = query.find_path(start, goal, options);
        SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(q) + " " +
                     std::string(to_string(nodes)));
        if (optimal < 0.0) {
          EXPECT_EQ(result.status, SearchStatus::no_path);
          continue;
        }
        ASSERT_TRUE(result.found()) << to_string(result.status);
        // Starts and ends at the query points.
        EXPECT_EQ(result.points.front(), start);
        EXPECT_EQ(result.points.back(), goal);
        // Consecutive corridor polygons are neighbours; the corridor runs from start to goal.
        EXPECT_TRUE(mesh.contains_xz(result.nodes.front(), start.x, start.z));
        EXPECT_TRUE(mesh.contains_xz(result.nodes.back(), goal.x, goal.z));
        EXPECT_NO_THROW((void)corridor_portals(mesh, result.nodes));
        // Every segment stays on walkable ground, and inside the corridor.
        for (std::size_t i = 1; i < result.points.size(); ++i) {
          EXPECT_TRUE(segment_on_grid(result.points[i - 1], result.points[i], columns, rows, blocked));
          const int samples = 50;
          for (int s = 0; s <= samples; ++s) {
            const double t = double(s) / samples;
            const double x = result.points[i - 1].x + (result.points[i].x - result.points[i - 1].x) * t;
            const double z = result.points[i - 1].z + (result.points[i].z - result.points[i - 1].z) * t;
            const bool in_corridor = std::any_of(result.nodes.begin(), result.nodes.end(),
                                                 [&](PolygonId p) { return mesh.contains_xz(p, x, z); });
            EXPECT_TRUE(in_corridor) << "segment " << i << " leaves the corridor at " << x << ", " << z;
          }
        }
        // Never shorter than the true shortest path; the cost is the path's length.
        const double length = length_xz(result.points);
        EXPECT_GE(length, optimal - 1e-9);
        EXPECT_NEAR(result.cost, length, 1e-9);
        if (nodes == CorridorNodes::edge_points) {
          EXPECT_LE(length, optimal * 1.10 + 1e-9);
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 200);
}

TEST(NavMeshQuery, SteppedSearchEqualsOneShot) {
  std::vector<bool> blocked(10 * 10, false);
  for (int z = 0; z < 9; ++z) blocked[static_cast<std::size_t>(z * 10 + 5)] = true;  // a wall with a gap at the top
  const NavMesh mesh = NavMesh::build(square_grid(10, 10, blocked, true, 7));
  NavMeshQuery one_shot(mesh), stepped(mesh);
  const Point start{1.5, 0, 1.5}, goal{8.5, 0, 1.5};
  const PathResult expected = one_shot.find_path(start, goal);
  ASSERT_TRUE(expected.found());
  ASSERT_EQ(stepped.begin(start, goal), SearchStatus::in_progress);
  int steps = 0;
  while (stepped.step(3) == SearchStatus::in_progress) ++steps;
  EXPECT_GT(steps, 2);
  const PathResult result = stepped.result();
  EXPECT_EQ(result.status, expected.status);
  EXPECT_EQ(result.nodes, expected.nodes);
  EXPECT_EQ(result.points, expected.points);
  EXPECT_EQ(result.cost, expected.cost);
  EXPECT_EQ(result.stats.expanded, expected.stats.expanded);
  // The path goes through the gap at the top of the wall.
  const double top = std::max_element(result.points.begin(), result.points.end(), [](const Point& a, const Point& b) {
                       return a.z < b.z;
                     })->z;
  EXPECT_EQ(top, 9.0);
}

// A step limited by time only pauses the corridor search (each step ends at its first clock
// reading, after StepBudget::time_check_interval expansions): the result is the one-shot result.
TEST(NavMeshQuery, TimedStepsEndWithTheOneShotResult) {
  std::vector<bool> blocked(40 * 40, false);
  for (int wall = 4; wall < 40; wall += 8)  // walls across the mesh with gaps at alternate ends
    for (int z = 0; z < 39; ++z) blocked[static_cast<std::size_t>((wall / 8 % 2 == 0 ? z : z + 1) * 40 + wall)] = true;
  const NavMesh mesh = NavMesh::build(square_grid(40, 40, blocked, true, 7));
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    NavMeshQuery one_shot(mesh), stepped(mesh);
    const Point start{1.5, 0, 1.5}, goal{38.5, 0, 1.5};
    const PathResult expected = one_shot.find_path(start, goal, options);
    ASSERT_TRUE(expected.found()) << to_string(nodes);
    ASSERT_GT(expected.stats.expanded, 4 * StepBudget::time_check_interval) << to_string(nodes);
    ASSERT_EQ(stepped.begin(start, goal, options), SearchStatus::in_progress);
    std::uint64_t steps = 1;
    while (stepped.step(StepBudget::time(std::chrono::nanoseconds(1))) == SearchStatus::in_progress) {
      EXPECT_EQ(stepped.result().status, SearchStatus::in_progress);
      ++steps;
    }
    EXPECT_GE(steps, expected.stats.expanded / StepBudget::time_check_interval) << to_string(nodes);
    const PathResult result = stepped.result();
    EXPECT_EQ(result.status, expected.status);
    EXPECT_EQ(result.nodes, expected.nodes);
    EXPECT_EQ(result.points, expected.points);
    EXPECT_EQ(result.cost, expected.cost);
    EXPECT_EQ(result.stats.expanded, expected.stats.expanded);
  }
}

// A result the caller owns is refilled in place: a shorter path after a longer one keeps the
// same memory, and the answers equal the returning overload's.
TEST(NavMeshQuery, CallerOwnedResultIsReusedWithoutReallocating) {
  std::vector<bool> blocked(10 * 10, false);
  for (int z = 0; z < 9; ++z) blocked[static_cast<std::size_t>(z * 10 + 5)] = true;  // a wall with a gap at the top
  const NavMesh mesh = NavMesh::build(square_grid(10, 10, blocked, true, 7));
  NavMeshQuery query(mesh);
  const auto same = [](const PathResult& a, const PathResult& b) {
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    EXPECT_EQ(a.message, b.message);
  };
  const Point start{1.5, 0, 1.5}, far_goal{8.5, 0, 1.5}, near_goal{3.5, 0, 6.5};
  PathResult out;
  EXPECT_EQ(query.find_path(start, far_goal, {}, out), SearchStatus::found);
  same(out, query.find_path(start, far_goal));
  const NodeId* nodes = out.nodes.data();
  const Point* points = out.points.data();
  const std::size_t capacity = out.nodes.capacity();
  for (const Point& goal : {near_goal, far_goal}) {
    query.find_path(start, goal, {}, out);
    same(out, query.find_path(start, goal));
    EXPECT_EQ(out.nodes.data(), nodes);
    EXPECT_EQ(out.points.data(), points);
    EXPECT_EQ(out.nodes.capacity(), capacity);
  }
  query.result(out);
  same(out, query.result());
  EXPECT_EQ(query.find_path(start, {50.0, 0, 50.0}, {}, out), SearchStatus::invalid_input);
  EXPECT_FALSE(out.message.empty());
  query.find_path(start, near_goal, {}, out);
  same(out, query.find_path(start, near_goal));
}

TEST(NavMeshQuery, BudgetGivesAPartialPathTowardsTheGoal) {
  const NavMesh mesh = NavMesh::build(square_grid(20, 1, {}, true, 3));
  NavMeshQuery query(mesh);
  NavMeshSearchOptions options;
  options.budget.max_expansions = 10;
  const PathResult partial = query.find_path({0.5, 0, 0.5}, {19.5, 0, 0.5}, options);
  ASSERT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::expansion_limit);
  ASSERT_GE(partial.points.size(), 2u);
  EXPECT_EQ(partial.points.front().x, 0.5);
  EXPECT_GT(partial.points.back().x, 1.0);
  EXPECT_LT(partial.points.back().x, 19.5);
  EXPECT_TRUE(mesh.contains_xz(partial.nodes.back(), partial.points.back().x, partial.points.back().z));

  options.return_partial = false;
  EXPECT_EQ(query.find_path({0.5, 0, 0.5}, {19.5, 0, 0.5}, options).status, SearchStatus::budget_exhausted);
}

TEST(NavMeshQuery, CorridorSearchAloneAndTrace) {
  const NavMesh mesh = NavMesh::build(square_grid(6, 6, {}, true, 11));
  NavMeshQuery query(mesh);
  const MeshLocation start = mesh.locate({0.5, 0, 0.5});
  const MeshLocation goal = mesh.locate({5.5, 0, 5.5});
  SearchTrace trace;
  NavMeshSearchOptions options;
  options.trace = &trace;
  const PathResult corridor = query.find_corridor(start, goal, options);
  ASSERT_TRUE(corridor.found());
  EXPECT_EQ(corridor.nodes.front(), start.polygon);
  EXPECT_EQ(corridor.nodes.back(), goal.polygon);
  EXPECT_GT(trace.size(), 0u);
  for (const TraceRecord& record : trace.events()) {
    const Point p = query.corridor_node_position(record.node);
    EXPECT_GE(p.x, 0.0);
    EXPECT_LE(p.x, 6.0);
  }
  EXPECT_EQ(query.find_corridor(MeshLocation{}, goal).status, SearchStatus::invalid_input);
}

}  // namespace
}  // namespace wayfinder
