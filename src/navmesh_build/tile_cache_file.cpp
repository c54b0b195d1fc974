#include "wayfinder/navmesh_build/tile_cache_file.hpp"

#include <stdexcept>

#include "core/text_file.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"

namespace wayfinder {

namespace {

// Why the cache's tiles cannot go to the mesh's tiles, or nullopt.
std::optional<std::string> grid_mismatch(const NavMesh& mesh, const NavMeshTileCache& cache) {
  if (!mesh.is_tiled()) return "the mesh is not tiled (build it with NavMesh::build_tiled)";
  const NavMeshTileGrid& grid = mesh.tile_grid();
  if (grid.tiles_x != cache.tiles_x() || grid.tiles_z != cache.tiles_z())
    return "the mesh's grid of " + std::to_string(grid.tiles_x) + " x " + std::to_string(grid.tiles_z) +
           " tiles is not the tile cache's " + std::to_string(cache.tiles_x()) + " x " + std::to_string(cache.tiles_z());
  return std::nullopt;
}

}  // namespace

std::string navmesh_file_bytes(const NavMesh& mesh, const NavMeshTileCache& cache) {
  if (auto problem = grid_mismatch(mesh, cache)) throw std::invalid_argument("navmesh file with tile cache: " + *problem);
  return navmesh_file_bytes(mesh, std::string_view(cache.to_bytes()));
}

void write_navmesh_file(const NavMesh& mesh, const NavMeshTileCache& cache, const std::filesystem::path& file) {
  write_text_file(file, navmesh_file_bytes(mesh, cache));
}

NavMeshWithTileCache navmesh_with_tile_cache_from_bytes(std::string_view bytes, const std::string& source) {
  const NavMeshFileContents contents = parse_navmesh_file_contents(bytes, source);
  if (contents.tile_cache.empty())
    throw LoadError(source, 0, 0, "the file has no tile cache section (write it with the tile cache)");
  NavMeshWithTileCache out{build_navmesh_from_file(contents),
                           NavMeshTileCache::from_bytes(contents.tile_cache, source, contents.tile_cache_offset)};
  if (auto problem = grid_mismatch(out.mesh, out.cache))
    throw LoadError(source, 0, 0, *problem + " (at byte " + std::to_string(contents.tile_cache_offset) + ")");
  return out;
}

NavMeshWithTileCache read_navmesh_file_with_tile_cache(const std::filesystem::path& file) {
  return navmesh_with_tile_cache_from_bytes(read_text_file(file), file.string());
}

}  // namespace wayfinder
