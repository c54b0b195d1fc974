#pragma once
// Everything a program needs to load worlds and find paths on them: the core library
// (wayfinder::wayfinder). SVG drawing is in <wayfinder/debug/*.hpp> (target wayfinder::debug).

// core
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/bidirectional_search.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/change_log.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/ida_star.hpp"
#include "wayfinder/core/indexed_heap.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/core/path_batch.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/core/zeroed_array.hpp"

// grid
#include "wayfinder/grid/breadth_first_wave.hpp"
#include "wayfinder/grid/compact_grid_path.hpp"
#include "wayfinder/grid/crash_walker.hpp"
#include "wayfinder/grid/grid_agent.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/grid_domain.hpp"
#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_pathfinder.hpp"
#include "wayfinder/grid/grid_replanner.hpp"
#include "wayfinder/grid/grid_rules.hpp"
#include "wayfinder/grid/jump_point_search.hpp"
#include "wayfinder/grid/midpoint_walker.hpp"
#include "wayfinder/grid/movingai_io.hpp"
#include "wayfinder/grid/path_breaks.hpp"
#include "wayfinder/grid/path_smoothing.hpp"
#include "wayfinder/grid/path_validation.hpp"
#include "wayfinder/grid/terrain_table.hpp"

// navmesh
#include "wayfinder/navmesh/corridor_breaks.hpp"
#include "wayfinder/navmesh/edge_point_graph.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

// voxel
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_pathfinder.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

