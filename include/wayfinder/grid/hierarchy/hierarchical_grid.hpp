#pragma once
// Hierarchical path-finding on large grids: HPA* (Botea, Müller & Schaeffer 2004, "Near Optimal
// Hierarchical Path-Finding", Journal of Game Development 1(1)). HierarchicalGrid is built once
// per map (clusters of C x C cells, entrances along their borders, an abstract graph whose
// intra-edges keep their cell paths, two bytes a cell) and shared, read-only, by any number of
// HierarchicalGridQuery query objects, one per thread. How it is built and searched, and how
// near optimal its paths are: docs/grid.md, "Hierarchical search (HPA*)".
//
// Guarantees: the path is a valid cell path (every move allowed under the MovingAI rule, no
// corner cutting) and its cost is the sum of its moves; a path is found exactly when the goal
// is reachable. The path is not optimal (1.0035 x optimal on average on the MovingAI sets,
// docs/benchmarks.md); smoothing (the paper's section 4) shortens it.
//
// Queries are stepped like every search (begin / step / result) and honour every Budget field.
//
// Rules: 8-connected grids with DiagonalMode::only_if_no_obstacles (the MovingAI rule), uniform
// or terrain costs (a move costs its length times the mean of its two cells' costs, as every
// grid search). No area filters, no agents larger than one cell.
//
// Changing maps: the hierarchy records the map revision it was built for; update() brings it up
// to date from the map's change log (only the clusters whose cells changed and the neighbours
// they affect, or everything when the log no longer reaches back). A query on a map whose
// revision moved since the last build or update is refused (invalid_input, saying so).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_object.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

struct HierarchyOptions {
  /// The side C of a cluster in cells (4 to 256). Larger clusters make a smaller abstract graph
  /// and dearer start/goal connections.
  int cluster_size = 16;
  /// An entrance of at least this many cell pairs gets two transitions, at its ends; a shorter
  /// one gets one, in its middle (the paper's threshold is 6; at least 1).
  int long_entrance = 6;
  /// Called during build() and update() with (clusters done, clusters to do); may be empty.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

/// What a build or update did, and what the hierarchy holds.
struct HierarchyStats {
  std::size_t clusters = 0;
  std::size_t clusters_rebuilt = 0;  ///< by the last build (all) or update (those touched)
  std::size_t nodes = 0;             ///< abstract nodes (transition cells)
  std::size_t inter_edges = 0;       ///< directed edges across borders
  std::size_t intra_edges = 0;       ///< directed edges inside clusters
  std::size_t memory_bytes = 0;      ///< the hierarchy's own memory, not the map's
  double build_milliseconds = 0.0;   ///< wall time of the last build or update
};

class HierarchicalGrid {
 public:
  /// Builds the hierarchy of `map` (which it keeps a reference to: it must outlive the
  /// hierarchy). Throws std::invalid_argument for options out of range or an empty map.
  explicit HierarchicalGrid(const GridMap& map, HierarchyOptions options = {});
  explicit HierarchicalGrid(const GridMap&& map, HierarchyOptions options = {}) = delete;

  [[nodiscard]] const GridMap& map() const { return map_; }
  [[nodiscard]] int cluster_size() const { return size_; }
  /// The map revision the hierarchy describes.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// True when the map has not been edited since the last build or update.
  [[nodiscard]] bool current() const { return map_.revision() == revision_; }
  [[nodiscard]] const HierarchyStats& stats() const { return stats_; }

  /// Brings the hierarchy up to the map's revision: rebuilds the clusters the change log since
  /// revision() touched, or everything when the log does not reach back that far (or the map
  /// was reloaded). Returns the number of clusters rebuilt. No query may run meanwhile.
  std::size_t update();
  /// Rebuilds everything (what update() falls back to).
  void rebuild();

  // ---- The abstract graph, for queries, tests and drawing.
  [[nodiscard]] int clusters_across() const { return across_; }
  [[nodiscard]] int clusters_down() const { return down_; }
  [[nodiscard]] int cluster_of(Cell c) const { return (c.y / size_) * across_ + c.x / size_; }
  /// The cells of a cluster: [x, x + width) x [y, y + height), clipped to the map.
  [[nodiscard]] GridRect cluster_rect(int cluster) const;
  [[nodiscard]] std::size_t node_count() const { return node_cells_.size(); }
  /// The cell id of an abstract node.
  [[nodiscard]] NodeId node_cell(std::uint32_t node) const { return node_cells_[node]; }
  /// The nodes of a cluster: [first, last).
  [[nodiscard]] std::uint32_t cluster_first_node(int cluster) const { return node_offsets_[cluster]; }
  [[nodiscard]] std::uint32_t cluster_end_node(int cluster) const { return node_offsets_[cluster + 1]; }
  struct Edge {
    std::uint32_t to = 0;
    bool inter = false;  ///< across a border (one move); otherwise inside the node's cluster
    Cost cost = 0.0;
  };
  [[nodiscard]] std::span<const Edge> edges(std::uint32_t node) const {
    return {edges_.data() + edge_offsets_[node], edges_.data() + edge_offsets_[node + 1]};
  }
  /// Appends the cells of the intra-edge from `from` to `to` (two nodes of one cluster joined by
  /// an edge), kept since the build, to `path`; `from` is not repeated when `path` ends there.
  void append_intra_path(std::uint32_t from, std::uint32_t to, std::vector<NodeId>& path) const;

