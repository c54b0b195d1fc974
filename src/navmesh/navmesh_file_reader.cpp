#include "wayfinder/navmesh/navmesh_file_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "core/byte_reader.hpp"
#include "core/fnv1a.hpp"
#include "core/text_file.hpp"
#include "navmesh/navmesh_file_layout.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/bit_copy.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

std::string tag_text(const std::array<char, 4>& tag) { return std::string(tag.data(), tag.size()); }

// A 16-byte name field: `expected`, padded with zero bytes.
void expect_name(ByteReader& in, std::string_view bytes, const char* expected, const char* what) {
  const std::size_t at = in.offset();
  std::string field(bytes.substr(at, navmesh_file::name_field_size));
  const std::string shown = field.substr(0, field.find('\0'));
  std::string wanted(expected);
  wanted.resize(navmesh_file::name_field_size, '\0');
  if (field != wanted)
    in.fail(at, std::string("not a Wayfinder navmesh file: the ") + what + " is \"" + shown + "\", not \"" + expected +
                    "\"");
  in.skip(navmesh_file::name_field_size, what);
}

void read_vertices(ByteReader& in, MeshGeometry& geometry) {
  const std::uint32_t n = in.count("vertices", navmesh_file::point_bytes);
  geometry.vertices.reserve(n);
  for (std::uint32_t v = 0; v < n; ++v) geometry.vertices.push_back(in.point("a vertex coordinate"));
}

void read_polygons(ByteReader& in, MeshGeometry& geometry) {
  const std::uint32_t polygons = in.count("polygons", 4);
  const std::uint32_t indices = in.count("polygon corners", 4);
  if (std::uint64_t{polygons} + indices > in.left() / 4)
    in.fail(in.offset(), "the polygons' sizes and corners need " + std::to_string((std::uint64_t{polygons} + indices) * 4) +
                             " bytes, the section has " + std::to_string(in.left()) + " left");
  std::vector<std::uint32_t> sizes(polygons);
  std::uint64_t total = 0;
  for (std::uint32_t p = 0; p < polygons; ++p) {
    const std::size_t at = in.offset();
    sizes[p] = in.u32("a polygon size");
    if (sizes[p] < 3)
      in.fail(at, "polygon " + std::to_string(p) + " has " + std::to_string(sizes[p]) +
                      " vertices; a polygon needs at least 3");
    total += sizes[p];
    if (total > indices)
      in.fail(at, "the polygons' sizes add up to more than the " + std::to_string(indices) + " corners given");
  }
  if (total != indices)
    in.fail(in.offset(), "the polygons' sizes add up to " + std::to_string(total) + ", not the " +
                             std::to_string(indices) + " corners given");
  const auto vertex_count = static_cast<std::uint32_t>(geometry.vertices.size());
  geometry.polygons.reserve(polygons);
  for (std::uint32_t p = 0; p < polygons; ++p) {
    std::vector<std::uint32_t>& polygon = geometry.polygons.emplace_back();
    polygon.reserve(sizes[p]);
    for (std::uint32_t i = 0; i < sizes[p]; ++i) polygon.push_back(in.index("vertex index", vertex_count, "vertices"));
  }
}

void read_tags(ByteReader& in, MeshGeometry& geometry) {
  const std::size_t at = in.offset();
  const std::uint32_t n = in.count("polygon tags", 3);
  if (n != 0 && n != geometry.polygons.size())
    in.fail(at, std::to_string(n) + " polygon tags for " + std::to_string(geometry.polygons.size()) +
                    " polygons (the file gives one per polygon, or none)");
  geometry.polygon_areas.reserve(n);
  geometry.polygon_flags.reserve(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    const std::size_t area_at = in.offset();
    const AreaId area = in.u8("an area");
    if (area >= max_areas)
      in.fail(area_at, "polygon " + std::to_string(p) + " has area " + std::to_string(area) + "; areas are 0 to " +
                           std::to_string(max_areas - 1));
    geometry.polygon_areas.push_back(area);
  }
  for (std::uint32_t p = 0; p < n; ++p) geometry.polygon_flags.push_back(in.u16("polygon flags"));
}

