// Navigation meshes from level geometry through C: the C++ build (Recast, wayfinder::navmesh_build)
// behind wf_navmesh_build_obj, wf_navmesh_build_geometry and the wf_navmesh_tile_cache functions,
// when the library is built with it (WAYFINDER_C_WITH_RECAST).

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "handles.hpp"
#include "options.hpp"
#include "query_calls.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
// The settings' defaults come from this header even without Recast; only the build needs it.
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#if WAYFINDER_C_WITH_RECAST
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"
#include "wayfinder/navmesh_build/tile_cache_file.hpp"
#endif

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace {

// The build settings' fields the C struct has, listed once for both directions: the C defaults
// (wf_agent_settings_init) and the C++ settings a build runs with.
template <class From, class To>
void copy_agent_settings_fields(const From& from, To& to) {
  to.cell_size = from.cell_size;
  to.cell_height = from.cell_height;
  to.agent_height = from.agent_height;
  to.agent_radius = from.agent_radius;
  to.max_climb = from.max_climb;
  to.max_slope_degrees = from.max_slope_degrees;
  to.region_min_size = from.region_min_size;
  to.region_merge_size = from.region_merge_size;
  to.edge_max_length = from.edge_max_length;
  to.edge_max_error = from.edge_max_error;
  to.vertices_per_polygon = from.vertices_per_polygon;
  to.detail_sample_distance = from.detail_sample_distance;
  to.detail_sample_max_error = from.detail_sample_max_error;
  to.tile_size = from.tile_size;
}

AgentSettings agent_settings(const wf_agent_settings* settings) {
  AgentSettings converted;
  // The build checks the values (settings_problem) and names the bad one.
  if (settings != nullptr) copy_agent_settings_fields(*settings, converted);
  return converted;
}

constexpr const char* build_geometry_call = "wf_navmesh_build_geometry";

/// The level's arrays as the C++ build's input, every value checked on the way: a caller's bad
/// array gets the element it must fix named (the build itself would say only that some vertex
/// or index is bad, and a negative index has no uint32_t to be). Throws std::invalid_argument.
MeshGeometry level_from_arrays(const float* vertices, std::size_t vertex_count, const std::int32_t* triangles,
                               std::size_t triangle_count) {
  const std::string call = build_geometry_call;
  // The counts first: an empty array may come as NULL (some foreign function interfaces pass
  // one so), and its count is what the caller must fix.
  if (vertex_count == 0) throw std::invalid_argument(call + ": vertex_count is 0 (a level needs at least 3 vertices)");
  if (triangle_count == 0) throw std::invalid_argument(call + ": triangle_count is 0 (a level needs a triangle)");
  if (vertices == nullptr) throw std::invalid_argument(call + ": vertices is NULL");
  if (triangles == nullptr) throw std::invalid_argument(call + ": triangles is NULL");
  // Recast counts vertices and triangle corners in int.
  constexpr std::size_t largest = static_cast<std::size_t>(std::numeric_limits<int>::max()) / 3;
  if (vertex_count > largest || triangle_count > largest)
    throw std::invalid_argument(call + ": " + std::to_string(vertex_count) + " vertices and " +
                                std::to_string(triangle_count) + " triangles are more than Recast takes (" +
                                std::to_string(largest) + " of each)");
  MeshGeometry level;
  level.vertices.reserve(vertex_count);
  for (std::size_t i = 0; i < vertex_count; ++i) {
    const float* xyz = vertices + 3 * i;
    for (int axis = 0; axis < 3; ++axis)
      if (!std::isfinite(xyz[axis]))
        // A NaN's sign bit means nothing (C#'s float.NaN has it set): no "-nan".
        throw std::invalid_argument(call + ": vertex " + std::to_string(i) + " has " + "xyz"[axis] + " = " +
                                    (std::isnan(xyz[axis]) ? std::string("NaN") : std::to_string(xyz[axis])) +
                                    " (vertices[" + std::to_string(3 * i + axis) + "]); coordinates must be finite");
    level.vertices.push_back({xyz[0], xyz[1], xyz[2]});
  }
  level.polygons.reserve(triangle_count);
  for (std::size_t t = 0; t < triangle_count; ++t) {
    std::vector<std::uint32_t>& triangle = level.polygons.emplace_back(3);
    for (std::size_t corner = 0; corner < 3; ++corner) {
      const std::int32_t index = triangles[3 * t + corner];
      if (index < 0 || static_cast<std::size_t>(index) >= vertex_count)
        throw std::invalid_argument(call + ": triangle " + std::to_string(t) + " has corner " + std::to_string(index) +
                                    " (triangles[" + std::to_string(3 * t + corner) + "]), not a vertex index from 0 to " +
                                    std::to_string(vertex_count - 1));
      triangle[corner] = static_cast<std::uint32_t>(index);
    }
  }
  return level;
}

void fill_report(const NavMeshBuildReport& from, wf_navmesh_build_report& to) {
  to.input_triangles = from.input_triangles;
  to.walkable_triangles = from.walkable_triangles;
  to.grid_width = from.grid_width;
  to.grid_depth = from.grid_depth;
  to.tiles = from.tiles;
  to.polygons = from.polygons;
  to.vertices = from.vertices;
  to.detail_triangles = from.detail_triangles;
  to.border_vertices_added = from.border_vertices_added;
  to.milliseconds = from.milliseconds;
}

}  // namespace

