// Wayfinder's Crowd against DetourCrowd in one process, on one and the same navigation mesh.
//
// The level (<data>/meshes/recastnavigation/dungeon.obj, or the one given) is built by Recast
// with RecastDemo's solo-mesh defaults (detour_level.hpp): Detour gets the polygon and detail
// meshes as one tile, Wayfinder builds its NavMesh from build_navmesh_geometry on the same level
// (the same polygons). The crowd scenario generator (`random`, the command's `crowd scenario
// random`) places the agents on Wayfinder's mesh: random starts, each goal in its start's region;
// both crowds get the same starts and goals and the same bodies (radius 0.4, height 2, max speed
// 1.5, max acceleration 8). DetourCrowd runs with RecastDemo's crowd settings (every steering
// flag, the "high" adaptive sampling, collision query range 12 radii, path optimisation range
// 30 radii, separation weight 2); Wayfinder's Crowd with its defaults.
//
// Each size is run `repetitions` times for `seconds` at 60 ticks a second, the two crowds in
// turns (Detour first on even repetitions, Wayfinder first on odd ones), so that both see the
// same load. It prints the median over repetitions of each crowd's mean update time per agent
// per tick, their ratio, and, from the first repetition (both crowds are deterministic), the
// quality metrics measured the same way for both:
//   arrived      agents within their radius of their goal (x-z) at the end (and, for Wayfinder,
//                its own `arrived` status);
//   overlaps     pairs on one floor closer than the sum of their radii by more than 1 % of a
//                radius, counted per tick, and the worst penetration as a fraction of a radius;
//   off mesh     agent-ticks whose position Wayfinder's mesh does not locate (0.5 up or down);
//   settled      agents within their radius of their goal during all of the last second, and
//                the largest of their speeds then (distance walked over the second) over the
//                max speed.
//
//   wayfinder_bench_crowd_detour [agents...] [--seconds S] [--repetitions R] [--threads T]
//   (defaults: 100 1000, 60 s, 3 repetitions, 1 thread)

#include <recastnavigation/DetourCrowd.h>
#include <recastnavigation/DetourNavMeshQuery.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "common/crowd_scenario.hpp"
#include "detour_level.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace {

using namespace wayfinder;

constexpr double ticks_per_second = 60.0;
constexpr float detour_half_extents[3] = {2.0f, 4.0f, 2.0f};

struct Body {
  double radius = 0.4;
  double height = 2.0;
  double max_speed = 1.5;
  double max_acceleration = 8.0;
};

/// The quality of one run, measured the same way for both crowds.
struct Quality {
  std::size_t arrived = 0;
  std::size_t own_arrived = 0;  ///< Wayfinder's `arrived` status (Detour has none)
  std::size_t overlap_pair_ticks = 0;
  double worst_penetration = 0.0;
  std::size_t off_mesh_agent_ticks = 0;
  std::size_t settled = 0;
  double settled_speed_fraction_max = 0.0;
};

struct Run {
  Quality quality;
  double us_per_agent_tick = 0.0;
};

/// Watches the positions tick by tick and fills a Quality.
class QualityMeter {
 public:
  QualityMeter(const NavMesh& mesh, const std::vector<Point>& goals, const Body& body, std::size_t ticks)
      : mesh_(mesh), goals_(goals), body_(body), ticks_(ticks),
        window_(static_cast<std::size_t>(ticks_per_second)), walked_(goals.size(), 0.0),
        near_goal_all_window_(goals.size(), true), previous_(goals.size()) {}

  void start(const std::vector<Point>& positions) { previous_ = positions; }

