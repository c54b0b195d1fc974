// Crowds through C: a crowd handle on a mesh or grid handle (counted among the world's queries),
// its agents, targets (points, velocities, flow fields: crowd_flow_field.cpp builds them) and
// updates, and the agents' state copied into the caller's arrays.

#include <cmath>
#include <memory>
#include <span>
#include <string>

#include "handles.hpp"
#include "options.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace {

static_assert(static_cast<int>(CrowdAgentStatus::idle) == WF_CROWD_IDLE &&
              static_cast<int>(CrowdAgentStatus::waiting_for_path) == WF_CROWD_WAITING_FOR_PATH &&
              static_cast<int>(CrowdAgentStatus::moving) == WF_CROWD_MOVING &&
              static_cast<int>(CrowdAgentStatus::arrived) == WF_CROWD_ARRIVED &&
              static_cast<int>(CrowdAgentStatus::unreachable) == WF_CROWD_UNREACHABLE &&
              static_cast<int>(CrowdAgentStatus::on_link) == WF_CROWD_ON_LINK);
static_assert(static_cast<int>(CrowdLinkEvent::none) == WF_CROWD_LINK_NONE &&
              static_cast<int>(CrowdLinkEvent::started) == WF_CROWD_LINK_STARTED &&
              static_cast<int>(CrowdLinkEvent::finished) == WF_CROWD_LINK_FINISHED);

// The crowd settings' fields the C struct has, listed once for both directions: the C
// defaults (wf_crowd_settings_init) and the C++ settings a crowd is made with.
template <class From, class To>
void copy_crowd_settings_fields(const From& from, To& to) {
  to.threads = from.threads;
  to.time_horizon = from.time_horizon;
  to.wall_time_horizon = from.wall_time_horizon;
  to.neighbour_distance = from.neighbour_distance;
  to.max_neighbours = from.max_neighbours;
  to.collision_iterations = from.collision_iterations;
  to.stuck_time = from.stuck_time;
  to.stuck_progress = from.stuck_progress;
  to.settle_speed_fraction = from.settle_speed_fraction;
  to.max_move_polygons = from.max_move_polygons;
  to.wall_clearance = from.wall_clearance;
  to.target_snap_distance = from.target_snap_distance;
  to.min_agents_per_thread = from.min_agents_per_thread;
}

// One agent's fields, listed once for both directions, as above.
template <class From, class To>
void copy_crowd_agent_fields(const From& from, To& to) {
  to.radius = from.radius;
  to.height = from.height;
  to.max_speed = from.max_speed;
  to.max_acceleration = from.max_acceleration;
  to.avoidance_priority = from.avoidance_priority;
  to.arrival_radius = from.arrival_radius;
  to.user_id = from.user_id;
}

CrowdSettings crowd_settings(const wf_crowd_settings* settings) {
  CrowdSettings converted;
  // The crowd checks the values (std::invalid_argument naming the field).
  if (settings != nullptr) copy_crowd_settings_fields(*settings, converted);
  return converted;
}

CrowdAgentSettings agent_settings(const wf_crowd_agent_settings* settings) {
  CrowdAgentSettings converted;
  if (settings != nullptr) copy_crowd_agent_fields(*settings, converted);
  return converted;
}

bool all_finite(const double* values, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(values[i])) return false;
  return true;
}

std::string no_agent(const char* call, std::uint32_t id) {
  return std::string(call) + ": no agent has the id " + std::to_string(id);
}

/// The frame of every call that changes a crowd: a handle that is no live crowd is refused,
/// `arguments_given` false records `null_message`, and `body` returns the status.
template <class Body>
wf_status crowd_call(wf_crowd* crowd, bool arguments_given, const char* null_message, Body&& body) noexcept {
  if (!is_live(crowd)) return WF_INVALID_ARGUMENT;
  return guarded(crowd->header.error, [&] {
    if (!arguments_given) return fail(crowd->header.error, WF_INVALID_ARGUMENT, null_message);
    return body();
  });
}

}  // namespace

extern "C" {

void wf_crowd_settings_init(wf_crowd_settings* settings) {
  if (settings != nullptr) copy_crowd_settings_fields(CrowdSettings{}, *settings);
}

void wf_crowd_agent_settings_init(wf_crowd_agent_settings* settings) {
  if (settings != nullptr) copy_crowd_agent_fields(CrowdAgentSettings{}, *settings);
}

wf_status wf_crowd_create(wf_navmesh* mesh, const wf_crowd_settings* settings, wf_crowd** out_crowd, char* error,
                          size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("wf_crowd_create", out_crowd, mesh, "mesh", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    auto handle = std::make_unique<wf_crowd>();
    handle->crowd = std::make_unique<Crowd>(*mesh->mesh, crowd_settings(settings)).release();
    handle->mesh = mesh;
    handle->grid = nullptr;
    mesh->queries.fetch_add(1, std::memory_order_relaxed);
    *out_crowd = handle.release();
    return WF_OK;
  });
}