extern "C" {

void wf_agent_settings_init(wf_agent_settings* settings) {
  if (settings != nullptr) copy_agent_settings_fields(AgentSettings{}, *settings);
}

wf_status wf_navmesh_build_obj(const char* path, int z_up, const wf_agent_settings* settings, wf_navmesh** out_mesh,
                               char* error, size_t error_capacity) {
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_navmesh_build_obj: path is NULL");
      return nullptr;
    }
#if WAYFINDER_C_WITH_RECAST
    ObjReadOptions options;
    options.up = z_up != 0 ? UpAxis::z : UpAxis::y;
    return std::make_unique<NavMesh>(NavMesh::build(build_navmesh_geometry(read_obj_mesh(path, options), agent_settings(settings))));
#else
    (void)z_up;
    (void)agent_settings(settings);
    throw std::runtime_error("wf_navmesh_build_obj: this library was built without Recast (WAYFINDER_WITH_RECAST off)");
#endif
  });
}

wf_status wf_navmesh_build_geometry(const float* vertices, size_t vertex_count, const int32_t* triangles,
                                    size_t triangle_count, const wf_agent_settings* settings,
                                    wf_navmesh_build_report* report, wf_navmesh** out_mesh, char* error,
                                    size_t error_capacity) {
  if (report != nullptr) *report = wf_navmesh_build_report{};
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    const MeshGeometry level = level_from_arrays(vertices, vertex_count, triangles, triangle_count);
#if WAYFINDER_C_WITH_RECAST
    NavMeshBuildReport built;
    auto mesh = std::make_unique<NavMesh>(NavMesh::build(build_navmesh_geometry(level, agent_settings(settings), &built)));
    if (report != nullptr) fill_report(built, *report);
    return mesh;
#else
    (void)level;
    (void)agent_settings(settings);
    (void)&fill_report;
    throw std::runtime_error(std::string(build_geometry_call) +
                             ": this library was built without Recast (WAYFINDER_WITH_RECAST off)");
#endif
  });
}

}  // extern "C"

