// The periodic door: a door on the short route opens and closes faster than the detour can be
// walked. An agent that replans on every change and always takes the cheapest route turns back
// and forth and never arrives; GridAgent (commit to an intact path, replan only when it breaks)
// arrives within a bounded number of steps. Also: waiting for the only way to open, and giving up.

#include <gtest/gtest.h>

#include <string>

#include "grid_test_support.hpp"
#include "wayfinder/grid/replanning/grid_agent.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

// 21 x 18: a wall down column 10 with a gap at the top (the detour) and a door at the bottom
// (the short route); the agent goes from (1,16) to (19,16).
constexpr Cell door{10, 16};
constexpr Cell start{1, 16};
constexpr Cell goal{19, 16};

GridMap walled_map() {
  GridMap map(21, 18);
  map.block_rect({10, 1, 1, 17});
  return map;
}

/// The door's state at tick t: shut for `half` ticks, open for `half`, from `phase` on.
bool door_shut(int tick, int half, int phase) { return ((tick + phase) / half) % 2 == 0; }

/// Steps the agent takes (or -1 if it never arrives within `ticks`) when it replans after
/// every change and always follows the cheapest route.
int naive_agent_steps(int half, int phase, int ticks) {
  GridMap map = walled_map();
  GridQuery pathfinder(map);
  Cell at = start;
  PathResult plan;
  std::size_t next = 0;
  std::uint64_t planned_at = ~std::uint64_t{0};
  for (int tick = 0; tick < ticks; ++tick) {
    if (door_shut(tick, half, phase)) map.block(door); else map.unblock(door);
    if (at == goal) return tick;
    if (map.revision() != planned_at) {
      plan = pathfinder.find_path(at, goal);
      planned_at = map.revision();
      next = 0;
    }
    if (!plan.found() || next + 1 >= plan.nodes.size()) continue;  // wait
    at = map.cell_of(plan.nodes[++next]);
  }
  return -1;
}

TEST(GridAgent, APeriodicDoorTrapsTheNaiveAgentButNotTheCommittedOne) {
  const GridMap open_map = walled_map();
  GridQuery probe(open_map);
  const PathResult detour = probe.find_path(start, goal);  // the door is part of the wall here: detour only
  GridMap door_open = walled_map();
  door_open.unblock(door);
  GridQuery probe_open(door_open);
  const PathResult short_route = probe_open.find_path(start, goal);
  ASSERT_TRUE(detour.found() && short_route.found());
  const std::size_t detour_steps = detour.nodes.size() - 1;
  const std::size_t short_steps = short_route.nodes.size() - 1;
  ASSERT_GT(detour_steps, short_steps + 10) << "the detour must be much longer than the short route";

  int naive_looped = 0;
  int schedules = 0;
  for (const int half : {2, 3, 4}) {
    ASSERT_LT(2 * half, static_cast<int>(detour_steps)) << "the door's period must be shorter than the detour";
    for (int phase = 0; phase < 2 * half; ++phase) {
      SCOPED_TRACE("door shut and open for " + std::to_string(half) + " ticks each, phase " + std::to_string(phase));
      ++schedules;
      if (naive_agent_steps(half, phase, 2000) < 0) ++naive_looped;

      GridMap map = walled_map();
      GridAgent agent(map, start, goal);
      AgentState state = AgentState::walking;
      int tick = 0;
      for (; tick < 2000 && state == AgentState::walking; ++tick) {
        if (door_shut(tick, half, phase)) map.block(door); else map.unblock(door);
        state = agent.tick();
      }
      ASSERT_EQ(state, AgentState::arrived) << agent.message();
      // Bounded: at worst it walks to the door, finds it shut, and takes the detour from there.
      EXPECT_LE(agent.steps_taken(), short_steps + detour_steps);
      EXPECT_LE(agent.ticks_waited(), 0u) << "there is always the detour: no need to wait";
      EXPECT_LE(agent.replans(), 3u);
    }
  }
  EXPECT_EQ(naive_looped, schedules) << "on this map the naive agent loops under every door schedule tried";
}

TEST(GridAgent, WaitsForTheOnlyWayToOpenAndGivesUpAfterItsPatience) {
  GridMap map(12, 5);
  map.block_rect({6, 0, 1, 5});  // a wall across the whole map
  GridAgentOptions options;
  options.patience = 5;
  GridAgent agent(map, {1, 2}, {10, 2}, options);
  EXPECT_EQ(agent.tick(), AgentState::walking) << "no way yet: it waits";
  EXPECT_EQ(agent.ticks_waited(), 1u);
  map.unblock({6, 2});  // the gate opens
  AgentState state = AgentState::walking;
  for (int tick = 0; tick < 50 && state == AgentState::walking; ++tick) state = agent.tick();
  EXPECT_EQ(state, AgentState::arrived);
  EXPECT_EQ(agent.position(), (Cell{10, 2}));

  GridMap shut(12, 5);
  shut.block_rect({6, 0, 1, 5});
  GridAgent stuck(shut, {1, 2}, {10, 2}, options);
  for (int tick = 0; tick < 50 && state != AgentState::unreachable; ++tick) state = stuck.tick();
  EXPECT_EQ(stuck.state(), AgentState::unreachable);
  EXPECT_EQ(stuck.ticks_waited(), options.patience + 1);
  EXPECT_NE(stuck.message().find("no way to the goal"), std::string::npos) << stuck.message();
}

TEST(GridAgent, KeepsAnIntactPathAndRefusesBadStarts) {
  GridMap map(30, 10);
  GridAgent agent(map, {0, 0}, {29, 9});
  ASSERT_EQ(agent.tick(), AgentState::walking);
  const std::size_t replans = agent.replans();
  map.block({0, 9});  // far from the path: no replan
  map.set_cost(1, 8, 0.5f);  // a cheaper cell elsewhere does not call it away either
  agent.tick();
  EXPECT_EQ(agent.replans(), replans);
  const std::vector<NodeId> ahead = agent.remaining_path();
  ASSERT_GE(ahead.size(), 3u);
  map.block(map.cell_of(ahead[2]));  // a step ahead breaks
  agent.tick();
  EXPECT_EQ(agent.replans(), replans + 1);
  EXPECT_TRUE(check_grid_path(map, agent.remaining_path(), DiagonalMode::only_if_no_obstacles).valid);

  GridAgent outside(map, {-4, 0}, {3, 3});
  EXPECT_EQ(outside.tick(), AgentState::unreachable);
  EXPECT_NE(outside.message().find("outside"), std::string::npos) << outside.message();
}

}  // namespace
}  // namespace wayfinder
