// HPA* on grids (see hierarchical_grid.hpp), the queries: connect the start and the goal to
// their clusters' nodes, search the abstract graph, refine its edges and smooth the path.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "hierarchical_grid_cluster_search.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"

namespace wayfinder {

using hierarchical_grid_detail::rule;
using hierarchy_search::add_stats;

namespace {

/// The sum of the moves of a cell path.
Cost path_cost(const GridMap& map, const std::vector<NodeId>& cells) {
  Cost cost = 0.0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const Cell a = map.cell_of(cells[i - 1]);
    const Cell b = map.cell_of(cells[i]);
    cost += grid_move_cost(map, cells[i - 1], cells[i], a.x != b.x && a.y != b.y);
  }
  return cost;
}

}  // namespace

void HierarchicalGrid::append_intra_path(std::uint32_t from, std::uint32_t to, std::vector<NodeId>& path) const {
  const int cluster = cluster_of(map_.cell_of(node_cells_[from]));
  const ClusterData& data = clusters_[static_cast<std::size_t>(cluster)];
  const GridRect rect = cluster_rect(cluster);
  const std::size_t k = data.cells.size();
  const std::size_t i = from - node_offsets_[static_cast<std::size_t>(cluster)];
  const std::size_t j = to - node_offsets_[static_cast<std::size_t>(cluster)];
  const std::size_t pair = i < j ? i * k + j : j * k + i;
  const std::uint16_t* first = data.path_cells.data() + data.path_offsets[pair];
  const std::uint16_t* last = data.path_cells.data() + data.path_offsets[pair + 1];
  auto cell = [&](std::uint16_t local) { return map_.id_of(rect.x + local % rect.width, rect.y + local / rect.width); };
  const std::size_t before = path.size();
  if (i < j) {
    for (const std::uint16_t* p = first; p != last; ++p) path.push_back(cell(*p));
  } else {
    for (const std::uint16_t* p = last; p != first; --p) path.push_back(cell(*(p - 1)));
  }
  // The path starts at `from`: not twice when `path` already ended there.
  if (before > 0 && path.size() > before && path[before - 1] == path[before]) path.erase(path.begin() + static_cast<std::ptrdiff_t>(before));
}

// ---------------------------------------------------------------------------------------------
// Smoothing (Botea et al. 2004, section 4)

// A straight run from cell i can only replace the stretch up to a later cell j that lies on one
// of the 8 lines through i, so instead of walking all 8 rays from every cell, the later cells
// within `reach` moves along the path are tested for that (a few integer operations each), and a
// run is walked only where its cheapest possible cost (its moves at the map's smallest terrain
// cost) would save something. Detours longer than `reach` moves that a ray could cut are left as
// they are; HPA*'s refined paths rarely have them.
struct PathSmoother {
  std::vector<Cost> prefix;
  std::vector<Cell> at;
  std::vector<NodeId> out;

  Cost smooth(const GridMap& map, std::vector<NodeId>& cells, int max_ray, int reach);
};

