// PathRequestQueue: requests advanced a frame budget at a time must give the one-shot answers,
// never spend more than the frame's expansion budget, start in submission order, let short
// searches through while a long one runs, and forget cancelled or collected tickets.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "query_test_support.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

struct QueueRun {
  std::size_t frames = 0;
  std::uint64_t worst_frame_expansions = 0;
  std::vector<PathResult> results;
};

/// Submits every request, then calls update(budget) once a frame until the queue is idle,
/// checking each frame against the budget, and collects the results by ticket.
template <class World>
QueueRun drain(const World& world, const std::vector<RequestFor<World>>& requests, const StepBudget& budget,
               PathRequestQueueSettings settings = {}) {
  PathRequestQueue<World> queue(world, settings);
  std::vector<PathTicket> tickets;
  for (const auto& request : requests) tickets.push_back(queue.submit(request));
  QueueRun run;
  while (!queue.idle()) {
    const QueueUpdate frame = queue.update(budget);
    ++run.frames;
    run.worst_frame_expansions = std::max(run.worst_frame_expansions, frame.expansions);
    EXPECT_LE(frame.expansions, budget.max_expansions) << "frame " << run.frames;
    if (run.frames > 1'000'000) {
      ADD_FAILURE() << "the queue never became idle";
      break;
    }
  }
  for (const PathTicket ticket : tickets) {
    EXPECT_EQ(queue.state(ticket), TicketState::finished);
    PathResult result;
    EXPECT_TRUE(queue.take_result(ticket, result));
    EXPECT_EQ(queue.state(ticket), TicketState::unknown) << "a collected ticket is forgotten";
    run.results.push_back(std::move(result));
  }
  return run;
}

template <class World>
void expect_one_shot_answers(const World& world, const std::vector<RequestFor<World>>& requests,
                             const std::vector<PathResult>& results) {
  ASSERT_EQ(results.size(), requests.size());
  QueryFor<World> query(world);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    PathResult expected;
    query.find_path(requests[i], expected);
    EXPECT_EQ(result_difference(expected, results[i]), "") << "request " << i;
  }
}

std::vector<GridPathRequest> agent_requests(const GridMap& map, std::size_t count, std::uint64_t seed) {
  TestRandom random(seed);
  const std::vector<Cell> cells = passable_cells(map);
  std::vector<GridPathRequest> requests;
  const GridAlgorithm algorithms[] = {GridAlgorithm::astar, GridAlgorithm::jump_point, GridAlgorithm::bidirectional_astar,
                                      GridAlgorithm::weighted_astar, GridAlgorithm::breadth_first, GridAlgorithm::dijkstra};
  for (std::size_t i = 0; i < count; ++i) {
    GridPathRequest request;
    request.start = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    request.goal = cells[static_cast<std::size_t>(random.between(0, static_cast<int>(cells.size()) - 1))];
    request.options.algorithm = algorithms[i % std::size(algorithms)];
    requests.push_back(request);
  }
  return requests;
}

TEST(PathRequestQueue, TwoHundredAgentsOnAMovingAiMapGetTheOneShotAnswers) {
  const std::filesystem::path map_path = data_directory() / "movingai" / "dao" / "den520d.map";
  if (!std::filesystem::exists(map_path)) {
    if (data_required()) FAIL() << map_path << " not found; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << map_path << " not found";
  }
  const GridMap map = read_movingai_map(map_path);
  // The scenario's queries spread over its length buckets: short and long searches mixed.
  const Scenario scenario = read_movingai_scenario(map_path.string() + ".scen");
  const std::size_t agents = sanitized_build() ? 50 : 200;
  std::vector<GridPathRequest> requests;
  const std::size_t stride = std::max<std::size_t>(1, scenario.queries.size() / agents);
  for (std::size_t i = 0; i < scenario.queries.size() && requests.size() < agents; i += stride)
    requests.push_back({scenario.queries[i].start, scenario.queries[i].goal, {}});
  ASSERT_EQ(requests.size(), agents);

  const QueueRun run = drain(map, requests, StepBudget::expansions(1000));
  expect_one_shot_answers(map, requests, run.results);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    ASSERT_TRUE(run.results[i].found()) << "query " << i;
    EXPECT_NEAR(run.results[i].cost, scenario.queries[i * stride].optimal_length, 1e-3)  // the file rounds to 3 decimals
        << "query " << i;
  }
  EXPECT_GT(run.frames, 1u) << "a thousand expansions a frame cannot answer every agent at once";
  EXPECT_EQ(run.worst_frame_expansions, 1000u) << "frames before the last are used in full";
}

