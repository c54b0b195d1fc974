// Errors, names, versions and the conversions every world's bindings share.

#include <chrono>
#include <cstdio>
#include <limits>

#include "handles.hpp"
#include "options.hpp"
#include "wayfinder/core/area_filter.hpp"

namespace wayfinder::c_api {

// The C enumerations promise the C++ values; these keep the promise when either side changes.
static_assert(WF_SEARCH_IN_PROGRESS == static_cast<int>(SearchStatus::in_progress));
static_assert(WF_SEARCH_FOUND == static_cast<int>(SearchStatus::found));
static_assert(WF_SEARCH_PARTIAL == static_cast<int>(SearchStatus::partial));
static_assert(WF_SEARCH_NO_PATH == static_cast<int>(SearchStatus::no_path));
static_assert(WF_SEARCH_BUDGET_EXHAUSTED == static_cast<int>(SearchStatus::budget_exhausted));
static_assert(WF_SEARCH_INVALID_INPUT == static_cast<int>(SearchStatus::invalid_input));
static_assert(WF_SEARCH_WORLD_CHANGED == static_cast<int>(SearchStatus::world_changed));
static_assert(WF_STOP_NONE == static_cast<int>(StopReason::none));
static_assert(WF_STOP_GOAL_REACHED == static_cast<int>(StopReason::goal_reached));
static_assert(WF_STOP_OPEN_LIST_EMPTY == static_cast<int>(StopReason::open_list_empty));
static_assert(WF_STOP_EXPANSION_LIMIT == static_cast<int>(StopReason::expansion_limit));
static_assert(WF_STOP_COST_LIMIT == static_cast<int>(StopReason::cost_limit));
static_assert(WF_STOP_TIME_LIMIT == static_cast<int>(StopReason::time_limit));
static_assert(WF_STOP_INVALID_INPUT == static_cast<int>(StopReason::invalid_input));
static_assert(WF_STOP_WORLD_CHANGED == static_cast<int>(StopReason::world_changed));
static_assert(WF_STOP_GAVE_UP == static_cast<int>(StopReason::gave_up));
static_assert(WF_STOP_MEMORY_LIMIT == static_cast<int>(StopReason::memory_limit));

void record(ErrorSlot& slot, std::string_view text) noexcept {
  const std::size_t length = std::min(text.size(), sizeof slot.text - 1);
  std::memcpy(slot.text, text.data(), length);
  slot.text[length] = '\0';
}

const char* handle_type_name(HandleType type) noexcept {
  switch (type) {
    case HandleType::grid: return "wf_grid";
    case HandleType::grid_query: return "wf_grid_query";
    case HandleType::grid_derived: return "wf_grid_derived";
    case HandleType::navmesh: return "wf_navmesh";
    case HandleType::navmesh_query: return "wf_navmesh_query";
    case HandleType::voxel_world: return "wf_voxel_world";
    case HandleType::voxel_query: return "wf_voxel_query";
    case HandleType::voxel_hierarchy: return "wf_voxel_hierarchy";
    case HandleType::batch: return "wf_batch";
    case HandleType::crowd: return "wf_crowd";
    case HandleType::navmesh_tile_cache: return "wf_navmesh_tile_cache";
    case HandleType::crowd_flow_field: return "wf_crowd_flow_field";
    case HandleType::voxel_footprint: return "wf_voxel_footprint";
    case HandleType::destroyed: return nullptr;
  }
  return nullptr;
}

void describe_wrong_handle(char* buffer, std::size_t capacity, const void* handle, HandleType expected) noexcept {
  if (buffer == nullptr || capacity == 0) return;
  const char* wanted = handle_type_name(expected);
  const char* found = handle_type_name(header_of(handle)->type);
  if (found != nullptr)
    std::snprintf(buffer, capacity, "a %s was given where a %s is needed", found, wanted);
  else
    std::snprintf(buffer, capacity, "the handle given as a %s is not a live handle (destroyed, or never one)",
                  wanted);
}

void write_error(char* buffer, std::size_t capacity, std::string_view text) noexcept {
  if (buffer == nullptr || capacity == 0) return;
  const std::size_t length = std::min(text.size(), capacity - 1);
  std::memcpy(buffer, text.data(), length);
  buffer[length] = '\0';
}

wf_status fail(ErrorSlot& slot, wf_status status, std::string_view text) noexcept {
  record(slot, text);
  return status;
}

wf_status copy_text(ErrorSlot& slot, const char* what, const std::string& text, char* buffer, std::size_t capacity,
                    std::size_t* length) {
  if (length == nullptr) return fail(slot, WF_INVALID_ARGUMENT, std::string(what) + ": length is NULL");
  *length = text.size();
  if (buffer == nullptr && capacity == 0) return WF_OK;
  if (buffer == nullptr)
    return fail(slot, WF_INVALID_ARGUMENT, std::string(what) + ": the buffer is NULL but its capacity is not 0");
  if (capacity <= text.size())
    return fail(slot, WF_BUFFER_TOO_SMALL, std::string(what) + ": the buffer holds " + std::to_string(capacity) +
                                               " bytes but " + std::to_string(text.size() + 1) +
                                               " are needed (with the NUL)");
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  return WF_OK;
}

void summarise(const PathResult& result, wf_path_result* out) noexcept {
  out->status = static_cast<wf_search_status>(result.status);
  out->reason = static_cast<wf_stop_reason>(result.reason);
  out->cost = result.cost;
  out->node_count = result.nodes.size();
  out->point_count = result.points.size();
  out->stats.expanded = result.stats.expanded;
  out->stats.generated = result.stats.generated;
  out->stats.peak_open = result.stats.peak_open;
  out->stats.microseconds = result.stats.microseconds;
}

// Milliseconds as a C double to nanoseconds, refusing what has no meaning or would overflow
// the conversion (undefined behaviour in C++).
static std::chrono::nanoseconds checked_time(const char* what, double milliseconds) {
  constexpr double largest = 1e12;  // about 31 years: more is no limit anyone means
  if (!(milliseconds >= 0.0) || milliseconds > largest)
    throw std::invalid_argument(std::string(what) + " must be from 0 to 1e12, got " + std::to_string(milliseconds));
  return std::chrono::nanoseconds(static_cast<std::int64_t>(milliseconds * 1e6));
}

void apply_limits(const wf_query_limits& limits, QueryOptions& options) {
  if (std::isnan(limits.max_cost)) throw std::invalid_argument("limits.max_cost is NaN");
  options.budget.max_expansions = limits.max_expansions;
  options.budget.max_cost = limits.max_cost;
  options.budget.max_time = checked_time("limits.max_milliseconds", limits.max_milliseconds);
  options.return_partial = limits.return_partial != 0;
  options.partial_when_unreachable = limits.partial_when_unreachable != 0;
}

void default_limits(wf_query_limits& limits) noexcept {
  const QueryOptions defaults;
  limits.max_expansions = defaults.budget.max_expansions;
  limits.max_cost = defaults.budget.max_cost;
  limits.max_milliseconds = 0.0;
  limits.return_partial = defaults.return_partial ? 1 : 0;
  limits.partial_when_unreachable = defaults.partial_when_unreachable ? 1 : 0;
}

void check_enum(const char* what, int value, int last) {
  if (value < 0 || value > last)
    throw std::invalid_argument(std::string(what) + " is " + std::to_string(value) + ", not a value from 0 to " +
                                std::to_string(last));
}

StepBudget step_budget(std::uint64_t max_expansions, double max_milliseconds) {
  StepBudget budget;
  budget.max_expansions = max_expansions;
  budget.max_time = checked_time("max_milliseconds", max_milliseconds);
  return budget;
}

AreaFilter area_filter(const wf_area_filter& filter) {
  AreaFilter converted;
  for (std::size_t area = 0; area < converted.area_costs.size(); ++area) converted.area_costs[area] = filter.area_costs[area];
  converted.include_flags = filter.include_flags;
  converted.exclude_flags = filter.exclude_flags;
  return converted;
}

}  // namespace wayfinder::c_api

