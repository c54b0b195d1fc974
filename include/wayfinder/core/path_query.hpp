#pragma once
// One query interface for every world. A world type W (GridMap, NavMesh, VoxelWorld) names its
// query object and request type through QueryTypes<W>; every query object answers a request
// whole (find_path) or in steps (begin / step / result), into a PathResult the caller may own
// and reuse. Batches (path_batch.hpp) and the request queue (path_request_queue.hpp) are
// written once against this.

#include <concepts>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// Specialised by each world's query header:
///   template <> struct QueryTypes<GridMap> { using Query = GridPathfinder; using Request = GridPathRequest; };
template <class World>
struct QueryTypes;

template <class World>
using QueryFor = typename QueryTypes<World>::Query;
template <class World>
using RequestFor = typename QueryTypes<World>::Request;

/// What batches and queues need of a query object: built from the shared world, one per thread,
/// and able to answer a request whole or in steps.
template <class Query, class World, class Request>
concept PathQuery = std::constructible_from<Query, const World&> &&
                    requires(Query& query, const Request& request, const StepBudget& budget, PathResult& out) {
                      { query.find_path(request, out) } -> std::same_as<SearchStatus>;
                      { query.begin(request) } -> std::same_as<SearchStatus>;
                      { query.step(budget) } -> std::same_as<SearchStatus>;
                      query.result(out);
                      { query.stats() } -> std::same_as<SearchStats>;
                    };

}  // namespace wayfinder
