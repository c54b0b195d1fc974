// Baked navmesh files (.wfnav): a mesh written and read back is the same mesh (polygons, areas,
// flags, detail heights, off-mesh links) and answers every query exactly as the one written did,
// bit for bit; damaged, truncated, foreign and newer files give a clear LoadError, never a crash.
// With Recast: the RecastDemo levels built here, saved and read back, answer every reference
// query of <data>/meshes/derived as the mesh in memory did.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "common/mesh_query_file.hpp"
#include "core/fnv1a.hpp"
#include "temporary_folder.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"
#if WAYFINDER_TEST_WITH_RECAST
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#endif

namespace wayfinder {
namespace {

// ---- What "the same mesh" means

std::uint64_t bits(double value) { return std::bit_cast<std::uint64_t>(value); }

bool same_point(const Point& a, const Point& b) {
  return bits(a.x) == bits(b.x) && bits(a.y) == bits(b.y) && bits(a.z) == bits(b.z);
}

void expect_same_geometry(const MeshGeometry& a, const MeshGeometry& b) {
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  for (std::size_t v = 0; v < a.vertices.size(); ++v) EXPECT_TRUE(same_point(a.vertices[v], b.vertices[v])) << v;
  EXPECT_EQ(a.polygons, b.polygons);
  EXPECT_EQ(a.polygon_areas, b.polygon_areas);
  EXPECT_EQ(a.polygon_flags, b.polygon_flags);
  ASSERT_EQ(a.detail_vertices.size(), b.detail_vertices.size());
  for (std::size_t v = 0; v < a.detail_vertices.size(); ++v)
    EXPECT_TRUE(same_point(a.detail_vertices[v], b.detail_vertices[v])) << v;
  EXPECT_EQ(a.detail_triangles, b.detail_triangles);
  EXPECT_EQ(a.detail_starts, b.detail_starts);
  ASSERT_EQ(a.off_mesh_links.size(), b.off_mesh_links.size());
  for (std::size_t i = 0; i < a.off_mesh_links.size(); ++i) {
    const OffMeshLink &x = a.off_mesh_links[i], &y = b.off_mesh_links[i];
    EXPECT_TRUE(same_point(x.start, y.start) && same_point(x.end, y.end)) << "link " << i;
    EXPECT_EQ(bits(x.radius), bits(y.radius)) << "link " << i;
    EXPECT_EQ(x.bidirectional, y.bidirectional) << "link " << i;
    EXPECT_EQ(x.cost.has_value(), y.cost.has_value()) << "link " << i;
    if (x.cost && y.cost) {
      EXPECT_EQ(bits(*x.cost), bits(*y.cost)) << "link " << i;
    }
    EXPECT_EQ(x.area, y.area) << "link " << i;
    EXPECT_EQ(x.flags, y.flags) << "link " << i;
    EXPECT_EQ(x.user_id, y.user_id) << "link " << i;
  }
}

/// Same status, same cost bit for bit, same corridor, same points, same links.
::testing::AssertionResult same_answer(const PathResult& a, const PathResult& b) {
  if (a.status != b.status)
    return ::testing::AssertionFailure() << "status " << to_string(a.status) << " against " << to_string(b.status);
  if (bits(a.cost) != bits(b.cost)) return ::testing::AssertionFailure() << "cost " << a.cost << " against " << b.cost;
  if (a.nodes != b.nodes) return ::testing::AssertionFailure() << "the corridors differ";
  if (a.points.size() != b.points.size()) return ::testing::AssertionFailure() << "the point counts differ";
  for (std::size_t i = 0; i < a.points.size(); ++i)
    if (!same_point(a.points[i], b.points[i])) return ::testing::AssertionFailure() << "point " << i << " differs";
  if (a.links != b.links) return ::testing::AssertionFailure() << "the links taken differ";
  return ::testing::AssertionSuccess();
}

// ---- A small mesh with everything a file keeps

// Two rooms 4 apart, joined only by a one-way link and a two-way one; the second room is
// concave (an L), so the build splits it; every polygon has detail triangles a little above it.
MeshGeometry small_geometry() {
  MeshGeometry geometry;
  geometry.source = "<small>";
  geometry.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 2}, {0, 0, 2},                      // room A: 0-3
                       {6, 1, 0}, {10, 1, 0}, {10, 1, 2}, {8, 1, 2}, {8, 1, 4}, {6, 1, 4}};  // room B (L): 4-9
  geometry.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7, 8, 9}};
  geometry.polygon_areas = {2, 5};
  geometry.polygon_flags = {0x0001, 0x8004};
  geometry.detail_vertices = {{0, 0.1, 0}, {2, 0.1, 0}, {2, 0.2, 2}, {0, 0.2, 2},
                              {6, 1.1, 0}, {10, 1.1, 0}, {10, 1.1, 2}, {8, 1.1, 2}, {8, 1.1, 4}, {6, 1.1, 4}};
  geometry.detail_triangles = {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}, {4, 7, 8}, {4, 8, 9}};
  geometry.detail_starts = {0, 2, 6};
  OffMeshLink jump;
  jump.start = {1.5, 0, 1};
  jump.end = {6.5, 1, 1};
  jump.bidirectional = false;
  jump.cost = 12.5;
  jump.area = 7;
  jump.flags = 0x0002;
  jump.user_id = 77;
  jump.radius = 0.5;
  OffMeshLink ladder;
  ladder.start = {1, 0, 1.5};
  ladder.end = {7, 1, 3.5};
  ladder.user_id = 78;
  geometry.off_mesh_links = {jump, ladder};
  return geometry;
}

