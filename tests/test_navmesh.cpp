// The navigation mesh on meshes made here: building (adjacency, regions, repairs, errors), point
// location, nearest points, portals, the funnel, and path queries checked against an
// independent shortest-path oracle on random meshes.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <vector>

#include "navmesh/search_tables.hpp"
#include "query_test_support.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder {
namespace {

using testing::open_corner_touches;
using testing::segment_on_grid;
using testing::square_grid;
using testing::visibility_graph_oracle;

// Rolling terrain as Recast's coarse polygons model it: a height field of triangles over
// `columns` x `rows` cells of side `cell`, with hills up to about 9 units high, lifted by
// `lift` (a second floor is the same terrain lifted). Vertices are shared, so the triangles of
// one terrain form one region.
MeshGeometry hilly_terrain(int columns, int rows, double cell, double lift = 0.0, double x0 = 0.0, double z0 = 0.0) {
  MeshGeometry geometry;
  for (int j = 0; j <= rows; ++j) {
    for (int i = 0; i <= columns; ++i) {
      const double x = x0 + i * cell, z = z0 + j * cell;
      const double y = 6.0 * std::sin(x / 7.0) * std::cos(z / 9.0) + 3.0 * std::sin((x + 2.0 * z) / 5.0);
      geometry.vertices.push_back({x, y + lift, z});
    }
  }
  auto vertex = [&](int i, int j) { return static_cast<std::uint32_t>(j * (columns + 1) + i); };
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      const std::uint32_t a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1), d = vertex(i, j + 1);
      if ((i + j) % 2 == 0) {
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

// Appends `more` to `geometry` (its vertices renumbered).
void append_geometry(MeshGeometry& geometry, const MeshGeometry& more) {
  const auto offset = static_cast<std::uint32_t>(geometry.vertices.size());
  geometry.vertices.insert(geometry.vertices.end(), more.vertices.begin(), more.vertices.end());
  for (std::vector<std::uint32_t> polygon : more.polygons) {
    for (std::uint32_t& index : polygon) index += offset;
    geometry.polygons.push_back(polygon);
  }
}

// The polygon holding (x, z) seen from above, found by trying them all: the reference the
// located polygon is checked against.
PolygonId polygon_under(const NavMesh& mesh, double x, double z, double near_height) {
  PolygonId best = invalid_polygon;
  double best_gap = std::numeric_limits<double>::infinity();
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    if (!mesh.contains_xz(p, x, z)) continue;
    const double gap = std::abs(mesh.height_at(p, x, z) - near_height);
    if (gap < best_gap) {
      best_gap = gap;
      best = p;
    }
  }
  return best;
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
      EXPECT_EQ(SearchTables::leads_towards(chain, e, high, goal), goal >= high) << "edge " << e << " goal " << goal;
      EXPECT_EQ(SearchTables::leads_towards(chain, e, low, goal), goal <= low) << "edge " << e << " goal " << goal;
    }
  }
  // A ring of four squares around nothing (2 x 2): no bridges, every way leads on.
  const NavMesh ring = NavMesh::build(square_grid(2, 2));
  for (std::uint32_t e = 0; e < ring.shared_edge_count(); ++e) {
    for (PolygonId goal = 0; goal < 4; ++goal) {
      EXPECT_TRUE(SearchTables::leads_towards(ring, e, ring.shared_edge(e).polygon_a, goal));
      EXPECT_TRUE(SearchTables::leads_towards(ring, e, ring.shared_edge(e).polygon_b, goal));
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

// The x-z area of a polygon by the shoelace formula relative to its first vertex.
double area_xz(const NavMesh& mesh, PolygonId polygon) {
  const auto indices = mesh.polygon_vertices(polygon);
  const Point& o = mesh.vertex(indices[0]);
  double twice_area = 0.0;
  for (std::size_t i = 1; i + 1 < indices.size(); ++i) {
    const Point& a = mesh.vertex(indices[i]);
    const Point& b = mesh.vertex(indices[i + 1]);
    twice_area += (a.x - o.x) * (b.z - o.z) - (b.x - o.x) * (a.z - o.z);
  }
  return twice_area / 2.0;
}

// True if (x, z) lies inside the simple polygon `ring` (crossing number).
bool inside_ring(const std::vector<Point>& ring, double x, double z) {
  bool inside = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    if ((ring[i].z > z) != (ring[j].z > z) &&
        x < (ring[j].x - ring[i].x) * (z - ring[i].z) / (ring[j].z - ring[i].z) + ring[i].x)
      inside = !inside;
  }
  return inside;
}

// A split of a simple polygon of n corners (none straight) is a triangulation of it: n - 2
// counter-clockwise triangles, each inside the polygon, whose areas add up to the polygon's,
// joined along every inner edge (n edges left as walls: a T-junction would leave more).
template <class Inside>
void expect_triangulation_of(const NavMesh& mesh, std::size_t corners, double polygon_area, Inside inside) {
  EXPECT_EQ(mesh.polygon_count(), corners - 2);
  EXPECT_EQ(mesh.shared_edge_count(), corners - 3);
  double total = 0.0;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    ASSERT_EQ(mesh.polygon_vertices(p).size(), 3u);
    const double area = area_xz(mesh, p);
    ASSERT_GT(area, 0.0) << "triangle " << p;
    total += area;
    const Point& c = mesh.centroid(p);
    ASSERT_TRUE(inside(c.x, c.z)) << "triangle " << p << " lies outside the polygon";
  }
  EXPECT_NEAR(total, polygon_area, 1e-9 * polygon_area);
}