Cost PathSmoother::smooth(const GridMap& map, std::vector<NodeId>& cells, int max_ray, int reach) {
  const std::size_t n = cells.size();
  if (n <= 2) return path_cost(map, cells);
  prefix.assign(n, 0.0);
  at.resize(n);
  at[0] = map.cell_of(cells[0]);
  for (std::size_t i = 1; i < n; ++i) {
    at[i] = map.cell_of(cells[i]);
    const Cell a = at[i - 1];
    const Cell b = at[i];
    prefix[i] = prefix[i - 1] + grid_move_cost(map, cells[i - 1], cells[i], a.x != b.x && a.y != b.y);
  }
  const double cheapest = static_cast<double>(map.min_cost());
  // The cost of the straight run from `from` by `steps` moves of (dx, dy), or infinity when a
  // move is not allowed.
  auto run_cost = [&](Cell from, int dx, int dy, int steps) {
    const int bit = (dy + 1) * 3 + (dx + 1);
    const bool diagonal = dx != 0 && dy != 0;
    Cell c = from;
    NodeId previous = map.id_of(c);
    Cost run = 0.0;
    for (int step = 0; step < steps; ++step) {
      if (!((allowed_moves(rule, map.neighbourhood(c.x, c.y)) >> bit) & 1u)) return infinite_cost;
      c = {c.x + dx, c.y + dy};
      const NodeId id = map.id_of(c);
      run += grid_move_cost(map, previous, id, diagonal);
      previous = id;
    }
    return run;
  };

  out.clear();
  std::size_t i = 0;
  while (true) {
    out.push_back(cells[i]);
    if (i + 1 == n) break;
    const Cell here = at[i];
    std::size_t best_end = i + 1;
    Cost best_saving = 1e-9;
    const std::size_t last = std::min(n - 1, i + static_cast<std::size_t>(reach));
    for (std::size_t j = i + 2; j <= last; ++j) {
      const Cell to = at[j];
      const int adx = std::abs(to.x - here.x);
      const int ady = std::abs(to.y - here.y);
      if (!(adx == 0 || ady == 0 || adx == ady)) continue;
      const int steps = std::max(adx, ady);
      if (steps == 0 || steps > max_ray) continue;
      const double stretch = prefix[j] - prefix[i];
      const double length = (adx != 0 && ady != 0 ? sqrt2 : 1.0) * steps;
      if (stretch - length * cheapest <= best_saving) continue;
      const Cost run = run_cost(here, (to.x > here.x) - (to.x < here.x), (to.y > here.y) - (to.y < here.y), steps);
      if (stretch - run > best_saving) {
        best_saving = stretch - run;
        best_end = j;
      }
    }
    if (best_end > i + 1) {
      const Cell to = at[best_end];
      const int dx = (to.x > here.x) - (to.x < here.x);
      const int dy = (to.y > here.y) - (to.y < here.y);
      for (Cell c{here.x + dx, here.y + dy}; !(c == to); c = {c.x + dx, c.y + dy}) out.push_back(map.id_of(c));
    }
    i = best_end;
  }
  cells.swap(out);
  return path_cost(map, cells);
}

Cost smooth_cell_path(const GridMap& map, std::vector<NodeId>& cells, int max_ray) {
  PathSmoother smoother;
  return smoother.smooth(map, cells, max_ray, 4 * max_ray);
}


// ---------------------------------------------------------------------------------------------
// Queries

namespace {

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

double microseconds_since(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
}

// The abstract graph's places and estimate as named types, so that its domain and search can be
// kept from step to step.
struct NodeCellOf {
  const HierarchicalGrid* hierarchy;
  NodeId operator()(NodeId node) const { return hierarchy->node_cell(node); }
};
struct ScaledOctile {
  const GridMap* map;
  double scale;
  Cost operator()(NodeId a, NodeId b) const { return scale * octile_cell_distance(*map, a, b); }
};
using AbstractGrid = hierarchy_search::AbstractDomain<HierarchicalGrid, NodeCellOf, ScaledOctile>;

/// The searches a query runs, in this order (direct only when start and goal share a cluster,
/// and the others only when it finds no path within the budget's max_cost).
enum class Phase { settled, direct, connect_start, connect_goal, abstract };

}  // namespace

struct HierarchicalQueryState {
  explicit HierarchicalQueryState(const HierarchicalGrid& searched)
      : hierarchy(searched), map(searched.map()), cluster(map), goal_side(map) {}

  const HierarchicalGrid& hierarchy;
  const GridMap& map;
  ClusterSearch cluster;       ///< the direct search, then the start's search (its tree kept)
  ClusterSearch goal_side;     ///< the goal's search (its tree kept)
  SearchContext abstract;
  std::vector<Cost> start_costs;
  std::vector<Cost> goal_costs;
  std::vector<NodeId> targets;  ///< a cluster's node cells, for the connecting searches
  std::vector<NodeId> abstract_path;
  PathSmoother smoother;

  // The query under way.
  HierarchicalSearchOptions options;
  NodeId from = invalid_node;
  NodeId to = invalid_node;
  int start_cluster = 0;
  int goal_cluster = 0;
  Phase phase = Phase::settled;
  SearchStatus phase_status = SearchStatus::invalid_input;  ///< the current search's
  std::optional<AbstractGrid> abstract_domain;
  std::optional<BestFirstSearch<AbstractGrid>> abstract_search;
  SearchStats ended;          ///< the work of the searches that ended
  double microseconds = 0.0;  ///< the query's time so far (begin and steps)
  PathResult result;          ///< the final result once phase is settled (in_progress before)

