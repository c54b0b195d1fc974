#pragma once
// The grid query object: one per thread, reused across queries. It holds per-query search
// state only; the GridMap and the derived data it reads (grid_derived_data.hpp) are shared
// read-only. docs/architecture.md ("Query objects") and docs/grid.md say more.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_object.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

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
  // Reactive walkers (crash_walker.hpp, midpoint_walker.hpp): no search, no optimality, and
  // they may fail where a path exists (no_path or budget_exhausted, with a message saying why).
  crash_right,     ///< Bug2 crash walker, right hand on the wall
  crash_left,      ///< the same, left hand on the wall
  crash_auto,      ///< the same, hand chosen at the first obstacle
  crash_four_way,  ///< four crash walkers (both hands, both ways); the first to arrive wins
  divide,          ///< divide-and-conquer midpoints
  /// JPS+: jump point search over a preprocessed GridJumpTable (grid_jump_table.hpp); optimal;
  /// the same requirements as jump_point. Listed last to keep the values above stable.
  jump_point_plus,
  /// Hierarchical search, HPA* (hierarchical_grid.hpp): near-optimal (measured within 1% on
  /// average), over a hierarchy of the map given with the derived data (clusters of
  /// GridSearchOptions::cluster_size cells). MovingAI rule only; runs to the end in begin().
  hierarchical,
};

/// Command-line names: bfs, dijkstra, astar, weighted-astar, greedy, bidirectional, ida, jps, jps-plus;
/// the walkers crash-right, crash-left, crash-auto, crash-four-way, divide; hpa (hierarchical).
std::string_view to_string(GridAlgorithm algorithm);
std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name);
/// The search algorithms: each finds a path whenever one exists (within its budget), most of
/// them optimal. Tests, benchmarks and tools that compare answers iterate this list.
inline constexpr GridAlgorithm all_grid_algorithms[] = {
    GridAlgorithm::breadth_first,     GridAlgorithm::dijkstra,          GridAlgorithm::astar,
    GridAlgorithm::weighted_astar,    GridAlgorithm::greedy_best_first, GridAlgorithm::bidirectional_astar,
    GridAlgorithm::ida_star,          GridAlgorithm::jump_point,        GridAlgorithm::jump_point_plus};
/// The reactive walkers: they move by local rules and may fail where a path exists.
inline constexpr GridAlgorithm reactive_grid_walkers[] = {GridAlgorithm::crash_right, GridAlgorithm::crash_left,
                                                          GridAlgorithm::crash_auto, GridAlgorithm::crash_four_way,
                                                          GridAlgorithm::divide};
/// Every GridAlgorithm: the searches, the hierarchical search (which finds a path whenever one
/// exists but is neither optimal nor stepped, so all_grid_algorithms leaves it out), then the
/// walkers.
inline constexpr GridAlgorithm every_grid_algorithm[] = {
    GridAlgorithm::breadth_first,     GridAlgorithm::dijkstra,          GridAlgorithm::astar,
    GridAlgorithm::weighted_astar,    GridAlgorithm::greedy_best_first, GridAlgorithm::bidirectional_astar,
    GridAlgorithm::ida_star,          GridAlgorithm::jump_point,        GridAlgorithm::jump_point_plus,
    GridAlgorithm::hierarchical,      GridAlgorithm::crash_right,       GridAlgorithm::crash_left,
    GridAlgorithm::crash_auto,        GridAlgorithm::crash_four_way,    GridAlgorithm::divide};
/// True for the reactive walkers.
constexpr bool is_reactive_walker(GridAlgorithm algorithm) {
  return algorithm >= GridAlgorithm::crash_right && algorithm <= GridAlgorithm::divide;
}
/// True for the algorithms written for a one-cell agent that serve a larger agent on its body
/// map (grid_body_map.hpp): jump_point, jump_point_plus and hierarchical.
constexpr bool searches_body_map(GridAlgorithm algorithm) {
  return algorithm == GridAlgorithm::jump_point || algorithm == GridAlgorithm::jump_point_plus ||
         algorithm == GridAlgorithm::hierarchical;
}