MeshGeometry single_face(const std::vector<Point>& ring) {
  MeshGeometry geometry;
  geometry.vertices = ring;
  geometry.polygons.emplace_back(ring.size());
  std::iota(geometry.polygons[0].begin(), geometry.polygons[0].end(), 0u);
  return geometry;
}

// Concave faces are split by ear clipping that looks only at the vertices near each ear: a
// comb of 200,000 vertices (every gap between its teeth two reflex corners) loads at once.
TEST(NavMeshBuild, HugeConcaveFacesAreSplitQuickly) {
  constexpr int teeth = 50000;
  const double width = 2.0 * teeth - 1.0;
  // Counter-clockwise (x right, z up): a base [0, width] x [0, 1] and teeth [2t, 2t + 1] x
  // [1, 10]; along the base, then back over the teeth and down into the gaps between them.
  std::vector<Point> ring = {{0, 0, 0}, {width, 0, 0}};
  for (int t = teeth - 1; t >= 0; --t) {
    const double left = 2.0 * t, right = left + 1.0;
    ring.push_back({right, 0, 10});
    ring.push_back({left, 0, 10});
    if (t > 0) {
      ring.push_back({left, 0, 1});
      ring.push_back({left - 1.0, 0, 1});
    }
  }
  ASSERT_EQ(ring.size(), 200000u);
  const NavMesh mesh = NavMesh::build(single_face(ring));
  ASSERT_EQ(mesh.problems().size(), 1u);
  EXPECT_EQ(mesh.problems()[0].kind, MeshProblem::Kind::concave_polygon);
  EXPECT_EQ(mesh.region_count(), 1u);
  expect_triangulation_of(mesh, ring.size(), 11.0 * teeth - 1.0, [&](double x, double z) {
    if (x < 0.0 || x > width || z < 0.0 || z > 10.0) return false;
    return z <= 1.0 || static_cast<long>(std::floor(x)) % 2 == 0;  // the base, or a tooth
  });
  // A path from the first tooth's tip to the last's goes down and along the base.
  NavMeshQuery query(mesh);
  const PathResult path = query.find_path({0.5, 0, 9.5}, {width - 0.5, 0, 9.5});
  ASSERT_TRUE(path.found());
  EXPECT_NEAR(path.cost, 2.0 * std::hypot(0.5, 8.5) + width - 2.0, 1e-6);
}

// Straight corners (a vertex in the middle of a side, where a neighbour's corner meets it) are
// kept by the split: no triangle's edge runs past them, so the neighbours stay joined.
TEST(NavMeshBuild, ConcaveFacesKeepTheirStraightCorners) {
  MeshGeometry geometry;
  // A U shape, with vertices in the middle of its outer sides, and squares against those sides
  // whose corners are those vertices.
  geometry.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {3, 0, 2}, {3, 0, 4}, {2, 0, 4}, {2, 0, 1},
                       {1, 0, 1}, {1, 0, 4}, {0, 0, 4}, {0, 0, 2},  // the U: 0..11
                       {0, 0, -1}, {1, 0, -1}, {2, 0, -1}, {3, 0, -1},  // below its bottom side
                       {4, 0, 0}, {4, 0, 2}, {4, 0, 4}, {-1, 0, 0}, {-1, 0, 2}, {-1, 0, 4}};
  geometry.polygons = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
                       {12, 13, 1, 0}, {13, 14, 2, 1}, {14, 15, 3, 2},  // three squares below
                       {3, 16, 17, 4}, {4, 17, 18, 5},                   // two on the right
                       {19, 0, 11, 20}, {20, 11, 10, 21}};               // two on the left
  const NavMesh mesh = NavMesh::build(geometry);
  ASSERT_EQ(mesh.problems().size(), 1u);
  EXPECT_EQ(mesh.problems()[0].kind, MeshProblem::Kind::concave_polygon);
  EXPECT_EQ(mesh.region_count(), 1u);
  // Every side piece of the U is shared with the square against it.
  std::size_t shared_with_squares = 0;
  for (std::uint32_t e = 0; e < mesh.shared_edge_count(); ++e) {
    const NavMesh::SharedEdge& edge = mesh.shared_edge(e);
    if ((mesh.source_polygon(edge.polygon_a) == 0) != (mesh.source_polygon(edge.polygon_b) == 0)) ++shared_with_squares;
  }
  EXPECT_EQ(shared_with_squares, 7u);
  double area = 0.0;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
    if (mesh.source_polygon(p) == 0) area += area_xz(mesh, p);
  EXPECT_NEAR(area, 12.0 - 3.0, 1e-12);
}

