#include "navmesh_build/recast_stages.hpp"

#include "wayfinder/core/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace wayfinder {

void RecastLog::doLog(const rcLogCategory category, const char* message, const int length) {
  if (category == RC_LOG_ERROR) last_error_.assign(message, static_cast<std::size_t>(length));
}

void stage_failed(const char* stage, const RecastLog& log) {
  throw std::runtime_error(std::string("navmesh build: Recast failed to ") + stage +
                           (log.last_error().empty() ? std::string() : ": " + log.last_error()));
}

std::string decimal_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

RecastLevel prepare_level(const MeshGeometry& level, const AgentSettings& settings, RecastLog& log) {
  RecastLevel out;
  out.vertices.reserve(level.vertices.size() * 3);
  for (const Point& v : level.vertices) {
    if (!geometry::is_finite(v))
      throw std::invalid_argument("navmesh build: " + level.source + " has a vertex that is not finite");
    out.vertices.insert(out.vertices.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
  }
  const bool tagged = !level.polygon_areas.empty() || !level.polygon_flags.empty();
  if ((!level.polygon_areas.empty() && level.polygon_areas.size() != level.polygons.size()) ||
      (!level.polygon_flags.empty() && level.polygon_flags.size() != level.polygons.size()))
    throw std::invalid_argument("navmesh build: " + level.source +
                                ": polygon_areas and polygon_flags need one entry per polygon (or none)");
  std::map<std::pair<AreaId, AreaFlags>, unsigned char> tag_ids;
  std::vector<unsigned char> triangle_tags;
  for (std::size_t p = 0; p < level.polygons.size(); ++p) {
    const auto& polygon = level.polygons[p];
    for (const std::uint32_t index : polygon)
      if (index >= level.vertices.size())
        throw std::invalid_argument("navmesh build: " + level.source + " has a vertex index out of range");
    unsigned char tag = 1;
    if (tagged) {
      const std::pair<AreaId, AreaFlags> key{level.polygon_areas.empty() ? AreaId{0} : level.polygon_areas[p],
                                             level.polygon_flags.empty() ? AreaFlags{0} : level.polygon_flags[p]};
      if (key.first >= max_areas)
        throw std::invalid_argument("navmesh build: " + level.source + ": polygon " + std::to_string(p) + " has area " +
                                    std::to_string(key.first) + "; areas are 0 to " + std::to_string(max_areas - 1));
      auto found = tag_ids.find(key);
      if (found == tag_ids.end()) {
        if (tag_ids.size() == most_tags)
          throw std::invalid_argument("navmesh build: " + level.source + " has more than " + std::to_string(most_tags) +
                                      " different (area, flags) pairs");
        found = tag_ids.emplace(key, static_cast<unsigned char>(tag_ids.size() + 1)).first;
        out.tags.push_back(key);
      }
      tag = found->second;
    }
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
      out.triangles.insert(out.triangles.end(), {static_cast<int>(polygon[0]), static_cast<int>(polygon[i]),
                                                 static_cast<int>(polygon[i + 1])});
      triangle_tags.push_back(tag);
    }
  }
  if (!tagged) out.tags.push_back({0, 0});
  if (level.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3) ||
      out.triangles.size() / 3 > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("navmesh build: " + level.source + " is too large for Recast");
  out.vertex_count = static_cast<int>(level.vertices.size());
  out.triangle_count = static_cast<int>(out.triangles.size() / 3);
  if (out.triangle_count == 0) throw std::invalid_argument("navmesh build: " + level.source + " has no triangles");

  // Slope first (Recast marks walkable triangles RC_WALKABLE_AREA), then each walkable
  // triangle takes its polygon's tag.
  out.triangle_areas.assign(static_cast<std::size_t>(out.triangle_count), RC_NULL_AREA);
  rcMarkWalkableTriangles(&log, static_cast<float>(settings.max_slope_degrees), out.vertices.data(), out.vertex_count,
                          out.triangles.data(), out.triangle_count, out.triangle_areas.data());
  for (std::size_t t = 0; t < out.triangle_areas.size(); ++t) {
    if (out.triangle_areas[t] == RC_NULL_AREA) continue;
    out.triangle_areas[t] = triangle_tags[t];
    ++out.walkable_triangles;
  }
  rcCalcBounds(out.vertices.data(), out.vertex_count, out.bounds_min, out.bounds_max);
  out.triangle_boxes.resize(static_cast<std::size_t>(out.triangle_count) * 4);
  for (int t = 0; t < out.triangle_count; ++t) {
    float* box = &out.triangle_boxes[static_cast<std::size_t>(t) * 4];
    box[0] = box[1] = std::numeric_limits<float>::infinity();
    box[2] = box[3] = -std::numeric_limits<float>::infinity();
    for (int k = 0; k < 3; ++k) {
      const float* v = &out.vertices[static_cast<std::size_t>(out.triangles[static_cast<std::size_t>(t) * 3 + k]) * 3];
      box[0] = std::min(box[0], v[0]);
      box[1] = std::min(box[1], v[2]);
      box[2] = std::max(box[2], v[0]);
      box[3] = std::max(box[3], v[2]);
    }
  }
  return out;
}


