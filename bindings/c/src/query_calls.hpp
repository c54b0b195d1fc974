#pragma once
// The calls every query handle answers the same way (find_path, begin, step, result, message,
// create and destroy, and the world's counter of query handles), and the construction, editing
// and destruction of world handles, written once over the three handle types. Each handle has
// `error`, `result` (the latest C++ result) and its query object in a member the caller names.

#include <memory>

#include "handles.hpp"
#include "wayfinder/core/search_trace.hpp"

namespace wayfinder::c_api {

/// The frame of every call on a query handle: a NULL handle, or one that is no live handle of
/// this type, is refused (is_live says what is recorded),
/// `arguments_given` false (a pointer the call needs is NULL) records `null_message`, which
/// names the call, and whatever `call` throws is recorded as guarded() says.
template <class Handle, class Call>
wf_status query_call(Handle* handle, bool arguments_given, const char* null_message, Call&& call) noexcept {
  if (!is_live(handle)) return WF_INVALID_ARGUMENT;
  return guarded(handle->header.error, [&] {
    if (!arguments_given) return fail(handle->header.error, WF_INVALID_ARGUMENT, null_message);
    call();
    return WF_OK;
  });
}

/// The request with the handle's trace (wf_*_query_set_trace), emptied for the new search.
template <class Handle, class Request>
Request traced(Handle* handle, Request request) {
  if (handle->trace != nullptr) handle->trace->clear();
  request.options.trace = handle->trace;
  return request;
}

/// find_path on any query handle; `make_request` turns the caller's checked arguments into the
/// world's request (GridPathRequest, ...).
template <class Handle, class Query, class MakeRequest>
wf_status query_find_path(Handle* handle, Query* Handle::*query, bool arguments_given, const char* null_message,
                          wf_path_result* out, MakeRequest&& make_request) noexcept {
  return query_call(handle, arguments_given && out != nullptr, null_message, [&] {
    (handle->*query)->find_path(traced(handle, make_request()), *handle->result);
    summarise(*handle->result, out);
  });
}

/// begin on any query handle, with find_path's arguments.
template <class Handle, class Query, class MakeRequest>
wf_status query_begin(Handle* handle, Query* Handle::*query, bool arguments_given, const char* null_message,
                      wf_search_status* status, MakeRequest&& make_request) noexcept {
  return query_call(handle, arguments_given && status != nullptr, null_message, [&] {
    *status = static_cast<wf_search_status>((handle->*query)->begin(traced(handle, make_request())));
  });
}

template <class Handle, class Query>
wf_status query_step(Handle* handle, Query* Handle::*query, std::uint64_t max_expansions, double max_milliseconds,
                     wf_search_status* status) noexcept {
  return query_call(handle, status != nullptr, "step: status is NULL", [&] {
    const StepBudget budget = step_budget(max_expansions, max_milliseconds);
    *status = static_cast<wf_search_status>((handle->*query)->step(budget));
  });
}

template <class Handle, class Query>
wf_status query_result(Handle* handle, Query* Handle::*query, wf_path_result* out) noexcept {
  return query_call(handle, out != nullptr, "result: result is NULL", [&] {
    (handle->*query)->result(*handle->result);
    summarise(*handle->result, out);
  });
}

template <class Handle>
wf_status query_message(Handle* handle, char* text, std::size_t capacity, std::size_t* length) noexcept {
  if (!is_live(handle)) return WF_INVALID_ARGUMENT;
  return guarded(handle->header.error,
                 [&] { return copy_text(handle->header.error, "message", handle->result->message, text, capacity, length); });
}

/// Builds a query handle on `world_handle` (whose query counter it increments) with `make`,
/// which returns the C++ query object; errors go to the caller's buffer.
template <class Handle, class WorldHandle, class Query, class Make>
wf_status create_query(WorldHandle* world_handle, WorldHandle* Handle::*world_member, Query* Handle::*query_member,
                       Handle** out, char* error, std::size_t error_capacity, Make&& make) noexcept {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("create", out, world_handle, "world", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    auto handle = std::make_unique<Handle>();
    auto query = make();
    auto result = std::make_unique<PathResult>();
    handle->result = result.release();
    handle.get()->*query_member = query.release();
    handle.get()->*world_member = world_handle;
    world_handle->queries.fetch_add(1, std::memory_order_relaxed);
    *out = handle.release();
    return WF_OK;
  });
}

/// Builds a world handle with `build`, which returns the C++ world, or null once it has written
/// why to the caller's buffer; errors thrown go to the buffer too.
template <class WorldHandle, class World, class Build>
wf_status create_world(WorldHandle** out, World* WorldHandle::*world_member, char* error, std::size_t error_capacity,
                       Build&& build) noexcept {
  return guarded(nullptr, error, error_capacity, [&] {
    if (out == nullptr) {
      write_error(error, error_capacity, "the output pointer is NULL");
      return WF_INVALID_ARGUMENT;
    }
    *out = nullptr;
    std::unique_ptr<World> world = build();
    if (!world) return WF_INVALID_ARGUMENT;  // build() wrote why
    auto handle = std::make_unique<WorldHandle>();
    handle.get()->*world_member = world.release();
    *out = handle.release();
    return WF_OK;
  });
}

/// Destroys a query handle and gives its world (`world_member`) back one count. NULL and
/// handles that are no live query of this type are left alone.
template <class Handle, class Query, class WorldHandle>
void destroy_query(Handle* handle, Query* Handle::*query, WorldHandle* Handle::*world_member) noexcept {
  if (!is_live(handle)) return;
  delete (handle->*query);
  delete handle->result;
  delete handle->trace;
  (handle->*world_member)->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(handle);
}

/// An edit of the world in a world handle: edit(world) runs under guarded(), so what the world's
/// checks throw (a cell or polygon out of range, a bad value) is recorded in the handle and
/// nothing is changed.
template <class WorldHandle, class World, class Edit>
wf_status edit_world(WorldHandle* handle, World* WorldHandle::*world, Edit&& edit) noexcept {
  if (!is_live(handle)) return WF_INVALID_ARGUMENT;
  return guarded(handle->header.error, [&] {
    edit(*(handle->*world));
    return WF_OK;
  });
}

/// Destroys a world handle unless query handles still use it.
template <class WorldHandle, class World>
wf_status destroy_world(WorldHandle* handle, World* WorldHandle::*world) noexcept {
  if (handle == nullptr) return WF_OK;
  if (!is_live(handle)) return WF_INVALID_ARGUMENT;
  const std::size_t queries = handle->queries.load(std::memory_order_relaxed);
  if (queries != 0) {
    record(handle->header.error, "destroy: query handles (or voxel hierarchies, crowds) on this world still exist; destroy them first");
    return WF_IN_USE;
  }
  delete (handle->*world);
  poison_and_delete(handle);
  return WF_OK;
}

}  // namespace wayfinder::c_api
