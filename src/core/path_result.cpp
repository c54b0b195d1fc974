#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

std::string_view to_string(SearchStatus status) {
  switch (status) {
    case SearchStatus::in_progress: return "in_progress";
    case SearchStatus::found: return "found";
    case SearchStatus::partial: return "partial";
    case SearchStatus::no_path: return "no_path";
    case SearchStatus::budget_exhausted: return "budget_exhausted";
    case SearchStatus::invalid_input: return "invalid_input";
    case SearchStatus::world_changed: return "world_changed";
  }
  return "unknown";
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::none: return "none";
    case StopReason::goal_reached: return "goal_reached";
    case StopReason::open_list_empty: return "open_list_empty";
    case StopReason::expansion_limit: return "expansion_limit";
    case StopReason::cost_limit: return "cost_limit";
    case StopReason::time_limit: return "time_limit";
    case StopReason::memory_limit: return "memory_limit";
    case StopReason::invalid_input: return "invalid_input";
    case StopReason::world_changed: return "world_changed";
    case StopReason::gave_up: return "gave_up";
  }
  return "unknown";
}

}  // namespace wayfinder
