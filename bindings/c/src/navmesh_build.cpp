// Navigation meshes from level geometry through C: the C++ build (Recast, wayfinder::navmesh_build)
// behind wf_navmesh_build_obj, when the library is built with it (WAYFINDER_C_WITH_RECAST).

#include <memory>
#include <stdexcept>

#include "handles.hpp"
#include "query_calls.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
// The settings' defaults come from this header even without Recast; only the build needs it.
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace {

AgentSettings agent_settings(const wf_agent_settings* settings) {
  AgentSettings converted;
  if (settings == nullptr) return converted;
  // The build checks the values (settings_problem) and names the bad one.
  converted.cell_size = settings->cell_size;
  converted.cell_height = settings->cell_height;
  converted.agent_height = settings->agent_height;
  converted.agent_radius = settings->agent_radius;
  converted.max_climb = settings->max_climb;
  converted.max_slope_degrees = settings->max_slope_degrees;
  converted.region_min_size = settings->region_min_size;
  converted.region_merge_size = settings->region_merge_size;
  converted.edge_max_length = settings->edge_max_length;
  converted.edge_max_error = settings->edge_max_error;
  converted.vertices_per_polygon = settings->vertices_per_polygon;
  converted.detail_sample_distance = settings->detail_sample_distance;
  converted.detail_sample_max_error = settings->detail_sample_max_error;
  converted.tile_size = settings->tile_size;
  return converted;
}

}  // namespace

extern "C" {

void wf_agent_settings_init(wf_agent_settings* settings) {
  if (settings == nullptr) return;
  const AgentSettings defaults;
  settings->cell_size = defaults.cell_size;
  settings->cell_height = defaults.cell_height;
  settings->agent_height = defaults.agent_height;
  settings->agent_radius = defaults.agent_radius;
  settings->max_climb = defaults.max_climb;
  settings->max_slope_degrees = defaults.max_slope_degrees;
  settings->region_min_size = defaults.region_min_size;
  settings->region_merge_size = defaults.region_merge_size;
  settings->edge_max_length = defaults.edge_max_length;
  settings->edge_max_error = defaults.edge_max_error;
  settings->vertices_per_polygon = defaults.vertices_per_polygon;
  settings->detail_sample_distance = defaults.detail_sample_distance;
  settings->detail_sample_max_error = defaults.detail_sample_max_error;
  settings->tile_size = defaults.tile_size;
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

}  // extern "C"
