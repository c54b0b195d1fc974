#include "wayfinder/voxel/voxel_query.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "wayfinder/core/best_first_search.hpp"
#include "core/engine_run.hpp"
#include "core/algorithm_names.hpp"
#include "core/stepped_query.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_jump_point_search.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {

namespace {

constexpr AlgorithmName<VoxelAlgorithm> algorithm_names[] = {
    {VoxelAlgorithm::dijkstra, "dijkstra"},
    {VoxelAlgorithm::astar, "astar"},
    {VoxelAlgorithm::weighted_astar, "weighted-astar"},
    {VoxelAlgorithm::greedy_best_first, "greedy"},
    {VoxelAlgorithm::jump_point, "jps"},
    {VoxelAlgorithm::hierarchical, "hpa"},
};

template <class D>
using VoxelRun = EngineRun<D, PagedSearchContext>;

// Jump point search returns jump points; the result lists every block between them (kept in
// the pathfinder's scratch vector on the way, so that a reused result allocates nothing).
struct VoxelJumpPointRun {
  template <class... Args>
  VoxelJumpPointRun(PagedSearchContext& context, std::vector<NodeId>& scratch, Args&&... args)
      : run(context, std::forward<Args>(args)...), jump_points(scratch) {}
  SearchStatus step(const StepBudget& budget) { return run.step(budget); }
  void result(PathResult& out) const {
    run.result(out);
    jump_points.assign(out.nodes.begin(), out.nodes.end());
    expand_voxel_jump_points(run.domain.world(), jump_points, out.nodes);
  }
  [[nodiscard]] SearchStats stats() const { return run.stats(); }
  VoxelRun<VoxelJumpPointDomain> run;
  std::vector<NodeId>& jump_points;
};

/// HPA*: the query object over the hierarchy, kept in the query's state from query to query,
/// stepped through this run.
using VoxelHierarchicalRun = QueryObjectRun<VoxelHierarchyQuery>;

// Rejected queries finish in begin() (SteppedQuery's settled result).
using ActiveSearch =
    SteppedQuery<VoxelRun<VoxelFlyingDomain>, VoxelRun<VoxelWalkingDomain>, VoxelJumpPointRun, VoxelHierarchicalRun>;

bool finite_non_negative(Cost cost) { return std::isfinite(cost) && cost >= 0.0; }

/// Numbers in messages: short, and exact for the small whole numbers most options are.
std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

struct VoxelQueryState {
  PagedSearchContext context;
  ActiveSearch active;
  std::vector<NodeId> jump_points;  ///< VoxelJumpPointRun's scratch
  std::shared_ptr<const VoxelHierarchy> hierarchy;
  /// The query object over `hierarchy`, made on its first query.
  std::unique_ptr<VoxelHierarchyQuery> hierarchical;
  /// The footprint world given to set_footprint (derived data shared with other queries).
  std::shared_ptr<const VoxelFootprint> shared_footprint;
  /// Without a fitting shared one: the footprint world of the last wide agent searched
  /// (voxel_footprint.hpp), made by this query and kept while the width and the kind of agent
  /// stay the same, updated after the world's edits.
  std::optional<VoxelFootprint> own_footprint;
  /// The world the running search's node ids belong to when it is not this query's own: a wide
  /// agent's footprint world, whose ids the result is rewritten from.
  const VoxelWorld* searched = nullptr;

