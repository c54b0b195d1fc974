// Runs a Wayfinder crowd scenario file (wayfinder crowd scenario ...) with RVO2, the reference
// ORCA library (van den Berg, Guy, Lin & Manocha, "Reciprocal n-Body Collision Avoidance", 2011),
// and prints the metrics `wayfinder crowd run --json` prints, measured the same way, so that
// bench/compare_rvo2.sh can set the two side by side. RVO2 is not part of Wayfinder: the script
// compiles this file against an RVO2 source tree the caller fetched and passes in.
//
// RVO2 knows no ground: the scenario's mesh is ignored, so only open-ground scenarios (circle,
// random on the flat square) compare fairly. Each tick every agent that has not arrived prefers
// the velocity that reaches its goal in one tick, capped at its max speed (an agent of RVO2's own
// examples prefers a unit speed towards its goal), plus a small random nudge (fixed seed): RVO2's
// Blocks example adds one of up to 1e-4 m/s "to avoid deadlocks due to perfect symmetry", the
// default here; --nudge sets another (a circle of 8 stays deadlocked at 1e-4 and resolves at 1e-2). An agent within its arrival radius of its goal has
// arrived and prefers to stand still. The timed work per tick is setting the preferred
// velocities and RVOSimulator::doStep (its k-d tree, the ORCA lines, the linear programs and the
// integration); the metrics are gathered outside the timer.
//
//   rvo2_crowd SCENARIO.json [--nudge M_PER_S]
#include <RVO.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct ScenarioAgent {
  double start_x = 0.0, start_z = 0.0, goal_x = 0.0, goal_z = 0.0;
  double radius = 0.4, max_speed = 1.5, arrival_radius = 0.1, start_time = 0.0;
};

struct Scenario {
  double dt = 0.1;
  std::size_t steps = 0;
  double time_horizon = 2.0, wall_time_horizon = 0.5, neighbour_distance = 5.0;
  std::size_t max_neighbours = 10;
  std::vector<ScenarioAgent> agents;
};

double field_or(const nlohmann::json& object, const char* name, double fallback) {
  return object.contains(name) ? object.at(name).get<double>() : fallback;
}

Scenario read_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  const nlohmann::json file = nlohmann::json::parse(in);
  Scenario scenario;
  scenario.dt = field_or(file, "dt", 0.1);
  scenario.steps = file.at("steps").get<std::size_t>();
  if (file.contains("settings")) {
    const auto& settings = file.at("settings");
    scenario.time_horizon = field_or(settings, "time_horizon", scenario.time_horizon);
    scenario.wall_time_horizon = field_or(settings, "wall_time_horizon", scenario.wall_time_horizon);
    scenario.neighbour_distance = field_or(settings, "neighbour_distance", scenario.neighbour_distance);
    scenario.max_neighbours = settings.value("max_neighbours", scenario.max_neighbours);
  }
  for (const auto& entry : file.at("agents")) {
    ScenarioAgent agent;
    agent.start_x = entry.at("start").at(0).get<double>();
    agent.start_z = entry.at("start").at(2).get<double>();
    agent.goal_x = entry.at("goal").at(0).get<double>();
    agent.goal_z = entry.at("goal").at(2).get<double>();
    agent.radius = field_or(entry, "radius", agent.radius);
    agent.max_speed = field_or(entry, "max_speed", agent.max_speed);
    agent.arrival_radius = field_or(entry, "arrival_radius", agent.arrival_radius);
    agent.start_time = field_or(entry, "start_time", agent.start_time);
    scenario.agents.push_back(agent);
  }
  return scenario;
}

}  // namespace

