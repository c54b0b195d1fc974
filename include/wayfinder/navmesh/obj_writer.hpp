#pragma once
// Writing polygon meshes as Wavefront OBJ (`v` and `f` lines), readable back by read_obj_mesh:
// what `wayfinder mesh build` saves, and a way to look at any MeshGeometry in a 3D viewer.

#include <filesystem>
#include <ostream>

#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

/// Writes `geometry` as OBJ text: one `v x y z` line per vertex (the shortest text that a
/// correctly rounding parser reads back as the same double; tinyobjloader's parser may differ
/// in the last bit) and one `f` line per polygon (1-based indices). A navigation mesh
/// (MeshGeometry::declared_navmesh: built, or read from a navmesh file) starts with the
/// obj_navmesh_marker line, so that it reads back as a navigation mesh.
void write_obj_mesh(const MeshGeometry& geometry, std::ostream& out);

/// The same to a file (created or replaced). Throws std::runtime_error naming the file when it
/// cannot be written.
void write_obj_mesh(const MeshGeometry& geometry, const std::filesystem::path& file);

}  // namespace wayfinder
