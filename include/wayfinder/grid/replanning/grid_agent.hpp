#pragma once
// An agent that walks a grid that changes under it, one cell per tick, without looping between
// routes (why an agent that always takes the cheapest route can loop for ever, and the policy
// below, are in docs/changing-worlds.md).
//
// The policy:
//  - Commitment: the agent keeps its path as long as the path is intact. It checks the path
//    against the edits since it was planned (first_blocked_step) before every step and replans
//    only when a step ahead is broken (blocked, a corner closed, dearer), never just because a
//    cheaper route has appeared. Once it has turned to a detour, a door reopening behind it
//    does not call it back; so with one door it arrives within (path to the door) + (detour)
//    steps, whatever the door's period.
//  - Waiting: when no path exists (the only way is shut), it waits in place and tries again each
//    tick, up to `patience` ticks in a row; then it reports the goal unreachable.
//  - A bound: at most `max_replans` replans in all (a world that keeps breaking every route
//    faster than it can be walked), then it reports unreachable.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"

namespace wayfinder {

struct GridAgentOptions {
  /// How the agent plans (A* by default; the diagonal rule is also the one its path is checked
  /// under).
  GridSearchOptions search;
  /// Ticks in a row the agent waits for a way to open before it gives up.
  std::size_t patience = 64;
  /// Replans allowed in all before it gives up.
  std::size_t max_replans = 1000;
};

enum class AgentState : std::uint8_t {
  walking,      ///< on its way (or waiting for a way to open)
  arrived,      ///< at the goal
  unreachable,  ///< gave up: see GridAgent::message()
};

class GridAgent {
 public:
  /// Lifetime: the agent keeps a reference to `map`, which must outlive it. Nothing is planned
  /// until the first tick().
  GridAgent(const GridMap& map, Cell start, Cell goal, GridAgentOptions options = {});
  GridAgent(const GridMap&& map, Cell start, Cell goal, GridAgentOptions options = {}) = delete;

  /// One tick: plans if it has no path, checks the path against the edits since it was planned
  /// and replans if a step ahead is broken, then takes one step (or waits).
  AgentState tick();

  [[nodiscard]] AgentState state() const { return state_; }
  [[nodiscard]] Cell position() const { return position_; }
  [[nodiscard]] Cell goal() const { return goal_; }
  /// The path the agent is following, from its current cell (cell ids).
  [[nodiscard]] std::vector<NodeId> remaining_path() const;
  [[nodiscard]] std::size_t steps_taken() const { return steps_; }
  [[nodiscard]] std::size_t ticks_waited() const { return waited_; }
  [[nodiscard]] std::size_t replans() const { return replans_; }
  /// Why the agent gave up ("" otherwise).
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  bool replan();

  const GridMap& map_;
  Cell position_;
  Cell goal_;
  GridAgentOptions options_;
  GridQuery pathfinder_;
  PathResult plan_;
  std::size_t next_ = 0;  ///< index in plan_.nodes of the agent's cell
  std::uint64_t planned_revision_ = 0;
  bool has_plan_ = false;
  AgentState state_ = AgentState::walking;
  std::size_t steps_ = 0;
  std::size_t waited_ = 0;
  std::size_t waiting_in_a_row_ = 0;
  std::size_t replans_ = 0;
  std::string message_;
};

}  // namespace wayfinder
