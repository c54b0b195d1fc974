#include "wayfinder/grid/replanning/grid_replanner_base.hpp"

namespace wayfinder {

namespace {
std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

PathResult no_plan(PathResult result, std::string why) {
  result.status = SearchStatus::no_path;
  result.reason = StopReason::open_list_empty;
  result.message = std::move(why);
  return result;
}
}  // namespace

PathResult GridReplannerBase::path() const {
  PathResult result;
  result.reason = StopReason::goal_reached;
  result.stats.expanded = last_expansions_;
  if (!has_plan()) return no_plan(std::move(result), message_.empty() ? "no plan: call plan() first" : message_);
  NodeId at = map_.id_of(start_);
  const NodeId goal = map_.id_of(goal_);
  result.nodes.push_back(at);
  Cost total = 0.0;
  while (at != goal && result.nodes.size() <= map_.cell_count()) {
    const std::pair<NodeId, Cost> next = next_move(at);
    if (next.first == invalid_node || next.second == infinite_cost) break;
    total += next.second;
    at = next.first;
    result.nodes.push_back(at);
  }
  if (at != goal) {
    result.nodes.clear();
    return no_plan(std::move(result), "the plan is stale: call plan() after move_to() or notify_changes()");
  }
  result.status = SearchStatus::found;
  result.cost = total;
  result.points.reserve(result.nodes.size());
  for (const NodeId node : result.nodes) result.points.push_back(GridMap::centre(map_.cell_of(node)));
  return result;
}

std::size_t GridReplannerBase::notify_changes() {
  const auto changes = map_.changes_since(seen_revision_);
  seen_revision_ = map_.revision();
  if (!changes) {
    start_over_ = true;  // the log no longer reaches back: nothing learned can be trusted
    return 0;
  }
  for (const GridCellChange& change : *changes) changed_cells_.push_back(map_.id_of(change.cell));
  // A cell cheaper than the cheapest one the heuristic was scaled by would make it overestimate.
  if (static_cast<double>(map_.min_cost()) < heuristic_scale_) start_over_ = true;
  return changes->size();
}

bool GridReplannerBase::ends_on_the_map() {
  if (static_cast<unsigned>(diagonal_) > static_cast<unsigned>(DiagonalMode::always)) {
    message_ = "unknown diagonal mode " + std::to_string(static_cast<unsigned>(diagonal_));
    return false;
  }
  if (!map_.contains(start_) || !map_.contains(goal_)) {
    message_ = std::string(map_.contains(start_) ? "goal " + cell_text(goal_) : "start " + cell_text(start_)) +
               " is outside the " + std::to_string(map_.width()) + "x" + std::to_string(map_.height()) + " map";
    return false;
  }
  return true;
}

bool GridReplannerBase::ends_passable() {
  if (map_.passable(start_) && map_.passable(goal_)) return true;
  message_ = std::string(map_.passable(start_) ? "goal " + cell_text(goal_) : "start " + cell_text(start_)) +
             " is blocked";
  return false;
}

void GridReplannerBase::say_unreachable() {
  message_ = "the goal " + cell_text(goal_) + " cannot be reached from " + cell_text(start_);
}

void GridReplannerBase::started_over() {
  changed_cells_.clear();
  heuristic_scale_ = static_cast<double>(map_.min_cost());
  initialised_ = true;
  start_over_ = false;
}

}  // namespace wayfinder
