// Telling a level's geometry from a navigation mesh (level_geometry_check.hpp): every level of
// the shared data reads as a level, every navmesh (Detour's polygon meshes, Polyanya's meshes)
// as a navmesh; a terrain with rocks on it is a level; Wayfinder's own navmeshes say so.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_environment.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;

// The files under `folder` (recursively) whose names end in `extension`, sorted.
std::vector<std::filesystem::path> files_in(const std::filesystem::path& folder, const std::string& extension) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

#define SKIP_WITHOUT_DATA(files, folder)                                                        \
  do {                                                                                          \
    if ((files).empty()) {                                                                      \
      if (testing::data_required()) FAIL() << "no test data in " << (folder);                   \
      GTEST_SKIP() << "no test data in " << (folder);                                           \
    }                                                                                           \
  } while (false)

TEST(LevelOrNavMesh, EveryLevelOfTheDataReadsAsALevel) {
  const auto folder = data_directory() / "meshes" / "recastnavigation";
  const auto levels = files_in(folder, ".obj");
  SKIP_WITHOUT_DATA(levels, folder);
  for (const auto& file : levels) {
    const MeshGeometryVerdict verdict = classify_mesh_geometry(read_obj_mesh(file));
    EXPECT_EQ(verdict.kind, MeshGeometryKind::level) << file;
    EXPECT_FALSE(verdict.reason.empty()) << file;
  }
}

TEST(LevelOrNavMesh, EveryNavMeshOfTheDataReadsAsANavMesh) {
  const auto derived = data_directory() / "meshes" / "derived";
  const auto objs = files_in(derived, ".obj");
  SKIP_WITHOUT_DATA(objs, derived);
  for (const auto& file : objs) {
    const MeshGeometryVerdict verdict = classify_mesh_geometry(read_obj_mesh(file));
    EXPECT_EQ(verdict.kind, MeshGeometryKind::navmesh) << file << ": " << verdict.reason;
    EXPECT_FALSE(verdict.declared) << file;  // measured, not told
  }
  // Polyanya meshes declare themselves; their signs say the same.
  std::vector<std::filesystem::path> meshes = files_in(derived, ".mesh");
  const auto polyanya = files_in(data_directory() / "meshes" / "polyanya" / "meshes", ".mesh");
  meshes.insert(meshes.end(), polyanya.begin(), polyanya.end());
  for (const auto& file : meshes) {
    MeshGeometry geometry = read_polyanya_mesh(file);
    EXPECT_EQ(classify_mesh_geometry(geometry).kind, MeshGeometryKind::navmesh) << file;
    geometry.declared_navmesh = false;
    const MeshGeometryVerdict measured = classify_mesh_geometry(geometry);
    EXPECT_EQ(measured.kind, MeshGeometryKind::navmesh) << file << ": " << measured.reason;
  }
}

// A rolling terrain (a height field of quads) with squat box-shaped rocks sitting on it: few
// steep faces, no ceilings, so only the closed solids and the rock tops stacked over the
// terrain give it away.
MeshGeometry terrain_with_rocks() {
  MeshGeometry geometry;
  constexpr int cells = 40;
  constexpr double size = 2.0;
  const auto ground = [](double x, double z) { return 2.0 * std::sin(x / 8.0) * std::cos(z / 8.0); };
  for (int row = 0; row <= cells; ++row)
    for (int column = 0; column <= cells; ++column)
      geometry.vertices.push_back({column * size, ground(column * size, row * size), row * size});
  const auto at = [](int column, int row) { return static_cast<std::uint32_t>(row * (cells + 1) + column); };
  for (int row = 0; row < cells; ++row)
    for (int column = 0; column < cells; ++column)
      geometry.polygons.push_back({at(column, row), at(column, row + 1), at(column + 1, row + 1), at(column + 1, row)});
  for (int rock = 0; rock < 10; ++rock) {
    const double x = 6.0 + 7.0 * rock, z = 10.0 + 6.0 * (rock % 5), half = 3.0;
    const double base = ground(x, z) - 0.5, top = ground(x, z) + 1.0;
    const auto first = static_cast<std::uint32_t>(geometry.vertices.size());
    for (const double y : {base, top})
      for (const auto& [dx, dz] : {std::pair{-half, -half}, {-half, half}, {half, half}, {half, -half}})
        geometry.vertices.push_back({x + dx, y, z + dz});
    const auto v = [first](std::uint32_t i) { return first + i; };
    geometry.polygons.push_back({v(4), v(5), v(6), v(7)});  // top, facing up
    geometry.polygons.push_back({v(3), v(2), v(1), v(0)});  // bottom, facing down
    for (std::uint32_t side = 0; side < 4; ++side)
      geometry.polygons.push_back({v(side), v((side + 1) % 4), v(4 + (side + 1) % 4), v(4 + side)});
  }
  geometry.source = "terrain with rocks";
  return geometry;
}

