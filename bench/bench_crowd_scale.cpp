// A crowd of thousands on a large navigation mesh built from a generated level: the figures of
// docs/benchmarks.md, "Crowds of 10,000 agents".
//
// The level is the generated room level of the navmesh build benchmarks (room_level.hpp: a room
// map of `cells` x `cells` cells of 2 units, 60 rooms, seed 7, built by Recast in tiles of 32
// cells; its floor, the largest connected region, without the detail mesh). The crowd scenario generator (`random`, as the command's `crowd scenario random`)
// places the agents on it: random starts, each goal in its start's region (radius 0.4, height 2,
// max speed 1.5, max acceleration 8). The crowd has its defaults but `threads`; each tick is
// 1/60 s and may spend at most `budget` path expansions (the frame budget of the path queue).
//
// Two stretches of ticks are timed apart:
//   planning  from the first tick until no agent waits for its first path (the paths come
//             through the PathRequestQueue within the budget; waiting agents stand still);
//   steady    the `steady` ticks after that.
// For each it prints the mean and the 99th percentile of Crowd::update's wall time per tick,
// the median over `repetitions` runs (each run a new crowd; the thread counts in turns), and
// the positions' checksum, which must be the same whatever the thread count.
//
//   wayfinder_bench_crowd_scale [--agents N] [--cells C] [--budget E] [--steady T]
//                               [--threads T...] [--repetitions R]
//   (defaults: 10000 agents, 160 cells, 20000 expansions, 600 steady ticks, threads 1 2,
//   3 repetitions)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/crowd_scenario.hpp"
#include "room_level.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace {

using namespace wayfinder;
using namespace wayfinder::tools;

constexpr double tick = 1.0 / 60.0;

struct Stretch {
  std::vector<double> microseconds;  ///< per tick

  [[nodiscard]] double mean() const {
    double sum = 0.0;
    for (double value : microseconds) sum += value;
    return microseconds.empty() ? 0.0 : sum / static_cast<double>(microseconds.size());
  }
  [[nodiscard]] double p99() const {
    if (microseconds.empty()) return 0.0;
    std::vector<double> sorted = microseconds;
    std::sort(sorted.begin(), sorted.end());
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(sorted.size())))];
  }
};

struct Run {
  Stretch planning;
  Stretch steady;
  std::size_t expansions = 0;
  std::size_t arrived = 0;
  std::size_t stuck = 0;
  double checksum = 0.0;
};

Run run_once(const NavMesh& mesh, const CrowdScenario& scenario, std::size_t threads, std::size_t budget,
             std::size_t steady_ticks) {
  CrowdSettings settings = scenario.settings;
  settings.threads = threads;
  Crowd crowd(mesh, settings);
  for (const CrowdScenarioAgent& agent : scenario.agents) {
    const CrowdAgentId id = crowd.add_agent(agent.start, agent.settings);
    crowd.set_target(id, agent.goal);
  }
  const StepBudget frame_budget = StepBudget::expansions(budget);
  Run run;
  const auto waiting = [&crowd] {
    return std::any_of(crowd.agents().begin(), crowd.agents().end(), [](const CrowdAgent& agent) {
      return agent.status == CrowdAgentStatus::waiting_for_path;
    });
  };
  // At most ten minutes of planning ticks: a level whose paths never all come is reported so.
  for (std::size_t t = 0; t < 36000 && waiting(); ++t) {
    const CrowdUpdateReport report = crowd.update(tick, frame_budget);
    run.planning.microseconds.push_back(report.microseconds);
    run.expansions += report.expansions;
  }
  for (std::size_t t = 0; t < steady_ticks; ++t) {
    const CrowdUpdateReport report = crowd.update(tick, frame_budget);
    run.steady.microseconds.push_back(report.microseconds);
  }
  for (const CrowdAgent& agent : crowd.agents()) {
    run.arrived += agent.status == CrowdAgentStatus::arrived ? 1 : 0;
    run.stuck += agent.stuck ? 1 : 0;
    run.checksum += agent.position.x * static_cast<double>(agent.id % 7 + 1) + agent.position.z;
  }
  return run;
}