NavMesh small_mesh() {
  NavMesh mesh = NavMesh::build(small_geometry());
  // What was edited and added after the build is kept too.
  mesh.set_area(0, 3);
  OffMeshLink late;
  late.start = {0.5, 0, 0.5};
  late.end = {9.5, 1, 0.5};
  late.bidirectional = false;
  late.user_id = 79;
  (void)mesh.add_off_mesh_link(late);
  return mesh;
}

std::string checksummed(std::string bytes) {
  const std::size_t body = bytes.size() - 8;
  const std::uint64_t sum = fnv1a(reinterpret_cast<const unsigned char*>(bytes.data()), body);
  for (int i = 0; i < 8; ++i) bytes[body + static_cast<std::size_t>(i)] = static_cast<char>(sum >> (8 * i));
  return bytes;
}

void put_u32(std::string& bytes, std::size_t offset, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[offset + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
}

/// The LoadError's cause when parsing `bytes` throws one; fails the test otherwise.
std::string load_error_of(const std::string& bytes) {
  try {
    (void)NavMesh::build(parse_navmesh_file(bytes, "damaged.wfnav"));
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), "damaged.wfnav");
    return error.cause();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a LoadError: " << error.what();
    return {};
  }
  ADD_FAILURE() << "no error";
  return {};
}

class NavMeshFiles : public testing::TemporaryFolderTest {};

