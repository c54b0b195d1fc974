// HPA* over voxel worlds (see voxel_hierarchy.hpp), the queries: connect the start and the goal
// to their clusters' nodes, search the abstract graph, refine its edges, smooth a flyer's path.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/hierarchy_search.hpp"
#include "voxel_hierarchy_parts.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {

using namespace voxel_hierarchy_detail;

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

namespace {

/// The searches a query runs, in this order: `direct` only when start and goal share a cluster,
/// `neighbours` only when their clusters touch, the others only when no direct path was found
/// (the neighbours' path is kept to compare with the hierarchy's), `refine` once per intra-edge.
enum class Phase { settled, direct, neighbours, connect_start, connect_goal, abstract, refine };

// The abstract graph's places and estimate as named types, so that its domain and search can be
// kept from step to step.
struct NodePlaceOf {
  const VoxelHierarchy* hierarchy;
  NodeId operator()(NodeId node) const { return hierarchy->node_place(node); }
};
template <class Moves>
struct MovesEstimate {
  const Moves* moves;
  Cost operator()(NodeId a, NodeId b) const { return moves->heuristic(a, b); }
};

}  // namespace

/// A query's scratch, reused from query to query, and the query under way.
struct VoxelHierarchyQueryScratch {
  explicit VoxelHierarchyQueryScratch(const VoxelHierarchy& searched)
      : hierarchy(searched), world(searched.world()), moves(make_moves(searched.world(), searched.profile())) {}

  const VoxelHierarchy& hierarchy;
  const VoxelWorld& world;
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

  // The query under way.
  QueryOptions options;
  NodeId from = invalid_node;
  NodeId to = invalid_node;
  SearchStats ended;          ///< the work of the searches that ended
  double microseconds = 0.0;  ///< the query's time so far (begin and steps)
  PathResult result;          ///< the final result once settled (in_progress before)

  [[nodiscard]] std::size_t memory_bytes() const {
    return start_context.memory_bytes() + goal_context.memory_bytes() + refine_context.memory_bytes() +
           abstract_context.memory_bytes() + goal_graph.offsets.capacity() * sizeof(std::uint32_t) +
           goal_graph.targets.capacity() * sizeof(std::uint32_t) + goal_graph.costs.capacity() * sizeof(Cost);
  }
  /// What is left of the options' budget for a search whose own context holds `own_memory`.
  [[nodiscard]] Budget budget_left(std::size_t own_memory) const {
    return hierarchy_search::budget_left(options.budget, ended.expanded, microseconds,
                                         memory_bytes() - std::min(memory_bytes(), own_memory));
  }
};

namespace {

/// One query's searches over the agent's `Moves`, run one after another and each stepped: the
/// phases of the query (Phase) with their domains, kept from step to step.
template <class Moves>
class QuerySearches {
 public:
  QuerySearches(VoxelHierarchyQueryScratch& state, const Moves& moves)
      : state_(state),
        hierarchy_(state.hierarchy),
        world_(state.world),
        moves_(moves),
        start_cluster_(hierarchy_.cluster_of(world_.coord_of(state.from))),
        goal_cluster_(hierarchy_.cluster_of(world_.coord_of(state.to))),
        start_domain_(moves, world_, box_of(start_cluster_)),
        goal_domain_(moves, world_, box_of(goal_cluster_)) {}
  QuerySearches(const QuerySearches&) = delete;
  QuerySearches& operator=(const QuerySearches&) = delete;

  /// Starts the first search (or settles the query at once).
  void begin() {
    state_.result.nodes.push_back(state_.from);
    if (state_.from == state_.to) return settle(RunOutcome::goal_reached());
    enter(start_cluster_ == goal_cluster_ ? Phase::direct : Phase::neighbours);
  }

