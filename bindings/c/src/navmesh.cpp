// Navigation meshes through C: loading and building meshes, locating points, and the mesh query.

#include <memory>
#include <span>

#include "handles.hpp"
#include "options.hpp"
#include "query_calls.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace wayfinder::c_api {

NavMeshSearchOptions navmesh_options(const wf_navmesh_options* options) {
  NavMeshSearchOptions converted;
  if (options == nullptr) return converted;
  apply_limits(options->limits, converted);
  check_enum("options.nodes", raw_enum(options->nodes), WF_CORRIDOR_OPTIMAL);
  converted.nodes = static_cast<CorridorNodes>(options->nodes);
  // Weights, tolerances and distances are the query's to check (invalid_input with a reason).
  converted.weight = options->weight;
  converted.height_tolerance = options->height_tolerance;
  converted.snap_distance = options->snap_distance;
  if (options->filter != nullptr) converted.filter = area_filter(*options->filter);
  return converted;
}

}  // namespace wayfinder::c_api

extern "C" {

void wf_navmesh_options_init(wf_navmesh_options* options) {
  if (options == nullptr) return;
  const NavMeshSearchOptions defaults;
  default_limits(options->limits);
  options->nodes = static_cast<wf_corridor_nodes>(defaults.nodes);
  options->weight = defaults.weight;
  options->height_tolerance = defaults.height_tolerance;
  options->snap_distance = defaults.snap_distance;
  options->filter = nullptr;
}

wf_status wf_navmesh_load_obj(const char* path, int z_up, wf_navmesh** out_mesh, char* error,
                              size_t error_capacity) {
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_navmesh_load_obj: path is NULL");
      return nullptr;
    }
    ObjReadOptions options;
    options.up = z_up != 0 ? UpAxis::z : UpAxis::y;
    return std::make_unique<NavMesh>(NavMesh::build(read_obj_mesh(path, options)));
  });
}

wf_status wf_navmesh_load_polyanya(const char* path, wf_navmesh** out_mesh, char* error, size_t error_capacity) {
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_navmesh_load_polyanya: path is NULL");
      return nullptr;
    }
    return std::make_unique<NavMesh>(NavMesh::build(read_polyanya_mesh(path)));
  });
}

wf_status wf_navmesh_load_wfnav(const char* path, wf_navmesh** out_mesh, char* error, size_t error_capacity) {
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_navmesh_load_wfnav: path is NULL");
      return nullptr;
    }
    return std::make_unique<NavMesh>(read_navmesh_file(path));
  });
}

