// HPA* over voxel worlds (see voxel_hierarchy.hpp), the queries: connect the start and the goal
// to their clusters' nodes, search the abstract graph, refine its edges, smooth a flyer's path.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/hierarchy_search.hpp"
#include "voxel_hierarchy_parts.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {

using namespace voxel_hierarchy_detail;

namespace {

using hierarchy_search::add_stats;
using hierarchy_search::costs_to_targets;

}  // namespace

namespace {

/// The blocks of the 3-D Bresenham line from a to b (Bresenham 1965, extended to three axes:
/// one step per block along the longest axis, the other two following their error terms),
/// appended to `line` without `a`, if every step is a flyer's move (no solid block in the box it
/// spans); false otherwise. `cost` gets the line's length in moves of 1, sqrt 2 and sqrt 3.
bool free_flying_line(const VoxelWorld& world, VoxelCoord a, VoxelCoord b, std::vector<VoxelCoord>& line, Cost& cost) {
  const int d[3] = {std::abs(b.x - a.x), std::abs(b.y - a.y), std::abs(b.z - a.z)};
  const int sign[3] = {b.x > a.x ? 1 : -1, b.y > a.y ? 1 : -1, b.z > a.z ? 1 : -1};
  const int longest = std::max({d[0], d[1], d[2]});
  int error[3] = {longest / 2, longest / 2, longest / 2};
  int at[3] = {a.x, a.y, a.z};
  cost = 0.0;
  for (int step = 0; step < longest; ++step) {
    int next[3] = {at[0], at[1], at[2]};
    int axes = 0;
    for (int axis = 0; axis < 3; ++axis) {
      error[axis] -= d[axis];
      if (error[axis] < 0) {
        error[axis] += longest;
        next[axis] += sign[axis];
        ++axes;
      }
    }
    for (int x = std::min(at[0], next[0]); x <= std::max(at[0], next[0]); ++x)
      for (int y = std::min(at[1], next[1]); y <= std::max(at[1], next[1]); ++y)
        for (int z = std::min(at[2], next[2]); z <= std::max(at[2], next[2]); ++z)
          if (!world.contains(x, y, z) || world.solid(x, y, z)) return false;
    cost += axes == 1 ? 1.0 : axes == 2 ? sqrt2 : 1.7320508075688772;
    line.push_back({next[0], next[1], next[2]});
    at[0] = next[0];
    at[1] = next[1];
    at[2] = next[2];
  }
  return true;
}

/// Shortens a flyer's path: from each block, straight lines to blocks up to `reach` moves
/// further along (the farthest first, then half as far, down to two) replace the stretch they
/// skip when they are free and shorter, as HPA*'s smoothing does on grids (Botea et al. 2004,
/// section 4). The path stays a chain of legal moves from the same start to the same goal.
void smooth_flying_path(const VoxelWorld& world, std::vector<NodeId>& nodes, int reach, std::vector<NodeId>& scratch,
                        std::vector<VoxelCoord>& line) {
  if (nodes.size() < 3) return;
  // Length of the path up to each block, in units of fly_cost.
  std::vector<Cost> length(nodes.size(), 0.0);
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const VoxelCoord a = world.coord_of(nodes[i - 1]);
    const VoxelCoord b = world.coord_of(nodes[i]);
    const int axes = (a.x != b.x ? 1 : 0) + (a.y != b.y ? 1 : 0) + (a.z != b.z ? 1 : 0);
    length[i] = length[i - 1] + (axes == 1 ? 1.0 : axes == 2 ? sqrt2 : 1.7320508075688772);
  }
  scratch.clear();
  std::size_t i = 0;
  while (i + 1 < nodes.size()) {
    scratch.push_back(nodes[i]);
    std::size_t next = i + 1;
    for (std::size_t span = static_cast<std::size_t>(reach); span >= 2; span /= 2) {
      const std::size_t j = std::min(nodes.size() - 1, i + span);
      if (j < i + 2) continue;
      line.clear();
      Cost cost = 0.0;
      if (free_flying_line(world, world.coord_of(nodes[i]), world.coord_of(nodes[j]), line, cost) &&
          cost < length[j] - length[i] - 1e-9) {
        for (std::size_t k = 0; k + 1 < line.size(); ++k) scratch.push_back(world.node_of(line[k]));
        next = j;
        break;
      }
    }
    i = next;
  }
  scratch.push_back(nodes.back());
  nodes.swap(scratch);
}

}  // namespace

