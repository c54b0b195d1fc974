#pragma once
// Hierarchical path-finding on large voxel worlds: HPA* (Botea, Müller & Schaeffer 2004, "Near
// Optimal Hierarchical Path-Finding", Journal of Game Development 1(1)), lifted from grids to the
// moves of a MovementProfile. The world is cut into clusters (C x H x C blocks); the agent's
// moves across their borders, grouped into entrances, give the nodes of a directed abstract
// graph whose intra-edges cost the cheapest path inside a cluster. How it is built and searched:
// docs/voxel.md, "Hierarchical search (hpa)".
//
// Guarantees: every move of the path is a move of the profile, and its cost is the sum of its
// moves; a path is found exactly when the goal is reachable. The path is not optimal (measured
// against A* in docs/benchmarks.md).
//
// Memory and time: the build reads every block of the world once and runs one search per node
// inside its cluster; it keeps the places of each cluster (4 bytes each), the nodes and edges.
// A flyer's build stores and searches every air block of the clusters that hold a solid block,
// about ten times a walker's; max_places caps it.
//
// Changing worlds: the hierarchy records the world revision it was built or updated for; a
// query on a world edited since is refused (invalid_input). update() brings it up to date from
// the world's change log, redoing only the clusters near the edited blocks (and the neighbours
// whose entrances or nodes those change), and gives the same hierarchy as a fresh build;
// rebuild() builds everything again.
//
// Threads: the hierarchy is derived data of the world, shared read-only by any number of
// queries. update() and rebuild() change it: they need exclusive access, as the world's edits
// do (no query may run on it meanwhile).
//
// Wide agents (MovementProfile::agent_width 2 or 3): the hierarchy is built for the profile's
// width, on the agent's footprint world (a VoxelFootprint, voxel_footprint.hpp), which it owns;
// queries of another width are refused. update() of a wide agent's hierarchy is local too: it
// updates the footprint world from the world's change log (only the footprint blocks an edited
// block covers), then redoes the clusters near the footprint blocks that changed, from the
// footprint world's own change log, exactly as for one column; the same guarantee holds.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_object.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

class VoxelFootprint;

struct VoxelHierarchyOptions {
  /// The side C of a cluster across (x and z), 4 to 64 blocks.
  int cluster_size = 16;
  /// The height of a cluster in blocks (4 to 256), or 0: the world's whole height for walkers,
  /// cluster_size for flyers.
  int cluster_height = 0;
  /// An entrance of at least this many transitions gets three chosen transitions (its middle
  /// and both ends); a shorter one gets its middle (at least 1).
  int long_entrance = 6;
  /// Threads that build clusters (1 to 64); the result does not depend on it.
  int build_threads = 1;
  /// Refuse (std::length_error, during the build's first pass) a world where the hierarchy
  /// would store more places than this; 0: no limit. A flyer's places are the blocks that are
  /// not solid, stored only for the clusters that hold a solid block.
  std::uint64_t max_places = 0;
  /// Called during the build (and update()) with (clusters done, clusters to do), from the
  /// building thread that finished a cluster, one call at a time; may be empty.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

/// What a build did, and what the hierarchy holds.
struct VoxelHierarchyStats {
  std::size_t clusters = 0;
  std::size_t clusters_rebuilt = 0;  ///< whose places or in-cluster costs the last build (all) or update redid
  std::uint64_t places = 0;         ///< where the agent can be, in the whole world
  std::size_t open_clusters = 0;    ///< a flyer's clusters without a solid block (cluster_open)
  std::size_t transitions = 0;      ///< moves between clusters (a flyer's along one axis only)
  std::size_t entrances = 0;        ///< groups of them
  std::size_t nodes = 0;            ///< abstract nodes
  std::size_t inter_edges = 0;      ///< directed edges across borders (chosen transitions)
  std::size_t intra_edges = 0;      ///< directed edges inside clusters
  std::uint64_t build_expansions = 0;  ///< by the in-cluster searches of a fresh build
  std::size_t memory_bytes = 0;     ///< the hierarchy's own memory, not the world's
  double build_milliseconds = 0.0;  ///< wall time of the last build or update
};

class VoxelHierarchy {
 public:
  /// Builds the hierarchy of `world` for an agent of `profile` (which it keeps a reference to:
  /// the world must outlive it). Throws std::invalid_argument for a bad profile
  /// (profile_problem), options out of range or an empty world, and std::length_error for a
  /// world with more places than options.max_places.
  VoxelHierarchy(const VoxelWorld& world, const MovementProfile& profile, VoxelHierarchyOptions options = {});
  VoxelHierarchy(const VoxelWorld&& world, const MovementProfile& profile, VoxelHierarchyOptions options = {}) = delete;
  ~VoxelHierarchy();
  VoxelHierarchy(VoxelHierarchy&&) noexcept;
  VoxelHierarchy& operator=(VoxelHierarchy&&) = delete;

