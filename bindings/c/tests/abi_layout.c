/*
 * Prints the size and field offsets of every struct wayfinder.h defines and the values of its
 * enumerations. check_header_abi.sh compiles this file once as C and once as C++ and compares
 * the two outputs: a program in either language sees one layout.
 */
#include <stddef.h>
#include <stdio.h>

#include "wayfinder.h"

#define SIZE(type) printf("sizeof %s %lu\n", #type, (unsigned long)sizeof(type))
#define FIELD(type, field) printf("offsetof %s.%s %lu\n", #type, #field, (unsigned long)offsetof(type, field))
#define VALUE(name) printf("%s %ld\n", #name, (long)(name))

int main(void) {
  SIZE(wf_status); SIZE(wf_search_status); SIZE(wf_stop_reason); SIZE(wf_grid_algorithm);
  SIZE(wf_diagonal_mode); SIZE(wf_heuristic); SIZE(wf_corridor_nodes); SIZE(wf_block_kind); SIZE(wf_voxel_algorithm);
  SIZE(wf_search_stats); FIELD(wf_search_stats, generated); FIELD(wf_search_stats, peak_open);
  FIELD(wf_search_stats, microseconds);
  SIZE(wf_path_result); FIELD(wf_path_result, reason); FIELD(wf_path_result, cost); FIELD(wf_path_result, node_count);
  FIELD(wf_path_result, point_count); FIELD(wf_path_result, stats);
  SIZE(wf_query_limits); FIELD(wf_query_limits, max_cost); FIELD(wf_query_limits, max_milliseconds);
  FIELD(wf_query_limits, return_partial); FIELD(wf_query_limits, partial_when_unreachable);
  SIZE(wf_area_filter); FIELD(wf_area_filter, include_flags); FIELD(wf_area_filter, exclude_flags);
  SIZE(wf_grid_options); FIELD(wf_grid_options, algorithm); FIELD(wf_grid_options, diagonal);
  FIELD(wf_grid_options, heuristic); FIELD(wf_grid_options, weight); FIELD(wf_grid_options, walker_step_limit);
  FIELD(wf_grid_options, filter);
  SIZE(wf_agent_settings); FIELD(wf_agent_settings, max_slope_degrees); FIELD(wf_agent_settings, region_min_size);
  FIELD(wf_agent_settings, edge_max_length); FIELD(wf_agent_settings, vertices_per_polygon);
  FIELD(wf_agent_settings, detail_sample_distance); FIELD(wf_agent_settings, tile_size);
  SIZE(wf_navmesh_build_report); FIELD(wf_navmesh_build_report, walkable_triangles);
  FIELD(wf_navmesh_build_report, grid_width); FIELD(wf_navmesh_build_report, grid_depth);
  FIELD(wf_navmesh_build_report, tiles); FIELD(wf_navmesh_build_report, polygons);
  FIELD(wf_navmesh_build_report, vertices); FIELD(wf_navmesh_build_report, detail_triangles);
  FIELD(wf_navmesh_build_report, border_vertices_added); FIELD(wf_navmesh_build_report, milliseconds);
  SIZE(wf_navmesh_options); FIELD(wf_navmesh_options, nodes); FIELD(wf_navmesh_options, weight);
  FIELD(wf_navmesh_options, height_tolerance); FIELD(wf_navmesh_options, snap_distance);
  FIELD(wf_navmesh_options, filter);
  SIZE(wf_movement_profile); FIELD(wf_movement_profile, fly); FIELD(wf_movement_profile, agent_width);
  FIELD(wf_movement_profile, walk_cost);
  FIELD(wf_movement_profile, fly_cost);
  SIZE(wf_voxel_options); FIELD(wf_voxel_options, algorithm); FIELD(wf_voxel_options, weight);
  FIELD(wf_voxel_options, profile);
  SIZE(wf_grid_request); FIELD(wf_grid_request, goal_y); FIELD(wf_grid_request, options);
  SIZE(wf_navmesh_request); FIELD(wf_navmesh_request, goal); FIELD(wf_navmesh_request, options);
  SIZE(wf_voxel_request); FIELD(wf_voxel_request, goal); FIELD(wf_voxel_request, options);
  VALUE(WF_INTERNAL_ERROR); VALUE(WF_SEARCH_WORLD_CHANGED); VALUE(WF_STOP_WORLD_CHANGED); VALUE(WF_STOP_GAVE_UP); VALUE(WF_GRID_DIVIDE);
  VALUE(WF_DIAGONAL_ALWAYS); VALUE(WF_HEURISTIC_CHEBYSHEV); VALUE(WF_CORRIDOR_EDGE_POINTS); VALUE(WF_BLOCK_LADDER);
  VALUE(WF_VOXEL_GREEDY_BEST_FIRST); VALUE(WF_MAX_AREAS); VALUE(WF_VOXEL_HIERARCHICAL); VALUE(WF_STOP_MEMORY_LIMIT);
  SIZE(wf_voxel_hierarchy_options); FIELD(wf_voxel_hierarchy_options, build_threads);
  FIELD(wf_voxel_hierarchy_options, max_places);
  SIZE(wf_crowd_agent_state); VALUE(WF_CROWD_UNREACHABLE);
  SIZE(wf_crowd_settings); FIELD(wf_crowd_settings, time_horizon); FIELD(wf_crowd_settings, max_neighbours);
  FIELD(wf_crowd_settings, collision_iterations); FIELD(wf_crowd_settings, stuck_time);
  FIELD(wf_crowd_settings, max_move_polygons); FIELD(wf_crowd_settings, target_snap_distance);
  FIELD(wf_crowd_settings, min_agents_per_thread); VALUE(WF_CROWD_ON_LINK); VALUE(WF_CROWD_LINK_FINISHED);
  SIZE(wf_crowd_link_crossing); FIELD(wf_crowd_link_crossing, duration); FIELD(wf_crowd_link_crossing, link);
  FIELD(wf_crowd_link_crossing, reverse);
  SIZE(wf_crowd_agent_settings); FIELD(wf_crowd_agent_settings, height); FIELD(wf_crowd_agent_settings, arrival_radius);
  FIELD(wf_crowd_agent_settings, user_id);
  return 0;
}
