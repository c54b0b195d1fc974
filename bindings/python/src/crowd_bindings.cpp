// Crowds (crowd/crowd.hpp): agents walking their paths on a navigation mesh or a grid together,
// avoiding each other and the walls; on grids, flow fields shared by many agents as their target. The per-agent reads (ids, positions, velocities, states) come as
// numpy arrays when numpy is loaded and as lists otherwise, as every other table of the module.

#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"

namespace wayfinder::python {

namespace {

py::tuple planar_tuple(PlanarVector v) { return py::make_tuple(v.x, v.z); }

// A one-column table: a 1-D numpy array of `T` when numpy is loaded, else a list.
template <class T, class Fill>
py::object make_column(std::size_t rows, Fill&& fill) {
  if (!numpy_loaded()) {
    py::list column;
    for (std::size_t r = 0; r < rows; ++r) column.append(py::cast(fill(r)));
    return column;
  }
  py::array_t<T> array(static_cast<py::ssize_t>(rows));
  auto view = array.template mutable_unchecked<1>();
  for (std::size_t r = 0; r < rows; ++r) view(static_cast<py::ssize_t>(r)) = fill(r);
  return array;
}

// Calls about one agent name it by id: an id no agent has is a KeyError, not a quiet False.
void require_agent(const Crowd& crowd, CrowdAgentId id) {
  if (crowd.agent(id) == nullptr) throw py::key_error("no agent has id " + std::to_string(id));
}

void require_finite(const PointTuple& point, const char* what) {
  for (const double coordinate : point)
    if (!std::isfinite(coordinate)) throw py::value_error(std::string(what) + " must be finite");
}

template <class Settings>
Settings checked(Settings settings) {
  if (const std::optional<std::string> problem = settings.problem()) throw py::value_error(*problem);
  return settings;
}

void bind_crowd_settings(py::module_& module) {
  py::class_<CrowdSettings>(module, "CrowdSettings",
                            "A crowd's settings (C++ CrowdSettings, docs/crowds.md); lengths in world units, times in "
                            "seconds. The constructor and Crowd raise ValueError naming a bad field.")
      .def(py::init([](std::size_t threads, double time_horizon, double wall_time_horizon, double neighbour_distance,
                       std::size_t max_neighbours, std::size_t collision_iterations, double stuck_time,
                       double stuck_progress, double settle_speed_fraction, std::size_t max_move_polygons,
                       double wall_clearance, double target_snap_distance, std::size_t path_max_active,
                       std::uint64_t path_slice_expansions, std::size_t min_agents_per_thread) {
             CrowdSettings settings;
             settings.threads = threads;
             settings.time_horizon = time_horizon;
             settings.wall_time_horizon = wall_time_horizon;
             settings.neighbour_distance = neighbour_distance;
             settings.max_neighbours = max_neighbours;
             settings.collision_iterations = collision_iterations;
             settings.stuck_time = stuck_time;
             settings.stuck_progress = stuck_progress;
             settings.settle_speed_fraction = settle_speed_fraction;
             settings.max_move_polygons = max_move_polygons;
             settings.wall_clearance = wall_clearance;
             settings.target_snap_distance = target_snap_distance;
             settings.path_queue.max_active = path_max_active;
             settings.path_queue.slice_expansions = path_slice_expansions;
             settings.min_agents_per_thread = min_agents_per_thread;
             return checked(settings);
           }),
           py::kw_only(), py::arg("threads") = CrowdSettings{}.threads,
           py::arg("time_horizon") = CrowdSettings{}.time_horizon,
           py::arg("wall_time_horizon") = CrowdSettings{}.wall_time_horizon,
           py::arg("neighbour_distance") = CrowdSettings{}.neighbour_distance,
           py::arg("max_neighbours") = CrowdSettings{}.max_neighbours,
           py::arg("collision_iterations") = CrowdSettings{}.collision_iterations,
           py::arg("stuck_time") = CrowdSettings{}.stuck_time, py::arg("stuck_progress") = CrowdSettings{}.stuck_progress,
           py::arg("settle_speed_fraction") = CrowdSettings{}.settle_speed_fraction,
           py::arg("max_move_polygons") = CrowdSettings{}.max_move_polygons,
           py::arg("wall_clearance") = CrowdSettings{}.wall_clearance,
           py::arg("target_snap_distance") = CrowdSettings{}.target_snap_distance,
           py::arg("path_max_active") = PathRequestQueueSettings{}.max_active,
           py::arg("path_slice_expansions") = PathRequestQueueSettings{}.slice_expansions,
           py::arg("min_agents_per_thread") = CrowdSettings{}.min_agents_per_thread)
      .def_readwrite("threads", &CrowdSettings::threads, "threads an update splits the agents over; same result for any")
      .def_readwrite("min_agents_per_thread", &CrowdSettings::min_agents_per_thread,
                     "with fewer agents than threads x this, an update runs on the calling thread alone (same result)")
      .def_readwrite("time_horizon", &CrowdSettings::time_horizon)
      .def_readwrite("wall_time_horizon", &CrowdSettings::wall_time_horizon)
      .def_readwrite("neighbour_distance", &CrowdSettings::neighbour_distance)
      .def_readwrite("max_neighbours", &CrowdSettings::max_neighbours)
      .def_readwrite("collision_iterations", &CrowdSettings::collision_iterations)
      .def_readwrite("stuck_time", &CrowdSettings::stuck_time)
      .def_readwrite("stuck_progress", &CrowdSettings::stuck_progress)
      .def_readwrite("settle_speed_fraction", &CrowdSettings::settle_speed_fraction)
      .def_readwrite("max_move_polygons", &CrowdSettings::max_move_polygons)
      .def_readwrite("wall_clearance", &CrowdSettings::wall_clearance)
      .def_readwrite("target_snap_distance", &CrowdSettings::target_snap_distance)
      .def_property("path_max_active", [](const CrowdSettings& s) { return s.path_queue.max_active; },
                    [](CrowdSettings& s, std::size_t value) { s.path_queue.max_active = value; },
                    "path searches advanced at once")
      .def_property("path_slice_expansions", [](const CrowdSettings& s) { return s.path_queue.slice_expansions; },
                    [](CrowdSettings& s, std::uint64_t value) { s.path_queue.slice_expansions = value; },
                    "the most expansions one path search gets in one turn")
      .def("problem", &CrowdSettings::problem, "why the settings (as edited since) cannot be used, or None");

  py::class_<CrowdAgentSettings>(module, "CrowdAgentSettings",
                                 "One agent's body and manners (C++ CrowdAgentSettings). The constructor raises "
                                 "ValueError naming a bad field.")
      .def(py::init([](double radius, double height, double max_speed, double max_acceleration,
                       double avoidance_priority, double arrival_radius, std::optional<AreaFilter> filter,
                       std::uint64_t user_id) {
             CrowdAgentSettings settings;
             settings.radius = radius;
             settings.height = height;
             settings.max_speed = max_speed;
             settings.max_acceleration = max_acceleration;
             settings.avoidance_priority = avoidance_priority;
             settings.arrival_radius = arrival_radius;
             settings.filter = std::move(filter);
             settings.user_id = user_id;
             return checked(settings);
           }),
           py::kw_only(), py::arg("radius") = CrowdAgentSettings{}.radius,
           py::arg("height") = CrowdAgentSettings{}.height, py::arg("max_speed") = CrowdAgentSettings{}.max_speed,
           py::arg("max_acceleration") = CrowdAgentSettings{}.max_acceleration,
           py::arg("avoidance_priority") = CrowdAgentSettings{}.avoidance_priority,
           py::arg("arrival_radius") = CrowdAgentSettings{}.arrival_radius, py::arg("filter") = py::none(),
           py::arg("user_id") = 0)
      .def_readwrite("radius", &CrowdAgentSettings::radius)
      .def_readwrite("height", &CrowdAgentSettings::height)
      .def_readwrite("max_speed", &CrowdAgentSettings::max_speed, "units per second")
      .def_readwrite("max_acceleration", &CrowdAgentSettings::max_acceleration, "units per second squared")
      .def_readwrite("avoidance_priority", &CrowdAgentSettings::avoidance_priority)
      .def_readwrite("arrival_radius", &CrowdAgentSettings::arrival_radius)
      .def_readwrite("filter", &CrowdAgentSettings::filter)
      .def_readwrite("user_id", &CrowdAgentSettings::user_id)
      .def("problem", &CrowdAgentSettings::problem, "why the settings cannot be used, or None");
}

void bind_crowd_agent(py::module_& module) {
  py::enum_<CrowdAgentStatus>(module, "CrowdAgentStatus", py::arithmetic(),
                              "What an agent is doing; Crowd.states() gives these values as integers.")
      .value("idle", CrowdAgentStatus::idle)
      .value("waiting_for_path", CrowdAgentStatus::waiting_for_path)
      .value("moving", CrowdAgentStatus::moving)
      .value("arrived", CrowdAgentStatus::arrived)
      .value("unreachable", CrowdAgentStatus::unreachable)
      .value("on_link", CrowdAgentStatus::on_link);
  py::enum_<CrowdLinkEvent>(module, "CrowdLinkEvent", "what happened to an agent's link crossing in the last update")
      .value("none", CrowdLinkEvent::none)
      .value("started", CrowdLinkEvent::started)
      .value("finished", CrowdLinkEvent::finished);
  py::class_<CrowdLinkTraversal>(module, "CrowdLinkTraversal",
                                 "An agent's crossing of an off-mesh link (C++ CrowdLinkTraversal): a straight line "
                                 "from start to end at its max speed, for the game to animate.")
      .def_readonly("link", &CrowdLinkTraversal::link, "the link's id")
      .def_readonly("reverse", &CrowdLinkTraversal::reverse, "a two-way link taken from its end to its start")
      .def_property_readonly("start", [](const CrowdLinkTraversal& t) { return to_tuple(t.start); })
      .def_property_readonly("end", [](const CrowdLinkTraversal& t) { return to_tuple(t.end); }, "where it lands")
      .def_readonly("end_polygon", &CrowdLinkTraversal::end_polygon)
      .def_readonly("duration", &CrowdLinkTraversal::duration, "seconds")
      .def_readonly("elapsed", &CrowdLinkTraversal::elapsed, "seconds")
      .def_property_readonly("progress", &CrowdLinkTraversal::progress, "0 (taken) to 1 (landed)");
  py::enum_<CrowdTargetKind>(module, "CrowdTargetKind")
      .value("none", CrowdTargetKind::none)
      .value("point", CrowdTargetKind::point)
      .value("velocity", CrowdTargetKind::velocity)
      .value("flow", CrowdTargetKind::flow);

  py::class_<CrowdAgent>(module, "CrowdAgent", "A copy of one agent's state after the last update (Crowd.agent).")
      .def_readonly("id", &CrowdAgent::id)
      .def_readonly("settings", &CrowdAgent::settings)
      .def_property_readonly("position", [](const CrowdAgent& a) { return to_tuple(a.position); })
      .def_readonly("polygon", &CrowdAgent::polygon)
      .def_property_readonly("velocity", [](const CrowdAgent& a) { return planar_tuple(a.velocity); }, "(x, z)")
      .def_property_readonly("desired_velocity", [](const CrowdAgent& a) { return planar_tuple(a.desired_velocity); })
      .def_readonly("target_kind", &CrowdAgent::target_kind)
      .def_property_readonly("target", [](const CrowdAgent& a) { return to_tuple(a.target); })
      .def_property_readonly("target_velocity", [](const CrowdAgent& a) { return planar_tuple(a.target_velocity); })
      .def_readonly("status", &CrowdAgent::status)
      .def_readonly("stuck", &CrowdAgent::stuck)
      .def_readonly("corridor", &CrowdAgent::corridor)
      .def_property_readonly("next_corner", [](const CrowdAgent& a) { return to_tuple(a.next_corner); })
      .def_readonly("path_requests", &CrowdAgent::path_requests)
      .def_readonly("link", &CrowdAgent::link, "the off-mesh link crossing (status on_link), or None")
      .def_readonly("link_event", &CrowdAgent::link_event);

  py::class_<CrowdUpdateReport>(module, "CrowdUpdateReport", "what one update did")
      .def_readonly("paths_started", &CrowdUpdateReport::paths_started)
      .def_readonly("paths_received", &CrowdUpdateReport::paths_received)
      .def_readonly("expansions", &CrowdUpdateReport::expansions)
      .def_readonly("microseconds", &CrowdUpdateReport::microseconds);
}

/// A flow field shared by the agents sent along it; Python holds the same pointer as they do.
struct CrowdFlowField {
  std::shared_ptr<const GridFlowField> field;
};

using AgentIds = std::variant<CrowdAgentId, std::vector<CrowdAgentId>>;

std::vector<CrowdAgentId> id_list(const AgentIds& ids) {
  if (const auto* one = std::get_if<CrowdAgentId>(&ids)) return {*one};
  return std::get<std::vector<CrowdAgentId>>(ids);
}

const GridMap& grid_of(const Crowd& crowd) {
  if (crowd.grid() == nullptr)
    throw py::value_error("flow targets need a crowd on a grid; this crowd walks a navigation mesh");
  return *crowd.grid();
}

CrowdFlowField build_flow_field(const Crowd& crowd, const std::vector<std::array<int, 2>>& cells) {
  const GridMap& grid = grid_of(crowd);
  std::vector<Cell> goals;
  goals.reserve(cells.size());
  for (const auto& cell : cells) goals.push_back(Cell{cell[0], cell[1]});
  auto field = std::make_shared<GridFlowField>(grid, goals);
  if (!field->built()) throw py::value_error("flow field: " + field->message());
  return CrowdFlowField{std::move(field)};
}

// Every agent is checked before any is sent, so that a refusal changes nothing.
void send_along(Crowd& crowd, const AgentIds& ids, const CrowdFlowField& flow) {
  const GridMap& grid = grid_of(crowd);
  if (flow.field->width() != grid.width() || flow.field->height() != grid.height())
    throw py::value_error("the flow field was built on a grid of another size");
  const std::vector<CrowdAgentId> agents = id_list(ids);
  for (const CrowdAgentId id : agents) {
    require_agent(crowd, id);
    const Point& at = crowd.agent(id)->position;
    if (!flow.field->reachable(Cell{static_cast<int>(std::floor(at.x)), static_cast<int>(std::floor(at.z))}))
      throw py::value_error("agent " + std::to_string(id) + " stands where no goal of the flow field can be reached");
  }
  for (const CrowdAgentId id : agents) crowd.set_target_flow(id, flow.field);
}

void bind_crowd_flow_field(py::module_& module) {
  py::class_<CrowdFlowField>(module, "CrowdFlowField",
                             "A flow field towards goal cells on a crowd's grid (C++ GridFlowField, "
                             "docs/flow-fields.md), made by Crowd.set_flow_target and shared by every agent sent "
                             "along it; give it to set_flow_target again to send more agents without building "
                             "another. It describes the grid as it was when built.")
      .def_property_readonly("goals", [](const CrowdFlowField& flow) {
        py::list goals;
        for (const Cell& goal : flow.field->goals()) goals.append(py::make_tuple(goal.x, goal.y));
        return goals;
      }, "the goal cells (x, y), in the order given")
      .def_property_readonly("width", [](const CrowdFlowField& flow) { return flow.field->width(); })
      .def_property_readonly("height", [](const CrowdFlowField& flow) { return flow.field->height(); })
      .def_property_readonly("reachable_count", [](const CrowdFlowField& flow) { return flow.field->reachable_count(); },
                             "cells from which a goal can be reached (the goals included)")
      .def("cost_to_goal", [](const CrowdFlowField& flow, int x, int y) { return flow.field->cost_to_goal(Cell{x, y}); },
           py::arg("x"), py::arg("y"), "the cost from cell (x, y) to its nearest goal; inf when none can be reached");
}

}  // namespace

void bind_crowd(py::module_& module) {
  bind_crowd_settings(module);
  bind_crowd_agent(module);
  bind_crowd_flow_field(module);

  py::class_<Crowd>(module, "Crowd",
                    "Agents walking their paths on a NavMesh together, avoiding each other and the walls (C++ "
                    "wayfinder::Crowd, docs/crowds.md). Keeps its mesh alive. One thread at a time drives a crowd "
                    "(the GIL is held during update; settings.threads splits the work, with the same result for "
                    "every count). Areas and flags of the mesh may be edited between updates.")
      .def(py::init([](const NavMesh& mesh, const std::optional<CrowdSettings>& settings) {
             return std::make_unique<Crowd>(mesh, checked(settings.value_or(CrowdSettings{})));
           }),
           py::arg("mesh"), py::arg("settings") = py::none(), py::keep_alive<1, 2>())
      .def(py::init([](const GridMap& grid, const std::optional<CrowdSettings>& settings, bool jump_point) {
             GridCrowdOptions options;
             if (jump_point) options.algorithm = GridAlgorithm::jump_point;
             return std::make_unique<Crowd>(grid, checked(settings.value_or(CrowdSettings{})), options);
           }),
           py::arg("grid"), py::arg("settings") = py::none(), py::arg("jump_point") = false, py::keep_alive<1, 2>(),
           "a crowd on a GridMap (docs/crowds.md, \"Crowds on grids\"): positions are (column, 0, row) in cell "
           "units; paths by A* (or jump point search) smoothed to any-angle waypoints; no centre ever enters a "
           "blocked cell. Keeps its grid alive; the grid may be edited between updates.")
      .def("add_agent",
           [](Crowd& crowd, const PointTuple& position, const std::optional<CrowdAgentSettings>& settings) {
             require_finite(position, "position");
             return crowd.add_agent(to_point(position), checked(settings.value_or(CrowdAgentSettings{})));
           },
           py::arg("position"), py::arg("settings") = py::none(),
           "adds an agent at the mesh point nearest to `position` (within settings.target_snap_distance), with no "
           "target; returns its id (ids grow, never reused). Raises ValueError for bad settings or no mesh near.")
      .def("remove_agent", [](Crowd& crowd, CrowdAgentId id) {
        require_agent(crowd, id);
        crowd.remove_agent(id);
      }, py::arg("id"), "raises KeyError for an id no agent has (as every call naming an agent)")
      .def("set_target", [](Crowd& crowd, CrowdAgentId id, const PointTuple& target) {
        require_agent(crowd, id);
        require_finite(target, "target");
        if (!crowd.set_target(id, to_point(target)))
          throw py::value_error("the target has no mesh within the crowd's target_snap_distance");
      }, py::arg("id"), py::arg("target"),
         "sends the agent to the mesh point nearest to `target`; its path is asked for in the next update")
      .def("set_target_velocity", [](Crowd& crowd, CrowdAgentId id, const std::array<double, 2>& velocity) {
        require_agent(crowd, id);
        if (!std::isfinite(velocity[0]) || !std::isfinite(velocity[1])) throw py::value_error("velocity must be finite");
        crowd.set_target_velocity(id, PlanarVector{velocity[0], velocity[1]});
      }, py::arg("id"), py::arg("velocity"), "walks at (x, z) units per second (clamped to its max speed), no path")
      .def("set_flow_target", [](Crowd& crowd, const AgentIds& ids, const std::vector<std::array<int, 2>>& goals) {
        CrowdFlowField flow = build_flow_field(crowd, goals);
        send_along(crowd, ids, flow);
        return flow;
      }, py::arg("ids"), py::arg("goals"),
         "sends one agent (an id) or many (a list of ids) along one flow field towards the nearest of `goals`, "
         "cells (x, y) of the crowd's grid, built once for all of them: no path is searched (docs/crowds.md, "
         "\"Flow targets\"); an agent has arrived while it stands in a goal cell. Returns the field "
         "(CrowdFlowField), which a later call may take in place of the goals. Raises ValueError for a crowd on a "
         "mesh, no goals, a goal outside the grid or on a blocked cell, and an agent whose cell reaches no goal; "
         "KeyError for an id no agent has. Nothing changes when it raises.")
      .def("set_flow_target", [](Crowd& crowd, const AgentIds& ids, const CrowdFlowField& field) {
        send_along(crowd, ids, field);
      }, py::arg("ids"), py::arg("field"), "the same along a field made before (on this grid as it was then)")
      .def("clear_target", [](Crowd& crowd, CrowdAgentId id) {
        require_agent(crowd, id);
        crowd.clear_target(id);
      }, py::arg("id"), "the agent comes to rest")
      .def("teleport", [](Crowd& crowd, CrowdAgentId id, const PointTuple& position) {
        require_agent(crowd, id);
        require_finite(position, "position");
        if (!crowd.teleport(id, to_point(position)))
          throw py::value_error("the position has no mesh within the crowd's target_snap_distance");
      }, py::arg("id"), py::arg("position"))
      .def("set_agent_settings", [](Crowd& crowd, CrowdAgentId id, const CrowdAgentSettings& settings) {
        require_agent(crowd, id);
        crowd.set_agent_settings(id, checked(settings));
      }, py::arg("id"), py::arg("settings"))
      .def("update", [](Crowd& crowd, double dt, std::optional<std::uint64_t> max_path_expansions) {
        if (!std::isfinite(dt) || dt <= 0) throw py::value_error("dt must be a finite number of seconds > 0");
        StepBudget budget;
        if (max_path_expansions) budget.max_expansions = *max_path_expansions;
        return crowd.update(dt, budget);
      }, py::arg("dt"), py::kw_only(), py::arg("max_path_expansions") = py::none(),
         "advances every agent by dt seconds; path searches first, within max_path_expansions (None: unlimited)")
      .def("agent", [](const Crowd& crowd, CrowdAgentId id) {
        require_agent(crowd, id);
        return *crowd.agent(id);
      }, py::arg("id"), "a copy of the agent's state")
      .def_property_readonly("agent_count", &Crowd::agent_count)
      .def("__len__", &Crowd::agent_count)
      .def_property_readonly("time", &Crowd::time, "the sum of every update's dt")
      .def_property_readonly("settings", [](const Crowd& crowd) { return CrowdSettings(crowd.settings()); },
                             "a copy of the crowd's settings (they are fixed when it is made)")
      .def("ids", [](const Crowd& crowd) {
        const auto agents = crowd.agents();
        return make_column<std::uint32_t>(agents.size(), [&](std::size_t r) { return agents[r].id; });
      }, "every agent's id, in increasing order (the row order of the other reads)")
      .def("positions", [](const Crowd& crowd) {
        const auto agents = crowd.agents();
        return make_table<double>(agents.size(), 3, [&](std::size_t r, std::size_t c) {
          const Point& p = agents[r].position;
          return c == 0 ? p.x : c == 1 ? p.y : p.z;
        });
      }, "(n, 3) float64: x, y, z of every agent, on the mesh (without numpy: a list of tuples)")
      .def("velocities", [](const Crowd& crowd) {
        const auto agents = crowd.agents();
        return make_table<double>(agents.size(), 2, [&](std::size_t r, std::size_t c) {
          return c == 0 ? agents[r].velocity.x : agents[r].velocity.z;
        });
      }, "(n, 2) float64: x, z velocity during the last update, units per second")
      .def("states", [](const Crowd& crowd) {
        const auto agents = crowd.agents();
        return make_column<std::uint8_t>(agents.size(), [&](std::size_t r) {
          return static_cast<std::uint8_t>(agents[r].status);
        });
      }, "(n,) uint8: each agent's CrowdAgentStatus value (without numpy: a list of ints)");
}

}  // namespace wayfinder::python