wf_status wf_crowd_create_grid(wf_grid* grid, const wf_crowd_settings* settings, int jump_point, wf_crowd** out_crowd,
                               char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("wf_crowd_create_grid", out_crowd, grid, "grid", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    GridCrowdOptions options;
    if (jump_point != 0) options.algorithm = GridAlgorithm::jump_point;
    auto handle = std::make_unique<wf_crowd>();
    handle->crowd = std::make_unique<Crowd>(*grid->map, crowd_settings(settings), options).release();
    handle->mesh = nullptr;
    handle->grid = grid;
    grid->queries.fetch_add(1, std::memory_order_relaxed);
    *out_crowd = handle.release();
    return WF_OK;
  });
}

void wf_crowd_destroy(wf_crowd* crowd) {
  if (!is_live(crowd)) return;
  delete crowd->crowd;
  if (crowd->mesh != nullptr) crowd->mesh->queries.fetch_sub(1, std::memory_order_relaxed);
  if (crowd->grid != nullptr) crowd->grid->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(crowd);
}

wf_status wf_crowd_add_agent(wf_crowd* crowd, const double position[3], const wf_crowd_agent_settings* settings,
                             uint32_t* agent_id) {
  return crowd_call(crowd, position != nullptr && agent_id != nullptr,
                    "wf_crowd_add_agent: position or agent_id is NULL", [&] {
                      if (!all_finite(position, 3))
                        return fail(crowd->header.error, WF_INVALID_ARGUMENT, "wf_crowd_add_agent: the position is not finite");
                      *agent_id = crowd->crowd->add_agent(point_of(position), agent_settings(settings));
                      return WF_OK;
                    });
}

wf_status wf_crowd_remove_agent(wf_crowd* crowd, uint32_t agent_id) {
  return crowd_call(crowd, true, "", [&] {
    if (!crowd->crowd->remove_agent(agent_id))
      return fail(crowd->header.error, WF_INVALID_ARGUMENT, no_agent("wf_crowd_remove_agent", agent_id));
    return WF_OK;
  });
}

wf_status wf_crowd_set_target(wf_crowd* crowd, uint32_t agent_id, const double target[3]) {
  return crowd_call(crowd, target != nullptr, "wf_crowd_set_target: target is NULL", [&] {
    if (crowd->crowd->agent(agent_id) == nullptr)
      return fail(crowd->header.error, WF_INVALID_ARGUMENT, no_agent("wf_crowd_set_target", agent_id));
    if (!all_finite(target, 3))
      return fail(crowd->header.error, WF_INVALID_ARGUMENT, "wf_crowd_set_target: the target is not finite");
    if (!crowd->crowd->set_target(agent_id, point_of(target)))
      return fail(crowd->header.error, WF_INVALID_ARGUMENT,
                  "wf_crowd_set_target: no mesh within the target snap distance of the target");
    return WF_OK;
  });
}

wf_status wf_crowd_set_velocity_target(wf_crowd* crowd, uint32_t agent_id, const double velocity_xz[2]) {
  return crowd_call(crowd, velocity_xz != nullptr, "wf_crowd_set_velocity_target: velocity_xz is NULL", [&] {
    if (!all_finite(velocity_xz, 2))
      return fail(crowd->header.error, WF_INVALID_ARGUMENT, "wf_crowd_set_velocity_target: the velocity is not finite");
    if (!crowd->crowd->set_target_velocity(agent_id, PlanarVector{velocity_xz[0], velocity_xz[1]}))
      return fail(crowd->header.error, WF_INVALID_ARGUMENT, no_agent("wf_crowd_set_velocity_target", agent_id));
    return WF_OK;
  });
}

wf_status wf_crowd_set_flow_target(wf_crowd* crowd, uint32_t agent_id, const wf_crowd_flow_field* field) {
  return crowd_call(crowd, field != nullptr, "wf_crowd_set_flow_target: field is NULL", [&] {
    ErrorSlot& error = crowd->header.error;
    if (!is_live_argument(field, error)) return WF_INVALID_ARGUMENT;
    if (crowd->crowd->agent(agent_id) == nullptr)
      return fail(error, WF_INVALID_ARGUMENT, no_agent("wf_crowd_set_flow_target", agent_id));
    if (crowd->grid == nullptr)
      return fail(error, WF_INVALID_ARGUMENT,
                  "wf_crowd_set_flow_target: the crowd walks a navigation mesh; flow targets need a crowd on a grid");
    if (field->grid != crowd->grid)
      return fail(error, WF_INVALID_ARGUMENT, "wf_crowd_set_flow_target: the field was built on another grid");
    if (!crowd->crowd->set_target_flow(agent_id, *field->field))
      return fail(error, WF_INVALID_ARGUMENT, "wf_crowd_set_flow_target: agent " + std::to_string(agent_id) +
                                                  " stands where no goal of the field can be reached");
    return WF_OK;
  });
}

