// Proof on real navigation meshes (<data>/meshes, see its SOURCES.md): every query of the
// reference sets is answered and checked against the true shortest length that Polyanya
// computed (Cui, Harabor & Grastien 2017): the same reachability, never shorter than the
// optimum (which would mean the path left the mesh), at most 6% longer at the 99th percentile,
// and the start and goal located in the polygons the file names (or ones equally valid there).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "test_environment.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder {
namespace {

using wayfinder::testing::data_directory;
using wayfinder::testing::data_required;
using wayfinder::testing::sanitized_build;

struct MeshDataCase {
  std::string name;
  std::string mesh;     ///< relative to <data>/meshes
  std::string queries;  ///< relative to <data>/meshes
  /// Locate the end points ourselves (true), or start from the polygons the file names (for a
  /// 2D projection of a multi-level mesh, where a point seen from above lies on several floors).
  bool locate = true;
  double p99_limit = 1.06;
};

void PrintTo(const MeshDataCase& data, std::ostream* out) { *out << data.name; }

const MeshDataCase mesh_cases[] = {
    {"nav_test_obj", "derived/nav_test_navmesh.obj", "derived/nav_test_reference_queries.csv"},
    {"dungeon_obj", "derived/dungeon_navmesh.obj", "derived/dungeon_reference_queries.csv"},
    {"nav_test_mesh2d", "derived/nav_test_navmesh.mesh", "derived/nav_test_reference_queries.csv", false},
    // dungeon overlaps itself in projection too (query 97 starts where two floors lie one above
    // the other), so its 2D file also starts from the named polygons.
    {"dungeon_mesh2d", "derived/dungeon_navmesh.mesh", "derived/dungeon_reference_queries.csv", false},
    {"arena_cdt", "polyanya/meshes/arena.mesh", "derived/arena_polyanya_optimal.csv"},
    {"arena_merged", "polyanya/meshes/arena-merged.mesh", "derived/arena_polyanya_optimal.csv"},
    {"arena_merged6", "derived/arena-merged6.mesh", "derived/arena_polyanya_optimal.csv"},
    {"aurora_cdt", "polyanya/meshes/aurora.mesh", "derived/aurora_polyanya_optimal.csv"},
    {"aurora_merged", "polyanya/meshes/aurora-merged.mesh", "derived/aurora_polyanya_optimal.csv"},
    {"aurora_merged6", "derived/aurora-merged6.mesh", "derived/aurora_polyanya_optimal.csv"},
};

NavMesh load_mesh(const std::filesystem::path& path) {
  const MeshGeometry geometry =
      path.extension() == ".obj" ? read_obj_mesh(path) : read_polyanya_mesh(path);
  return NavMesh::build(geometry);
}

// The 2D files (the 2D projections and Polyanya's meshes) lie in the x-z plane at y = 0; their
// queries must be flattened the same way.
Point as_loaded(const Point& p, const std::filesystem::path& mesh_path) {
  return mesh_path.extension() == ".mesh" ? Point{p.x, 0.0, p.z} : p;
}

// True if the polygon the file names holds the point as well as the one located: a point on a
// shared edge or corner belongs to all the polygons around it.
bool equally_valid(const NavMesh& mesh, std::int64_t expected, const MeshLocation& located) {
  if (expected < 0 || static_cast<std::size_t>(expected) >= mesh.polygon_count()) return false;
  const auto polygon = static_cast<PolygonId>(expected);
  if (!mesh.contains_xz(polygon, located.point.x, located.point.z)) return false;
  return std::abs(mesh.height_at(polygon, located.point.x, located.point.z) - located.point.y) <=
         NavMesh::default_height_tolerance;
}

class MeshData : public ::testing::TestWithParam<MeshDataCase> {};

TEST_P(MeshData, AgreesWithTheOptimalLengths) {
  const MeshDataCase& data = GetParam();
  const std::filesystem::path root = data_directory() / "meshes";
  const std::filesystem::path mesh_path = root / data.mesh, queries_path = root / data.queries;
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (data_required()) FAIL() << "missing " << mesh_path << " or " << queries_path;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  const NavMesh mesh = load_mesh(mesh_path);
  const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
  ASSERT_FALSE(queries.empty());
  // Polygon ids in the files are the input polygons; the meshes here need no repairs, so they
  // are also Wayfinder's.
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) ASSERT_EQ(mesh.source_polygon(p), p);

