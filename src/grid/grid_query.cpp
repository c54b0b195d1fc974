#include "wayfinder/grid/grid_query.hpp"

#include <charconv>
#include <cstdio>
#include <type_traits>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

#include "wayfinder/core/best_first_search.hpp"
#include "core/engine_run.hpp"
#include "core/float_chars.hpp"
#include "core/algorithm_names.hpp"
#include "core/stepped_query.hpp"
#include "wayfinder/core/bidirectional_search.hpp"
#include "wayfinder/core/ida_star.hpp"
#include "wayfinder/grid/breadth_first_wave.hpp"
#include "wayfinder/grid/walkers/crash_walker.hpp"
#include "wayfinder/grid/world/grid_body_map.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"
#include "wayfinder/grid/jump/jump_point_plus_search.hpp"
#include "wayfinder/grid/jump/jump_point_search.hpp"
#include "wayfinder/grid/walkers/midpoint_walker.hpp"
#include "wayfinder/grid/world/sized_agent_domain.hpp"

namespace wayfinder {

namespace {

constexpr AlgorithmName<GridAlgorithm> algorithm_names[] = {
    {GridAlgorithm::breadth_first, "bfs"},
    {GridAlgorithm::dijkstra, "dijkstra"},
    {GridAlgorithm::astar, "astar"},
    {GridAlgorithm::weighted_astar, "weighted-astar"},
    {GridAlgorithm::greedy_best_first, "greedy"},
    {GridAlgorithm::bidirectional_astar, "bidirectional"},
    {GridAlgorithm::ida_star, "ida"},
    {GridAlgorithm::jump_point, "jps"},
    {GridAlgorithm::crash_right, "crash-right"},
    {GridAlgorithm::crash_left, "crash-left"},
    {GridAlgorithm::crash_auto, "crash-auto"},
    {GridAlgorithm::crash_four_way, "crash-four-way"},
    {GridAlgorithm::divide, "divide"},
    {GridAlgorithm::jump_point_plus, "jps-plus"},
    {GridAlgorithm::hierarchical, "hpa"},
};

template <class D>
struct BidirectionalRun {
  template <class... Args>
  BidirectionalRun(SearchContext& forward, SearchContext& backward, Args&&... args)
      : domain(std::forward<Args>(args)...), search(domain, forward, backward) {}
  SearchStatus step(const StepBudget& budget) { return search.step(budget); }
  void result(PathResult& out) const { search.result(out); }
  [[nodiscard]] SearchStats stats() const { return search.stats(); }
  D domain;
  BidirectionalSearch<D> search;
};

// Jump point search (and JPS+) returns jump points; the result lists every cell between them.
// The jump points are kept in the pathfinder's scratch vector on the way, so that a reused
// result allocates nothing.
template <class Domain>
struct JumpRun {
  template <class... DomainArgs>
  JumpRun(SearchContext& context, const GridMap& grid, std::vector<NodeId>& scratch, DomainArgs&&... args)
      : map(grid), jump_points(scratch), domain(grid, std::forward<DomainArgs>(args)...), search(domain, context) {}
  SearchStatus step(const StepBudget& budget) { return search.step(budget); }
  void result(PathResult& out) const {
    search.result(out);
    jump_points.assign(out.nodes.begin(), out.nodes.end());
    expand_jump_points(map, jump_points, out.nodes);
  }
  [[nodiscard]] SearchStats stats() const { return search.stats(); }
  const GridMap& map;
  std::vector<NodeId>& jump_points;
  Domain domain;
  BestFirstSearch<Domain> search;
};

using JumpPointRun = JumpRun<JumpPointDomain>;

/// The table and goal bounds (null: no goal bounding) a JPS+ run reads, held by the run so that
/// data replaced while the query is stepped stays alive until the query ends.
struct JumpTableHold {
  std::shared_ptr<const GridJumpTable> table;
  std::shared_ptr<const GridGoalBounds> bounds;
};

// The hold is the first base, so it is built before the domain that reads it.
struct JumpPointPlusRun : JumpTableHold, JumpRun<JumpPointPlusDomain> {
  JumpPointPlusRun(SearchContext& context, const GridMap& grid, std::shared_ptr<const GridJumpTable> jump_table,
                   std::shared_ptr<const GridGoalBounds> goal_bounds, NodeId goal, std::vector<NodeId>& scratch)
      : JumpTableHold{std::move(jump_table), std::move(goal_bounds)},
        JumpRun(context, grid, scratch, *table, goal, bounds.get()) {}
};

/// HPA*: the query object over the hierarchy, kept in the query's state (with the hierarchy it
/// reads) from query to query, stepped through this run.
using HierarchicalRun = QueryObjectRun<HierarchicalGridQuery>;

// The wave and the reactive walkers (one move, or one segment for divide, per expansion) are
// runs themselves.
// IDA* and rejected queries finish in begin() (SteppedQuery's settled result).
using UniformGrid = GridDomain<GridCosts::uniform>;
using TerrainGrid = GridDomain<GridCosts::terrain>;
using FilteredGrid = GridDomain<GridCosts::filtered>;
// Agents larger than one cell: separate instantiations, so the unit agent's loops are untouched.
using SizedUniformGrid = SizedAgentGridDomain<GridCosts::uniform>;
using SizedTerrainGrid = SizedAgentGridDomain<GridCosts::terrain>;
using ActiveSearch =
    SteppedQuery<EngineRun<UniformGrid>, EngineRun<TerrainGrid>, EngineRun<FilteredGrid>, BidirectionalRun<UniformGrid>,
                 BidirectionalRun<TerrainGrid>, BidirectionalRun<FilteredGrid>, EngineRun<SizedUniformGrid>,
                 EngineRun<SizedTerrainGrid>, BidirectionalRun<SizedUniformGrid>, BidirectionalRun<SizedTerrainGrid>,
                 JumpPointRun, JumpPointPlusRun, HierarchicalRun, BreadthFirstWave, CrashWalker, FourWayCrashWalker,
                 MidpointWalker>;

/// How a cell looks to a filter, for messages.
std::string area_text(const GridMap& map, Cell c) {
  char flags[8];
  std::snprintf(flags, sizeof flags, "%#x", static_cast<unsigned>(map.flags(c)));
  return "area " + std::to_string(map.area(c)) + ", flags " + flags;
}

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

/// The shortest text that reads back as the same number ("1e+308", not 309 digits).
std::string number_text(double value) {
  char buffer[32];
  const auto [end, error] = double_to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : std::to_string(value);
}

/// Three significant digits ("1.55e+304"), for bounds quoted in messages.
std::string rounded_text(double value) {
  char buffer[32];
  const auto [end, error] = double_to_chars(buffer, buffer + sizeof buffer, value, 3);
  return error == std::errc{} ? std::string(buffer, end) : std::to_string(value);
}

// Weighted A* orders cells by g + weight x h. With a weight so large that weight x h overflows
// to infinity, every priority is infinite and the order is lost: on a 512 x 512 map a weight of
// 1e308 expanded 230 times the cells that 1e300 did. Such weights are refused. The bound leaves
// a factor of 16 below the largest double for adding g (at most about 1e47 on the largest map
// with the costliest terrain) and for rounding the priority to its heap key. Any weight near it
// already makes the search greedy best-first, so nothing a user could want is lost.
constexpr double largest_weighted_estimate = std::numeric_limits<double>::max() / 16;

/// The largest heuristic value on the map: the estimate between opposite corners, scaled as
/// GridDomain scales it (by the smallest terrain cost on maps that have terrain, and by the
/// filter's smallest area multiplier).
double largest_estimate(const GridMap& map, const GridSearchOptions& options, const AreaFilter* filter) {
  double scale = map.uniform_cost() && filter == nullptr ? 1.0 : static_cast<double>(map.min_cost());
  if (filter != nullptr) scale *= static_cast<double>(filter->smallest_cost(map.areas_in_use()));
  return scale * grid_distance(resolve_heuristic(options.heuristic, options.diagonal), map.width() - 1,
                               map.height() - 1);
}

/// Calls `run(std::type_identity<D>{})` with the grid domain of the cost model.
template <class Run>
SearchStatus with_domain(GridCosts costs, Run&& run) {
  switch (costs) {
    case GridCosts::uniform: return run(std::type_identity<UniformGrid>{});
    case GridCosts::terrain: return run(std::type_identity<TerrainGrid>{});
    case GridCosts::filtered: break;
  }
  return run(std::type_identity<FilteredGrid>{});
}

/// The same for an agent larger than one cell (never filtered).
template <class Run>
SearchStatus with_sized_domain(GridCosts costs, Run&& run) {
  if (costs == GridCosts::uniform) return run(std::type_identity<SizedUniformGrid>{});
  return run(std::type_identity<SizedTerrainGrid>{});
}

/// Whether a search algorithm can carry an agent larger than one cell: the ones built on
/// GridDomain's moves, and those that search the agent's body map. The wave and the walkers
/// read the map's cells directly.
constexpr bool supports_agent_size(GridAlgorithm algorithm) {
  switch (algorithm) {
    case GridAlgorithm::dijkstra:
    case GridAlgorithm::astar:
    case GridAlgorithm::weighted_astar:
    case GridAlgorithm::greedy_best_first:
    case GridAlgorithm::bidirectional_astar:
    case GridAlgorithm::ida_star: return true;
    default: return searches_body_map(algorithm);
  }
}

/// "start (3,4): a 2x2 agent with its top-left cell there does not fit: its cell (4,5) is blocked".
std::string body_problem(const GridMap& map, std::string_view end, Cell top_left, int size) {
  const std::string side = std::to_string(size);
  std::string text = std::string(end) + " " + cell_text(top_left) + ": a " + side + "x" + side +
                     " agent with its top-left cell there does not fit";
  if (const std::optional<Cell> cell = first_blocked_body_cell(map, top_left, size)) {
    const std::string map_size = std::to_string(map.width()) + "x" + std::to_string(map.height());
    text += ": its cell " + cell_text(*cell) +
            (map.contains(*cell) ? " is blocked" : " is outside the " + map_size + " map");
  }
  return text;
}

std::string map_size_text(const GridMap& map) {
  return std::to_string(map.width()) + "x" + std::to_string(map.height()) + " map";
}

/// Why the filter cannot serve `algorithm`, which it changes costs or cells for.
std::string filter_refusal(GridAlgorithm algorithm) {
  const bool jumps = algorithm == GridAlgorithm::jump_point || algorithm == GridAlgorithm::jump_point_plus;
  return std::string(to_string(algorithm)) +
         " cannot use this filter: it changes area costs or excludes cells on this map, and " +
         (jumps ? "jump point search needs every cell to cost 1"
          : algorithm == GridAlgorithm::breadth_first ? "the wave counts moves, not costs"
          : algorithm == GridAlgorithm::hierarchical ? "the hierarchy holds costs under the map's own terrain"
                                                     : "the walkers follow walls, not costs") +
         " (use astar or another search)";
}

/// The first job of begin(): whether the query can run on the map at all, from the map and the
/// options alone. Sets `filter` to the filter the search applies: null when there is none or
/// when it changes nothing on this map (so the search keeps its fastest loop).
std::optional<std::string> query_problem(const GridMap& map, Cell start, Cell goal, const GridSearchOptions& options,
                                         const AreaFilter*& filter) {
  filter = nullptr;
  if (map.cell_count() == 0) return "the map is empty";
  // Options may come from casts of untrusted numbers (bindings, files): check every enum.
  if (static_cast<unsigned>(options.algorithm) > static_cast<unsigned>(GridAlgorithm::hierarchical))
    return "unknown algorithm " + std::to_string(static_cast<unsigned>(options.algorithm));
  if (static_cast<unsigned>(options.diagonal) > static_cast<unsigned>(DiagonalMode::always))
    return "unknown diagonal mode " + std::to_string(static_cast<unsigned>(options.diagonal));
  if (static_cast<unsigned>(options.heuristic) > static_cast<unsigned>(Heuristic::chebyshev))
    return "unknown heuristic " + std::to_string(static_cast<unsigned>(options.heuristic));
  if (!map.contains(start)) return "start " + cell_text(start) + " is outside the " + map_size_text(map);
  if (!map.contains(goal)) return "goal " + cell_text(goal) + " is outside the " + map_size_text(map);
  if (!map.passable(start)) return "start " + cell_text(start) + " is blocked";
  if (!map.passable(goal)) return "goal " + cell_text(goal) + " is blocked";

  const GridAlgorithm algorithm = options.algorithm;
  if (options.filter) {
    if (auto problem = options.filter->problem()) return problem;
    if (!options.filter->neutral_for(map.areas_in_use(), map.flags_in_use())) filter = &*options.filter;
  }
  if (filter != nullptr) {
    if (!filter->passes(map.area(start), map.flags(start)))
      return "start " + cell_text(start) + " (" + area_text(map, start) + ") is excluded by the filter";
    if (!filter->passes(map.area(goal), map.flags(goal)))
      return "goal " + cell_text(goal) + " (" + area_text(map, goal) + ") is excluded by the filter";
    if (algorithm == GridAlgorithm::jump_point || algorithm == GridAlgorithm::jump_point_plus ||
        algorithm == GridAlgorithm::breadth_first || algorithm == GridAlgorithm::hierarchical ||
        is_reactive_walker(algorithm))
      return filter_refusal(algorithm);
  }

  if (algorithm == GridAlgorithm::weighted_astar) {
    if (!(std::isfinite(options.weight) && options.weight >= 1.0))
      return "weighted A* needs a finite weight >= 1, got " + number_text(options.weight);
    const double largest = largest_estimate(map, options, filter);
    if (options.weight * largest > largest_weighted_estimate)
      return "weight " + number_text(options.weight) + " is too large for this " + map_size_text(map) +
             ": times the largest distance estimate on it (" + rounded_text(largest) +
             ") it would overflow the search's priorities; the largest accepted here is about " +
             rounded_text(largest_weighted_estimate / largest) +
             " (or use the greedy algorithm, which ignores costs altogether)";
  } else if (auto problem = weight_problem(options.weight)) {
    return problem;
  }
  if (auto problem = budget_problem(options.budget)) return problem;
  const int agent_size = options.agent_size;
  if (agent_size < 1 || agent_size > max_clearance)
    return "agent_size must be from 1 to " + std::to_string(max_clearance) + " cells, got " + std::to_string(agent_size);
  if (agent_size > 1) {
    if (!supports_agent_size(algorithm))
      return std::string(to_string(algorithm)) + " supports only agent_size 1, not " + std::to_string(agent_size) +
             ": " +
             (algorithm == GridAlgorithm::breadth_first ? "the wave reads the map's cells directly"
                                                        : "the walkers follow walls cell by cell") +
             " (use astar, jps or another search)";
    if (filter != nullptr)
      return "agent_size " + std::to_string(agent_size) +
             " cannot be combined with a filter that changes area costs or excludes cells on this map";
  }
  if (algorithm == GridAlgorithm::jump_point) {
    if (!map.uniform_cost()) return "jump point search needs a map where every passable cell costs 1";
    if (options.diagonal != DiagonalMode::only_if_no_obstacles)
      return "jump point search supports only the diagonal mode only_if_no_obstacles";
  }
  if (algorithm == GridAlgorithm::jump_point_plus) {
    if (!map.uniform_cost()) return "JPS+ needs a map where every passable cell costs 1";
    if (options.diagonal != DiagonalMode::only_if_no_obstacles)
      return "JPS+ supports only the diagonal mode only_if_no_obstacles (its table holds that rule's jumps)";
  }
  if (algorithm == GridAlgorithm::hierarchical) {
    if (options.diagonal != DiagonalMode::only_if_no_obstacles)
      return "hierarchical search (hpa) supports only the diagonal mode only_if_no_obstacles";
    if (options.cluster_size < 4 || options.cluster_size > 256)
      return "cluster_size must be from 4 to 256 cells, got " + std::to_string(options.cluster_size);
  }
  return std::nullopt;
}

/// What the search reads besides the query's options, chosen by begin()'s second job.
struct SearchedData {
  /// The map the one-cell searches read: the map itself, or for a larger agent its body map.
  const GridMap* map = nullptr;
  const GridClearance* clearance = nullptr;                 ///< agent_size > 1
  const std::shared_ptr<const GridJumpTable>* jump_table = nullptr;  ///< jump_point_plus
  const GridGoalBounds* goal_bounds = nullptr;              ///< jump_point_plus, agent_size 1, optional
  const std::shared_ptr<const HierarchicalGrid>* hierarchy = nullptr;  ///< hierarchical
};

}  // namespace

struct GridQueryState {
  SearchContext forward;
  SearchContext backward;
  WaveState wave;
  std::vector<NodeId> jump_points;  ///< JumpPointRun's scratch
  int agent_size = 1;  ///< the current query's, for the points of its result
  /// Set by the caller (set_derived_data); never built here.
  GridDerivedData derived;
  ActiveSearch active;
  /// The query object over the last hierarchy searched, made again when another one is searched,
  /// and that hierarchy, held so that it cannot be freed and another made at its address.
  std::unique_ptr<HierarchicalGridQuery> hierarchical;
  std::shared_ptr<const HierarchicalGrid> hierarchical_over;
  const HierarchicalGrid* last_hierarchy = nullptr;  ///< the last hierarchical query's