VoxelSizes voxel_sizes(const AgentSettings& settings) {
  return {static_cast<int>(std::ceil(settings.agent_height / settings.cell_height)),
          static_cast<int>(std::floor(settings.max_climb / settings.cell_height)),
          static_cast<int>(std::ceil(settings.agent_radius / settings.cell_size))};
}

TileGrid plan_tile_grid(const RecastLevel& level, const AgentSettings& settings) {
  const float cs = static_cast<float>(settings.cell_size);
  // The grid's size, checked in double before Recast computes it in int (where a level billions
  // of cells across would overflow).
  const double cells_x = (static_cast<double>(level.bounds_max[0]) - level.bounds_min[0]) / cs + 0.5;
  const double cells_z = (static_cast<double>(level.bounds_max[2]) - level.bounds_min[2]) / cs + 0.5;
  if (!(cells_x <= max_grid_side_cells && cells_z <= max_grid_side_cells))
    throw std::invalid_argument("navmesh build: the level is " + decimal_text(cells_x) + " x " + decimal_text(cells_z) +
                                " cells at cell size " + decimal_text(settings.cell_size) + ", more than " +
                                std::to_string(max_grid_side_cells) + " cells across; use a larger cell size");
  TileGrid grid;
  rcCalcGridSize(level.bounds_min, level.bounds_max, cs, &grid.width, &grid.depth);
  const int tile = settings.tile_size;
  grid.tile = tile;
  // Recast's compact heightfield indexes its spans with 24 bits (rcCompactCell::index): a piece
  // of more than 2^24 cells can lose its spans and come out empty. Refuse it before allocating.
  if (tile == 0 && static_cast<double>(grid.width) * static_cast<double>(grid.depth) > max_piece_cells)
    throw std::invalid_argument("navmesh build: the level is " + std::to_string(grid.width) + " x " +
                                std::to_string(grid.depth) + " cells at cell size " + decimal_text(settings.cell_size) +
                                ", more than the " + std::to_string(max_piece_cells) +
                                " (2^24) cells Recast builds in one piece; build it in tiles (tile_size, e.g. 64) or use "
                                "a larger cell size");
  if (tile != 0) {
    const double side = tile + 2.0 * (voxel_sizes(settings).walkable_radius + 3);
    if (side * side > max_piece_cells)
      throw std::invalid_argument("navmesh build: a tile of " + std::to_string(tile) + " cells with its border of " +
                                  "the agent's radius is " + decimal_text(side) + " cells across, more than the " +
                                  std::to_string(max_piece_cells) +
                                  " (2^24) cells Recast builds in one piece; use a smaller tile_size");
  }
  const long long tiles_x = tile == 0 ? 1 : (grid.width + tile - 1) / tile;
  const long long tiles_z = tile == 0 ? 1 : (grid.depth + tile - 1) / tile;
  if (tiles_x * tiles_z > 4'000'000)
    throw std::invalid_argument("navmesh build: " + std::to_string(tiles_x * tiles_z) +
                                " tiles; use a larger tile_size or cell size");
  grid.tiles_x = static_cast<int>(tiles_x);
  grid.tiles_z = static_cast<int>(tiles_z);
  // The tile and a border of the agent's radius plus 3 cells, as RecastDemo's tile mesh: enough
  // context that both tiles of a border erode and trace it alike.
  grid.border = tile == 0 ? 0 : voxel_sizes(settings).walkable_radius + 3;
  return grid;
}