  /// The footprint world a wide agent of `profile` is searched on: the shared one when it serves
  /// it (options_problem refuses one that does not, footprint_fit_problem says why), else the
  /// query's own.
  const VoxelWorld& footprint_of(const VoxelWorld& world, const MovementProfile& profile) {
    if (shared_footprint && shared_footprint->serves(world, profile)) return shared_footprint->world();
    if (!own_footprint || !own_footprint->fits(profile))
      own_footprint.emplace(world, profile);
    else
      own_footprint->update();
    return own_footprint->world();
  }
};

std::string_view to_string(VoxelAlgorithm algorithm) { return algorithm_name(algorithm_names, algorithm); }

std::optional<VoxelAlgorithm> parse_voxel_algorithm(std::string_view name) {
  return parse_algorithm_name(algorithm_names, name);
}

std::string_view to_string(VoxelMoveKind kind) {
  switch (kind) {
    case VoxelMoveKind::walk: return "walk";
    case VoxelMoveKind::fall: return "fall";
    case VoxelMoveKind::step_up: return "step-up";
    case VoxelMoveKind::jump: return "jump";
    case VoxelMoveKind::swim: return "swim";
    case VoxelMoveKind::climb: return "climb";
    case VoxelMoveKind::fly: return "fly";
  }
  return "unknown";
}

std::optional<std::string> profile_problem(const MovementProfile& profile) {
  auto outside = [](int value, int low, int high) { return value < low || value > high; };
  using Limits = MovementProfile;
  auto range = [](int low, int high) { return " must be " + std::to_string(low) + " to " + std::to_string(high); };
  if (outside(profile.agent_height, 1, Limits::agent_height_limit)) return "agent_height" + range(1, Limits::agent_height_limit);
  if (outside(profile.agent_width, 1, Limits::agent_width_limit))
    return "agent_width" + range(1, Limits::agent_width_limit) + " (columns across the agent's square footprint), got " +
           std::to_string(profile.agent_width);
  if (profile.walk_directions != 4 && profile.walk_directions != 8) return "walk_directions must be 4 or 8";
  if (outside(profile.step_height, 0, Limits::step_height_limit)) return "step_height" + range(0, Limits::step_height_limit);
  if (outside(profile.jump_height, 0, Limits::jump_height_limit)) return "jump_height" + range(0, Limits::jump_height_limit);
  if (outside(profile.jump_distance, 0, Limits::jump_distance_limit))
    return "jump_distance" + range(0, Limits::jump_distance_limit);
  if (outside(profile.max_fall, 0, Limits::max_fall_limit)) return "max_fall" + range(0, Limits::max_fall_limit);
  const std::pair<const char*, Cost> costs[] = {
      {"walk_cost", profile.walk_cost},       {"diagonal_cost", profile.diagonal_cost},
      {"step_up_cost", profile.step_up_cost}, {"jump_cost", profile.jump_cost},
      {"fall_cost", profile.fall_cost},       {"swim_cost", profile.swim_cost},
      {"climb_cost", profile.climb_cost},     {"fly_cost", profile.fly_cost}};
  for (const auto& [name, cost] : costs)
    if (!finite_non_negative(cost)) return std::string(name) + " must be finite and not negative";
  if (profile.walk_cost <= 0.0 || profile.diagonal_cost <= 0.0) return "walk_cost and diagonal_cost must be positive";
  if (profile.fly && profile.fly_cost <= 0.0) return "fly_cost must be positive";
  return {};
}

VoxelQuery::VoxelQuery(const VoxelWorld& world, const MovementProfile& profile)
    : QueryObject(world), profile_(profile), state_(std::make_unique<VoxelQueryState>()) {
  if (const std::optional<std::string> problem = profile_problem(profile))
    throw std::invalid_argument("bad movement profile: " + *problem);
}
VoxelQuery::~VoxelQuery() = default;
VoxelQuery::VoxelQuery(VoxelQuery&&) noexcept = default;

std::optional<std::string> VoxelQuery::position_problem(VoxelCoord at) const {
  return voxel_place_problem(world(), profile_, at);
}

std::optional<std::string> VoxelQuery::position_problem(VoxelCoord at, const MovementProfile& profile) const {
  return voxel_place_problem(world(), profile, at);
}

std::optional<std::string> VoxelQuery::options_problem(const VoxelSearchOptions& options) const {
  if (static_cast<unsigned>(options.algorithm) > static_cast<unsigned>(VoxelAlgorithm::hierarchical))
    return "unknown algorithm " + std::to_string(static_cast<unsigned>(options.algorithm));
  if (std::optional<std::string> problem = budget_problem(options.budget)) return problem;
  if (options.profile)
    if (const std::optional<std::string> problem = profile_problem(*options.profile)) return "bad movement profile: " + *problem;
  const MovementProfile& profile = options.profile ? *options.profile : profile_;
  if (options.algorithm == VoxelAlgorithm::jump_point && !profile.fly)
    return "jump point search is for flying agents only (a profile with fly set); walkers use astar, dijkstra, "
           "weighted-astar or greedy";
  if (options.algorithm == VoxelAlgorithm::hierarchical) {
    const VoxelHierarchy* hierarchy = state_->hierarchy.get();
    if (hierarchy == nullptr)
      return "hierarchical search (hpa) needs a hierarchy: build a VoxelHierarchy of this world for the agent's "
             "profile and give it to set_hierarchy";
    if (&hierarchy->source_world() != &world()) return "the hierarchy given to set_hierarchy was built for another world";
    if (hierarchy->profile().agent_width != profile.agent_width)
      return "the hierarchy given to set_hierarchy was built for agents " + std::to_string(hierarchy->profile().agent_width) +
             " blocks wide, not " + std::to_string(profile.agent_width) + ": build one for this agent_width";
    if (!(hierarchy->profile() == profile))
      return "the hierarchy given to set_hierarchy was built for another movement profile than this query's";
  } else if (wide_agent(profile) && state_->shared_footprint) {
    if (std::optional<std::string> problem = footprint_fit_problem(*state_->shared_footprint, world(), profile))
      return "the footprint given to set_footprint " + *problem;
  }
  Cost h_weight = 1.0;
  if (options.algorithm == VoxelAlgorithm::dijkstra) h_weight = 0.0;
  if (options.algorithm == VoxelAlgorithm::weighted_astar) {
    if (!(std::isfinite(options.weight) && options.weight >= 1.0))
      return "weighted A* needs a finite weight of at least 1, got " + number_text(options.weight);
    h_weight = options.weight;
  } else if (auto problem = weight_problem(options.weight)) {
    return problem;
  }
  // A search orders nodes by g + h_weight * h. Where that sum can leave the range of a double,
  // every priority becomes infinity and the search would return a wrong answer without a sign;
  // refuse such queries instead. A path visits each position at most once, so its cost is at
  // most the world's block count times the dearest single move.
  const Cost limit = std::numeric_limits<Cost>::max() / 4.0;
  const Cost largest_h = largest_heuristic(profile);
  const Cost largest_g = static_cast<Cost>(world().block_count()) * dearest_move(profile);
  if (!(largest_g <= limit))
    return "the movement costs are too large for this world: a path of up to " + std::to_string(world().block_count()) +
           " moves of cost up to " + number_text(dearest_move(profile)) + " could overflow";
  if (largest_h > 0.0 && !(h_weight * largest_h <= limit - largest_g))
    return "weight " + number_text(options.weight) + " is too large for this world: weight x the largest heuristic estimate (" +
           number_text(largest_h) + ") could overflow the search's priorities; use a weight of at most " +
           number_text((limit - largest_g) / largest_h);
  return {};
}

Cost VoxelQuery::largest_heuristic(const MovementProfile& profile) const {
  if (world().block_count() == 0) return 0.0;
  // Both heuristics grow with the distance along each axis, so opposite corners give the largest.
  const NodeId low = world().node_of(0, 0, 0);
  const NodeId high = world().node_of(world().size_x() - 1, world().size_y() - 1, world().size_z() - 1);
  if (profile.fly) return VoxelFlyingDomain(world(), profile.fly_cost).heuristic(low, high);
  return VoxelWalkingDomain(world(), profile).heuristic(low, high);
}

Cost VoxelQuery::dearest_move(const MovementProfile& profile) {
  const MovementProfile& p = profile;
  if (p.fly) return p.fly_cost * 1.7320508075688772;
  // More than any one move costs: the widest jump's columns plus every extra a move can add.
  return std::max(p.walk_cost, p.diagonal_cost) * (p.jump_distance + 2) + p.jump_cost +
         p.step_up_cost * std::max(p.step_height, p.jump_height) + p.fall_cost * p.max_fall + p.swim_cost + p.climb_cost;
}

SearchStatus VoxelQuery::start_query(VoxelCoord start, VoxelCoord goal, const VoxelSearchOptions& options) {
  ActiveSearch& active = state_->active;
  active.watch(world().revision());
  auto reject = [&](std::string why) { return active.reject(std::move(why)); };
  if (world().block_count() == 0) return reject("the world is empty");
  if (const std::optional<std::string> problem = options_problem(options)) return reject(*problem);
  // The place messages start with the position: "start (1,2,3) is inside a solid block".
  const MovementProfile& profile = options.profile ? *options.profile : profile_;
  if (const std::optional<std::string> problem = position_problem(start, profile)) return reject("start " + *problem);
  if (const std::optional<std::string> problem = position_problem(goal, profile)) return reject("goal " + *problem);

  state_->searched = nullptr;
  Cost g_weight = 1.0;
  Cost h_weight = 1.0;
  switch (options.algorithm) {
    case VoxelAlgorithm::dijkstra: h_weight = 0.0; break;
    case VoxelAlgorithm::weighted_astar: h_weight = options.weight; break;
    case VoxelAlgorithm::greedy_best_first: g_weight = 0.0; break;
    default: break;
  }
  if (options.algorithm == VoxelAlgorithm::hierarchical) {
    // Stepped as one run: the hierarchy's query object runs its searches in turn under the
    // options' Budget. It refuses a world edited since the hierarchy's build.
    if (!state_->hierarchical || &state_->hierarchical->hierarchy() != state_->hierarchy.get())
      state_->hierarchical = std::make_unique<VoxelHierarchyQuery>(*state_->hierarchy);
    return active.start<VoxelHierarchicalRun>(*state_->hierarchical)
        .query.begin(start, goal, static_cast<const QueryOptions&>(options));
  }
  // Pages kept from earlier queries count against a memory budget: give them back first
  // rather than stop a query for what others left.
  if (options.budget.max_memory_bytes != 0 && state_->context.memory_bytes() > options.budget.max_memory_bytes)
    state_->context.release_pages();
  const SearchOptions search = engine_options(options, g_weight, h_weight);
  // A wide agent is a one-column agent of its footprint world (voxel_footprint.hpp).
  if (wide_agent(profile)) state_->searched = &state_->footprint_of(world(), profile);
  const VoxelWorld& searched = state_->searched != nullptr ? *state_->searched : world();
  const NodeId from = searched.node_of(start);
  const NodeId to = searched.node_of(goal);
  if (options.algorithm == VoxelAlgorithm::jump_point)
    return active.start<VoxelJumpPointRun>(state_->context, state_->jump_points, searched, profile.fly_cost, to)
        .run.search.start(from, to, search);
  if (profile.fly)
    return active.start<VoxelRun<VoxelFlyingDomain>>(state_->context, searched, profile.fly_cost)
        .search.start(from, to, search);
  return active.start<VoxelRun<VoxelWalkingDomain>>(state_->context, searched, profile).search.start(from, to, search);
}

SearchStatus VoxelQuery::advance_query(const StepBudget& budget) { return state_->active.step(budget, world().revision()); }

SearchStats VoxelQuery::query_stats() const { return state_->active.stats(); }

void VoxelQuery::write_result(PathResult& out) const {
  state_->active.result(out);
  if (state_->searched != nullptr) footprint_nodes_to_world(*state_->searched, world(), out.nodes);
  fill_voxel_points(world(), out);
}

std::vector<VoxelMove> VoxelQuery::moves_of(const PathResult& result) const { return moves_of(result, profile_); }

std::vector<VoxelMove> VoxelQuery::moves_of(const PathResult& result, const MovementProfile& profile) const {
  std::vector<VoxelMove> moves;
  if (result.nodes.size() < 2) return moves;
  // A wide agent's moves are those of its footprint world, between the same positions.
  const VoxelWorld& searched = wide_agent(profile) ? state_->footprint_of(world(), profile) : world();
  auto searched_node = [&](NodeId node) { return &searched == &world() ? node : searched.node_of(world().coord_of(node)); };
  const VoxelFlyingDomain flying(searched, profile.fly_cost);
  const VoxelWalkingDomain walking(searched, profile);
  for (std::size_t i = 1; i < result.nodes.size(); ++i) {
    const NodeId from = searched_node(result.nodes[i - 1]);
    const NodeId to = searched_node(result.nodes[i]);
    const auto [kind, cost] = profile.fly ? flying.classify_move(from, to) : walking.classify_move(from, to);
    moves.push_back({world().coord_of(result.nodes[i]), kind, cost});
  }
  return moves;
}

std::size_t VoxelQuery::search_memory_bytes() const {
  return state_->context.memory_bytes() + (state_->hierarchical ? state_->hierarchical->search_memory_bytes() : 0);
}

void VoxelQuery::release_search_memory() { state_->context.release_pages(); }

void VoxelQuery::set_hierarchy(std::shared_ptr<const VoxelHierarchy> hierarchy) {
  state_->hierarchical.reset();
  state_->hierarchy = std::move(hierarchy);
}

const std::shared_ptr<const VoxelHierarchy>& VoxelQuery::hierarchy() const { return state_->hierarchy; }

void VoxelQuery::set_footprint(std::shared_ptr<const VoxelFootprint> footprint) {
  state_->shared_footprint = std::move(footprint);
  // The shared one replaces this query's own, whose memory it gives back (another width or kind
  // makes one again when searched).
  if (state_->shared_footprint) state_->own_footprint.reset();
}

const std::shared_ptr<const VoxelFootprint>& VoxelQuery::footprint() const { return state_->shared_footprint; }

void fill_voxel_points(const VoxelWorld& world, PathResult& result) {
  result.points.clear();
  result.points.reserve(result.nodes.size());
  for (const NodeId node : result.nodes) {
    const VoxelCoord at = world.coord_of(node);
    result.points.push_back({static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z)});
  }
}

// ---- Places (voxel_places.hpp) ------------------------------------------------------------
// They share the pathfinder's place rules (the walking domain's can_be_at), so they live beside
// it.

}  // namespace wayfinder
