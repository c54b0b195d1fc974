#pragma once
// The JSON shapes of Wayfinder's values, written once for the command's --json output and the
// viewer's API: points, cells, search statistics, results, traces and world descriptions.
// The shapes are documented in docs/viewer.md (API) and docs/cli.md (--json).

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

using Json = nlohmann::ordered_json;

/// [x, y] or [x, y, z].
Json point_json(const Point& point, bool with_z);
Json points_json(const std::vector<Point>& points, bool with_z);
/// The cells of grid node ids, as [x, y] pairs.
Json cells_json(const GridMap& map, const std::vector<NodeId>& nodes);
/// The blocks of voxel node ids, as [x, y, z].
Json voxel_blocks_json(const VoxelWorld& world, const std::vector<NodeId>& nodes);
/// {"expanded", "generated", "peak_open", "microseconds"}.
Json stats_json(const SearchStats& stats);
/// A search trace as [[event, x, y(, z)], ...] in the order the search made them: event 0 is a
/// node opened, 1 reached again more cheaply, 2 closed (expanded). At most `max_events`
/// events are written; `position` gives each node's place (written as integers when
/// `whole_numbers`: grid cells and voxel blocks).
Json trace_json(const SearchTrace& trace, const std::function<Point(NodeId)>& position, bool with_z,
                bool whole_numbers, std::size_t max_events);

/// What a viewer needs to draw a world (see docs/viewer.md for the shapes).
Json grid_description_json(const GridMap& map);
Json mesh_description_json(const NavMesh& mesh);
Json voxel_description_json(const VoxelWorld& world);

}  // namespace wayfinder