PieceBox piece_box(const RecastLevel& level, const AgentSettings& settings, const TileGrid& grid, int tile_x,
                   int tile_z) {
  PieceBox box;
  if (grid.tile == 0) {
    std::copy(level.bounds_min, level.bounds_min + 3, box.bounds_min);
    std::copy(level.bounds_max, level.bounds_max + 3, box.bounds_max);
    box.width = grid.width;
    box.depth = grid.depth;
    return box;
  }
  const float cs = static_cast<float>(settings.cell_size);
  const int border = grid.border;
  box.cell_x = tile_x * grid.tile;
  box.cell_z = tile_z * grid.tile;
  box.bounds_min[0] = level.bounds_min[0] + static_cast<float>(box.cell_x - border) * cs;
  box.bounds_min[1] = level.bounds_min[1];
  box.bounds_min[2] = level.bounds_min[2] + static_cast<float>(box.cell_z - border) * cs;
  box.bounds_max[0] = level.bounds_min[0] + static_cast<float>(box.cell_x + grid.tile + border) * cs;
  box.bounds_max[1] = level.bounds_max[1];
  box.bounds_max[2] = level.bounds_min[2] + static_cast<float>(box.cell_z + grid.tile + border) * cs;
  box.width = box.depth = grid.tile + 2 * border;
  box.border = border;
  return box;
}

RecastPointer<rcCompactHeightfield> rasterize_piece(const RecastLevel& level, const AgentSettings& settings,
                                                    const PieceBox& box, RecastLog& log, const BuildProgress& tell) {
  const float cs = static_cast<float>(settings.cell_size);
  const float ch = static_cast<float>(settings.cell_height);
  const VoxelSizes voxels = voxel_sizes(settings);

  tell("rasterizing", 0.0);
  // Only the triangles over the box (Recast would clip the others away one by one).
  std::vector<int> triangles;
  std::vector<unsigned char> areas;
  const bool whole_level = box.border == 0 && box.bounds_min[0] <= level.bounds_min[0] &&
                           box.bounds_min[2] <= level.bounds_min[2] && box.bounds_max[0] >= level.bounds_max[0] &&
                           box.bounds_max[2] >= level.bounds_max[2];
  if (!whole_level) {
    for (int t = 0; t < level.triangle_count; ++t) {
      const float* tbox = &level.triangle_boxes[static_cast<std::size_t>(t) * 4];
      if (tbox[2] < box.bounds_min[0] || tbox[0] > box.bounds_max[0] || tbox[3] < box.bounds_min[2] ||
          tbox[1] > box.bounds_max[2])
        continue;
      triangles.insert(triangles.end(), &level.triangles[static_cast<std::size_t>(t) * 3],
                       &level.triangles[static_cast<std::size_t>(t) * 3] + 3);
      areas.push_back(level.triangle_areas[static_cast<std::size_t>(t)]);
    }
  }
  const int* triangle_data = whole_level ? level.triangles.data() : triangles.data();
  const unsigned char* area_data = whole_level ? level.triangle_areas.data() : areas.data();
  const int triangle_count = whole_level ? level.triangle_count : static_cast<int>(areas.size());
  RecastPointer<rcHeightfield> heightfield(rcAllocHeightfield());
  if (!heightfield ||
      !rcCreateHeightfield(&log, *heightfield, box.width, box.depth, box.bounds_min, box.bounds_max, cs, ch))
    stage_failed("allocate the voxel grid", log);
  if (triangle_count == 0) return {};
  if (!rcRasterizeTriangles(&log, level.vertices.data(), level.vertex_count, triangle_data, area_data, triangle_count,
                            *heightfield, voxels.walkable_climb))
    stage_failed("rasterize the level", log);

  // The three walkable filters: steps onto low obstacles, ledges, and floors without headroom.
  tell("filtering", 0.3);
  rcFilterLowHangingWalkableObstacles(&log, voxels.walkable_climb, *heightfield);
  rcFilterLedgeSpans(&log, voxels.walkable_height, voxels.walkable_climb, *heightfield);
  rcFilterWalkableLowHeightSpans(&log, voxels.walkable_height, *heightfield);

  tell("partitioning", 0.45);
  RecastPointer<rcCompactHeightfield> compact(rcAllocCompactHeightfield());
  if (!compact || !rcBuildCompactHeightfield(&log, voxels.walkable_height, voxels.walkable_climb, *heightfield, *compact))
    stage_failed("build the compact heightfield", log);
  return compact;
}