namespace {

/// Clears both outputs; false (with the reason in `error`) when one of them or `path` is NULL.
bool outputs_and_path_given(const char* call, const char* path, wf_navmesh_tile_cache** out_cache, wf_navmesh** out_mesh,
                            char* error, size_t error_capacity) {
  if (out_cache == nullptr || out_mesh == nullptr) {
    write_error(error, error_capacity, (std::string(call) + ": an output pointer is NULL").c_str());
    return false;
  }
  *out_cache = nullptr;
  *out_mesh = nullptr;
  if (path == nullptr) {
    write_error(error, error_capacity, (std::string(call) + ": path is NULL").c_str());
    return false;
  }
  return true;
}

#if WAYFINDER_C_WITH_RECAST
/// Wraps a cache and its mesh, both already made (so that a failure leaves nothing behind), in
/// their handles.
wf_status hand_out(std::unique_ptr<NavMeshTileCache> cache, std::unique_ptr<NavMesh> mesh,
                   wf_navmesh_tile_cache** out_cache, wf_navmesh** out_mesh) {
  auto cache_handle = std::make_unique<wf_navmesh_tile_cache>();
  auto mesh_handle = std::make_unique<wf_navmesh>();
  cache_handle->cache = cache.release();
  mesh_handle->mesh = mesh.release();
  *out_cache = cache_handle.release();
  *out_mesh = mesh_handle.release();
  return WF_OK;
}

/// The tile size a cache gets from NULL settings: RecastDemo's tiled default (AgentSettings' own
/// default, 0, builds in one piece, which a cache cannot).
constexpr int default_cache_tile_size = 48;

wf_status add_obstacle(wf_navmesh_tile_cache* cache, const Obstacle& obstacle, uint32_t* obstacle_id) {
  return guarded(cache->header.error, [&] {
    const ObstacleId id = cache->cache->add_obstacle(obstacle);
    if (obstacle_id != nullptr) *obstacle_id = id;
    return WF_OK;
  });
}
#endif

}  // namespace

extern "C" {

wf_status wf_navmesh_tile_cache_create_obj(const char* path, int z_up, const wf_agent_settings* settings,
                                           wf_navmesh_tile_cache** out_cache, wf_navmesh** out_mesh, char* error,
                                           size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!outputs_and_path_given("wf_navmesh_tile_cache_create_obj", path, out_cache, out_mesh, error, error_capacity))
      return WF_INVALID_ARGUMENT;
#if WAYFINDER_C_WITH_RECAST
    ObjReadOptions options;
    options.up = z_up != 0 ? UpAxis::z : UpAxis::y;
    AgentSettings converted = agent_settings(settings);
    if (settings == nullptr) converted.tile_size = default_cache_tile_size;
    const MeshGeometry level = read_obj_mesh(path, options);
    // Both are built before either handle exists, so that a failure leaves nothing behind.
    const NavMeshTileSet tiles = build_navmesh_tiles(level, converted);
    return hand_out(std::make_unique<NavMeshTileCache>(level, converted),
                    std::make_unique<NavMesh>(NavMesh::build_tiled(tiles.grid, tiles.tiles)), out_cache, out_mesh);
#else
    (void)z_up;
    (void)agent_settings(settings);
    throw std::runtime_error(
        "wf_navmesh_tile_cache_create_obj: this library was built without Recast (WAYFINDER_WITH_RECAST off)");
#endif
  });
}

wf_status wf_navmesh_tile_cache_destroy(wf_navmesh_tile_cache* cache) {
  if (cache == nullptr) return WF_OK;
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
#if WAYFINDER_C_WITH_RECAST
  delete cache->cache;
#endif
  poison_and_delete(cache);
  return WF_OK;
}

