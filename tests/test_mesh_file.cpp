// Mesh files told apart by their extension and read (tools/common/mesh_file.hpp): what the
// command, the viewer's catalog and the mesh build share.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/mesh_file.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"

namespace wayfinder {
namespace {

// Two unit squares side by side, y up.
MeshGeometry two_squares() {
  MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 1}, {0, 0, 1}};
  geometry.polygons = {{0, 1, 4, 5}, {1, 2, 3, 4}};
  return geometry;
}

std::filesystem::path scratch_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("wayfinder_mesh_file_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" + name);
}

TEST(MeshFile, FormatsByExtension) {
  EXPECT_EQ(mesh_file_format_of("level.obj"), MeshFileFormat::obj);
  EXPECT_EQ(mesh_file_format_of("dir/LEVEL.OBJ"), MeshFileFormat::obj);
  EXPECT_EQ(mesh_file_format_of("arena.mesh"), MeshFileFormat::polyanya);
  EXPECT_EQ(mesh_file_format_of("baked.wfnav"), MeshFileFormat::baked);
  EXPECT_EQ(mesh_file_format_of("world.vox"), std::nullopt);
  EXPECT_EQ(mesh_file_format_of("arena.map"), std::nullopt);
  EXPECT_EQ(mesh_file_format_of("no_extension"), std::nullopt);
  EXPECT_EQ(mesh_file_format("baked.wfnav"), MeshFileFormat::baked);
  EXPECT_EQ(to_string(MeshFileFormat::obj), "obj");
  EXPECT_EQ(to_string(MeshFileFormat::polyanya), "mesh");
  EXPECT_EQ(to_string(MeshFileFormat::baked), "wfnav");
}

TEST(MeshFile, AnOtherExtensionIsALoadErrorNamingTheFormats) {
  for (const char* name : {"notes.txt", "no_extension"}) {
    try {
      (void)mesh_file_format(name);
      FAIL() << name << " was taken for a mesh file";
    } catch (const LoadError& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_NE(what.find(".obj"), std::string::npos) << what;
      EXPECT_NE(what.find(".mesh"), std::string::npos) << what;
      EXPECT_NE(what.find(".wfnav"), std::string::npos) << what;
    }
    EXPECT_THROW((void)read_mesh_file_geometry(name), LoadError);
  }
}

TEST(MeshFile, ReadsAnObjWithItsUpAxisAndABakedFile) {
  const MeshGeometry geometry = two_squares();
  const std::filesystem::path obj = scratch_file("squares.obj");
  write_obj_mesh(geometry, obj);
  const MeshGeometry y_up = read_mesh_file_geometry(obj);
  ASSERT_EQ(y_up.vertices.size(), geometry.vertices.size());
  ASSERT_EQ(y_up.polygons.size(), geometry.polygons.size());
  EXPECT_EQ(y_up.vertices[3].x, 2.0);
  EXPECT_EQ(y_up.vertices[3].z, 1.0);
  // z up: the file's (x, y, z) is the world's (x, z, -y).
  const MeshGeometry z_up = read_mesh_file_geometry(obj, UpAxis::z);
  ASSERT_EQ(z_up.vertices.size(), geometry.vertices.size());
  EXPECT_EQ(z_up.vertices[3].y, 1.0);
  EXPECT_EQ(z_up.vertices[3].z, 0.0);

  const std::filesystem::path baked = scratch_file("squares.wfnav");
  write_navmesh_file(NavMesh::build(geometry), baked);
  const MeshGeometry read_back = read_mesh_file_geometry(baked, UpAxis::z);  // a baked file is always y up
  EXPECT_EQ(read_back.polygons.size(), geometry.polygons.size());
  EXPECT_EQ(NavMesh::build(read_back).polygon_count(), NavMesh::build(geometry).polygon_count());
  for (const Point& vertex : read_back.vertices) EXPECT_EQ(vertex.y, 0.0);

  std::filesystem::remove(obj);
  std::filesystem::remove(baked);
}

}  // namespace
}  // namespace wayfinder
