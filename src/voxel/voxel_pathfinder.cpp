#include "wayfinder/voxel/voxel_pathfinder.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "wayfinder/core/best_first_search.hpp"
#include "core/engine_run.hpp"
#include "wayfinder/core/paged_search_context.hpp"

namespace wayfinder {

namespace {

constexpr struct {
  VoxelAlgorithm algorithm;
  std::string_view name;
} algorithm_names[] = {
    {VoxelAlgorithm::dijkstra, "dijkstra"},
    {VoxelAlgorithm::astar, "astar"},
    {VoxelAlgorithm::weighted_astar, "weighted-astar"},
    {VoxelAlgorithm::greedy_best_first, "greedy"},
};

template <class D>
using VoxelRun = EngineRun<D, PagedSearchContext>;

struct FinishedRun {
  PathResult result_value;
};

using ActiveSearch = std::variant<std::monostate, VoxelRun<VoxelFlyingDomain>, VoxelRun<VoxelWalkingDomain>, FinishedRun>;

std::string coord_text(VoxelCoord at) {
  return "(" + std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z) + ")";
}

bool finite_non_negative(Cost cost) { return std::isfinite(cost) && cost >= 0.0; }

}  // namespace

struct VoxelPathfinderState {
  PagedSearchContext context;
  ActiveSearch active;
};

std::string_view to_string(VoxelAlgorithm algorithm) {
  for (const auto& entry : algorithm_names)
    if (entry.algorithm == algorithm) return entry.name;
  return "unknown";
}