TEST_F(NavMeshFiles, KeepPolygonsAreasFlagsDetailAndLinks) {
  const NavMesh mesh = small_mesh();
  ASSERT_GT(mesh.polygon_count(), 2u) << "the L room is split";
  ASSERT_TRUE(mesh.has_detail_heights());
  const std::filesystem::path file = directory_ / "small.wfnav";
  write_navmesh_file(mesh, file);
  const NavMesh read = read_navmesh_file(file);
  EXPECT_EQ(read.source(), file.string());
  expect_same_geometry(mesh.to_geometry(), read.to_geometry());
  ASSERT_EQ(read.polygon_count(), mesh.polygon_count());
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    EXPECT_EQ(read.area(p), mesh.area(p));
    EXPECT_EQ(read.flags(p), mesh.flags(p));
    EXPECT_EQ(read.region(p), mesh.region(p));
  }
  EXPECT_EQ(read.area(0), 3);
  EXPECT_EQ(read.flags(1), 0x8004);
  ASSERT_EQ(read.off_mesh_link_count(), 3u);
  for (OffMeshLinkId link = 0; link < 3; ++link) {
    EXPECT_EQ(read.off_mesh_link(link).start_polygon, mesh.off_mesh_link(link).start_polygon);
    EXPECT_EQ(read.off_mesh_link(link).end_polygon, mesh.off_mesh_link(link).end_polygon);
    EXPECT_EQ(bits(read.off_mesh_link(link).cost), bits(mesh.off_mesh_link(link).cost));
  }
  EXPECT_EQ(read.off_mesh_link(0).input.user_id, 77u);
  EXPECT_EQ(read.off_mesh_link(2).input.user_id, 79u);
  // Heights come from the detail triangles, not the polygons.
  EXPECT_DOUBLE_EQ(read.height_at(0, 1.0, 0.0), 0.1);
  // Paths across the links answer the same.
  NavMeshQuery before(mesh), after(read);
  for (const auto& [start, goal] : std::vector<std::pair<Point, Point>>{
           {{0.5, 0, 1.5}, {9, 1, 1}}, {{7, 1, 3}, {1, 0, 1}}, {{1, 0, 1}, {6.5, 1, 3.5}}}) {
    const PathResult a = before.find_path(start, goal);
    EXPECT_TRUE(a.found());
    EXPECT_TRUE(same_answer(a, after.find_path(start, goal)));
  }
  // Writing the mesh read back gives the same bytes.
  EXPECT_EQ(navmesh_file_bytes(read), navmesh_file_bytes(mesh));
}

TEST_F(NavMeshFiles, KeepAMeshWithoutDetailTagsOrLinks) {
  const NavMesh mesh = NavMesh::from_arrays(std::vector<Point>{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
                                            std::vector<std::uint32_t>{0, 1, 2, 3}, std::vector<std::uint32_t>{4});
  const NavMesh read = NavMesh::build(parse_navmesh_file(navmesh_file_bytes(mesh), "plain.wfnav"));
  EXPECT_FALSE(read.has_detail_heights());
  EXPECT_EQ(read.off_mesh_link_count(), 0u);
  expect_same_geometry(mesh.to_geometry(), read.to_geometry());
}

TEST_F(NavMeshFiles, KeepAMeshBuiltFromASelfCrossingPolygon) {
  // A quad whose boundary crosses itself: the split makes one ear clockwise, which the build
  // turns round, so the mesh's polygons are all counter-clockwise and the file rebuilds them as
  // they are.
  const NavMesh mesh = NavMesh::from_arrays(std::vector<Point>{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, -65536}},
                                            std::vector<std::uint32_t>{0, 1, 2, 3}, std::vector<std::uint32_t>{4});
  ASSERT_EQ(mesh.polygon_count(), 2u);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto corners = mesh.polygon_vertices(p);
    EXPECT_GT(geometry::cross_xz(mesh.vertex(corners[0]), mesh.vertex(corners[1]), mesh.vertex(corners[2])), 0.0)
        << "polygon " << p << " is counter-clockwise, as NavMesh measures it";
  }
  const std::string bytes = navmesh_file_bytes(mesh);
  const NavMesh read = NavMesh::build(parse_navmesh_file(bytes, "crossing.wfnav"));
  expect_same_geometry(mesh.to_geometry(), read.to_geometry());
  EXPECT_EQ(navmesh_file_bytes(read), bytes);
}

// ---- Tiled meshes (version 2) and version-1 files

// Tile (x, z) of a 2 x 2 grid of 2-wide tiles: a square of its own with an area and flags of its
// own; tiles with x = 1 have detail triangles a little above their polygons.
MeshGeometry square_tile(int x, int z) {
  MeshGeometry tile;
  tile.source = "<tiles>";
  const double x0 = 2.0 * x, z0 = 2.0 * z;
  tile.vertices = {{x0, 0, z0}, {x0 + 2, 0, z0}, {x0 + 2, 0, z0 + 2}, {x0, 0, z0 + 2}};
  tile.polygons = {{0, 1, 2, 3}};
  tile.polygon_areas = {static_cast<AreaId>(1 + x + 2 * z)};
  tile.polygon_flags = {static_cast<AreaFlags>(1u << (x + 2 * z))};
  if (x == 1) {
    tile.detail_vertices = {{x0, 0.1, z0}, {x0 + 2, 0.1, z0}, {x0 + 2, 0.2, z0 + 2}, {x0, 0.2, z0 + 2}};
    tile.detail_triangles = {{0, 1, 2}, {0, 2, 3}};
    tile.detail_starts = {0, 2};
  }
  return tile;
}

