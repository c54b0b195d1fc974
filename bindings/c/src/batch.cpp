// Batches through C: many requests on one world answered by solve_batch on several threads,
// their results kept in the batch handle until the next solve.

#include <memory>
#include <vector>

#include "handles.hpp"
#include "options.hpp"
#include "wayfinder/core/path_batch.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

struct wf_batch {
  static constexpr HandleType type = HandleType::batch;
  HandleHeader header{type, {}};
  std::vector<PathResult>* results;
};
static_assert(std::is_standard_layout_v<wf_batch>);

namespace {

const GridMap* world_of(const wf_grid* grid) { return grid->map; }
const NavMesh* world_of(const wf_navmesh* mesh) { return mesh->mesh; }
const VoxelWorld* world_of(const wf_voxel_world* world) { return world->world; }

// Converts every C request first, so that a bad option fails the call before any search runs,
// naming the request.
template <class Request, class CRequest, class Convert>
std::vector<Request> convert_requests(const CRequest* requests, std::size_t count, Convert&& convert) {
  std::vector<Request> converted;
  converted.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    try {
      converted.push_back(convert(requests[i]));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument("request " + std::to_string(i) + ": " + error.what());
    }
  }
  return converted;
}

// `queries(world)` is what solve_batch answers on: the world (its default query objects) or a
// query factory.
template <class World, class CWorld, class CRequest, class Convert, class Queries>
wf_status solve(wf_batch* batch, const CWorld* world, const CRequest* requests, std::size_t count, unsigned threads,
                Convert&& convert, Queries&& queries) noexcept {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  return guarded(batch->header.error, [&] {
    if (world == nullptr) return fail(batch->header.error, WF_INVALID_ARGUMENT, "solve: the world handle is NULL");
    if (!is_live_argument(world, batch->header.error)) return WF_INVALID_ARGUMENT;
    if (requests == nullptr && count != 0)
      return fail(batch->header.error, WF_INVALID_ARGUMENT, "solve: requests is NULL with a non-zero count");
    const auto converted = convert_requests<RequestFor<World>>(requests, count, convert);
    solve_batch(queries(*world_of(world)), std::span<const RequestFor<World>>(converted), *batch->results, threads);
    return WF_OK;
  });
}

template <class World, class CWorld, class CRequest, class Convert>
wf_status solve(wf_batch* batch, const CWorld* world, const CRequest* requests, std::size_t count, unsigned threads,
                Convert&& convert) noexcept {
  return solve<World>(batch, world, requests, count, threads, std::forward<Convert>(convert),
                      [](const World& shared) -> const World& { return shared; });
}

GridPathRequest grid_request(const wf_grid_request& request) {
  return {{request.start_x, request.start_y}, {request.goal_x, request.goal_y}, grid_options(request.options)};
}

// The result at `index`, or a recorded failure.
const PathResult* result_at(wf_batch* batch, std::size_t index) {
  if (index >= batch->results->size()) {
    fail(batch->header.error, WF_INVALID_ARGUMENT,
         "index " + std::to_string(index) + " is not below the batch's " + std::to_string(batch->results->size()) +
             " results");
    return nullptr;
  }
  return &(*batch->results)[index];
}

}  // namespace

extern "C" {

wf_status wf_batch_create(wf_batch** out_batch, char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (out_batch == nullptr) {
      write_error(error, error_capacity, "wf_batch_create: the output pointer is NULL");
      return WF_INVALID_ARGUMENT;
    }
    *out_batch = nullptr;
    auto batch = std::make_unique<wf_batch>();
    batch->results = new std::vector<PathResult>();
    *out_batch = batch.release();
    return WF_OK;
  });
}

void wf_batch_destroy(wf_batch* batch) {
  if (!is_live(batch)) return;
  delete batch->results;
  poison_and_delete(batch);
}