  const std::size_t stride = sanitized_build() ? 20 : 1;
  NavMeshQuery query(mesh);
  std::vector<double> ratios;
  std::size_t checked = 0, reachable = 0, location_mismatches = 0;
  for (std::size_t i = 0; i < queries.size(); i += stride) {
    const MeshQueryCase& q = queries[i];
    SCOPED_TRACE(queries_path.filename().string() + ":" + std::to_string(q.line));
    const Point start = as_loaded(q.start, mesh_path), goal = as_loaded(q.goal, mesh_path);
    PathResult result;
    if (data.locate) {
      const MeshLocation start_location = mesh.locate(start), goal_location = mesh.locate(goal);
      ASSERT_TRUE(start_location.valid() && goal_location.valid()) << "end point not on the mesh";
      if (q.start_polygon >= 0 && start_location.polygon != q.start_polygon &&
          !equally_valid(mesh, q.start_polygon, start_location))
        ++location_mismatches;
      if (q.goal_polygon >= 0 && goal_location.polygon != q.goal_polygon &&
          !equally_valid(mesh, q.goal_polygon, goal_location))
        ++location_mismatches;
      result = query.find_path(start, goal);
    } else {
      // Multi-level mesh flattened to 2D: start from the polygons the file names, then pull
      // the string through the corridor as find_path does.
      ASSERT_GE(q.start_polygon, 0);
      ASSERT_GE(q.goal_polygon, 0);
      const MeshLocation start_location{static_cast<PolygonId>(q.start_polygon), start};
      const MeshLocation goal_location{static_cast<PolygonId>(q.goal_polygon), goal};
      result = query.find_corridor(start_location, goal_location);
      if (result.found()) result.points = funnel_path(start, goal, corridor_portals(mesh, result.nodes));
    }
    ++checked;
    const bool expected_reachable = q.reachable.value_or(!(q.optimal_length < 0.0));
    ASSERT_EQ(result.found(), expected_reachable) << to_string(result.status) << " " << result.message;
    if (!result.found()) {
      EXPECT_EQ(result.status, SearchStatus::no_path);
      continue;
    }
    ++reachable;
    ASSERT_GE(result.points.size(), 2u);
    EXPECT_EQ(result.points.front().x, start.x);
    EXPECT_EQ(result.points.front().z, start.z);
    EXPECT_EQ(result.points.back().x, goal.x);
    EXPECT_EQ(result.points.back().z, goal.z);
    const double length = geometry::polyline_length_xz(result.points);
    if (std::isnan(q.optimal_length)) continue;
    ASSERT_GE(length, q.optimal_length - 1e-4 - 1e-9 * q.optimal_length) << "shorter than the optimum";
    if (q.optimal_length > 0.0) ratios.push_back(length / q.optimal_length);
  }
  EXPECT_EQ(location_mismatches, 0u);
  ASSERT_FALSE(ratios.empty());
  std::sort(ratios.begin(), ratios.end());
  double mean = 0.0;
  for (double ratio : ratios) mean += ratio;
  mean /= static_cast<double>(ratios.size());
  const double p99 = ratios[std::min(ratios.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(ratios.size())))];
  std::cout << data.name << ": " << checked << " queries, " << reachable << " reachable, length / optimal mean "
            << mean << " p99 " << p99 << " max " << ratios.back() << "\n";
  RecordProperty("mean_ratio", std::to_string(mean));
  RecordProperty("p99_ratio", std::to_string(p99));
  RecordProperty("max_ratio", std::to_string(ratios.back()));
  if (stride == 1) {
    EXPECT_LE(p99, data.p99_limit);
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, MeshData, ::testing::ValuesIn(mesh_cases),
                         [](const ::testing::TestParamInfo<MeshDataCase>& param) { return param.param.name; });

// Detour's polygon meshes come without their detail heights, and Detour's random points lie on
// the detail surface, up to about 2.5 units off the flat polygons. As Detour's findNearestPoly,
// a point over a polygon within the polygon's vertical reach (its heights widened by the
// tolerance) locates on it: every end point of the reference sets locates, in the polygon
// the file names or one equally valid there, with the default reach and with a narrow one
// (with a tolerance of 1 from the flat polygon's surface, 1,188 of nav_test's 20,000 points and
// 140 of dungeon's were rejected).
TEST(MeshDataPointLocation, ReferencePointsLocateWithinTheirPolygonsReach) {
  const std::filesystem::path root = data_directory() / "meshes" / "derived";
  for (const char* name : {"nav_test", "dungeon"}) {
    const std::filesystem::path mesh_path = root / (std::string(name) + "_navmesh.obj");
    const std::filesystem::path queries_path = root / (std::string(name) + "_reference_queries.csv");
    if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
      if (data_required()) FAIL() << "missing " << mesh_path << " or " << queries_path;
      GTEST_SKIP() << "no mesh data at " << root;
    }
    const NavMesh mesh = NavMesh::build(read_obj_mesh(mesh_path));
    ASSERT_FALSE(mesh.has_detail_heights());
    const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
    for (const double tolerance : {NavMesh::default_height_tolerance, 1.0}) {
      std::size_t located = 0, in_named_polygon = 0, points = 0;
      for (const MeshQueryCase& q : queries) {
        for (const auto& [point, named] : {std::pair{q.start, q.start_polygon}, std::pair{q.goal, q.goal_polygon}}) {
          ++points;
          const MeshLocation location = mesh.locate(point, tolerance);
          if (!location.valid()) continue;
          ++located;
          if (location.polygon == named ||
              mesh.contains_xz(static_cast<PolygonId>(named), location.point.x, location.point.z))
            ++in_named_polygon;
        }
      }
      std::cout << name << " tolerance " << tolerance << ": " << located << " of " << points << " located, "
                << in_named_polygon << " in the named polygon\n";
      EXPECT_EQ(located, points) << name << " tolerance " << tolerance;
      EXPECT_EQ(in_named_polygon, points) << name << " tolerance " << tolerance;
    }
  }
}

