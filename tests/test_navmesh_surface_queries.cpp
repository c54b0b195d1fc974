// The character-controller queries (surface_queries.hpp) on small meshes built by hand, where
// every answer is known, and on the real meshes of <data>/meshes/derived, where each answer is
// checked against a slow, direct computation: a reached ray's segment sampled finely lies in
// the polygons it crossed, a hit lies on a wall, moves end on the mesh, wall distances equal the
// nearest wall found by testing every wall edge.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_environment.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/surface_queries.hpp"

namespace wayfinder {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

NavMesh mesh_of(const std::vector<Point>& vertices, const std::vector<std::vector<std::uint32_t>>& polygons) {
  std::vector<std::uint32_t> indices, sizes;
  for (const auto& polygon : polygons) {
    indices.insert(indices.end(), polygon.begin(), polygon.end());
    sizes.push_back(static_cast<std::uint32_t>(polygon.size()));
  }
  return NavMesh::from_arrays(vertices, indices, sizes);
}

// A 10 x 10 square of two triangles split along the diagonal (0, 0)-(10, 10).
NavMesh square_mesh() { return mesh_of({{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}}, {{0, 1, 2}, {0, 2, 3}}); }

// An L-shaped corridor two units wide: polygon 0 is x 0..8, z 0..2; polygon 1 the corner
// x 8..10, z 0..2; polygon 2 the arm x 8..10, z 2..10. Its inner corner is (8, 2), where all
// three meet.
NavMesh l_mesh() {
  return mesh_of({{0, 0, 0}, {8, 0, 0}, {10, 0, 0}, {10, 0, 2}, {8, 0, 2}, {0, 0, 2}, {10, 0, 10}, {8, 0, 10}},
                 {{0, 1, 4, 5}, {1, 2, 3, 4}, {4, 3, 6, 7}});
}

// A 9 x 9 square with a 3 x 3 hole in the middle: the eight cells of a 3 x 3 grid of squares
// around the centre one. Cell (i, j) covers x 3i..3i+3, z 3j..3j+3.
NavMesh ring_mesh() {
  std::vector<Point> vertices;
  for (int j = 0; j <= 3; ++j)
    for (int i = 0; i <= 3; ++i) vertices.push_back({3.0 * i, 0, 3.0 * j});
  auto at = [](int i, int j) { return static_cast<std::uint32_t>(j * 4 + i); };
  std::vector<std::vector<std::uint32_t>> polygons;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      if (i != 1 || j != 1) polygons.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
  return mesh_of(vertices, polygons);
}

// A horseshoe: arm x 0..2, z 0..8 (polygon 0), its top x 0..2, z 8..10 (1), a bar x 2..8,
// z 8..10 (2), the other top x 8..10, z 8..10 (3) and the other arm x 8..10, z 0..8 (4).
NavMesh horseshoe_mesh() {
  return mesh_of({{0, 0, 0}, {2, 0, 0}, {2, 0, 8}, {0, 0, 8}, {2, 0, 10}, {0, 0, 10}, {8, 0, 8}, {8, 0, 10},
                  {10, 0, 8}, {10, 0, 10}, {8, 0, 0}, {10, 0, 0}},
                 {{0, 1, 2, 3}, {3, 2, 4, 5}, {2, 6, 7, 4}, {6, 8, 9, 7}, {10, 11, 8, 6}});
}

// Two floors over the same 10 x 10 square, 5 apart, joined by a ramp that turns on a landing:
// lower floor (polygon 0, y = 0) -> ramp up along z 0..5 (1) -> landing x 20..25 (2) -> ramp
// back along z 5..10 (3) -> upper floor (4, y = 5). The lower floor's side x = 10 is a wall for
// z 5..10, the upper floor's for z 0..5.
NavMesh two_floor_mesh() {
  return mesh_of({{0, 0, 0}, {10, 0, 0}, {10, 0, 5}, {10, 0, 10}, {0, 0, 10},          // lower floor 0..4
                  {20, 2.5, 0}, {20, 2.5, 5}, {25, 2.5, 0}, {25, 2.5, 10}, {20, 2.5, 10},  // landing 5..9
                  {0, 5, 0}, {10, 5, 0}, {10, 5, 5}, {10, 5, 10}, {0, 5, 10}},         // upper floor 10..14
                 {{0, 1, 2, 3, 4}, {1, 5, 6, 2}, {5, 7, 8, 9, 6}, {12, 6, 9, 13}, {10, 11, 12, 13, 14}});
}

MeshLocation at(const NavMesh& mesh, PolygonId polygon, double x, double z) {
  return {polygon, {x, mesh.height_at(polygon, x, z), z}};
}

// A number in [0, 1) from the generator's bits, the same on every standard library.
double uniform_real(std::mt19937_64& random) { return static_cast<double>(random() >> 11) * 0x1.0p-53; }

double distance_xz(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.z - b.z); }

bool is_wall_edge(const NavMesh& mesh, PolygonId polygon, std::size_t edge, const AreaFilter* filter) {
  const PolygonId neighbour = mesh.polygon_neighbours(polygon)[edge];
  return neighbour == invalid_polygon ||
         (filter != nullptr && !filter->passes(mesh.area(neighbour), mesh.flags(neighbour)));
}

struct WallEdge {
  PolygonId polygon;
  Point a, b;
  std::uint32_t vertex_a, vertex_b;
};

