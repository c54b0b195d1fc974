#pragma once
// What a NavMeshTileCache keeps to rebuild tiles without the level, and its bytes: the payload
// of the baked navmesh file's tile cache section (TCCH; docs/navmesh-file.md, "The tile cache
// section"). Internal to the navmesh_build library.
//
//   u32  layout version (tile_cache_layout_version)
//   the agent settings: f64 cell size, cell height, agent height, agent radius, max climb, max
//        slope; u32 region min size, region merge size; f64 edge max length, edge max error;
//        u32 vertices per polygon; f64 detail sample distance, detail sample max error;
//        u32 tile size; u32 partition (0 watershed, 1 monotone, 2 layers)
//   the level: f32 bounds min x, y, z, bounds max x, y, z; u32 n; n x (u8 area, u16 flags), the
//        (area, flags) pair of each Recast area id from 1
//   u32  tiles (tiles x * tiles z of the grid the settings and bounds give; 0 for a level with
//        no cells), in row order; each: u8 kept (0: no triangles over the tile, nothing
//        follows; 1); u32 width, depth, spans, walkable height, walkable climb; f32 bounds min
//        x, y, z, bounds max x, y, z, cell size, cell height; u32 n; n packed bytes

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "navmesh_build/compact_heightfield_packing.hpp"
#include "navmesh_build/recast_stages.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder {

inline constexpr std::uint32_t tile_cache_layout_version = 1;

/// The cache's kept data: settings, the level's bounds and area tags (no triangles), the grid
/// they give, and every tile's packed heightfield (nullopt: no triangles over the tile).
struct TileCacheData {
  AgentSettings settings;
  RecastLevel level;
  TileGrid grid;
  std::vector<std::optional<PackedHeightfield>> tiles;
};

/// The bytes of `settings`, `level`'s bounds and tags and `tiles`.
std::string tile_cache_bytes(const AgentSettings& settings, const RecastLevel& level,
                             const std::vector<std::optional<PackedHeightfield>>& tiles);

/// The data in `bytes`, every field checked (settings as settings_problem checks them, a tiled
/// build, finite bounds, tags, the tile count of the grid, each tile's sizes against its box and
/// its planes decoded once). Throws LoadError naming `source`, with the byte offset (counted
/// from `offset`, where the bytes start in their file).
TileCacheData read_tile_cache_bytes(std::string_view bytes, const std::string& source, std::size_t offset);

}  // namespace wayfinder