  /// The world the hierarchy searches: the world it was built for, or for a wide agent its
  /// footprint world (whose node ids its places and nodes are).
  [[nodiscard]] const VoxelWorld& world() const { return world_; }
  /// The world the hierarchy was built for (the same as world() for one-column agents).
  [[nodiscard]] const VoxelWorld& source_world() const { return source_world_; }
  [[nodiscard]] const MovementProfile& profile() const { return profile_; }
  /// The revision of source_world() the hierarchy describes.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// True when the world has not been edited since the last build or update.
  [[nodiscard]] bool current() const { return source_world_.revision() == revision_; }
  [[nodiscard]] const VoxelHierarchyStats& stats() const { return stats_; }

  /// Brings the hierarchy up to the world's revision from its change log (changes_since
  /// revision()). An edited block can change the places and moves of the agent up to a move's
  /// reach away (jump distance across, fall and jump height plus the agent's height up and
  /// down), and the entrances of the clusters those moves leave or enter: the clusters within
  /// twice that reach of an edited block get their places, entrances and in-cluster costs
  /// redone; the transitions chosen for entrances are chosen again from the first such
  /// cluster on, cluster by cluster, only where a choice can have changed (a chosen transition
  /// prefers places chosen before it, so a change can move neighbours' choices); and clusters
  /// whose nodes changed get their in-cluster costs redone. Falls back to rebuild() when the
  /// log does not reach back to revision() (or the world's log was restarted).
  /// Guarantees: afterwards the hierarchy equals a fresh build on the world as it is (the same
  /// places, nodes, edges and costs, in the same order, so the same paths); revision() is the
  /// world's. Returns the clusters redone (stats().clusters_rebuilt); 0 when current.
  /// Precondition: no query runs on the hierarchy meanwhile (see Threads above). Throws
  /// std::length_error past options.max_places, leaving the hierarchy as it was (not current).
  std::size_t update();
  /// Builds everything again (what update() falls back to). No query may run meanwhile.
  void rebuild();

  // ---- The abstract graph, for queries, tests and drawing.
  [[nodiscard]] int cluster_size() const { return size_; }
  [[nodiscard]] int cluster_height() const { return height_; }
  [[nodiscard]] std::size_t cluster_count() const { return cluster_places_offsets_.size() - 1; }
  [[nodiscard]] int cluster_of(VoxelCoord at) const {
    return ((at.y / height_) * down_ + at.z / size_) * across_ + at.x / size_;
  }
  /// The box of a cluster: its lowest corner and its extent, clipped to the world.
  [[nodiscard]] VoxelCoord cluster_origin(int cluster) const;
  [[nodiscard]] VoxelCoord cluster_extent(int cluster) const;
  /// True for a flyer's cluster that holds no solid block: every block of it is a place, and
  /// its intra-edges cost the octile distance (no places stored, no searches built).
  [[nodiscard]] bool cluster_open(int cluster) const { return open_[static_cast<std::size_t>(cluster)] != 0; }
  /// The places of a cluster (node ids of the world, sorted); empty for an open cluster.
  [[nodiscard]] std::span<const NodeId> cluster_places(int cluster) const {
    return {cluster_places_.data() + cluster_places_offsets_[cluster],
            cluster_places_.data() + cluster_places_offsets_[cluster + 1]};
  }
  [[nodiscard]] std::size_t node_count() const { return node_places_.size(); }
  /// The world node id (packed coordinates) of an abstract node.
  [[nodiscard]] NodeId node_place(std::uint32_t node) const { return node_places_[node]; }
  /// The nodes of a cluster: [first, end).
  [[nodiscard]] std::uint32_t cluster_first_node(int cluster) const { return node_offsets_[cluster]; }
  [[nodiscard]] std::uint32_t cluster_end_node(int cluster) const { return node_offsets_[cluster + 1]; }
  struct Edge {
    std::uint32_t to = 0;
    bool inter = false;  ///< one move across a border; otherwise a path inside the node's cluster
    Cost cost = 0.0;
  };
  [[nodiscard]] std::span<const Edge> edges(std::uint32_t node) const {
    return {edges_.data() + edge_offsets_[node], edges_.data() + edge_offsets_[node + 1]};
  }

 private:
  /// A move across a border chosen to stand for its entrance: an inter-edge.
  struct ChosenTransition {
    NodeId from = 0;
    NodeId to = 0;
    Cost cost = 0.0;
    friend bool operator==(const ChosenTransition&, const ChosenTransition&) = default;
  };