std::vector<WallEdge> wall_edges(const NavMesh& mesh, const AreaFilter* filter = nullptr) {
  std::vector<WallEdge> walls;
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    if (filter != nullptr && !filter->passes(mesh.area(polygon), mesh.flags(polygon))) continue;
    const auto indices = mesh.polygon_vertices(polygon);
    for (std::size_t j = 0; j < indices.size(); ++j) {
      const std::uint32_t a = indices[j], b = indices[(j + 1) % indices.size()];
      if (is_wall_edge(mesh, polygon, j, filter)) walls.push_back({polygon, mesh.vertex(a), mesh.vertex(b), a, b});
    }
  }
  return walls;
}

// Distance in x-z from p to segment a-b, and the closest point.
double segment_distance(const Point& p, const Point& a, const Point& b, Point* closest = nullptr) {
  const double dx = b.x - a.x, dz = b.z - a.z, squared = dx * dx + dz * dz;
  const double along = squared > 0 ? std::clamp(((p.x - a.x) * dx + (p.z - a.z) * dz) / squared, 0.0, 1.0) : 0.0;
  const Point on{a.x + along * dx, 0, a.z + along * dz};
  if (closest != nullptr) *closest = on;
  return distance_xz(p, on);
}

double brute_wall_distance(const std::vector<WallEdge>& walls, const Point& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const WallEdge& wall : walls) best = std::min(best, segment_distance(p, wall.a, wall.b));
  return best;
}

// True when every point of the segment from `from` to `to`, sampled every `spacing` units,
// lies in one of `polygons` seen from above.
bool segment_in_polygons(const NavMesh& mesh, const Point& from, const Point& to, const std::vector<PolygonId>& polygons,
                         double spacing) {
  const int samples = std::max(2, static_cast<int>(std::ceil(distance_xz(from, to) / spacing)));
  for (int i = 0; i <= samples; ++i) {
    const double f = static_cast<double>(i) / samples;
    const double x = from.x + f * (to.x - from.x), z = from.z + f * (to.z - from.z);
    const bool inside = std::any_of(polygons.begin(), polygons.end(),
                                    [&](PolygonId polygon) { return mesh.contains_xz(polygon, x, z); });
    if (!inside) return false;
  }
  return true;
}

bool neighbours(const NavMesh& mesh, PolygonId a, PolygonId b) {
  const auto around = mesh.polygon_neighbours(a);
  return std::find(around.begin(), around.end(), b) != around.end();
}

// ---- raycast

TEST(SurfaceRaycast, InsideAConvexRegionReachesTheEnd) {
  const NavMesh mesh = square_mesh();
  const RaycastResult ray = raycast(mesh, at(mesh, 0, 8, 2), {2, 0, 7});
  ASSERT_TRUE(ray.ok()) << ray.message;
  EXPECT_TRUE(ray.reached);
  EXPECT_DOUBLE_EQ(ray.t, 1.0);
  EXPECT_NEAR(ray.distance, std::hypot(6, 5), 1e-12);
  EXPECT_EQ(ray.point.x, 2);
  EXPECT_EQ(ray.point.z, 7);
  EXPECT_EQ(ray.polygons, (std::vector<PolygonId>{0, 1}));
  EXPECT_EQ(ray.polygon, 1u);
  EXPECT_EQ(ray.wall_normal, Point{});
}

TEST(SurfaceRaycast, AcrossTheLHitsTheInnerWall) {
  const NavMesh mesh = l_mesh();
  // z = x from (1, 1) meets the arm's inner wall z = 2 at x = 2, an eighth of the way to (9, 9).
  const RaycastResult ray = raycast(mesh, at(mesh, 0, 1, 1), {9, 0, 9});
  ASSERT_TRUE(ray.ok()) << ray.message;
  EXPECT_FALSE(ray.reached);
  EXPECT_NEAR(ray.t, 1.0 / 8.0, 1e-12);
  EXPECT_NEAR(ray.distance, std::hypot(1, 1), 1e-12);
  EXPECT_NEAR(ray.point.x, 2, 1e-12);
  EXPECT_NEAR(ray.point.z, 2, 1e-12);
  EXPECT_NEAR(ray.wall_normal.x, 0, 1e-12);
  EXPECT_EQ(ray.wall_normal.y, 0);
  EXPECT_NEAR(ray.wall_normal.z, 1, 1e-12);
  EXPECT_EQ(ray.polygons, (std::vector<PolygonId>{0}));
  // Along the corridor and up the arm are clear.
  EXPECT_TRUE(raycast(mesh, at(mesh, 0, 1, 1), {9, 0, 1}).reached);
  EXPECT_TRUE(raycast(mesh, at(mesh, 1, 9, 1), {9, 0, 9.5}).reached);
  // The outer corner's wall, from inside the arm: x = 10 at a quarter of the way.
  const RaycastResult outer = raycast(mesh, at(mesh, 2, 9, 5), {13, 0, 5});
  EXPECT_FALSE(outer.reached);
  EXPECT_NEAR(outer.t, 0.25, 1e-12);
  EXPECT_NEAR(outer.wall_normal.x, 1, 1e-12);
}

