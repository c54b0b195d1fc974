// Navigation meshes built from level geometry with Recast: the RecastDemo levels give the
// polygon meshes Detour built from them with the same settings, the result loads as a NavMesh
// and answers queries, and bad settings and levels are refused with a message.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "navmesh_build/tile_border_weld.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;

std::filesystem::path level(const char* name) { return data_directory() / "meshes" / "recastnavigation" / name; }
std::filesystem::path detour_mesh(const char* name) { return data_directory() / "meshes" / "derived" / name; }

#define SKIP_WITHOUT(path)                                                                          \
  do {                                                                                              \
    if (!std::filesystem::exists(path)) {                                                           \
      if (testing::data_required()) FAIL() << (path) << " not found; WAYFINDER_REQUIRE_DATA=1 requires it"; \
      GTEST_SKIP() << (path) << " not found";                                                       \
    }                                                                                               \
  } while (false)

// Vertices rounded to a thousandth, as a set: the same mesh has the same set whatever the order.
std::set<std::tuple<long, long, long>> vertex_set(const MeshGeometry& geometry) {
  std::set<std::tuple<long, long, long>> set;
  for (const Point& v : geometry.vertices)
    set.insert({std::lround(v.x * 1000), std::lround(v.y * 1000), std::lround(v.z * 1000)});
  return set;
}

TEST(NavMeshBuild, DungeonGivesDetoursMeshWithRecastDemoDefaults) {
  SKIP_WITHOUT(level("dungeon.obj"));
  const MeshGeometry built = build_navmesh_geometry(read_obj_mesh(level("dungeon.obj")));
  EXPECT_EQ(built.polygons.size(), 118u);
  EXPECT_EQ(built.vertices.size(), 223u);
  const MeshGeometry detour = read_obj_mesh(detour_mesh("dungeon_navmesh.obj"));
  EXPECT_EQ(vertex_set(built), vertex_set(detour)) << "the same vertices as the Detour mesh built with the same settings";
  const NavMesh mesh = NavMesh::build(built);
  EXPECT_EQ(mesh.polygon_count(), 118u);
  EXPECT_EQ(NavMesh::build(detour).region_count(), mesh.region_count());
}

TEST(NavMeshBuild, DetailSampleDistanceBelowOneCellSamplesOnlyTheEdges) {
  // Below 0.9 cells only the polygons' edges are sampled: the same polygons as the default,
  // and a detail mesh with no sample inside a polygon, so never more detail vertices.
  SKIP_WITHOUT(level("dungeon.obj"));
  const MeshGeometry level_geometry = read_obj_mesh(level("dungeon.obj"));
  const MeshGeometry sampled = build_navmesh_geometry(level_geometry);
  for (const double distance : {0.0, 1e-300, 0.5, 0.89}) {
    AgentSettings settings;
    settings.detail_sample_distance = distance;
    const MeshGeometry edges_only = build_navmesh_geometry(level_geometry, settings);
    EXPECT_EQ(edges_only.polygons.size(), sampled.polygons.size()) << distance;
    EXPECT_EQ(vertex_set(edges_only), vertex_set(sampled)) << distance;
    ASSERT_EQ(edges_only.detail_starts.size(), edges_only.polygons.size() + 1) << distance;
    EXPECT_LT(edges_only.detail_vertices.size(), sampled.detail_vertices.size()) << distance;
    const NavMesh mesh = NavMesh::build(edges_only);
    EXPECT_TRUE(mesh.has_detail_heights()) << distance;
  }
}

TEST(NavMeshBuild, NavTestMatchesTheDetourMeshUpToDebiansRecastVersion) {
  SKIP_WITHOUT(level("nav_test.obj"));
  NavMeshBuildReport report;
  std::vector<std::string> stages;
  const MeshGeometry built = build_navmesh_geometry(read_obj_mesh(level("nav_test.obj")), {}, &report,
                                                    [&](std::string_view stage, double) { stages.emplace_back(stage); });
  // Debian's Recast (2021) gives 153 polygons on nav_test where the newer Recast that built the
  // reference gives 155, over the same 349 vertices.
  EXPECT_EQ(built.vertices.size(), 349u);
  EXPECT_NEAR(static_cast<double>(built.polygons.size()), 155.0, 2.0);
  const auto ours = vertex_set(built);
  const auto theirs = vertex_set(read_obj_mesh(detour_mesh("nav_test_navmesh.obj")));
  std::size_t shared = 0;
  for (const auto& v : ours) shared += theirs.count(v);
  // 336 of the 349 here: the two Recast versions place a few contour vertices differently.
  EXPECT_GE(shared, ours.size() - 20) << shared << " of " << ours.size() << " vertices are the reference's";
  EXPECT_EQ(report.input_triangles, 1612u);
  EXPECT_GT(report.walkable_triangles, 0u);
  EXPECT_LT(report.walkable_triangles, report.input_triangles);
  EXPECT_EQ(report.polygons, built.polygons.size());
  EXPECT_GT(report.milliseconds, 0.0);
  ASSERT_FALSE(stages.empty());
  EXPECT_EQ(stages.back(), "done");
  for (const auto& polygon : built.polygons) {
    EXPECT_GE(polygon.size(), 3u);
    EXPECT_LE(polygon.size(), 6u);
  }

  // The built mesh answers queries like any other.
  const NavMesh mesh = NavMesh::build(built);
  NavMeshQuery query(mesh);
  const Point a = mesh.centroid(0);
  int found = 0;
  for (PolygonId p = 1; p < mesh.polygon_count(); p += 7) {
    if (mesh.region(p) != mesh.region(0)) continue;
    const PathResult result = query.find_path(a, mesh.centroid(p));
    EXPECT_EQ(result.status, SearchStatus::found) << result.message;
    found += result.found() ? 1 : 0;
  }
  EXPECT_GT(found, 0);
}