NavMeshTileGrid small_tile_grid() {
  NavMeshTileGrid grid;
  grid.tile_width = 2.0;
  grid.tiles_x = 2;
  grid.tiles_z = 2;
  grid.max_polygons_per_tile = 4;
  grid.border_climb = 0.5;
  return grid;
}

// Four tiles, an edited area, a link across tiles, and one onto tile (1, 1), which is then
// removed, so that the link is detached.
NavMesh small_tiled_mesh() {
  std::vector<NavMeshTile> tiles;
  for (int z = 0; z < 2; ++z)
    for (int x = 0; x < 2; ++x) tiles.push_back({x, z, square_tile(x, z)});
  NavMesh mesh = NavMesh::build_tiled(small_tile_grid(), tiles);
  mesh.set_area(0, 9);
  OffMeshLink across;
  across.start = {0.5, 0, 0.5};
  across.end = {3.5, 0.1, 0.5};
  across.user_id = 5;
  (void)mesh.add_off_mesh_link(across);
  OffMeshLink onto_removed;
  onto_removed.start = {0.5, 0, 3.5};
  onto_removed.end = {3.5, 0.2, 3.5};
  onto_removed.bidirectional = false;
  onto_removed.user_id = 6;
  (void)mesh.add_off_mesh_link(onto_removed);
  mesh.remove_tile(1, 1);
  return mesh;
}

void expect_same_tiles(const NavMesh& a, const NavMesh& b) {
  ASSERT_TRUE(a.is_tiled());
  ASSERT_TRUE(b.is_tiled());
  const NavMeshTileGrid &ga = a.tile_grid(), &gb = b.tile_grid();
  EXPECT_EQ(bits(ga.origin_x), bits(gb.origin_x));
  EXPECT_EQ(bits(ga.origin_z), bits(gb.origin_z));
  EXPECT_EQ(bits(ga.tile_width), bits(gb.tile_width));
  EXPECT_EQ(bits(ga.border_climb), bits(gb.border_climb));
  EXPECT_EQ(ga.tiles_x, gb.tiles_x);
  EXPECT_EQ(ga.tiles_z, gb.tiles_z);
  EXPECT_EQ(ga.max_polygons_per_tile, gb.max_polygons_per_tile);
  const std::vector<NavMeshTileInfo> ta = a.tiles(), tb = b.tiles();
  ASSERT_EQ(ta.size(), tb.size());
  for (std::size_t t = 0; t < ta.size(); ++t) {
    EXPECT_EQ(ta[t].tile_x, tb[t].tile_x);
    EXPECT_EQ(ta[t].tile_z, tb[t].tile_z);
    EXPECT_EQ(ta[t].first_polygon, tb[t].first_polygon);
    EXPECT_EQ(ta[t].polygon_count, tb[t].polygon_count);
    expect_same_geometry(a.tile_geometry(ta[t].tile_x, ta[t].tile_z), b.tile_geometry(tb[t].tile_x, tb[t].tile_z));
  }
  ASSERT_EQ(a.polygon_count(), b.polygon_count());
  for (PolygonId p = 0; p < a.polygon_count(); ++p) {
    EXPECT_EQ(a.area(p), b.area(p)) << p;
    EXPECT_EQ(a.flags(p), b.flags(p)) << p;
    EXPECT_EQ(a.region(p), b.region(p)) << p;
  }
  ASSERT_EQ(a.off_mesh_link_count(), b.off_mesh_link_count());
  for (OffMeshLinkId link = 0; link < a.off_mesh_link_count(); ++link) {
    EXPECT_EQ(a.off_mesh_link_attached(link), b.off_mesh_link_attached(link)) << link;
    EXPECT_EQ(a.off_mesh_link(link).start_polygon, b.off_mesh_link(link).start_polygon) << link;
    EXPECT_EQ(a.off_mesh_link(link).end_polygon, b.off_mesh_link(link).end_polygon) << link;
  }
}

