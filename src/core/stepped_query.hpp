#pragma once
// The part every world's query object shares: the search under way, held in place as one of
// the runs the world can start (a std::variant, so that no query allocates for its search),
// a settled answer for queries decided in begin() (rejected input, searches that cannot be
// stepped, trivial mesh queries) or stopped (the world changed), and begin / step / result
// over whichever it is. A world's query object adds only
// what is its own: checking its options and turning them into the engine's, choosing the run,
// and filling a result's points.
//
// A run is any type with `SearchStatus step(const StepBudget&)`, `SearchStats stats() const`
// and `void result(PathResult& out) const` that refills `out` in place (EngineRun and the
// grid's runs).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

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

/// A query object stepped as one run of another's SteppedQuery (the hierarchies' query objects
/// inside GridQuery and VoxelQuery), kept by the outer query object from query to query.
template <class Query>
struct QueryObjectRun {
  explicit QueryObjectRun(Query& inner) : query(inner) {}
  SearchStatus step(const StepBudget& budget) { return query.step(budget); }
  [[nodiscard]] SearchStats stats() const { return query.stats(); }
  void result(PathResult& out) const { query.result(out); }

  Query& query;
};

template <class... Runs>
class SteppedQuery {
 public:
  /// Ends the current query with invalid_input and `why` as its message.
  SearchStatus reject(std::string_view why) {
    PathResult& result = settle_in_place();
    result.status = SearchStatus::invalid_input;
    result.reason = StopReason::invalid_input;
    result.message.assign(why);
    return result.status;
  }

  /// Ends the current query with a result found in begin().
  SearchStatus settle(PathResult result) {
    active_.template emplace<Settled>();
    settled_ = std::move(result);
    return settled_.status;
  }

  /// Ends the current query in begin() with a result the caller fills in place: the settled
  /// result is kept from query to query and reset here, so that rejected and trivial queries
  /// (a mesh query across regions, or inside one polygon) allocate nothing once warm. Its
  /// status must be set to a final one.
  PathResult& settle_in_place() {
    active_.template emplace<Settled>();
    settled_.reset();
    return settled_;
  }

  /// Replaces the current query's run by a new one, built in place from `args`.
  template <class Run, class... Args>
  Run& start(Args&&... args) {
    return active_.template emplace<Run>(std::forward<Args>(args)...);
  }

  /// Remembers the world's revision as the query begins (call in begin(), before starting).
  void watch(std::uint64_t world_revision) { begun_revision_ = world_revision; }

  /// Advances the current query, unless the world's revision has moved since begin(): then the
  /// search ends with world_changed, never reading a world that is not the one it began on.
  SearchStatus step(const StepBudget& budget, std::uint64_t world_revision) {
    if (world_revision != begun_revision_ && searching()) {
      const SearchStats so_far = stats();
      PathResult& changed = settle_in_place();
      changed.status = SearchStatus::world_changed;
      changed.reason = StopReason::world_changed;
      changed.stats = so_far;
      changed.message = "the world was edited since begin() (revision " + std::to_string(begun_revision_) + ", now " +
                        std::to_string(world_revision) + "): begin the query again";
      return changed.status;
    }
    return step(budget);
  }

  /// Advances the current query (invalid_input if none has begun).
  SearchStatus step(const StepBudget& budget) {
    return std::visit(
        [&](auto& run) -> SearchStatus {
          using Run = std::decay_t<decltype(run)>;
          if constexpr (std::is_same_v<Run, std::monostate>)
            return SearchStatus::invalid_input;
          else if constexpr (std::is_same_v<Run, Settled>)
            return settled_.status;
          else
            return run.step(budget);
        },
        active_);
  }

  /// The current query's result into `out`, reusing its memory; points are left to the world.
  void result(PathResult& out) const {
    std::visit(
        [&](const auto& run) {
          using Run = std::decay_t<decltype(run)>;
          if constexpr (std::is_same_v<Run, std::monostate>) {
            out.reset();
            out.status = SearchStatus::invalid_input;
            out.reason = StopReason::invalid_input;
            out.message = "no query has begun: call begin() before step() and result()";
          } else if constexpr (std::is_same_v<Run, Settled>) {
            out = settled_;  // assignment keeps out's memory
          } else {
            run.result(out);
          }
        },
        active_);
  }

  /// The current query's statistics so far (zero if none has begun).
  [[nodiscard]] SearchStats stats() const {
    return std::visit(
        [&](const auto& run) -> SearchStats {
          using Run = std::decay_t<decltype(run)>;
          if constexpr (std::is_same_v<Run, std::monostate>)
            return {};
          else if constexpr (std::is_same_v<Run, Settled>)
            return settled_.stats;
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
  /// The query was settled in begin() or stopped: its result is settled_.
  struct Settled {};

  /// True while a run is under way (not settled, begun).
  [[nodiscard]] bool searching() const {
    return !std::holds_alternative<Settled>(active_) && !std::holds_alternative<std::monostate>(active_);
  }

  std::variant<std::monostate, Runs..., Settled> active_;
  PathResult settled_;
  std::uint64_t begun_revision_ = 0;
};

}  // namespace wayfinder