void erode_walkable_area(rcCompactHeightfield& compact, const AgentSettings& settings, RecastLog& log) {
  if (!rcErodeWalkableArea(&log, voxel_sizes(settings).walkable_radius, compact))
    stage_failed("erode the walkable area by the agent's radius", log);
}

RecastPiece build_polygons(rcCompactHeightfield& compact, const AgentSettings& settings, int border, RecastLog& log,
                           const BuildProgress& tell) {
  const float cs = static_cast<float>(settings.cell_size);
  const float ch = static_cast<float>(settings.cell_height);
  const int min_area = settings.region_min_size * settings.region_min_size;
  const int merge_area = settings.region_merge_size * settings.region_merge_size;
  switch (settings.partition) {
    case RegionPartition::watershed:
      if (!rcBuildDistanceField(&log, compact)) stage_failed("build the distance field", log);
      if (!rcBuildRegions(&log, compact, border, min_area, merge_area)) stage_failed("build the watershed regions", log);
      break;
    case RegionPartition::monotone:
      if (!rcBuildRegionsMonotone(&log, compact, border, min_area, merge_area))
        stage_failed("build the monotone regions", log);
      break;
    case RegionPartition::layers:
      if (!rcBuildLayerRegions(&log, compact, border, min_area)) stage_failed("build the layer regions", log);
      break;
  }

  tell("tracing contours", 0.65);
  RecastPointer<rcContourSet> contours(rcAllocContourSet());
  if (!contours || !rcBuildContours(&log, compact, static_cast<float>(settings.edge_max_error),
                                    static_cast<int>(std::min(settings.edge_max_length / settings.cell_size, 1e9)), *contours))
    stage_failed("trace the region contours", log);
  if (contours->nconts == 0) return {};

  tell("building polygons", 0.8);
  RecastPiece piece;
  piece.polygons.reset(rcAllocPolyMesh());
  if (!piece.polygons || !rcBuildPolyMesh(&log, *contours, settings.vertices_per_polygon, *piece.polygons))
    stage_failed("build the polygons", log);

  tell("sampling heights", 0.9);
  // Below 0.9 cells only the polygons' edges are sampled. RecastDemo passes a distance of 0 for
  // that, on which Debian's Recast (1.5.1) crashes in rcBuildPolyMeshDetail; a distance longer
  // than any polygon gives the same: no points along the edges, and polygons narrower than twice
  // the distance keep just their outline, with no samples inside.
  const float sample_distance = settings.detail_sample_distance < 0.9
                                    ? std::numeric_limits<float>::max() / 4.0f
                                    : cs * static_cast<float>(settings.detail_sample_distance);
  const float sample_error = ch * static_cast<float>(settings.detail_sample_max_error);
  piece.detail.reset(rcAllocPolyMeshDetail());
  if (!piece.detail || !rcBuildPolyMeshDetail(&log, *piece.polygons, compact, sample_distance, sample_error, *piece.detail))
    stage_failed("build the detail mesh", log);
  return piece;
}

RecastPiece build_piece(const RecastLevel& level, const AgentSettings& settings, const PieceBox& box, RecastLog& log,
                        const BuildProgress& tell) {
  RecastPointer<rcCompactHeightfield> compact = rasterize_piece(level, settings, box, log, tell);
  if (!compact) return {};
  erode_walkable_area(*compact, settings, log);
  return build_polygons(*compact, settings, box.border, log, tell);
}

PieceStitcher::PieceStitcher(const RecastLevel& level, const AgentSettings& settings)
    : PieceStitcher(level.bounds_min, level.tags, settings) {}