// Random star-shaped faces (a vertex at a random radius every so many degrees) are split into
// proper triangulations too, in both windings.
TEST(NavMeshBuild, RandomConcaveFacesAreTriangulated) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> radius(0.2, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const int corners = 5 + trial * 7;
    std::vector<Point> ring;
    for (int i = 0; i < corners; ++i) {
      const double angle = 2.0 * 3.14159265358979323846 * i / corners;
      const double r = radius(random);
      ring.push_back({100.0 + r * std::cos(angle), 0.0, -40.0 + r * std::sin(angle)});
    }
    double twice_area = 0.0;
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point& a = ring[i];
      const Point& b = ring[(i + 1) % ring.size()];
      twice_area += (a.x - 100.0) * (b.z + 40.0) - (b.x - 100.0) * (a.z + 40.0);
    }
    if (trial % 2 == 1) std::reverse(ring.begin(), ring.end());
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(corners) + " corners");
    const NavMesh mesh = NavMesh::build(single_face(ring));
    if (mesh.problems().empty()) continue;  // happened to be convex
    expect_triangulation_of(mesh, ring.size(), twice_area / 2.0,
                            [&](double x, double z) { return inside_ring(ring, x, z); });
  }
}

// A face of long thin spikes makes ear clipping's work grow with the square of its vertex
// count; past a budget the loader gives up with an error naming the face, rather than load for
// many seconds. (The budget's time is a release-build figure: skipped under the sanitizers.)
TEST(NavMeshBuild, AFaceTooIntricateToSplitIsAnErrorNotAStall) {
  if (testing::sanitized_build()) GTEST_SKIP() << "hundreds of millions of tests under the sanitizers";
  std::mt19937 random(3);
  std::uniform_real_distribution<double> radius(0.2, 1.0);
  std::vector<Point> ring;
  constexpr int corners = 200'000;
  for (int i = 0; i < corners; ++i) {
    const double angle = 2.0 * 3.14159265358979323846 * i / corners;
    const double r = radius(random);
    ring.push_back({r * std::cos(angle), 0.0, r * std::sin(angle)});
  }
  try {
    (void)NavMesh::build(single_face(ring));
    FAIL() << "a 200,000-spike star should exceed the split budget";
  } catch (const LoadError& error) {
    EXPECT_NE(error.cause().find("polygon 0 (200000 vertices) is too intricate to split into triangles"),
              std::string::npos)
        << error.what();
  }
}

// Far from the origin: areas and orientations are taken relative to a vertex of the polygon,
// so two unit triangles 1e9 apart are kept, not dropped as having no area.
TEST(NavMeshBuild, SmallPolygonsFarApartKeepTheirArea) {
  const Point vertices[] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1e9, 0, 1e9}, {1e9 + 1, 0, 1e9}, {1e9, 0, 1e9 + 1}};
  const std::uint32_t indices[] = {0, 2, 1, 3, 5, 4};
  const std::uint32_t sizes[] = {3, 3};
  const NavMesh mesh = NavMesh::from_arrays(vertices, indices, sizes);
  EXPECT_EQ(mesh.polygon_count(), 2u);
  EXPECT_TRUE(mesh.problems().empty());
  EXPECT_EQ(mesh.region_count(), 2u);
  const MeshLocation far = mesh.locate({1e9 + 0.25, 0, 1e9 + 0.25});
  ASSERT_TRUE(far.valid());
  EXPECT_EQ(far.polygon, 1u);
  NavMeshQuery query(mesh);
  const PathResult path = query.find_path({1e9 + 0.1, 0, 1e9 + 0.1}, {1e9 + 0.6, 0, 1e9 + 0.3});
  ASSERT_TRUE(path.found());
  EXPECT_NEAR(path.cost, std::hypot(0.5, 0.2), 1e-6);
  // A face far away that is a wall (no area seen from above) is still left out.
  const Point wall[] = {{1e9, 0, 1e9}, {1e9 + 1, 0, 1e9 + 1}, {1e9 + 1, 2, 1e9 + 1}, {1e9, 2, 1e9}, {1e9, 0, 1e9 + 1}};
  const std::uint32_t wall_indices[] = {0, 1, 2, 3, 0, 1, 4};
  const std::uint32_t wall_sizes[] = {4, 3};
  const NavMesh with_wall = NavMesh::from_arrays(wall, wall_indices, wall_sizes);
  EXPECT_EQ(with_wall.polygon_count(), 1u);
  ASSERT_EQ(with_wall.problems().size(), 1u);
  EXPECT_EQ(with_wall.problems()[0].kind, MeshProblem::Kind::degenerate_polygon);
}

MeshGeometry shifted(MeshGeometry geometry, double by) {
  for (Point& p : geometry.vertices) p = {p.x + by, p.y + by, p.z + by};
  return geometry;
}