TEST(NavMeshBuild, AgentSizeShapesTheMesh) {
  // A 20 x 20 floor with a 2-unit-high box in the middle: a bigger agent keeps farther from it,
  // and a box lower than the agent's climb is walked over.
  MeshGeometry geometry;
  const auto quad = [&](Point a, Point b, Point c, Point d) {
    const auto first = static_cast<std::uint32_t>(geometry.vertices.size());
    geometry.vertices.insert(geometry.vertices.end(), {a, b, c, d});
    geometry.polygons.push_back({first, first + 1, first + 2, first + 3});
  };
  quad({0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0});  // floor, facing up
  quad({8, 2, 8}, {8, 2, 12}, {12, 2, 12}, {12, 2, 8});  // box top
  quad({8, 0, 8}, {8, 2, 8}, {12, 2, 8}, {12, 0, 8});    // box sides (vertical)
  quad({8, 0, 12}, {12, 0, 12}, {12, 2, 12}, {8, 2, 12});
  quad({8, 0, 8}, {8, 0, 12}, {8, 2, 12}, {8, 2, 8});
  quad({12, 0, 8}, {12, 2, 8}, {12, 2, 12}, {12, 0, 12});
  geometry.source = "box";

  const auto walkable_at = [](const MeshGeometry& built, double x, double z) {
    const NavMesh mesh = NavMesh::build(built);
    return mesh.locate({x, 0.0, z}).valid();
  };
  AgentSettings small;
  small.agent_radius = 0.3;
  const MeshGeometry thin = build_navmesh_geometry(geometry, small);
  EXPECT_TRUE(walkable_at(thin, 7.2, 10.0)) << "0.8 from the box: room for a radius of 0.3";
  AgentSettings big;
  big.agent_radius = 1.5;
  const MeshGeometry wide = build_navmesh_geometry(geometry, big);
  EXPECT_FALSE(walkable_at(wide, 7.2, 10.0)) << "0.8 from the box: no room for a radius of 1.5";
  EXPECT_TRUE(walkable_at(wide, 3.0, 10.0));
  AgentSettings climber = small;
  climber.max_climb = 2.5;
  const NavMesh over = NavMesh::build(build_navmesh_geometry(geometry, climber));
  EXPECT_EQ(over.region_count(), 1u) << "the box top joins the floor when the agent climbs 2.5";
}

// Adds the quad a, b, c, d to a level.
void add_quad(MeshGeometry& level, Point a, Point b, Point c, Point d) {
  const auto first = static_cast<std::uint32_t>(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {a, b, c, d});
  level.polygons.push_back({first, first + 1, first + 2, first + 3});
}

// Whether an agent with `settings` walks from `from` to `to` on the level's navmesh.
bool walks(const MeshGeometry& level, const AgentSettings& settings, Point from, Point to) {
  const MeshGeometry built = build_navmesh_geometry(level, settings);
  if (built.polygons.empty()) return false;
  const NavMesh mesh = NavMesh::build(built);
  NavMeshQuery query(mesh);
  NavMeshSearchOptions options;
  options.snap_distance = 2.0;  // the ends may lie within the radius of an edge
  return query.find_path(from, to, options).found();
}

TEST(NavMeshBuild, ACorridorNarrowerThanTheAgentIsNotWalkable) {
  // Two 10 x 10 rooms joined by a corridor 2 wide and 6 long; the corridor's sides are ledges,
  // which Recast keeps an agent's radius away from as it does walls.
  MeshGeometry level;
  add_quad(level, {0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0});
  add_quad(level, {10, 0, 4}, {10, 0, 6}, {16, 0, 6}, {16, 0, 4});
  add_quad(level, {16, 0, 0}, {16, 0, 10}, {26, 0, 10}, {26, 0, 0});
  AgentSettings thin;
  thin.agent_radius = 0.5;  // 1 across: fits in 2
  EXPECT_TRUE(walks(level, thin, {5, 0, 5}, {21, 0, 5}));
  AgentSettings wide;
  wide.agent_radius = 1.1;  // 2.2 across: does not
  EXPECT_FALSE(walks(level, wide, {5, 0, 5}, {21, 0, 5}));
  EXPECT_TRUE(walks(level, wide, {3, 0, 3}, {7, 0, 7})) << "the rooms themselves stay walkable";
}

