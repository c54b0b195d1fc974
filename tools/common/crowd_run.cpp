#include "common/crowd_run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "crowd/neighbour_grid.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_smoothing.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::tools {
namespace {

bool on_mesh(const NavMesh& mesh, const CrowdAgent& agent) {
  return agent.polygon < mesh.polygon_count() && mesh.contains_xz(agent.polygon, agent.position.x, agent.position.z) &&
         mesh.locate(agent.position, 0.5).valid();
}

bool on_free_cell(const GridMap& map, const CrowdAgent& agent) {
  return map.passable(static_cast<int>(std::floor(agent.position.x)), static_cast<int>(std::floor(agent.position.z)));
}

CrowdSettings settings_of(const CrowdScenario& scenario, const CrowdRunOptions& options) {
  CrowdSettings settings = scenario.settings;
  if (options.threads) settings.threads = *options.threads;
  return settings;
}

/// Runs the scenario's agents in `crowd` (on either world): `shortest(agent, from, to)` is the
/// length of the agent's shortest path between two points (0: none), `on_ground(agent)` whether
/// it stands on walkable ground. An agent with `via` points walks to each in turn, then to its
/// goal; its shortest path is the sum of its legs' (0 when a leg has none).
template <class Shortest, class OnGround>
CrowdRun run_crowd(Crowd& crowd, const CrowdScenario& scenario, const CrowdRunOptions& options, Shortest&& shortest_of,
                   OnGround&& on_ground) {
  const double dt = options.dt.value_or(scenario.dt);
  const std::size_t steps = options.steps.value_or(scenario.steps);
  const std::size_t n = scenario.agents.size();
  std::vector<CrowdAgentId> ids;
  std::vector<double> shortest(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const CrowdScenarioAgent& agent = scenario.agents[i];
    try {
      ids.push_back(crowd.add_agent(agent.start, agent.settings));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument("agents[" + std::to_string(i) + "].start: " + error.what());
    }
    Point from = agent.start;
    for (std::size_t leg = 0; leg <= agent.via.size(); ++leg) {
      const Point& to = leg < agent.via.size() ? agent.via[leg] : agent.goal;
      const double length = shortest_of(agent, from, to);
      if (length <= 0.0 && !geometry::same_xz(from, to)) {
        shortest[i] = 0.0;
        break;
      }
      shortest[i] += length;
      from = to;
    }
  }
  // The leg each agent walks: via[leg], or the goal once leg == via.size().
  std::vector<std::size_t> legs(n, 0);
  const auto target_of = [&](std::size_t i) -> const Point& {
    const CrowdScenarioAgent& agent = scenario.agents[i];
    return legs[i] < agent.via.size() ? agent.via[legs[i]] : agent.goal;
  };
  const auto set_target = [&](std::size_t i) {
    if (!crowd.set_target(ids[i], target_of(i))) {
      const std::string field = legs[i] < scenario.agents[i].via.size() ? "via[" + std::to_string(legs[i]) + "]" : "goal";
      throw std::invalid_argument("agents[" + std::to_string(i) + "]." + field + ": not on the mesh (for the agent's filter)");
    }
  };

  CrowdRun run;
  CrowdMetrics& m = run.metrics;
  m.agents = n;
  m.steps = steps;
  m.dt = dt;
  std::vector<bool> started(n, false);
  std::vector<double> walked(n, 0.0), arrived_at(n, -1.0);
  std::vector<double> update_us;
  update_us.reserve(steps);
  // The last second: which agents stayed arrived, and how far they went.
  const std::size_t window = std::min(steps, static_cast<std::size_t>(std::ceil(1.0 / dt)));
  std::vector<bool> settled_all_window(n, true);
  std::vector<double> walked_in_window(n, 0.0);
  if (options.trail_interval > 0) run.trails.assign(n, {});
  std::vector<Point> previous(n);
  for (std::size_t i = 0; i < n; ++i) previous[i] = crowd.agent(ids[i])->position;
  // The scenario's agents still in the crowd, in the crowd's order (that of their ids, which is
  // the order they were added in): crowd.agents()[k] is scenario agent live[k]. An agent that
  // leaves on arrival is removed from both.
  std::vector<std::size_t> live(n);
  for (std::size_t i = 0; i < n; ++i) live[i] = i;
  std::vector<bool> left(n, false);
  std::vector<CrowdAgentStatus> final_status(n, CrowdAgentStatus::idle);
  std::vector<bool> final_stuck(n, false);

  crowd_detail::NeighbourGrid pairs;
  std::vector<PlanarVector> planar_positions;
  std::size_t step = 0;
  for (; step < steps && !(scenario.leave_on_arrival && live.empty()); ++step) {
    const double now = static_cast<double>(step) * dt;
    for (const std::size_t i : live)
      if (!started[i] && now >= scenario.agents[i].start_time) {
        set_target(i);
        started[i] = true;
      }
    if (options.trail_interval > 0 && step % options.trail_interval == 0)
      for (const std::size_t i : live) run.trails[i].push_back(crowd.agent(ids[i])->position);
    const CrowdUpdateReport report = crowd.update(dt);
    update_us.push_back(report.microseconds);

    const std::span<const CrowdAgent> agents = crowd.agents();
    const bool in_window = step + window >= steps;
    std::size_t off_mesh = 0;
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::size_t i = live[k];
      const CrowdAgent& agent = agents[k];
      const double moved = std::hypot(agent.position.x - previous[i].x, agent.position.z - previous[i].z);
      walked[i] += moved;
      previous[i] = agent.position;
      const bool arrived = agent.status == CrowdAgentStatus::arrived && legs[i] == scenario.agents[i].via.size();
      if (arrived && arrived_at[i] < 0.0) arrived_at[i] = now + dt;
      if (in_window) {
        walked_in_window[i] += moved;
        if (!arrived) settled_all_window[i] = false;
      }
      if (!agent.link && !on_ground(agent)) ++off_mesh;  // a link's crossing leaves the mesh by design
    }
    // Overlapping pairs, found through a grid of the agents' positions (a crowd of thousands
    // would take billions of pair tests a run otherwise).
    planar_positions.resize(live.size());
    double largest_radius = 0.0;
    for (std::size_t k = 0; k < live.size(); ++k) {
      planar_positions[k] = {agents[k].position.x, agents[k].position.z};
      largest_radius = std::max(largest_radius, agents[k].settings.radius);
    }
    if (!live.empty()) pairs.build(planar_positions, 2.0 * largest_radius);
    for (std::size_t k = 0; k < live.size(); ++k) {
      const CrowdAgent& agent = agents[k];
      pairs.for_each_within(planar_positions[k], agent.settings.radius + largest_radius, [&](std::size_t l, double squared) {
        if (l <= k) return;
        const CrowdAgent& other = agents[l];
        const double reach = agent.settings.radius + other.settings.radius;
        if (squared >= reach * reach) return;
        if (!height_bands_overlap(agent.position.y, agent.settings.height, other.position.y, other.settings.height)) return;
        const double smaller = std::min(agent.settings.radius, other.settings.radius);
        const double penetration = (reach - std::sqrt(squared)) / smaller;
        m.worst_penetration = std::max(m.worst_penetration, penetration);
        if (penetration > 0.01) ++m.overlap_pair_ticks;
      });
    }
    // Between updates: agents at a via point go on to the next; with leave_on_arrival, agents
    // at their goal leave the crowd.
    std::vector<std::size_t> staying;
    staying.reserve(live.size());
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::size_t i = live[k];
      if (agents[k].status == CrowdAgentStatus::arrived && legs[i] < scenario.agents[i].via.size()) {
        ++legs[i];
        set_target(i);
      }
      if (scenario.leave_on_arrival && arrived_at[i] >= 0.0) {
        left[i] = true;
        final_status[i] = CrowdAgentStatus::arrived;
      } else {
        staying.push_back(i);
      }
    }
    if (staying.size() != live.size()) {
      for (const std::size_t i : live)
        if (left[i] && crowd.agent(ids[i]) != nullptr) crowd.remove_agent(ids[i]);
      live.swap(staying);
    }
    m.off_mesh_max = std::max(m.off_mesh_max, off_mesh);
    m.off_mesh_agent_ticks += off_mesh;
  }
  m.steps = step;
  for (const std::size_t i : live) {
    const CrowdAgent* agent = crowd.agent(ids[i]);
    final_status[i] = agent->status;
    final_stuck[i] = agent->stuck;
    previous[i] = agent->position;
  }

  double arrival_sum = 0.0, ratio_sum = 0.0, settled_sum = 0.0;
  std::size_t ratios = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const CrowdScenarioAgent& agent = scenario.agents[i];
    run.final_positions.push_back(previous[i]);
    const bool arrived = final_status[i] == CrowdAgentStatus::arrived && legs[i] == agent.via.size();
    run.arrival_times.push_back(arrived ? arrived_at[i] : -1.0);
    if (options.trail_interval > 0) run.trails[i].push_back(previous[i]);
    if (final_stuck[i]) ++m.stuck;
    if (arrived) {
      ++m.arrived;
      const double at = arrived_at[i] - agent.start_time;
      arrival_sum += at;
      m.arrival_time_max = std::max(m.arrival_time_max, at);
      if (shortest[i] > 0.0) {
        const double ratio = walked[i] / shortest[i];
        ratio_sum += ratio;
        m.path_ratio_max = std::max(m.path_ratio_max, ratio);
        ++ratios;
      }
    }
    if (window > 0 && settled_all_window[i] && arrived && !left[i]) {
      const double speed = walked_in_window[i] / (static_cast<double>(window) * dt);
      ++m.settled;
      settled_sum += speed;
      m.settled_speed_max = std::max(m.settled_speed_max, speed);
      if (agent.settings.max_speed > 0.0)
        m.settled_speed_fraction_max = std::max(m.settled_speed_fraction_max, speed / agent.settings.max_speed);
    }
  }
  if (m.arrived > 0) m.arrival_time_mean = arrival_sum / static_cast<double>(m.arrived);
  if (ratios > 0) m.path_ratio_mean = ratio_sum / static_cast<double>(ratios);
  if (m.settled > 0) m.settled_speed_mean = settled_sum / static_cast<double>(m.settled);
  if (!update_us.empty()) {
    double total = 0.0;
    for (double us : update_us) total += us;
    m.update_us_mean = total / static_cast<double>(update_us.size());
    std::vector<double> sorted = update_us;
    std::sort(sorted.begin(), sorted.end());
    m.update_us_p99 = sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(sorted.size()))) - 1)];
    if (n > 0) m.update_us_per_agent = m.update_us_mean / static_cast<double>(n);
  }
  return run;
}

}  // namespace

