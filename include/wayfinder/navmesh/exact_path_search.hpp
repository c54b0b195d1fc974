#pragma once
// Exact any-angle shortest paths on a NavMesh, after Polyanya (Cui, Harabor & Grastien,
// "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017). A search node is a root
// (the start or a mesh corner the path turns at), an interval of a polygon edge seen from the
// root, and the polygon beyond it; A* over such nodes with an admissible straight-line
// heuristic finds the shortest path in the x-z plane among all paths inside the mesh, not only
// inside one corridor. Lengths are measured seen from above (x-z), as the reference data's
// optimal lengths are; the search follows the mesh's polygon adjacency, so floors that overlap
// in x-z never meet unless the mesh joins them (multi-level meshes work as they are).
//
// One ExactPathSearch per thread, reused across queries (it keeps its node pool and tables);
// the mesh is shared and read-only. Constructing one is cheap: the first query that gets past
// its checks builds the per-mesh tables (wall corners, polygons around each vertex, the edges'
// entries; linear in the mesh, milliseconds on a mesh of tens of thousands of polygons) in its
// set-up, which counts in that query's stats.microseconds and against its Budget::max_time like
// the rest of the set-up: a first query with a smaller max_time stops with the time limit
// before its first expansion.

#include <memory>
#include <optional>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// One node of an exact search, for drawing what the search did (a trace's node ids): the
/// root the path turns at last (the start or a mesh corner), the interval of a polygon edge
/// seen from it (left and right as seen from the root), and the polygon beyond the interval.
/// Points carry the ground's height (NavMesh::height_at).
struct ExactSearchNode {
  Point root;
  Point left;
  Point right;
  PolygonId polygon = invalid_polygon;
  NodeId parent = invalid_node;  ///< the node it was generated from
  double g = 0.0;                ///< x-z length from the start to the root
  bool final = false;            ///< the node that reaches the goal inside its polygon
};

class ExactPathSearch {
 public:
  /// Lifetime: keeps a reference to `mesh`, which must outlive it.
  explicit ExactPathSearch(const NavMesh& mesh);
  explicit ExactPathSearch(const NavMesh&& mesh) = delete;
  ~ExactPathSearch();
  ExactPathSearch(ExactPathSearch&&) noexcept;
  ExactPathSearch& operator=(ExactPathSearch&&) = delete;
  ExactPathSearch(const ExactPathSearch&) = delete;
  ExactPathSearch& operator=(const ExactPathSearch&) = delete;

  /// The shortest path (x-z length) between two located points. PathResult::points are the
  /// start, the corners the path turns at (with the ground's height there) and the goal;
  /// cost is the x-z length; nodes the polygons the path crosses, in order, consecutive ones
  /// neighbours; stats.expanded / generated count search nodes.
  ///
  /// `filter`, when given, excludes the polygons it does not pass: the path is then the
  /// shortest one through the polygons it lets in. Area cost multipliers are not supported:
  /// a filter whose cost is not 1 for some area in use gives invalid_input. Start and goal in
  /// different regions give no_path at once. A mesh with off-mesh links gives invalid_input
  /// (the search follows shared edges only). Budget: max_expansions, max_cost, max_time and
  /// max_memory_bytes (search_memory_bytes(), read every Budget::time_check_interval expansions)
  /// end the search (partial towards the goal with options.return_partial, else
  /// budget_exhausted).
  PathResult find_path(const MeshLocation& start, const MeshLocation& goal, const QueryOptions& options = {},
                       const AreaFilter* filter = nullptr);
  /// The same into a result the caller owns, reusing its memory. Returns the status.
  SearchStatus find_path(const MeshLocation& start, const MeshLocation& goal, const QueryOptions& options,
                         const AreaFilter* filter, PathResult& out);

  /// The same in steps, for spreading a search over frames: begin() checks the query and
  /// answers at once what needs no search (bad input, start and goal in different regions or
  /// in one polygon), else queues the start's successors and returns in_progress; step()
  /// expands up to the step's budget (a chain of intermediate nodes counts as one expansion;
  /// the time is read every StepBudget::time_check_interval) and returns in_progress until the
  /// search ends; result() gives the result so far. The final result equals find_path's, with
  /// the same path and statistics. options.budget limits the whole query (its time is the time
  /// spent in begin() and step()). `filter` must stay alive and unchanged until the query ends.
  SearchStatus begin(const MeshLocation& start, const MeshLocation& goal, const QueryOptions& options = {},
                     const AreaFilter* filter = nullptr);
  SearchStatus step(const StepBudget& budget = {});
  [[nodiscard]] PathResult result() const;
  void result(PathResult& out) const;
  /// The current query's statistics so far.
  [[nodiscard]] SearchStats stats() const;
  /// Bytes held by the per-query search state (search nodes, roots, the open list and the
  /// per-corner and per-polygon arrays sized for the mesh; not the per-mesh tables): what
  /// Budget::max_memory_bytes counts.
  [[nodiscard]] std::size_t search_memory_bytes() const;

  /// Node `node` of the current (or last) query, as a trace (QueryOptions::trace) names it:
  /// `closed` when expanded, `opened` when queued. nullopt for an id the query never made.
  [[nodiscard]] std::optional<ExactSearchNode> search_node(NodeId node) const;

  [[nodiscard]] const NavMesh& mesh() const { return mesh_; }

 private:
  const NavMesh& mesh_;
  std::unique_ptr<struct ExactSearchState> state_;
};

}  // namespace wayfinder
