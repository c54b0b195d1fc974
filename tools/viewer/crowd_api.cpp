#include "viewer/crowd_api.hpp"

#include <cstdint>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "viewer/request_fields.hpp"

namespace wayfinder::viewer {

namespace {

std::string_view to_string(CrowdAgentStatus status) {
  switch (status) {
    case CrowdAgentStatus::idle: return "idle";
    case CrowdAgentStatus::waiting_for_path: return "waiting_for_path";
    case CrowdAgentStatus::moving: return "moving";
    case CrowdAgentStatus::arrived: return "arrived";
    case CrowdAgentStatus::unreachable: return "unreachable";
    case CrowdAgentStatus::on_link: return "on_link";
  }
  return "unknown";
}

// Crowds walk navigation meshes and grids (on a grid in cell units: (column, 0, row)).
void require_walkable(const CatalogWorld& world) {
  if (world.kind != WorldKind::navmesh && world.kind != WorldKind::grid)
    refuse("crowds run on navigation meshes and grids; world " + std::to_string(world.id) + " is a " +
           std::string(to_string(world.kind)));
}

Crowd& crowd_of(CatalogWorld& world) {
  require_walkable(world);
  if (!world.crowd)
    refuse("world " + std::to_string(world.id) + " has no crowd yet: make one with POST /api/worlds/" +
           std::to_string(world.id) + "/crowd", 409);
  return *world.crowd;
}

Point point_of(const std::vector<double>& xyz) { return Point{xyz[0], xyz[1], xyz[2]}; }

/// The state; the caller holds the crowd's mutex and the world's shared lock.
Json state_json(const CatalogWorld& world, const Crowd& crowd) {
  Json agents = Json::array();
  for (const CrowdAgent& agent : crowd.agents()) {
    agents.push_back({{"id", agent.id},
                      {"position", point_json(agent.position, true)},
                      {"velocity", {agent.velocity.x, agent.velocity.z}},
                      {"radius", agent.settings.radius},
                      {"status", to_string(agent.status)},
                      {"stuck", agent.stuck},
                      {"target", agent.target_kind == CrowdTargetKind::point ? point_json(agent.target, true)
                                                                              : Json(nullptr)}});
  }
  return {{"world", world.id}, {"time", crowd.time()}, {"agents", std::move(agents)}};
}

}  // namespace

Json create_crowd(CatalogWorld& world, const Json& request) {
  require_walkable(world);
  CrowdSettings settings;
  settings.time_horizon = number_in_range(request, "time_horizon", 0.01, 60.0, settings.time_horizon);
  settings.neighbour_distance = number_in_range(request, "neighbour_distance", 0.01, 1000.0, settings.neighbour_distance);
  const std::lock_guard crowd_lock(world.crowd_mutex);
  const std::shared_lock lock(world.access);
  world.crowd.reset();
  world.crowd = world.kind == WorldKind::grid ? std::make_unique<Crowd>(*world.grid, settings)
                                              : std::make_unique<Crowd>(*world.mesh, settings);
  return state_json(world, *world.crowd);
}

Json add_crowd_agents(CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  const Json* list = member(request, "agents");
  if (list == nullptr || !list->is_array() || list->empty())
    refuse("\"agents\" must be a non-empty array of {\"position\": [x, y, z], \"radius\", \"max_speed\"}");
  if (list->size() > limits.max_crowd_agents)
    refuse("\"agents\" lists " + std::to_string(list->size()) + " agents; a crowd may have at most " +
           std::to_string(limits.max_crowd_agents));
  std::vector<std::pair<Point, CrowdAgentSettings>> wanted;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    const std::string what = "\"agents\"[" + std::to_string(i) + "]";
    if (!entry.is_object()) refuse(what + " must be an object");
    CrowdAgentSettings settings;
    try {
      settings.radius = number_in_range(entry, "radius", 0.01, 100.0, settings.radius);
      settings.max_speed = number_in_range(entry, "max_speed", 0.0, 1000.0, settings.max_speed);
      wanted.emplace_back(point_of(coordinates(entry, "position", 3, false)), settings);
    } catch (const Refusal& refusal) {
      refuse(what + "." + refusal.what(), refusal.status);
    }
  }
  const std::lock_guard crowd_lock(world.crowd_mutex);
  Crowd& crowd = crowd_of(world);
  const std::shared_lock lock(world.access);
  if (crowd.agent_count() + wanted.size() > limits.max_crowd_agents)
    refuse("the crowd has " + std::to_string(crowd.agent_count()) + " agents; adding " + std::to_string(wanted.size()) +
           " would take it over its limit of " + std::to_string(limits.max_crowd_agents) + " (\"agents\")");
  Json added = Json::array();
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    try {
      added.push_back(crowd.add_agent(wanted[i].first, wanted[i].second));
    } catch (const std::invalid_argument& bad) {
      // The agents before this one stay: each add is whole, and the answer lists them.
      refuse("\"agents\"[" + std::to_string(i) + "].position: " + bad.what() +
             (added.empty() ? std::string() : " (the " + std::to_string(added.size()) + " agents before it were added)"));
    }
  }
  Json json = state_json(world, crowd);
  json["added"] = std::move(added);
  return json;
}

Json set_crowd_target(CatalogWorld& world, const Json& request) {
  const Point target = point_of(coordinates(request, "target", 3, false));
  std::vector<CrowdAgentId> ids;
  const Json* list = member(request, "agents");
  if (list != nullptr) {
    if (!list->is_array()) refuse("\"agents\" must be an array of agent ids");
    for (std::size_t i = 0; i < list->size(); ++i)
      ids.push_back(static_cast<CrowdAgentId>(whole_number((*list)[i], "\"agents\"[" + std::to_string(i) + "]", 0,
                                                           std::numeric_limits<CrowdAgentId>::max())));
  }
  const std::lock_guard crowd_lock(world.crowd_mutex);
  Crowd& crowd = crowd_of(world);
  const std::shared_lock lock(world.access);
  if (list == nullptr)
    for (const CrowdAgent& agent : crowd.agents()) ids.push_back(agent.id);
  for (const CrowdAgentId id : ids)
    if (crowd.agent(id) == nullptr) refuse("the crowd has no agent with id " + std::to_string(id) + " (\"agents\")", 404);
  for (const CrowdAgentId id : ids)
    if (!crowd.set_target(id, target))
      refuse("\"target\" " + point_json(target, true).dump() + " has no " +
             (world.kind == WorldKind::grid ? "free cell" : "mesh") + " within the crowd's snap distance (" +
             Json(crowd.settings().target_snap_distance).dump() + ")");
  return state_json(world, crowd);
}

Json step_crowd(CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  const Json* ticks_given = member(request, "ticks");
  const long long ticks = ticks_given == nullptr
                              ? 1
                              : whole_number(*ticks_given, "\"ticks\"", 1, static_cast<long long>(limits.max_crowd_ticks));
  const double dt = number_in_range(request, "dt", 1e-4, 1.0, 0.1);
  const std::lock_guard crowd_lock(world.crowd_mutex);
  Crowd& crowd = crowd_of(world);
  const std::shared_lock lock(world.access);
  for (long long tick = 0; tick < ticks; ++tick) crowd.update(dt);
  return state_json(world, crowd);
}

Json crowd_state(CatalogWorld& world) {
  const std::lock_guard crowd_lock(world.crowd_mutex);
  Crowd& crowd = crowd_of(world);
  const std::shared_lock lock(world.access);
  return state_json(world, crowd);
}

}  // namespace wayfinder::viewer