wf_status wf_crowd_update(wf_crowd* crowd, double dt) {
  // Crowd::update refuses a dt that is not finite and > 0 (std::invalid_argument).
  return crowd_call(crowd, true, "", [&] {
    crowd->crowd->update(dt);
    return WF_OK;
  });
}

wf_status wf_crowd_agent_count(const wf_crowd* crowd, size_t* count) {
  if (!is_live(crowd, OnWrongHandle::stay_silent) || count == nullptr) return WF_INVALID_ARGUMENT;
  *count = crowd->crowd->agent_count();
  return WF_OK;
}

wf_status wf_crowd_agent_path_requests(const wf_crowd* crowd, uint32_t agent_id, uint32_t* count) {
  if (!is_live(crowd, OnWrongHandle::stay_silent) || count == nullptr) return WF_INVALID_ARGUMENT;
  const CrowdAgent* agent = crowd->crowd->agent(agent_id);
  if (agent == nullptr) return WF_INVALID_ARGUMENT;
  *count = agent->path_requests;
  return WF_OK;
}

wf_status wf_crowd_read_agents(wf_crowd* crowd, uint32_t* ids, double* positions_xyz, double* velocities_xz,
                               wf_crowd_agent_state* states, size_t capacity, size_t* count) {
  if (!is_live(crowd)) return WF_INVALID_ARGUMENT;
  return guarded(crowd->header.error, [&] {
    const std::span<const CrowdAgent> agents = crowd->crowd->agents();
    // The size-query convention over several arrays: "the buffer" is present if any array is.
    void* any_array = ids != nullptr             ? static_cast<void*>(ids)
                      : positions_xyz != nullptr ? static_cast<void*>(positions_xyz)
                      : velocities_xz != nullptr ? static_cast<void*>(velocities_xz)
                                                 : static_cast<void*>(states);
    return copy_out(crowd->header.error, "wf_crowd_read_agents", any_array, capacity, count, agents.size(), [&] {
      for (std::size_t i = 0; i < agents.size(); ++i) {
        const CrowdAgent& agent = agents[i];
        if (ids != nullptr) ids[i] = agent.id;
        if (positions_xyz != nullptr) {
          positions_xyz[3 * i] = agent.position.x;
          positions_xyz[3 * i + 1] = agent.position.y;
          positions_xyz[3 * i + 2] = agent.position.z;
        }
        if (velocities_xz != nullptr) {
          velocities_xz[2 * i] = agent.velocity.x;
          velocities_xz[2 * i + 1] = agent.velocity.z;
        }
        if (states != nullptr) states[i] = static_cast<wf_crowd_agent_state>(agent.status);
      }
    });
  });
}

wf_status wf_crowd_agent_link(wf_crowd* crowd, uint32_t agent_id, int32_t* on_link, wf_crowd_link_crossing* crossing,
                              wf_crowd_link_event* event) {
  if (!is_live(crowd)) return WF_INVALID_ARGUMENT;
  return guarded(crowd->header.error, [&] {
    const CrowdAgent* agent = crowd->crowd->agent(agent_id);
    if (agent == nullptr) return fail(crowd->header.error, WF_INVALID_ARGUMENT, no_agent("wf_crowd_agent_link", agent_id));
    if (on_link != nullptr) *on_link = agent->link ? 1 : 0;
    if (event != nullptr) *event = static_cast<wf_crowd_link_event>(agent->link_event);
    if (crossing != nullptr && agent->link) {
      const CrowdLinkTraversal& link = *agent->link;
      const Point* ends[2] = {&link.start, &link.end};
      double* out[2] = {crossing->start, crossing->end};
      for (int k = 0; k < 2; ++k) {
        out[k][0] = ends[k]->x;
        out[k][1] = ends[k]->y;
        out[k][2] = ends[k]->z;
      }
      crossing->duration = link.duration;
      crossing->elapsed = link.elapsed;
      crossing->progress = link.progress();
      crossing->link = link.link;
      crossing->reverse = link.reverse ? 1 : 0;
    }
    return WF_OK;
  });
}

}  // extern "C"