TEST(NavMeshBuild, AStepHigherThanTheClimbIsNotWalkable) {
  // A floor and a platform beside it, its top `height` above the floor, with a vertical face.
  for (const auto& [height, climbable] : std::vector<std::pair<double, bool>>{{0.6, true}, {1.4, false}}) {
    MeshGeometry level;
    add_quad(level, {0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0});
    add_quad(level, {10, height, 0}, {10, height, 10}, {20, height, 10}, {20, height, 0});
    add_quad(level, {10, 0, 0}, {10, height, 0}, {10, height, 10}, {10, 0, 10});
    AgentSettings settings;  // max_climb 0.9
    EXPECT_EQ(walks(level, settings, {5, 0, 5}, {15, height, 5}), climbable) << "a step of " << height;
  }
}

TEST(NavMeshBuild, ASlopeSteeperThanTheLimitIsNotWalkable) {
  // A floor, a ramp rising 4 at `degrees`, and a platform at its top.
  for (const auto& [degrees, walkable] : std::vector<std::pair<double, bool>>{{30.0, true}, {60.0, false}}) {
    const double rise = 4.0, run = rise / std::tan(degrees * std::acos(-1.0) / 180.0);
    MeshGeometry level;
    add_quad(level, {0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0});
    add_quad(level, {10, 0, 0}, {10, 0, 10}, {10 + run, rise, 10}, {10 + run, rise, 0});
    add_quad(level, {10 + run, rise, 0}, {10 + run, rise, 10}, {20 + run, rise, 10}, {20 + run, rise, 0});
    AgentSettings settings;  // max_slope_degrees 45
    EXPECT_EQ(walks(level, settings, {5, 0, 5}, {15 + run, rise, 5}), walkable) << "a slope of " << degrees;
    // Allowed the slope, the agent walks it, given the climb for it: Recast's ledge filter also
    // drops spans whose neighbours' heights differ by more than the climb (0.52 a cell at 60
    // degrees, so 1.04 across a span's two neighbours against the default climb of 0.9).
    settings.max_slope_degrees = 65.0;
    settings.max_climb = 1.5;
    EXPECT_TRUE(walks(level, settings, {5, 0, 5}, {15 + run, rise, 5})) << degrees << " degrees with a limit of 65";
  }
}

TEST(NavMeshBuild, RefusesBadSettingsAndLevels) {
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {0, 0, 10}, {10, 0, 10}};
  geometry.polygons = {{0, 1, 2}};
  for (const auto& [change, words] :
       std::vector<std::pair<std::function<void(AgentSettings&)>, std::string>>{
           {[](AgentSettings& s) { s.cell_size = 0.0; }, "cell_size"},
           {[](AgentSettings& s) { s.cell_height = std::nan(""); }, "cell_height"},
           {[](AgentSettings& s) { s.max_slope_degrees = 95.0; }, "max_slope"},
           {[](AgentSettings& s) { s.vertices_per_polygon = 2; }, "vertices_per_polygon"},
           {[](AgentSettings& s) { s.agent_radius = -1.0; }, "agent_radius"},
           {[](AgentSettings& s) { s.agent_height = 1e9; }, "agent_height"},
           {[](AgentSettings& s) { s.tile_size = 3; }, "tile_size"},
           {[](AgentSettings& s) { s.detail_sample_distance = -1.0; }, "detail_sample_distance"}}) {
    AgentSettings settings;
    change(settings);
    ASSERT_TRUE(settings_problem(settings).has_value()) << words;
    try {
      (void)build_navmesh_geometry(geometry, settings);
      ADD_FAILURE() << "no exception for bad " << words;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW((void)build_navmesh_geometry(MeshGeometry{}, {}), std::invalid_argument);
  AgentSettings tiny_cells;
  tiny_cells.cell_size = 1e-6;
  EXPECT_THROW((void)build_navmesh_geometry(geometry, tiny_cells), std::invalid_argument) << "a grid too large";

  MeshGeometry not_finite = geometry;
  not_finite.vertices[1].y = std::nan("");
  EXPECT_THROW((void)build_navmesh_geometry(not_finite), std::invalid_argument) << "a NaN vertex";
  MeshGeometry out_of_range = geometry;
  out_of_range.polygons[0][2] = 9;
  EXPECT_THROW((void)build_navmesh_geometry(out_of_range), std::invalid_argument) << "an index past the vertices";
  // Recast keeps six bits of area per voxel: 63 different (area, flags) pairs at most.
  MeshGeometry many_areas;
  for (std::uint32_t i = 0; i < 64; ++i) {
    const double x = i;
    many_areas.vertices.insert(many_areas.vertices.end(), {{x, 0, 0}, {x, 0, 1}, {x + 1, 0, 1}});
    many_areas.polygons.push_back({3 * i, 3 * i + 1, 3 * i + 2});
    many_areas.polygon_areas.push_back(static_cast<AreaId>(i % 2));
    many_areas.polygon_flags.push_back(static_cast<AreaFlags>(i / 2));
  }
  try {
    (void)build_navmesh_geometry(many_areas);
    ADD_FAILURE() << "no error for 64 (area, flags) pairs";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("more than 63"), std::string::npos) << error.what();
  }
  // More than 2^24 cells in one piece: Recast's 24-bit span index would lose spans and give an
  // empty mesh, so the build refuses before allocating (a floor of 25 million cells).
  MeshGeometry floor_100;
  floor_100.vertices = {{0, 0, 0}, {0, 0, 100}, {100, 0, 100}, {100, 0, 0}};
  floor_100.polygons = {{0, 1, 2, 3}};
  AgentSettings fine_cells;
  fine_cells.cell_size = 0.02;
  for (const auto& [settings, words] : std::vector<std::pair<AgentSettings, std::string>>{
           {fine_cells, "tile_size"},
           {[] { AgentSettings s; s.tile_size = 4096; s.cell_size = 0.02; s.agent_radius = 4.0; return s; }(),
            "smaller tile_size"}}) {
    try {
      (void)build_navmesh_geometry(floor_100, settings);
      ADD_FAILURE() << "no error for a piece of more than 2^24 cells (" << words << ")";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("2^24"), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  }
  // A floor six billion units wide: more cells across than an int holds at the default cell size.
  MeshGeometry wide_floor = floor_100;
  wide_floor.vertices[2].x = wide_floor.vertices[3].x = 6e9;
  for (int tile_size : {0, 64}) {
    AgentSettings settings;
    settings.tile_size = tile_size;
    try {
      (void)build_navmesh_geometry(wide_floor, settings);
      ADD_FAILURE() << "no error for a floor 6e9 wide, tile_size " << tile_size;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("cells across"), std::string::npos) << error.what();
    }
  }
  AgentSettings huge_tiled;
  huge_tiled.cell_size = 1e-6;
  huge_tiled.tile_size = 8;
  EXPECT_THROW((void)build_navmesh_geometry(geometry, huge_tiled), std::invalid_argument) << "too many tiles";

  // Only walls: nothing walkable, an empty mesh rather than an error.
  MeshGeometry wall;
  wall.vertices = {{0, 0, 0}, {10, 0, 0}, {10, 5, 0}, {0, 5, 0}};
  wall.polygons = {{0, 1, 2, 3}};
  EXPECT_TRUE(build_navmesh_geometry(wall).polygons.empty());
}