  /// Runs the searches until `max_expansions` more are done or the query ends.
  SearchStatus run(std::uint64_t max_expansions) {
    std::uint64_t done = 0;
    while (phase_ != Phase::settled) {
      if (phase_status_ == SearchStatus::in_progress) {
        if (done >= max_expansions) return SearchStatus::in_progress;
        const std::uint64_t before = current_stats().expanded;
        phase_status_ = with_current(*this, [&](auto& search) { return search.step(max_expansions - done); });
        done += current_stats().expanded - before;
        if (phase_status_ == SearchStatus::in_progress) return SearchStatus::in_progress;
      }
      const RunOutcome outcome = with_current(*this, [](const auto& search) { return search.outcome(); });
      hierarchy_search::add_stats(state_.ended, current_stats());
      end_current(phase_status_, outcome);
    }
    return state_.result.status;
  }

  /// The work of the search under way (none once settled).
  [[nodiscard]] SearchStats current_stats() const {
    if (phase_ == Phase::settled) return {};
    return with_current(*this, [](const auto& search) { return search.stats(); });
  }

 private:
  using Box = BoxDomain<Moves>;
  using Abstract = hierarchy_search::AbstractDomain<VoxelHierarchy, NodePlaceOf, MovesEstimate<Moves>>;

  [[nodiscard]] ClusterBox box_of(int cluster) const {
    return ClusterBox{hierarchy_.cluster_origin(cluster), hierarchy_.cluster_extent(cluster)};
  }

  /// A search inside `box` from a to b (world ids), its tree in refine_context; the domain is
  /// kept beside it (the search reads it).
  void start_box_search(const ClusterBox& box, NodeId a, NodeId b) {
    box_search_.reset();
    const Box& domain = box_domain_.emplace(moves_, world_, box);
    SearchOptions options;
    options.budget = state_.budget_left(state_.refine_context.memory_bytes());
    options.return_partial = false;
    phase_status_ = box_search_.emplace(domain, state_.refine_context).start(domain.local(a), domain.local(b), options);
  }

  void enter(Phase next) {
    phase_ = next;
    switch (next) {
      case Phase::direct: return start_box_search(box_of(start_cluster_), state_.from, state_.to);
      case Phase::neighbours: {
        // Neighbouring clusters (touching by a face, an edge or a corner): a direct search over
        // the box of both as well, kept when cheaper than the hierarchy's path. Near pairs are
        // where the detour through the transitions costs most, and the box is small.
        const VoxelCoord a = hierarchy_.cluster_origin(start_cluster_);
        const VoxelCoord b = hierarchy_.cluster_origin(goal_cluster_);
        if (std::abs(a.x - b.x) > hierarchy_.cluster_size() || std::abs(a.z - b.z) > hierarchy_.cluster_size() ||
            std::abs(a.y - b.y) > hierarchy_.cluster_height())
          return enter(Phase::connect_start);
        const VoxelCoord ea = hierarchy_.cluster_extent(start_cluster_);
        const VoxelCoord eb = hierarchy_.cluster_extent(goal_cluster_);
        const VoxelCoord low{std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)};
        const VoxelCoord high{std::max(a.x + ea.x, b.x + eb.x), std::max(a.y + ea.y, b.y + eb.y),
                              std::max(a.z + ea.z, b.z + eb.z)};
        return start_box_search(ClusterBox{low, {high.x - low.x, high.y - low.y, high.z - low.z}}, state_.from,
                                state_.to);
      }
      case Phase::connect_start: {
        // The start's costs to the nodes of its cluster (forward, inside the cluster).
        const std::uint32_t first = hierarchy_.cluster_first_node(start_cluster_);
        const std::uint32_t end = hierarchy_.cluster_end_node(start_cluster_);
        state_.start_costs.assign(end - first, infinite_cost);
        if (end == first) return enter(Phase::connect_goal);  // a cluster without nodes
        state_.targets.clear();
        for (std::uint32_t n = first; n < end; ++n) state_.targets.push_back(start_domain_.local(hierarchy_.node_place(n)));
        phase_status_ = start_search_.emplace(start_domain_, state_.start_context)
                            .start(start_domain_.local(state_.from), state_.targets, cost_free_budget(state_.start_context));
        return;
      }
      case Phase::connect_goal: return connect_goal();
      case Phase::abstract: {
        const Abstract& domain = abstract_domain_.emplace(
            hierarchy_, NodePlaceOf{&hierarchy_}, MovesEstimate<Moves>{&moves_}, state_.from, state_.to, start_cluster_,
            goal_cluster_, state_.start_costs, state_.goal_costs);
        SearchOptions options;
        options.budget = state_.budget_left(state_.abstract_context.memory_bytes());
        options.return_partial = false;
        phase_status_ =
            abstract_search_.emplace(domain, state_.abstract_context).start(domain.start(), domain.goal(), options);
        return;
      }
      case Phase::refine: return refine_next();
      case Phase::settled: return;
    }
  }