TEST(SurfaceRaycast, ThroughAVertexContinuesIntoThePolygonBeyondIt) {
  const NavMesh mesh = l_mesh();
  // z = x - 6 passes exactly through the inner corner (8, 2) from polygon 0 into polygon 2,
  // which touches polygon 0 only at that vertex.
  const RaycastResult ray = raycast(mesh, at(mesh, 0, 7, 1), {9, 0, 3});
  ASSERT_TRUE(ray.ok()) << ray.message;
  EXPECT_TRUE(ray.reached);
  EXPECT_EQ(ray.polygons, (std::vector<PolygonId>{0, 2}));
  // A shallower line through the same corner.
  const RaycastResult shallow = raycast(mesh, at(mesh, 0, 1, 1), {9.5, 0, 2 + 1.5 / 7});
  EXPECT_TRUE(shallow.reached);
  EXPECT_EQ(shallow.polygons.back(), 2u);
  // Along the wall z = 2 from a start on it, past the corner and along the shared edge beyond.
  const RaycastResult along = raycast(mesh, at(mesh, 0, 1, 2), {9, 0, 2});
  EXPECT_TRUE(along.reached);
  // Leaving the square through its corner (10, 10): the hit is the corner.
  const NavMesh square = square_mesh();
  const RaycastResult corner = raycast(square, at(square, 0, 5, 5), {12, 0, 12});
  EXPECT_FALSE(corner.reached);
  EXPECT_NEAR(corner.t, 5.0 / 7.0, 1e-12);
  EXPECT_NEAR(corner.point.x, 10, 1e-9);
  EXPECT_NEAR(corner.point.z, 10, 1e-9);
  const bool facing_side = std::abs(corner.wall_normal.x - 1) < 1e-12 || std::abs(corner.wall_normal.z - 1) < 1e-12;
  EXPECT_TRUE(facing_side) << corner.wall_normal.x << ", " << corner.wall_normal.z;
  // From a vertex: into the mesh, and out of it at once.
  EXPECT_TRUE(raycast(square, at(square, 0, 0, 0), {10, 0, 5}).reached);
  EXPECT_TRUE(raycast(square, at(square, 0, 10, 0), {0, 0, 5}).reached);
  // From a vertex of the start's polygon straight into the other one, which holds none of the
  // ray but that vertex's side.
  const RaycastResult leaving = raycast(square, at(square, 0, 0, 0), {2, 0, 8});
  EXPECT_TRUE(leaving.reached);
  EXPECT_EQ(leaving.polygons, (std::vector<PolygonId>{0, 1}));
  const RaycastResult from_corner = raycast(square, at(square, 0, 10, 10), {11, 0, 12});
  EXPECT_FALSE(from_corner.reached);
  EXPECT_EQ(from_corner.t, 0.0);
  // Along the diagonal shared edge, from corner to corner.
  EXPECT_TRUE(raycast(square, at(square, 0, 0, 0), {10, 0, 10}).reached);
}

TEST(SurfaceRaycast, ZeroLengthAndStartsOnAnEdge) {
  const NavMesh mesh = square_mesh();
  const RaycastResult still = raycast(mesh, at(mesh, 1, 3, 5), {3, 0, 5});
  ASSERT_TRUE(still.ok());
  EXPECT_TRUE(still.reached);
  EXPECT_EQ(still.polygons, (std::vector<PolygonId>{1}));
  // On the wall z = 0, heading out: hit at once, normal -z; heading in: clear.
  const RaycastResult out = raycast(mesh, at(mesh, 0, 5, 0), {5, 0, -5});
  EXPECT_FALSE(out.reached);
  EXPECT_EQ(out.t, 0.0);
  EXPECT_NEAR(out.wall_normal.z, -1, 1e-12);
  EXPECT_TRUE(raycast(mesh, at(mesh, 0, 5, 0), {5, 0, 5}).reached);
  // On the shared diagonal, crossing it either way.
  EXPECT_TRUE(raycast(mesh, at(mesh, 0, 5, 5), {2, 0, 8}).reached);
  EXPECT_TRUE(raycast(mesh, at(mesh, 1, 5, 5), {8, 0, 2}).reached);
}

TEST(SurfaceRaycast, AcrossAHoleAndAlongADirection) {
  const NavMesh mesh = ring_mesh();
  const MeshLocation start = mesh.locate({1.5, 0, 4.5});
  ASSERT_TRUE(start.valid());
  const RaycastResult ray = raycast(mesh, start, {7.5, 0, 4.5});
  EXPECT_FALSE(ray.reached);
  EXPECT_NEAR(ray.t, 0.25, 1e-12);
  EXPECT_NEAR(ray.wall_normal.x, 1, 1e-12);  // out of the walkable cell, into the hole
  const RaycastResult towards = raycast(mesh, start, RayDirection{2, 0}, 6.0);
  EXPECT_FALSE(towards.reached);
  EXPECT_NEAR(towards.distance, 1.5, 1e-12);
  EXPECT_NEAR(towards.t, 0.25, 1e-12);
  const RaycastResult around = raycast(mesh, start, RayDirection{0, -1}, 3.0);
  EXPECT_TRUE(around.reached);
  EXPECT_NEAR(around.point.z, 1.5, 1e-12);
}

