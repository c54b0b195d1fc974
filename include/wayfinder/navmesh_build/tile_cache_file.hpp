#pragma once
// A tiled navigation mesh and its tile cache in one baked file (.wfnav with its optional tile
// cache section, docs/navmesh-file.md): a game ships the file, loads the mesh and the cache
// without the level's geometry, and adds temporary obstacles and area volumes at run time
// (NavMeshTileCache::add_obstacle, update, NavMesh::replace_tile).
//
// Part of the optional `wayfinder::navmesh_build` library (Recast).

#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

namespace wayfinder {

/// What such a file holds.
struct NavMeshWithTileCache {
  NavMesh mesh;
  NavMeshTileCache cache;
};

/// The file's bytes: navmesh_file_bytes(mesh) with cache.to_bytes() as its tile cache section.
/// `mesh` is the tiled mesh the cache's tiles went to (build_tiled of build_navmesh_tiles with the
/// cache's settings, or its tiles replaced since); throws std::invalid_argument when it is not
/// tiled or its tile grid is not the cache's (tiles along x and z).
[[nodiscard]] std::string navmesh_file_bytes(const NavMesh& mesh, const NavMeshTileCache& cache);

/// Writes navmesh_file_bytes(mesh, cache) to `file`, replacing it. Throws as that does, and
/// std::runtime_error naming the file when it cannot be written.
void write_navmesh_file(const NavMesh& mesh, const NavMeshTileCache& cache, const std::filesystem::path& file);

/// The mesh and the cache in `bytes` (`source` names them in errors). Throws LoadError for
/// everything read_navmesh_file refuses, for a file without a tile cache section (or with an
/// untiled mesh), for a damaged section (with its byte offset), and for a cache whose tile grid
/// is not the mesh's.
[[nodiscard]] NavMeshWithTileCache navmesh_with_tile_cache_from_bytes(std::string_view bytes, const std::string& source);

/// The same read from `file` (read whole; a file over 256 MiB is refused). Throws LoadError.
[[nodiscard]] NavMeshWithTileCache read_navmesh_file_with_tile_cache(const std::filesystem::path& file);

}  // namespace wayfinder
