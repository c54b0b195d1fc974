#pragma once
// Recast's pipeline (Mononen's recastnavigation, RecastDemo's solo and tile mesh samples) cut
// into named stages, shared by the one-shot build (navmesh_builder.cpp) and the tile cache
// (navmesh_tile_cache.cpp), which keeps each tile's compact heightfield between the stages
// "rasterize" and "erode" and runs the rest again when obstacles or area volumes change.
// Internal to the navmesh_build library, its tests and its benchmarks.

#include "navmesh_build/recast_pointer.hpp"
#include "navmesh_build/tile_border_weld.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

#include <recastnavigation/Recast.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace wayfinder {

// Recast reports why a stage failed through its log; keep the last error for the exception.
class RecastLog : public rcContext {
 public:
  RecastLog() : rcContext(true) { enableTimer(false); }
  [[nodiscard]] const std::string& last_error() const { return last_error_; }

 protected:
  void doLog(rcLogCategory category, const char* message, int length) override;

 private:
  std::string last_error_;
};

/// Throws std::runtime_error naming the stage and Recast's last error.
[[noreturn]] void stage_failed(const char* stage, const RecastLog& log);

// Recast indexes a compact heightfield's spans with 24 bits, so one piece (the whole level, or a
// tile with its border) holds at most this many cells.
inline constexpr double max_piece_cells = 16'777'216.0;
// Cells across a level's grid, tiled or not: well inside an int, and a float's exact integers.
inline constexpr int max_grid_side_cells = 1 << 24;

/// `value` as the shortest decimal text a stream writes, for messages.
std::string decimal_text(double value);

// The level as Recast takes it, shared by every tile: flat float positions, triangles, and per
// triangle the Recast area id it is rasterized with (0: not walkable).
struct RecastLevel {
  std::vector<float> vertices;
  std::vector<int> triangles;
  std::vector<unsigned char> triangle_areas;
  std::vector<float> triangle_boxes;  ///< per triangle: min x, min z, max x, max z
  float bounds_min[3] = {0, 0, 0}, bounds_max[3] = {0, 0, 0};
  int vertex_count = 0, triangle_count = 0;
  std::size_t walkable_triangles = 0;
  // Recast area id - 1 -> the (area, flags) of the level's polygons it stands for.
  std::vector<std::pair<AreaId, AreaFlags>> tags;
};

// Recast keeps six bits of area per span, 0 meaning "not walkable", and never merges spans of
// different areas into one region or polygon; each distinct (area, flags) of the level gets
// its own id from 1 up to RC_WALKABLE_AREA (63).
constexpr std::size_t most_tags = RC_WALKABLE_AREA;

/// The level checked (finite vertices, indices in range, areas) and converted for Recast, its
/// walkable triangles marked by slope and tagged with their (area, flags).
RecastLevel prepare_level(const MeshGeometry& level, const AgentSettings& settings, RecastLog& log);

// Sizes in voxels, rounded the safe way: room needed up, climbs down.
struct VoxelSizes {
  int walkable_height, walkable_climb, walkable_radius;
};
VoxelSizes voxel_sizes(const AgentSettings& settings);

/// The level's voxel grid and its cut into tiles, checked against Recast's limits (throws
/// std::invalid_argument with the reason and a remedy).
struct TileGrid {
  int width = 0, depth = 0;  ///< cells of the whole level
  int tiles_x = 1, tiles_z = 1;
  int tile = 0;    ///< settings.tile_size (0: one piece)
  int border = 0;  ///< context cells around a tile: the agent's radius plus 3, as RecastDemo's
  /// True when the level has cells at all (a level less than half a cell across has none).
  [[nodiscard]] bool has_cells() const { return width >= 1 && depth >= 1; }
};
TileGrid plan_tile_grid(const RecastLevel& level, const AgentSettings& settings);

/// The box one piece is built over: `width` x `depth` cells from `bounds_min`, of which `border`
/// cells on each side only give context. `cell_x`, `cell_z` is the piece's corner (without its
/// border) in the whole level's grid.
struct PieceBox {
  float bounds_min[3] = {0, 0, 0}, bounds_max[3] = {0, 0, 0};
  int width = 0, depth = 0, border = 0;
  int cell_x = 0, cell_z = 0;
};
/// The whole level's box (solo build) or tile (tile_x, tile_z)'s box with its border.
PieceBox piece_box(const RecastLevel& level, const AgentSettings& settings, const TileGrid& grid, int tile_x, int tile_z);

/// Stage 1: the level's triangles over the box rasterized, filtered (low obstacles, ledges,
/// headroom) and compacted: the walkable spans and their neighbours, not yet eroded. Null when
/// no triangle lies over the box.
RecastPointer<rcCompactHeightfield> rasterize_piece(const RecastLevel& level, const AgentSettings& settings,
                                                    const PieceBox& box, RecastLog& log, const BuildProgress& tell);

/// Stage 2: the walkable area shrunk by the agent's radius (from walls, ledges and null-area
/// spans such as marked obstacles).
void erode_walkable_area(rcCompactHeightfield& compact, const AgentSettings& settings, RecastLog& log);

// One piece of the level built by Recast: its polygons and their detail mesh. The polygons'
// vertices are voxel coordinates from the piece's own corner.
struct RecastPiece {
  RecastPointer<rcPolyMesh> polygons;
  RecastPointer<rcPolyMeshDetail> detail;
};

/// Stage 3: an eroded compact heightfield partitioned into regions (settings.partition), traced into
/// contours, turned into polygons and sampled into the detail mesh. Returns no polygons when
/// nothing is walkable.
RecastPiece build_polygons(rcCompactHeightfield& compact, const AgentSettings& settings, int border, RecastLog& log,
                           const BuildProgress& tell);

/// The three stages in a row over one box.
RecastPiece build_piece(const RecastLevel& level, const AgentSettings& settings, const PieceBox& box, RecastLog& log,
                        const BuildProgress& tell);

// The pieces' polygons gathered into one MeshGeometry. Vertices are keyed by their voxel
// coordinates in the whole level's grid, so a corner two tiles share is one vertex; at a tile
// border, a vertex of the tile across within the agent's climb in height is taken as the same
// (each tile traces the border from its own voxels, with the same border context, so the
// heights agree or nearly do). `tags` maps Recast area ids - 1 to the polygons' (area, flags).
class PieceStitcher {
 public:
  PieceStitcher(const RecastLevel& level, const AgentSettings& settings);
  PieceStitcher(const float* level_bounds_min, const std::vector<std::pair<AreaId, AreaFlags>>& tags,
                const AgentSettings& settings);

  void add(const RecastPiece& piece, int cell_x, int cell_z, MeshGeometry& out);

  // Splits polygon edges along tile borders at the vertices across them (tile_border_weld.hpp).
  std::size_t weld_borders(MeshGeometry& out) const;

 private:
  std::uint32_t vertex_id(int x, int y, int z, MeshGeometry& out);

  float origin_[3];
  const std::vector<std::pair<AreaId, AreaFlags>>& tags_;
  float cell_size_, cell_height_;
  int tile_size_;
  int climb_;
  std::vector<VoxelCorner> cells_;
  std::map<std::pair<int, int>, std::vector<std::uint32_t>> columns_;
};

}  // namespace wayfinder