TEST(SurfaceRaycast, FilteredPolygonsAreWalls) {
  NavMesh mesh = l_mesh();
  mesh.set_flags(1, 1);  // the corner is a door
  const AreaFilter shut = AreaFilter{}.exclude(1);
  const RaycastResult ray = raycast(mesh, at(mesh, 0, 1, 1), {9, 0, 1}, &shut);
  EXPECT_FALSE(ray.reached);
  EXPECT_NEAR(ray.point.x, 8, 1e-12);
  EXPECT_NEAR(ray.wall_normal.x, 1, 1e-12);
  EXPECT_TRUE(raycast(mesh, at(mesh, 0, 1, 1), {9, 0, 1}).reached);
}

TEST(SurfaceRaycast, StaysOnItsFloorWhereFloorsOverlap) {
  const NavMesh mesh = two_floor_mesh();
  // The lower floor's side x = 10 is a wall at z = 7; the upper floor's is open there (ramp).
  const RaycastResult lower = raycast(mesh, at(mesh, 0, 5, 7), {15, 0, 7});
  EXPECT_FALSE(lower.reached);
  EXPECT_NEAR(lower.t, 0.5, 1e-12);
  EXPECT_NEAR(lower.point.y, 0, 1e-12);
  const RaycastResult upper = raycast(mesh, at(mesh, 4, 5, 7), {15, 0, 7});
  EXPECT_TRUE(upper.reached);
  EXPECT_EQ(upper.polygons, (std::vector<PolygonId>{4, 3}));
  EXPECT_NEAR(upper.point.y, 3.75, 1e-12);  // halfway down the ramp from 5 to 2.5
  // And the other way round at z = 2.
  EXPECT_TRUE(raycast(mesh, at(mesh, 0, 5, 2), {15, 0, 2}).reached);
  EXPECT_FALSE(raycast(mesh, at(mesh, 4, 5, 2), {15, 0, 2}).reached);
}

// ---- move_along_surface

TEST(SurfaceMove, IntoAWallSlidesAlongIt) {
  const NavMesh mesh = l_mesh();
  const SurfaceMoveResult straight = move_along_surface(mesh, at(mesh, 0, 4, 1), {4, 0, 5});
  ASSERT_TRUE(straight.ok()) << straight.message;
  EXPECT_NEAR(straight.point.x, 4, 1e-12);
  EXPECT_NEAR(straight.point.z, 2, 1e-12);
  EXPECT_EQ(straight.polygon, 0u);
  const SurfaceMoveResult slanted = move_along_surface(mesh, at(mesh, 0, 4, 1), {6, 0, 3});
  EXPECT_NEAR(slanted.point.x, 6, 1e-12);
  EXPECT_NEAR(slanted.point.z, 2, 1e-12);
  EXPECT_TRUE(mesh.contains_xz(slanted.polygon, slanted.point.x, slanted.point.z));
  const MeshLocation on_mesh = mesh.locate(slanted.point);
  EXPECT_TRUE(on_mesh.valid());
  // A target inside reachable ground is reached exactly, around the corner too.
  const SurfaceMoveResult reached = move_along_surface(mesh, at(mesh, 0, 7, 1), {9, 0, 3});
  EXPECT_EQ(reached.point.x, 9);
  EXPECT_EQ(reached.point.z, 3);
  EXPECT_EQ(reached.polygon, 2u);
  ASSERT_GE(reached.corridor.size(), 2u);
  EXPECT_EQ(reached.corridor.front(), 0u);
  EXPECT_EQ(reached.corridor.back(), 2u);
  for (std::size_t i = 1; i < reached.corridor.size(); ++i)
    EXPECT_TRUE(neighbours(mesh, reached.corridor[i - 1], reached.corridor[i]));
  // Past the outer corner: stops at the corner.
  const SurfaceMoveResult corner = move_along_surface(mesh, at(mesh, 1, 9, 1), {12, 0, -2});
  EXPECT_NEAR(corner.point.x, 10, 1e-12);
  EXPECT_NEAR(corner.point.z, 0, 1e-12);
}

TEST(SurfaceMove, OnTwoFloorsEachFloorKeepsItsOwnWalls) {
  const NavMesh mesh = two_floor_mesh();
  const SurfaceMoveResult upper = move_along_surface(mesh, at(mesh, 4, 9, 2), {12, 0, 2});
  EXPECT_NEAR(upper.point.x, 10, 1e-12);
  EXPECT_NEAR(upper.point.y, 5, 1e-12);
  EXPECT_EQ(upper.polygon, 4u);
  const SurfaceMoveResult lower = move_along_surface(mesh, at(mesh, 0, 9, 2), {12, 0, 2});
  EXPECT_EQ(lower.point.x, 12);
  EXPECT_NEAR(lower.point.y, 0.5, 1e-12);
  EXPECT_EQ(lower.polygon, 1u);
  EXPECT_EQ(lower.corridor, (std::vector<PolygonId>{0, 1}));
}

TEST(SurfaceMove, FilteredPolygonsAreWallsAndTheSearchIsBounded) {
  NavMesh mesh = l_mesh();
  mesh.set_flags(1, 1);
  const AreaFilter shut = AreaFilter{}.exclude(1);
  const SurfaceMoveResult blocked = move_along_surface(mesh, at(mesh, 0, 7, 1), {9, 0, 1}, &shut);
  EXPECT_NEAR(blocked.point.x, 8, 1e-12);
  EXPECT_EQ(blocked.polygon, 0u);
  // With room for one polygon only, the move cannot leave the start's.
  const SurfaceMoveResult one = move_along_surface(mesh, at(mesh, 0, 7, 1), {9, 0, 1}, nullptr, 1);
  EXPECT_EQ(one.polygon, 0u);
  EXPECT_EQ(one.visited, (std::vector<PolygonId>{0}));
}

