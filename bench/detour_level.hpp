#pragma once
// What the benchmarks against Detour share: RecastDemo's solo-mesh build of a level with
// Recast (the polygon mesh and its detail mesh) and the one Detour tile made of them, and the
// pieces of a Detour set-up every comparison needs (deleters, the agent's parameters, the flag).

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "navmesh_build/recast_pointer.hpp"
#include "navmesh_build/recast_stages.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder::bench {

// RecastDemo's detail-mesh defaults, which AgentSettings does not carry (Wayfinder keeps no
// detail mesh): sample every 6 cells, at most 1 cell height off the level.
constexpr double detail_sample_distance_cells = 6.0;
constexpr double detail_sample_max_error_cell_heights = 1.0;
// The flag every polygon of the Detour tile carries.
constexpr unsigned short walkable_flag = 1;

// Detour's objects go back to Detour's allocator (Recast's: navmesh_build/recast_pointer.hpp).
struct DetourDeleter {
  void operator()(dtNavMesh* p) const { dtFreeNavMesh(p); }
  void operator()(dtNavMeshQuery* p) const { dtFreeNavMeshQuery(p); }
};
template <class T>
using DetourPointer = std::unique_ptr<T, DetourDeleter>;

// The agent's size in world units, in the fields Detour's build parameters share
// (dtNavMeshCreateParams, dtTileCacheParams).
template <class DetourParams>
void set_detour_agent(DetourParams& params, const AgentSettings& settings) {
  params.walkableHeight = static_cast<float>(settings.agent_height);
  params.walkableRadius = static_cast<float>(settings.agent_radius);
  params.walkableClimb = static_cast<float>(settings.max_climb);
}

struct RecastMeshes {
  RecastPointer<rcPolyMesh> polygons;
  RecastPointer<rcPolyMeshDetail> detail;
};

inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("Recast/Detour failed to " + what);
}

// RecastDemo's solo-mesh build (watershed regions, no convex volumes) of the level, with
// AgentSettings' defaults: the polygon mesh and its detail mesh.
inline RecastMeshes build_recast_meshes(const MeshGeometry& level) {
  const AgentSettings settings;
  std::vector<float> vertices;
  for (const Point& v : level.vertices)
    vertices.insert(vertices.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
  std::vector<int> triangles;
  for (const auto& polygon : level.polygons)
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i)
      triangles.insert(triangles.end(),
                       {static_cast<int>(polygon[0]), static_cast<int>(polygon[i]), static_cast<int>(polygon[i + 1])});
  const int vertex_count = static_cast<int>(level.vertices.size());
  const int triangle_count = static_cast<int>(triangles.size() / 3);

  const auto cs = static_cast<float>(settings.cell_size);
  const auto ch = static_cast<float>(settings.cell_height);
  const VoxelSizes voxels = voxel_sizes(settings);
  const int walkable_height = voxels.walkable_height;
  const int walkable_climb = voxels.walkable_climb;
  const int walkable_radius = voxels.walkable_radius;

  rcContext context(false);
  float bounds_min[3], bounds_max[3];
  rcCalcBounds(vertices.data(), vertex_count, bounds_min, bounds_max);
  int width = 0, depth = 0;
  rcCalcGridSize(bounds_min, bounds_max, cs, &width, &depth);

  RecastPointer<rcHeightfield> heightfield(rcAllocHeightfield());
  require(heightfield && rcCreateHeightfield(&context, *heightfield, width, depth, bounds_min, bounds_max, cs, ch),
          "create the heightfield");
  std::vector<unsigned char> areas(static_cast<std::size_t>(triangle_count), 0);
  rcMarkWalkableTriangles(&context, static_cast<float>(settings.max_slope_degrees), vertices.data(), vertex_count,
                          triangles.data(), triangle_count, areas.data());
  require(rcRasterizeTriangles(&context, vertices.data(), vertex_count, triangles.data(), areas.data(), triangle_count,
                               *heightfield, walkable_climb),
          "rasterize");
  rcFilterLowHangingWalkableObstacles(&context, walkable_climb, *heightfield);
  rcFilterLedgeSpans(&context, walkable_height, walkable_climb, *heightfield);
  rcFilterWalkableLowHeightSpans(&context, walkable_height, *heightfield);

  RecastPointer<rcCompactHeightfield> compact(rcAllocCompactHeightfield());
  require(compact && rcBuildCompactHeightfield(&context, walkable_height, walkable_climb, *heightfield, *compact),
          "build the compact heightfield");
  require(rcErodeWalkableArea(&context, walkable_radius, *compact), "erode");
  require(rcBuildDistanceField(&context, *compact), "build the distance field");
  require(rcBuildRegions(&context, *compact, 0, settings.region_min_size * settings.region_min_size,
                         settings.region_merge_size * settings.region_merge_size),
          "build regions");
  RecastPointer<rcContourSet> contours(rcAllocContourSet());
  require(contours && rcBuildContours(&context, *compact, static_cast<float>(settings.edge_max_error),
                                      static_cast<int>(settings.edge_max_length / settings.cell_size), *contours),
          "build contours");

  RecastMeshes meshes{RecastPointer<rcPolyMesh>(rcAllocPolyMesh()),
                      RecastPointer<rcPolyMeshDetail>(rcAllocPolyMeshDetail())};
  require(meshes.polygons && rcBuildPolyMesh(&context, *contours, settings.vertices_per_polygon, *meshes.polygons),
          "build the polygon mesh");
  require(meshes.detail &&
              rcBuildPolyMeshDetail(&context, *meshes.polygons, *compact,
                                    static_cast<float>(settings.cell_size * detail_sample_distance_cells),
                                    static_cast<float>(settings.cell_height * detail_sample_max_error_cell_heights),
                                    *meshes.detail),
          "build the detail mesh");
  return meshes;
}

// One Detour tile from the Recast meshes, every polygon area 0 and walkable, as RecastDemo's
// solo mesh gives its ground polygons.
inline DetourPointer<dtNavMesh> build_detour_mesh(rcPolyMesh& polygons, const rcPolyMeshDetail& detail) {
  const AgentSettings settings;
  for (int i = 0; i < polygons.npolys; ++i) {
    polygons.areas[i] = 0;
    polygons.flags[i] = walkable_flag;
  }
  dtNavMeshCreateParams params{};
  params.verts = polygons.verts;
  params.vertCount = polygons.nverts;
  params.polys = polygons.polys;
  params.polyAreas = polygons.areas;
  params.polyFlags = polygons.flags;
  params.polyCount = polygons.npolys;
  params.nvp = polygons.nvp;
  params.detailMeshes = detail.meshes;
  params.detailVerts = detail.verts;
  params.detailVertsCount = detail.nverts;
  params.detailTris = detail.tris;
  params.detailTriCount = detail.ntris;
  set_detour_agent(params, settings);
  rcVcopy(params.bmin, polygons.bmin);
  rcVcopy(params.bmax, polygons.bmax);
  params.cs = polygons.cs;
  params.ch = polygons.ch;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  require(dtCreateNavMeshData(&params, &data, &size), "create the navmesh data");
  DetourPointer<dtNavMesh> mesh(dtAllocNavMesh());
  if (!mesh || dtStatusFailed(mesh->init(data, size, DT_TILE_FREE_DATA))) {
    dtFree(data);
    require(false, "initialise the navmesh");
  }
  return mesh;
}


}  // namespace wayfinder::bench