TEST(PathRequestQueue, EveryGridAlgorithmStepsToTheOneShotAnswer) {
  TestRandom random(7);
  for (int round = 0; round < 6; ++round) {
    const GridMap map = random_map(random, {20, 60, 0.35, round % 2 == 0 ? 0.0 : 1.0});
    std::vector<GridPathRequest> requests = agent_requests(map, 40, 100 + static_cast<std::uint64_t>(round));
    if (!map.uniform_cost())
      for (GridPathRequest& request : requests)
        if (request.options.algorithm == GridAlgorithm::jump_point) request.options.algorithm = GridAlgorithm::astar;
    requests.push_back({{-3, 0}, {0, 0}, {}});  // invalid input finishes at once
    for (const std::uint64_t budget : {1ull, 17ull, 500ull}) {
      const QueueRun run = drain(map, requests, StepBudget::expansions(budget), {3, 5});
      expect_one_shot_answers(map, requests, run.results);
      EXPECT_EQ(run.results.back().status, SearchStatus::invalid_input);
    }
  }
}

TEST(PathRequestQueue, TimeBudgetsGiveTheSameAnswers) {
  TestRandom random(8);
  const GridMap map = random_map(random, {80, 120, 0.3, 0.5});
  const std::vector<GridPathRequest> requests = agent_requests(map, 30, 9);
  StepBudget both = StepBudget::time(std::chrono::microseconds(50));
  both.max_expansions = 300;
  for (const StepBudget& budget : {StepBudget::time(std::chrono::microseconds(50)), both}) {
    const QueueRun run = drain(map, requests, budget);
    expect_one_shot_answers(map, requests, run.results);
  }
}