// ---- random points

TEST(SurfaceRandomPoint, AreaProportionalInsideAndRepeatable) {
  const NavMesh mesh = l_mesh();  // areas 16, 4, 16
  std::mt19937_64 random(20260123);
  const int draws = 36000;
  std::vector<int> per_polygon(mesh.polygon_count());
  for (int i = 0; i < draws; ++i) {
    const RandomPointResult drawn = random_point(mesh, random);
    ASSERT_TRUE(drawn.ok()) << drawn.message;
    ASSERT_LT(drawn.polygon, mesh.polygon_count());
    ASSERT_TRUE(mesh.contains_xz(drawn.polygon, drawn.point.x, drawn.point.z));
    ++per_polygon[drawn.polygon];
  }
  const double expected[] = {draws * 16.0 / 36, draws * 4.0 / 36, draws * 16.0 / 36};
  double chi_square = 0;
  for (std::size_t p = 0; p < 3; ++p) chi_square += std::pow(per_polygon[p] - expected[p], 2) / expected[p];
  EXPECT_LT(chi_square, 13.8) << per_polygon[0] << " " << per_polygon[1] << " " << per_polygon[2];  // p = 0.001, 2 dof

  // Inside a polygon: the square's quarters (each cut by the diagonal) are equally likely.
  const NavMesh square = square_mesh();
  int quarters[4] = {};
  for (int i = 0; i < 20000; ++i) {
    const Point p = random_point(square, random).point;
    ++quarters[(p.x < 5 ? 0 : 1) + (p.z < 5 ? 0 : 2)];
  }
  double quarter_chi = 0;
  for (const int count : quarters) quarter_chi += std::pow(count - 5000.0, 2) / 5000.0;
  EXPECT_LT(quarter_chi, 16.3);  // p = 0.001, 3 dof

  std::mt19937_64 first(7), second(7);
  for (int i = 0; i < 100; ++i) {
    const RandomPointResult a = random_point(mesh, first), b = random_point(mesh, second);
    ASSERT_EQ(a.point, b.point);
    ASSERT_EQ(a.polygon, b.polygon);
  }
}

TEST(SurfaceRandomPoint, TheSamplerGivesRandomPointsPoints) {
  NavMesh mesh = ring_mesh();
  mesh.set_flags(3, 1);
  const AreaFilter shut = AreaFilter{}.exclude(1);
  for (const AreaFilter* filter : {static_cast<const AreaFilter*>(nullptr), &shut}) {
    const RandomPointSampler sampler(mesh, filter);
    std::mt19937_64 first(99), second(99);
    for (int i = 0; i < 5000; ++i) {
      const RandomPointResult a = random_point(mesh, first, filter), b = sampler(second);
      ASSERT_TRUE(b.ok()) << b.message;
      ASSERT_EQ(a.point, b.point);
      ASSERT_EQ(a.polygon, b.polygon);
    }
  }
  const RandomPointSampler before_edit(mesh);
  mesh.set_flags(3, 0);
  std::mt19937_64 random(1);
  const RandomPointResult stale = before_edit(random);
  EXPECT_FALSE(stale.ok());
  EXPECT_EQ(stale.message.rfind("mesh", 0), 0u) << stale.message;
  const AreaFilter nothing = AreaFilter{}.exclude_area(0);
  EXPECT_EQ(RandomPointSampler(mesh, &nothing)(random).message.rfind("filter", 0), 0u);
}

TEST(SurfaceRandomPoint, ExcludedPolygonsAreNeverChosen) {
  NavMesh mesh = l_mesh();
  mesh.set_flags(1, 1);
  const AreaFilter shut = AreaFilter{}.exclude(1);
  std::mt19937_64 random(3);
  for (int i = 0; i < 2000; ++i) ASSERT_NE(random_point(mesh, random, &shut).polygon, 1u);
  const AreaFilter nothing = AreaFilter{}.exclude_area(0);
  const RandomPointResult none = random_point(mesh, random, &nothing);
  EXPECT_FALSE(none.ok());
  EXPECT_NE(none.message.find("filter"), std::string::npos);
}

TEST(SurfaceRandomPointAround, WithinTheRadiusAndReachable) {
  const NavMesh mesh = horseshoe_mesh();
  std::mt19937_64 random(11);
  const MeshLocation centre = at(mesh, 0, 1, 1);
  std::map<PolygonId, int> per_polygon;
  for (int i = 0; i < 5000; ++i) {
    const RandomPointResult drawn = random_point_around(mesh, centre, 8.0, random);
    ASSERT_TRUE(drawn.ok()) << drawn.message;
    ASSERT_FALSE(drawn.centre_returned);
    ASSERT_LE(distance_xz(drawn.point, centre.point), 8.0);
    ASSERT_TRUE(mesh.contains_xz(drawn.polygon, drawn.point.x, drawn.point.z));
    ++per_polygon[drawn.polygon];
  }
  // The far arm lies partly within 8 of the centre, but the way to it does not.
  EXPECT_EQ(per_polygon.count(3), 0u);
  EXPECT_EQ(per_polygon.count(4), 0u);
  EXPECT_GT(per_polygon[2], 0);

  // Uniform over the disc: half of it lies within radius / sqrt(2).
  const NavMesh square = square_mesh();
  const MeshLocation middle = at(square, 0, 5, 5);
  int inner = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i)
    if (distance_xz(random_point_around(square, middle, 2.0, random).point, middle.point) < 2.0 / std::sqrt(2.0)) ++inner;
  EXPECT_NEAR(static_cast<double>(inner) / draws, 0.5, 0.015);

  // Where floors overlap, only the centre's floor.
  const NavMesh floors = two_floor_mesh();
  for (int i = 0; i < 1000; ++i) {
    const RandomPointResult drawn = random_point_around(floors, at(floors, 0, 5, 5), 3.0, random);
    ASSERT_EQ(drawn.polygon, 0u);
    ASSERT_EQ(drawn.point.y, 0.0);
  }
  // A zero radius gives the centre.
  const RandomPointResult centre_only = random_point_around(square, middle, 0.0, random);
  EXPECT_TRUE(centre_only.centre_returned);
  EXPECT_EQ(centre_only.point.x, 5);
}