// The same meshes shifted 1e8 and 1e9 away (in x, y and z) have the same polygons, regions and
// neighbours, and answer the same queries with the same lengths, up to the coarser rounding
// there (a coordinate near 1e9 is only known to about 1e-7).
TEST(NavMeshBuild, MeshesFarFromTheOriginAnswerAsNearIt) {
  std::vector<bool> blocked(12 * 12, false);
  std::mt19937 random(5);
  for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 100 < 20;
  const MeshGeometry meshes[] = {square_grid(12, 12, blocked, true, 9), hilly_terrain(12, 12, 2.5)};
  for (const MeshGeometry& geometry : meshes) {
    const NavMesh near = NavMesh::build(geometry);
    NavMeshQuery near_query(near);
    std::vector<std::pair<Point, Point>> queries;
    std::uniform_real_distribution<double> coordinate(0.0, 12.0);
    while (queries.size() < 60) {
      const Point a{coordinate(random), 0.0, coordinate(random)}, b{coordinate(random), 0.0, coordinate(random)};
      const MeshLocation la = near.locate({a.x, 0.0, a.z}, 100.0), lb = near.locate({b.x, 0.0, b.z}, 100.0);
      if (la.valid() && lb.valid()) queries.emplace_back(la.point, lb.point);
    }
    for (const double offset : {1e8, 1e9}) {
      SCOPED_TRACE("shifted by " + std::to_string(offset));
      const NavMesh far = NavMesh::build(shifted(geometry, offset));
      EXPECT_EQ(far.polygon_count(), near.polygon_count());
      EXPECT_EQ(far.shared_edge_count(), near.shared_edge_count());
      EXPECT_EQ(far.region_count(), near.region_count());
      EXPECT_TRUE(far.problems().empty());
      NavMeshQuery far_query(far);
      int found = 0;
      for (const auto& [a, b] : queries) {
        const PathResult expected = near_query.find_path(a, b);
        const PathResult result =
            far_query.find_path({a.x + offset, a.y + offset, a.z + offset}, {b.x + offset, b.y + offset, b.z + offset});
        ASSERT_EQ(result.status, expected.status) << result.message;
        if (!expected.found()) continue;
        ++found;
        EXPECT_NEAR(result.cost, expected.cost, 1e-5);
        EXPECT_NEAR(geometry::polyline_length_xz(result.points), geometry::polyline_length_xz(expected.points), 1e-5);
      }
      EXPECT_GT(found, 20);
    }
  }
}