// The level's floor under (x, z) nearest in height to y: the highest point of the level's
// triangles straight below or above, by brute force over every triangle.
std::optional<double> level_ground(const MeshGeometry& level, double x, double z, double y) {
  std::optional<double> best;
  for (const auto& polygon : level.polygons) {
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
      const Point& a = level.vertices[polygon[0]];
      const Point& b = level.vertices[polygon[i]];
      const Point& c = level.vertices[polygon[i + 1]];
      const double area = (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x);
      if (std::abs(area) < 1e-12) continue;
      const double wb = ((x - a.x) * (c.z - a.z) - (z - a.z) * (c.x - a.x)) / area;
      const double wc = ((b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x)) / area;
      const double wa = 1.0 - wb - wc;
      if (wa < -1e-9 || wb < -1e-9 || wc < -1e-9) continue;
      const double height = wa * a.y + wb * b.y + wc * c.y;
      if (!best || std::abs(height - y) < std::abs(*best - y)) best = height;
    }
  }
  return best;
}

TEST(NavMeshBuild, DetailHeightsPutPointsAndWaypointsOnTheGround) {
  SKIP_WITHOUT(level("nav_test.obj"));
  const MeshGeometry level_mesh = read_obj_mesh(level("nav_test.obj"));
  MeshGeometry built = build_navmesh_geometry(level_mesh);
  ASSERT_EQ(built.detail_starts.size(), built.polygons.size() + 1);
  ASSERT_GT(built.detail_triangles.size(), built.polygons.size());
  const NavMesh detailed = NavMesh::build(built);
  ASSERT_TRUE(detailed.has_detail_heights());
  MeshGeometry coarse_geometry = built;
  coarse_geometry.detail_starts.clear();
  coarse_geometry.detail_triangles.clear();
  coarse_geometry.detail_vertices.clear();
  const NavMesh coarse = NavMesh::build(coarse_geometry);
  ASSERT_FALSE(coarse.has_detail_heights());

  // Points at every polygon's centroid and halfway to each corner: how far is each mesh's
  // surface from the level's floor there?
  double detailed_worst = 0.0, coarse_worst = 0.0, detailed_sum = 0.0, coarse_sum = 0.0;
  int samples = 0;
  for (PolygonId p = 0; p < detailed.polygon_count(); ++p) {
    const Point centre = detailed.centroid(p);
    std::vector<Point> points{centre};
    for (const std::uint32_t v : detailed.polygon_vertices(p)) {
      const Point& corner = detailed.vertex(v);
      points.push_back({(centre.x + corner.x) / 2, 0.0, (centre.z + corner.z) / 2});
    }
    for (const Point& xz : points) {
      const double fine = detailed.height_at(p, xz.x, xz.z);
      const double flat = coarse.height_at(p, xz.x, xz.z);
      const auto ground = level_ground(level_mesh, xz.x, xz.z, fine);
      if (!ground) continue;
      detailed_worst = std::max(detailed_worst, std::abs(fine - *ground));
      coarse_worst = std::max(coarse_worst, std::abs(flat - *ground));
      detailed_sum += std::abs(fine - *ground);
      coarse_sum += std::abs(flat - *ground);
      ++samples;
    }
  }
  ASSERT_GT(samples, 500);
  RecordProperty("detail_mean_error", std::to_string(detailed_sum / samples));
  RecordProperty("coarse_mean_error", std::to_string(coarse_sum / samples));
  // Voxel tops sit up to a cell height (0.2) above the level's triangles, 0.1 on average; the
  // detail mesh keeps within its sample error (one cell height) of them. Measured: mean 0.123
  // and worst 0.58 with detail, mean 0.189 without.
  EXPECT_LE(detailed_sum / samples, 0.15);
  EXPECT_LT(detailed_sum, 0.8 * coarse_sum) << "mean error detailed " << detailed_sum / samples << ", coarse "
                                            << coarse_sum / samples;
  EXPECT_LE(detailed_worst, 0.6) << "coarse worst " << coarse_worst;

  // Waypoints: every turn of a path stands on the ground too, and start and goal are located
  // onto it.
  NavMeshQuery query(detailed);
  double waypoint_worst = 0.0;
  int turns = 0;
  // From a polygon of the largest region, to every third polygon of it.
  std::vector<std::size_t> region_sizes(detailed.region_count());
  for (PolygonId p = 0; p < detailed.polygon_count(); ++p) ++region_sizes[detailed.region(p)];
  const auto largest = static_cast<std::uint32_t>(
      std::max_element(region_sizes.begin(), region_sizes.end()) - region_sizes.begin());
  PolygonId origin = 0;
  while (detailed.region(origin) != largest) ++origin;
  for (PolygonId p = 0; p < detailed.polygon_count(); p += 3) {
    if (detailed.region(p) != largest) continue;
    const PathResult path = query.find_path(detailed.centroid(origin), detailed.centroid(p));
    if (!path.found()) continue;
    for (const Point& w : path.points) {
      EXPECT_NEAR(w.y, detailed.locate(w).point.y, 1e-9);
      const auto ground = level_ground(level_mesh, w.x, w.z, w.y);
      if (!ground) continue;
      waypoint_worst = std::max(waypoint_worst, std::abs(w.y - *ground));
      ++turns;
    }
  }
  ASSERT_GT(turns, 100);
  EXPECT_LE(waypoint_worst, 0.6);
}