// ---- distance_to_wall

TEST(SurfaceWallDistance, MatchesEveryWallEdgeOnSmallMeshes) {
  const NavMesh meshes[] = {square_mesh(), l_mesh(), ring_mesh(), horseshoe_mesh()};
  std::mt19937_64 random(5);
  for (const NavMesh& mesh : meshes) {
    const std::vector<WallEdge> walls = wall_edges(mesh);
    for (int i = 0; i < 500; ++i) {
      const RandomPointResult drawn = random_point(mesh, random);
      const MeshLocation point{drawn.polygon, drawn.point};
      const double expected = brute_wall_distance(walls, point.point);
      const WallDistanceResult wall = distance_to_wall(mesh, point, std::numeric_limits<double>::infinity());
      ASSERT_TRUE(wall.ok()) << wall.message;
      ASSERT_TRUE(wall.found);
      ASSERT_NEAR(wall.distance, expected, 1e-12);
      ASSERT_NEAR(distance_xz(wall.point, point.point), expected, 1e-12);
      ASSERT_NEAR(std::hypot(wall.wall_normal.x, wall.wall_normal.z), 1.0, 1e-12);
      // A smaller radius: the radius itself when the wall is farther.
      const WallDistanceResult near = distance_to_wall(mesh, point, 0.5);
      ASSERT_EQ(near.found, expected < 0.5);
      ASSERT_NEAR(near.distance, std::min(expected, 0.5), 1e-12);
    }
  }
}

TEST(SurfaceWallDistance, NormalsFiltersAndFloors) {
  NavMesh mesh = l_mesh();
  const WallDistanceResult wall = distance_to_wall(mesh, at(mesh, 0, 4, 1.5), 10);
  EXPECT_NEAR(wall.distance, 0.5, 1e-12);
  EXPECT_NEAR(wall.wall_normal.z, 1, 1e-12);
  EXPECT_NEAR(wall.point.x, 4, 1e-12);
  mesh.set_flags(1, 1);
  const AreaFilter shut = AreaFilter{}.exclude(1);
  const WallDistanceResult door = distance_to_wall(mesh, at(mesh, 0, 7.8, 1), 10, &shut);
  EXPECT_NEAR(door.distance, 0.2, 1e-12);
  EXPECT_NEAR(door.wall_normal.x, 1, 1e-12);

  // The upper floor's wall x = 10 (z 0..5) lies 1 away from (9, 2) seen from above, but on the
  // lower floor the nearest wall is z = 0, 2 away.
  const NavMesh floors = two_floor_mesh();
  EXPECT_NEAR(distance_to_wall(floors, at(floors, 0, 9, 2), 100).distance, 2, 1e-12);
  EXPECT_NEAR(distance_to_wall(floors, at(floors, 4, 9, 2), 100).distance, 1, 1e-12);
}

// ---- bad input

