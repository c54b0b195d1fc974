#pragma once
// Path queries on a NavMesh: locate the start and goal, search a corridor of polygons with A*
// on the core engine, then pull the string through the corridor's portals. One NavMeshQuery per
// thread, reused across queries (it owns the search state); the mesh is shared and read-only.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_object.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/navmesh/exact_path_search.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// Where the corridor search places its nodes, and so what its costs measure.
enum class CorridorNodes : std::uint8_t {
  /// One node per polygon at its centroid, as in classic tutorials. Cheap, but the costs
  /// follow the zig-zag between centroids, so the corridor is often not the shortest one.
  polygon_centroids,
  /// Nodes on the shared edges (their two ends, pulled in slightly, and their midpoint); a move
  /// goes straight across a polygon from one edge point to another. Shortest paths bend at
  /// polygon corners, so these costs are close to true path lengths and the corridors are
  /// far better.
  edge_points,
  /// No corridor search: the exact shortest path (x-z length) by ExactPathSearch
  /// (exact_path_search.hpp, after Polyanya), among all paths on the mesh. PathResult::nodes
  /// are the polygons the path crosses, cost its x-z length. A filter may exclude polygons (the
  /// path is then the shortest through the others); a filter with area costs other than 1 gives
  /// invalid_input, and so does a mesh with off-mesh links (not taken by this search). It is
  /// stepped like the others; portals() stays empty; `weight` is not used. A trace's node ids
  /// are the exact search's nodes (exact_search_node()). The query object's first such query
  /// builds the exact search's per-mesh tables (milliseconds on a large mesh) as part of its
  /// set-up, timed with it: it counts in stats.microseconds and against Budget::max_time.
  optimal,
};

/// Command-line names: centroids, edge-points, optimal.
std::string_view to_string(CorridorNodes nodes);
std::optional<CorridorNodes> parse_corridor_nodes(std::string_view name);

/// The mesh's options: the shared ones (budget, return_partial, partial_when_unreachable,
/// trace; see QueryOptions) and the mesh's own. The trace's node ids are as in
/// corridor_node_position().
struct NavMeshSearchOptions : QueryOptions {
  CorridorNodes nodes = CorridorNodes::edge_points;
  /// Weight on the heuristic (1 = A*; more is faster and may give longer corridors).
  double weight = 1.0;
  /// Start and goal must lie within this height of a polygon (see NavMesh::locate).
  double height_tolerance = NavMesh::default_height_tolerance;
  /// A start or goal off the mesh is moved to the nearest point on it within this distance;
  /// 0 means points off the mesh are rejected with invalid_input.
  double snap_distance = 0.0;
  /// Which polygons this query may enter and what crossing each costs, by the polygons' areas
  /// and flags (NavMesh::area, NavMesh::flags; Detour's dtQueryFilter). Empty, or neutral on
  /// this mesh (AreaFilter::neutral_for its areas and flags in use): the unfiltered search, with
  /// the same answers. Otherwise the corridor never enters a polygon the filter does not pass,
  /// a move costs its length times the multiplier of the polygon it crosses (Budget::max_cost
  /// limits that weighted cost), and the heuristic stays admissible; the funnel is unchanged.
  /// A start or goal only on excluded polygons, or an unusable cost (AreaFilter::problem), gives
  /// invalid_input; a goal the filter cuts off gives no_path (or partial with
  /// partial_when_unreachable). How edge points and costs work under a filter:
  /// docs/navmesh.md, "Areas, flags and filters".
  std::optional<AreaFilter> filter;
};

/// One query as a value: what batches and the request queue take.
using NavMeshPathRequest = PathRequest<Point, NavMeshSearchOptions>;

/// The calls every query object answers (find_path, begin / step / result, stats) are
/// QueryObject's (query_object.hpp). find_path is locate + corridor + funnel: PathResult::nodes is
/// the corridor (polygon ids from start to goal), PathResult::points the waypoints (start, turns,
/// goal) and PathResult::cost their 3D length; with a filter that is not neutral, the cost is that
/// length weighted: each piece of the path is multiplied by the cost of the corridor polygon it
/// lies in (pieces split where the path crosses the portals), so the length alone is path_length
/// of the points. Start and goal in different regions give no_path without a search, with a
/// message saying so ("start and goal are in different connected regions ..."). Bad queries: NaN
/// or off-mesh points and bad options (a `nodes` value that is not one of the enum's, a negative
/// or NaN weight, tolerance, snap distance or budget limit) answer invalid_input with a message
/// naming what is wrong. Stepped, begin() locates and starts the corridor search, step()
/// advances it, and the funnel runs when it finishes; before the first begin(), step() returns
/// invalid_input and result() says that no query has begun.
class NavMeshQuery : public QueryObject<NavMeshQuery, NavMesh, Point, NavMeshSearchOptions> {
 public:
  /// Lifetime: the query keeps a reference to `mesh`, which must outlive it. Building one from
  /// a temporary mesh does not compile: build the mesh into a variable first.
  explicit NavMeshQuery(const NavMesh& mesh);
  explicit NavMeshQuery(const NavMesh&& mesh) = delete;
  ~NavMeshQuery();
  NavMeshQuery(NavMeshQuery&&) noexcept;

  /// The corridor search alone, between two located points: PathResult::nodes is the corridor,
  /// points holds just the two end points, cost the search's cost (for a start and goal in one
  /// polygon, their distance; both weighted by the filter's multipliers when it has effect).
  /// For timing and tools. Options are checked as by find_path; with a filter, a start or goal
  /// polygon it excludes gives invalid_input.
  PathResult find_corridor(const MeshLocation& start, const MeshLocation& goal,
                           const NavMeshSearchOptions& options = {});

  /// The portals of the last query's corridor.
  [[nodiscard]] const std::vector<Portal>& portals() const;
  /// The position of a corridor-search node, for drawing a trace (for CorridorNodes::optimal,
  /// the midpoint of the node's interval).
  [[nodiscard]] Point corridor_node_position(NodeId node) const;
  /// A node of the current query's exact search (CorridorNodes::optimal): its root, interval
  /// and polygon, for drawing a trace; nullopt when the current query is not an exact search
  /// that made this node.
  [[nodiscard]] std::optional<ExactSearchNode> exact_search_node(NodeId node) const;

  [[nodiscard]] const NavMesh& mesh() const { return world(); }

 private:
  friend QueryObject;
  SearchStatus start_query(const Point& start, const Point& goal, const NavMeshSearchOptions& options);
  SearchStatus advance_query(const StepBudget& budget);
  void write_result(PathResult& out) const;
  SearchStats query_stats() const;
  // begin() after locating: checks regions, answers a query inside one polygon, starts A*;
  // `pull_string` false leaves out portals and funnel (find_corridor).
  // `filter` is the query's filter when it has effect (else null).
  SearchStatus start_corridor_search(const MeshLocation& start, const MeshLocation& goal,
                                     const NavMeshSearchOptions& options, bool pull_string, const AreaFilter* filter);
  // Keeps a copy of the options' filter for the query under way and returns it when it has an
  // effect on this mesh; null for none (no filter, or one neutral for the mesh's areas and flags).
  const AreaFilter* adopt_filter(const NavMeshSearchOptions& options);

  std::unique_ptr<struct NavMeshQueryState> state_;
};

template <>
struct QueryTypes<NavMesh> : QueryTypesOf<NavMeshQuery> {};

}  // namespace wayfinder