extern "C" {

const char* wf_version(void) { return WAYFINDER_C_VERSION; }

const char* wf_last_error(const void* handle) {
  using namespace wayfinder::c_api;
  if (handle == nullptr) return "wf_last_error: the handle is NULL";
  // Every handle is standard-layout and begins with its header (handles.hpp).
  const HandleHeader* header = header_of(handle);
  if (handle_type_name(header->type) == nullptr)
    return "wf_last_error: not a live handle of this API (destroyed, or never one)";
  return header->error.text;
}

const char* wf_status_name(wf_status status) {
  switch (wayfinder::c_api::raw_enum(status)) {
    case WF_OK: return "ok";
    case WF_INVALID_ARGUMENT: return "invalid_argument";
    case WF_LOAD_ERROR: return "load_error";
    case WF_OUT_OF_MEMORY: return "out_of_memory";
    case WF_BUFFER_TOO_SMALL: return "buffer_too_small";
    case WF_IN_USE: return "in_use";
    case WF_INTERNAL_ERROR: return "internal_error";
  }
  return "unknown";
}

const char* wf_search_status_name(wf_search_status status) {
  // The C++ names, so that logs read the same from either side.
  const int value = wayfinder::c_api::raw_enum(status);
  if (value < WF_SEARCH_IN_PROGRESS || value > WF_SEARCH_WORLD_CHANGED) return "unknown";
  return wayfinder::to_string(static_cast<wayfinder::SearchStatus>(status)).data();
}

void wf_area_filter_init(wf_area_filter* filter) {
  if (filter == nullptr) return;
  const wayfinder::AreaFilter defaults;
  for (int area = 0; area < WF_MAX_AREAS; ++area) filter->area_costs[area] = defaults.area_costs[static_cast<std::size_t>(area)];
  filter->include_flags = defaults.include_flags;
  filter->exclude_flags = defaults.exclude_flags;
}

}  // extern "C"
