#include "wayfinder/grid/replanning/grid_replanner_base.hpp"

namespace wayfinder {

namespace {
std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
}  // namespace

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