// An engine's float positions, in a vertex buffer with other attributes between them (a stride
// of 20 bytes: x y z and two texture coordinates), and 16- or 32-bit indices, give the mesh the
// Point version gives for the same positions.
TEST(NavMeshBuild, FloatVertexBuffersGiveTheSameMesh) {
  const MeshGeometry terrain = hilly_terrain(6, 5, 1.5, 0.25, -3.0, 2.0);
  struct EngineVertex {
    float position[3];
    float uv[2];
  };
  static_assert(sizeof(EngineVertex) == 20);
  std::vector<EngineVertex> buffer;
  std::vector<Point> as_doubles;
  for (const Point& p : terrain.vertices) {
    const EngineVertex v{{static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)}, {0.5f, 0.25f}};
    buffer.push_back(v);
    as_doubles.push_back({v.position[0], v.position[1], v.position[2]});
  }
  std::vector<std::uint32_t> indices32, sizes;
  for (const auto& polygon : terrain.polygons) {
    indices32.insert(indices32.end(), polygon.begin(), polygon.end());
    sizes.push_back(static_cast<std::uint32_t>(polygon.size()));
  }
  const std::vector<std::uint16_t> indices16(indices32.begin(), indices32.end());
  const NavMesh expected = NavMesh::from_arrays(as_doubles, indices32, sizes);
  const float* first = buffer.front().position;
  const NavMesh meshes[] = {NavMesh::from_arrays(first, buffer.size(), sizeof(EngineVertex), indices32, sizes),
                            NavMesh::from_arrays(first, buffer.size(), sizeof(EngineVertex), indices16, sizes)};
  for (const NavMesh& mesh : meshes) {
    ASSERT_EQ(mesh.vertex_count(), expected.vertex_count());
    ASSERT_EQ(mesh.polygon_count(), expected.polygon_count());
    for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) EXPECT_EQ(mesh.vertex(v), expected.vertex(v));
    for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
      const auto a = mesh.polygon_vertices(p), b = expected.polygon_vertices(p);
      EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
      const auto na = mesh.polygon_neighbours(p), nb = expected.polygon_neighbours(p);
      EXPECT_TRUE(std::equal(na.begin(), na.end(), nb.begin(), nb.end()));
    }
    EXPECT_EQ(mesh.region_count(), expected.region_count());
  }
  // Tightly packed floats (stride 0 or 12) read the same way.
  std::vector<float> packed;
  for (const EngineVertex& v : buffer) packed.insert(packed.end(), v.position, v.position + 3);
  for (const std::size_t stride : {std::size_t{0}, std::size_t{12}}) {
    const NavMesh mesh = NavMesh::from_arrays(packed.data(), buffer.size(), stride, indices32, sizes);
    ASSERT_EQ(mesh.vertex_count(), expected.vertex_count());
    for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) EXPECT_EQ(mesh.vertex(v), expected.vertex(v));
  }
  // Bad buffers are load errors that say why.
  try {
    (void)NavMesh::from_arrays(packed.data(), buffer.size(), 8, indices32, sizes);
    ADD_FAILURE() << "a stride of 8 bytes was accepted";
  } catch (const LoadError& error) {
    EXPECT_NE(std::string(error.what()).find("stride"), std::string::npos) << error.what();
  }
  // Strides no buffer of that many vertices can have (past PTRDIFF_MAX bytes, or wrapping
  // i * stride around) are refused before a single vertex is read.
  for (const std::size_t stride : {std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max() / 2,
                                   static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max() / 2)}) {
    try {
      (void)NavMesh::from_arrays(packed.data(), buffer.size(), stride, indices32, sizes);
      ADD_FAILURE() << "a stride of " << stride << " bytes was accepted";
    } catch (const LoadError& error) {
      EXPECT_NE(std::string(error.what()).find("span more memory"), std::string::npos) << error.what();
    }
  }
  try {
    (void)NavMesh::from_arrays(static_cast<const float*>(nullptr), 3, 0, indices32, sizes);
    ADD_FAILURE() << "a null vertex pointer was accepted";
  } catch (const LoadError& error) {
    EXPECT_NE(std::string(error.what()).find("null"), std::string::npos) << error.what();
  }
  packed[4] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW((void)NavMesh::from_arrays(packed.data(), buffer.size(), 0, indices16, sizes), LoadError);
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
  EXPECT_FALSE(mesh.locate({1, 2.4, 1}, 2.0).valid());   // more than 2 from both
  EXPECT_EQ(mesh.locate({1, 2.4, 1}).polygon, 0u);       // within the default 4 of both: the nearer one
  EXPECT_EQ(mesh.locate({1, 2.6, 1}, 3.0).polygon, 1u);
  EXPECT_EQ(mesh.locate({1, 8.0, 1}).polygon, 1u);       // 3 above the top floor: within the default 4
  EXPECT_FALSE(mesh.locate({1, 9.5, 1}).valid());        // 4.5 above it: beyond
  EXPECT_FALSE(mesh.locate({1, 8.0, 1}, 2.5).valid());
  EXPECT_FALSE(mesh.locate({1, -4.5, 1}).valid());       // and below the bottom floor
  EXPECT_EQ(mesh.locate({1, -3.5, 1}).polygon, 0u);
  EXPECT_FALSE(mesh.locate({5, 0, 1}).valid());          // off the side
  EXPECT_FALSE(mesh.locate({std::nan(""), 0, 1}).valid());
  const MeshLocation located = mesh.locate({1, 0.3, 1});
  EXPECT_EQ(located.point.y, 0.0);  // moved onto the surface
  EXPECT_EQ(located.point.x, 1.0);

  NavMeshQuery query(mesh);
  const PathResult between_floors = query.find_path({1, 0, 1}, {3, 5, 3});
  EXPECT_EQ(between_floors.status, SearchStatus::no_path);
  EXPECT_EQ(between_floors.stats.expanded, 0u);  // rejected by region, without searching
  EXPECT_EQ(between_floors.message.rfind("start and goal are in different connected regions", 0), 0u)
      << between_floors.message;
  // The corridor search alone says the same.
  const PathResult corridor = query.find_corridor(mesh.locate({1, 0, 1}), mesh.locate({3, 5, 3}));
  EXPECT_EQ(corridor.status, SearchStatus::no_path);
  EXPECT_NE(corridor.message.find("different connected regions"), std::string::npos);
  // A path found carries no message.
  const PathResult same_floor = query.find_path({1, 0, 1}, {3, 0, 3});
  ASSERT_TRUE(same_floor.found());
  EXPECT_TRUE(same_floor.message.empty());
}

TEST(NavMeshQuery, PartialWhenUnreachableSearchesTowardsAGoalInAnotherRegion) {
  // Two squares side by side (one region), and a third far off (another region).
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 2}, {0, 0, 2}, {4, 0, 0}, {4, 0, 2},
                       {10, 0, 0}, {12, 0, 0}, {12, 0, 2}, {10, 0, 2}};
  geometry.polygons = {{0, 1, 2, 3}, {1, 4, 5, 2}, {6, 7, 8, 9}};
  const NavMesh mesh = NavMesh::build(geometry);
  NavMeshQuery query(mesh);
  for (const CorridorNodes nodes : {CorridorNodes::edge_points, CorridorNodes::polygon_centroids}) {
    NavMeshSearchOptions options;
    options.nodes = nodes;
    const PathResult refused = query.find_path({0.5, 0, 1}, {11, 0, 1}, options);
    EXPECT_EQ(refused.status, SearchStatus::no_path);
    EXPECT_EQ(refused.stats.expanded, 0u);
    options.partial_when_unreachable = true;
    const PathResult partial = query.find_path({0.5, 0, 1}, {11, 0, 1}, options);
    ASSERT_EQ(partial.status, SearchStatus::partial) << partial.message;
    EXPECT_EQ(partial.reason, StopReason::open_list_empty);
    EXPECT_GT(partial.stats.expanded, 0u);
    ASSERT_GE(partial.points.size(), 2u);
    // It ends at the point of the start's region closest to the goal: the far edge, x = 4.
    EXPECT_NEAR(partial.points.back().x, 4.0, 1e-9);
    EXPECT_NEAR(partial.points.back().z, 1.0, 1e-9);
    EXPECT_NEAR(partial.cost, 3.5, 1e-9);
  }
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