  /// The connecting searches need every cost up to the last target: the budget's max_cost is
  /// the abstract search's to apply.
  [[nodiscard]] Budget cost_free_budget(const SearchContext& own) const {
    Budget budget = state_.budget_left(own.memory_bytes());
    budget.max_cost = infinite_cost;
    return budget;
  }

  // The costs from the nodes of the goal's cluster to the goal: one search over its reversed
  // moves (walkers' moves are one-way where they fall); a flyer's moves go both ways, so its
  // search runs forward from the goal, in the box like the start's.
  void connect_goal() {
    const std::uint32_t first = hierarchy_.cluster_first_node(goal_cluster_);
    const std::uint32_t end = hierarchy_.cluster_end_node(goal_cluster_);
    state_.goal_costs.assign(end - first, infinite_cost);
    state_.targets.clear();
    if (end == first) return enter(Phase::abstract);
    goal_box_search_.reset();
    goal_graph_search_.reset();
    if (symmetric()) {
      for (std::uint32_t n = first; n < end; ++n) state_.targets.push_back(goal_domain_.local(hierarchy_.node_place(n)));
      phase_status_ = goal_box_search_.emplace(goal_domain_, state_.goal_context)
                          .start(goal_domain_.local(state_.to), state_.targets, cost_free_budget(state_.goal_context));
      return;
    }
    const ClusterBox box = box_of(goal_cluster_);
    const std::span<const NodeId> places = hierarchy_.cluster_places(goal_cluster_);
    state_.index.assign(world_, box, places);
    make_place_graph(moves_, world_, box, places, state_.index, true, state_.goal_graph, nullptr);
    for (std::uint32_t n = first; n < end; ++n) state_.targets.push_back(goal_index(hierarchy_.node_place(n)));
    phase_status_ = goal_graph_search_.emplace(state_.goal_graph, state_.goal_context)
                        .start(goal_index(state_.to), state_.targets, cost_free_budget(state_.goal_context));
  }

  [[nodiscard]] bool symmetric() const { return hierarchy_.profile().fly; }
  [[nodiscard]] NodeId goal_index(NodeId place) const {
    const std::span<const NodeId> places = hierarchy_.cluster_places(goal_cluster_);
    return static_cast<NodeId>(std::lower_bound(places.begin(), places.end(), place) - places.begin());
  }

  /// `act` applied to the search under way (not once settled), for a const or a mutable `self`.
  template <class Self, class Act>
  static auto with_current(Self& self, Act&& act) {
    switch (self.phase_) {
      case Phase::connect_start: return act(*self.start_search_);
      case Phase::connect_goal: return self.goal_box_search_ ? act(*self.goal_box_search_) : act(*self.goal_graph_search_);
      case Phase::abstract: return act(*self.abstract_search_);
      default: return act(*self.box_search_);  // direct, neighbours, refine
    }
  }

  /// Appends the path the box search found, from its start (already last in `out`) on.
  void append_box_path(std::vector<NodeId>& out) {
    box_search_->path_to(box_search_->goal_node(), state_.scratch);
    for (std::size_t i = 1; i < state_.scratch.size(); ++i) out.push_back(box_domain_->global(state_.scratch[i]));
  }