  void build();
  /// Steps 4 to 6 of the build: the nodes from chosen_, the in-cluster costs of the clusters
  /// marked in `redo` (and of those whose nodes changed; the others keep theirs), the graph and
  /// the stats. Reports progress from progress_base of progress_total.
  void connect(std::vector<char> redo, std::size_t progress_base, std::size_t progress_total);
  /// Calls visit(c) for every cluster c at most reach_x, reach_y, reach_z clusters away along
  /// each axis from `cluster` (itself included), in increasing order.
  void for_each_cluster_near(int cluster, int reach_x, int reach_y, int reach_z, const std::function<void(int)>& visit) const;

  const VoxelWorld& source_world_;
  /// A wide agent's footprint world, made from source_world_; null for a one-column agent.
  std::unique_ptr<VoxelFootprint> footprint_;
  const VoxelWorld& world_;  ///< what is searched: footprint_->world() or source_world_
  MovementProfile profile_;
  VoxelHierarchyOptions options_;
  int size_ = 16;
  int height_ = 16;
  int across_ = 0;  ///< clusters along x
  int down_ = 0;    ///< clusters along z
  int up_ = 0;      ///< clusters along y
  std::uint64_t revision_ = 0;
  std::uint64_t searched_revision_ = 0;  ///< world_'s revision at the last build or update
  VoxelCoord world_size_{};  ///< the world's size at the last build or update
  VoxelHierarchyStats stats_;
  std::vector<std::uint8_t> open_;  ///< per cluster: 1 for a flyer's cluster without a solid block
  std::vector<NodeId> cluster_places_;
  std::vector<std::uint64_t> cluster_places_offsets_;
  // The graph: nodes numbered cluster by cluster, edges in compressed rows.
  std::vector<NodeId> node_places_;
  std::vector<std::uint32_t> node_offsets_;
  std::vector<std::uint32_t> edge_offsets_;
  std::vector<Edge> edges_;
  // What update() needs beyond the graph: per cluster, its chosen transitions (in the order
  // chosen) and its counts for the stats.
  std::vector<std::vector<ChosenTransition>> chosen_;
  std::vector<std::uint32_t> cluster_transitions_;
  std::vector<std::uint32_t> cluster_entrances_;
  std::vector<std::uint64_t> cluster_expansions_;
};

/// The query object: one per thread, reused across queries, reading a shared VoxelHierarchy.
/// Its calls are QueryObject's (query_object.hpp): find_path, or begin / step / result for a
/// query spread over frames, and stats(). begin() checks the query and settles the trivial one;
/// step() runs, in turn, the direct search inside one cluster (start and goal in the same
/// cluster), the direct search over the box of two neighbouring clusters, the searches that
/// connect the start and the goal to their clusters' nodes, A* on the abstract graph, and one
/// search inside its cluster for each intra-edge of the abstract path (its refinement); the
/// smoothing is done in the step that ends the last of them. The step's limits and the options'
/// Budget (every field: expansions, cost, time, memory) count the work of all these searches
/// together; the Budget ends the query with the statuses and reasons every search gives, and a
/// partial result is the start alone (docs/voxel.md, "Hierarchical search (hpa)"). The trace is
/// not recorded.
class VoxelHierarchyQuery : public QueryObject<VoxelHierarchyQuery, VoxelHierarchy, VoxelCoord, QueryOptions> {
 public:
  /// Lifetime: keeps a reference to `hierarchy`, which must outlive it.
  explicit VoxelHierarchyQuery(const VoxelHierarchy& hierarchy);
  explicit VoxelHierarchyQuery(const VoxelHierarchy&& hierarchy) = delete;
  ~VoxelHierarchyQuery();
  VoxelHierarchyQuery(VoxelHierarchyQuery&&) noexcept;
  VoxelHierarchyQuery& operator=(VoxelHierarchyQuery&&) = delete;

  // Never throws for bad queries: a start or goal where the agent cannot be (the message names
  // the check, as VoxelQuery's; positions of wide agents are corners of their footprints, and
  // result nodes ids of source_world()), a bad budget, or a world edited since the hierarchy was built,
  // give invalid_input. An unreachable goal gives no_path. Nodes are packed ids, points block
  // coordinates, as VoxelQuery's.

  [[nodiscard]] const VoxelHierarchy& hierarchy() const { return world(); }
  /// Bytes held by the query state (search contexts sized for one cluster and the graph); what
  /// Budget::max_memory_bytes counts.
  [[nodiscard]] std::size_t search_memory_bytes() const;

 private:
  friend QueryObject;
  SearchStatus start_query(VoxelCoord start, VoxelCoord goal, const QueryOptions& options);
  SearchStatus advance_query(const StepBudget& budget);
  void write_result(PathResult& out) const;
  [[nodiscard]] SearchStats query_stats() const;

  std::unique_ptr<struct VoxelHierarchyQueryState> state_;
};

}  // namespace wayfinder