wf_status wf_batch_solve_grid(wf_batch* batch, const wf_grid* grid, const wf_grid_request* requests, size_t count,
                              unsigned threads) {
  return solve<GridMap>(batch, grid, requests, count, threads, grid_request);
}

wf_status wf_batch_solve_grid_derived(wf_batch* batch, const wf_grid* grid, const wf_grid_derived* derived,
                                      const wf_grid_request* requests, size_t count, unsigned threads) {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  if (derived != nullptr && !is_live_argument(derived, batch->header.error)) return WF_INVALID_ARGUMENT;
  if (derived != nullptr && derived->grid != grid)
    return fail(batch->header.error, WF_INVALID_ARGUMENT,
                "wf_batch_solve_grid_derived: the derived data was built for another grid than the batch's");
  const GridDerivedData shared = derived != nullptr ? *derived->derived : GridDerivedData{};
  return solve<GridMap>(batch, grid, requests, count, threads, grid_request, [&](const GridMap& map) {
    return [&map, &shared] { return GridQuery(map, shared); };
  });
}

wf_status wf_batch_solve_navmesh(wf_batch* batch, const wf_navmesh* mesh, const wf_navmesh_request* requests,
                                 size_t count, unsigned threads) {
  return solve<NavMesh>(batch, mesh, requests, count, threads, [](const wf_navmesh_request& request) {
    return NavMeshPathRequest{point_of(request.start), point_of(request.goal), navmesh_options(request.options)};
  });
}

wf_status wf_batch_solve_voxel(wf_batch* batch, const wf_voxel_world* world, const wf_voxel_request* requests,
                               size_t count, unsigned threads) {
  return solve<VoxelWorld>(batch, world, requests, count, threads, [](const wf_voxel_request& request) {
    return VoxelPathRequest{voxel_of(request.start), voxel_of(request.goal), voxel_options(request.options)};
  });
}

wf_status wf_batch_count(const wf_batch* batch, size_t* count) {
  if (!is_live(batch) || count == nullptr) return WF_INVALID_ARGUMENT;
  *count = batch->results->size();
  return WF_OK;
}

wf_status wf_batch_result(wf_batch* batch, size_t index, wf_path_result* result) {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  return guarded(batch->header.error, [&] {
    if (result == nullptr) return fail(batch->header.error, WF_INVALID_ARGUMENT, "wf_batch_result: result is NULL");
    const PathResult* found = result_at(batch, index);
    if (found == nullptr) return WF_INVALID_ARGUMENT;
    summarise(*found, result);
    return WF_OK;
  });
}

wf_status wf_batch_path_nodes(wf_batch* batch, size_t index, uint32_t* nodes, size_t capacity, size_t* count) {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  return guarded(batch->header.error, [&] {
    const PathResult* found = result_at(batch, index);
    if (found == nullptr) return WF_INVALID_ARGUMENT;
    return copy_out(batch->header.error, "wf_batch_path_nodes", nodes, capacity, count, found->nodes.size(),
                    [&] { std::copy(found->nodes.begin(), found->nodes.end(), nodes); });
  });
}

wf_status wf_batch_path_points(wf_batch* batch, size_t index, double* xyz, size_t capacity, size_t* count) {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  return guarded(batch->header.error, [&] {
    const PathResult* found = result_at(batch, index);
    if (found == nullptr) return WF_INVALID_ARGUMENT;
    return copy_points_out(batch->header.error, "wf_batch_path_points", found->points, xyz, capacity, count);
  });
}

wf_status wf_batch_message(wf_batch* batch, size_t index, char* text, size_t capacity, size_t* length) {
  if (!is_live(batch)) return WF_INVALID_ARGUMENT;
  return guarded(batch->header.error, [&] {
    const PathResult* found = result_at(batch, index);
    if (found == nullptr) return WF_INVALID_ARGUMENT;
    return copy_text(batch->header.error, "wf_batch_message", found->message, text, capacity, length);
  });
}

}  // extern "C"