 private:
  struct Transition {
    NodeId first = 0;   ///< the cell on the left (or upper) side
    NodeId second = 0;  ///< the cell on the right (or lower) side
  };
  struct ClusterData {
    std::vector<NodeId> cells;  ///< the cluster's transition cells, sorted, unique
    std::vector<Cost> costs;    ///< cells.size()^2 in-cluster costs (infinite_cost: none)
    /// The in-cluster path of each pair i < j, as cell indices inside the cluster, in
    /// path_cells[path_offsets[i * k + j], path_offsets[i * k + j + 1]).
    std::vector<std::uint32_t> path_offsets;
    std::vector<std::uint16_t> path_cells;
  };
  void check_map() const;
  void make_borders(int cluster);
  void make_cluster(int cluster, class ClusterSearch& search);
  void flatten();
  void report(std::size_t done, std::size_t total) const;

  const GridMap& map_;
  HierarchyOptions options_;
  int size_ = 16;
  int width_ = 0;
  int height_ = 0;
  int across_ = 0;
  int down_ = 0;
  std::uint64_t revision_ = 0;
  HierarchyStats stats_;
  std::vector<std::vector<Transition>> right_;   ///< per cluster: its border with the cluster on its right
  std::vector<std::vector<Transition>> bottom_;  ///< per cluster: its border with the cluster below
  std::vector<ClusterData> clusters_;
  // The flattened graph: nodes numbered cluster by cluster, edges in compressed rows.
  std::vector<NodeId> node_cells_;
  std::vector<std::uint32_t> node_offsets_;
  std::vector<std::uint32_t> edge_offsets_;
  std::vector<Edge> edges_;
};

struct HierarchicalSearchOptions : QueryOptions {
  /// Replace detours by straight lines (the paper's smoothing); off gives the refined path.
  bool smooth = true;
};

/// The query object: one per thread, reused across queries, reading a shared HierarchicalGrid.
/// Its calls are QueryObject's (query_object.hpp): find_path, or begin / step / result for a
/// query spread over frames, and stats(). begin() checks the query and settles the trivial one;
/// step() runs, in turn, the direct search inside one cluster (start and goal in the same
/// cluster), the searches that connect the start and the goal to their clusters' nodes, A* on
/// the abstract graph, and then the refinement and smoothing (no expansions, done in the step
/// that ends the abstract search). The step's limits and the options' Budget count the
/// expansions of all these searches together; the Budget ends the query with the statuses and
/// reasons every search gives (docs/grid.md, "Hierarchical search (HPA*)"). The trace is not
/// recorded.
class HierarchicalGridQuery
    : public QueryObject<HierarchicalGridQuery, HierarchicalGrid, Cell, HierarchicalSearchOptions> {
 public:
  /// Lifetime: keeps a reference to `hierarchy`, which must outlive it.
  explicit HierarchicalGridQuery(const HierarchicalGrid& hierarchy);
  explicit HierarchicalGridQuery(const HierarchicalGrid&& hierarchy) = delete;
  ~HierarchicalGridQuery();
  HierarchicalGridQuery(HierarchicalGridQuery&&) noexcept;
  HierarchicalGridQuery& operator=(HierarchicalGridQuery&&) = delete;

  // Never throws for bad queries: start or goal outside the map or blocked, a bad budget, or a
  // map edited since the hierarchy was built or updated, give invalid_input with a message. An
  // unreachable goal gives no_path. Points are the cell centres of the path.

  [[nodiscard]] const HierarchicalGrid& hierarchy() const { return world(); }

 private:
  friend QueryObject;
  SearchStatus start_query(Cell start, Cell goal, const HierarchicalSearchOptions& options);
  SearchStatus advance_query(const StepBudget& budget);
  void write_result(PathResult& out) const;
  [[nodiscard]] SearchStats query_stats() const;

  std::unique_ptr<struct HierarchicalQueryState> state_;
};

/// The paper's smoothing on a cell path (MovingAI rule): from each cell, the later cells of the
/// path up to 4 x `max_ray` cells on that lie on one of the 8 straight lines through it, at most
/// `max_ray` moves away, are tried; the run that saves most, if any, replaces the stretch it
/// skips (a run is taken only if every move of it is allowed). Returns the new path's cost, the
/// sum of its moves.
Cost smooth_cell_path(const GridMap& map, std::vector<NodeId>& cells, int max_ray);

}  // namespace wayfinder