std::optional<VoxelAlgorithm> parse_voxel_algorithm(std::string_view name) {
  for (const auto& entry : algorithm_names)
    if (entry.name == name) return entry.algorithm;
  return std::nullopt;
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

std::string profile_problem(const MovementProfile& profile) {
  auto outside = [](int value, int low, int high) { return value < low || value > high; };
  if (outside(profile.agent_height, 1, 64)) return "agent_height must be 1 to 64";
  if (profile.walk_directions != 4 && profile.walk_directions != 8) return "walk_directions must be 4 or 8";
  if (outside(profile.step_height, 0, 8)) return "step_height must be 0 to 8";
  if (outside(profile.jump_height, 0, 16)) return "jump_height must be 0 to 16";
  if (outside(profile.jump_distance, 0, 16)) return "jump_distance must be 0 to 16";
  if (outside(profile.max_fall, 0, 256)) return "max_fall must be 0 to 256";
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

VoxelPathfinder::VoxelPathfinder(const VoxelWorld& world, const MovementProfile& profile)
    : world_(world), profile_(profile), state_(std::make_unique<VoxelPathfinderState>()) {
  if (const std::string problem = profile_problem(profile); !problem.empty())
    throw std::invalid_argument("bad movement profile: " + problem);
}
VoxelPathfinder::~VoxelPathfinder() = default;
VoxelPathfinder::VoxelPathfinder(VoxelPathfinder&&) noexcept = default;

std::string VoxelPathfinder::position_problem(VoxelCoord at) const {
  if (!world_.contains(at))
    return coord_text(at) + " is outside the " + std::to_string(world_.size_x()) + "x" + std::to_string(world_.size_y()) +
           "x" + std::to_string(world_.size_z()) + " world";
  if (profile_.fly) {
    if (world_.solid(at.x, at.y, at.z)) return coord_text(at) + " is a solid block";
    return {};
  }
  if (!VoxelWalkingDomain(world_, profile_).can_be_at(at))
    return "the agent cannot be at " + coord_text(at) +
           " (it needs " + std::to_string(profile_.agent_height) +
           " free blocks and to stand on a solid block or ladder, climb a ladder or swim)";
  return {};
}

SearchStatus VoxelPathfinder::begin(VoxelCoord start, VoxelCoord goal, const VoxelSearchOptions& options) {
  ActiveSearch& active = state_->active;
  auto reject = [&](std::string why) {
    active.emplace<FinishedRun>(FinishedRun{PathResult::invalid(std::move(why))});
    return SearchStatus::invalid_input;
  };
  if (world_.block_count() == 0) return reject("the world is empty");
  if (static_cast<unsigned>(options.algorithm) > static_cast<unsigned>(VoxelAlgorithm::greedy_best_first))
    return reject("unknown algorithm " + std::to_string(static_cast<unsigned>(options.algorithm)));
  if (const std::string problem = position_problem(start); !problem.empty()) return reject("start: " + problem);
  if (const std::string problem = position_problem(goal); !problem.empty()) return reject("goal: " + problem);
  if (options.algorithm == VoxelAlgorithm::weighted_astar && !(std::isfinite(options.weight) && options.weight >= 1.0))
    return reject("weighted A* needs a finite weight >= 1, got " + std::to_string(options.weight));
  if (std::isnan(options.budget.max_cost)) return reject("budget max_cost is NaN");

  SearchOptions search;
  search.budget = options.budget;
  search.return_partial = options.return_partial;
  search.partial_when_unreachable = options.partial_when_unreachable;
  search.trace = options.trace;
  switch (options.algorithm) {
    case VoxelAlgorithm::dijkstra: search.h_weight = 0.0; break;
    case VoxelAlgorithm::weighted_astar: search.h_weight = options.weight; break;
    case VoxelAlgorithm::greedy_best_first: search.g_weight = 0.0; break;
    default: break;
  }
  const NodeId from = world_.node_of(start);
  const NodeId to = world_.node_of(goal);
  if (profile_.fly)
    return active.emplace<VoxelRun<VoxelFlyingDomain>>(state_->context, world_, profile_.fly_cost)
        .search.start(from, to, search);
  return active.emplace<VoxelRun<VoxelWalkingDomain>>(state_->context, world_, profile_).search.start(from, to, search);
}

SearchStatus VoxelPathfinder::step(std::uint64_t max_expansions) {
  return std::visit(
      [&](auto& run) -> SearchStatus {
        using Run = std::decay_t<decltype(run)>;
        if constexpr (std::is_same_v<Run, std::monostate>)
          return SearchStatus::invalid_input;
        else if constexpr (std::is_same_v<Run, FinishedRun>)
          return run.result_value.status;
        else
          return run.search.step(max_expansions);
      },
      state_->active);
}

PathResult VoxelPathfinder::result() const {
  PathResult result = std::visit(
      [&](const auto& run) -> PathResult {
        using Run = std::decay_t<decltype(run)>;
        if constexpr (std::is_same_v<Run, std::monostate>)
          return PathResult::invalid("no query has begun");
        else if constexpr (std::is_same_v<Run, FinishedRun>)
          return run.result_value;
        else
          return run.search.result();
      },
      state_->active);
  fill_voxel_points(world_, result);
  return result;
}

PathResult VoxelPathfinder::find_path(VoxelCoord start, VoxelCoord goal, const VoxelSearchOptions& options) {
  if (begin(start, goal, options) == SearchStatus::in_progress) step(Budget::unlimited_expansions);
  return result();
}

std::vector<VoxelMove> VoxelPathfinder::moves_of(const PathResult& result) const {
  std::vector<VoxelMove> moves;
  if (result.nodes.size() < 2) return moves;
  const VoxelFlyingDomain flying(world_, profile_.fly_cost);
  const VoxelWalkingDomain walking(world_, profile_);
  for (std::size_t i = 1; i < result.nodes.size(); ++i) {
    const auto [kind, cost] = profile_.fly ? flying.classify_move(result.nodes[i - 1], result.nodes[i])
                                           : walking.classify_move(result.nodes[i - 1], result.nodes[i]);
    moves.push_back({world_.coord_of(result.nodes[i]), kind, cost});
  }
  return moves;
}

std::size_t VoxelPathfinder::search_memory_bytes() const { return state_->context.memory_bytes(); }

void fill_voxel_points(const VoxelWorld& world, PathResult& result) {
  result.points.clear();
  result.points.reserve(result.nodes.size());
  for (const NodeId node : result.nodes) {
    const VoxelCoord at = world.coord_of(node);
    result.points.push_back({static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z)});
  }
}

}  // namespace wayfinder