TEST_F(NavMeshFiles, KeepATiledMeshTiled) {
  NavMesh mesh = small_tiled_mesh();
  ASSERT_FALSE(mesh.off_mesh_link_attached(1)) << "its end's tile is removed";
  const std::filesystem::path file = directory_ / "tiled.wfnav";
  write_navmesh_file(mesh, file);
  NavMesh read = read_navmesh_file(file);
  expect_same_tiles(mesh, read);
  EXPECT_EQ(read.revision(), 0u);
  EXPECT_EQ(read.area(0), 9);
  EXPECT_EQ(navmesh_file_bytes(read), navmesh_file_bytes(mesh)) << "written again, the same bytes";
  // The flattened reading gives the joined mesh (unused ids left out).
  expect_same_geometry(parse_navmesh_file(navmesh_file_bytes(mesh), "x.wfnav"), mesh.to_geometry());
  // Tiles change on the mesh read as on the one written: the removed tile comes back and the
  // detached link with it.
  for (NavMesh* m : {&mesh, &read}) m->replace_tile(1, 1, square_tile(1, 1));
  expect_same_tiles(mesh, read);
  EXPECT_TRUE(read.off_mesh_link_attached(1));
  NavMeshQuery before(mesh), after(read);
  for (const auto& [start, goal] : std::vector<std::pair<Point, Point>>{
           {{0.5, 0, 0.5}, {3.5, 0, 3.5}}, {{0.5, 0, 3.5}, {3.9, 0, 0.1}}, {{3.5, 0, 3.5}, {0.2, 0, 0.2}}}) {
    const PathResult a = before.find_path(start, goal);
    EXPECT_TRUE(a.found());
    EXPECT_TRUE(same_answer(a, after.find_path(start, goal)));
  }
  read.remove_tile(0, 0);
  EXPECT_EQ(read.tiles().size(), 3u);
}

// The version-1 layout of `bytes` (a version-2 file of an untiled mesh): the TILE section, the
// last, left out.
std::string as_version_1(std::string bytes) {
  constexpr std::size_t empty_tile_section = 16 + 4;
  bytes.erase(bytes.size() - 8 - empty_tile_section, empty_tile_section);
  put_u32(bytes, 8, 1);
  put_u32(bytes, 56, 5);
  for (int i = 0; i < 8; ++i) bytes[48 + static_cast<std::size_t>(i)] = static_cast<char>(std::uint64_t{bytes.size()} >> (8 * i));
  return checksummed(bytes);
}

TEST(NavMeshFileVersions, VersionOneFilesAreStillRead) {
  const NavMesh mesh = small_mesh();
  const std::string old = as_version_1(navmesh_file_bytes(mesh));
  const NavMesh read = navmesh_from_file_bytes(old, "old.wfnav");
  expect_same_geometry(mesh.to_geometry(), read.to_geometry());
  EXPECT_EQ(navmesh_file_bytes(read), navmesh_file_bytes(mesh)) << "written again in version 2";
  // A version-1 file with six sections is damaged: version 1 has five.
  std::string six = navmesh_file_bytes(mesh);
  put_u32(six, 8, 1);
  EXPECT_NE(load_error_of(checksummed(six)).find("damaged header: 6 sections; version 1 has 5 (at byte 56)"),
            std::string::npos);
}

TEST(NavMeshFileDamage, EveryFlippedByteOfATiledFileIsALoadError) {
  const std::string bytes = navmesh_file_bytes(small_tiled_mesh());
  ASSERT_LT(bytes.size(), 2000u);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ 0x01u);
    EXPECT_NE(load_error_of(damaged).find("(at byte "), std::string::npos) << "byte " << i;
  }
  for (std::size_t length = 0; length < bytes.size(); length += 7) (void)load_error_of(bytes.substr(0, length));
}

