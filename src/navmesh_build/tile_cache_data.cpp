#include "navmesh_build/tile_cache_data.hpp"

#include <stdexcept>

#include "core/byte_reader.hpp"
#include "wayfinder/core/area_filter.hpp"

namespace wayfinder {

namespace {

void write_settings(ByteWriter& out, const AgentSettings& s) {
  for (const double value : {s.cell_size, s.cell_height, s.agent_height, s.agent_radius, s.max_climb, s.max_slope_degrees})
    out.f64(value);
  out.u32(static_cast<std::uint32_t>(s.region_min_size));
  out.u32(static_cast<std::uint32_t>(s.region_merge_size));
  out.f64(s.edge_max_length);
  out.f64(s.edge_max_error);
  out.u32(static_cast<std::uint32_t>(s.vertices_per_polygon));
  out.f64(s.detail_sample_distance);
  out.f64(s.detail_sample_max_error);
  out.u32(static_cast<std::uint32_t>(s.tile_size));
  out.u32(static_cast<std::uint32_t>(s.partition));
}

AgentSettings read_settings(ByteReader& in) {
  const std::size_t at = in.offset();
  AgentSettings s;
  for (double* value : {&s.cell_size, &s.cell_height, &s.agent_height, &s.agent_radius, &s.max_climb, &s.max_slope_degrees})
    *value = in.finite("an agent setting");
  s.region_min_size = static_cast<int>(in.u32("the region min size"));
  s.region_merge_size = static_cast<int>(in.u32("the region merge size"));
  s.edge_max_length = in.finite("the edge max length");
  s.edge_max_error = in.finite("the edge max error");
  s.vertices_per_polygon = static_cast<int>(in.u32("the vertices per polygon"));
  s.detail_sample_distance = in.finite("the detail sample distance");
  s.detail_sample_max_error = in.finite("the detail sample max error");
  s.tile_size = static_cast<int>(in.u32("the tile size"));
  const std::size_t partition_at = in.offset();
  const std::uint32_t partition = in.u32("the region partition");
  if (partition > static_cast<std::uint32_t>(RegionPartition::layers))
    in.fail(partition_at, "the region partition is " + std::to_string(partition) + "; it is 0, 1 or 2");
  s.partition = static_cast<RegionPartition>(partition);
  if (auto problem = settings_problem(s)) in.fail(at, "the tile cache's agent settings: " + *problem);
  if (s.tile_size <= 0) in.fail(at, "the tile cache's agent settings have no tile size (the cache is tiled)");
  return s;
}

void write_floats(ByteWriter& out, const float* values, int count) {
  for (int i = 0; i < count; ++i) out.f32(values[i]);
}

void read_floats(ByteReader& in, float* values, int count, const char* what) {
  for (int i = 0; i < count; ++i) values[i] = in.finite_float(what);
}

}  // namespace

std::string tile_cache_bytes(const AgentSettings& settings, const RecastLevel& level,
                             const std::vector<std::optional<PackedHeightfield>>& tiles) {
  ByteWriter out;
  out.u32(tile_cache_layout_version);
  write_settings(out, settings);
  write_floats(out, level.bounds_min, 3);
  write_floats(out, level.bounds_max, 3);
  out.u32(static_cast<std::uint32_t>(level.tags.size()));
  for (const auto& [area, flags] : level.tags) {
    out.u8(area);
    out.u16(flags);
  }
  out.u32(static_cast<std::uint32_t>(tiles.size()));
  for (const std::optional<PackedHeightfield>& tile : tiles) {
    out.u8(tile ? 1 : 0);
    if (!tile) continue;
    for (const int value : {tile->width, tile->depth, tile->span_count, tile->walkable_height, tile->walkable_climb})
      out.u32(static_cast<std::uint32_t>(value));
    write_floats(out, tile->bounds_min, 3);
    write_floats(out, tile->bounds_max, 3);
    out.f32(tile->cell_size);
    out.f32(tile->cell_height);
    out.u32(static_cast<std::uint32_t>(tile->bytes.size()));
    out.bytes().append(reinterpret_cast<const char*>(tile->bytes.data()), tile->bytes.size());
  }
  return std::move(out.bytes());
}

TileCacheData read_tile_cache_bytes(std::string_view bytes, const std::string& source, std::size_t offset) {
  ByteReader in(bytes, 0, bytes.size(), source, offset);
  const std::uint32_t version = in.u32("the tile cache's layout version");
  if (version != tile_cache_layout_version)
    in.fail(0, "tile cache layout version " + std::to_string(version) + " is not one this build reads (" +
                   std::to_string(tile_cache_layout_version) + ")");
  TileCacheData data;
  data.settings = read_settings(in);
  const std::size_t bounds_at = in.offset();
  read_floats(in, data.level.bounds_min, 3, "a tile cache bound");
  read_floats(in, data.level.bounds_max, 3, "a tile cache bound");
  for (int axis = 0; axis < 3; ++axis)
    if (data.level.bounds_min[axis] > data.level.bounds_max[axis])
      in.fail(bounds_at, "the tile cache's level bounds have a minimum above their maximum");
  const std::size_t tags_at = in.offset();
  const std::uint32_t tag_count = in.count("area tags", 3);
  if (tag_count > most_tags)
    in.fail(tags_at, std::to_string(tag_count) + " area tags; Recast has " + std::to_string(most_tags));
  for (std::uint32_t t = 0; t < tag_count; ++t) {
    const std::size_t area_at = in.offset();
    const AreaId area = in.u8("an area");
    if (area >= max_areas) in.fail(area_at, "area tag " + std::to_string(t) + " has area " + std::to_string(area));
    data.level.tags.emplace_back(area, in.u16("area flags"));
  }
  const std::size_t tiles_at = in.offset();
  try {
    data.grid = plan_tile_grid(data.level, data.settings);
  } catch (const std::invalid_argument& error) {
    in.fail(bounds_at, std::string("the tile cache's level and settings make no grid: ") + error.what());
  }
  const std::size_t expected = data.grid.has_cells() ? static_cast<std::size_t>(data.grid.tiles_x) *
                                                           static_cast<std::size_t>(data.grid.tiles_z)
                                                     : 0;
  const std::uint32_t tile_count = in.count("tiles", 1);
  if (tile_count != expected)
    in.fail(tiles_at, std::to_string(tile_count) + " tiles; the level's bounds and settings make " +
                          std::to_string(expected) + " (" + std::to_string(data.grid.tiles_x) + " x " +
                          std::to_string(data.grid.tiles_z) + ")");
  const VoxelSizes voxels = voxel_sizes(data.settings);
  data.tiles.resize(tile_count);
  for (std::uint32_t t = 0; t < tile_count; ++t) {
    const std::size_t tile_at = in.offset();
    const int tile_x = static_cast<int>(t % static_cast<std::uint32_t>(data.grid.tiles_x));
    const int tile_z = static_cast<int>(t / static_cast<std::uint32_t>(data.grid.tiles_x));
    const std::string name = "tile (" + std::to_string(tile_x) + ", " + std::to_string(tile_z) + ")";
    const std::uint8_t kept = in.u8("a tile's kept byte");
    if (kept > 1) in.fail(tile_at, name + "'s kept byte is " + std::to_string(kept) + ", not 0 or 1");
    if (kept == 0) continue;
    PackedHeightfield tile;
    for (int* value : {&tile.width, &tile.depth, &tile.span_count, &tile.walkable_height, &tile.walkable_climb})
      *value = static_cast<int>(in.u32("a tile's size"));
    read_floats(in, tile.bounds_min, 3, "a tile's bound");
    read_floats(in, tile.bounds_max, 3, "a tile's bound");
    tile.cell_size = in.finite_float("a tile's cell size");
    tile.cell_height = in.finite_float("a tile's cell height");
    // The stages after it read the field as the level's own tile: its sizes must be the box's.
    const PieceBox box = piece_box(data.level, data.settings, data.grid, tile_x, tile_z);
    if (tile.width != box.width || tile.depth != box.depth || tile.walkable_height != voxels.walkable_height ||
        tile.walkable_climb != voxels.walkable_climb || tile.cell_size != static_cast<float>(data.settings.cell_size) ||
        tile.cell_height != static_cast<float>(data.settings.cell_height) || tile.span_count < 0 ||
        static_cast<double>(tile.span_count) >= max_piece_cells)
      in.fail(tile_at, name + "'s heightfield is not one of this grid (" + std::to_string(tile.width) + " x " +
                           std::to_string(tile.depth) + " cells with " + std::to_string(tile.span_count) +
                           " spans; the grid's tiles have " + std::to_string(box.width) + " x " +
                           std::to_string(box.depth) + ", the settings' cells and agent)");
    const std::uint32_t packed = in.count("packed bytes", 1);
    const std::size_t packed_at = in.offset();
    const std::string_view rest = in.rest();
    tile.bytes.assign(rest.begin(), rest.begin() + packed);
    in.skip(packed, "packed bytes");
    if (auto problem = packed_heightfield_problem(tile, data.level.tags.size()))
      in.fail(packed_at, name + ": " + *problem);
    tile.bytes.shrink_to_fit();
    data.tiles[t] = std::move(tile);
  }
  if (in.left() != 0) in.fail(in.offset(), std::to_string(in.left()) + " unexpected bytes after the tile cache's tiles");
  return data;
}

}  // namespace wayfinder