// nav_test moved far from the origin (1e8 and 1e9 in x, y and z): the same polygons and
// regions, and every query answered as before, with the same x-z length up to the coarser
// rounding there (a coordinate near 1e9 is only known to about 1e-7). Areas, orientations and
// the point-in-polygon margin are computed relative to the polygons' own vertices for this.
TEST(MeshDataFarFromTheOrigin, NavTestShiftedAnswersAsBefore) {
  const std::filesystem::path root = data_directory() / "meshes" / "derived";
  const std::filesystem::path mesh_path = root / "nav_test_navmesh.obj", queries_path = root / "nav_test_reference_queries.csv";
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (data_required()) FAIL() << "missing " << mesh_path << " or " << queries_path;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  const MeshGeometry geometry = read_obj_mesh(mesh_path);
  const NavMesh near = NavMesh::build(geometry);
  const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
  const std::size_t stride = sanitized_build() ? 20 : 1;
  NavMeshQuery near_query(near);
  for (const double offset : {1e8, 1e9}) {
    SCOPED_TRACE("shifted by " + std::to_string(offset));
    MeshGeometry moved = geometry;
    for (Point& p : moved.vertices) p = {p.x + offset, p.y + offset, p.z + offset};
    const NavMesh far = NavMesh::build(moved);
    ASSERT_EQ(far.polygon_count(), near.polygon_count());
    EXPECT_EQ(far.shared_edge_count(), near.shared_edge_count());
    EXPECT_EQ(far.region_count(), near.region_count());
    EXPECT_EQ(far.problems().size(), near.problems().size());
    NavMeshQuery far_query(far);
    std::size_t found = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < queries.size(); i += stride) {
      const MeshQueryCase& q = queries[i];
      SCOPED_TRACE(queries_path.filename().string() + ":" + std::to_string(q.line));
      const PathResult expected = near_query.find_path(q.start, q.goal);
      const PathResult result = far_query.find_path({q.start.x + offset, q.start.y + offset, q.start.z + offset},
                                                    {q.goal.x + offset, q.goal.y + offset, q.goal.z + offset});
      ASSERT_EQ(result.status, expected.status) << result.message;
      if (!expected.found()) continue;
      ++found;
      const double difference = std::abs(geometry::polyline_length_xz(result.points) - geometry::polyline_length_xz(expected.points));
      worst = std::max(worst, difference);
      EXPECT_LE(difference, 1e-5 * std::max(1.0, geometry::polyline_length_xz(expected.points)));
    }
    EXPECT_GT(found, 0u);
    std::cout << "nav_test shifted by " << offset << ": " << found << " paths, largest length difference " << worst
              << "\n";
  }
}

// Polyanya's tiny edge-case meshes (collinear vertices, ambiguous corners): they load, and every
// query of their scenarios gets an answer without error; where the scenario's last column is a
// real length (the square), it is matched.
TEST(MeshDataEdgeCases, PolyanyaTestMeshesAnswerEveryQuery) {
  const std::filesystem::path root = data_directory() / "meshes" / "polyanya";
  if (!std::filesystem::exists(root / "meshes" / "tests")) {
    if (data_required()) FAIL() << "missing " << root;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  std::size_t meshes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root / "meshes" / "tests")) {
    const NavMesh mesh = load_mesh(entry.path());
    ++meshes;
    const std::filesystem::path scenario = root / "scenarios" / "test" / (entry.path().stem().string() + ".scen");
    if (!std::filesystem::exists(scenario)) continue;
    NavMeshQuery query(mesh);
    for (const MeshQueryCase& q : read_mesh_queries(scenario)) {
      SCOPED_TRACE(scenario.filename().string() + ":" + std::to_string(q.line));
      const PathResult result = query.find_path(q.start, q.goal);
      EXPECT_TRUE(result.status == SearchStatus::found || result.status == SearchStatus::no_path)
          << to_string(result.status) << " " << result.message;
      if (result.found()) {
        EXPECT_GE(geometry::polyline_length_xz(result.points) + 1e-12, std::hypot(q.goal.x - q.start.x, q.goal.z - q.start.z));
      }
      if (entry.path().stem() == "square") {
        ASSERT_TRUE(result.found());
        EXPECT_NEAR(geometry::polyline_length_xz(result.points), std::sqrt(0.5), 1e-12);
      }
    }
  }
  EXPECT_GE(meshes, 5u);
}

}  // namespace
}  // namespace wayfinder