/// The grid's options: the shared ones (budget, return_partial, partial_when_unreachable,
/// trace; see QueryOptions) and the grid's own.
struct GridSearchOptions : QueryOptions {
  GridAlgorithm algorithm = GridAlgorithm::astar;
  DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;
  Heuristic heuristic = Heuristic::automatic;
  /// Heuristic weight of weighted A* (>= 1).
  double weight = 2.0;
  /// The reactive walkers' step limit: the most moves (crash walkers, each of the four-way
  /// race's four) or segments (divide) before they give up with budget_exhausted; 0 means
  /// default_walker_moves_per_cell (4) x the map's cells. The searches ignore it.
  std::uint64_t walker_step_limit = 0;
  /// Area cost multipliers and flag masks for this query only (see AreaFilter and
  /// GridMap::set_area / set_flags): cells the filter excludes are walls to this query, and a
  /// move costs its length times the mean of (terrain x area multiplier) of its two cells.
  /// A filter that changes nothing on this map (every area in use costs 1, no flag in use is
  /// excluded) runs the unfiltered search at its full speed. Jump point search (and JPS+), the
  /// wave and the walkers refuse any other filter (invalid_input): it changes costs they assume.
  std::optional<AreaFilter> filter;
  /// The agent's side in cells: a k x k agent (1 to max_clearance, 255) whose position is its
  /// top-left cell; every cell of its body must be passable (grid_clearance.hpp, Harabor & Botea
  /// 2008), and a diagonal move needs both side positions to fit under only_if_no_obstacles
  /// (at_least_one_walkable: one of them; always: neither). PathResult::nodes are the top-left
  /// cells, PathResult::points the centres of the body. A move costs what it costs the top-left
  /// cell alone. Sizes above 1 run with dijkstra, astar, weighted_astar, greedy_best_first,
  /// bidirectional_astar and ida_star, and with jump_point, jump_point_plus and hierarchical on
  /// the map as the agent sees it (GridBodyMap: under only_if_no_obstacles, which those three
  /// require, the same moves and costs), without a filter that changes anything on the map; the
  /// wave and the walkers refuse them (invalid_input). They read the map's clearance, and those
  /// three also the body map (and its JPS+ table or hierarchy), from the derived data
  /// (GridDerivedData). 1, the default, is the plain search, unchanged.
  int agent_size = 1;
  /// The hierarchical search's cluster side in cells (4 to 256; HierarchyOptions::cluster_size):
  /// the derived hierarchy must have clusters of this size.
  int cluster_size = 16;
};

/// One query as a value: what batches and the request queue take.
using GridPathRequest = PathRequest<Cell, GridSearchOptions>;

/// The calls every query object answers (find_path, begin / step / result, stats) are
/// QueryObject's (query_object.hpp). Bad queries (a start or goal outside the map or blocked,
/// bad options, derived data missing or stale) answer invalid_input with a message; IDA* runs to
/// the end in begin(). PathResult::nodes are cell ids, points their centres.
class GridQuery : public QueryObject<GridQuery, GridMap, Cell, GridSearchOptions> {
 public:
  /// Lifetime: the pathfinder keeps a reference to `map`, which must outlive it. Building one
  /// from a temporary map does not compile (the map would be destroyed at the end of the
  /// statement): load the map into a variable first.
  explicit GridQuery(const GridMap& map);
  explicit GridQuery(const GridMap&& map) = delete;
  /// The same with the derived data its queries read (set_derived_data).
  GridQuery(const GridMap& map, GridDerivedData derived);
  GridQuery(const GridMap&& map, GridDerivedData derived) = delete;
  ~GridQuery();
  GridQuery(GridQuery&&) noexcept;

  [[nodiscard]] const GridMap& map() const { return world(); }
  /// The hierarchy the last hierarchical query searched (the map's, or for agent_size > 1 its
  /// body map's); null before the first such query.
  [[nodiscard]] const HierarchicalGrid* hierarchy() const;

  /// The derived data queries read (grid_derived_data.hpp): built by the caller for the map's
  /// current revision (build_grid_derived_data) and shared. The pathfinder never builds or
  /// updates it; a query that needs a piece that is missing or stale is refused. Not while a
  /// query is stepped.
  void set_derived_data(GridDerivedData derived);
  [[nodiscard]] const GridDerivedData& derived_data() const;

  /// Sets the derived data's jump table alone (JPS+, agent_size 1). Throws std::invalid_argument
  /// when it does not fit the map's current version (size, revision, or passability checksum).
  void set_jump_table(std::shared_ptr<const GridJumpTable> table);
  [[nodiscard]] std::shared_ptr<const GridJumpTable> jump_table() const;
  /// Sets the derived data's goal bounds alone (JPS+, agent_size 1; null: none). Throws
  /// std::invalid_argument when they do not fit the map's current version.
  void set_goal_bounds(std::shared_ptr<const GridGoalBounds> bounds);
  [[nodiscard]] std::shared_ptr<const GridGoalBounds> goal_bounds() const;

 private:
  friend QueryObject;
  SearchStatus start_query(Cell start, Cell goal, const GridSearchOptions& options);
  SearchStatus advance_query(const StepBudget& budget);
  void write_result(PathResult& out) const;
  SearchStats query_stats() const;

  std::unique_ptr<struct GridQueryState> state_;
};

template <>
struct QueryTypes<GridMap> : QueryTypesOf<GridQuery> {};

/// Fills PathResult::points with the centres of PathResult::nodes.
void fill_cell_centres(const GridMap& map, PathResult& result);
/// Fills PathResult::points with the centres of the bodies of an agent_size x agent_size agent
/// whose top-left cells are PathResult::nodes: (x + agent_size / 2, y + agent_size / 2).
void fill_body_centres(const GridMap& map, int agent_size, PathResult& result);

/// The former name of GridQuery: query objects are called queries in every language.
using GridPathfinder [[deprecated("renamed GridQuery")]] = GridQuery;

}  // namespace wayfinder
