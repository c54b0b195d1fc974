#include "wayfinder/navmesh_build/navmesh_builder.hpp"

#include "navmesh_build/recast_pointer.hpp"
#include "navmesh_build/tile_border_weld.hpp"
#include "wayfinder/core/geometry.hpp"

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace wayfinder {

namespace {

// Recast reports why a stage failed through its log; keep the last error for the exception.
class RecastLog : public rcContext {
 public:
  RecastLog() : rcContext(true) { enableTimer(false); }
  [[nodiscard]] const std::string& last_error() const { return last_error_; }

 protected:
  void doLog(const rcLogCategory category, const char* message, const int length) override {
    if (category == RC_LOG_ERROR) last_error_.assign(message, static_cast<std::size_t>(length));
  }

 private:
  std::string last_error_;
};

[[noreturn]] void stage_failed(const char* stage, const RecastLog& log) {
  throw std::runtime_error(std::string("navmesh build: Recast failed to ") + stage +
                           (log.last_error().empty() ? std::string() : ": " + log.last_error()));
}

bool positive_finite(double value) { return std::isfinite(value) && value > 0.0; }

// Recast indexes a compact heightfield's spans with 24 bits, so one piece (the whole level, or a
// tile with its border) holds at most this many cells.
constexpr double max_piece_cells = 16'777'216.0;
// Cells across a level's grid, tiled or not: well inside an int, and a float's exact integers.
constexpr int max_grid_side_cells = 1 << 24;

std::string decimal_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

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
  return std::nullopt;
}

namespace {

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

// Sizes in voxels, rounded the safe way: room needed up, climbs down.
struct VoxelSizes {
  int walkable_height, walkable_climb, walkable_radius;
};

VoxelSizes voxel_sizes(const AgentSettings& settings) {
  return {static_cast<int>(std::ceil(settings.agent_height / settings.cell_height)),
          static_cast<int>(std::floor(settings.max_climb / settings.cell_height)),
          static_cast<int>(std::ceil(settings.agent_radius / settings.cell_size))};
}

// One piece of the level built by Recast: its polygons and their detail mesh. The polygons'
// vertices are voxel coordinates from the piece's own corner.
struct RecastPiece {
  RecastPointer<rcPolyMesh> polygons;
  RecastPointer<rcPolyMeshDetail> detail;
};

// Recast's pipeline (Mononen's RecastDemo, solo and tile mesh samples) over the box
// [bounds_min, bounds_max] of `width` x `depth` cells, of which a margin of `border` cells on
// each side only gives context (the polygons come out without it). Returns no polygons when
// nothing in the box is walkable.
RecastPiece build_piece(const RecastLevel& level, const AgentSettings& settings, const float* bounds_min,
                        const float* bounds_max, int width, int depth, int border, RecastLog& log,
                        const BuildProgress& tell) {
  const float cs = static_cast<float>(settings.cell_size);
  const float ch = static_cast<float>(settings.cell_height);
  const VoxelSizes voxels = voxel_sizes(settings);

  tell("rasterizing", 0.0);
  RecastPointer<rcHeightfield> heightfield(rcAllocHeightfield());
  if (!heightfield || !rcCreateHeightfield(&log, *heightfield, width, depth, bounds_min, bounds_max, cs, ch))
    stage_failed("allocate the voxel grid", log);
  // Only the triangles over the box (Recast would clip the others away one by one).
  std::vector<int> triangles;
  std::vector<unsigned char> areas;
  const bool whole_level = border == 0 && bounds_min[0] <= level.bounds_min[0] && bounds_min[2] <= level.bounds_min[2] &&
                           bounds_max[0] >= level.bounds_max[0] && bounds_max[2] >= level.bounds_max[2];
  if (!whole_level) {
    for (int t = 0; t < level.triangle_count; ++t) {
      const float* box = &level.triangle_boxes[static_cast<std::size_t>(t) * 4];
      if (box[2] < bounds_min[0] || box[0] > bounds_max[0] || box[3] < bounds_min[2] || box[1] > bounds_max[2]) continue;
      triangles.insert(triangles.end(), &level.triangles[static_cast<std::size_t>(t) * 3],
                       &level.triangles[static_cast<std::size_t>(t) * 3] + 3);
      areas.push_back(level.triangle_areas[static_cast<std::size_t>(t)]);
    }
  }
  const int* triangle_data = whole_level ? level.triangles.data() : triangles.data();
  const unsigned char* area_data = whole_level ? level.triangle_areas.data() : areas.data();
  const int triangle_count = whole_level ? level.triangle_count : static_cast<int>(areas.size());
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
  heightfield.reset();
  if (!rcErodeWalkableArea(&log, voxels.walkable_radius, *compact))
    stage_failed("erode the walkable area by the agent's radius", log);
  if (!rcBuildDistanceField(&log, *compact)) stage_failed("build the distance field", log);
  if (!rcBuildRegions(&log, *compact, border, settings.region_min_size * settings.region_min_size,
                      settings.region_merge_size * settings.region_merge_size))
    stage_failed("build the watershed regions", log);

  tell("tracing contours", 0.65);
  RecastPointer<rcContourSet> contours(rcAllocContourSet());
  if (!contours || !rcBuildContours(&log, *compact, static_cast<float>(settings.edge_max_error),
                                    static_cast<int>(settings.edge_max_length / settings.cell_size), *contours))
    stage_failed("trace the region contours", log);
  if (contours->nconts == 0) return {};

  tell("building polygons", 0.8);
  RecastPiece piece;
  piece.polygons.reset(rcAllocPolyMesh());
  if (!piece.polygons || !rcBuildPolyMesh(&log, *contours, settings.vertices_per_polygon, *piece.polygons))
    stage_failed("build the polygons", log);

  tell("sampling heights", 0.9);
  const float sample_distance = settings.detail_sample_distance < 0.9 ? 0.0f : cs * static_cast<float>(settings.detail_sample_distance);
  const float sample_error = ch * static_cast<float>(settings.detail_sample_max_error);
  piece.detail.reset(rcAllocPolyMeshDetail());
  if (!piece.detail || !rcBuildPolyMeshDetail(&log, *piece.polygons, *compact, sample_distance, sample_error, *piece.detail))
    stage_failed("build the detail mesh", log);
  return piece;
}

// The pieces' polygons gathered into one MeshGeometry. Vertices are keyed by their voxel
// coordinates in the whole level's grid, so a corner two tiles share is one vertex; at a tile
// border, a vertex of the tile across within the agent's climb in height is taken as the same
// (each tile traces the border from its own voxels, with the same border context, so the
// heights agree or nearly do).
class PieceStitcher {
 public:
  PieceStitcher(const RecastLevel& level, const AgentSettings& settings)
      : level_(level),
        cell_size_(static_cast<float>(settings.cell_size)),
        cell_height_(static_cast<float>(settings.cell_height)),
        tile_size_(settings.tile_size),
        climb_(voxel_sizes(settings).walkable_climb) {}

  void add(const RecastPiece& piece, int cell_x, int cell_z, MeshGeometry& out) {
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
      const auto& tag = level_.tags[static_cast<std::size_t>(polygons.areas[p]) - 1];
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

  // Splits polygon edges along tile borders at the vertices across them (tile_border_weld.hpp).
  std::size_t weld_borders(MeshGeometry& out) const {
    return tile_size_ == 0 ? 0 : split_edges_at_border_vertices(out.polygons, cells_, tile_size_, climb_);
  }

 private:
  std::uint32_t vertex_id(int x, int y, int z, MeshGeometry& out) {
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
    out.vertices.push_back({static_cast<double>(level_.bounds_min[0] + static_cast<float>(x) * cell_size_),
                            static_cast<double>(level_.bounds_min[1] + static_cast<float>(y) * cell_height_),
                            static_cast<double>(level_.bounds_min[2] + static_cast<float>(z) * cell_size_)});
    return id;
  }

  const RecastLevel& level_;
  float cell_size_, cell_height_;
  int tile_size_;
  int climb_;
  std::vector<VoxelCorner> cells_;
  std::map<std::pair<int, int>, std::vector<std::uint32_t>> columns_;
};

}  // namespace

MeshGeometry build_navmesh_geometry(const MeshGeometry& level_geometry, const AgentSettings& settings,
                                    NavMeshBuildReport* report, const BuildProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  if (auto problem = settings_problem(settings)) throw std::invalid_argument("navmesh build: " + *problem);
  RecastLog log;
  const RecastLevel level = prepare_level(level_geometry, settings, log);
  const float cs = static_cast<float>(settings.cell_size);

  // The grid's size, checked in double before Recast computes it in int (where a level billions
  // of cells across would overflow).
  const double cells_x = (static_cast<double>(level.bounds_max[0]) - level.bounds_min[0]) / cs + 0.5;
  const double cells_z = (static_cast<double>(level.bounds_max[2]) - level.bounds_min[2]) / cs + 0.5;
  if (!(cells_x <= max_grid_side_cells && cells_z <= max_grid_side_cells))
    throw std::invalid_argument("navmesh build: the level is " + decimal_text(cells_x) + " x " + decimal_text(cells_z) +
                                " cells at cell size " + decimal_text(settings.cell_size) + ", more than " +
                                std::to_string(max_grid_side_cells) + " cells across; use a larger cell size");
  int width = 0, depth = 0;
  rcCalcGridSize(level.bounds_min, level.bounds_max, cs, &width, &depth);
  const int tile = settings.tile_size;
  // Recast's compact heightfield indexes its spans with 24 bits (rcCompactCell::index): a piece
  // of more than 2^24 cells can lose its spans and come out empty. Refuse it before allocating.
  if (tile == 0 && static_cast<double>(width) * static_cast<double>(depth) > max_piece_cells)
    throw std::invalid_argument("navmesh build: the level is " + std::to_string(width) + " x " + std::to_string(depth) +
                                " cells at cell size " + decimal_text(settings.cell_size) + ", more than the " +
                                std::to_string(max_piece_cells) +
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
  const long long tiles_x = tile == 0 ? 1 : (width + tile - 1) / tile;
  const long long tiles_z = tile == 0 ? 1 : (depth + tile - 1) / tile;
  if (tiles_x * tiles_z > 4'000'000)
    throw std::invalid_argument("navmesh build: " + std::to_string(tiles_x * tiles_z) +
                                " tiles; use a larger tile_size or cell size");

  MeshGeometry out;
  out.source = level_geometry.source + " (built)";
  out.declared_navmesh = true;
  out.detail_starts.push_back(0);
  PieceStitcher stitcher(level, settings);
  int tiles_built = 0;

  // A level less than half a cell across in x or z (a lone wall) has no floor to stand on;
  // Recast cannot rasterize into a grid without cells.
  if (width >= 1 && depth >= 1) {
    const auto total = static_cast<double>(tiles_x * tiles_z);
    for (long long tz = 0; tz < tiles_z; ++tz) {
      for (long long tx = 0; tx < tiles_x; ++tx) {
        const double done_before = static_cast<double>(tz * tiles_x + tx) / total;
        const auto tell = [&](std::string_view stage, double done) {
          if (progress) progress(stage, done_before + done / total);
        };
        RecastPiece piece;
        int cell_x = 0, cell_z = 0;
        if (tile == 0) {
          piece = build_piece(level, settings, level.bounds_min, level.bounds_max, width, depth, 0, log, tell);
        } else {
          // The tile and a border of the agent's radius plus 3 cells, as RecastDemo's tile
          // mesh: enough context that both tiles of a border erode and trace it alike.
          const int border = voxel_sizes(settings).walkable_radius + 3;
          cell_x = static_cast<int>(tx) * tile;
          cell_z = static_cast<int>(tz) * tile;
          float tile_min[3] = {level.bounds_min[0] + static_cast<float>(cell_x - border) * cs, level.bounds_min[1],
                               level.bounds_min[2] + static_cast<float>(cell_z - border) * cs};
          float tile_max[3] = {level.bounds_min[0] + static_cast<float>(cell_x + tile + border) * cs, level.bounds_max[1],
                               level.bounds_min[2] + static_cast<float>(cell_z + tile + border) * cs};
          piece = build_piece(level, settings, tile_min, tile_max, tile + 2 * border, tile + 2 * border, border, log, tell);
        }
        ++tiles_built;
        if (piece.polygons && piece.polygons->npolys > 0) stitcher.add(piece, cell_x, cell_z, out);
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
    report->grid_width = width;
    report->grid_depth = depth;
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
  const float cs = static_cast<float>(settings.cell_size);
  const double cells_x = (static_cast<double>(level.bounds_max[0]) - level.bounds_min[0]) / cs + 0.5;
  const double cells_z = (static_cast<double>(level.bounds_max[2]) - level.bounds_min[2]) / cs + 0.5;
  if (!(cells_x <= max_grid_side_cells && cells_z <= max_grid_side_cells))
    throw std::invalid_argument("navmesh build: the level is too many cells across at cell size " +
                                decimal_text(settings.cell_size) + "; use a larger cell size");
  int width = 0, depth = 0;
  rcCalcGridSize(level.bounds_min, level.bounds_max, cs, &width, &depth);
  // The stitched build's limits on the grid, the tile and the number of tiles, so that a level
  // too large for it throws here too, before any tile is built.
  const int tile = settings.tile_size;
  const VoxelSizes voxels = voxel_sizes(settings);
  const int border = voxels.walkable_radius + 3;
  const double side = tile + 2.0 * border;
  if (side * side > max_piece_cells)
    throw std::invalid_argument("navmesh build: a tile with its border is more than the 2^24 cells Recast builds in "
                                "one piece; use a smaller tile_size");
  const int tiles_x = std::max(1, (width + tile - 1) / tile), tiles_z = std::max(1, (depth + tile - 1) / tile);
  if (static_cast<long long>(tiles_x) * tiles_z > 4'000'000)
    throw std::invalid_argument("navmesh build: too many tiles; use a larger tile_size or cell size");

  NavMeshTileSet out;
  out.grid.origin_x = level.bounds_min[0];
  out.grid.origin_z = level.bounds_min[2];
  out.grid.tile_width = static_cast<double>(static_cast<float>(tile) * cs);
  out.grid.tiles_x = tiles_x;
  out.grid.tiles_z = tiles_z;
  out.grid.border_climb = (voxels.walkable_climb + 0.5) * static_cast<double>(static_cast<float>(settings.cell_height));
  const bool untagged = level.tags.size() == 1 && level.tags.front() == std::pair<AreaId, AreaFlags>{0, 0};
  std::size_t fullest = 0;
  sizes.tiles = 0;
  for (int tz = 0; width >= 1 && depth >= 1 && tz < tiles_z; ++tz) {
    for (int tx = 0; tx < tiles_x; ++tx) {
      const int cell_x = tx * tile, cell_z = tz * tile;
      const float tile_min[3] = {level.bounds_min[0] + static_cast<float>(cell_x - border) * cs, level.bounds_min[1],
                                 level.bounds_min[2] + static_cast<float>(cell_z - border) * cs};
      const float tile_max[3] = {level.bounds_min[0] + static_cast<float>(cell_x + tile + border) * cs,
                                 level.bounds_max[1],
                                 level.bounds_min[2] + static_cast<float>(cell_z + tile + border) * cs};
      const RecastPiece piece = build_piece(level, settings, tile_min, tile_max, tile + 2 * border, tile + 2 * border,
                                            border, log, [](std::string_view, double) {});
      ++sizes.tiles;
      if (!piece.polygons || piece.polygons->npolys == 0) continue;
      NavMeshTile built{tx, tz, {}};
      built.geometry.source = level_geometry.source + " (built)";
      built.geometry.declared_navmesh = true;
      built.geometry.detail_starts.push_back(0);
      // A stitcher per tile: the tile's vertices are its own, joined to the next tile's later.
      PieceStitcher(level, settings).add(piece, cell_x, cell_z, built.geometry);
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
  while (capacity > 1 && static_cast<double>(tiles_x) * tiles_z * capacity >= 2147483648.0) capacity /= 2;
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
