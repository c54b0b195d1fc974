// Fuzzes the baked navmesh file reader (.wfnav): any bytes must either load or throw LoadError
// naming the source, a cause and a byte offset, never crash, hang, trip a sanitizer or allocate
// more than the input can describe. A checksum guards the file, so random changes would almost
// never reach the sections: each input is read twice, as it is and with its size field and
// checksum made right, so that the fuzzer explores what follows them. A mesh that loads answers
// a few queries and is written again, which must give a file that reads back; a tiled one (format
// version 2) also has a tile removed. Building a tiled mesh costs time and memory in proportion to
// its grid's polygon ids (tiles x polygons per tile, at most 2^22, whatever the tiles hold), so a
// grid of more than 2^18 ids is only parsed here: a few bytes could otherwise make every run take
// seconds. The reader's refusal of grids beyond 2^22 is tested in test_navmesh_file.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/fnv1a.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"

namespace {

constexpr std::size_t file_size_offset = 48;
constexpr std::size_t checksum_bytes = 8;

void put_u64(std::string& bytes, std::size_t offset, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[offset + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
}

// The input with the header's file size and the trailing checksum set to what they should be.
std::string with_size_and_checksum(std::string bytes) {
  if (bytes.size() < file_size_offset + 8 + checksum_bytes) return bytes;
  put_u64(bytes, file_size_offset, bytes.size());
  const std::size_t body = bytes.size() - checksum_bytes;
  put_u64(bytes, body, wayfinder::fnv1a(reinterpret_cast<const unsigned char*>(bytes.data()), body));
  return bytes;
}

// A file's name in errors: the source, or for a tile's own checks the source and the tile.
bool names_the_input(const wayfinder::LoadError& error) { return error.file().rfind("fuzz.wfnav", 0) == 0; }

void read_and_use(std::string_view bytes) {
  wayfinder::NavMeshFileContents contents;
  try {
    contents = wayfinder::parse_navmesh_file_contents(bytes, "fuzz.wfnav");
  } catch (const wayfinder::LoadError& error) {
    if (error.file() != "fuzz.wfnav" || error.cause().find("(at byte ") == std::string::npos) std::abort();
    return;
  }
  if (const auto& grid = contents.tile_grid;
      grid && static_cast<double>(grid->tiles_x) * grid->tiles_z * grid->max_polygons_per_tile > double{1 << 18})
    return;
  try {
    // Untiled (version 1 or 2) or tiled (version 2): the mesh as a program reads it.
    wayfinder::NavMesh mesh = wayfinder::build_navmesh_from_file(contents);
    wayfinder::NavMeshQuery query(mesh);
    const wayfinder::PathResult path = query.find_path(mesh.centroid(0), mesh.centroid(static_cast<wayfinder::PolygonId>(mesh.polygon_count() - 1)));
    if (path.status == wayfinder::SearchStatus::in_progress) std::abort();
    // What is written must read back as the same mesh.
    const std::string again = wayfinder::navmesh_file_bytes(mesh, contents.tile_cache);
    const wayfinder::NavMesh reread = wayfinder::navmesh_from_file_bytes(again, "again.wfnav");
    if (reread.polygon_count() != mesh.polygon_count() || reread.is_tiled() != mesh.is_tiled() ||
        wayfinder::navmesh_file_bytes(reread, contents.tile_cache) != again)
      std::abort();
    // A tiled mesh read from a file takes tile changes: its first tile removed, when another is left.
    const std::vector<wayfinder::NavMeshTileInfo> tiles = mesh.tiles();
    if (tiles.size() > 1) mesh.remove_tile(tiles.front().tile_x, tiles.front().tile_z);
  } catch (const wayfinder::LoadError& error) {
    // The builds' own checks (a polygon of no area, a link off the mesh, a polygon outside its
    // tile); never the re-read.
    if (error.cause().empty() || !names_the_input(error)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  read_and_use(input);
  read_and_use(with_size_and_checksum(input));
  return 0;
}