// Detour's random points lie on the detail surface, up to about 2.5 units above or below the
// coarse polygons on terrain. Such points locate in the polygon under them, and a query between
// two of them gives the same corridor and the same path (seen from above) as a query between
// the points on the coarse surface.
TEST(NavMeshLocate, TerrainPointsAboveOrBelowTheCoarseSurfaceLocate) {
  const NavMesh mesh = NavMesh::build(hilly_terrain(20, 16, 3.0));
  ASSERT_EQ(mesh.region_count(), 1u);
  ASSERT_GT(mesh.bounds().max.y - mesh.bounds().min.y, 10.0);  // really hilly
  std::mt19937 random(8);
  std::uniform_real_distribution<double> x_of(0.0, 60.0), z_of(0.0, 48.0), lift_of(-2.5, 2.5);
  struct Sample {
    Point on_surface, displaced;
    PolygonId polygon;
  };
  std::vector<Sample> samples;
  int rejected_by_the_old_tolerance = 0;
  for (int i = 0; i < 400; ++i) {
    const double x = x_of(random), z = z_of(random);
    const PolygonId polygon = polygon_under(mesh, x, z, 0.0);
    ASSERT_NE(polygon, invalid_polygon);
    // The extremes of the detail mesh's reach as well as points in between.
    const double lift = i % 4 == 0 ? 2.5 : i % 4 == 1 ? -2.5 : lift_of(random);
    const Point on_surface{x, mesh.height_at(polygon, x, z), z};
    const Point displaced{x, on_surface.y + lift, z};
    SCOPED_TRACE("point " + std::to_string(i) + " lifted by " + std::to_string(lift));
    const MeshLocation located = mesh.locate(displaced);
    ASSERT_TRUE(located.valid());
    EXPECT_TRUE(mesh.contains_xz(located.polygon, x, z));  // the polygon under it (or a neighbour on an edge)
    EXPECT_NEAR(located.point.y, on_surface.y, 1e-9);         // moved onto the coarse surface
    EXPECT_EQ(located.point.x, x);
    EXPECT_EQ(located.point.z, z);
    // (locate with a tolerance of 2 no longer rejects them: a mesh without detail heights
    // reaches as far as its polygons' boxes widened by the tolerance, as Detour's does.)
    if (std::abs(displaced.y - on_surface.y) > 2.0) ++rejected_by_the_old_tolerance;
    samples.push_back({on_surface, displaced, polygon});
  }
  // Half the points lie 2.5 off the coarse surface, and a fifth of the others more than 2: the
  // case this covers.
  EXPECT_GT(rejected_by_the_old_tolerance, 50);

  NavMeshQuery query(mesh), reference(mesh);
  for (std::size_t i = 0; i + 1 < samples.size(); i += 2) {
    SCOPED_TRACE("query " + std::to_string(i / 2));
    const PathResult result = query.find_path(samples[i].displaced, samples[i + 1].displaced);
    const PathResult expected = reference.find_path(samples[i].on_surface, samples[i + 1].on_surface);
    ASSERT_TRUE(expected.found()) << expected.message;
    ASSERT_TRUE(result.found()) << result.message;
    EXPECT_EQ(result.nodes, expected.nodes);
    ASSERT_EQ(result.points.size(), expected.points.size());
    for (std::size_t k = 0; k < result.points.size(); ++k) {
      EXPECT_EQ(result.points[k].x, expected.points[k].x);
      EXPECT_EQ(result.points[k].z, expected.points[k].z);
    }
    EXPECT_NEAR(result.cost, expected.cost, 1e-9);
  }
}