  SearchStatus begin(Cell start, Cell goal, const HierarchicalSearchOptions& query_options);
  /// Runs the searches until `max_expansions` more are done or the query ends.
  SearchStatus run(std::uint64_t max_expansions);
  [[nodiscard]] SearchStats stats() const;
  [[nodiscard]] std::uint64_t expanded() const { return ended.expanded + current_stats().expanded; }

 private:
  [[nodiscard]] SearchStats current_stats() const;
  /// What is left of the options' budget for the next search: expansions, time, and memory
  /// besides the next search's own context (whose measure the engine adds).
  [[nodiscard]] Budget budget_left(std::size_t own_memory) const;
  void enter(Phase next);
  void connect(ClusterSearch& searcher, int cluster_index, NodeId cell, std::vector<Cost>& costs, Phase next);
  SearchStatus step_current(std::uint64_t max_expansions);
  void end_current(SearchStatus status, RunOutcome outcome);
  void refine();
  SearchStatus settle(RunOutcome outcome);
  SearchStatus reject(std::string why);
  [[nodiscard]] std::size_t memory_bytes() const {
    return cluster.memory_bytes() + goal_side.memory_bytes() + abstract.memory_bytes();
  }
};

SearchStatus HierarchicalQueryState::reject(std::string why) {
  phase = Phase::settled;
  result.status = SearchStatus::invalid_input;
  result.reason = StopReason::invalid_input;
  result.message = std::move(why);
  return result.status;
}

SearchStatus HierarchicalQueryState::begin(Cell start, Cell goal, const HierarchicalSearchOptions& query_options) {
  result.reset();
  result.status = SearchStatus::in_progress;
  ended = {};
  microseconds = 0.0;
  options = query_options;
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  if (!map.contains(start)) return reject("start " + cell_text(start) + " is outside the " + size + " map");
  if (!map.contains(goal)) return reject("goal " + cell_text(goal) + " is outside the " + size + " map");
  if (!map.passable(start)) return reject("start " + cell_text(start) + " is blocked");
  if (!map.passable(goal)) return reject("goal " + cell_text(goal) + " is blocked");
  if (!hierarchy.current())
    return reject("the map was edited since its hierarchy was built (hierarchy at revision " +
                  std::to_string(hierarchy.revision()) + ", map at " + std::to_string(map.revision()) +
                  "): call HierarchicalGrid::update() first");
  if (std::optional<std::string> problem = budget_problem(options.budget)) return reject(std::move(*problem));

  from = map.id_of(start);
  to = map.id_of(goal);
  start_cluster = hierarchy.cluster_of(start);
  goal_cluster = hierarchy.cluster_of(goal);
  if (from == to) {
    result.nodes.push_back(from);
    return settle(RunOutcome::goal_reached());
  }
  enter(start_cluster == goal_cluster ? Phase::direct : Phase::connect_start);
  return phase == Phase::settled ? result.status : SearchStatus::in_progress;
}

Budget HierarchicalQueryState::budget_left(std::size_t own_memory) const {
  return hierarchy_search::budget_left(options.budget, ended.expanded, microseconds,
                                       memory_bytes() - std::min(memory_bytes(), own_memory));
}

void HierarchicalQueryState::connect(ClusterSearch& searcher, int cluster_index, NodeId cell, std::vector<Cost>& costs,
                                     Phase next) {
  const std::uint32_t first = hierarchy.cluster_first_node(cluster_index);
  const std::uint32_t end = hierarchy.cluster_end_node(cluster_index);
  costs.assign(end - first, infinite_cost);
  if (end == first) return enter(next);  // a cluster without nodes: nothing to connect to
  targets.clear();
  for (std::uint32_t n = first; n < end; ++n) targets.push_back(hierarchy.node_cell(n));
  Budget budget = budget_left(searcher.memory_bytes());
  phase_status = searcher.start_costs(hierarchy.cluster_rect(cluster_index), cell, targets, budget);
}