  /// The second job of begin(): picks the derived data the query reads, or says what is missing
  /// or stale, and checks that a larger agent fits at both ends.
  std::optional<std::string> choose_data(const GridMap& map, Cell start, Cell goal, const GridSearchOptions& options,
                                         SearchedData& data) const;
  /// The third job: starts (or settles) the search.
  SearchStatus start_search(const GridMap& map, Cell start, Cell goal, const GridSearchOptions& options,
                            const AreaFilter* filter, const SearchedData& data);
};

std::optional<std::string> GridQueryState::choose_data(const GridMap& map, Cell start, Cell goal,
                                                            const GridSearchOptions& options,
                                                            SearchedData& data) const {
  data.map = &map;
  const GridAlgorithm algorithm = options.algorithm;
  const int size = options.agent_size;
  if (size == 1 && algorithm != GridAlgorithm::jump_point_plus && algorithm != GridAlgorithm::hierarchical)
    return std::nullopt;  // reads the map alone
  if (auto problem = grid_derived_data_problem(map, options, derived)) return problem;
  if (size == 1) {
    data.jump_table = &derived.jump_table;
    data.goal_bounds = derived.goal_bounds.get();
    data.hierarchy = &derived.hierarchy;
    return std::nullopt;
  }
  data.clearance = derived.clearance.get();
  if (!data.clearance->fits(start, size)) return body_problem(map, "start", start, size);
  if (!data.clearance->fits(goal, size)) return body_problem(map, "goal", goal, size);
  if (searches_body_map(algorithm)) {
    // Goal bounds describe the map itself, not a larger agent's body map.
    const GridAgentBodyData& body = *derived.body(size);
    data.map = &body.body_map->map();
    data.jump_table = &body.jump_table;
    data.hierarchy = &body.hierarchy;
  }
  return std::nullopt;
}

SearchStatus GridQueryState::start_search(const GridMap& map, Cell start, Cell goal,
                                               const GridSearchOptions& options, const AreaFilter* filter,
                                               const SearchedData& data) {
  if (options.algorithm == GridAlgorithm::hierarchical) {
    if (!hierarchical || hierarchical_over != *data.hierarchy) {
      hierarchical = std::make_unique<HierarchicalGridQuery>(**data.hierarchy);
      hierarchical_over = *data.hierarchy;
    }
    HierarchicalSearchOptions search;
    static_cast<QueryOptions&>(search) = options;
    last_hierarchy = hierarchical_over.get();
    return active.start<HierarchicalRun>(*hierarchical).query.begin(start, goal, search);
  }

  Cost g_weight = 1.0;
  Cost h_weight = 1.0;
  switch (options.algorithm) {
    case GridAlgorithm::dijkstra: h_weight = 0.0; break;
    case GridAlgorithm::weighted_astar: h_weight = options.weight; break;
    case GridAlgorithm::greedy_best_first: g_weight = 0.0; break;
    default: break;
  }
  const SearchOptions search = engine_options(options, g_weight, h_weight);

  const NodeId from = map.id_of(start);
  const NodeId to = map.id_of(goal);
  const GridCosts costs = filter != nullptr ? GridCosts::filtered
                          : map.uniform_cost() ? GridCosts::uniform
                                               : GridCosts::terrain;
  const int size = options.agent_size;
  if (size > 1 && !searches_body_map(options.algorithm)) {
    // Branch once per query: the unit agent never reaches these instantiations.
    const GridClearance& clearance = *data.clearance;
    return with_sized_domain(costs, [&]<class D>(std::type_identity<D>) {
      switch (options.algorithm) {
        case GridAlgorithm::bidirectional_astar:
          return active.start<BidirectionalRun<D>>(forward, backward, map, clearance, size, options.diagonal,
                                                   options.heuristic)
              .search.start(from, to, search);
        case GridAlgorithm::ida_star: {
          const D domain(map, clearance, size, options.diagonal, options.heuristic);
          return active.settle(IdaStarSearch<D>(domain, forward).run(from, to, search));
        }
        default:
          return active.start<EngineRun<D>>(forward, map, clearance, size, options.diagonal, options.heuristic)
              .search.start(from, to, search);
      }
    });
  }
  switch (options.algorithm) {
    case GridAlgorithm::crash_right:
      return active.start<CrashWalker>(map, options.diagonal)
          .start(from, to, WallHand::right, search, options.walker_step_limit);
    case GridAlgorithm::crash_left:
      return active.start<CrashWalker>(map, options.diagonal)
          .start(from, to, WallHand::left, search, options.walker_step_limit);
    case GridAlgorithm::crash_auto:
      return active.start<CrashWalker>(map, options.diagonal)
          .start(from, to, WallHand::automatic, search, options.walker_step_limit);
    case GridAlgorithm::crash_four_way:
      return active.start<FourWayCrashWalker>(map, options.diagonal).start(from, to, search, options.walker_step_limit);
    case GridAlgorithm::divide:
      return active.start<MidpointWalker>(map, options.diagonal).start(from, to, search, options.walker_step_limit);
    case GridAlgorithm::breadth_first:
      return active.start<BreadthFirstWave>(map, options.diagonal, wave).start(from, to, search);
    case GridAlgorithm::jump_point:
      return active.start<JumpPointRun>(forward, *data.map, jump_points, to).search.start(from, to, search);
    case GridAlgorithm::jump_point_plus:
      return active
          .start<JumpPointPlusRun>(forward, *data.map, *data.jump_table,
                                   data.goal_bounds != nullptr ? derived.goal_bounds : nullptr, to, jump_points)
          .search.start(from, to, search);
    case GridAlgorithm::bidirectional_astar:
      return with_domain(costs, [&]<class D>(std::type_identity<D>) {
        return active.start<BidirectionalRun<D>>(forward, backward, map, options.diagonal, options.heuristic, filter)
            .search.start(from, to, search);
      });
    case GridAlgorithm::ida_star:
      return with_domain(costs, [&]<class D>(std::type_identity<D>) {
        const D domain(map, options.diagonal, options.heuristic, filter);
        return active.settle(IdaStarSearch<D>(domain, forward).run(from, to, search));
      });
    default:
      return with_domain(costs, [&]<class D>(std::type_identity<D>) {
        return active.start<EngineRun<D>>(forward, map, options.diagonal, options.heuristic, filter)
            .search.start(from, to, search);
      });
  }
}

std::string_view to_string(GridAlgorithm algorithm) { return algorithm_name(algorithm_names, algorithm); }

std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name) {
  return parse_algorithm_name(algorithm_names, name);
}