// A rolling terrain's navmesh written without its detail heights (as an OBJ of polygons is):
// a point on the ground the detail mesh describes locates in its polygon whenever it lies within
// the polygon's vertical reach, its corners' heights widened by the tolerance (Detour's
// findNearestPoly with RecastDemo's half-extents), even where the flat polygon is more than the
// tolerance away from it. (A polygon spanning a hilltop can lie lower than the hill by more than
// that; without its detail heights the mesh cannot know the hill is there.)
TEST(NavMeshBuild, GroundPointsLocateOnTheMeshWithoutItsDetailHeights) {
  MeshGeometry terrain;
  constexpr int cells = 60;
  constexpr double size = 2.0;
  for (int row = 0; row <= cells; ++row)
    for (int column = 0; column <= cells; ++column) {
      const double x = column * size, z = row * size;
      terrain.vertices.push_back({x, 7.0 * std::sin(x / 13.0) * std::cos(z / 17.0) + 2.0 * std::sin(z / 5.0), z});
    }
  for (int row = 0; row < cells; ++row)
    for (int column = 0; column < cells; ++column) {
      const auto at = [](int c, int r) { return static_cast<std::uint32_t>(r * (cells + 1) + c); };
      terrain.polygons.push_back({at(column, row), at(column, row + 1), at(column + 1, row + 1), at(column + 1, row)});
    }
  AgentSettings settings;
  settings.max_slope_degrees = 60.0;
  const MeshGeometry built = build_navmesh_geometry(terrain, settings);
  const NavMesh detailed = NavMesh::build(built);
  MeshGeometry polygons_only = built;
  polygons_only.detail_vertices.clear();
  polygons_only.detail_triangles.clear();
  polygons_only.detail_starts.clear();
  const NavMesh coarse = NavMesh::build(polygons_only);
  ASSERT_EQ(coarse.polygon_count(), detailed.polygon_count());
  const double tolerance = NavMesh::default_height_tolerance;
  std::size_t within_reach = 0, beyond_the_surface_tolerance = 0;
  for (double x = 1.0; x < cells * size; x += 0.7) {
    for (double z = 1.0; z < cells * size; z += 0.9) {
      const MeshLocation ground = detailed.locate({x, 0.0, z}, 1e6);
      if (!ground.valid()) continue;
      double low = INFINITY, high = -INFINITY;
      for (const std::uint32_t vertex : coarse.polygon_vertices(ground.polygon)) {
        low = std::min(low, coarse.vertex(vertex).y);
        high = std::max(high, coarse.vertex(vertex).y);
      }
      if (ground.point.y < low - tolerance || ground.point.y > high + tolerance) continue;
      ++within_reach;
      const MeshLocation located = coarse.locate(ground.point);
      ASSERT_TRUE(located.valid()) << x << ", " << z;
      EXPECT_TRUE(located.polygon == ground.polygon || coarse.contains_xz(located.polygon, x, z));
      if (std::abs(located.point.y - ground.point.y) > tolerance) ++beyond_the_surface_tolerance;
    }
  }
  EXPECT_GT(within_reach, 10000u);
  EXPECT_GT(beyond_the_surface_tolerance, 0u);  // the points the flat surface's tolerance alone refused
  std::cout << within_reach << " ground points within reach, " << beyond_the_surface_tolerance
            << " more than the tolerance off the flat polygons\n";
}