void HierarchicalQueryState::enter(Phase next) {
  phase = next;
  switch (next) {
    case Phase::direct: {
      SearchOptions search;
      search.budget = budget_left(cluster.memory_bytes());
      phase_status = cluster.start_path(hierarchy.cluster_rect(start_cluster), from, to, search);
      break;
    }
    case Phase::connect_start: return connect(cluster, start_cluster, from, start_costs, Phase::connect_goal);
    case Phase::connect_goal: return connect(goal_side, goal_cluster, to, goal_costs, Phase::abstract);
    case Phase::abstract: {
      const double scale = static_cast<double>(map.min_cost());
      const AbstractGrid& domain =
          abstract_domain.emplace(hierarchy, NodeCellOf{&hierarchy}, ScaledOctile{&map, scale}, from, to,
                                  start_cluster, goal_cluster, start_costs, goal_costs);
      SearchOptions search;
      search.budget = budget_left(abstract.memory_bytes());
      search.return_partial = false;
      phase_status = abstract_search.emplace(domain, abstract).start(domain.start(), domain.goal(), search);
      break;
    }
    case Phase::settled: break;
  }
}

SearchStatus HierarchicalQueryState::run(std::uint64_t max_expansions) {
  std::uint64_t done = 0;
  while (phase != Phase::settled) {
    if (phase_status == SearchStatus::in_progress) {
      if (done >= max_expansions) return SearchStatus::in_progress;
      const std::uint64_t before = current_stats().expanded;
      phase_status = step_current(max_expansions - done);
      done += current_stats().expanded - before;
      if (phase_status == SearchStatus::in_progress) return SearchStatus::in_progress;
    }
    RunOutcome outcome;
    switch (phase) {
      case Phase::direct: outcome = cluster.path_outcome(); break;
      case Phase::connect_start: outcome = cluster.costs_outcome(); break;
      case Phase::connect_goal: outcome = goal_side.costs_outcome(); break;
      case Phase::abstract: outcome = abstract_search->outcome(); break;
      case Phase::settled: break;
    }
    hierarchy_search::add_stats(ended, current_stats());
    end_current(phase_status, outcome);
  }
  return result.status;
}

SearchStatus HierarchicalQueryState::step_current(std::uint64_t max_expansions) {
  switch (phase) {
    case Phase::direct: return cluster.step_path(max_expansions);
    case Phase::connect_start: return cluster.step_costs(max_expansions);
    case Phase::connect_goal: return goal_side.step_costs(max_expansions);
    case Phase::abstract: return abstract_search->step(max_expansions);
    case Phase::settled: break;
  }
  return result.status;
}

SearchStats HierarchicalQueryState::current_stats() const {
  switch (phase) {
    case Phase::direct: return cluster.path_stats();
    case Phase::connect_start: return cluster.costs_stats();
    case Phase::connect_goal: return goal_side.costs_stats();
    case Phase::abstract: return abstract_search->stats();
    case Phase::settled: break;
  }
  return {};
}

SearchStats HierarchicalQueryState::stats() const {
  SearchStats total = ended;
  hierarchy_search::add_stats(total, current_stats());
  total.microseconds = microseconds;
  return total;
}

void HierarchicalQueryState::end_current(SearchStatus status, RunOutcome outcome) {
  const Phase ending = phase;
  phase = Phase::settled;  // until the next search starts
  if (status == SearchStatus::invalid_input) {
    result.message = "the hierarchy's search refused its input";
    settle(RunOutcome::invalid_input());
    return;
  }
  switch (ending) {
    case Phase::direct:
      if (status == SearchStatus::found) {
        cluster.append_found_path(result.nodes);
        settle(RunOutcome::goal_reached());
        return;
      }
      // No path inside the cluster (or none within max_cost): one may leave it and come back.
      if (status == SearchStatus::no_path || outcome.reason == StopReason::cost_limit) return enter(Phase::connect_start);
      break;
    case Phase::connect_start:
      if (status == SearchStatus::found) {
        cluster.write_costs(start_costs.data());
        return enter(Phase::connect_goal);
      }
      break;
    case Phase::connect_goal:
      if (status == SearchStatus::found) {
        goal_side.write_costs(goal_costs.data());
        return enter(Phase::abstract);
      }
      break;
    case Phase::abstract:
      if (status == SearchStatus::found) {
        refine();
        settle(RunOutcome::goal_reached());
        return;
      }
      if (status == SearchStatus::no_path) {
        settle(RunOutcome::unreachable(options.partial_when_unreachable));
        return;
      }
      break;
    case Phase::settled: return;
  }
  settle(RunOutcome::budget_spent(outcome.reason, options.return_partial));
}