// A mesh without detail heights reaches, as Detour's findNearestPoly with half-extents
// (2, tolerance, 2), from its polygon's lowest corner minus the tolerance to its highest plus
// the tolerance: a point over a steep polygon far from its flat surface but within that reach
// locates (moved onto the surface). With detail heights the surface is the ground, and the
// tolerance is measured from it.
TEST(NavMeshLocate, WithoutDetailHeightsAPolygonReachesItsHeightsWidenedByTheTolerance) {
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {10, 10, 0}, {10, 10, 10}, {0, 0, 10}};  // rising from y 0 to 10
  geometry.polygons = {{0, 1, 2, 3}};
  const NavMesh flat = NavMesh::build(geometry);
  ASSERT_FALSE(flat.has_detail_heights());
  const MeshLocation far_above = flat.locate({1, 8, 5});  // 7 above the surface (y 1), within 10 + 4
  ASSERT_TRUE(far_above.valid());
  EXPECT_NEAR(far_above.point.y, 1.0, 1e-12);
  EXPECT_TRUE(flat.locate({1, 13.9, 5}).valid());
  EXPECT_FALSE(flat.locate({1, 14.1, 5}).valid());  // above the reach
  EXPECT_TRUE(flat.locate({9, -3.9, 5}).valid());   // 12.9 below the surface at x 9, within 0 - 4
  EXPECT_FALSE(flat.locate({9, -4.1, 5}).valid());
  EXPECT_TRUE(flat.locate({1, 11.9, 5}, 2.0).valid());  // a narrower reach: 0 - 2 to 10 + 2
  EXPECT_FALSE(flat.locate({1, 12.1, 5}, 2.0).valid());
  // The same polygon with detail heights (its own two triangles): the tolerance counts from
  // the ground.
  geometry.detail_vertices = geometry.vertices;
  geometry.detail_triangles = {{0, 1, 2}, {0, 2, 3}};
  geometry.detail_starts = {0, 2};
  const NavMesh detailed = NavMesh::build(geometry);
  ASSERT_TRUE(detailed.has_detail_heights());
  EXPECT_FALSE(detailed.locate({1, 8, 5}).valid());
  EXPECT_TRUE(detailed.locate({1, 4.9, 5}).valid());
  // Two floors over each other: the nearer one in height still wins.
  MeshGeometry floors;
  floors.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {0, 5, 0}, {4, 9, 0}, {4, 9, 4}, {0, 5, 4}};
  floors.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  const NavMesh two = NavMesh::build(floors);
  // At x 1 the upper floor's surface is at y 6; both floors reach y 2.5 and 3.5.
  EXPECT_EQ(two.locate({1, 2.5, 1}).polygon, 0u);  // 2.5 above the lower, 3.5 below the upper
  EXPECT_EQ(two.locate({1, 3.5, 1}).polygon, 1u);  // 3.5 above the lower, 2.5 below the upper
}

// Two hilly floors, one 6 above the other, over the same ground: a point up to 2.5 off either
// floor is within the vertical extent of both (3.5 from the other), and must go to its own.
TEST(NavMeshLocate, TheNearerFloorWinsWithinTheVerticalExtent) {
  MeshGeometry geometry = hilly_terrain(10, 10, 3.0);
  append_geometry(geometry, hilly_terrain(6, 6, 3.0, 6.0, 6.0, 6.0));  // an upper deck over the middle
  const NavMesh mesh = NavMesh::build(geometry);
  ASSERT_EQ(mesh.region_count(), 2u);
  const std::uint32_t lower_region = mesh.region(0);
  std::mt19937 random(21);
  std::uniform_real_distribution<double> inner(6.5, 23.5), lift_of(-2.5, 2.5);
  int both_within_reach = 0;
  for (int i = 0; i < 300; ++i) {
    const double x = inner(random), z = inner(random);
    const bool upper = i % 2 == 1;
    const PolygonId own = polygon_under(mesh, x, z, upper ? 100.0 : -100.0);
    ASSERT_NE(own, invalid_polygon);
    ASSERT_EQ(mesh.region(own) != lower_region, upper);
    const double lift = i % 6 < 2 ? (upper ? -2.5 : 2.5) : lift_of(random);  // towards the other floor, or anywhere
    const Point point{x, mesh.height_at(own, x, z) + lift, z};
    SCOPED_TRACE("point " + std::to_string(i) + (upper ? " on the upper floor" : " on the lower floor") +
                 ", lifted by " + std::to_string(lift));
    const PolygonId other = polygon_under(mesh, x, z, upper ? -100.0 : 100.0);
    if (std::abs(mesh.height_at(other, x, z) - point.y) <= NavMesh::default_height_tolerance) ++both_within_reach;
    const MeshLocation located = mesh.locate(point);
    ASSERT_TRUE(located.valid());
    EXPECT_EQ(mesh.region(located.polygon), mesh.region(own));
    EXPECT_NEAR(located.point.y, mesh.height_at(own, x, z), 1e-9);
  }
  EXPECT_GT(both_within_reach, 90);  // the case this is about: the other floor is within reach too

  // Queries between the floors are refused at once, and within a floor answered.
  NavMeshQuery query(mesh);
  const Point low{10.0, mesh.height_at(polygon_under(mesh, 10.0, 10.0, -100.0), 10.0, 10.0) + 2.4, 10.0};
  const Point high{20.0, mesh.height_at(polygon_under(mesh, 20.0, 20.0, 100.0), 20.0, 20.0) - 2.4, 20.0};
  const Point far_low{25.0, mesh.height_at(polygon_under(mesh, 25.0, 3.0, -100.0), 25.0, 3.0) - 2.4, 3.0};
  EXPECT_EQ(query.find_path(low, high).status, SearchStatus::no_path);
  EXPECT_TRUE(query.find_path(low, far_low).found());
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
  bad.weight = -1.0;
  EXPECT_EQ(query.find_path({0.5, 0, 0.5}, {1.5, 0, 1.5}, bad).status, SearchStatus::invalid_input);
  EXPECT_EQ(parse_corridor_nodes("edge-points"), CorridorNodes::edge_points);
  EXPECT_EQ(parse_corridor_nodes("centroids"), CorridorNodes::polygon_centroids);
  EXPECT_FALSE(parse_corridor_nodes("nope").has_value());
}

