// Memory per query object: how much a GridQuery or VoxelQuery holds after answering a
// scenario's queries, measured as the growth of the process's resident memory (Linux
// /proc/self/statm) around building the query object and running the queries, each measurement
// in a fresh child process (fork). The worlds are loaded before the first reading, so only the
// query object's search state (and its results' few kilobytes) is counted. Linux only.
//
// Worlds: a 512 x 512 MovingAI map with its scenario; a 4096 x 4096 map made of 8 x 8 copies of
// that map, answering the same queries in its first copy and the same queries moved seven
// copies right and down (so the searches touch as much as on the small map, far apart); the
// MovingAI voxel maps with up to 500 of their scenarios' queries (flying agents). Also the first
// query on an open 16384 x 16384 grid with a 1 ms time budget.
//
// Prints one JSON object per line: world, cells, queries, first_query_us (the first query's
// wall time, set-up included) and its stats' time, resident_mb.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace {

using namespace wayfinder;

std::filesystem::path data_dir() {
  if (const char* from_environment = std::getenv("WAYFINDER_DATA_DIR")) return from_environment;
  return WAYFINDER_DATA_DIR;
}

/// Resident memory of this process in bytes.
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * 4096.0;
}

template <class Query, class World, class Request>
void measure_here(const std::string& name, const World& world, std::size_t cells, const std::vector<Request>& requests) {
  const double before = resident_bytes();
  Query query(world);
  PathResult result;
  const auto started = std::chrono::steady_clock::now();
  query.find_path(requests.front(), result);
  const double first_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  const double first_stats_us = result.stats.microseconds;
  std::size_t found = result.found() ? 1 : 0;
  for (std::size_t i = 1; i < requests.size(); ++i) {
    query.find_path(requests[i], result);
    found += result.found() ? 1 : 0;
  }
  const double grown = resident_bytes() - before;
  std::printf(
      "{\"world\": \"%s\", \"cells\": %zu, \"queries\": %zu, \"found\": %zu, \"first_query_us\": %.1f, "
      "\"first_query_stats_us\": %.1f, \"resident_mb\": %.2f}\n",
      name.c_str(), cells, requests.size(), found, first_us, first_stats_us, grown / (1024.0 * 1024.0));
  std::fflush(stdout);
}

/// Measures in a child process, so that memory the allocator kept from one measurement cannot
/// hide the next one's growth.
template <class Query, class World, class Request>
void measure(const std::string& name, const World& world, std::size_t cells, const std::vector<Request>& requests) {
  const pid_t child = fork();
  if (child == 0) {
    measure_here<Query>(name, world, cells, requests);
    std::_Exit(0);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    std::fprintf(stderr, "measuring %s failed\n", name.c_str());
}

GridMap tiled(const GridMap& tile, int copies) {
  GridMap map(tile.width() * copies, tile.height() * copies);
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (!tile.passable(x % tile.width(), y % tile.height())) map.set_passable(x, y, false);
  return map;
}

}  // namespace

int main() {
  const std::filesystem::path grid_path = data_dir() / "movingai" / "bg512" / "AR0700SR.map";
  const GridMap small = read_movingai_map(grid_path);
  const Scenario scenario = read_movingai_scenario(grid_path.string() + ".scen");
  std::vector<GridPathRequest> requests;
  for (const ScenarioQuery& query : scenario.queries) requests.push_back({query.start, query.goal, {}});
  const GridMap big = tiled(small, 8);
  std::vector<GridPathRequest> far_requests = requests;
  const int shift = small.width() * 7;
  for (GridPathRequest& request : far_requests) {
    request.start = {request.start.x + shift, request.start.y + shift};
    request.goal = {request.goal.x + shift, request.goal.y + shift};
  }
  for (const GridAlgorithm algorithm : {GridAlgorithm::astar, GridAlgorithm::jump_point, GridAlgorithm::breadth_first}) {
    const std::string suffix = " " + std::string(to_string(algorithm));
    for (auto* list : {&requests, &far_requests})
      for (GridPathRequest& request : *list) request.options.algorithm = algorithm;
    measure<GridQuery>("bg512/AR0700SR 512x512" + suffix, small, small.cell_count(), requests);
    measure<GridQuery>("AR0700SR x 8 x 8 4096x4096, first copy" + suffix, big, big.cell_count(), requests);
    measure<GridQuery>("AR0700SR x 8 x 8 4096x4096, last copy" + suffix, big, big.cell_count(), far_requests);
  }

  {
    // The first query on a huge open grid with a 1 ms budget: the set-up must fit in it too.
    const GridMap huge(16384, 16384);
    for (const GridAlgorithm algorithm :
         {GridAlgorithm::astar, GridAlgorithm::bidirectional_astar, GridAlgorithm::breadth_first}) {
      GridPathRequest request{{1, 1}, {16382, 16382}, {}};
      request.options.algorithm = algorithm;
      request.options.budget.max_time = std::chrono::milliseconds(1);
      measure<GridQuery>("open 16384x16384, max_time 1 ms, " + std::string(to_string(algorithm)), huge,
                              huge.cell_count(), std::vector<GridPathRequest>{request});
    }
  }

  for (const char* name : {"Simple", "Complex"}) {
    const std::filesystem::path scenario_path = data_dir() / "voxel" / "warframe" / (std::string(name) + ".3dmap.3dscen");
    const VoxelWorld world = read_voxel_benchmark_map(voxel_scenario_map_path(scenario_path));
    const VoxelScenario voxel_scenario = read_voxel_scenario(scenario_path);
    std::vector<VoxelPathRequest> voxel_requests;
    // At most 500 queries, spread over the scenario: enough to touch what searches touch.
    const std::size_t stride = std::max<std::size_t>(1, voxel_scenario.queries.size() / 500);
    for (std::size_t i = 0; i < voxel_scenario.queries.size(); i += stride) {
      const auto& query = voxel_scenario.queries[i];
      VoxelPathRequest request{query.start, query.goal, {}};
      request.options.profile = MovementProfile::flyer();
      voxel_requests.push_back(request);
    }
    measure<VoxelQuery>(std::string("warframe/") + name + " " + std::to_string(world.size_x()) + "x" +
                                 std::to_string(world.size_y()) + "x" + std::to_string(world.size_z()),
                             world, world.block_count(), voxel_requests);
  }
}
