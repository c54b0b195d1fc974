// Finds a path around a wall on a small map, alone, in a two-thread batch and through the
// request queue; exits non-zero unless every answer is right.
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include <wayfinder/wayfinder.hpp>  // the umbrella header: everything in the core library

int main() {
  wayfinder::GridMap map(8, 5);
  for (int y = 0; y < 4; ++y) map.set_passable(4, y, false);  // a wall with a gap at the bottom

  wayfinder::GridQuery pathfinder(map);
  const wayfinder::PathResult result = pathfinder.find_path({0, 0}, {7, 0});
  if (!result.found()) {
    std::printf("no path: %s\n", result.message.c_str());
    return 1;
  }
  // Down to the gap at (4,4) and back up. Without corner cutting the wall's end (4,3) cannot be
  // passed diagonally, so the gap is entered from (3,4) and left to (5,4): the optimum is
  // 3 diagonals + 1 down to (3,4), 2 across to (5,4), then 2 diagonals + 2 up: 5 + 5 sqrt 2.
  const double expected = 5.0 + 5.0 * std::sqrt(2.0);
  std::printf("path of %zu cells, cost %.5f (expected %.5f)\n", result.nodes.size(), result.cost, expected);
  if (std::abs(result.cost - expected) >= 1e-9) return 1;

  // The same request in a batch on two threads (the package links the thread library) and
  // through the frame-budgeted queue.
  const std::vector<wayfinder::GridPathRequest> requests(6, wayfinder::GridPathRequest{{0, 0}, {7, 0}, {}});
  std::vector<wayfinder::PathResult> results;
  wayfinder::solve_batch(map, std::span<const wayfinder::GridPathRequest>(requests), results, 2);
  for (const wayfinder::PathResult& batch_result : results)
    if (batch_result.cost != result.cost || batch_result.nodes != result.nodes) return 1;
  wayfinder::PathRequestQueue<wayfinder::GridMap> queue(map);
  const wayfinder::PathTicket ticket = queue.submit(requests[0]);
  int frames = 0;
  while (!queue.idle() && frames < 100) {
    queue.update(wayfinder::StepBudget::expansions(5));
    ++frames;
  }
  wayfinder::PathResult queued;
  if (!queue.take_result(ticket, queued) || queued.cost != result.cost) return 1;
  std::printf("batch and queue agree (%d frames of 5 expansions)\n", frames);
  return 0;
}
