#pragma once
// The grid query object: one per thread, reused across queries (like Detour's dtNavMeshQuery).
// It holds the per-query search state; the GridMap it reads is never changed and can be shared
// by any number of pathfinders.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_rules.hpp"

namespace wayfinder {

enum class GridAlgorithm : std::uint8_t {
  breadth_first,        ///< the wave: fewest moves, ignores terrain cost
  dijkstra,
  astar,
  weighted_astar,       ///< cost <= weight x optimal
  greedy_best_first,    ///< fast, no cost guarantee
  bidirectional_astar,  ///< optimal; searches from both ends
  ida_star,             ///< iterative deepening A*; small maps only; cannot be stepped
  jump_point,           ///< optimal; needs uniform cost and DiagonalMode::only_if_no_obstacles
};

/// Command-line names: bfs, dijkstra, astar, weighted-astar, greedy, bidirectional, ida, jps.
std::string_view to_string(GridAlgorithm algorithm);
std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name);
inline constexpr GridAlgorithm all_grid_algorithms[] = {
    GridAlgorithm::breadth_first,     GridAlgorithm::dijkstra,          GridAlgorithm::astar,
    GridAlgorithm::weighted_astar,    GridAlgorithm::greedy_best_first, GridAlgorithm::bidirectional_astar,
    GridAlgorithm::ida_star,          GridAlgorithm::jump_point};

/// The grid's options: the shared ones (budget, return_partial, partial_when_unreachable,
/// trace; see QueryOptions) and the grid's own.
struct GridSearchOptions : QueryOptions {
  GridAlgorithm algorithm = GridAlgorithm::astar;
  DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;
  Heuristic heuristic = Heuristic::automatic;
  /// Heuristic weight of weighted A* (>= 1).
  double weight = 2.0;
};

/// One query as a value: what batches and the request queue take.
struct GridPathRequest {
  Cell start;
  Cell goal;
  GridSearchOptions options;
};

class GridPathfinder {
 public:
  /// Lifetime: the pathfinder keeps a reference to `map`, which must outlive it. Building one
  /// from a temporary map does not compile (the map would be destroyed at the end of the
  /// statement): load the map into a variable first.
  explicit GridPathfinder(const GridMap& map);
  explicit GridPathfinder(const GridMap&& map) = delete;
  ~GridPathfinder();
  GridPathfinder(GridPathfinder&&) noexcept;
  GridPathfinder& operator=(GridPathfinder&&) = delete;
  GridPathfinder(const GridPathfinder&) = delete;
  GridPathfinder& operator=(const GridPathfinder&) = delete;

  /// Runs a whole query. Never throws for bad queries: a start or goal outside the map or on a
  /// blocked cell, bad options, ... return status invalid_input with a message.
  PathResult find_path(Cell start, Cell goal, const GridSearchOptions& options = {});
  /// The same into a result the caller owns and reuses: its vectors and message are cleared and
  /// refilled, never shrunk, so once they have grown to a path's size a query allocates nothing
  /// for its result. Returns the result's status.
  SearchStatus find_path(Cell start, Cell goal, const GridSearchOptions& options, PathResult& out);
  /// The same for a request value.
  SearchStatus find_path(const GridPathRequest& request, PathResult& out) {
    return find_path(request.start, request.goal, request.options, out);
  }

  /// Begins a query to be advanced with step(). Returns in_progress, or a final status.
  SearchStatus begin(Cell start, Cell goal, const GridSearchOptions& options = {});
  SearchStatus begin(const GridPathRequest& request) { return begin(request.start, request.goal, request.options); }
  /// Advances the current query by up to `max_expansions` expansions. The final result equals
  /// what find_path returns for the same query. IDA* runs to the end in begin().
  SearchStatus step(std::uint64_t max_expansions);
  /// Advances the current query until the step's expansions or wall time are spent (the time is
  /// read every StepBudget::time_check_interval expansions), or it ends. The final result is
  /// still find_path's: a step's limits pause the search, the options' Budget ends it.
  SearchStatus step(const StepBudget& budget);
  /// The current query's result (in_progress and no path until it finishes).
  [[nodiscard]] PathResult result() const;
  /// The same into a result the caller owns, reusing its memory (as find_path above).
  void result(PathResult& out) const;
  /// The current query's statistics so far (a stepped query's progress; final once it ends).
  [[nodiscard]] SearchStats stats() const;

  [[nodiscard]] const GridMap& map() const { return map_; }

 private:
  const GridMap& map_;
  std::unique_ptr<struct GridPathfinderState> state_;
};

template <>
struct QueryTypes<GridMap> {
  using Query = GridPathfinder;
  using Request = GridPathRequest;
};

/// Fills PathResult::points with the centres of PathResult::nodes.
void fill_cell_centres(const GridMap& map, PathResult& result);

}  // namespace wayfinder
