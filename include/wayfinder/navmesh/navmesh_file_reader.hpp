#pragma once
// Reads a baked navmesh file (.wfnav, written by write_navmesh_file; layout in
// docs/navmesh-file.md). Everything is checked before it is used: the magic, the writer and
// content names, the format version (a newer file is refused, naming both versions), the
// file's size and checksum, each section's tag and size, every count against the bytes left
// (nothing is allocated for a count the file cannot hold), every index against what it
// indexes, every coordinate for being finite; then NavMesh::build checks the mesh itself as it
// checks any input. A bad file throws LoadError naming the file, with the byte offset of the
// problem in the cause ("... (at byte 1234)"); nothing else is thrown for bad bytes, and no
// input crashes the reader (fuzz/fuzz_navmesh_file.cpp).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_tiles.hpp"

namespace wayfinder {

/// What a baked file holds. An untiled mesh is `geometry` (what NavMesh::to_geometry gave the
/// writer). A tiled mesh is `tile_grid` and `tiles` (each tile's NavMesh::tile_geometry, in tile
/// order: z, then x), and `geometry` then holds only its off-mesh links.
struct NavMeshFileContents {
  MeshGeometry geometry;
  std::optional<NavMeshTileGrid> tile_grid;  ///< set for a tiled mesh
  std::vector<NavMeshTile> tiles;
  /// The optional tile cache section's bytes, unread (empty when the file has none): what
  /// navmesh_build's NavMeshTileCache::from_bytes reads (navmesh_build/navmesh_tile_cache.hpp).
  std::string tile_cache;
  std::size_t tile_cache_offset = 0;  ///< where they start in the file, for error messages
};

/// What the bytes hold, `source` naming them in errors and in MeshGeometry::source. Reads format
/// versions 1 (untiled meshes only) and 2. Throws LoadError as described above, except for the
/// checks only the mesh's build makes.
[[nodiscard]] NavMeshFileContents parse_navmesh_file_contents(std::string_view bytes, const std::string& source);
/// The same read from `file` (read whole; a file over 256 MiB is refused). Throws LoadError.
[[nodiscard]] NavMeshFileContents read_navmesh_file_contents(const std::filesystem::path& file);

/// The mesh `contents` describe: NavMesh::build of the geometry, or, for a tiled mesh,
/// NavMesh::build_tiled of the grid, the tiles and the links (a link whose end lies on no tile is
/// kept detached), so that the tiles keep their polygon ids and replace_tile works. At revision
/// 0, every tile's salt 1. Throws LoadError naming the source for everything the builds refuse.
[[nodiscard]] NavMesh build_navmesh_from_file(const NavMeshFileContents& contents);

/// build_navmesh_from_file(parse_navmesh_file_contents(bytes, source)). Throws LoadError.
[[nodiscard]] NavMesh navmesh_from_file_bytes(std::string_view bytes, const std::string& source);

/// The geometry of the mesh the bytes hold: for an untiled mesh what NavMesh::to_geometry gave the
/// writer; for a tiled one, the tiles joined into one mesh (its NavMesh::to_geometry: the unused
/// ids of the tiles left out, so the polygon ids are not the tiled mesh's). Throws LoadError.
[[nodiscard]] MeshGeometry parse_navmesh_file(std::string_view bytes, const std::string& source);

/// The geometry in `file` as parse_navmesh_file gives it. Throws LoadError.
[[nodiscard]] MeshGeometry read_navmesh_geometry(const std::filesystem::path& file);

/// The mesh in `file`: build_navmesh_from_file of what it holds, the off-mesh links placed again;
/// a tiled mesh comes back tiled. Throws LoadError.
[[nodiscard]] NavMesh read_navmesh_file(const std::filesystem::path& file);

}  // namespace wayfinder