TEST(NavMeshFileDamage, BadTilesAreNamed) {
  const std::string bytes = navmesh_file_bytes(small_tiled_mesh());
  // The TILE section's payload: after the header and five sections (VERT, POLY, TAGS and DETL
  // empty: 4, 8, 4 and 12 bytes; LINK two links).
  const std::size_t tile_payload = 64 + 16 * 5 + 4 + 8 + 4 + 12 + 4 + 2 * 72 + 16;
  const std::size_t grid_counts = tile_payload + 4 + 4 * 8;
  const std::size_t first_tile = grid_counts + 12;
  std::string outside = bytes;
  put_u32(outside, first_tile, 7);
  const std::string outside_cause = load_error_of(checksummed(outside));
  EXPECT_NE(outside_cause.find("tile (7, 0) is outside the grid of 2 x 2 tiles (at byte " + std::to_string(first_tile) + ")"),
            std::string::npos)
      << outside_cause;
  std::string no_tiles = bytes;
  put_u32(no_tiles, grid_counts, 0);
  EXPECT_NE(load_error_of(checksummed(no_tiles)).find("the tile grid of 0 x 2 tiles"), std::string::npos);
  // A grid of more polygon ids than a mesh may have (2^22): refused before anything is built,
  // since every id costs memory whether a polygon fills it or not.
  std::string many_ids = bytes;
  put_u32(many_ids, grid_counts + 8, (1u << 20) + 1);  // 2 x 2 tiles of 2^20 + 1 polygons each
  const std::string many_ids_cause = load_error_of(checksummed(many_ids));
  EXPECT_NE(many_ids_cause.find("the tile grid of 2 x 2 tiles of 1048577 polygons each is not one a mesh can have "
                                "(each at least 1, their product at most 2^22) (at byte " +
                                std::to_string(grid_counts) + ")"),
            std::string::npos)
      << many_ids_cause;
  std::string order = bytes;
  put_u32(order, first_tile + 4, 1);  // the first tile as (0, 1), before (1, 0)
  EXPECT_NE(load_error_of(checksummed(order)).find("tile (1, 0) is out of tile order"), std::string::npos);
  std::string wide = bytes;
  put_u32(wide, tile_payload + 4 + 16, 0);  // tile width 0 is below its lowest bits: set the high ones
  put_u32(wide, tile_payload + 4 + 20, 0xbff00000u);
  EXPECT_NE(load_error_of(checksummed(wide)).find("the tile width is -1.000000; it must be > 0"), std::string::npos);
}

TEST(NavMeshFileDamage, EveryFlippedByteIsALoadError) {
  const std::string bytes = navmesh_file_bytes(small_mesh());
  ASSERT_LT(bytes.size(), 2000u) << "a small file, so that every byte can be tried";
  // Any one changed byte changes FNV-1a, so no flip can go unnoticed: each must be refused.
  for (const unsigned mask : {0x01u, 0x80u, 0xffu}) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ mask);
      const std::string cause = load_error_of(damaged);
      EXPECT_NE(cause.find("(at byte "), std::string::npos) << "byte " << i << ": " << cause;
    }
  }
}

TEST(NavMeshFileDamage, EveryTruncationIsALoadError) {
  const std::string bytes = navmesh_file_bytes(small_mesh());
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    const std::string cause = load_error_of(bytes.substr(0, length));
    if (length >= 8) {
      EXPECT_NE(cause.find("truncated"), std::string::npos) << length << ": " << cause;
    }
  }
  EXPECT_NE(load_error_of(bytes + '\0').find("says the file has"), std::string::npos);
}

