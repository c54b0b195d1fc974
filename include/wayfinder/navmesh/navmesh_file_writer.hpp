#pragma once
// Writes a built navigation mesh as a baked navmesh file (.wfnav): a versioned, checksummed
// binary file that keeps everything the mesh has, unlike an OBJ of its polygons: the polygons
// as built, every polygon's area and flags, the detail triangles that give the ground's heights
// (NavMesh::has_detail_heights) and the off-mesh links. read_navmesh_file gives back a mesh that
// answers every query exactly as this one does. The layout: docs/navmesh-file.md.

#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// The file's bytes for `mesh` (its NavMesh::to_geometry, with the areas and flags it has now
/// and every link added since it was built; for a tiled mesh, its tile grid and each tile's
/// NavMesh::tile_geometry instead, so that it reads back tiled, with the same polygon ids).
/// `tile_cache`, when not empty, is written as the file's optional tile cache section: the bytes
/// of navmesh_build's NavMeshTileCache::to_bytes(), which that library's readers take back.
[[nodiscard]] std::string navmesh_file_bytes(const NavMesh& mesh, std::string_view tile_cache = {});

/// Writes navmesh_file_bytes(mesh, tile_cache) to `file`, replacing it. Throws
/// std::runtime_error naming the file when it cannot be written.
void write_navmesh_file(const NavMesh& mesh, const std::filesystem::path& file, std::string_view tile_cache = {});

}  // namespace wayfinder