TEST(NavMeshBuild, DetailHeightsAreChecked) {
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {0, 0, 10}, {10, 0, 10}};
  geometry.polygons = {{0, 1, 2}};
  geometry.detail_vertices = {{0, 1, 0}, {0, 1, 10}, {10, 1, 10}};
  geometry.detail_triangles = {{0, 1, 2}};
  geometry.detail_starts = {0, 1};
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_NEAR(mesh.height_at(0, 2, 5), 1.0, 1e-12) << "the detail surface, not the polygon's";
  EXPECT_NEAR(mesh.locate({2, 0.5, 5}).point.y, 1.0, 1e-12);
  for (const auto& [change, words] : std::vector<std::pair<std::function<void(MeshGeometry&)>, std::string>>{
           {[](MeshGeometry& g) { g.detail_starts = {0}; }, "detail_starts has 1"},
           {[](MeshGeometry& g) { g.detail_starts = {0, 2}; }, "run from 0"},
           {[](MeshGeometry& g) { g.detail_triangles[0][2] = 7; }, "detail vertex 7"},
           {[](MeshGeometry& g) { g.detail_vertices[1].y = std::nan(""); }, "not finite"},
           {[](MeshGeometry& g) { g.detail_starts.clear(); }, "without detail_starts"}}) {
    MeshGeometry bad = geometry;
    change(bad);
    try {
      (void)NavMesh::build(bad);
      ADD_FAILURE() << "no error for " << words;
    } catch (const LoadError& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  }
}

// Cuts the mesh's wall edges that lie on tile border lines, and reports any such wall with
// walkable ground of the same floor right across it: a T-junction the stitching missed.
std::size_t unstitched_border_walls(const NavMesh& mesh, const AgentSettings& settings, const MeshGeometry& level) {
  const double origin_x = [&] {
    double m = std::numeric_limits<double>::infinity();
    for (const Point& v : level.vertices) m = std::min(m, static_cast<double>(static_cast<float>(v.x)));
    return m;
  }();
  const double origin_z = [&] {
    double m = std::numeric_limits<double>::infinity();
    for (const Point& v : level.vertices) m = std::min(m, static_cast<double>(static_cast<float>(v.z)));
    return m;
  }();
  const double tile_width = settings.tile_size * settings.cell_size;
  const auto on_border = [&](double coordinate, double origin) {
    const double k = (coordinate - origin) / tile_width;
    return std::abs(k - std::round(k)) < 1e-4;
  };
  std::size_t bad = 0;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto vertices = mesh.polygon_vertices(p);
    const auto neighbours = mesh.polygon_neighbours(p);
    for (std::size_t j = 0; j < vertices.size(); ++j) {
      if (neighbours[j] != invalid_polygon) continue;
      const Point& a = mesh.vertex(vertices[j]);
      const Point& b = mesh.vertex(vertices[(j + 1) % vertices.size()]);
      const bool along_x_line = std::abs(a.x - b.x) < 1e-6 && on_border(a.x, origin_x);
      const bool along_z_line = std::abs(a.z - b.z) < 1e-6 && on_border(a.z, origin_z);
      if (!along_x_line && !along_z_line) continue;
      // Just outside the edge's middle (polygons run counter-clockwise: outside is to the right).
      const double mx = (a.x + b.x) / 2, mz = (a.z + b.z) / 2;
      const double ex = b.x - a.x, ez = b.z - a.z, length = std::hypot(ex, ez);
      const Point outside{mx + 0.05 * ez / length, (a.y + b.y) / 2, mz - 0.05 * ex / length};
      const MeshLocation across = mesh.locate(outside, settings.max_climb);
      if (across.valid()) ++bad;
    }
  }
  return bad;
}