GridQuery::GridQuery(const GridMap& map) : QueryObject(map), state_(std::make_unique<GridQueryState>()) {}
GridQuery::GridQuery(const GridMap& map, GridDerivedData derived) : GridQuery(map) {
  state_->derived = std::move(derived);
}
GridQuery::~GridQuery() = default;
GridQuery::GridQuery(GridQuery&&) noexcept = default;

SearchStatus GridQuery::start_query(Cell start, Cell goal, const GridSearchOptions& options) {
  ActiveSearch& active = state_->active;
  active.watch(map().revision());
  state_->agent_size = 1;
  const AreaFilter* filter = nullptr;
  if (auto problem = query_problem(map(), start, goal, options, filter)) return active.reject(*problem);
  SearchedData data;
  if (auto problem = state_->choose_data(map(), start, goal, options, data)) return active.reject(*problem);
  state_->agent_size = options.agent_size;
  return state_->start_search(map(), start, goal, options, filter, data);
}

void GridQuery::set_derived_data(GridDerivedData derived) { state_->derived = std::move(derived); }

const GridDerivedData& GridQuery::derived_data() const { return state_->derived; }

void GridQuery::set_jump_table(std::shared_ptr<const GridJumpTable> table) {
  if (table != nullptr)
    if (auto problem = table->mismatch_thoroughly(map())) throw std::invalid_argument(*problem);
  state_->derived.jump_table = std::move(table);
}

