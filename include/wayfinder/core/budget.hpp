#pragma once
// Limits on one search. A game gives a search a budget so that it never stalls a frame.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct Budget {
  static constexpr std::uint64_t unlimited_expansions = std::numeric_limits<std::uint64_t>::max();

  /// Stop after this many node expansions (over the whole search, across steps).
  std::uint64_t max_expansions = unlimited_expansions;
  /// Stop once no path cheaper than this can exist (the best f on the open list exceeds it).
  /// Non-negative; infinity means no limit (NaN or negative: invalid_input).
  Cost max_cost = infinite_cost;
  /// Stop once the search has run this long in total (summed over steps, set-up included); zero
  /// means no limit, negative is invalid_input. Checked every time_check_interval expansions, so
  /// a search may overrun by that much work.
  std::chrono::nanoseconds max_time{0};
  /// Stop once the query object's search state holds more than this many bytes; zero means no
  /// limit (StopReason::memory_limit). Checked with the clock, so a search may overrun by what
  /// time_check_interval expansions allocate (for the voxel worlds' paged state, a few pages of
  /// about 80 KiB at most per expansion). What counts is the context's own measure: the pages a
  /// paged context holds (VoxelQuery gives back pages kept from earlier queries when they
  /// alone exceed the limit), the arrays a dense context has reserved for the world's node
  /// count (so a limit below that stops a grid or mesh search at once). Checked by every search
  /// but the reactive walkers (which hold no search state): the engine's searches,
  /// bidirectional A*, the grid's breadth-first wave (its arrays, counted the same way), IDA*
  /// (its table and its path), the exact navmesh search (its per-query state) and both
  /// hierarchies' queries (their contexts together) (docs/architecture.md, "The engine").
  std::size_t max_memory_bytes = 0;

  /// How often (in expansions) the clock is read for max_time (see docs/architecture.md).
  static constexpr std::uint64_t time_check_interval = 64;

  [[nodiscard]] bool unlimited() const {
    return max_expansions == unlimited_expansions && max_cost == infinite_cost && max_time.count() == 0 &&
           max_memory_bytes == 0;
  }
};

/// Limits on one call of step(): how much of a stepped search may run now, say in one frame.
/// Unlike Budget, which ends the search, a StepBudget only pauses it: step() returns
/// in_progress and the next call carries on, and the final result is the one-shot result.
struct StepBudget {
  /// The time limit is checked after every `time_check_interval` expansions of a step (and not
  /// before the first), so a step runs at least that many expansions unless the search ends
  /// first, and may overrun its time by the cost of that many expansions.
  static constexpr std::uint64_t time_check_interval = Budget::time_check_interval;

  /// Expand at most this many nodes in this step.
  std::uint64_t max_expansions = Budget::unlimited_expansions;
  /// Return after about this much wall time in this step (see time_check_interval); zero means
  /// no limit.
  std::chrono::nanoseconds max_time{0};

  [[nodiscard]] static StepBudget expansions(std::uint64_t count) { return {count, std::chrono::nanoseconds{0}}; }
  [[nodiscard]] static StepBudget time(std::chrono::nanoseconds limit) { return {Budget::unlimited_expansions, limit}; }
  [[nodiscard]] bool timed() const { return max_time.count() > 0; }
  [[nodiscard]] bool unlimited() const { return max_expansions == Budget::unlimited_expansions && !timed(); }
};

/// What is wrong with a budget, in words every world's query objects use, or nothing. Refused:
/// a NaN or negative max_cost (infinity means no limit) and a negative max_time (zero means no
/// limit). Every other value is valid.
[[nodiscard]] inline std::optional<std::string> budget_problem(const Budget& budget) {
  if (!(budget.max_cost >= 0.0))
    return "budget.max_cost must be non-negative (infinite for no limit), not " + std::to_string(budget.max_cost);
  if (budget.max_time.count() < 0)
    return "budget.max_time must not be negative (zero for no limit), not " +
           std::to_string(budget.max_time.count()) + " ns";
  return std::nullopt;
}

/// Whether a step that began at `started` and has done `done` expansions has used up its time
/// (only every time_check_interval expansions, see StepBudget).
[[nodiscard]] inline bool step_time_is_up(const StepBudget& budget, std::uint64_t done,
                                          std::chrono::steady_clock::time_point started) {
  return budget.timed() && done != 0 && done % StepBudget::time_check_interval == 0 &&
         std::chrono::steady_clock::now() - started >= budget.max_time;
}

}  // namespace wayfinder