void read_detail(ByteReader& in, MeshGeometry& geometry) {
  const std::uint32_t vertices = in.count("detail vertices", navmesh_file::point_bytes);
  const std::uint32_t triangles = in.count("detail triangles", 12);
  const std::size_t starts_at = in.offset();
  const std::uint32_t starts = in.count("detail starts", 4);
  if (std::uint64_t{vertices} * navmesh_file::point_bytes + std::uint64_t{triangles} * 12 + std::uint64_t{starts} * 4 >
      in.left())
    in.fail(in.offset(), "the detail mesh needs more bytes than the section has (" + std::to_string(in.left()) + ")");
  if (starts != 0 && starts != geometry.polygons.size() + 1)
    in.fail(starts_at, std::to_string(starts) + " detail starts for " + std::to_string(geometry.polygons.size()) +
                           " polygons (the file gives one per polygon plus one, or none)");
  if (starts == 0 && (vertices != 0 || triangles != 0))
    in.fail(starts_at, "detail triangles are given without detail starts");
  geometry.detail_vertices.reserve(vertices);
  for (std::uint32_t v = 0; v < vertices; ++v) geometry.detail_vertices.push_back(in.point("a detail vertex coordinate"));
  geometry.detail_triangles.reserve(triangles);
  for (std::uint32_t t = 0; t < triangles; ++t) {
    std::array<std::uint32_t, 3> triangle{};
    for (std::uint32_t& corner : triangle) corner = in.index("detail vertex index", vertices, "detail vertices");
    geometry.detail_triangles.push_back(triangle);
  }
  geometry.detail_starts.reserve(starts);
  for (std::uint32_t p = 0; p < starts; ++p) {
    const std::size_t at = in.offset();
    const std::uint32_t start = in.u32("a detail start");
    const std::uint32_t previous = p == 0 ? 0 : geometry.detail_starts.back();
    if ((p == 0 && start != 0) || start < previous || start > triangles || (p + 1 == starts && start != triangles))
      in.fail(at, "detail start " + std::to_string(p) + " is " + std::to_string(start) +
                      "; the starts must rise from 0 to the number of detail triangles (" + std::to_string(triangles) +
                      ")");
    geometry.detail_starts.push_back(start);
  }
}

void read_links(ByteReader& in, MeshGeometry& geometry) {
  const std::uint32_t n = in.count("off-mesh links", navmesh_file::link_bytes);
  geometry.off_mesh_links.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    OffMeshLink link;
    link.start = in.point("a link end coordinate");
    link.end = in.point("a link end coordinate");
    link.radius = in.finite("a link radius");
    const double cost = in.finite("a link cost");
    link.user_id = in.u32("a link id");
    link.flags = in.u16("link flags");
    const std::size_t area_at = in.offset();
    link.area = in.u8("a link area");
    if (link.area >= max_areas)
      in.fail(area_at, "off-mesh link " + std::to_string(i) + " has area " + std::to_string(link.area) +
                           "; areas are 0 to " + std::to_string(max_areas - 1));
    const std::size_t bits_at = in.offset();
    const std::uint8_t bits = in.u8("link bits");
    if ((bits & ~(navmesh_file::link_two_way | navmesh_file::link_has_cost)) != 0)
      in.fail(bits_at, "off-mesh link " + std::to_string(i) + " has unknown bits set");
    link.bidirectional = (bits & navmesh_file::link_two_way) != 0;
    if ((bits & navmesh_file::link_has_cost) != 0) link.cost = cost;
    geometry.off_mesh_links.push_back(link);
  }
}

