#pragma once
// The voxel query object: one per thread, reused across queries. It holds per-query search
// state only (paged: its memory follows the explored region); the VoxelWorld and the hierarchy
// it reads are shared read-only. docs/architecture.md ("Query objects") says more.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_object.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

enum class VoxelAlgorithm : std::uint8_t {
  dijkstra,
  astar,
  weighted_astar,     ///< cost <= weight x optimal; weight 2 is the "g / 2" of voxel tutorials
  greedy_best_first,  ///< fast, no cost guarantee
  jump_point,         ///< optimal, flying agents only, of any agent_width (voxel_jump_point_search.hpp)
  /// HPA* over a VoxelHierarchy given to set_hierarchy (voxel_hierarchy.hpp): near-optimal,
  /// for large worlds; stepped and budgeted like the others (its searches in turn under one
  /// Budget), the trace not recorded.
  hierarchical,
};

/// Command-line names: dijkstra, astar, weighted-astar, greedy, jps, hpa.
std::string_view to_string(VoxelAlgorithm algorithm);
std::optional<VoxelAlgorithm> parse_voxel_algorithm(std::string_view name);
std::string_view to_string(VoxelMoveKind kind);

/// The voxel world's options: the shared ones (budget, return_partial, partial_when_unreachable,
/// trace with node ids as packed coordinates; see QueryOptions) and the world's own.
struct VoxelSearchOptions : QueryOptions {
  VoxelAlgorithm algorithm = VoxelAlgorithm::astar;
  /// Heuristic weight of weighted A* (finite, >= 1, and small enough for the world: see
  /// VoxelQuery::options_problem). Only weighted_astar reads it.
  double weight = 2.0;
  /// The agent this query is for. Empty: the pathfinder's own profile (its constructor's). So
  /// one pathfinder per thread serves agents of every kind on one world.
  std::optional<MovementProfile> profile;
};

/// One query as a value: what batches and the request queue take.
using VoxelPathRequest = PathRequest<VoxelCoord, VoxelSearchOptions>;

/// One move of a path: where it ends, what kind of move it is and what it costs.
struct VoxelMove {
  VoxelCoord to;
  VoxelMoveKind kind = VoxelMoveKind::walk;
  Cost cost = 0.0;
};

/// The calls every query object answers (find_path, begin / step / result, stats) are
/// QueryObject's (query_object.hpp). Bad queries (a start or goal outside the world or where the
/// agent cannot be, with a message naming the failed check, e.g. "start (4,1,2): the block below
/// (4,0,2) is air, so nothing holds the agent"; bad options, see options_problem) answer
/// invalid_input. PathResult::nodes are packed ids (VoxelWorld::coord_of); points are block
/// coordinates.
///
/// Agents wider than one column (MovementProfile::agent_width 2 or 3, walkers and flyers): start,
/// goal and every point of the path are the corner of the agent's footprint with the lowest x
/// and z (and y, for a flyer), the body reaching agent_width - 1 blocks towards +x and +z (and
/// +y) from it; every position keeps the whole body clear and supported, and every move clears
/// the box swept by the whole body (movement_profile.hpp, voxel_footprint.hpp). Every algorithm
/// serves them with the same guarantees as for one column. The search runs on the agent's
/// footprint world: the shared VoxelFootprint given to set_footprint, or else one the query
/// makes on the first such query and keeps (about one byte per block of the world) while the
/// width and the kind of agent stay the same, updating it from the world's change log after
/// edits. Threads share one by giving the same VoxelFootprint to each query (N threads then hold
/// one copy, not N); the paths, costs and node ids are the same either way. The footprint
/// world's node ids appear only in the trace. Width 1 searches the world itself, exactly as
/// before.
class VoxelQuery : public QueryObject<VoxelQuery, VoxelWorld, VoxelCoord, VoxelSearchOptions> {
 public:
  /// Throws std::invalid_argument if profile_problem(profile) is not empty.
  /// Lifetime: the pathfinder keeps a reference to `world`, which must outlive it. Building one
  /// from a temporary world does not compile: load the world into a variable first.
  explicit VoxelQuery(const VoxelWorld& world, const MovementProfile& profile = MovementProfile::walker());
  explicit VoxelQuery(const VoxelWorld&& world, const MovementProfile& profile = MovementProfile::walker()) = delete;
  ~VoxelQuery();
  VoxelQuery(VoxelQuery&&) noexcept;