PieceStitcher::PieceStitcher(const float* level_bounds_min, const std::vector<std::pair<AreaId, AreaFlags>>& tags,
                             const AgentSettings& settings)
    : origin_{level_bounds_min[0], level_bounds_min[1], level_bounds_min[2]},
      tags_(tags),
      cell_size_(static_cast<float>(settings.cell_size)),
      cell_height_(static_cast<float>(settings.cell_height)),
      tile_size_(settings.tile_size),
      climb_(voxel_sizes(settings).walkable_climb) {}

void PieceStitcher::add(const RecastPiece& piece, int cell_x, int cell_z, MeshGeometry& out) {
  const rcPolyMesh& polygons = *piece.polygons;
  std::vector<std::uint32_t> ids(static_cast<std::size_t>(polygons.nverts));
  for (int i = 0; i < polygons.nverts; ++i) {
    const unsigned short* v = &polygons.verts[i * 3];
    ids[static_cast<std::size_t>(i)] = vertex_id(cell_x + v[0], v[1], cell_z + v[2], out);
  }
  const int nvp = polygons.nvp;
  const rcPolyMeshDetail& detail = *piece.detail;
  for (int p = 0; p < polygons.npolys; ++p) {
    const unsigned short* indices = &polygons.polys[p * 2 * nvp];
    std::vector<std::uint32_t> polygon;
    for (int j = 0; j < nvp && indices[j] != RC_MESH_NULL_IDX; ++j) polygon.push_back(ids[indices[j]]);
    out.polygons.push_back(std::move(polygon));
    const auto& tag = tags_[static_cast<std::size_t>(polygons.areas[p]) - 1];
    out.polygon_areas.push_back(tag.first);
    out.polygon_flags.push_back(tag.second);
    // The detail mesh: per polygon, its vertices (world units) and triangles. Recast lifts
    // every detail height by one cell height above the voxels' tops (rcBuildPolyMeshDetail
    // adds chf.ch); taken back here, the detail mesh lies on the voxels as the polygons do,
    // within a cell height above the level's floor.
    const unsigned int* entry = &detail.meshes[p * 4];
    const auto first_vertex = static_cast<std::uint32_t>(out.detail_vertices.size());
    for (unsigned int k = 0; k < entry[1]; ++k) {
      const float* dv = &detail.verts[(entry[0] + k) * 3];
      out.detail_vertices.push_back({dv[0], static_cast<double>(dv[1] - cell_height_), dv[2]});
    }
    for (unsigned int k = 0; k < entry[3]; ++k) {
      const unsigned char* t = &detail.tris[(entry[2] + k) * 4];
      out.detail_triangles.push_back({first_vertex + t[0], first_vertex + t[1], first_vertex + t[2]});
    }
    out.detail_starts.push_back(static_cast<std::uint32_t>(out.detail_triangles.size()));
  }
}

std::size_t PieceStitcher::weld_borders(MeshGeometry& out) const {
  return tile_size_ == 0 ? 0 : split_edges_at_border_vertices(out.polygons, cells_, tile_size_, climb_);
}

std::uint32_t PieceStitcher::vertex_id(int x, int y, int z, MeshGeometry& out) {
  auto& column = columns_[{x, z}];
  const bool on_border = tile_size_ != 0 && (x % tile_size_ == 0 || z % tile_size_ == 0);
  for (const std::uint32_t id : column) {
    const int other_y = cells_[id][1];
    if (other_y == y || (on_border && std::abs(other_y - y) <= climb_)) return id;
  }
  const auto id = static_cast<std::uint32_t>(cells_.size());
  cells_.push_back({x, y, z});
  column.push_back(id);
  // World units computed in float as Detour computes them from a tile's corner: a solo build
  // gives exactly Detour's vertices.
  out.vertices.push_back({static_cast<double>(origin_[0] + static_cast<float>(x) * cell_size_),
                          static_cast<double>(origin_[1] + static_cast<float>(y) * cell_height_),
                          static_cast<double>(origin_[2] + static_cast<float>(z) * cell_size_)});
  return id;
}

}  // namespace wayfinder