// The TILE section: nothing for an untiled mesh; else the grid, checked as build_tiled checks
// it, and each tile's geometry, read by the whole mesh's section readers.
void read_tiles(ByteReader& in, NavMeshFileContents& contents) {
  // A tile takes at least its x and z and four empty payloads (9 counts).
  constexpr std::size_t least_tile_bytes = 4 * 11;
  const std::uint32_t count = in.count("tiles", least_tile_bytes);
  if (count == 0) return;
  NavMeshTileGrid grid;
  grid.origin_x = in.finite("the tile grid's origin x");
  grid.origin_z = in.finite("the tile grid's origin z");
  const std::size_t width_at = in.offset();
  grid.tile_width = in.finite("the tile width");
  if (!(grid.tile_width > 0.0)) in.fail(width_at, "the tile width is " + std::to_string(grid.tile_width) + "; it must be > 0");
  const std::size_t climb_at = in.offset();
  grid.border_climb = in.finite("the tile border climb");
  if (grid.border_climb < 0.0) in.fail(climb_at, "the tile border climb is negative");
  const std::size_t counts_at = in.offset();
  const std::uint32_t tiles_x = in.u32("the tiles along x");
  const std::uint32_t tiles_z = in.u32("the tiles along z");
  grid.max_polygons_per_tile = in.u32("the polygons per tile");
  const double ids = static_cast<double>(tiles_x) * tiles_z * grid.max_polygons_per_tile;
  if (tiles_x == 0 || tiles_z == 0 || grid.max_polygons_per_tile == 0 || ids > static_cast<double>(max_tiled_polygon_ids))
    in.fail(counts_at, "the tile grid of " + std::to_string(tiles_x) + " x " + std::to_string(tiles_z) + " tiles of " +
                           std::to_string(grid.max_polygons_per_tile) +
                           " polygons each is not one a mesh can have (each at least 1, their product at most 2^22)");
  grid.tiles_x = static_cast<int>(tiles_x);
  grid.tiles_z = static_cast<int>(tiles_z);
  if (count > std::uint64_t{tiles_x} * tiles_z)
    in.fail(counts_at, std::to_string(count) + " tiles in a grid of " + std::to_string(tiles_x) + " x " +
                           std::to_string(tiles_z));
  contents.tiles.reserve(count);
  std::uint64_t previous = 0;
  for (std::uint32_t t = 0; t < count; ++t) {
    const std::size_t at = in.offset();
    const std::uint32_t x = in.u32("a tile's x"), z = in.u32("a tile's z");
    const std::string name = "tile (" + std::to_string(x) + ", " + std::to_string(z) + ")";
    if (x >= tiles_x || z >= tiles_z)
      in.fail(at, name + " is outside the grid of " + std::to_string(tiles_x) + " x " + std::to_string(tiles_z) + " tiles");
    const std::uint64_t index = std::uint64_t{z} * tiles_x + x + 1;
    if (index <= previous) in.fail(at, name + " is out of tile order (z, then x) or given twice");
    previous = index;
    NavMeshTile& tile = contents.tiles.emplace_back();
    tile.tile_x = static_cast<int>(x);
    tile.tile_z = static_cast<int>(z);
    tile.geometry.source = contents.geometry.source;
    tile.geometry.declared_navmesh = true;
    read_vertices(in, tile.geometry);
    const std::size_t polygons_at = in.offset();
    read_polygons(in, tile.geometry);
    if (tile.geometry.polygons.size() > grid.max_polygons_per_tile)
      in.fail(polygons_at, name + " has " + std::to_string(tile.geometry.polygons.size()) +
                               " polygons, more than the grid's " + std::to_string(grid.max_polygons_per_tile) + " per tile");
    read_tags(in, tile.geometry);
    read_detail(in, tile.geometry);
  }
  const MeshGeometry& whole = contents.geometry;
  if (!whole.vertices.empty() || !whole.polygons.empty() || !whole.detail_vertices.empty())
    in.fail(in.offset(), "the file has tiles and a mesh of its own beside them (a tiled mesh's VERT, POLY, TAGS and "
                         "DETL sections are empty)");
  contents.tile_grid = grid;
}

}  // namespace

