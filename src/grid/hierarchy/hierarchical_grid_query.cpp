// HPA* on grids (see hierarchical_grid.hpp), the queries: connect the start and the goal to
// their clusters' nodes, search the abstract graph, refine its edges and smooth the path.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
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

}  // namespace

struct HierarchicalQueryState {
  explicit HierarchicalQueryState(const GridMap& map) : cluster(map), goal_cluster(map) {}
  ClusterSearch cluster;       ///< the direct search, then the start's search (its tree kept)
  ClusterSearch goal_cluster;  ///< the goal's search (its tree kept)
  SearchContext abstract;
  std::vector<Cost> start_costs;
  std::vector<Cost> goal_costs;
  std::vector<NodeId> abstract_path;
  PathSmoother smoother;
};

HierarchicalGridQuery::HierarchicalGridQuery(const HierarchicalGrid& hierarchy)
    : hierarchy_(hierarchy), state_(std::make_unique<HierarchicalQueryState>(hierarchy.map())) {}
HierarchicalGridQuery::~HierarchicalGridQuery() = default;
HierarchicalGridQuery::HierarchicalGridQuery(HierarchicalGridQuery&&) noexcept = default;

PathResult HierarchicalGridQuery::find_path(Cell start, Cell goal, const HierarchicalSearchOptions& options) {
  PathResult out;
  find_path(start, goal, options, out);
  return out;
}

SearchStatus HierarchicalGridQuery::find_path(Cell start, Cell goal, const HierarchicalSearchOptions& options,
                                               PathResult& out) {
  const auto began = std::chrono::steady_clock::now();
  out.reset();
  const GridMap& map = hierarchy_.map();
  auto reject = [&](std::string why) {
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = std::move(why);
    return out.status;
  };
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  if (!map.contains(start)) return reject("start " + cell_text(start) + " is outside the " + size + " map");
  if (!map.contains(goal)) return reject("goal " + cell_text(goal) + " is outside the " + size + " map");
  if (!map.passable(start)) return reject("start " + cell_text(start) + " is blocked");
  if (!map.passable(goal)) return reject("goal " + cell_text(goal) + " is blocked");
  if (!hierarchy_.current())
    return reject("the map was edited since its hierarchy was built (hierarchy at revision " +
                  std::to_string(hierarchy_.revision()) + ", map at " + std::to_string(map.revision()) +
                  "): call HierarchicalGrid::update() first");

  HierarchicalQueryState& state = *state_;
  const NodeId from = map.id_of(start);
  const NodeId to = map.id_of(goal);
  const int start_cluster = hierarchy_.cluster_of(start);
  const int goal_cluster = hierarchy_.cluster_of(goal);
  auto finish = [&](SearchStatus status, StopReason reason) {
    out.status = status;
    out.reason = reason;
    if (status == SearchStatus::found) {
      out.cost = options.smooth ? state.smoother.smooth(map, out.nodes, 2 * hierarchy_.cluster_size(),
                                                        4 * hierarchy_.cluster_size())
                                : path_cost(map, out.nodes);
    }
    fill_cell_centres(map, out);
    out.stats.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    return out.status;
  };

  if (from == to) {
    out.nodes.push_back(from);
    return finish(SearchStatus::found, StopReason::goal_reached);
  }
  // One cluster: a direct search inside it first.
  if (start_cluster == goal_cluster &&
      state.cluster.append_path(hierarchy_.cluster_rect(start_cluster), from, to, out.nodes, out.stats))
    return finish(SearchStatus::found, StopReason::goal_reached);
  out.nodes.clear();

  // Connect start and goal to the nodes of their clusters.
  auto connect = [&](ClusterSearch& searcher, int cluster, NodeId cell, std::vector<Cost>& costs) {
    const std::uint32_t first = hierarchy_.cluster_first_node(cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(cluster);
    costs.assign(end - first, infinite_cost);
    if (end == first) return;
    std::vector<NodeId>& targets = state.abstract_path;
    targets.clear();
    for (std::uint32_t n = first; n < end; ++n) targets.push_back(hierarchy_.node_cell(n));
    searcher.costs_from(hierarchy_.cluster_rect(cluster), cell, targets, costs.data(), out.stats);
  };
  connect(state.cluster, start_cluster, from, state.start_costs);
  connect(state.goal_cluster, goal_cluster, to, state.goal_costs);

  auto locate = [&](NodeId node) { return hierarchy_.node_cell(node); };
  const double scale = static_cast<double>(map.min_cost());
  auto estimate = [&](NodeId a, NodeId b) { return scale * octile_cell_distance(map, a, b); };
  using Abstract = hierarchy_search::AbstractDomain<HierarchicalGrid, decltype(locate), decltype(estimate)>;
  const Abstract domain(hierarchy_, locate, estimate, from, to, start_cluster, goal_cluster, state.start_costs,
                        state.goal_costs);
  if (!hierarchy_search::search_abstract_graph(domain, state.abstract, out.stats, state.abstract_path))
    return finish(SearchStatus::no_path, StopReason::open_list_empty);

  // Refine: the start's and the goal's searches hold their paths to the first and from the last
  // node; an edge between two clusters is one move; an edge inside a cluster is the path the
  // hierarchy keeps for it.
  const std::vector<NodeId>& abstract = state.abstract_path;
  const std::size_t last = abstract.size() - 1;  // the goal; abstract[0] is the start
  out.nodes.push_back(from);
  state.cluster.append_tree_path(domain.place(abstract[1]), out.nodes, false);
  for (std::size_t i = 2; i < last; ++i) {
    const NodeId a = abstract[i - 1];
    const NodeId b = abstract[i];
    const NodeId b_cell = hierarchy_.node_cell(b);
    if (hierarchy_.cluster_of(map.cell_of(hierarchy_.node_cell(a))) != hierarchy_.cluster_of(map.cell_of(b_cell)))
      out.nodes.push_back(b_cell);
    else
      hierarchy_.append_intra_path(a, b, out.nodes);
  }
  state.goal_cluster.append_tree_path(domain.place(abstract[last - 1]), out.nodes, true);
  return finish(SearchStatus::found, StopReason::goal_reached);
}

}  // namespace wayfinder