wf_status wf_navmesh_save_wfnav(wf_navmesh* mesh, const char* path) {
  if (!is_live(mesh)) return WF_INVALID_ARGUMENT;
  if (path == nullptr) return fail(mesh->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_save_wfnav: path is NULL");
  return guarded(mesh->header.error, [&] {
    try {
      write_navmesh_file(*mesh->mesh, path);
    } catch (const std::runtime_error& error) {
      // The writer's one failure: the file cannot be written (its text names it).
      return fail(mesh->header.error, WF_LOAD_ERROR, error.what());
    }
    return WF_OK;
  });
}

wf_status wf_navmesh_create(const float* vertices, size_t vertex_count, size_t stride_bytes, const uint32_t* indices,
                            size_t index_count, const uint32_t* polygon_sizes, size_t polygon_count,
                            wf_navmesh** out_mesh, char* error, size_t error_capacity) {
  return create_world(out_mesh, &wf_navmesh::mesh, error, error_capacity, [&]() -> std::unique_ptr<NavMesh> {
    // NavMesh::from_arrays checks the vertices (null with a count, the stride); spans need
    // their pointers to be valid for their sizes, so null arrays with counts are refused here.
    if ((indices == nullptr && index_count != 0) || (polygon_sizes == nullptr && polygon_count != 0)) {
      write_error(error, error_capacity, "wf_navmesh_create: indices or polygon_sizes is NULL with a non-zero count");
      return nullptr;
    }
    const std::span<const std::uint32_t> index_span(indices, index_count);
    const std::span<const std::uint32_t> size_span(polygon_sizes, polygon_count);
    return std::make_unique<NavMesh>(
        NavMesh::from_arrays(vertices, vertex_count, stride_bytes, index_span, size_span));
  });
}

wf_status wf_navmesh_destroy(wf_navmesh* mesh) { return destroy_world(mesh, &wf_navmesh::mesh); }

wf_status wf_navmesh_counts(const wf_navmesh* mesh, size_t* vertices, size_t* polygons, size_t* regions) {
  if (!is_live(mesh, OnWrongHandle::stay_silent)) return WF_INVALID_ARGUMENT;
  if (vertices != nullptr) *vertices = mesh->mesh->vertex_count();
  if (polygons != nullptr) *polygons = mesh->mesh->polygon_count();
  if (regions != nullptr) *regions = mesh->mesh->region_count();
  return WF_OK;
}

wf_status wf_navmesh_locate(const wf_navmesh* mesh, const double point[3], double height_tolerance,
                            uint32_t* polygon, double located[3]) {
  if (!is_live(mesh, OnWrongHandle::stay_silent) || point == nullptr || polygon == nullptr) return WF_INVALID_ARGUMENT;
  // locate() answers "none" for bad numbers rather than throwing; the catch is there so that
  // nothing could ever cross into C. A read records no text (see wayfinder.h).
  try {
    const MeshLocation location = mesh->mesh->locate(point_of(point), height_tolerance);
    *polygon = location.valid() ? location.polygon : WF_NO_POLYGON;
    if (located != nullptr && location.valid()) {
      located[0] = location.point.x;
      located[1] = location.point.y;
      located[2] = location.point.z;
    }
    return WF_OK;
  } catch (...) {
    return WF_INTERNAL_ERROR;
  }
}

wf_status wf_navmesh_revision(const wf_navmesh* mesh, uint64_t* revision) {
  if (!is_live(mesh, OnWrongHandle::stay_silent) || revision == nullptr) return WF_INVALID_ARGUMENT;
  *revision = mesh->mesh->revision();
  return WF_OK;
}

wf_status wf_navmesh_polygon_area(const wf_navmesh* mesh, uint32_t polygon, uint8_t* area, uint16_t* flags) {
  if (!is_live(mesh, OnWrongHandle::stay_silent) || polygon >= mesh->mesh->polygon_count()) return WF_INVALID_ARGUMENT;
  if (area != nullptr) *area = mesh->mesh->area(polygon);
  if (flags != nullptr) *flags = mesh->mesh->flags(polygon);
  return WF_OK;
}

wf_status wf_navmesh_set_area(wf_navmesh* mesh, uint32_t polygon, uint8_t area) {
  return edit_world(mesh, &wf_navmesh::mesh, [&](NavMesh& edited) { edited.set_area(polygon, area); });
}

wf_status wf_navmesh_set_flags(wf_navmesh* mesh, uint32_t polygon, uint16_t flags) {
  return edit_world(mesh, &wf_navmesh::mesh, [&](NavMesh& edited) { edited.set_flags(polygon, flags); });
}

wf_status wf_navmesh_set_area_and_flags(wf_navmesh* mesh, uint32_t polygon, uint8_t area, uint16_t flags) {
  return edit_world(mesh, &wf_navmesh::mesh,
                    [&](NavMesh& edited) { edited.set_area_and_flags(polygon, area, flags); });
}

wf_status wf_navmesh_query_create(wf_navmesh* mesh, wf_navmesh_query** out_query, char* error,
                                  size_t error_capacity) {
  return create_query(mesh, &wf_navmesh_query::mesh, &wf_navmesh_query::query, out_query, error, error_capacity,
                      [&] { return std::make_unique<NavMeshQuery>(*mesh->mesh); });
}

void wf_navmesh_query_destroy(wf_navmesh_query* query) {
  destroy_query(query, &wf_navmesh_query::query, &wf_navmesh_query::mesh);
}

wf_status wf_navmesh_query_find_path(wf_navmesh_query* query, const double start[3], const double goal[3],
                                     const wf_navmesh_options* options, wf_path_result* result) {
  return query_find_path(query, &wf_navmesh_query::query, start != nullptr && goal != nullptr,
                         "wf_navmesh_query_find_path: start, goal or result is NULL", result, [&] {
                           return NavMeshPathRequest{point_of(start), point_of(goal), navmesh_options(options)};
                         });
}

wf_status wf_navmesh_query_begin(wf_navmesh_query* query, const double start[3], const double goal[3],
                                 const wf_navmesh_options* options, wf_search_status* status) {
  return query_begin(query, &wf_navmesh_query::query, start != nullptr && goal != nullptr,
                     "wf_navmesh_query_begin: start, goal or status is NULL", status, [&] {
                       return NavMeshPathRequest{point_of(start), point_of(goal), navmesh_options(options)};
                     });
}

wf_status wf_navmesh_query_step(wf_navmesh_query* query, uint64_t max_expansions, double max_milliseconds,
                                wf_search_status* status) {
  return query_step(query, &wf_navmesh_query::query, max_expansions, max_milliseconds, status);
}

wf_status wf_navmesh_query_result(wf_navmesh_query* query, wf_path_result* result) {
  return query_result(query, &wf_navmesh_query::query, result);
}

wf_status wf_navmesh_query_path_points(wf_navmesh_query* query, double* xyz, size_t capacity, size_t* count) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    return copy_points_out(query->header.error, "wf_navmesh_query_path_points", query->result->points, xyz, capacity, count);
  });
}

wf_status wf_navmesh_query_path_polygons(wf_navmesh_query* query, uint32_t* polygons, size_t capacity,
                                         size_t* count) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    const std::vector<NodeId>& nodes = query->result->nodes;
    return copy_out(query->header.error, "wf_navmesh_query_path_polygons", polygons, capacity, count, nodes.size(),
                    [&] { std::copy(nodes.begin(), nodes.end(), polygons); });
  });
}

wf_status wf_navmesh_query_path_links(wf_navmesh_query* query, wf_path_link* links, size_t capacity, size_t* count) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    const std::vector<PathLinkStep>& steps = query->result->links;
    return copy_out(query->header.error, "wf_navmesh_query_path_links", links, capacity, count, steps.size(), [&] {
      for (std::size_t i = 0; i < steps.size(); ++i)
        links[i] = wf_path_link{steps[i].waypoint, steps[i].node, steps[i].link, steps[i].reverse ? 1 : 0};
    });
  });
}

wf_status wf_navmesh_query_message(wf_navmesh_query* query, char* text, size_t capacity, size_t* length) {
  return query_message(query, text, capacity, length);
}

}  // extern "C"