TEST(NavMeshQuery, StepBeforeBeginIsInvalidInput) {
  const NavMesh mesh = NavMesh::build(square_grid(3, 3));
  NavMeshQuery query(mesh);
  EXPECT_EQ(query.step(), SearchStatus::invalid_input);
  EXPECT_EQ(query.step(5), SearchStatus::invalid_input);
  const PathResult before = query.result();
  EXPECT_EQ(before.status, SearchStatus::invalid_input);
  EXPECT_NE(before.message.find("begin()"), std::string::npos) << before.message;
  // Once begun, the query runs as usual.
  ASSERT_EQ(query.begin({0.5, 0, 0.5}, {2.5, 0, 2.5}), SearchStatus::in_progress);
  while (query.step(1) == SearchStatus::in_progress) {
  }
  EXPECT_TRUE(query.result().found());
}

// Every option is checked where a query enters; none makes it throw, whatever the start and
// goal (in one polygon, in different regions, or searched).
TEST(NavMeshQuery, BadOptionsAreInvalidInputNamingTheOption) {
  MeshGeometry geometry = square_grid(3, 3);
  MeshGeometry island;  // a second region
  island.vertices = {{10, 50, 10}, {11, 50, 10}, {11, 50, 11}, {10, 50, 11}};
  island.polygons = {{0, 1, 2, 3}};
  append_geometry(geometry, island);
  const NavMesh mesh = NavMesh::build(geometry);
  ASSERT_EQ(mesh.region_count(), 2u);
  struct BadOption {
    const char* name;
    void (*spoil)(NavMeshSearchOptions&);
  };
  const BadOption bad_options[] = {
      {"nodes", [](NavMeshSearchOptions& o) { o.nodes = static_cast<CorridorNodes>(7); }},
      {"weight", [](NavMeshSearchOptions& o) { o.weight = std::numeric_limits<double>::infinity(); }},
      {"weight", [](NavMeshSearchOptions& o) { o.weight = std::nan(""); }},
      {"height_tolerance", [](NavMeshSearchOptions& o) { o.height_tolerance = std::nan(""); }},
      {"height_tolerance", [](NavMeshSearchOptions& o) { o.height_tolerance = -1.0; }},
      {"snap_distance", [](NavMeshSearchOptions& o) { o.snap_distance = -0.5; }},
      {"max_cost", [](NavMeshSearchOptions& o) { o.budget.max_cost = std::nan(""); }},
      {"max_cost", [](NavMeshSearchOptions& o) { o.budget.max_cost = -3.0; }},
      {"max_time", [](NavMeshSearchOptions& o) { o.budget.max_time = std::chrono::nanoseconds(-1); }},
  };
  const Point in_one_square[] = {{0.2, 0, 0.2}, {0.8, 0, 0.8}};
  const Point across_the_grid[] = {{0.5, 0, 0.5}, {2.5, 0, 2.5}};
  const Point across_regions[] = {{0.5, 0, 0.5}, {10.5, 50.0, 10.5}};
  NavMeshQuery query(mesh);
  for (const BadOption& bad : bad_options) {
    NavMeshSearchOptions options;
    bad.spoil(options);
    for (const auto* ends : {in_one_square, across_the_grid, across_regions}) {
      SCOPED_TRACE(std::string(bad.name) + " from " + std::to_string(ends[0].x) + " to " + std::to_string(ends[1].x));
      PathResult result;
      EXPECT_NO_THROW(result = query.find_path(ends[0], ends[1], options));
      EXPECT_EQ(result.status, SearchStatus::invalid_input);
      EXPECT_NE(result.message.find(bad.name), std::string::npos) << result.message;
      EXPECT_EQ(query.begin(ends[0], ends[1], options), SearchStatus::invalid_input);
      EXPECT_EQ(query.step(), SearchStatus::invalid_input);
      const MeshLocation start = mesh.locate(ends[0], 100.0), goal = mesh.locate(ends[1], 100.0);
      ASSERT_TRUE(start.valid() && goal.valid());
      PathResult corridor;
      EXPECT_NO_THROW(corridor = query.find_corridor(start, goal, options));
      EXPECT_EQ(corridor.status, SearchStatus::invalid_input);
      EXPECT_NE(corridor.message.find(bad.name), std::string::npos) << corridor.message;
    }
  }
  // The limits' documented special values are fine: infinite tolerances, no time limit, a zero
  // heuristic weight (Dijkstra).
  NavMeshSearchOptions edge_cases;
  edge_cases.height_tolerance = std::numeric_limits<double>::infinity();
  edge_cases.snap_distance = std::numeric_limits<double>::infinity();
  edge_cases.weight = 0.0;
  edge_cases.budget.max_cost = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(query.find_path(across_the_grid[0], across_the_grid[1], edge_cases).found());
}

// ---------------------------------------------------------------------------------------------
// Random meshes against an independent oracle

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
    open_corner_touches(blocked, columns, rows);
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
        const double length = geometry::polyline_length_xz(result.points);
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
