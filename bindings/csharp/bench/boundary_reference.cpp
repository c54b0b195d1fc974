// The C++ side of the C# boundary benchmark (docs/benchmarks.md): one short grid query (arena2,
// (100, 41) to (98, 44), A*, 4 cells) timed through the C++ API (GridQuery::find_path into a
// PathResult it refills) and through the C API (wf_grid_query_find_path), on the same map.
// BoundaryBenchmark.exe times the same query from C#; the differences are the cost of each
// boundary. Prints the median over rounds, in nanoseconds per call.
//
//   wayfinder_boundary_reference <arena2.map> [rounds] [calls per round]
#include <wayfinder.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

template <class Call>
double median_nanoseconds(int rounds, int calls, Call&& call) {
  std::vector<double> per_call;
  for (int round = 0; round < rounds; ++round) {
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) call();
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - begin;
    per_call.push_back(elapsed.count() / calls);
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <arena2.map> [rounds] [calls per round]\n", argv[0]);
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
  const int calls = argc > 3 ? std::atoi(argv[3]) : 20000;

  const wayfinder::GridMap map = wayfinder::read_movingai_map(argv[1]);
  wayfinder::GridQuery pathfinder(map);
  wayfinder::PathResult result;
  double cost = 0.0;
  const double cpp = median_nanoseconds(rounds, calls, [&] {
    pathfinder.find_path({100, 41}, {98, 44}, {}, result);
    cost += result.cost;
  });

  wf_grid* grid = nullptr;
  wf_grid_query* query = nullptr;
  char error[512];
  if (wf_grid_load_movingai(argv[1], &grid, error, sizeof error) != WF_OK ||
      wf_grid_query_create(grid, &query, error, sizeof error) != WF_OK) {
    std::fprintf(stderr, "%s\n", error);
    return 1;
  }
  wf_path_result path{};
  const double c = median_nanoseconds(rounds, calls, [&] {
    wf_grid_query_find_path(query, 100, 41, 98, 44, nullptr, &path);
    cost += path.cost;
  });
  // Start = goal: the search does almost nothing, so the call's fixed costs dominate.
  const double c_trivial = median_nanoseconds(rounds, calls, [&] {
    wf_grid_query_find_path(query, 100, 41, 100, 41, nullptr, &path);
    cost += path.cost + static_cast<double>(path.node_count);
  });
  std::int32_t cells[16];
  std::size_t count = 0;
  const double c_with_cells = median_nanoseconds(rounds, calls, [&] {
    wf_grid_query_find_path(query, 100, 41, 98, 44, nullptr, &path);
    wf_grid_query_path_cells(query, cells, 8, &count);
    cost += path.cost + static_cast<double>(count);
  });
  std::uint64_t revision = 0, revisions = 0;
  const double c_read = median_nanoseconds(rounds, calls, [&] {
    wf_grid_revision(grid, &revision);
    revisions += revision + 1;
  });
  wf_grid_query_destroy(query);
  wf_grid_destroy(grid);

  std::printf("C++ GridQuery::find_path                 %8.1f ns/call\n", cpp);
  std::printf("C   wf_grid_query_find_path              %8.1f ns/call\n", c);
  std::printf("C   find_path + wf_grid_query_path_cells %8.1f ns/call\n", c_with_cells);
  std::printf("C   wf_grid_query_find_path, start = goal %7.1f ns/call\n", c_trivial);
  std::printf("C   wf_grid_revision (a call doing nothing) %5.1f ns/call\n", c_read);
  std::printf("(checksum %.1f %llu)\n", cost, static_cast<unsigned long long>(revisions));
  return 0;
}
