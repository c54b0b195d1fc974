#pragma once
// Navigation meshes from level geometry, built by Recast (Mononen's recastnavigation, Debian's
// librecast-dev): the level's triangles are voxelized, the spans an agent of the given size can
// stand on are kept, partitioned into regions (watershed), traced into contours and turned into
// convex polygons. Wayfinder's own NavMesh and queries then run on the result.
//
// This is the optional `wayfinder::navmesh_build` library: built only when Recast is found,
// so the core library keeps no dependency on it.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh_tiles.hpp"

namespace wayfinder {

/// How Recast splits the walkable area into regions before tracing them (RecastDemo's three
/// choices). The watershed gives the fewest, roundest polygons and is the slowest; monotone
/// sweeps rows into regions, fastest, but makes long thin polygons; layers sweeps like monotone
/// but keeps overlapping floors apart, as Detour's tile cache does (its rebuilds are the
/// cheapest after monotone's).
enum class RegionPartition { watershed, monotone, layers };

/// What the mesh is built for, and how finely. The defaults are RecastDemo's solo-mesh defaults,
/// with which ../shared/data/meshes/derived/*_navmesh.obj were built. Lengths are in world units
/// (the level's), angles in degrees.
struct AgentSettings {
  /// Width and depth of a voxel. Smaller is more exact and slower (time grows with its inverse
  /// square); about a third of the agent's radius is the usual choice.
  double cell_size = 0.3;
  /// Height of a voxel: the resolution of heights, steps and clearances.
  double cell_height = 0.2;
  /// The agent's height: floors with less room above them are not walkable.
  double agent_height = 2.0;
  /// The agent's radius: the walkable area keeps this far from walls and ledges.
  double agent_radius = 0.6;
  /// The highest step the agent climbs (stairs, kerbs).
  double max_climb = 0.9;
  /// The steepest slope the agent walks, in degrees from horizontal (0 to 90).
  double max_slope_degrees = 45.0;
  /// Regions smaller than this many voxels, measured as a side length (region min size 8 means
  /// 64 voxels), are dropped: specks on tables and ledges.
  int region_min_size = 8;
  /// Regions smaller than this (side length in voxels, squared) are merged into a neighbour.
  int region_merge_size = 20;
  /// Longest polygon edge along a wall (0: no limit); long walls are split at this length.
  double edge_max_length = 12.0;
  /// How far a simplified wall may stray from the voxel outline, in voxel widths.
  double edge_max_error = 1.3;
  /// Most vertices per polygon, 3 to 12 (Detour stops at 6; Wayfinder's NavMesh takes more).
  /// Tiled builds may add vertices where tiles meet (see tile_size).
  int vertices_per_polygon = 6;
  /// Spacing of the height samples of the detail mesh, in cell sizes (6: a sample every 1.8
  /// units with the default cell size); below 0.9, only the polygons' edges are sampled. The
  /// detail mesh is what keeps waypoints on the level's ground (MeshGeometry::detail_triangles).
  double detail_sample_distance = 6.0;
  /// How far the detail mesh may stray from the voxel heights, in cell heights.
  double detail_sample_max_error = 1.0;
  /// 0 builds the level as one piece (Recast's "solo mesh"). Otherwise the level is cut into
  /// square tiles this many cells wide (RecastDemo's uses 48; 32 to 128 is usual), built one by
  /// one and stitched into one mesh in which every shared stretch of tile border is a shared
  /// edge; memory then depends on the tile, not the level (docs/navmesh.md, "Tiles").
  int tile_size = 0;
  /// How the walkable area is split into regions (see RegionPartition).
  RegionPartition partition = RegionPartition::watershed;
};

/// Why settings cannot be used (a non-positive or non-finite size, a slope outside 0..90,
/// vertices per polygon outside 3..12, ...), or nullopt.
std::optional<std::string> settings_problem(const AgentSettings& settings);

/// What the build did, for tools and logs.
struct NavMeshBuildReport {
  std::size_t input_triangles = 0;
  std::size_t walkable_triangles = 0;  ///< triangles no steeper than max_slope
  int grid_width = 0;                  ///< voxels along x
  int grid_depth = 0;                  ///< voxels along z
  int tiles = 0;                       ///< tiles built (1 for a solo build; tiles with nothing walkable count)
  std::size_t polygons = 0;
  std::size_t vertices = 0;
  std::size_t detail_triangles = 0;
  std::size_t border_vertices_added = 0;  ///< vertices added to polygon edges along tile borders
  double milliseconds = 0.0;
};

/// Called at each stage of a build with what it is doing and the share done (0 to 1).
using BuildProgress = std::function<void(std::string_view stage, double done)>;

/// Builds the navigation mesh of a level: the polygons (vertices in world units, y up, in
/// Recast's and Detour's vertex order) of the floor an agent of the given settings can
/// stand on, ready for NavMesh::build. The level's polygons are triangulated as fans. Throws
/// std::invalid_argument for bad settings or a level with no triangles, and std::runtime_error
/// naming the Recast stage that failed (out of memory, a grid too large); a level with nothing
/// walkable gives an empty geometry (no polygons), not an error.
///
/// Heights: the polygons' corners are Recast's coarse heights (within a cell height or so of the
/// level's floor); the result also holds Recast's detail mesh (detail_vertices,
/// detail_triangles, detail_starts), on which NavMesh places points and waypoints.
///
/// Areas: the level's polygon_areas and polygon_flags (as ObjReadOptions::areas gives them from
/// material and group names) carry over: each built polygon has the area and flags of the
/// walkable triangles it was made from, and Recast never merges ground of different areas into
/// one polygon. At most 63 different (area, flags) pairs (Recast's six bits of area per voxel).
MeshGeometry build_navmesh_geometry(const MeshGeometry& level, const AgentSettings& settings = {},
                                    NavMeshBuildReport* report = nullptr, const BuildProgress& progress = {});

/// A tiled build's tiles, each on its own (before they are stitched into one geometry), and
/// the grid they lie in: what NavMesh::build_tiled takes.
struct NavMeshTileSet {
  /// Tile (x, z) covers cells [x * tile_size, (x + 1) * tile_size) of the level's voxel grid;
  /// border_climb is the agent's climb (in whole cell heights) plus half a cell height of
  /// rounding; max_polygons_per_tile leaves room for rebuilt tiles (twice the fullest tile's
  /// polygons, rounded up to a power of two, at least 16), halved while the grid would have more
  /// than max_tiled_polygon_ids.
  NavMeshTileGrid grid;
  /// The tiles with something walkable, in tile order (z, then x).
  std::vector<NavMeshTile> tiles;
};

/// Builds the level in tiles (settings.tile_size > 0, else std::invalid_argument) as
/// build_navmesh_geometry does, and returns each tile's polygons and detail mesh on its own.
/// NavMesh::build_tiled(grid, tiles) joins them along their borders as build_navmesh_geometry
/// stitches them, so it answers queries as the stitched mesh does; one tile rebuilt later (with
/// the same settings and grid) replaces its tile (NavMesh::replace_tile). Same errors as
/// build_navmesh_geometry, and std::length_error when the tiles' polygons cannot have ids within
/// max_tiled_polygon_ids (too many tiles of too many polygons: larger tiles fix it).
NavMeshTileSet build_navmesh_tiles(const MeshGeometry& level, const AgentSettings& settings,
                                   NavMeshBuildReport* report = nullptr);

}  // namespace wayfinder
