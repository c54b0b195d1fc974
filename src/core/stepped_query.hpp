#pragma once
// The part every world's query object shares: the search under way, held in place as one of
// the runs the world can start (a std::variant, so that no query allocates for its search),
// a finished answer for queries settled in begin() (rejected input, searches that cannot be
// stepped), and begin / step / result over whichever it is. A world's query object adds only
// what is its own: checking its options and turning them into the engine's, choosing the run,
// and filling a result's points.
//
// A run is any type with `SearchStatus step(const StepBudget&)`, `SearchStats stats() const`
// and `void result(PathResult& out) const` that refills `out` in place (EngineRun and the
// grid's runs).

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// A query settled in begin(): its result is final.
struct FinishedRun {
  PathResult result_value;
  SearchStatus step(const StepBudget&) const { return result_value.status; }
  [[nodiscard]] SearchStats stats() const { return result_value.stats; }
  void result(PathResult& out) const { out = result_value; }  // assignment keeps out's memory
};

/// The engine's options from the fields every query's options share (the budget, what a stop
/// returns, the trace) and the weights the chosen algorithm puts on g and h.
template <class QueryOptions>
[[nodiscard]] SearchOptions engine_options(const QueryOptions& options, Cost g_weight, Cost h_weight) {
  SearchOptions search;
  search.g_weight = g_weight;
  search.h_weight = h_weight;
  search.budget = options.budget;
  search.return_partial = options.return_partial;
  search.partial_when_unreachable = options.partial_when_unreachable;
  search.trace = options.trace;
  return search;
}

template <class... Runs>
class SteppedQuery {
 public:
  /// Ends the current query with invalid_input and `why` as its message.
  SearchStatus reject(std::string why) { return settle(PathResult::invalid(std::move(why))); }

  /// Ends the current query with a result found in begin().
  SearchStatus settle(PathResult result) {
    return active_.template emplace<FinishedRun>(FinishedRun{std::move(result)}).result_value.status;
  }

  /// Replaces the current query's run by a new one, built in place from `args`.
  template <class Run, class... Args>
  Run& start(Args&&... args) {
    return active_.template emplace<Run>(std::forward<Args>(args)...);
  }

  /// Advances the current query (invalid_input if none has begun).
  SearchStatus step(const StepBudget& budget) {
    return std::visit(
        [&](auto& run) -> SearchStatus {
          if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
            return SearchStatus::invalid_input;
          else
            return run.step(budget);
        },
        active_);
  }

  /// The current query's result into `out`, reusing its memory; points are left to the world.
  void result(PathResult& out) const {
    std::visit(
        [&](const auto& run) {
          if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>) {
            out.reset();
            out.status = SearchStatus::invalid_input;
            out.reason = StopReason::invalid_input;
            out.message = "no query has begun: call begin() before step() and result()";
          } else {
            run.result(out);
          }
        },
        active_);
  }

  /// The current query's statistics so far (zero if none has begun).
  [[nodiscard]] SearchStats stats() const {
    return std::visit(
        [](const auto& run) -> SearchStats {
          if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
            return {};
          else
            return run.stats();
        },
        active_);
  }

  /// The current run if it is a `Run`, else null.
  template <class Run>
  [[nodiscard]] const Run* run_if() const {
    return std::get_if<Run>(&active_);
  }

 private:
  std::variant<std::monostate, Runs..., FinishedRun> active_;
};

}  // namespace wayfinder