CrowdRun run_crowd_scenario(const NavMesh& mesh, const CrowdScenario& scenario, const CrowdRunOptions& options) {
  const CrowdSettings settings = settings_of(scenario, options);
  Crowd crowd(mesh, settings);
  NavMeshQuery query(mesh);
  NavMeshSearchOptions search;
  search.snap_distance = settings.target_snap_distance;
  return run_crowd(
      crowd, scenario, options,
      [&](const CrowdScenarioAgent& agent, const Point& from, const Point& to) {
        search.filter = agent.settings.filter;
        const PathResult path = query.find_path(from, to, search);
        return path.status == SearchStatus::found ? geometry::polyline_length_xz(path.points) : 0.0;
      },
      [&](const CrowdAgent& agent) { return on_mesh(mesh, agent); });
}

CrowdRun run_crowd_scenario(const GridMap& map, const CrowdScenario& scenario, const CrowdRunOptions& options) {
  Crowd crowd(map, settings_of(scenario, options), scenario.grid_options);
  GridQuery query(map);
  auto cell_of = [](const Point& p) { return Cell{static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.z))}; };
  return run_crowd(
      crowd, scenario, options,
      [&](const CrowdScenarioAgent&, const Point& from, const Point& to) {
        const PathResult path = query.find_path(cell_of(from), cell_of(to));
        return path.status == SearchStatus::found ? polyline_length(smooth_path(map, path.nodes)) : 0.0;
      },
      [&](const CrowdAgent& agent) { return on_free_cell(map, agent); });
}

nlohmann::json crowd_metrics_json(const CrowdMetrics& m) {
  return {{"agents", m.agents},
          {"steps", m.steps},
          {"dt", m.dt},
          {"arrived", m.arrived},
          {"arrival_time", {{"mean", m.arrival_time_mean}, {"max", m.arrival_time_max}}},
          {"path_length_ratio", {{"mean", m.path_ratio_mean}, {"max", m.path_ratio_max}}},
          {"overlaps", {{"pair_ticks", m.overlap_pair_ticks}, {"worst_penetration_of_radius", m.worst_penetration}}},
          {"off_mesh", {{"max_agents", m.off_mesh_max}, {"agent_ticks", m.off_mesh_agent_ticks}}},
          {"stuck", m.stuck},
          {"settled", {{"agents", m.settled}, {"speed_mean", m.settled_speed_mean}, {"speed_max", m.settled_speed_max},
                       {"speed_max_of_max_speed", m.settled_speed_fraction_max}}},
          {"update_us", {{"mean", m.update_us_mean}, {"p99", m.update_us_p99}, {"per_agent", m.update_us_per_agent}}}};
}

}  // namespace wayfinder::tools