TEST(NavMeshBuild, TiledBuildsStitchIntoOneMesh) {
  SKIP_WITHOUT(level("nav_test.obj"));
  for (const char* name : {"nav_test.obj", "dungeon.obj"}) {
    const MeshGeometry level_mesh = read_obj_mesh(level(name));
    const NavMesh solo = NavMesh::build(build_navmesh_geometry(level_mesh));
    for (const int tile_size : {16, 32, 48}) {
      SCOPED_TRACE(std::string(name) + " tile size " + std::to_string(tile_size));
      AgentSettings settings;
      settings.tile_size = tile_size;
      NavMeshBuildReport report;
      const MeshGeometry built = build_navmesh_geometry(level_mesh, settings, &report);
      EXPECT_GT(report.tiles, 4);
      const NavMesh tiled = NavMesh::build(built);
      for (const MeshProblem& problem : tiled.problems())
        EXPECT_NE(problem.kind, MeshProblem::Kind::non_manifold_edge) << problem.message;
      EXPECT_EQ(unstitched_border_walls(tiled, settings, level_mesh), 0u);
      // Recast keeps regions smaller than region_min_size when they touch a tile's border (they
      // may continue in the next tile), so a tiled mesh can have a few more specks than a solo
      // one; what matters is that the tiles connect, which the queries below check.
      EXPECT_GE(tiled.region_count(), solo.region_count());

      // The same reachability and nearly the same lengths as the solo mesh.
      NavMeshQuery solo_query(solo), tiled_query(tiled);
      int compared = 0, reachable = 0;
      double ratio_sum = 0.0, worst_ratio = 1.0;
      for (PolygonId from = 0; from < solo.polygon_count(); from += 5) {
        for (PolygonId to = 1; to < solo.polygon_count(); to += 7) {
          const Point start = solo.centroid(from), goal = solo.centroid(to);
          if (!tiled.locate(start, 0.5).valid() || !tiled.locate(goal, 0.5).valid()) continue;
          const PathResult a = solo_query.find_path(start, goal);
          const PathResult b = tiled_query.find_path(start, goal);
          ++compared;
          ASSERT_EQ(a.found(), b.found()) << "from polygon " << from << " to " << to << ": " << b.message;
          if (!a.found() || a.cost < 1.0) continue;
          ++reachable;
          const double ratio = b.cost / a.cost;
          ratio_sum += ratio;
          worst_ratio = std::max(worst_ratio, std::max(ratio, 1.0 / ratio));
        }
      }
      EXPECT_GT(compared, 200);
      EXPECT_GT(reachable, 50);
      // The tiles' polygons differ from the solo mesh's, and so do the corridors searched on
      // them: lengths agree on average within 1 % and each within 10 % (measured: mean within
      // 0.3 %, worst 6.4 %, nav_test at tile size 48).
      EXPECT_NEAR(ratio_sum / reachable, 1.0, 0.01);
      EXPECT_LE(worst_ratio, 1.10);
      RecordProperty("mean_ratio_" + std::to_string(tile_size), std::to_string(ratio_sum / reachable));
      RecordProperty("worst_ratio_" + std::to_string(tile_size), std::to_string(worst_ratio));
    }
  }
}

TEST(NavMeshBuild, TileBordersAreSplitWhereTheTileAcrossHasAVertex) {
  // Tile size 8: one square on the left of x = 8, two on the right, meeting it at (8, 4): a
  // T-junction. A vertex of another floor on the line (y 40) is not taken.
  std::vector<VoxelCorner> corners = {{0, 0, 0}, {0, 0, 8}, {8, 0, 8}, {8, 0, 0},   // left square
                                      {8, 0, 4}, {16, 0, 0}, {16, 0, 4}, {16, 0, 8},  // right halves
                                      {8, 40, 6}};                                    // upstairs
  std::vector<std::vector<std::uint32_t>> polygons = {{0, 1, 2, 3}, {3, 4, 6, 5}, {4, 2, 7, 6}};
  EXPECT_EQ(split_edges_at_border_vertices(polygons, corners, 8, 4), 1u);
  EXPECT_EQ(polygons[0], (std::vector<std::uint32_t>{0, 1, 2, 4, 3})) << "the edge from 2 down to 3 gets 4";
  EXPECT_EQ(polygons[1].size(), 4u);
  // As a navmesh, the three squares are one connected piece.
  MeshGeometry geometry;
  for (const auto& c : corners) geometry.vertices.push_back({double(c[0]), double(c[1]), double(c[2])});
  geometry.polygons = polygons;
  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_EQ(mesh.region_count(), 1u);
  EXPECT_EQ(mesh.shared_edge_count(), 3u);
  std::vector<std::vector<std::uint32_t>> unsplit = {{0, 1, 2, 3}, {3, 4, 6, 5}, {4, 2, 7, 6}};
  MeshGeometry with_junction = geometry;
  with_junction.polygons = unsplit;
  EXPECT_EQ(NavMesh::build(with_junction).region_count(), 2u)
      << "without the split, the T-junction is a wall";
  EXPECT_EQ(split_edges_at_border_vertices(unsplit, corners, 0, 4), 0u) << "no tiles, nothing to split";
}