struct VoxelHierarchyQueryState {
  explicit VoxelHierarchyQueryState(const VoxelHierarchy& hierarchy)
      : moves(make_moves(hierarchy.world(), hierarchy.profile())) {}
  WorldMoves moves;
  SearchContext start_context;  ///< the start's search over its cluster (tree kept)
  SearchContext goal_context;   ///< the goal's search over its cluster's reversed moves (tree kept)
  SearchContext refine_context;
  SearchContext abstract_context;
  PlaceIndex index;
  PlaceGraph goal_graph;
  std::vector<Cost> start_costs;
  std::vector<Cost> goal_costs;
  std::vector<NodeId> targets;
  std::vector<NodeId> abstract_path;
  std::vector<NodeId> scratch;
  std::vector<VoxelCoord> line;
  std::vector<NodeId> direct;  ///< the direct search's path between neighbouring clusters
};

namespace {

template <class Moves>
SearchStatus run_query(const VoxelHierarchy& hierarchy_, VoxelHierarchyQueryState& state, const Moves& moves,
                       VoxelCoord start, VoxelCoord goal, PathResult& out, std::chrono::steady_clock::time_point began) {
  const VoxelWorld& world = hierarchy_.world();
  const NodeId from = world.node_of(start);
  const NodeId to = world.node_of(goal);
  const int start_cluster = hierarchy_.cluster_of(start);
  const int goal_cluster = hierarchy_.cluster_of(goal);
  auto box_of = [&](int cluster) { return ClusterBox{hierarchy_.cluster_origin(cluster), hierarchy_.cluster_extent(cluster)}; };
  Cost direct_cost = infinite_cost;  // of state.direct, a path found by a direct search
  auto finish = [&](SearchStatus status, StopReason reason) {
    out.status = status;
    out.reason = reason;
    if (status == SearchStatus::found && hierarchy_.profile().fly)
      smooth_flying_path(world, out.nodes, 4 * hierarchy_.cluster_size(), state.scratch, state.line);
    if (status == SearchStatus::found) {
      Cost cost = 0.0;
      for (std::size_t i = 1; i < out.nodes.size(); ++i) {
        Cost best = infinite_cost;
        moves.for_each_successor(out.nodes[i - 1], [&](NodeId next, Cost c) {
          if (next == out.nodes[i]) best = std::min(best, c);
        });
        cost += best;
      }
      out.cost = cost;
      // Start and goal in neighbouring clusters: the direct search over both, when cheaper.
      if (direct_cost < out.cost) {
        out.nodes.assign(state.direct.begin(), state.direct.end());
        out.cost = direct_cost;
      }
    }
    fill_voxel_points(world, out);
    out.stats.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    return out.status;
  };
  // Appends a cheapest path inside `cluster` from a to b (a already ends `out.nodes`).
  auto refine_in = [&](const ClusterBox& box, NodeId a, NodeId b) {
    const BoxDomain<Moves> domain(moves, world, box);
    BestFirstSearch<BoxDomain<Moves>> search(domain, state.refine_context);
    SearchOptions options;
    options.return_partial = false;
    search.run(domain.local(a), domain.local(b), options);
    add_stats(out.stats, search.stats());
    if (search.status() != SearchStatus::found) return false;
    search.path_to(domain.local(b), state.scratch);
    for (std::size_t i = 1; i < state.scratch.size(); ++i) out.nodes.push_back(domain.global(state.scratch[i]));
    return true;
  };
  auto refine = [&](int cluster, NodeId a, NodeId b) { return refine_in(box_of(cluster), a, b); };

  out.nodes.push_back(from);
  if (from == to) return finish(SearchStatus::found, StopReason::goal_reached);
  // One cluster: a direct search inside it first.
  if (start_cluster == goal_cluster && refine(start_cluster, from, to)) return finish(SearchStatus::found, StopReason::goal_reached);
  // Neighbouring clusters (touching by a face, an edge or a corner): a direct search over the
  // box of both as well, kept when cheaper than the hierarchy's path. Near pairs are where the
  // detour through the transitions costs most, and the box is small.
  {
    const VoxelCoord a = hierarchy_.cluster_origin(start_cluster);
    const VoxelCoord b = hierarchy_.cluster_origin(goal_cluster);
    if (std::abs(a.x - b.x) <= hierarchy_.cluster_size() && std::abs(a.z - b.z) <= hierarchy_.cluster_size() &&
        std::abs(a.y - b.y) <= hierarchy_.cluster_height()) {
      const VoxelCoord ea = hierarchy_.cluster_extent(start_cluster);
      const VoxelCoord eb = hierarchy_.cluster_extent(goal_cluster);
      const VoxelCoord low{std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)};
      const VoxelCoord high{std::max(a.x + ea.x, b.x + eb.x), std::max(a.y + ea.y, b.y + eb.y),
                            std::max(a.z + ea.z, b.z + eb.z)};
      const ClusterBox both{low, {high.x - low.x, high.y - low.y, high.z - low.z}};
      if (refine_in(both, from, to)) {
        state.direct.assign(out.nodes.begin(), out.nodes.end());
        direct_cost = state.refine_context.record(both.local(world.coord_of(to))).g;
      }
      out.nodes.resize(1);
    }
  }