  void end_current(SearchStatus status, RunOutcome outcome) {
    const Phase ending = phase_;
    phase_ = Phase::settled;  // until the next search starts
    if (status == SearchStatus::invalid_input) {
      state_.result.message = "the hierarchy's search refused its input";
      return settle(RunOutcome::invalid_input());
    }
    // A direct search that finds no path (or none within max_cost) leaves the way through the
    // hierarchy open.
    const bool no_direct_path = status == SearchStatus::no_path || outcome.reason == StopReason::cost_limit;
    switch (ending) {
      case Phase::direct:
        if (status == SearchStatus::found) {
          append_box_path(state_.result.nodes);
          return settle(RunOutcome::goal_reached());
        }
        if (no_direct_path) return enter(Phase::connect_start);
        break;
      case Phase::neighbours:
        if (status == SearchStatus::found) {
          state_.direct.assign(1, state_.from);
          append_box_path(state_.direct);
          direct_cost_ = state_.refine_context.record(box_search_->goal_node()).g;
        }
        if (status == SearchStatus::found || no_direct_path) return enter(Phase::connect_start);
        break;
      case Phase::connect_start:
        if (status == SearchStatus::found) {
          start_search_->write_costs(state_.start_costs.data());
          return enter(Phase::connect_goal);
        }
        break;
      case Phase::connect_goal:
        if (status == SearchStatus::found) {
          if (goal_box_search_)
            goal_box_search_->write_costs(state_.goal_costs.data());
          else
            goal_graph_search_->write_costs(state_.goal_costs.data());
          return enter(Phase::abstract);
        }
        break;
      case Phase::abstract:
        if (status == SearchStatus::found) {
          abstract_search_->path_to(abstract_domain_->goal(), state_.abstract_path);
          append_start_side();
          refined_ = 2;
          return enter(Phase::refine);
        }
        if (status == SearchStatus::no_path) return settle(RunOutcome::unreachable(state_.options.partial_when_unreachable));
        break;
      case Phase::refine:
        if (status == SearchStatus::found) {
          append_box_path(state_.result.nodes);
          ++refined_;
          return enter(Phase::refine);
        }
        if (status == SearchStatus::no_path) {
          state_.result.message = "an intra-edge of the hierarchy has no path inside its cluster: the world changed under it";
          return settle({SearchStatus::no_path, StopReason::invalid_input});
        }
        break;
      case Phase::settled: return;
    }
    // No path through the hierarchy within max_cost, but the neighbours' direct path is within
    // it: that is the answer.
    if (outcome.reason == StopReason::cost_limit && direct_cost_ != infinite_cost) {
      state_.result.nodes.assign(state_.direct.begin(), state_.direct.end());
      return settle(RunOutcome::goal_reached());
    }
    settle(RunOutcome::budget_spent(outcome.reason, state_.options.return_partial));
  }

  // Refinement: the start's search holds its path to the first node, the goal's search the path
  // from the last node to the goal; an inter-edge is one move; an intra-edge a search inside its
  // cluster, one phase each.
  void append_start_side() {
    std::vector<NodeId>& out = state_.result.nodes;
    state_.scratch.clear();
    for (NodeId at = start_domain_.local(abstract_domain_->place(state_.abstract_path[1])); at != invalid_node;
         at = state_.start_context.record(at).parent)
      state_.scratch.push_back(start_domain_.global(at));
    for (std::size_t i = state_.scratch.size() - 1; i-- > 0;) out.push_back(state_.scratch[i]);
  }

  /// Goes on along the abstract path from edge `refined_`: inter-edges are appended at once, the
  /// next intra-edge starts a search; past the last edge, the goal's side ends the query.
  void refine_next() {
    const std::vector<NodeId>& abstract = state_.abstract_path;
    const std::size_t last = abstract.size() - 1;  // the goal; abstract[0] is the start
    for (; refined_ < last; ++refined_) {
      const NodeId a = hierarchy_.node_place(abstract[refined_ - 1]);
      const NodeId b = hierarchy_.node_place(abstract[refined_]);
      const int cluster_a = hierarchy_.cluster_of(world_.coord_of(a));
      if (cluster_a != hierarchy_.cluster_of(world_.coord_of(b))) {
        state_.result.nodes.push_back(b);
        continue;
      }
      return start_box_search(box_of(cluster_a), a, b);
    }
    append_goal_side();
    settle(RunOutcome::goal_reached());
  }