TEST(NavMeshBuild, AreasComeFromTheLevelsMaterials) {
  // A 30 x 10 floor in three strips: road, water (area 5, flag "swim"), road.
  MeshGeometry level_mesh;
  for (int strip = 0; strip < 3; ++strip) {
    const auto first = static_cast<std::uint32_t>(level_mesh.vertices.size());
    const double x0 = strip * 10.0, x1 = x0 + 10.0;
    level_mesh.vertices.insert(level_mesh.vertices.end(), {{x0, 0, 0}, {x0, 0, 10}, {x1, 0, 10}, {x1, 0, 0}});
    level_mesh.polygons.push_back({first, first + 1, first + 2, first + 3});
    level_mesh.polygon_areas.push_back(strip == 1 ? 5 : 2);
    level_mesh.polygon_flags.push_back(strip == 1 ? 0x4 : 0x1);
  }
  const NavMesh mesh = NavMesh::build(build_navmesh_geometry(level_mesh));
  EXPECT_EQ(mesh.areas_in_use(), (std::uint64_t{1} << 2) | (std::uint64_t{1} << 5));
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const Point c = mesh.centroid(p);
    const bool water = c.x > 10.0 && c.x < 20.0;
    EXPECT_EQ(mesh.area(p), water ? 5 : 2) << "polygon " << p << " at x " << c.x;
    EXPECT_EQ(mesh.flags(p), water ? 0x4 : 0x1);
  }
  NavMeshQuery query(mesh);
  EXPECT_TRUE(query.find_path({2, 0, 5}, {28, 0, 5}).found());
  NavMeshSearchOptions no_swimming;
  no_swimming.filter = AreaFilter{};
  no_swimming.filter->exclude_flags = 0x4;
  EXPECT_EQ(query.find_path({2, 0, 5}, {28, 0, 5}, no_swimming).status, SearchStatus::no_path);

  // From an OBJ's material names.
  const auto path = std::filesystem::temp_directory_path() / "wayfinder_build_areas.obj";
  {
    std::ofstream obj(path);
    obj << "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nv 20 0 10\nv 20 0 0\n"
           "usemtl road\nf 1 2 3 4\nusemtl water\nf 4 3 5 6\n";
  }
  ObjReadOptions options;
  options.areas = {{"water", {7, 0}}};
  const NavMesh from_obj = NavMesh::build(build_navmesh_geometry(read_obj_mesh(path, options)));
  std::filesystem::remove(path);
  EXPECT_EQ(from_obj.areas_in_use(), (std::uint64_t{1} << 0) | (std::uint64_t{1} << 7));
}

}  // namespace
}  // namespace wayfinder

namespace wayfinder {
namespace {

TEST(LevelGeometryCheck, LevelsAreToldFromNavigationMeshes) {
  SKIP_WITHOUT(level("dungeon.obj"));
  for (const char* raw : {"dungeon.obj", "nav_test.obj"}) {
    const auto warning = level_geometry_warning(read_obj_mesh(level(raw)));
    ASSERT_TRUE(warning.has_value()) << raw;
    EXPECT_NE(warning->find("mesh build"), std::string::npos) << *warning;
  }
  for (const char* mesh : {"dungeon_navmesh.obj", "nav_test_navmesh.obj"})
    EXPECT_FALSE(level_geometry_warning(read_obj_mesh(detour_mesh(mesh))).has_value()) << mesh;
  EXPECT_FALSE(level_geometry_warning(build_navmesh_geometry(read_obj_mesh(level("dungeon.obj")))).has_value());

  // A floor wound both ways is still a navmesh (NavMesh::build repairs the winding).
  MeshGeometry floor;
  floor.vertices = {{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}, {20, 0, 10}, {20, 0, 0}};
  floor.polygons = {{0, 1, 2, 3}, {3, 2, 4, 5}};
  std::reverse(floor.polygons[1].begin(), floor.polygons[1].end());
  const LevelGeometrySigns signs = measure_level_geometry_signs(floor);
  EXPECT_NEAR(signs.flipped_share, 0.5, 1e-12);
  EXPECT_EQ(signs.steep_share, 0.0);
  EXPECT_FALSE(level_geometry_warning(floor).has_value());
}

TEST(LevelGeometryCheck, BuiltNavMeshesMeasureAsNavMeshes) {
  SKIP_WITHOUT(level("dungeon.obj"));
  // Without the mark a built mesh carries, its geometry alone says navmesh (one piece or tiles).
  for (const char* raw : {"dungeon.obj", "nav_test.obj"}) {
    for (const int tile_size : {0, 32}) {
      AgentSettings settings;
      settings.tile_size = tile_size;
      MeshGeometry built = build_navmesh_geometry(read_obj_mesh(level(raw)), settings);
      EXPECT_TRUE(built.declared_navmesh);
      built.declared_navmesh = false;
      const MeshGeometryVerdict verdict = classify_mesh_geometry(built);
      EXPECT_EQ(verdict.kind, MeshGeometryKind::navmesh) << raw << " tiles " << tile_size << ": " << verdict.reason;
    }
  }
}

}  // namespace
}  // namespace wayfinder
