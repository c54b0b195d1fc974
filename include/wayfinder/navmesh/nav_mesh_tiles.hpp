#pragma once
// The pieces of a tiled navigation mesh (NavMesh::build_tiled): the grid of square tiles over
// the x-z plane, one tile's geometry, and stable references to polygons that notice when their
// tile is replaced (as Detour's dtPolyRef). Why the mesh is laid out as it is: docs/navmesh.md,
// "Tiles that change".

#include <cstdint>

#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

/// The most polygon ids a tiled mesh may have: tiles_x * tiles_z * max_polygons_per_tile must
/// not exceed it. 2^22, the tile and polygon bits of Detour's 32-bit polygon references. Every
/// id costs memory whether a polygon fills it or not (about 140 bytes once the mesh is built),
/// so the cap also bounds what a grid declared in a file can make a program allocate: at most
/// about 600 MB.
inline constexpr std::uint64_t max_tiled_polygon_ids = std::uint64_t{1} << 22;

/// The grid of tiles: tile (x, z) covers [origin_x + x * tile_width, origin_x + (x + 1) *
/// tile_width] by the same in z (world units). A tile's polygons must lie in its square (up to
/// a thousandth of tile_width). Each tile owns a fixed range of polygon ids,
/// max_polygons_per_tile wide, in row-major order (z outer): polygon i of tile (x, z) is
/// PolygonId (z * tiles_x + x) * max_polygons_per_tile + i whatever the other tiles hold, so a
/// change to one tile leaves every other tile's ids alone. Unused ids are empty polygons (no
/// vertices, no neighbours, never located).
struct NavMeshTileGrid {
  double origin_x = 0.0;
  double origin_z = 0.0;
  double tile_width = 1.0;  ///< > 0 and finite
  int tiles_x = 1;          ///< >= 1
  int tiles_z = 1;          ///< >= 1
  /// Polygons one tile may hold (>= 1; tiles_x * tiles_z * this at most max_tiled_polygon_ids).
  /// A tile with more (after concave inputs are split) is refused.
  std::uint32_t max_polygons_per_tile = 256;
  /// How far apart in height (world units) two tiles' vertices at the same x-z point on a
  /// shared border may be and still be joined: the builder's agent climb, since each tile
  /// traces the border from its own voxels and the heights agree within a climb.
  double border_climb = 0.0;
};

/// One tile's geometry in the grid: what NavMesh::build_tiled and replace_tile take, and what
/// build_navmesh_tiles (navmesh_build) returns. Geometry with no polygons means no tile there.
/// Off-mesh links in it are ignored (a tiled mesh's links are added with add_off_mesh_link).
struct NavMeshTile {
  int tile_x = 0;
  int tile_z = 0;
  MeshGeometry geometry;
};

/// A polygon of a tiled mesh that stays meaningful while tiles change: its tile (z * tiles_x +
/// x), its index in the tile, and the tile's salt when the reference was made. Replacing or
/// removing the tile changes the salt, so every reference into the old tile becomes invalid
/// (NavMesh::is_valid) even if the new tile has a polygon with the same index.
struct PolygonRef {
  std::uint32_t tile = 0;
  std::uint32_t polygon = 0;
  std::uint32_t salt = 0;  ///< 0 is never a live tile's salt: a default PolygonRef is invalid
  friend bool operator==(const PolygonRef&, const PolygonRef&) = default;
};

/// A tile of the mesh as it is now (NavMesh::tiles()).
struct NavMeshTileInfo {
  int tile_x = 0;
  int tile_z = 0;
  std::uint32_t first_polygon = 0;  ///< PolygonId of its polygon 0
  std::uint32_t polygon_count = 0;  ///< polygons in use, after repairs (concave inputs split)
  std::uint32_t salt = 0;
};

}  // namespace wayfinder
