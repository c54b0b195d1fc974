#pragma once
// The stop policy every search shares: when the query's Budget ends a search, when a step's
// StepBudget pauses it, how often the clock is read, and what status a stop gives. The engine,
// bidirectional A*, IDA*, the breadth-first wave, the reactive walkers and the exact navmesh
// search all decide with these pieces (docs/architecture.md, "The engine").

#include <chrono>
#include <cstdint>
#include <type_traits>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/run_outcome.hpp"

namespace wayfinder {

/// For searches that do not measure their state's memory: Budget::max_memory_bytes is not checked.
struct NoMemoryMeasure {};
/// For searches whose cost bound is checked elsewhere (or not at all).
struct NoCostCheck {
  constexpr bool operator()() const { return false; }
};

/// One step's clock: made when step() begins, asked before every expansion.
///
/// Guarantees (the same for every search that uses it):
/// - The query's Budget ends the search, checked in this order: max_expansions (over the whole
///   search), max_cost (the search's own bound, passed in), max_time (the search's time before
///   this step plus this step's) and max_memory_bytes. Time and memory are read only when the
///   expansions so far are a multiple of Budget::time_check_interval.
/// - The step's StepBudget only pauses the search: its expansions, and its time, read every
///   StepBudget::time_check_interval expansions of the step and never before the first of them.
class SearchClock {
 public:
  using clock = std::chrono::steady_clock;

  /// `spent_microseconds`: the search's time before this step (set-up and earlier steps).
  SearchClock(const Budget& budget, const StepBudget& step, double spent_microseconds)
      : max_expansions_(budget.max_expansions), max_memory_(budget.max_memory_bytes),
        time_limit_us_(std::chrono::duration<double, std::micro>(budget.max_time).count()),
        spent_us_(spent_microseconds), step_(step), check_cost_(budget.max_cost != infinite_cost),
        timed_(budget.max_time.count() > 0), memory_capped_(budget.max_memory_bytes != 0) {}

  /// Why the query's budget ends the search before the next expansion, after `expanded` in all,
  /// or StopReason::none. `over_cost()` tells whether no path within max_cost can remain (asked
  /// only when max_cost is finite); `memory_bytes()` measures the search state (NoMemoryMeasure
  /// when the search has none to measure).
  template <class OverCost, class MemoryBytes>
  [[nodiscard]] WAYFINDER_FORCE_INLINE StopReason budget_stop(std::uint64_t expanded, OverCost&& over_cost,
                                                              MemoryBytes&& memory_bytes) const {
    if (expanded >= max_expansions_) return StopReason::expansion_limit;
    if (check_cost_ && over_cost()) return StopReason::cost_limit;
    if (timed_ && expanded % Budget::time_check_interval == 0 && microseconds() >= time_limit_us_)
      return StopReason::time_limit;
    if constexpr (!std::is_same_v<std::remove_cvref_t<MemoryBytes>, NoMemoryMeasure>) {
      if (memory_capped_ && expanded % Budget::time_check_interval == 0 && memory_bytes() > max_memory_)
        return StopReason::memory_limit;
    }
    return StopReason::none;
  }

  /// Whether the step's limits are spent after `done` expansions in this step.
  [[nodiscard]] WAYFINDER_FORCE_INLINE bool step_over(std::uint64_t done) const {
    return done >= step_.max_expansions || step_time_is_up(step_, done, started_);
  }

  /// For loops that run chunks of StepBudget::time_check_interval expansions: whether the
  /// step's time is spent (reads the clock when the step is timed).
  [[nodiscard]] bool step_time_spent() const { return step_.timed() && clock::now() - started_ >= step_.max_time; }

  /// The search's time so far: before this step plus this step's, in microseconds.
  [[nodiscard]] double microseconds() const { return spent_us_ + step_microseconds(); }
  /// This step's time so far, in microseconds.
  [[nodiscard]] double step_microseconds() const {
    return std::chrono::duration<double, std::micro>(clock::now() - started_).count();
  }
  [[nodiscard]] const StepBudget& step() const { return step_; }

 private:
  std::uint64_t max_expansions_;
  std::size_t max_memory_;
  double time_limit_us_;
  double spent_us_;
  StepBudget step_;
  // Which limits are set, as flags the loop tests without loading its limits.
  bool check_cost_;
  bool timed_;
  bool memory_capped_;
  clock::time_point started_ = clock::now();
};

}  // namespace wayfinder