/// The level's floor: its largest connected region (the tops of the level's boxes are walkable
/// islands, too small for the scenario generator's goals). The ground is flat: the detail mesh
/// is left out.
MeshGeometry largest_region(const MeshGeometry& built) {
  const NavMesh mesh = NavMesh::build(built);
  std::vector<std::size_t> sizes(mesh.region_count(), 0);
  for (std::size_t p = 0; p < built.polygons.size(); ++p) ++sizes[mesh.region(static_cast<PolygonId>(p))];
  const auto largest = static_cast<std::uint32_t>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  MeshGeometry floor;
  floor.source = built.source;
  floor.vertices = built.vertices;
  for (std::size_t p = 0; p < built.polygons.size(); ++p) {
    if (mesh.region(static_cast<PolygonId>(p)) != largest) continue;
    floor.polygons.push_back(built.polygons[p]);
    if (!built.polygon_areas.empty()) floor.polygon_areas.push_back(built.polygon_areas[p]);
    if (!built.polygon_flags.empty()) floor.polygon_flags.push_back(built.polygon_flags[p]);
  }
  return floor;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wayfinder::tools;
  std::size_t agents = 10000, budget = 20000, steady = 600, repetitions = 3;
  int cells = 160;
  std::vector<std::size_t> thread_counts;
  for (int k = 1; k < argc; ++k) {
    const std::string argument = argv[k];
    const bool has_value = k + 1 < argc;
    if (argument == "--agents" && has_value) {
      agents = std::strtoul(argv[++k], nullptr, 10);
    } else if (argument == "--cells" && has_value) {
      cells = std::atoi(argv[++k]);
    } else if (argument == "--budget" && has_value) {
      budget = std::max<std::size_t>(1, std::strtoul(argv[++k], nullptr, 10));
    } else if (argument == "--steady" && has_value) {
      steady = std::strtoul(argv[++k], nullptr, 10);
    } else if (argument == "--repetitions" && has_value) {
      repetitions = std::max<std::size_t>(1, std::strtoul(argv[++k], nullptr, 10));
    } else if (argument == "--threads" && has_value) {
      while (k + 1 < argc && argv[k + 1][0] != '-') thread_counts.push_back(std::max<std::size_t>(1, std::strtoul(argv[++k], nullptr, 10)));
    } else {
      std::fprintf(stderr,
                   "usage: %s [--agents N] [--cells C] [--budget E] [--steady T] [--threads T...] [--repetitions R]\n",
                   argv[0]);
      return 2;
    }
  }
  if (thread_counts.empty()) thread_counts = {1, 2};

  const auto began = std::chrono::steady_clock::now();
  const MeshGeometry level = bench::room_level(cells);
  const MeshGeometry ground = largest_region(build_navmesh_geometry(level, bench::tiled_agent()));
  const NavMesh mesh = NavMesh::build(ground);
  CrowdScenarioRequest request;
  request.kind = CrowdScenarioKind::random;
  request.agents = agents;
  request.seed = 3;
  request.mesh = &ground;
  const CrowdScenario scenario = generate_crowd_scenario(request);
  std::printf("level: %d x %d cells, %zu polygons; %zu agents placed of %zu; set up in %.1f s\n", cells, cells,
              mesh.polygon_count(), scenario.agents.size(), agents,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());

  struct Figures {
    std::vector<double> planning_mean, planning_p99, steady_mean, steady_p99;
    Run first;
  };
  std::vector<Figures> figures(thread_counts.size());
  for (std::size_t r = 0; r < repetitions; ++r)
    for (std::size_t k = 0; k < thread_counts.size(); ++k) {
      const Run run = run_once(mesh, scenario, thread_counts[k], budget, steady);
      Figures& f = figures[k];
      f.planning_mean.push_back(run.planning.mean());
      f.planning_p99.push_back(run.planning.p99());
      f.steady_mean.push_back(run.steady.mean());
      f.steady_p99.push_back(run.steady.p99());
      if (r == 0) f.first = run;
      std::printf("  run %zu, %zu thread(s): planning %zu ticks %.0f us mean; steady %.0f us mean\n", r + 1,
                  thread_counts[k], run.planning.microseconds.size(), run.planning.mean(), run.steady.mean());
      std::fflush(stdout);
    }
  std::printf("\n| threads | planning ticks | planning: mean, p99 | steady (%zu ticks): mean, p99 | arrived | stuck | "
              "checksum |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
              steady);
  for (std::size_t k = 0; k < thread_counts.size(); ++k) {
    const Figures& f = figures[k];
    std::printf("| %zu | %zu (%zu expansions) | %.0f us, %.0f us | %.0f us, %.0f us | %zu | %zu | %.6f |\n",
                thread_counts[k], f.first.planning.microseconds.size(), f.first.expansions, median(f.planning_mean),
                median(f.planning_p99), median(f.steady_mean), median(f.steady_p99), f.first.arrived, f.first.stuck,
                f.first.checksum);
  }
  return 0;
}