  void append_goal_side() {
    std::vector<NodeId>& out = state_.result.nodes;
    const std::vector<NodeId>& abstract = state_.abstract_path;
    // Parents of the goal's search lead towards the goal.
    const NodeId node_place = abstract_domain_->place(abstract[abstract.size() - 2]);
    const SearchContext& context = state_.goal_context;
    if (symmetric()) {
      for (NodeId at = context.record(goal_domain_.local(node_place)).parent; at != invalid_node;
           at = context.record(at).parent)
        out.push_back(goal_domain_.global(at));
    } else {
      const std::span<const NodeId> places = hierarchy_.cluster_places(goal_cluster_);
      for (NodeId at = context.record(goal_index(node_place)).parent; at != invalid_node; at = context.record(at).parent)
        out.push_back(places[at]);
    }
  }

  /// Ends the query. A path that stops short (a budget stop, or an unreachable goal with a
  /// partial result asked for) is the start alone: the hierarchy knows no block closer to the
  /// goal until it has refined the whole abstract path.
  void settle(RunOutcome outcome) {
    phase_ = Phase::settled;
    PathResult& out = state_.result;
    out.status = outcome.status;
    out.reason = outcome.reason;
    if (outcome.status == SearchStatus::found) {
      if (hierarchy_.profile().fly)
        smooth_flying_path(world_, out.nodes, 4 * hierarchy_.cluster_size(), state_.scratch, state_.line);
      Cost cost = 0.0;
      for (std::size_t i = 1; i < out.nodes.size(); ++i) {
        Cost best = infinite_cost;
        moves_.for_each_successor(out.nodes[i - 1], [&](NodeId next, Cost c) {
          if (next == out.nodes[i]) best = std::min(best, c);
        });
        cost += best;
      }
      out.cost = cost;
      // Start and goal in neighbouring clusters: the direct search over both, when cheaper.
      if (direct_cost_ < out.cost) {
        out.nodes.assign(state_.direct.begin(), state_.direct.end());
        out.cost = direct_cost_;
      }
    } else if (outcome.status == SearchStatus::partial) {
      out.nodes.assign(1, state_.from);
      out.cost = 0.0;
    } else {
      out.nodes.clear();
    }
    fill_voxel_points(world_, out);
  }

  VoxelHierarchyQueryScratch& state_;
  const VoxelHierarchy& hierarchy_;
  const VoxelWorld& world_;
  const Moves& moves_;
  int start_cluster_ = 0;
  int goal_cluster_ = 0;
  Box start_domain_;
  Box goal_domain_;
  Phase phase_ = Phase::settled;
  SearchStatus phase_status_ = SearchStatus::invalid_input;  ///< the current search's
  Cost direct_cost_ = infinite_cost;                         ///< of state_.direct, when found
  std::size_t refined_ = 0;                                  ///< the abstract path's next edge
  std::optional<Box> box_domain_;
  std::optional<BestFirstSearch<Box>> box_search_;
  std::optional<hierarchy_search::TargetCostSearch<Box>> start_search_;
  std::optional<hierarchy_search::TargetCostSearch<Box>> goal_box_search_;
  std::optional<hierarchy_search::TargetCostSearch<PlaceGraph>> goal_graph_search_;
  std::optional<Abstract> abstract_domain_;
  std::optional<BestFirstSearch<Abstract>> abstract_search_;
};

double microseconds_since(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
}

}  // namespace

struct VoxelHierarchyQueryState : VoxelHierarchyQueryScratch {
  using VoxelHierarchyQueryScratch::VoxelHierarchyQueryScratch;
  std::variant<std::monostate, QuerySearches<VoxelWalkingDomain>, QuerySearches<VoxelFlyingDomain>> searches;

  SearchStatus reject(std::string why) {
    searches.emplace<std::monostate>();
    result.status = SearchStatus::invalid_input;
    result.reason = StopReason::invalid_input;
    result.message = std::move(why);
    return result.status;
  }
};