wf_status wf_navmesh_tile_cache_add_cylinder(wf_navmesh_tile_cache* cache, const double base[3], double radius,
                                             double height, uint32_t* obstacle_id) {
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
  if (base == nullptr)
    return fail(cache->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_tile_cache_add_cylinder: base is NULL");
#if WAYFINDER_C_WITH_RECAST
  return add_obstacle(cache, CylinderObstacle{point_of(base), radius, height}, obstacle_id);
#else
  (void)radius;
  (void)height;
  (void)obstacle_id;
  return WF_INTERNAL_ERROR;  // unreachable: no cache handle exists without Recast
#endif
}

wf_status wf_navmesh_tile_cache_add_box(wf_navmesh_tile_cache* cache, const double min[3], const double max[3],
                                        uint32_t* obstacle_id) {
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
  if (min == nullptr || max == nullptr)
    return fail(cache->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_tile_cache_add_box: min or max is NULL");
#if WAYFINDER_C_WITH_RECAST
  return add_obstacle(cache, BoxObstacle{point_of(min), point_of(max)}, obstacle_id);
#else
  (void)obstacle_id;
  return WF_INTERNAL_ERROR;
#endif
}

wf_status wf_navmesh_tile_cache_remove(wf_navmesh_tile_cache* cache, uint32_t obstacle_id) {
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
#if WAYFINDER_C_WITH_RECAST
  return guarded(cache->header.error, [&] {
    cache->cache->remove_obstacle(obstacle_id);
    return WF_OK;
  });
#else
  (void)obstacle_id;
  return WF_INTERNAL_ERROR;
#endif
}

wf_status wf_navmesh_tile_cache_update(wf_navmesh_tile_cache* cache, wf_navmesh* mesh, size_t max_tiles,
                                       size_t* tiles_rebuilt, size_t* tiles_pending) {
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
  if (!is_live(mesh))
    return fail(cache->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_tile_cache_update: mesh is not a live wf_navmesh");
#if WAYFINDER_C_WITH_RECAST
  return guarded(cache->header.error, [&] {
    const NavMesh& target = *mesh->mesh;
    if (!target.is_tiled() || target.tile_grid().tiles_x != cache->cache->tiles_x() ||
        target.tile_grid().tiles_z != cache->cache->tiles_z())
      throw std::invalid_argument(
          "wf_navmesh_tile_cache_update: the mesh is not the tiled mesh wf_navmesh_tile_cache_create_obj made with "
          "this cache");
    TileUpdateBudget budget;
    if (max_tiles != 0) budget.max_tiles = max_tiles;
    const std::vector<RebuiltTile> rebuilt = cache->cache->update(budget);
    for (const RebuiltTile& tile : rebuilt) mesh->mesh->replace_tile(tile);
    if (tiles_rebuilt != nullptr) *tiles_rebuilt = rebuilt.size();
    if (tiles_pending != nullptr) *tiles_pending = cache->cache->pending_tiles();
    return WF_OK;
  });
#else
  (void)max_tiles;
  (void)tiles_rebuilt;
  (void)tiles_pending;
  return WF_INTERNAL_ERROR;
#endif
}


wf_status wf_navmesh_tile_cache_save_wfnav(wf_navmesh_tile_cache* cache, wf_navmesh* mesh, const char* path) {
  if (!is_live(cache)) return WF_INVALID_ARGUMENT;
  if (!is_live(mesh))
    return fail(cache->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_tile_cache_save_wfnav: mesh is not a live wf_navmesh");
  if (path == nullptr)
    return fail(cache->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_tile_cache_save_wfnav: path is NULL");
#if WAYFINDER_C_WITH_RECAST
  return guarded(cache->header.error, [&] {
    const std::string bytes = navmesh_file_bytes(*mesh->mesh, *cache->cache);  // std::invalid_argument: not its mesh
    try {
      write_navmesh_file(*mesh->mesh, *cache->cache, path);
    } catch (const std::runtime_error& error) {
      // The writer's one failure: the file cannot be written (its text names it).
      return fail(cache->header.error, WF_LOAD_ERROR, error.what());
    }
    return WF_OK;
  });
#else
  return WF_INTERNAL_ERROR;  // unreachable: no cache handle exists without Recast
#endif
}

wf_status wf_navmesh_tile_cache_load_wfnav(const char* path, wf_navmesh_tile_cache** out_cache, wf_navmesh** out_mesh,
                                           char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!outputs_and_path_given("wf_navmesh_tile_cache_load_wfnav", path, out_cache, out_mesh, error, error_capacity))
      return WF_INVALID_ARGUMENT;
#if WAYFINDER_C_WITH_RECAST
    NavMeshWithTileCache loaded = read_navmesh_file_with_tile_cache(path);
    return hand_out(std::make_unique<NavMeshTileCache>(std::move(loaded.cache)),
                    std::make_unique<NavMesh>(std::move(loaded.mesh)), out_cache, out_mesh);
#else
    throw std::runtime_error(
        "wf_navmesh_tile_cache_load_wfnav: this library was built without Recast (WAYFINDER_WITH_RECAST off)");
#endif
  });
}

}  // extern "C"