std::shared_ptr<const GridJumpTable> GridQuery::jump_table() const { return state_->derived.jump_table; }

void GridQuery::set_goal_bounds(std::shared_ptr<const GridGoalBounds> bounds) {
  if (bounds != nullptr)
    if (auto problem = bounds->mismatch_thoroughly(map())) throw std::invalid_argument(*problem);
  state_->derived.goal_bounds = std::move(bounds);
}

std::shared_ptr<const GridGoalBounds> GridQuery::goal_bounds() const { return state_->derived.goal_bounds; }

SearchStatus GridQuery::advance_query(const StepBudget& budget) { return state_->active.step(budget, map().revision()); }

SearchStats GridQuery::query_stats() const { return state_->active.stats(); }

const HierarchicalGrid* GridQuery::hierarchy() const { return state_->last_hierarchy; }

void GridQuery::write_result(PathResult& out) const {
  state_->active.result(out);
  if (state_->agent_size > 1)
    fill_body_centres(map(), state_->agent_size, out);
  else
    fill_cell_centres(map(), out);
}

void fill_cell_centres(const GridMap& map, PathResult& result) {
  result.points.clear();
  result.points.reserve(result.nodes.size());
  for (const NodeId node : result.nodes) result.points.push_back(GridMap::centre(map.cell_of(node)));
}

void fill_body_centres(const GridMap& map, int agent_size, PathResult& result) {
  result.points.clear();
  result.points.reserve(result.nodes.size());
  const double half = 0.5 * agent_size;
  for (const NodeId node : result.nodes) {
    const Cell c = map.cell_of(node);
    result.points.push_back({c.x + half, c.y + half, 0.0});
  }
}

}  // namespace wayfinder