VoxelHierarchyQuery::VoxelHierarchyQuery(const VoxelHierarchy& hierarchy)
    : QueryObject(hierarchy), state_(std::make_unique<VoxelHierarchyQueryState>(hierarchy)) {}
VoxelHierarchyQuery::~VoxelHierarchyQuery() = default;
VoxelHierarchyQuery::VoxelHierarchyQuery(VoxelHierarchyQuery&&) noexcept = default;

std::size_t VoxelHierarchyQuery::search_memory_bytes() const { return state_->memory_bytes(); }

SearchStatus VoxelHierarchyQuery::start_query(VoxelCoord start, VoxelCoord goal, const QueryOptions& options) {
  const auto began = std::chrono::steady_clock::now();
  VoxelHierarchyQueryState& state = *state_;
  state.searches.emplace<std::monostate>();
  state.result.reset();
  state.result.status = SearchStatus::in_progress;
  state.ended = {};
  state.microseconds = 0.0;
  state.options = options;
  const VoxelWorld& world = state.world;
  const MovementProfile& profile = hierarchy().profile();
  // Places are checked on the world the hierarchy was built for: a wide agent's messages name
  // that world's blocks, not its footprint world's.
  const VoxelWorld& source = hierarchy().source_world();
  const SearchStatus status = [&] {
    if (const std::optional<std::string> problem = voxel_place_problem(source, profile, start))
      return state.reject("start " + *problem);
    if (const std::optional<std::string> problem = voxel_place_problem(source, profile, goal))
      return state.reject("goal " + *problem);
    if (!hierarchy().current())
      return state.reject("the world was edited since its hierarchy was built (hierarchy at revision " +
                          std::to_string(hierarchy().revision()) + ", world at " + std::to_string(source.revision()) +
                          "): call VoxelHierarchy::update() first");
    if (std::optional<std::string> problem = budget_problem(options.budget)) return state.reject(std::move(*problem));
    state.from = world.node_of(start);
    state.to = world.node_of(goal);
    std::visit(
        [&](const auto& moves) {
          using Moves = std::decay_t<decltype(moves)>;
          state.searches.emplace<QuerySearches<Moves>>(state, moves).begin();
        },
        state.moves);
    return state.result.status;
  }();
  state.microseconds += microseconds_since(began);
  state.result.stats = query_stats();
  return status;
}

SearchStatus VoxelHierarchyQuery::advance_query(const StepBudget& budget) {
  VoxelHierarchyQueryState& state = *state_;
  if (state.result.status != SearchStatus::in_progress) return state.result.status;
  const auto began = std::chrono::steady_clock::now();
  auto run = [&](std::uint64_t expansions) {
    return std::visit(
        [&](auto& searches) -> SearchStatus {
          if constexpr (std::is_same_v<std::decay_t<decltype(searches)>, std::monostate>)
            return state.result.status;
          else
            return searches.run(expansions);
        },
        state.searches);
  };
  const SearchStatus status =
      hierarchy_search::step_in_chunks(budget, run, [&] { return query_stats().expanded; });
  state.microseconds += microseconds_since(began);
  state.result.stats = query_stats();
  return status;
}

SearchStats VoxelHierarchyQuery::query_stats() const {
  const VoxelHierarchyQueryState& state = *state_;
  SearchStats total = state.ended;
  std::visit(
      [&](const auto& searches) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(searches)>, std::monostate>)
          hierarchy_search::add_stats(total, searches.current_stats());
      },
      state.searches);
  total.microseconds = state.microseconds;
  return total;
}

void VoxelHierarchyQuery::write_result(PathResult& out) const {
  hierarchy_search::write_query_result(state_->result, query_stats(), out);
  if (&hierarchy().world() != &hierarchy().source_world()) {
    footprint_nodes_to_world(hierarchy().world(), hierarchy().source_world(), out.nodes);
    fill_voxel_points(hierarchy().source_world(), out);
  }
}

}  // namespace wayfinder
