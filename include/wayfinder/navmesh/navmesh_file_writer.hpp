#pragma once
// Writes a built navigation mesh as a baked navmesh file (.wfnav): a versioned, checksummed
// binary file that keeps everything the mesh has, unlike an OBJ of its polygons: the polygons
// as built, every polygon's area and flags, the detail triangles that give the ground's heights
// (NavMesh::has_detail_heights) and the off-mesh links. read_navmesh_file gives back a mesh that
// answers every query exactly as this one does. The layout: docs/navmesh-file.md.

#include <filesystem>
#include <string>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// The file's bytes for `mesh` (its NavMesh::to_geometry, with the areas and flags it has now
/// and every link added since it was built).
[[nodiscard]] std::string navmesh_file_bytes(const NavMesh& mesh);

/// Writes navmesh_file_bytes(mesh) to `file`, replacing it. Throws std::runtime_error naming the
/// file when it cannot be written.
void write_navmesh_file(const NavMesh& mesh, const std::filesystem::path& file);

}  // namespace wayfinder