TEST(SurfaceQueries, BadInputIsAnErrorNamingTheArgument) {
  const NavMesh mesh = square_mesh();
  std::mt19937_64 random(1);
  const MeshLocation good = at(mesh, 0, 8, 2);
  const MeshLocation out_of_range{7, {1, 0, 1}};
  const MeshLocation invalid{};
  const MeshLocation not_inside{0, {1, 0, 9}};
  const MeshLocation not_finite{0, {nan, 0, 1}};
  auto expect_error = [](const std::string& error, const std::string& names) {
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.rfind(names, 0), 0u) << error;
  };
  for (const MeshLocation& bad : {out_of_range, invalid, not_inside, not_finite}) {
    expect_error(raycast(mesh, bad, {1, 0, 1}).message, "start");
    expect_error(raycast(mesh, bad, RayDirection{1, 0}, 1.0).message, "start");
    expect_error(move_along_surface(mesh, bad, {1, 0, 1}).message, "start");
    expect_error(random_point_around(mesh, bad, 1.0, random).message, "centre");
    expect_error(distance_to_wall(mesh, bad, 1.0).message, "point");
  }
  expect_error(raycast(mesh, good, {nan, 0, 1}).message, "end");
  expect_error(raycast(mesh, good, RayDirection{nan, 0}, 1.0).message, "direction");
  expect_error(raycast(mesh, good, RayDirection{0, 0}, 1.0).message, "direction");
  expect_error(raycast(mesh, good, RayDirection{1, 0}, -1.0).message, "max_distance");
  expect_error(raycast(mesh, good, RayDirection{1, 0}, std::numeric_limits<double>::infinity()).message, "max_distance");
  expect_error(move_along_surface(mesh, good, {1, nan, 1}).message, "target");
  expect_error(move_along_surface(mesh, good, {1, 0, 1}, nullptr, 0).message, "max_polygons");
  expect_error(random_point_around(mesh, good, -1.0, random).message, "radius");
  expect_error(random_point_around(mesh, good, nan, random).message, "radius");
  expect_error(random_point_around(mesh, good, std::numeric_limits<double>::infinity(), random).message, "radius");
  expect_error(distance_to_wall(mesh, good, nan).message, "max_radius");
  expect_error(distance_to_wall(mesh, good, -0.5).message, "max_radius");
  AreaFilter broken;
  broken.area_costs[0] = nan;
  expect_error(raycast(mesh, good, {1, 0, 1}, &broken).message, "filter");
  expect_error(random_point(mesh, random, &broken).message, "filter");
  NavMesh flagged = square_mesh();
  flagged.set_flags(0, 1);
  const AreaFilter shut = AreaFilter{}.exclude(1);
  expect_error(distance_to_wall(flagged, good, 1.0, &shut).message, "point");
  // A failed query leaves its answer at the defaults.
  const RaycastResult failed = raycast(mesh, invalid, {1, 0, 1});
  EXPECT_FALSE(failed.reached);
  EXPECT_TRUE(failed.polygons.empty());
}

// ---- threads: the queries only read the mesh, so threads sharing it get the answers one
// thread gets.

TEST(SurfaceQueries, ThreadsSharingAMeshGetTheSameAnswers) {
  const NavMesh mesh = ring_mesh();
  auto answers = [&mesh](std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<double> values;
    for (int i = 0; i < 2000; ++i) {
      const RandomPointResult from = random_point(mesh, random), to = random_point(mesh, random);
      const MeshLocation start{from.polygon, from.point};
      values.push_back(raycast(mesh, start, to.point).t);
      values.push_back(move_along_surface(mesh, start, to.point).point.x);
      values.push_back(distance_to_wall(mesh, start, 3.0).distance);
      values.push_back(random_point_around(mesh, start, 2.0, random).point.z);
    }
    return values;
  };
  std::vector<std::vector<double>> expected, got(4);
  for (std::uint64_t seed = 0; seed < 4; ++seed) expected.push_back(answers(seed));
  {
    std::vector<std::jthread> threads;
    for (std::uint64_t seed = 0; seed < 4; ++seed) threads.emplace_back([&, seed] { got[seed] = answers(seed); });
  }
  EXPECT_EQ(got, expected);
}

// ---- real meshes

// "nav_test" for "nav_test_navmesh.obj".
std::string case_name(const ::testing::TestParamInfo<const char*>& mesh_file) {
  const std::string file = mesh_file.param;
  return file.substr(0, file.find("_navmesh"));
}

class SurfaceQueriesOnData : public ::testing::TestWithParam<const char*> {};

