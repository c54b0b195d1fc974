#pragma once
// One query interface for every world: the query types a world names (QueryTypes), what a
// query object answers (PathQuery), and what makes query objects for batches and queues
// (QueryFactory). docs/architecture.md ("Query objects") describes the contract.

#include <concepts>
#include <type_traits>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// One query as a value, what batches and the request queue take: where it starts and ends, in
/// the world's own places (a grid cell, a point on a mesh, a voxel block), and the world's
/// options. Each world names its own (GridPathRequest, NavMeshPathRequest, VoxelPathRequest).
template <class Place, class Options>
struct PathRequest {
  Place start;
  Place goal;
  Options options;
};

/// Specialised by each world's query header:
///   template <> struct QueryTypes<GridMap> : QueryTypesOf<GridQuery> {};  (query_object.hpp)
template <class World>
struct QueryTypes;

template <class World>
using QueryFor = typename QueryTypes<World>::Query;
template <class World>
using RequestFor = typename QueryTypes<World>::Request;

/// What batches and queues need of a query object: able to answer a request whole
/// (find_path) or in steps (begin, then step until it returns a final status, then result).
/// Guarantees every world's query object gives: bad requests never throw (invalid_input with a
/// message); a stepped query's result equals find_path's for the same request; `out` is refilled
/// in place, reusing its memory; a query object is used by one thread at a time.
template <class Query, class Request>
concept AnswersRequests =
    requires(Query& query, const Request& request, const StepBudget& budget, PathResult& out) {
      { query.find_path(request, out) } -> std::same_as<SearchStatus>;
      { query.begin(request) } -> std::same_as<SearchStatus>;
      { query.step(budget) } -> std::same_as<SearchStatus>;
      query.result(out);
      { query.stats() } -> std::same_as<SearchStats>;
    };

/// A world's default query object: built from the shared world alone.
template <class Query, class World, class Request>
concept PathQuery = std::constructible_from<Query, const World&> && AnswersRequests<Query, Request>;

/// A callable that returns a configured query object (by value) for each thread or slot of a
/// batch or queue, e.g. one given the world's shared derived data.
template <class Factory, class Request>
concept QueryFactory = std::invocable<const Factory&> &&
                       AnswersRequests<std::remove_cvref_t<std::invoke_result_t<const Factory&>>, Request>;

/// The query object a factory makes.
template <class Factory>
using FactoryQuery = std::remove_cvref_t<std::invoke_result_t<const Factory&>>;

/// The factory that batches and queues use when given a world: QueryFor<World>(world).
template <class World>
[[nodiscard]] auto default_query_factory(const World& world) {
  return [&world] { return QueryFor<World>(world); };
}

}  // namespace wayfinder
