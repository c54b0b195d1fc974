#include "wayfinder/navmesh_build/navmesh_builder.hpp"

#include <recastnavigation/Recast.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace wayfinder {

namespace {

// Recast's objects come from its own allocator; these free them whatever happens.
struct RecastDeleter {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
};
template <class T>
using RecastPointer = std::unique_ptr<T, RecastDeleter>;

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
  return std::nullopt;
}

MeshGeometry build_navmesh_geometry(const MeshGeometry& level, const AgentSettings& settings, NavMeshBuildReport* report,
                                    const BuildProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  if (auto problem = settings_problem(settings)) throw std::invalid_argument("navmesh build: " + *problem);
  const auto tell = [&](std::string_view stage, double done) {
    if (progress) progress(stage, done);
  };

  // The level as Recast's flat arrays; polygons become fans of triangles.
  std::vector<float> vertices;
  vertices.reserve(level.vertices.size() * 3);
  for (const Point& v : level.vertices) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      throw std::invalid_argument("navmesh build: " + level.source + " has a vertex that is not finite");
    vertices.insert(vertices.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
  }
  std::vector<int> triangles;
  for (const auto& polygon : level.polygons) {
    for (const std::uint32_t index : polygon)
      if (index >= level.vertices.size())
        throw std::invalid_argument("navmesh build: " + level.source + " has a vertex index out of range");
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i)
      triangles.insert(triangles.end(), {static_cast<int>(polygon[0]), static_cast<int>(polygon[i]),
                                         static_cast<int>(polygon[i + 1])});
  }
  const int vertex_count = static_cast<int>(level.vertices.size());
  const int triangle_count = static_cast<int>(triangles.size() / 3);
  if (triangle_count == 0) throw std::invalid_argument("navmesh build: " + level.source + " has no triangles");
  if (level.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3) ||
      triangles.size() / 3 > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("navmesh build: " + level.source + " is too large for Recast");

  RecastLog log;
  const float cs = static_cast<float>(settings.cell_size);
  const float ch = static_cast<float>(settings.cell_height);
  // Heights and distances in voxels, rounded the safe way: room needed up, climbs down.
  const int walkable_height = static_cast<int>(std::ceil(settings.agent_height / settings.cell_height));
  const int walkable_climb = static_cast<int>(std::floor(settings.max_climb / settings.cell_height));
  const int walkable_radius = static_cast<int>(std::ceil(settings.agent_radius / settings.cell_size));

  float bounds_min[3], bounds_max[3];
  rcCalcBounds(vertices.data(), vertex_count, bounds_min, bounds_max);
  int width = 0, depth = 0;
  rcCalcGridSize(bounds_min, bounds_max, cs, &width, &depth);
  // Recast's compact heightfield indexes cells with 32-bit ints; refuse grids that cannot fit.
  if (static_cast<double>(width) * static_cast<double>(depth) > 1.0e9)
    throw std::invalid_argument("navmesh build: the level is " + std::to_string(width) + " x " + std::to_string(depth) +
                                " voxels at cell size " + std::to_string(settings.cell_size) +
                                "; use a larger cell size (or tiles)");

  // A level less than half a cell across in x or z (a lone wall) has no floor to stand on;
  // Recast cannot rasterize into a grid without cells.
  if (width < 1 || depth < 1) {
    tell("done", 1.0);
    if (report != nullptr) {
      *report = {};
      report->input_triangles = static_cast<std::size_t>(triangle_count);
      report->grid_width = width;
      report->grid_depth = depth;
    }
    MeshGeometry empty;
    empty.source = level.source + " (built)";
    return empty;
  }

  tell("rasterizing", 0.0);
  RecastPointer<rcHeightfield> heightfield(rcAllocHeightfield());
  if (!heightfield || !rcCreateHeightfield(&log, *heightfield, width, depth, bounds_min, bounds_max, cs, ch))
    stage_failed("allocate the voxel grid", log);
  std::vector<unsigned char> areas(static_cast<std::size_t>(triangle_count), 0);
  rcMarkWalkableTriangles(&log, static_cast<float>(settings.max_slope_degrees), vertices.data(), vertex_count,
                          triangles.data(), triangle_count, areas.data());
  std::size_t walkable_triangles = 0;
  for (const unsigned char area : areas) walkable_triangles += area != 0 ? 1 : 0;
  if (!rcRasterizeTriangles(&log, vertices.data(), vertex_count, triangles.data(), areas.data(), triangle_count,
                            *heightfield, walkable_climb))
    stage_failed("rasterize the level", log);

  // The three walkable filters: steps onto low obstacles, ledges, and floors without headroom.
  tell("filtering", 0.3);
  rcFilterLowHangingWalkableObstacles(&log, walkable_climb, *heightfield);
  rcFilterLedgeSpans(&log, walkable_height, walkable_climb, *heightfield);
  rcFilterWalkableLowHeightSpans(&log, walkable_height, *heightfield);

  tell("partitioning", 0.45);
  RecastPointer<rcCompactHeightfield> compact(rcAllocCompactHeightfield());
  if (!compact || !rcBuildCompactHeightfield(&log, walkable_height, walkable_climb, *heightfield, *compact))
    stage_failed("build the compact heightfield", log);
  heightfield.reset();
  if (!rcErodeWalkableArea(&log, walkable_radius, *compact)) stage_failed("erode the walkable area by the agent's radius", log);
  if (!rcBuildDistanceField(&log, *compact)) stage_failed("build the distance field", log);
  if (!rcBuildRegions(&log, *compact, 0, settings.region_min_size * settings.region_min_size,
                      settings.region_merge_size * settings.region_merge_size))
    stage_failed("build the watershed regions", log);

  tell("tracing contours", 0.7);
  RecastPointer<rcContourSet> contours(rcAllocContourSet());
  if (!contours || !rcBuildContours(&log, *compact, static_cast<float>(settings.edge_max_error),
                                    static_cast<int>(settings.edge_max_length / settings.cell_size), *contours))
    stage_failed("trace the region contours", log);

  tell("building polygons", 0.85);
  RecastPointer<rcPolyMesh> polygons(rcAllocPolyMesh());
  if (!polygons || !rcBuildPolyMesh(&log, *contours, settings.vertices_per_polygon, *polygons))
    stage_failed("build the polygons", log);

  // Recast's vertices are voxel coordinates: back to world units, as Detour's mesh data has them.
  MeshGeometry out;
  out.source = level.source + " (built)";
  out.vertices.reserve(static_cast<std::size_t>(polygons->nverts));
  for (int i = 0; i < polygons->nverts; ++i) {
    const unsigned short* v = &polygons->verts[i * 3];
    out.vertices.push_back({static_cast<double>(polygons->bmin[0] + v[0] * polygons->cs),
                            static_cast<double>(polygons->bmin[1] + v[1] * polygons->ch),
                            static_cast<double>(polygons->bmin[2] + v[2] * polygons->cs)});
  }
  const int nvp = polygons->nvp;
  for (int p = 0; p < polygons->npolys; ++p) {
    const unsigned short* indices = &polygons->polys[p * 2 * nvp];
    std::vector<std::uint32_t> polygon;
    for (int j = 0; j < nvp && indices[j] != RC_MESH_NULL_IDX; ++j) polygon.push_back(indices[j]);
    out.polygons.push_back(std::move(polygon));
  }
  tell("done", 1.0);
  if (report != nullptr) {
    report->input_triangles = static_cast<std::size_t>(triangle_count);
    report->walkable_triangles = walkable_triangles;
    report->grid_width = width;
    report->grid_depth = depth;
    report->polygons = out.polygons.size();
    report->vertices = out.vertices.size();
    report->milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
  return out;
}

}  // namespace wayfinder
