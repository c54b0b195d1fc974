#include "wayfinder/navmesh/navmesh_file_writer.hpp"

#include <cstring>
#include <stdexcept>

#include "core/byte_reader.hpp"
#include "core/fnv1a.hpp"
#include "core/text_file.hpp"
#include "navmesh/navmesh_file_layout.hpp"
#include "wayfinder/core/bit_copy.hpp"

namespace wayfinder {

namespace {

// A 16-byte name field: `text` padded with zero bytes.
void write_name(ByteWriter& out, const char* text) {
  const std::size_t length = std::strlen(text);
  out.bytes().append(text, length);
  out.bytes().append(navmesh_file::name_field_size - length, '\0');
}

void write_tag(ByteWriter& out, const std::array<char, 4>& letters) { out.bytes().append(letters.data(), letters.size()); }

std::uint32_t count32(std::size_t count, const char* what) {
  if (count > 0xffffffffu) throw std::runtime_error(std::string("navmesh too large for the file: too many ") + what);
  return static_cast<std::uint32_t>(count);
}

// Writes one section: its header, then what `payload` appends, then its size.
template <class Payload>
void section(ByteWriter& out, const std::array<char, 4>& tag, Payload&& payload) {
  write_tag(out, tag);
  out.u32(0);
  const std::size_t size_at = out.size();
  out.u64(0);
  payload();
  out.patch_u64(size_at, out.size() - size_at - 8);
}

// The payloads of VERT, POLY, TAGS and DETL: a whole mesh's, or one tile's in the TILE section.
void write_vertices(ByteWriter& out, const MeshGeometry& geometry) {
  out.u32(count32(geometry.vertices.size(), "vertices"));
  for (const Point& p : geometry.vertices) out.point(p);
}

void write_polygons(ByteWriter& out, const MeshGeometry& geometry) {
  std::size_t indices = 0;
  for (const auto& polygon : geometry.polygons) indices += polygon.size();
  out.u32(count32(geometry.polygons.size(), "polygons"));
  out.u32(count32(indices, "polygon corners"));
  for (const auto& polygon : geometry.polygons) out.u32(static_cast<std::uint32_t>(polygon.size()));
  for (const auto& polygon : geometry.polygons)
    for (const std::uint32_t index : polygon) out.u32(index);
}

void write_tags(ByteWriter& out, const MeshGeometry& geometry) {
  out.u32(static_cast<std::uint32_t>(geometry.polygon_areas.size()));
  for (const AreaId area : geometry.polygon_areas) out.u8(area);
  for (const AreaFlags flags : geometry.polygon_flags) out.u16(flags);
}

void write_detail(ByteWriter& out, const MeshGeometry& geometry) {
  out.u32(count32(geometry.detail_vertices.size(), "detail vertices"));
  out.u32(count32(geometry.detail_triangles.size(), "detail triangles"));
  out.u32(count32(geometry.detail_starts.size(), "detail starts"));
  for (const Point& p : geometry.detail_vertices) out.point(p);
  for (const auto& triangle : geometry.detail_triangles)
    for (const std::uint32_t corner : triangle) out.u32(corner);
  for (const std::uint32_t start : geometry.detail_starts) out.u32(start);
}

void write_links(ByteWriter& out, const std::vector<OffMeshLink>& links) {
  out.u32(count32(links.size(), "off-mesh links"));
  for (const OffMeshLink& link : links) {
    out.point(link.start);
    out.point(link.end);
    out.f64(link.radius);
    out.f64(link.cost.value_or(0.0));
    out.u32(link.user_id);
    out.u16(link.flags);
    out.u8(link.area);
    out.u8(static_cast<std::uint8_t>((link.bidirectional ? navmesh_file::link_two_way : 0) |
                                     (link.cost ? navmesh_file::link_has_cost : 0)));
  }
}

// The TILE section's payload: the grid and every tile that holds polygons, with its geometry.
void write_tiles(ByteWriter& out, const NavMesh& mesh) {
  if (!mesh.is_tiled()) {
    out.u32(0);
    return;
  }
  const std::vector<NavMeshTileInfo> tiles = mesh.tiles();
  const NavMeshTileGrid& grid = mesh.tile_grid();
  out.u32(count32(tiles.size(), "tiles"));
  out.f64(grid.origin_x);
  out.f64(grid.origin_z);
  out.f64(grid.tile_width);
  out.f64(grid.border_climb);
  out.u32(static_cast<std::uint32_t>(grid.tiles_x));
  out.u32(static_cast<std::uint32_t>(grid.tiles_z));
  out.u32(grid.max_polygons_per_tile);
  for (const NavMeshTileInfo& tile : tiles) {
    const MeshGeometry geometry = mesh.tile_geometry(tile.tile_x, tile.tile_z);
    out.u32(static_cast<std::uint32_t>(tile.tile_x));
    out.u32(static_cast<std::uint32_t>(tile.tile_z));
    write_vertices(out, geometry);
    write_polygons(out, geometry);
    write_tags(out, geometry);
    write_detail(out, geometry);
  }
}

}  // namespace

std::string navmesh_file_bytes(const NavMesh& mesh, std::string_view tile_cache) {
  // A tiled mesh's geometry is its tiles'; the whole-mesh sections then hold only its links.
  MeshGeometry geometry;
  if (mesh.is_tiled()) {
    for (OffMeshLinkId link = 0; link < mesh.off_mesh_link_count(); ++link)
      geometry.off_mesh_links.push_back(mesh.off_mesh_link(link).input);
  } else {
    geometry = mesh.to_geometry();
  }
  ByteWriter out;
  out.bytes().append(reinterpret_cast<const char*>(navmesh_file::magic.data()), navmesh_file::magic.size());
  out.u32(navmesh_file::version);
  out.u32(static_cast<std::uint32_t>(navmesh_file::header_size));
  write_name(out, navmesh_file::writer_name);
  write_name(out, navmesh_file::content_name);
  const std::size_t file_size_at = out.size();
  out.u64(0);
  out.u32(static_cast<std::uint32_t>(navmesh_file::section_tags.size() + (tile_cache.empty() ? 0 : 1)));
  out.u32(0);

  const auto& tags = navmesh_file::section_tags;
  section(out, tags[0], [&] { write_vertices(out, geometry); });
  section(out, tags[1], [&] { write_polygons(out, geometry); });
  section(out, tags[2], [&] { write_tags(out, geometry); });
  section(out, tags[3], [&] { write_detail(out, geometry); });
  section(out, tags[4], [&] { write_links(out, geometry.off_mesh_links); });
  section(out, tags[5], [&] { write_tiles(out, mesh); });
  if (!tile_cache.empty()) section(out, navmesh_file::tile_cache_tag, [&] { out.bytes().append(tile_cache); });

  out.patch_u64(file_size_at, out.size() + navmesh_file::checksum_size);
  out.u64(fnv1a(reinterpret_cast<const unsigned char*>(out.bytes().data()), out.size()));
  return std::move(out.bytes());
}

void write_navmesh_file(const NavMesh& mesh, const std::filesystem::path& file, std::string_view tile_cache) {
  write_text_file(file, navmesh_file_bytes(mesh, tile_cache));
}

}  // namespace wayfinder
