#pragma once
// The calls every world's query object answers alike, declared once: GridQuery, VoxelQuery and
// NavMeshQuery derive from QueryObject (the curiously recurring template pattern, so no call is
// virtual and each forwarder inlines) and write only what is their own. docs/architecture.md
// ("Query objects") describes the contract.

#include <cstdint>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// The shared half of a query object over a `World` whose places are `Place` (a cell, a point, a
/// block) and whose options are `Options`. `Query` derives from it publicly, names it a friend,
/// and defines the four steps that differ per world, in private:
///   SearchStatus start_query(const Place& start, const Place& goal, const Options& options);
///   SearchStatus advance_query(const StepBudget& budget);
///   void write_result(PathResult& out) const;
///   SearchStats query_stats() const;
/// Every call below is written in terms of those, so a whole query is by construction a stepped
/// one run to the end.
///
/// Guarantees (the PathQuery contract, path_query.hpp): no call throws for a bad query (it
/// answers invalid_input with a message); a stepped query ends with the result find_path gives
/// for the same request (step's limits pause a search, the options' Budget ends it); results are
/// refilled in place; one thread uses a query object at a time.
///
/// Lifetime: the query object keeps a reference to its world, which must outlive it; the derived
/// classes delete their constructors from a temporary world.
template <class Query, class World, class Place, class Options>
class QueryObject {
 public:
  using Request = PathRequest<Place, Options>;

  /// A whole query: begin, then one step without limits, then the result.
  PathResult find_path(const Place& start, const Place& goal, const Options& options = {}) {
    PathResult out;
    find_path(start, goal, options, out);
    return out;
  }
  /// The same into a result the caller owns and reuses: its vectors and message are refilled,
  /// never shrunk, so once they have grown to a path's size a query allocates nothing for its
  /// result. Returns the result's status.
  SearchStatus find_path(const Place& start, const Place& goal, const Options& options, PathResult& out) {
    if (begin(start, goal, options) == SearchStatus::in_progress) step(StepBudget{});
    result(out);
    return out.status;
  }
  /// The same for a request value.
  SearchStatus find_path(const Request& request, PathResult& out) {
    return find_path(request.start, request.goal, request.options, out);
  }

  /// Checks the query and starts it: returns in_progress, to be advanced with step(), or a final
  /// status when the query was settled at once (refused, or answered without a search).
  SearchStatus begin(const Place& start, const Place& goal, const Options& options = {}) {
    return self().start_query(start, goal, options);
  }
  /// The same for a request value.
  SearchStatus begin(const Request& request) { return begin(request.start, request.goal, request.options); }
  /// Advances the query under way until its search ends or the step's expansions or wall time
  /// (read every StepBudget::time_check_interval expansions) are spent; in_progress means paused.
  /// Before the first begin() it returns invalid_input.
  SearchStatus step(const StepBudget& budget) { return self().advance_query(budget); }
  /// The same for a step of up to `max_expansions` expansions (StepBudget::expansions).
  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    return step(StepBudget::expansions(max_expansions));
  }
  /// The query's result so far (final once step() returned a final status) into a result the
  /// caller owns, reusing its memory as find_path does.
  void result(PathResult& out) const { self().write_result(out); }
  /// The same as a new value.
  [[nodiscard]] PathResult result() const {
    PathResult out;
    result(out);
    return out;
  }
  /// The current query's statistics so far (a stepped query's progress; final once it ends).
  [[nodiscard]] SearchStats stats() const { return self().query_stats(); }

  /// The world this query object searches.
  [[nodiscard]] const World& world() const { return world_; }

 protected:
  explicit QueryObject(const World& world) : world_(world) {}
  ~QueryObject() = default;
  QueryObject(QueryObject&&) noexcept = default;
  QueryObject& operator=(QueryObject&&) = delete;
  QueryObject(const QueryObject&) = delete;
  QueryObject& operator=(const QueryObject&) = delete;

 private:
  Query& self() { return static_cast<Query&>(*this); }
  const Query& self() const { return static_cast<const Query&>(*this); }

  const World& world_;
};

/// A world's query types (QueryTypes, path_query.hpp) read from its query object, which names its
/// Request through QueryObject: `template <> struct QueryTypes<GridMap> : QueryTypesOf<GridQuery> {};`
template <class WorldQuery>
struct QueryTypesOf {
  using Query = WorldQuery;
  using Request = typename WorldQuery::Request;
};

}  // namespace wayfinder