// The start's and the goal's searches hold their paths to the first and from the last node; an
// edge between two clusters is one move; an edge inside a cluster is the path the hierarchy
// keeps for it.
void HierarchicalQueryState::refine() {
  abstract_search->path_to(abstract_domain->goal(), abstract_path);
  const std::vector<NodeId>& nodes = abstract_path;
  const std::size_t last = nodes.size() - 1;  // the goal; nodes[0] is the start
  std::vector<NodeId>& out = result.nodes;
  out.push_back(from);
  cluster.append_tree_path(abstract_domain->place(nodes[1]), out, false);
  for (std::size_t i = 2; i < last; ++i) {
    const NodeId a = nodes[i - 1];
    const NodeId b = nodes[i];
    const NodeId b_cell = hierarchy.node_cell(b);
    if (hierarchy.cluster_of(map.cell_of(hierarchy.node_cell(a))) != hierarchy.cluster_of(map.cell_of(b_cell)))
      out.push_back(b_cell);
    else
      hierarchy.append_intra_path(a, b, out);
  }
  goal_side.append_tree_path(abstract_domain->place(nodes[last - 1]), out, true);
}

// Ends the query. A path that stops short (a budget stop or an unreachable goal with a partial
// result asked for) is the start alone: the hierarchy knows no cell closer to the goal until it
// has refined an abstract path.
SearchStatus HierarchicalQueryState::settle(RunOutcome outcome) {
  phase = Phase::settled;
  result.status = outcome.status;
  result.reason = outcome.reason;
  if (outcome.status == SearchStatus::found) {
    const int side = hierarchy.cluster_size();
    result.cost = options.smooth ? smoother.smooth(map, result.nodes, 2 * side, 4 * side) : path_cost(map, result.nodes);
  } else if (outcome.status == SearchStatus::partial) {
    result.nodes.assign(1, from);
    result.cost = 0.0;
  }
  fill_cell_centres(map, result);
  return result.status;
}

HierarchicalGridQuery::HierarchicalGridQuery(const HierarchicalGrid& hierarchy)
    : QueryObject(hierarchy), state_(std::make_unique<HierarchicalQueryState>(hierarchy)) {}
HierarchicalGridQuery::~HierarchicalGridQuery() = default;
HierarchicalGridQuery::HierarchicalGridQuery(HierarchicalGridQuery&&) noexcept = default;

SearchStatus HierarchicalGridQuery::start_query(Cell start, Cell goal, const HierarchicalSearchOptions& options) {
  const auto began = std::chrono::steady_clock::now();
  HierarchicalQueryState& state = *state_;
  const SearchStatus status = state.begin(start, goal, options);
  state.microseconds += microseconds_since(began);
  state.result.stats = state.stats();
  return status;
}

SearchStatus HierarchicalGridQuery::advance_query(const StepBudget& budget) {
  HierarchicalQueryState& state = *state_;
  if (state.result.status != SearchStatus::in_progress) return state.result.status;
  const auto began = std::chrono::steady_clock::now();
  const SearchStatus status = hierarchy_search::step_in_chunks(
      budget, [&](std::uint64_t expansions) { return state.run(expansions); }, [&] { return state.expanded(); });
  state.microseconds += microseconds_since(began);
  state.result.stats = state.stats();
  return status;
}

void HierarchicalGridQuery::write_result(PathResult& out) const {
  hierarchy_search::write_query_result(state_->result, state_->stats(), out);
}

SearchStats HierarchicalGridQuery::query_stats() const { return state_->stats(); }

}  // namespace wayfinder