NavMeshFileContents parse_navmesh_file_contents(std::string_view bytes, const std::string& source) {
  ByteReader header(bytes, 0, bytes.size(), source);
  if (bytes.size() < navmesh_file::magic.size() ||
      std::memcmp(bytes.data(), navmesh_file::magic.data(), navmesh_file::magic.size()) != 0)
    header.fail(0, "not a Wayfinder navmesh file (it does not begin with \"WFNAV\")");
  header.skip(navmesh_file::magic.size(), "the magic");
  const std::size_t version_at = header.offset();
  const std::uint32_t version = header.u32("the format version");
  if (version > navmesh_file::version)
    header.fail(version_at, "navmesh file format version " + std::to_string(version) +
                                " is newer than this build of Wayfinder reads (version " +
                                std::to_string(navmesh_file::version) + "); read it with a newer Wayfinder");
  if (version < navmesh_file::oldest_version)
    header.fail(version_at, "navmesh file format version " + std::to_string(version) + " is not one this build reads (" +
                                std::to_string(navmesh_file::oldest_version) + " to " +
                                std::to_string(navmesh_file::version) + ")");
  const std::size_t header_size_at = header.offset();
  if (header.u32("the header size") != navmesh_file::header_size)
    header.fail(header_size_at, "damaged header: the header size is not " + std::to_string(navmesh_file::header_size));
  if (bytes.size() < navmesh_file::header_size)
    header.fail(bytes.size(), "truncated: the header needs " + std::to_string(navmesh_file::header_size) +
                                  " bytes, the file has " + std::to_string(bytes.size()));
  expect_name(header, bytes, navmesh_file::writer_name, "writer");
  expect_name(header, bytes, navmesh_file::content_name, "content");
  const std::size_t size_at = header.offset();
  const std::uint64_t file_size = header.u64("the file size");
  if (file_size != bytes.size())
    header.fail(size_at, (file_size > bytes.size() ? "truncated: the header says the file has " : "damaged: the header says the file has ") +
                             std::to_string(file_size) + " bytes, it has " + std::to_string(bytes.size()));
  if (file_size < navmesh_file::header_size + navmesh_file::checksum_size)
    header.fail(size_at, "damaged header: a file size of " + std::to_string(file_size) + " bytes leaves no room for the checksum");
  const std::size_t checksum_at = bytes.size() - navmesh_file::checksum_size;
  ByteReader checksum_reader(bytes, checksum_at, bytes.size(), source);
  if (fnv1a(reinterpret_cast<const unsigned char*>(bytes.data()), checksum_at) != checksum_reader.u64("the checksum"))
    header.fail(checksum_at, "damaged: the file does not match its checksum");
  // Version 1 has its five sections; version 2 its six, and the tile cache's after them or not.
  const std::size_t required = version == 1 ? navmesh_file::version_1_sections : navmesh_file::section_tags.size();
  const std::size_t most = version == 1 ? required : required + 1;
  const std::size_t sections_at = header.offset();
  const std::uint32_t sections = header.u32("the section count");
  if (sections < required || sections > most)
    header.fail(sections_at, "damaged header: " + std::to_string(sections) + " sections; version " +
                                 std::to_string(version) + " has " + std::to_string(required) +
                                 (most > required ? " or " + std::to_string(most) : std::string()));
  header.zero("the reserved header field");

  NavMeshFileContents contents;
  MeshGeometry& geometry = contents.geometry;
  geometry.source = source;
  geometry.declared_navmesh = true;
  ByteReader body(bytes, header.offset(), checksum_at, source);
  using SectionReader = void (*)(ByteReader&, NavMeshFileContents&);
  constexpr SectionReader section_readers[] = {
      [](ByteReader& in, NavMeshFileContents& c) { read_vertices(in, c.geometry); },
      [](ByteReader& in, NavMeshFileContents& c) { read_polygons(in, c.geometry); },
      [](ByteReader& in, NavMeshFileContents& c) { read_tags(in, c.geometry); },
      [](ByteReader& in, NavMeshFileContents& c) { read_detail(in, c.geometry); },
      [](ByteReader& in, NavMeshFileContents& c) { read_links(in, c.geometry); },
      read_tiles,
      // The tile cache's bytes are its library's to read; here they are only kept.
      [](ByteReader& in, NavMeshFileContents& c) {
        c.tile_cache_offset = in.offset();
        c.tile_cache = std::string(in.rest());
        in.skip(in.left(), "the tile cache");
      }};
  for (std::size_t s = 0; s < sections; ++s) {
    const std::array<char, 4>& tag = s < required ? navmesh_file::section_tags[s] : navmesh_file::tile_cache_tag;
    const std::size_t tag_at = body.offset();
    std::array<char, 4> found{};
    const std::uint32_t found_bits = body.u32("a section tag");
    for (std::size_t i = 0; i < 4; ++i) found[i] = static_cast<char>(found_bits >> (8 * i));
    if (found != tag) body.fail(tag_at, "expected the " + tag_text(tag) + " section here");
    body.zero("a section's reserved field");
    const std::size_t size_field_at = body.offset();
    const std::uint64_t size = body.u64("a section size");
    if (size > body.left())
      body.fail(size_field_at, "the " + tag_text(tag) + " section says it has " + std::to_string(size) +
                                   " bytes, the file has " + std::to_string(body.left()) + " left");
    ByteReader section(bytes, body.offset(), body.offset() + static_cast<std::size_t>(size), source);
    section_readers[s < required ? s : navmesh_file::section_tags.size()](section, contents);
    if (section.left() != 0)
      section.fail(section.offset(), std::to_string(section.left()) + " unexpected bytes at the end of the " +
                                         tag_text(tag) + " section");
    body.skip(static_cast<std::size_t>(size), "the section's bytes");
  }
  if (body.left() != 0) body.fail(body.offset(), "unexpected bytes after the last section");
  return contents;
}