TEST(NavMeshFileDamage, ForeignFilesAreNamedSo) {
  for (const std::string& foreign : {std::string(), std::string("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n"),
                                    std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), std::string("WFNAV")}) {
    const std::string cause = load_error_of(foreign);
    EXPECT_NE(cause.find("not a Wayfinder navmesh file"), std::string::npos) << cause;
    EXPECT_NE(cause.find("at byte 0"), std::string::npos) << cause;
  }
  // The right magic, another writer or content.
  std::string other = navmesh_file_bytes(small_mesh());
  other[16] = 'X';
  EXPECT_NE(load_error_of(checksummed(other)).find("the writer is \"Xayfinder\""), std::string::npos);
  other = navmesh_file_bytes(small_mesh());
  std::memcpy(other.data() + 32, "voxels\0", 8);
  EXPECT_NE(load_error_of(checksummed(other)).find("the content is \"voxels\""), std::string::npos);
}

TEST(NavMeshFileDamage, NewerVersionsAreRefusedByName) {
  std::string newer = navmesh_file_bytes(small_mesh());
  put_u32(newer, 8, 3);
  const std::string cause = load_error_of(checksummed(newer));
  EXPECT_NE(cause.find("version 3 is newer than this build of Wayfinder reads (version 2)"), std::string::npos)
      << cause;
  EXPECT_NE(cause.find("at byte 8"), std::string::npos) << cause;
  // Even with a layout this version cannot check (the checksum is no longer right).
  newer.resize(100);
  EXPECT_NE(load_error_of(newer).find("newer"), std::string::npos);
}

TEST(NavMeshFileDamage, CountsAreBoundedByTheFileBeforeAllocating) {
  // Checksums made right, so the counts themselves are what is checked.
  const std::string bytes = navmesh_file_bytes(small_mesh());
  constexpr std::size_t first_payload = 64 + 16;  // the vertex count
  std::string huge = bytes;
  put_u32(huge, first_payload, 0xffffffffu);
  EXPECT_NE(load_error_of(checksummed(huge)).find("4294967295 vertices need"), std::string::npos);
  // A vertex index out of range: the first corner of the first polygon.
  const std::size_t vertex_count = 10;
  const std::size_t polygon_section = first_payload + 4 + 24 * vertex_count;
  const std::size_t polygon_count = small_mesh().polygon_count();
  std::string bad_index = bytes;
  put_u32(bad_index, polygon_section + 16 + 8 + 4 * polygon_count, 10);
  const std::string bad_index_cause = load_error_of(checksummed(bad_index));
  EXPECT_NE(bad_index_cause.find("vertex index 10 is out of range: there are 10 vertices (at byte " +
                                 std::to_string(polygon_section + 16 + 8 + 4 * polygon_count) + ")"),
            std::string::npos)
      << bad_index_cause;
  // A coordinate that is not finite.
  std::string nan = bytes;
  std::memset(nan.data() + first_payload + 4, 0xff, 8);
  EXPECT_NE(load_error_of(checksummed(nan)).find("is not a finite number (at byte 84)"), std::string::npos);
  // A polygon of two corners.
  std::string two = bytes;
  put_u32(two, polygon_section + 16 + 8, 2);
  EXPECT_NE(load_error_of(checksummed(two)).find("polygon 0 has 2 vertices"), std::string::npos);
}

#if WAYFINDER_TEST_WITH_RECAST

using testing::data_directory;
using testing::data_required;