TEST(PathRequestQueue, ALongSearchDoesNotHoldUpShortOnes) {
  // An open 200 x 200 map: a Dijkstra corner to corner expands about 40,000 cells; the short
  // requests submitted after it each take a few dozen.
  const GridMap map(200, 200);
  std::vector<GridPathRequest> requests;
  GridPathRequest long_request{{0, 0}, {199, 199}, {}};
  long_request.options.algorithm = GridAlgorithm::dijkstra;
  requests.push_back(long_request);
  for (int i = 0; i < 20; ++i) requests.push_back({{i, 100}, {i + 5, 103}, {}});

  PathRequestQueue<GridMap> queue(map, {2, 64});
  std::vector<PathTicket> tickets;
  for (const auto& request : requests) tickets.push_back(queue.submit(request));
  EXPECT_EQ(queue.waiting_count(), requests.size());
  std::size_t frames = 0;
  while (queue.state(tickets[0]) != TicketState::finished) {
    queue.update(StepBudget::expansions(256));
    ++frames;
    ASSERT_LT(frames, 10'000u);
  }
  for (std::size_t i = 1; i < tickets.size(); ++i)
    EXPECT_EQ(queue.state(tickets[i]), TicketState::finished) << "short request " << i << " waited for the long one";
  EXPECT_TRUE(queue.idle());
  EXPECT_EQ(queue.finished_count(), tickets.size());
}

TEST(PathRequestQueue, RequestsStartInSubmissionOrder) {
  const GridMap map(50, 50);
  PathRequestQueue<GridMap> queue(map, {1, 1'000'000});
  const PathTicket first = queue.submit({{0, 0}, {49, 49}, {}});
  const PathTicket second = queue.submit({{0, 0}, {1, 1}, {}});
  queue.update(StepBudget::expansions(1));
  EXPECT_EQ(queue.state(first), TicketState::searching);
  EXPECT_EQ(queue.state(second), TicketState::waiting);
  queue.update(StepBudget{});
  EXPECT_EQ(queue.state(first), TicketState::finished);
  EXPECT_EQ(queue.state(second), TicketState::finished);
}

TEST(PathRequestQueue, CancelledAndUnknownTickets) {
  const GridMap map(60, 60);
  PathRequestQueue<GridMap> queue(map, {1, 10});
  const PathTicket searching = queue.submit({{0, 0}, {59, 59}, {}});
  const PathTicket waiting = queue.submit({{0, 0}, {59, 0}, {}});
  const PathTicket finished = queue.submit({{5, 5}, {5, 5}, {}});
  queue.update(StepBudget::expansions(5));
  ASSERT_EQ(queue.state(searching), TicketState::searching);
  ASSERT_EQ(queue.state(waiting), TicketState::waiting);
  EXPECT_TRUE(queue.cancel(searching));
  EXPECT_TRUE(queue.cancel(waiting));
  EXPECT_FALSE(queue.cancel(waiting)) << "a ticket is cancelled once";
  EXPECT_EQ(queue.state(searching), TicketState::unknown);
  EXPECT_EQ(queue.state(waiting), TicketState::unknown);
  const QueueUpdate frame = queue.update(StepBudget{});
  EXPECT_EQ(frame.started, 1u) << "only the request still queued starts";
  EXPECT_EQ(queue.state(finished), TicketState::finished);
  PathResult result;
  result.message = "untouched";
  EXPECT_FALSE(queue.take_result(searching, result));
  EXPECT_EQ(result.message, "untouched");
  EXPECT_FALSE(queue.take_result(PathTicket{}, result));
  EXPECT_FALSE(queue.take_result(PathTicket{12345}, result));
  EXPECT_TRUE(queue.cancel(finished)) << "a finished result can be dropped uncollected";
  EXPECT_TRUE(queue.idle());
  EXPECT_EQ(queue.finished_count(), 0u);
}

TEST(PathRequestQueue, RejectsSettingsThatCouldNeverRun) {
  const GridMap map(4, 4);
  EXPECT_THROW(PathRequestQueue<GridMap>(map, {0, 10}), std::invalid_argument);
  EXPECT_THROW(PathRequestQueue<GridMap>(map, {2, 0}), std::invalid_argument);
}

TEST(PathRequestQueue, NavMeshRequestsGetTheOneShotAnswers) {
  // A 12 x 10 grid of unit squares with a few holes.
  TestRandom random(3);
  std::vector<Point> centres;
  const MeshGeometry geometry = holey_square_mesh(12, 10, 0.15, random, centres);
  const NavMesh mesh = NavMesh::build(geometry);
  std::vector<NavMeshPathRequest> requests;
  for (int i = 0; i < 40; ++i) {
    NavMeshPathRequest request;
    request.start = centres[static_cast<std::size_t>(random.between(0, static_cast<int>(centres.size()) - 1))];
    request.goal = centres[static_cast<std::size_t>(random.between(0, static_cast<int>(centres.size()) - 1))];
    if (i % 2 == 1) request.options.nodes = CorridorNodes::polygon_centroids;
    requests.push_back(request);
  }
  requests.push_back({{-9.0, 0.0, -9.0}, centres.front(), {}});  // off the mesh
  for (const std::uint64_t budget : {3ull, 100ull}) {
    const QueueRun run = drain(mesh, requests, StepBudget::expansions(budget), {3, 7});
    expect_one_shot_answers(mesh, requests, run.results);
  }
}

TEST(PathRequestQueue, VoxelRequestsOfTwoAgentKindsGetTheOneShotAnswers) {
  const VoxelWorld world = VoxelWorld::from_function(30, 8, 30, [](int x, int y, int z) {
    if (y == 0) return BlockKind::solid;
    if (x == 15 && z != 4 && y < 4) return BlockKind::solid;  // a wall with one gap
    return BlockKind::air;
  });
  std::vector<VoxelPathRequest> requests;
  for (int i = 0; i < 12; ++i) {
    VoxelPathRequest request{{1 + i, 1, 2 + i}, {28 - i, 1, 27 - i}, {}};
    if (i % 2 == 1) request.options.profile = MovementProfile::flyer();  // the same queue, another agent
    requests.push_back(request);
  }
  const QueueRun run = drain(world, requests, StepBudget::expansions(50), {2, 16});
  expect_one_shot_answers(world, requests, run.results);
  // A request's profile answers as a pathfinder built for that agent does.
  VoxelQuery walker(world, MovementProfile::walker());
  VoxelQuery flyer(world, MovementProfile::flyer());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_TRUE(run.results[i].found()) << "request " << i;
    VoxelPathRequest own = requests[i];
    own.options.profile.reset();
    PathResult expected;
    (i % 2 == 1 ? flyer : walker).find_path(own, expected);
    EXPECT_EQ(result_difference(expected, run.results[i]), "") << "request " << i;
  }
  VoxelPathRequest as_walker = requests[1];
  as_walker.options.profile.reset();
  PathResult walked;
  walker.find_path(as_walker, walked);
  EXPECT_TRUE(walked.nodes != run.results[1].nodes || walked.cost != run.results[1].cost)
      << "a flyer and a walker should not move alike over a wall";
}

}  // namespace
}  // namespace wayfinder