  void tick(std::size_t tick, const std::vector<Point>& positions, Quality& q) {
    const bool in_window = tick + window_ >= ticks_;
    order_.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
      order_[i] = i;
      if (!mesh_.locate(positions[i], 0.5).valid()) ++q.off_mesh_agent_ticks;
      if (in_window) {
        walked_[i] += std::hypot(positions[i].x - previous_[i].x, positions[i].z - previous_[i].z);
        if (!near_goal(positions[i], i)) near_goal_all_window_[i] = false;
      }
    }
    previous_ = positions;
    // Pairs closer than a diameter: a sweep along x.
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return positions[a].x < positions[b].x; });
    const double reach = 2.0 * body_.radius;
    for (std::size_t a = 0; a < order_.size(); ++a)
      for (std::size_t b = a + 1; b < order_.size(); ++b) {
        const Point& p = positions[order_[a]];
        const Point& o = positions[order_[b]];
        if (o.x - p.x >= reach) break;
        const double dx = p.x - o.x, dz = p.z - o.z;
        if (dx * dx + dz * dz >= reach * reach) continue;
        if (!height_bands_overlap(p.y, body_.height, o.y, body_.height)) continue;
        const double penetration = (reach - std::sqrt(dx * dx + dz * dz)) / body_.radius;
        q.worst_penetration = std::max(q.worst_penetration, penetration);
        if (penetration > 0.01) ++q.overlap_pair_ticks;
      }
  }

  void finish(const std::vector<Point>& positions, Quality& q) const {
    for (std::size_t i = 0; i < positions.size(); ++i) {
      if (near_goal(positions[i], i)) ++q.arrived;
      if (!near_goal_all_window_[i]) continue;
      ++q.settled;
      q.settled_speed_fraction_max = std::max(q.settled_speed_fraction_max, walked_[i] / body_.max_speed);
    }
  }

 private:
  [[nodiscard]] bool near_goal(const Point& p, std::size_t i) const {
    return std::hypot(p.x - goals_[i].x, p.z - goals_[i].z) <= body_.radius && std::abs(p.y - goals_[i].y) < body_.height;
  }

  const NavMesh& mesh_;
  const std::vector<Point>& goals_;
  Body body_;
  std::size_t ticks_, window_;
  std::vector<double> walked_;
  std::vector<bool> near_goal_all_window_;
  std::vector<Point> previous_;
  std::vector<std::size_t> order_;
};

/// Runs `ticks` updates of a crowd, timing update() alone; with `measure`, reads the positions
/// (read(positions), in the goals' order) after every tick and measures the quality.
template <class Update, class Read>
Run run_ticks(const NavMesh& mesh, const std::vector<Point>& goals, const Body& body, std::size_t ticks, bool measure,
              Update&& update, Read&& read) {
  Run run;
  QualityMeter meter(mesh, goals, body, ticks);
  std::vector<Point> positions(goals.size());
  read(positions);
  meter.start(positions);
  double seconds = 0.0;
  for (std::size_t tick = 0; tick < ticks; ++tick) {
    const auto began = std::chrono::steady_clock::now();
    update();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (!measure) continue;
    read(positions);
    meter.tick(tick, positions, run.quality);
  }
  read(positions);
  meter.finish(positions, run.quality);
  run.us_per_agent_tick = 1e6 * seconds / static_cast<double>(ticks * goals.size());
  return run;
}

Run run_wayfinder(const NavMesh& mesh, const std::vector<Point>& starts, const std::vector<Point>& goals,
                  const Body& body, std::size_t ticks, std::size_t threads, bool measure) {
  CrowdSettings settings;
  settings.threads = threads;
  Crowd crowd(mesh, settings);
  CrowdAgentSettings agent;
  agent.radius = body.radius;
  agent.height = body.height;
  agent.max_speed = body.max_speed;
  agent.max_acceleration = body.max_acceleration;
  std::vector<CrowdAgentId> ids;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    ids.push_back(crowd.add_agent(starts[i], agent));
    if (!crowd.set_target(ids.back(), goals[i])) throw std::runtime_error("Wayfinder: a goal is off the mesh");
  }
  Run run = run_ticks(
      mesh, goals, body, ticks, measure, [&] { crowd.update(1.0 / ticks_per_second); },
      [&](std::vector<Point>& positions) {
        for (std::size_t i = 0; i < ids.size(); ++i) positions[i] = crowd.agents()[i].position;
      });
  for (const CrowdAgent& a : crowd.agents())
    if (a.status == CrowdAgentStatus::arrived) ++run.quality.own_arrived;
  return run;
}

