// The sizes and field offsets of the C API's structures as this compiler lays them out, which
// the JavaScript side (src/struct_layout.js, the same order) reads once when the module loads,
// so that it never hard-codes a number that could disagree with wayfinder.h.
#include <cstddef>
#include <cstdint>

#include "wayfinder.h"

namespace {
constexpr std::uint32_t layout[] = {
    // wf_path_result
    sizeof(wf_path_result), offsetof(wf_path_result, status), offsetof(wf_path_result, reason),
    offsetof(wf_path_result, cost), offsetof(wf_path_result, node_count), offsetof(wf_path_result, point_count),
    offsetof(wf_path_result, stats) + offsetof(wf_search_stats, expanded),
    offsetof(wf_path_result, stats) + offsetof(wf_search_stats, generated),
    offsetof(wf_path_result, stats) + offsetof(wf_search_stats, peak_open),
    offsetof(wf_path_result, stats) + offsetof(wf_search_stats, microseconds),
    // wf_query_limits
    sizeof(wf_query_limits), offsetof(wf_query_limits, max_expansions), offsetof(wf_query_limits, max_cost),
    offsetof(wf_query_limits, max_milliseconds), offsetof(wf_query_limits, return_partial),
    offsetof(wf_query_limits, partial_when_unreachable),
    // wf_grid_options
    sizeof(wf_grid_options), offsetof(wf_grid_options, limits), offsetof(wf_grid_options, algorithm),
    offsetof(wf_grid_options, diagonal), offsetof(wf_grid_options, heuristic), offsetof(wf_grid_options, weight),
    offsetof(wf_grid_options, walker_step_limit),
    // wf_navmesh_options
    sizeof(wf_navmesh_options), offsetof(wf_navmesh_options, limits), offsetof(wf_navmesh_options, nodes),
    offsetof(wf_navmesh_options, weight), offsetof(wf_navmesh_options, height_tolerance),
    offsetof(wf_navmesh_options, snap_distance), offsetof(wf_navmesh_options, filter),
    // wf_voxel_options
    sizeof(wf_voxel_options), offsetof(wf_voxel_options, limits), offsetof(wf_voxel_options, algorithm),
    offsetof(wf_voxel_options, weight), offsetof(wf_voxel_options, profile),
    // wf_movement_profile: the ten ints, then the eight doubles
    sizeof(wf_movement_profile), offsetof(wf_movement_profile, agent_height), offsetof(wf_movement_profile, walk_cost),
    // wf_grid_request, wf_navmesh_request, wf_voxel_request
    sizeof(wf_grid_request), offsetof(wf_grid_request, start_x), offsetof(wf_grid_request, options),
    sizeof(wf_navmesh_request), offsetof(wf_navmesh_request, start), offsetof(wf_navmesh_request, goal),
    offsetof(wf_navmesh_request, options),
    sizeof(wf_voxel_request), offsetof(wf_voxel_request, start), offsetof(wf_voxel_request, goal),
    offsetof(wf_voxel_request, options),
    // wf_crowd_settings
    sizeof(wf_crowd_settings), offsetof(wf_crowd_settings, threads), offsetof(wf_crowd_settings, time_horizon),
    offsetof(wf_crowd_settings, wall_time_horizon), offsetof(wf_crowd_settings, neighbour_distance),
    offsetof(wf_crowd_settings, max_neighbours), offsetof(wf_crowd_settings, collision_iterations),
    offsetof(wf_crowd_settings, stuck_time), offsetof(wf_crowd_settings, stuck_progress),
    offsetof(wf_crowd_settings, settle_speed_fraction), offsetof(wf_crowd_settings, max_move_polygons),
    offsetof(wf_crowd_settings, wall_clearance), offsetof(wf_crowd_settings, target_snap_distance),
    // wf_crowd_agent_settings
    sizeof(wf_crowd_agent_settings), offsetof(wf_crowd_agent_settings, radius),
    offsetof(wf_crowd_agent_settings, height), offsetof(wf_crowd_agent_settings, max_speed),
    offsetof(wf_crowd_agent_settings, max_acceleration), offsetof(wf_crowd_agent_settings, avoidance_priority),
    offsetof(wf_crowd_agent_settings, arrival_radius), offsetof(wf_crowd_agent_settings, user_id),
    // wf_area_filter
    sizeof(wf_area_filter), offsetof(wf_area_filter, area_costs), offsetof(wf_area_filter, include_flags),
    offsetof(wf_area_filter, exclude_flags)};
// size_t is 32 bits in this module: the JavaScript side writes the crowd's counts as such.
static_assert(sizeof(std::size_t) == 4);
}  // namespace

extern "C" {
/// The table above and, through `count`, its length.
__attribute__((used, visibility("default"))) const std::uint32_t* wf_js_struct_layout(std::uint32_t* count) {
  *count = sizeof layout / sizeof layout[0];
  return layout;
}
}
