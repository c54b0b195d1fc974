#include "wayfinder/grid/replanning/grid_agent.hpp"

#include <span>

#include "wayfinder/grid/paths/path_breaks.hpp"

namespace wayfinder {

GridAgent::GridAgent(const GridMap& map, Cell start, Cell goal, GridAgentOptions options)
    : map_(map), position_(start), goal_(goal), options_(options), pathfinder_(map) {}

bool GridAgent::replan() {
  if (replans_ >= options_.max_replans) {
    state_ = AgentState::unreachable;
    message_ = "gave up after " + std::to_string(replans_) + " replans: the way keeps breaking";
    return false;
  }
  ++replans_;
  pathfinder_.find_path(position_, goal_, options_.search, plan_);
  planned_revision_ = map_.revision();
  next_ = 0;
  has_plan_ = plan_.found();
  if (plan_.status == SearchStatus::invalid_input) {
    state_ = AgentState::unreachable;
    message_ = plan_.message;
    return false;
  }
  return has_plan_;
}

std::vector<NodeId> GridAgent::remaining_path() const {
  if (!has_plan_) return {};
  return {plan_.nodes.begin() + static_cast<std::ptrdiff_t>(next_), plan_.nodes.end()};
}

AgentState GridAgent::tick() {
  if (state_ != AgentState::walking) return state_;
  if (position_ == goal_) return state_ = AgentState::arrived;
  // Commitment: an intact path is kept; only a broken one is replanned.
  if (has_plan_) {
    const std::span<const NodeId> ahead(plan_.nodes.data() + next_, plan_.nodes.size() - next_);
    if (first_blocked_step(map_, ahead, planned_revision_, options_.search.diagonal)) has_plan_ = false;
  }
  if (!has_plan_ && !replan()) {
    if (state_ != AgentState::walking) return state_;
    // No way now: wait for one to open, within patience.
    ++waited_;
    if (++waiting_in_a_row_ > options_.patience) {
      state_ = AgentState::unreachable;
      message_ = "no way to the goal for " + std::to_string(options_.patience) + " ticks: " + plan_.message;
    }
    return state_;
  }
  waiting_in_a_row_ = 0;
  ++next_;
  position_ = map_.cell_of(plan_.nodes[next_]);
  ++steps_;
  if (position_ == goal_) state_ = AgentState::arrived;
  return state_;
}

}  // namespace wayfinder