TEST_P(SurfaceQueriesOnData, AgreeWithDirectChecks) {
  const std::filesystem::path path = testing::data_directory() / "meshes" / "derived" / GetParam();
  if (!std::filesystem::exists(path)) {
    if (testing::data_required()) FAIL() << "missing " << path;
    GTEST_SKIP() << "no mesh data at " << path;
  }
  const NavMesh mesh = NavMesh::build(read_obj_mesh(path));
  const std::vector<WallEdge> walls = wall_edges(mesh);
  std::mt19937_64 random(42);
  const int rounds = testing::sanitized_build() ? 150 : 1500;
  int reached = 0, hit = 0, walls_compared = 0, centres_returned = 0;
  for (int round = 0; round < rounds; ++round) {
    const RandomPointResult from = random_point(mesh, random), far = random_point(mesh, random);
    ASSERT_TRUE(from.ok() && far.ok());
    const MeshLocation start{from.polygon, from.point};
    // A third of the rays go to another random point, a third are short (up to 10 units), so
    // that many reach their end, and a third pass exactly through a vertex of a polygon nearby
    // (half as far again beyond it).
    Point to = far.point;
    if (round % 3 == 1) {
      const double angle = uniform_real(random) * 2 * std::acos(-1.0), length = 10 * uniform_real(random);
      to = {start.point.x + length * std::cos(angle), start.point.y, start.point.z + length * std::sin(angle)};
    } else if (round % 3 == 2) {
      const RandomPointResult nearby = random_point_around(mesh, start, 8.0, random);
      const auto corners = mesh.polygon_vertices(nearby.polygon);
      const Point& corner = mesh.vertex(corners[random() % corners.size()]);
      to = {start.point.x + 1.5 * (corner.x - start.point.x), start.point.y, start.point.z + 1.5 * (corner.z - start.point.z)};
    }

    // raycast: a reached segment lies in the polygons it crossed; a hit lies on a wall, and the
    // segment up to it lies in the polygons crossed.
    const RaycastResult ray = raycast(mesh, start, to);
    ASSERT_TRUE(ray.ok()) << ray.message;
    ASSERT_TRUE(segment_in_polygons(mesh, start.point, ray.point, ray.polygons, 0.02))
        << "round " << round << ": the ray left its polygons";
    for (std::size_t i = 1; i < ray.polygons.size(); ++i) {
      const auto a = mesh.polygon_vertices(ray.polygons[i - 1]), b = mesh.polygon_vertices(ray.polygons[i]);
      ASSERT_TRUE(std::find_first_of(a.begin(), a.end(), b.begin(), b.end()) != a.end()) << "round " << round;
    }
    // What a query returns is a valid place to ask the next one from.
    ASSERT_TRUE(distance_to_wall(mesh, {ray.polygon, ray.point}, 1.0).ok()) << "round " << round;
    if (ray.reached) {
      ++reached;
      ASSERT_EQ(ray.point.x, to.x);
      ASSERT_EQ(ray.point.z, to.z);
    } else {
      ++hit;
      double nearest = std::numeric_limits<double>::infinity();
      for (const WallEdge& wall : walls)
        if (mesh.contains_xz(wall.polygon, ray.point.x, ray.point.z))
          nearest = std::min(nearest, segment_distance(ray.point, wall.a, wall.b));
      ASSERT_LT(nearest, 1e-6) << "round " << round << ": the hit is not on a wall";
      ASSERT_NEAR(std::hypot(ray.wall_normal.x, ray.wall_normal.z), 1.0, 1e-9);
    }

    // move_along_surface: ends on the mesh, no farther from the target than the start was.
    const double angle = uniform_real(random) * 2 * std::acos(-1.0), reach = 5 * uniform_real(random);
    const Point target{start.point.x + reach * std::cos(angle), start.point.y, start.point.z + reach * std::sin(angle)};
    const SurfaceMoveResult move = move_along_surface(mesh, start, target);
    ASSERT_TRUE(move.ok()) << move.message;
    ASSERT_TRUE(mesh.contains_xz(move.polygon, move.point.x, move.point.z)) << "round " << round;
    ASSERT_NEAR(move.point.y, mesh.height_at(move.polygon, move.point.x, move.point.z), 1e-9);
    ASSERT_LE(distance_xz(move.point, target), reach + 1e-9);
    ASSERT_TRUE(raycast(mesh, {move.polygon, move.point}, start.point).ok()) << "round " << round;
    ASSERT_EQ(move.corridor.front(), start.polygon);
    ASSERT_EQ(move.corridor.back(), move.polygon);
    for (std::size_t i = 1; i < move.corridor.size(); ++i)
      ASSERT_TRUE(neighbours(mesh, move.corridor[i - 1], move.corridor[i]));

    // random_point_around: within the radius, on a polygon of the centre's region.
    const RandomPointResult around = random_point_around(mesh, start, 6.0, random);
    ASSERT_TRUE(around.ok()) << around.message;
    ASSERT_LE(distance_xz(around.point, start.point), 6.0);
    ASSERT_TRUE(mesh.contains_xz(around.polygon, around.point.x, around.point.z));
    ASSERT_EQ(mesh.region(around.polygon), mesh.region(start.polygon));
    centres_returned += around.centre_returned ? 1 : 0;

    // distance_to_wall: never nearer than the nearest wall edge of the whole mesh; equal to the
    // nearest one a straight line on the mesh reaches (a raycast towards its nearest point that
    // ends there, in a polygon touching that wall). On overlapping floors walls of other floors
    // may be nearer seen from above; they are skipped.
    const WallDistanceResult wall = distance_to_wall(mesh, start, std::numeric_limits<double>::infinity());
    ASSERT_TRUE(wall.ok() && wall.found) << wall.message;
    std::vector<std::pair<double, std::size_t>> by_distance;
    for (std::size_t i = 0; i < walls.size(); ++i) by_distance.push_back({segment_distance(start.point, walls[i].a, walls[i].b), i});
    std::sort(by_distance.begin(), by_distance.end());
    ASSERT_GE(wall.distance, by_distance.front().first - 1e-9);
    for (const auto& [distance, index] : by_distance) {
      if (distance > wall.distance + 1e-6) break;
      const WallEdge& edge = walls[index];
      Point closest;
      segment_distance(start.point, edge.a, edge.b, &closest);
      const RaycastResult sight = raycast(mesh, start, closest);
      const auto ending = mesh.polygon_vertices(sight.polygon);
      const bool touches = sight.polygon == edge.polygon ||
                           std::find(ending.begin(), ending.end(), edge.vertex_a) != ending.end() ||
                           std::find(ending.begin(), ending.end(), edge.vertex_b) != ending.end();
      if (sight.distance >= distance - 1e-7 && touches) {
        ASSERT_NEAR(wall.distance, distance, 1e-7) << "round " << round;
        ++walls_compared;
        break;
      }
    }
  }
  std::cout << GetParam() << ": " << reached << " rays reached, " << hit << " hit a wall, " << walls_compared
            << " wall distances matched a seen wall, " << centres_returned << " random points around fell back to the centre\n";
  EXPECT_GT(reached, rounds / 20);
  EXPECT_GT(hit, rounds / 20);
  EXPECT_GT(walls_compared, rounds * 9 / 10);
  EXPECT_EQ(centres_returned, 0);
}

INSTANTIATE_TEST_SUITE_P(RealMeshes, SurfaceQueriesOnData,
                         ::testing::Values("nav_test_navmesh.obj", "dungeon_navmesh.obj"),
                         case_name);

}  // namespace
}  // namespace wayfinder
