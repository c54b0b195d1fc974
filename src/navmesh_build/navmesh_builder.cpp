#include "wayfinder/navmesh_build/navmesh_builder.hpp"

#include "navmesh_build/recast_stages.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace wayfinder {

namespace {

bool positive_finite(double value) { return std::isfinite(value) && value > 0.0; }

}  // namespace

std::optional<std::string> settings_problem(const AgentSettings& s) {
  if (!positive_finite(s.cell_size)) return "cell_size must be a finite number > 0";
  if (!positive_finite(s.cell_height)) return "cell_height must be a finite number > 0";
  if (!positive_finite(s.agent_height)) return "agent_height must be a finite number > 0";
  if (!(std::isfinite(s.agent_radius) && s.agent_radius >= 0.0)) return "agent_radius must be a finite number >= 0";
  if (!(std::isfinite(s.max_climb) && s.max_climb >= 0.0)) return "max_climb must be a finite number >= 0";
  if (!(s.max_slope_degrees >= 0.0 && s.max_slope_degrees <= 90.0)) return "max_slope_degrees must be in [0, 90]";
  if (s.region_min_size < 0 || s.region_min_size > 10'000) return "region_min_size must be in [0, 10000]";
  if (s.region_merge_size < 0 || s.region_merge_size > 10'000) return "region_merge_size must be in [0, 10000]";
  if (!(std::isfinite(s.edge_max_length) && s.edge_max_length >= 0.0)) return "edge_max_length must be a finite number >= 0";
  if (!(std::isfinite(s.edge_max_error) && s.edge_max_error >= 0.0)) return "edge_max_error must be a finite number >= 0";
  if (s.vertices_per_polygon < 3 || s.vertices_per_polygon > 12) return "vertices_per_polygon must be in [3, 12]";
  // Recast keeps heights and clearances in 16-bit voxel counts.
  if (s.agent_height / s.cell_height > 1000.0 || s.max_climb / s.cell_height > 1000.0)
    return "agent_height and max_climb must be at most 1000 cell heights";
  if (s.agent_radius / s.cell_size > 1000.0) return "agent_radius must be at most 1000 cell sizes";
  if (!(std::isfinite(s.detail_sample_distance) && s.detail_sample_distance >= 0.0))
    return "detail_sample_distance must be a finite number >= 0";
  if (!(std::isfinite(s.detail_sample_max_error) && s.detail_sample_max_error >= 0.0))
    return "detail_sample_max_error must be a finite number >= 0";
  if (s.tile_size != 0 && (s.tile_size < 8 || s.tile_size > 4096)) return "tile_size must be 0 (no tiles) or in [8, 4096]";
  if (s.partition != RegionPartition::watershed && s.partition != RegionPartition::monotone &&
      s.partition != RegionPartition::layers)
    return "partition must be watershed, monotone or layers";
  return std::nullopt;
}

MeshGeometry build_navmesh_geometry(const MeshGeometry& level_geometry, const AgentSettings& settings,
                                    NavMeshBuildReport* report, const BuildProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  if (auto problem = settings_problem(settings)) throw std::invalid_argument("navmesh build: " + *problem);
  RecastLog log;
  const RecastLevel level = prepare_level(level_geometry, settings, log);
  const TileGrid grid = plan_tile_grid(level, settings);

  MeshGeometry out;
  out.source = level_geometry.source + " (built)";
  out.declared_navmesh = true;
  out.detail_starts.push_back(0);
  PieceStitcher stitcher(level, settings);
  int tiles_built = 0;

  // A level less than half a cell across in x or z (a lone wall) has no floor to stand on;
  // Recast cannot rasterize into a grid without cells.
  if (grid.has_cells()) {
    const auto total = static_cast<double>(grid.tiles_x) * grid.tiles_z;
    for (int tz = 0; tz < grid.tiles_z; ++tz) {
      for (int tx = 0; tx < grid.tiles_x; ++tx) {
        const double done_before = (static_cast<double>(tz) * grid.tiles_x + tx) / total;
        const auto tell = [&](std::string_view stage, double done) {
          if (progress) progress(stage, done_before + done / total);
        };
        const PieceBox box = piece_box(level, settings, grid, tx, tz);
        const RecastPiece piece = build_piece(level, settings, box, log, tell);
        ++tiles_built;
        if (piece.polygons && piece.polygons->npolys > 0) stitcher.add(piece, box.cell_x, box.cell_z, out);
      }
    }
  }
  const std::size_t border_vertices = stitcher.weld_borders(out);
  if (level.tags.size() == 1 && level.tags.front() == std::pair<AreaId, AreaFlags>{0, 0}) {
    out.polygon_areas.clear();
    out.polygon_flags.clear();
  }
  if (out.polygons.empty()) {
    out.detail_starts.clear();
    out.detail_vertices.clear();
    out.detail_triangles.clear();
  }
  if (progress) progress("done", 1.0);
  if (report != nullptr) {
    *report = {};
    report->input_triangles = static_cast<std::size_t>(level.triangle_count);
    report->walkable_triangles = level.walkable_triangles;
    report->grid_width = grid.width;
    report->grid_depth = grid.depth;
    report->tiles = tiles_built;
    report->polygons = out.polygons.size();
    report->vertices = out.vertices.size();
    report->detail_triangles = out.detail_triangles.size();
    report->border_vertices_added = border_vertices;
    report->milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
  return out;
}

NavMeshTileSet build_navmesh_tiles(const MeshGeometry& level_geometry, const AgentSettings& settings,
                                   NavMeshBuildReport* report) {
  const auto started = std::chrono::steady_clock::now();
  if (settings.tile_size == 0) throw std::invalid_argument("navmesh build: tiles need a tile_size > 0");
  if (auto problem = settings_problem(settings)) throw std::invalid_argument("navmesh build: " + *problem);
  NavMeshBuildReport sizes;
  RecastLog log;
  const RecastLevel level = prepare_level(level_geometry, settings, log);
  // The stitched build's grid stage, with its limits on the grid, the tile and the number of
  // tiles, so that a level too large for it throws here too, before any tile is built.
  const TileGrid grid = plan_tile_grid(level, settings);
  const int width = grid.width, depth = grid.depth;
  const int tiles_x = std::max(1, grid.tiles_x), tiles_z = std::max(1, grid.tiles_z);
  const float cs = static_cast<float>(settings.cell_size);
  const VoxelSizes voxels = voxel_sizes(settings);

  NavMeshTileSet out;
  out.grid.origin_x = level.bounds_min[0];
  out.grid.origin_z = level.bounds_min[2];
  out.grid.tile_width = static_cast<double>(static_cast<float>(grid.tile) * cs);
  out.grid.tiles_x = tiles_x;
  out.grid.tiles_z = tiles_z;
  out.grid.border_climb = (voxels.walkable_climb + 0.5) * static_cast<double>(static_cast<float>(settings.cell_height));
  const bool untagged = level.tags.size() == 1 && level.tags.front() == std::pair<AreaId, AreaFlags>{0, 0};
  std::size_t fullest = 0;
  sizes.tiles = 0;
  for (int tz = 0; width >= 1 && depth >= 1 && tz < tiles_z; ++tz) {
    for (int tx = 0; tx < tiles_x; ++tx) {
      const PieceBox box = piece_box(level, settings, grid, tx, tz);
      const RecastPiece piece = build_piece(level, settings, box, log, [](std::string_view, double) {});
      ++sizes.tiles;
      if (!piece.polygons || piece.polygons->npolys == 0) continue;
      NavMeshTile built{tx, tz, {}};
      built.geometry.source = level_geometry.source + " (built)";
      built.geometry.declared_navmesh = true;
      built.geometry.detail_starts.push_back(0);
      // A stitcher per tile: the tile's vertices are its own, joined to the next tile's later.
      PieceStitcher(level, settings).add(piece, box.cell_x, box.cell_z, built.geometry);
      if (untagged) {
        built.geometry.polygon_areas.clear();
        built.geometry.polygon_flags.clear();
      }
      fullest = std::max(fullest, built.geometry.polygons.size());
      sizes.polygons += built.geometry.polygons.size();
      sizes.vertices += built.geometry.vertices.size();
      sizes.detail_triangles += built.geometry.detail_triangles.size();
      out.tiles.push_back(std::move(built));
    }
  }
  std::uint32_t capacity = 16;
  while (capacity < 2 * fullest) capacity *= 2;
  while (capacity > 1 && static_cast<double>(tiles_x) * tiles_z * capacity > static_cast<double>(max_tiled_polygon_ids))
    capacity /= 2;
  if (capacity < fullest)
    throw std::length_error("build_navmesh_tiles: " + std::to_string(tiles_x) + " x " + std::to_string(tiles_z) +
                            " tiles of up to " + std::to_string(fullest) + " polygons need more than 2^22 polygon ids; " +
                            "use larger tiles (AgentSettings::tile_size)");
  out.grid.max_polygons_per_tile = capacity;
  if (report != nullptr) {
    sizes.input_triangles = static_cast<std::size_t>(level.triangle_count);
    sizes.walkable_triangles = level.walkable_triangles;
    sizes.grid_width = width;
    sizes.grid_depth = depth;
    sizes.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    *report = sizes;
  }
  return out;
}

}  // namespace wayfinder
