// Search traces through C: a query handle records the events of its searches (C++ SearchTrace)
// when asked, and hands them back as positions, for drawing a search step by step (the web
// viewer's static site replays them as `wayfinder serve` does).

#include <cstddef>
#include <memory>

#include "handles.hpp"
#include "query_calls.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace {

template <class Handle>
wf_status set_trace(Handle* handle, std::size_t max_events) noexcept {
  return query_call(handle, true, "", [&] {
    if (max_events == 0) {
      delete handle->trace;
      handle->trace = nullptr;
      return;
    }
    if (handle->trace == nullptr) handle->trace = std::make_unique<SearchTrace>().release();
    handle->trace->set_max_events(max_events);
  });
}

/// The kept events as (event, x, y, z) quadruples, `position(node)` giving x, y, z.
template <class Handle, class Position>
wf_status copy_trace(Handle* handle, double* events, std::size_t capacity, std::size_t* count, std::size_t* recorded,
                     Position&& position) noexcept {
  if (!is_live(handle)) return WF_INVALID_ARGUMENT;
  return guarded(handle->header.error, [&] {
    const std::size_t kept = handle->trace == nullptr ? 0 : handle->trace->size();
    if (recorded != nullptr) *recorded = handle->trace == nullptr ? 0 : handle->trace->recorded();
    return copy_out(handle->header.error, "trace", events, capacity, count, kept, [&] {
      const auto& records = handle->trace->events();
      for (std::size_t i = 0; i < kept; ++i) {
        const Point at = position(records[i].node);
        events[4 * i] = static_cast<double>(records[i].event);
        events[4 * i + 1] = at.x;
        events[4 * i + 2] = at.y;
        events[4 * i + 3] = at.z;
      }
    });
  });
}

}  // namespace

wf_status wf_grid_query_set_trace(wf_grid_query* query, size_t max_events) { return set_trace(query, max_events); }
wf_status wf_navmesh_query_set_trace(wf_navmesh_query* query, size_t max_events) { return set_trace(query, max_events); }
wf_status wf_voxel_query_set_trace(wf_voxel_query* query, size_t max_events) { return set_trace(query, max_events); }

wf_status wf_grid_query_trace(wf_grid_query* query, double* events, size_t capacity, size_t* count, size_t* recorded) {
  return copy_trace(query, events, capacity, count, recorded, [&](NodeId node) {
    const Cell cell = query->grid->map->cell_of(node);
    return Point{static_cast<double>(cell.x), static_cast<double>(cell.y), 0.0};
  });
}

wf_status wf_navmesh_query_trace(wf_navmesh_query* query, double* events, size_t capacity, size_t* count,
                                 size_t* recorded) {
  return copy_trace(query, events, capacity, count, recorded,
                    [&](NodeId node) { return query->query->corridor_node_position(node); });
}

wf_status wf_voxel_query_trace(wf_voxel_query* query, double* events, size_t capacity, size_t* count, size_t* recorded) {
  return copy_trace(query, events, capacity, count, recorded, [&](NodeId node) {
    const VoxelCoord at = query->world->world->coord_of(node);
    return Point{static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z)};
  });
}