TEST(LevelOrNavMesh, ATerrainWithRocksIsALevel) {
  const MeshGeometry level = terrain_with_rocks();
  const MeshGeometryVerdict verdict = classify_mesh_geometry(level);
  EXPECT_LT(verdict.signs.steep_share, 0.05);  // the walls alone would not tell
  EXPECT_LT(verdict.signs.flipped_share, 0.10);
  EXPECT_GT(verdict.signs.closed_share, 0.02);
  EXPECT_GT(verdict.signs.stacked_share, 0.01);
  EXPECT_EQ(verdict.kind, MeshGeometryKind::level);
  EXPECT_NE(verdict.reason.find("closed solids"), std::string::npos) << verdict.reason;
  const auto warning = level_geometry_warning(level);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("mesh build"), std::string::npos) << *warning;

  // The rocks split into one OBJ vertex per face corner (as exporters write them) are still closed.
  MeshGeometry split = level;
  split.vertices.clear();
  for (auto& polygon : split.polygons)
    for (std::uint32_t& index : polygon) {
      split.vertices.push_back(level.vertices[index]);
      index = static_cast<std::uint32_t>(split.vertices.size() - 1);
    }
  EXPECT_NEAR(classify_mesh_geometry(split).signs.closed_share, verdict.signs.closed_share, 1e-12);
}

TEST(LevelOrNavMesh, FloorsAnAgentHeightApartAreANavMeshCloserOnesALevel) {
  // Two square floors, one above the other, open at their borders.
  const auto two_floors = [](double gap) {
    MeshGeometry geometry;
    for (const double y : {0.0, gap})
      for (const auto& [x, z] : {std::pair{0.0, 0.0}, {0.0, 10.0}, {10.0, 10.0}, {10.0, 0.0}})
        geometry.vertices.push_back({x, y, z});
    geometry.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7}};
    return geometry;
  };
  EXPECT_EQ(classify_mesh_geometry(two_floors(2.5)).kind, MeshGeometryKind::navmesh);
  const MeshGeometryVerdict close = classify_mesh_geometry(two_floors(1.5));
  EXPECT_EQ(close.kind, MeshGeometryKind::level);
  EXPECT_NEAR(close.signs.stacked_share, 0.5, 1e-12);
  EXPECT_NE(close.reason.find("under another surface"), std::string::npos) << close.reason;
  // For a shorter agent, 1.5 apart are two floors.
  EXPECT_EQ(classify_mesh_geometry(two_floors(1.5), {.agent_height = 1.2}).kind, MeshGeometryKind::navmesh);
}

TEST(LevelOrNavMesh, ANavMeshWrittenByWayfinderSaysSo) {
  MeshGeometry level = terrain_with_rocks();
  // A level written as OBJ stays a level.
  std::ostringstream plain;
  write_obj_mesh(level, plain);
  EXPECT_FALSE(plain.str().starts_with(obj_navmesh_marker));
  EXPECT_EQ(classify_mesh_geometry(parse_obj_mesh(plain.str(), "plain.obj")).kind, MeshGeometryKind::level);
  // Marked as a navmesh (as built or baked meshes are), the reader trusts the file.
  level.declared_navmesh = true;
  std::ostringstream marked;
  write_obj_mesh(level, marked);
  EXPECT_TRUE(marked.str().starts_with(obj_navmesh_marker)) << marked.str().substr(0, 80);
  const MeshGeometry read = parse_obj_mesh(marked.str(), "marked.obj");
  EXPECT_TRUE(read.declared_navmesh);
  const MeshGeometryVerdict verdict = classify_mesh_geometry(read);
  EXPECT_EQ(verdict.kind, MeshGeometryKind::navmesh);
  EXPECT_TRUE(verdict.declared);
  // The marker counts on the first line only.
  EXPECT_FALSE(parse_obj_mesh("v 0 0 0\n" + marked.str(), "late.obj").declared_navmesh);
}

}  // namespace
}  // namespace wayfinder