NavMesh build_navmesh_from_file(const NavMeshFileContents& contents) {
  if (!contents.tile_grid) return NavMesh::build(contents.geometry);
  // The checks only build_tiled makes (a polygon outside its tile's square, a link's values)
  // are the file's problems too.
  try {
    return NavMesh::build_tiled(*contents.tile_grid, contents.tiles, contents.geometry.off_mesh_links);
  } catch (const std::invalid_argument& error) {
    throw LoadError(contents.geometry.source, 0, 0, std::string(error.what()) + " (in the TILE section)");
  } catch (const std::length_error& error) {
    throw LoadError(contents.geometry.source, 0, 0, std::string(error.what()) + " (in the TILE section)");
  }
}

NavMesh navmesh_from_file_bytes(std::string_view bytes, const std::string& source) {
  return build_navmesh_from_file(parse_navmesh_file_contents(bytes, source));
}

MeshGeometry parse_navmesh_file(std::string_view bytes, const std::string& source) {
  NavMeshFileContents contents = parse_navmesh_file_contents(bytes, source);
  if (!contents.tile_grid) return std::move(contents.geometry);
  MeshGeometry flattened = build_navmesh_from_file(contents).to_geometry();
  flattened.source = source;
  flattened.declared_navmesh = true;
  return flattened;
}

MeshGeometry read_navmesh_geometry(const std::filesystem::path& file) {
  return parse_navmesh_file(read_text_file(file), file.string());
}

NavMeshFileContents read_navmesh_file_contents(const std::filesystem::path& file) {
  return parse_navmesh_file_contents(read_text_file(file), file.string());
}

NavMesh read_navmesh_file(const std::filesystem::path& file) { return build_navmesh_from_file(read_navmesh_file_contents(file)); }

}  // namespace wayfinder
