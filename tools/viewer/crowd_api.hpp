#pragma once
// A crowd in the viewer: one per mesh or grid world, made, given agents and targets, and
// advanced by requests, so that the page can animate it. The requests and answers are documented
// in docs/viewer.md ("Crowds"). On a grid, points are in cell units: (column, 0, row), a cell's
// centre at (x + 0.5, 0, y + 0.5). A voxel world's crowd is refused.

#include "common/world_json.hpp"
#include "viewer/viewer_api.hpp"
#include "viewer/world_catalog.hpp"

namespace wayfinder::viewer {

/// Makes (or replaces) the world's crowd; `request` may give "time_horizon" and
/// "neighbour_distance". Answers crowd_state_json.
Json create_crowd(CatalogWorld& world, const Json& request);
/// Adds request["agents"]: [{"position": [x, y, z], "radius", "max_speed"}, ...] (each but the
/// position optional), at most limits.max_crowd_agents in the crowd. Answers the state, with
/// "added": the new ids in order.
Json add_crowd_agents(CatalogWorld& world, const Json& request, const ApiLimits& limits);
/// Sends request["agents"] (ids; every agent when missing) to request["target"] ([x, y, z]).
Json set_crowd_target(CatalogWorld& world, const Json& request);
/// Advances the crowd request["ticks"] ticks (1 .. limits.max_crowd_ticks) of request["dt"]
/// seconds (0 < dt <= 1, default 0.1). Answers the state after the last tick.
Json step_crowd(CatalogWorld& world, const Json& request, const ApiLimits& limits);
/// {"world", "time", "agents": [{"id", "position", "velocity" ([vx, vz]), "radius", "status",
/// "stuck", "target" (null without a target point)}, ...]}.
Json crowd_state(CatalogWorld& world);

}  // namespace wayfinder::viewer