int main(int argc, char** argv) {
  float nudge_speed = 1e-4F;
  if (argc == 4 && std::string(argv[2]) == "--nudge") nudge_speed = std::stof(argv[3]);
  if (argc != 2 && argc != 4) {
    std::cerr << "usage: rvo2_crowd SCENARIO.json [--nudge M_PER_S]\n";
    return 2;
  }
  Scenario scenario;
  try {
    scenario = read_scenario(argv[1]);
  } catch (const std::exception& error) {
    std::cerr << "rvo2_crowd: " << error.what() << "\n";
    return 2;
  }
  const std::size_t n = scenario.agents.size();
  const float dt = static_cast<float>(scenario.dt);

  RVO::RVOSimulator simulator;
  simulator.setTimeStep(dt);
  for (const ScenarioAgent& agent : scenario.agents) {
    simulator.addAgent(RVO::Vector2(static_cast<float>(agent.start_x), static_cast<float>(agent.start_z)),
                       static_cast<float>(scenario.neighbour_distance), scenario.max_neighbours,
                       static_cast<float>(scenario.time_horizon), static_cast<float>(scenario.wall_time_horizon),
                       static_cast<float>(agent.radius), static_cast<float>(agent.max_speed));
  }

  std::vector<double> tick_us;
  tick_us.reserve(scenario.steps);
  std::vector<double> arrived_at(n, -1.0);
  const std::size_t window = std::min(scenario.steps, static_cast<std::size_t>(std::ceil(1.0 / scenario.dt)));
  std::vector<bool> arrived_all_window(n, true);
  std::vector<double> window_speed(n, 0.0);
  std::size_t overlap_pair_ticks = 0;
  double worst_penetration = 0.0;
  std::mt19937 nudges(12345);
  std::uniform_real_distribution<float> unit(0.0F, 1.0F);

  auto to_goal = [&](std::size_t i) {
    const RVO::Vector2 position = simulator.getAgentPosition(i);
    return RVO::Vector2(static_cast<float>(scenario.agents[i].goal_x) - position.x(),
                        static_cast<float>(scenario.agents[i].goal_z) - position.y());
  };

  for (std::size_t step = 0; step < scenario.steps; ++step) {
    const double now = static_cast<double>(step) * scenario.dt;
    const auto begin = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      const ScenarioAgent& agent = scenario.agents[i];
      const RVO::Vector2 goal = to_goal(i);
      const float distance = RVO::abs(goal);
      RVO::Vector2 preferred(0.0F, 0.0F);
      if (now >= agent.start_time && distance > static_cast<float>(agent.arrival_radius)) {
        const float speed = std::min(static_cast<float>(agent.max_speed), distance / dt);
        preferred = goal * (speed / distance);
        const float angle = unit(nudges) * 6.2831853F;
        const float nudge = unit(nudges) * nudge_speed;
        preferred = preferred + RVO::Vector2(std::cos(angle), std::sin(angle)) * nudge;
      }
      simulator.setAgentPrefVelocity(i, preferred);
    }
    simulator.doStep();
    const auto end = std::chrono::steady_clock::now();
    tick_us.push_back(std::chrono::duration<double, std::micro>(end - begin).count());

    const bool in_window = step + window >= scenario.steps;
    for (std::size_t i = 0; i < n; ++i) {
      const bool arrived = RVO::abs(to_goal(i)) <= static_cast<float>(scenario.agents[i].arrival_radius);
      if (arrived && arrived_at[i] < 0.0) arrived_at[i] = now + scenario.dt;
      if (!arrived) arrived_at[i] = -1.0;  // walked off its goal again: not arrived yet
      if (in_window) {
        if (!arrived) arrived_all_window[i] = false;
        window_speed[i] = std::max(window_speed[i], static_cast<double>(RVO::abs(simulator.getAgentVelocity(i))));
      }
      const RVO::Vector2 position = simulator.getAgentPosition(i);
      for (std::size_t j = i + 1; j < n; ++j) {
        const RVO::Vector2 other = simulator.getAgentPosition(j);
        const double dx = static_cast<double>(position.x()) - static_cast<double>(other.x());
        const double dz = static_cast<double>(position.y()) - static_cast<double>(other.y());
        const double reach = scenario.agents[i].radius + scenario.agents[j].radius;
        if (dx * dx + dz * dz >= reach * reach) continue;
        const double smaller = std::min(scenario.agents[i].radius, scenario.agents[j].radius);
        const double penetration = (reach - std::sqrt(dx * dx + dz * dz)) / smaller;
        worst_penetration = std::max(worst_penetration, penetration);
        if (penetration > 0.01) ++overlap_pair_ticks;
      }
    }
  }

  std::size_t arrived = 0, settled = 0;
  double arrival_sum = 0.0, arrival_max = 0.0, settled_sum = 0.0, settled_max = 0.0, settled_fraction_max = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (arrived_at[i] >= 0.0) {
      ++arrived;
      const double at = arrived_at[i] - scenario.agents[i].start_time;
      arrival_sum += at;
      arrival_max = std::max(arrival_max, at);
    }
    if (window > 0 && arrived_all_window[i]) {
      ++settled;
      settled_sum += window_speed[i];
      settled_max = std::max(settled_max, window_speed[i]);
      settled_fraction_max = std::max(settled_fraction_max, window_speed[i] / scenario.agents[i].max_speed);
    }
  }
  std::vector<double> sorted = tick_us;
  std::sort(sorted.begin(), sorted.end());
  double tick_sum = 0.0;
  for (double us : tick_us) tick_sum += us;
  const double tick_mean = tick_us.empty() ? 0.0 : tick_sum / static_cast<double>(tick_us.size());
  const double tick_p99 =
      sorted.empty() ? 0.0
                     : sorted[std::min(sorted.size() - 1,
                                       static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(sorted.size()))) - 1)];

  const nlohmann::json out = {
      {"scenario", argv[1]},
      {"nudge", nudge_speed},
      {"metrics",
       {{"agents", n},
        {"arrived", arrived},
        {"arrival_time", {{"mean", arrived > 0 ? arrival_sum / static_cast<double>(arrived) : 0.0}, {"max", arrival_max}}},
        {"overlaps", {{"pair_ticks", overlap_pair_ticks}, {"worst_penetration_of_radius", worst_penetration}}},
        {"settled",
         {{"agents", settled},
          {"speed_mean", settled > 0 ? settled_sum / static_cast<double>(settled) : 0.0},
          {"speed_max", settled_max},
          {"speed_max_of_max_speed", settled_fraction_max}}},
        {"steps", scenario.steps},
        {"dt", scenario.dt},
        {"update_us", {{"mean", tick_mean}, {"p99", tick_p99}, {"per_agent", n > 0 ? tick_mean / static_cast<double>(n) : 0.0}}}}}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