  /// No value if the agent can be at `at` (start and goal must be such places), otherwise which
  /// check failed and at which block (voxel_place_problem in voxel_places.hpp).
  [[nodiscard]] std::optional<std::string> position_problem(VoxelCoord at) const;
  /// The same for an agent with another profile.
  [[nodiscard]] std::optional<std::string> position_problem(VoxelCoord at, const MovementProfile& profile) const;
  /// No value if begin() accepts these options for this world, otherwise why not: an unknown
  /// algorithm, jump point search for a profile that does not fly, a NaN cost budget, a weighted
  /// A* weight not finite or below 1 or so large that the search's priorities could overflow,
  /// movement costs so large that a path's cost could, a bad options.profile (profile_problem),
  /// hierarchical without a fitting hierarchy (set_hierarchy), or a wide agent's search (other
  /// than hierarchical) with a footprint given to set_footprint that does not fit it: of another
  /// world, width or kind of agent, or behind the world's revision.
  [[nodiscard]] std::optional<std::string> options_problem(const VoxelSearchOptions& options) const;
  /// The moves of a path returned by this pathfinder (one fewer than its nodes).
  [[nodiscard]] std::vector<VoxelMove> moves_of(const PathResult& result) const;
  /// The same for a path found with another profile (VoxelSearchOptions::profile).
  [[nodiscard]] std::vector<VoxelMove> moves_of(const PathResult& result, const MovementProfile& profile) const;

  [[nodiscard]] const MovementProfile& profile() const { return profile_; }
  /// Bytes held by the search state (pages of node records and the page table, and the
  /// hierarchical search's contexts once it has run).
  [[nodiscard]] std::size_t search_memory_bytes() const;
  /// Gives back the pages of search state kept from earlier queries (they are reused by the
  /// next query otherwise). begin() does this itself when they alone exceed the query's
  /// Budget::max_memory_bytes. Not while a query is stepped.
  void release_search_memory();

  /// The hierarchy VoxelAlgorithm::hierarchical searches (derived data, built by the caller and
  /// shared read-only): of this pathfinder's world, for the profile of the queries that use it
  /// (others are refused); a world edited since its build is refused until it is rebuilt
  /// (VoxelHierarchy::rebuild). Null removes it.
  void set_hierarchy(std::shared_ptr<const VoxelHierarchy> hierarchy);
  [[nodiscard]] const std::shared_ptr<const VoxelHierarchy>& hierarchy() const;

  /// The footprint world that wide agents' searches run on (derived data, built by the caller
  /// and shared read-only by any number of queries): of this query's world, for agents of its
  /// agent_width and kind; queries of wide agents of another width or kind, and any while the
  /// world was edited since its last VoxelFootprint::update(), are refused (invalid_input with
  /// the reason), except hierarchical ones, which search their hierarchy's. With it the query
  /// builds no footprint world of its own. Null removes it (the query then makes its own when a
  /// wide agent is searched). One-column agents never read it.
  void set_footprint(std::shared_ptr<const VoxelFootprint> footprint);
  [[nodiscard]] const std::shared_ptr<const VoxelFootprint>& footprint() const;

 private:
  friend QueryObject;
  SearchStatus start_query(VoxelCoord start, VoxelCoord goal, const VoxelSearchOptions& options);
  SearchStatus advance_query(const StepBudget& budget);
  void write_result(PathResult& out) const;
  SearchStats query_stats() const;
  /// The heuristic estimate between opposite corners of the world: no estimate is larger.
  [[nodiscard]] Cost largest_heuristic(const MovementProfile& profile) const;
  /// At least the cost of any single move of the profile.
  [[nodiscard]] static Cost dearest_move(const MovementProfile& profile);

  MovementProfile profile_;
  std::unique_ptr<struct VoxelQueryState> state_;
};

template <>
struct QueryTypes<VoxelWorld> : QueryTypesOf<VoxelQuery> {};

/// Fills PathResult::points with the block coordinates of PathResult::nodes.
void fill_voxel_points(const VoxelWorld& world, PathResult& result);

/// The former name of VoxelQuery: query objects are called queries in every language.
using VoxelPathfinder [[deprecated("renamed VoxelQuery")]] = VoxelQuery;

}  // namespace wayfinder