// Builds the level (in tiles of 32 cells with `tiled`, kept as tiles), saves it, reads it back,
// and runs every reference query on both.
void check_reference_queries_after_reading_back(const std::string& level_name, bool tiled = false) {
  const std::filesystem::path level = data_directory() / "meshes" / "recastnavigation" / (level_name + ".obj");
  const std::filesystem::path queries_path =
      data_directory() / "meshes" / "derived" / (level_name + "_reference_queries.csv");
  if (!std::filesystem::exists(level) || !std::filesystem::exists(queries_path)) {
    if (data_required()) FAIL() << level << " or " << queries_path << " not found; WAYFINDER_REQUIRE_DATA=1 requires them";
    GTEST_SKIP() << level_name << " level or queries not found under " << data_directory();
  }
  // The times printed are what docs/navmesh-file.md quotes: building from the level (reading the
  // OBJ, Recast, NavMesh::build) against reading the baked file (best of 5; it includes
  // NavMesh::build of what it read).
  using Clock = std::chrono::steady_clock;
  const auto build_start = Clock::now();
  AgentSettings settings;
  if (tiled) settings.tile_size = 32;
  const NavMeshTileSet tile_set = tiled ? build_navmesh_tiles(read_obj_mesh(level), settings) : NavMeshTileSet{};
  const NavMesh built = tiled ? NavMesh::build_tiled(tile_set.grid, tile_set.tiles)
                              : NavMesh::build(build_navmesh_geometry(read_obj_mesh(level)));
  const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - build_start).count();
  ASSERT_TRUE(built.has_detail_heights());
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("wayfinder_navmesh_file_" + level_name + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       (tiled ? "_tiled" : "") + ".wfnav");
  write_navmesh_file(built, file);
  double read_ms = 0.0;
  for (int run = 0; run < 5; ++run) {
    const auto read_start = Clock::now();
    (void)read_navmesh_file(file);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - read_start).count();
    read_ms = run == 0 ? ms : std::min(read_ms, ms);
  }
  const NavMesh read = read_navmesh_file(file);
  const auto file_bytes = std::filesystem::file_size(file);
  std::filesystem::remove(file);
  expect_same_geometry(built.to_geometry(), read.to_geometry());
  ASSERT_TRUE(read.has_detail_heights());
  if (tiled) expect_same_tiles(built, read);
  EXPECT_EQ(read.region_count(), built.region_count());

  const std::filesystem::path obj_file = std::filesystem::path(file).replace_extension(".obj");
  write_obj_mesh(built.to_geometry(), obj_file);
  const NavMesh from_obj = NavMesh::build(read_obj_mesh(obj_file));
  std::filesystem::remove(obj_file);
  std::size_t changed_by_obj = 0;

  const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
  NavMeshQuery before(built), after(read), obj_query(from_obj);
  PathResult a, b;
  std::size_t found = 0, different = 0;
  for (const MeshQueryCase& q : queries) {
    for (const Point& end : {q.start, q.goal}) {
      const MeshLocation before_saving = built.locate(end), after_reading = read.locate(end);
      EXPECT_EQ(before_saving.polygon, after_reading.polygon) << q.line;
      EXPECT_TRUE(same_point(before_saving.point, after_reading.point)) << q.line;
    }
    before.find_path(q.start, q.goal, NavMeshSearchOptions{}, a);
    after.find_path(q.start, q.goal, NavMeshSearchOptions{}, b);
    found += a.found() ? 1 : 0;
    // What an OBJ of the polygons loses: the detail heights, so the heights of the waypoints
    // and the 3D costs.
    // (A tiled mesh's OBJ has its polygons renumbered: its answers are not compared.)
    if (!tiled && !same_answer(a, obj_query.find_path(q.start, q.goal))) ++changed_by_obj;
    const auto same = same_answer(a, b);
    if (!same) {
      ++different;
      ADD_FAILURE() << queries_path.filename() << ":" << q.line << ": " << same.message();
    }
  }
  std::cout << level_name << ": built from the level in " << build_ms << " ms; " << file_bytes << " bytes, read in "
            << read_ms << " ms; " << queries.size()
            << " reference queries, " << found << " found, " << different
            << " answered differently after reading back (" << changed_by_obj
            << " by the mesh's OBJ read back)\n";
  EXPECT_EQ(queries.size(), 10000u);
  EXPECT_GT(found, 0u);
}

TEST(NavMeshFileReference, DungeonAnswersEveryReferenceQueryAsBeforeSaving) {
  check_reference_queries_after_reading_back("dungeon");
}

TEST(NavMeshFileReference, NavTestAnswersEveryReferenceQueryAsBeforeSaving) {
  check_reference_queries_after_reading_back("nav_test");
}

TEST(NavMeshFileReference, TiledDungeonAnswersEveryReferenceQueryAsBeforeSaving) {
  check_reference_queries_after_reading_back("dungeon", true);
}

TEST(NavMeshFileReference, TiledNavTestAnswersEveryReferenceQueryAsBeforeSaving) {
  check_reference_queries_after_reading_back("nav_test", true);
}

#endif

}  // namespace
}  // namespace wayfinder
