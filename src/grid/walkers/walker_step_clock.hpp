#pragma once
// The check every reactive walker's step() makes before its next move, on the stop policy all
// searches share (core/search_clock.hpp): the query's Budget (max_expansions counts moves, and
// max_time) ends the walk, the step's StepBudget pauses it. Walkers have no cost bound and do
// not measure their memory.

#include <cstdint>
#include <string>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_clock.hpp"

namespace wayfinder::walker_detail {

/// Whether the walker may make its next move, after `done` moves in this step and `moves` in
/// all. When the budget ends the walk, `report` is finished (partial or budget_exhausted, as the
/// options ask) with a message naming the `moves` made, in `units` ("moves", "segments").
[[nodiscard]] inline bool may_move(const SearchClock& clock, std::uint64_t done, std::uint64_t moves,
                                   const SearchOptions& options, RunReport& report, const char* units) {
  const StopReason stop = clock.budget_stop(moves, NoCostCheck{}, NoMemoryMeasure{});
  if (stop != StopReason::none) {
    report.finish(RunOutcome::budget_spent(stop, options.return_partial),
                  "the budget ran out after " + std::to_string(moves) + " " + units);
    return false;
  }
  return !clock.step_over(done);
}

}  // namespace wayfinder::walker_detail