struct CrowdDeleter {
  void operator()(dtCrowd* p) const { dtFreeCrowd(p); }
};

Run run_detour(dtNavMesh& detour_mesh, const NavMesh& mesh, const std::vector<Point>& starts,
               const std::vector<Point>& goals, const Body& body, std::size_t ticks, bool measure) {
  std::unique_ptr<dtCrowd, CrowdDeleter> crowd(dtAllocCrowd());
  bench::require(crowd && crowd->init(static_cast<int>(starts.size()), static_cast<float>(body.radius), &detour_mesh),
                 "initialise the crowd");
  // RecastDemo's "high" avoidance quality (its default), on dtCrowd's own defaults otherwise.
  dtObstacleAvoidanceParams avoidance = *crowd->getObstacleAvoidanceParams(0);
  avoidance.velBias = 0.5f;
  avoidance.adaptiveDivs = 7;
  avoidance.adaptiveRings = 3;
  avoidance.adaptiveDepth = 3;
  crowd->setObstacleAvoidanceParams(3, &avoidance);
  crowd->getEditableFilter(0)->setIncludeFlags(bench::walkable_flag);

  bench::DetourPointer<dtNavMeshQuery> query(dtAllocNavMeshQuery());
  bench::require(query && dtStatusSucceed(query->init(&detour_mesh, 2048)), "initialise the query");
  dtCrowdAgentParams params{};
  params.radius = static_cast<float>(body.radius);
  params.height = static_cast<float>(body.height);
  params.maxAcceleration = static_cast<float>(body.max_acceleration);
  params.maxSpeed = static_cast<float>(body.max_speed);
  params.collisionQueryRange = params.radius * 12.0f;
  params.pathOptimizationRange = params.radius * 30.0f;
  params.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                       DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
  params.obstacleAvoidanceType = 3;
  params.separationWeight = 2.0f;
  std::vector<int> indices;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const float start[3] = {static_cast<float>(starts[i].x), static_cast<float>(starts[i].y), static_cast<float>(starts[i].z)};
    const float goal[3] = {static_cast<float>(goals[i].x), static_cast<float>(goals[i].y), static_cast<float>(goals[i].z)};
    const int index = crowd->addAgent(start, &params);
    bench::require(index >= 0, "add an agent");
    dtPolyRef target = 0;
    float on_mesh[3];
    bench::require(dtStatusSucceed(query->findNearestPoly(goal, detour_half_extents, crowd->getFilter(0), &target, on_mesh)) &&
                       target != 0 && crowd->requestMoveTarget(index, target, on_mesh),
                   "request an agent's target");
    indices.push_back(index);
  }
  return run_ticks(
      mesh, goals, body, ticks, measure, [&] { crowd->update(static_cast<float>(1.0 / ticks_per_second), nullptr); },
      [&](std::vector<Point>& positions) {
        for (std::size_t i = 0; i < indices.size(); ++i) {
          const float* p = crowd->getAgent(indices[i])->npos;
          positions[i] = {p[0], p[1], p[2]};
        }
      });
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void print_quality(const char* name, const Quality& q, bool own_arrival) {
  std::printf("  %-9s arrived %zu", name, q.arrived);
  if (own_arrival) std::printf(" (status arrived %zu)", q.own_arrived);
  std::printf(", overlapping pair-ticks %zu (worst penetration %.1f %% of a radius), off-mesh agent-ticks %zu, "
              "settled %zu (top speed %.2f %% of max speed)\n",
              q.overlap_pair_ticks, 100.0 * q.worst_penetration, q.off_mesh_agent_ticks, q.settled,
              100.0 * q.settled_speed_fraction_max);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  double seconds = 60.0;
  std::size_t repetitions = 3, threads = 1;
  std::string level = "dungeon";
  for (int k = 1; k < argc; ++k) {
    const std::string argument = argv[k];
    const bool has_value = k + 1 < argc;
    if (argument == "--seconds" && has_value) {
      seconds = std::atof(argv[++k]);
    } else if (argument == "--repetitions" && has_value) {
      repetitions = std::max<std::size_t>(1, std::strtoul(argv[++k], nullptr, 10));
    } else if (argument == "--threads" && has_value) {
      threads = std::max<std::size_t>(1, std::strtoul(argv[++k], nullptr, 10));
    } else if (argument == "--level" && has_value) {
      level = argv[++k];
    } else if (!argument.empty() && argument[0] != '-') {
      sizes.push_back(std::strtoul(argument.c_str(), nullptr, 10));
    } else {
      std::fprintf(stderr, "usage: %s [agents...] [--seconds S] [--repetitions R] [--threads T] [--level NAME]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {100, 1000};
  try {
    const MeshGeometry level_geometry =
        read_obj_mesh(bench::data_dir() / "meshes" / "recastnavigation" / (level + ".obj"));
    bench::RecastMeshes recast = bench::build_recast_meshes(level_geometry);
    const bench::DetourPointer<dtNavMesh> detour_mesh = bench::build_detour_mesh(*recast.polygons, *recast.detail);
    const MeshGeometry geometry = build_navmesh_geometry(level_geometry);
    const NavMesh mesh = NavMesh::build(geometry);
    const std::size_t ticks = static_cast<std::size_t>(std::llround(seconds * ticks_per_second));
    const Body body;
    std::printf("%s: %zu polygons; %.0f s at %.0f ticks a second, %zu repetitions, Wayfinder on %zu thread(s)\n",
                level.c_str(), mesh.polygon_count(), seconds, ticks_per_second, repetitions, threads);
    for (const std::size_t size : sizes) {
      tools::CrowdScenarioRequest request;
      request.kind = tools::CrowdScenarioKind::random;
      request.agents = size;
      request.seed = 3;
      request.radius = body.radius;
      request.max_speed = body.max_speed;
      request.mesh = &geometry;
      request.mesh_file = level + ".obj";
      const tools::CrowdScenario scenario = tools::generate_crowd_scenario(request);
      std::vector<Point> starts, goals;
      for (const tools::CrowdScenarioAgent& agent : scenario.agents) {
        starts.push_back(agent.start);
        goals.push_back(agent.goal);
      }
      std::vector<double> detour_us, wayfinder_us;
      Run detour_first, wayfinder_first;
      for (std::size_t r = 0; r < repetitions; ++r) {
        const bool measure = r == 0;
        auto detour = [&] {
          const Run run = run_detour(*detour_mesh, mesh, starts, goals, body, ticks, measure);
          if (measure) detour_first = run;
          detour_us.push_back(run.us_per_agent_tick);
        };
        auto wayfinder = [&] {
          const Run run = run_wayfinder(mesh, starts, goals, body, ticks, threads, measure);
          if (measure) wayfinder_first = run;
          wayfinder_us.push_back(run.us_per_agent_tick);
        };
        if (r % 2 == 0) {
          detour();
          wayfinder();
        } else {
          wayfinder();
          detour();
        }
      }
      const double d = median(detour_us), w = median(wayfinder_us);
      std::printf("%zu agents (of %zu asked for): update per agent per tick, median of %zu: DetourCrowd %.3f us, "
                  "Wayfinder %.3f us, Wayfinder / Detour %.2f\n",
                  starts.size(), size, repetitions, d, w, w / d);
      print_quality("Detour", detour_first.quality, false);
      print_quality("Wayfinder", wayfinder_first.quality, true);
      std::fflush(stdout);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}