  // The start's costs to the nodes of its cluster (forward, inside the cluster).
  const BoxDomain<Moves> start_domain(moves, world, box_of(start_cluster));
  {
    const std::uint32_t first = hierarchy_.cluster_first_node(start_cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(start_cluster);
    state.start_costs.assign(end - first, infinite_cost);
    state.targets.clear();
    for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(start_domain.local(hierarchy_.node_place(n)));
    if (end > first)
      add_stats(out.stats, costs_to_targets(start_domain, state.start_context, start_domain.local(from), state.targets,
                                            state.start_costs.data()));
  }
  // The costs from the nodes of the goal's cluster to the goal: one search over its reversed
  // moves (walkers' moves are one-way where they fall); a flyer's moves go both ways, so its
  // search runs forward from the goal, in the box like the start's.
  const bool symmetric = hierarchy_.profile().fly;
  const std::span<const NodeId> goal_places = hierarchy_.cluster_places(goal_cluster);
  const BoxDomain<Moves> goal_domain(moves, world, box_of(goal_cluster));
  {
    const std::uint32_t first = hierarchy_.cluster_first_node(goal_cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(goal_cluster);
    state.goal_costs.assign(end - first, infinite_cost);
    state.targets.clear();
    if (symmetric) {
      for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(goal_domain.local(hierarchy_.node_place(n)));
      if (end > first)
        add_stats(out.stats, costs_to_targets(goal_domain, state.goal_context, goal_domain.local(to), state.targets,
                                              state.goal_costs.data()));
    } else {
      const ClusterBox box = box_of(goal_cluster);
      state.index.assign(world, box, goal_places);
      make_place_graph(moves, world, box, goal_places, state.index, true, state.goal_graph, nullptr);
      auto index_of = [&](NodeId place) {
        return static_cast<NodeId>(std::lower_bound(goal_places.begin(), goal_places.end(), place) - goal_places.begin());
      };
      for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(index_of(hierarchy_.node_place(n)));
      if (end > first)
        add_stats(out.stats,
                  costs_to_targets(state.goal_graph, state.goal_context, index_of(to), state.targets, state.goal_costs.data()));
    }
  }

  auto locate = [&](NodeId node) { return hierarchy_.node_place(node); };
  auto estimate = [&](NodeId a, NodeId b) { return moves.heuristic(a, b); };
  using Abstract = hierarchy_search::AbstractDomain<VoxelHierarchy, decltype(locate), decltype(estimate)>;
  const Abstract domain(hierarchy_, locate, estimate, from, to, start_cluster, goal_cluster, state.start_costs,
                        state.goal_costs);
  if (!hierarchy_search::search_abstract_graph(domain, state.abstract_context, out.stats, state.abstract_path)) {
    out.nodes.clear();
    return finish(SearchStatus::no_path, StopReason::open_list_empty);
  }

  // Refine: the start's search holds its path to the first node, the goal's (reversed) search
  // the path from the last node to the goal; an inter-edge is one move; an intra-edge a search
  // inside its cluster.
  const std::vector<NodeId>& abstract = state.abstract_path;
  const std::size_t last = abstract.size() - 1;  // the goal; abstract[0] is the start
  {
    state.scratch.clear();
    for (NodeId at = start_domain.local(domain.place(abstract[1])); at != invalid_node;
         at = state.start_context.record(at).parent)
      state.scratch.push_back(start_domain.global(at));
    for (std::size_t i = state.scratch.size() - 1; i-- > 0;) out.nodes.push_back(state.scratch[i]);
  }
  for (std::size_t i = 2; i < last; ++i) {
    const NodeId a = hierarchy_.node_place(abstract[i - 1]);
    const NodeId b = hierarchy_.node_place(abstract[i]);
    const int cluster_a = hierarchy_.cluster_of(world.coord_of(a));
    if (cluster_a != hierarchy_.cluster_of(world.coord_of(b)))
      out.nodes.push_back(b);
    else if (!refine(cluster_a, a, b)) {
      out.nodes.clear();
      out.message = "an intra-edge of the hierarchy has no path inside its cluster: the world changed under it";
      return finish(SearchStatus::no_path, StopReason::invalid_input);
    }
  }
  {
    // Parents of the goal's search lead towards the goal.
    const NodeId node_place = domain.place(abstract[last - 1]);
    if (symmetric) {
      for (NodeId at = state.goal_context.record(goal_domain.local(node_place)).parent; at != invalid_node;
           at = state.goal_context.record(at).parent)
        out.nodes.push_back(goal_domain.global(at));
    } else {
      auto at = static_cast<NodeId>(std::lower_bound(goal_places.begin(), goal_places.end(), node_place) - goal_places.begin());
      for (at = state.goal_context.record(at).parent; at != invalid_node; at = state.goal_context.record(at).parent)
        out.nodes.push_back(goal_places[at]);
    }
  }
  return finish(SearchStatus::found, StopReason::goal_reached);
}

}  // namespace

VoxelHierarchyQuery::VoxelHierarchyQuery(const VoxelHierarchy& hierarchy)
    : hierarchy_(hierarchy), state_(std::make_unique<VoxelHierarchyQueryState>(hierarchy)) {}
VoxelHierarchyQuery::~VoxelHierarchyQuery() = default;
VoxelHierarchyQuery::VoxelHierarchyQuery(VoxelHierarchyQuery&&) noexcept = default;

std::size_t VoxelHierarchyQuery::search_memory_bytes() const {
  const VoxelHierarchyQueryState& s = *state_;
  return s.start_context.reserved_bytes() + s.goal_context.reserved_bytes() + s.refine_context.reserved_bytes() +
         s.abstract_context.reserved_bytes() + s.goal_graph.offsets.capacity() * sizeof(std::uint32_t) +
         s.goal_graph.targets.capacity() * sizeof(std::uint32_t) + s.goal_graph.costs.capacity() * sizeof(Cost);
}

PathResult VoxelHierarchyQuery::find_path(VoxelCoord start, VoxelCoord goal) {
  PathResult out;
  find_path(start, goal, out);
  return out;
}

SearchStatus VoxelHierarchyQuery::find_path(VoxelCoord start, VoxelCoord goal, PathResult& out) {
  const auto began = std::chrono::steady_clock::now();
  out.reset();
  const VoxelWorld& world = hierarchy_.world();
  const MovementProfile& profile = hierarchy_.profile();
  auto reject = [&](std::string why) {
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = std::move(why);
    return out.status;
  };
  if (const std::optional<std::string> problem = voxel_place_problem(world, profile, start))
    return reject("start " + *problem);
  if (const std::optional<std::string> problem = voxel_place_problem(world, profile, goal))
    return reject("goal " + *problem);
  if (!hierarchy_.current())
    return reject("the world was edited since its hierarchy was built (hierarchy at revision " +
                  std::to_string(hierarchy_.revision()) + ", world at " + std::to_string(world.revision()) +
                  "): call VoxelHierarchy::update() first");
  VoxelHierarchyQueryState& state = *state_;
  return std::visit([&](const auto& moves) { return run_query(hierarchy_, state, moves, start, goal, out, began); },
                    state.moves);
}

}  // namespace wayfinder
