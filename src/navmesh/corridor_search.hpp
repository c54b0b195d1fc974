#pragma once
// NavMeshQuery's corridor searches (internal): their domains over the mesh, with and without an
// area filter, the output a search assembles when it ends (corridor, portals, funnel, cost), the
// run that steps a search on the engine, and the door to the filtered searches. Those are
// compiled in their own file (corridor_search_filtered.cpp), so that nav_mesh_query.cpp holds
// the unfiltered searches alone: GCC's inlining budget is per file, and that file used it all
// before filters existed; shared with the filtered searches, the unfiltered search lost more
// of its inlining (docs/navmesh.md has the instruction counts).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/engine_run.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "navmesh/polygon_edges.hpp"
#include "navmesh/search_tables.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::corridor_search {

using geometry::distance;
// The corridor search measures moves seen from above (distance_xz), as the paths' quality is
// measured (the 2D length), and it saves a term in every distance.
using geometry::distance_xz;

// How a corridor search sees areas and flags: which polygons it may enter, and the multiplier
// of a move across a polygon. The search without a filter is its own instantiation, in which
// every polygon is open and every multiplier is the constant 1, so it compiles to the search
// as it was before filters existed.
struct AllAreasAlike {
  static constexpr bool filtered = false;
  [[nodiscard]] static constexpr bool enters(PolygonId) { return true; }
  [[nodiscard]] static constexpr double multiplier(PolygonId) { return 1.0; }
  [[nodiscard]] static constexpr double heuristic_scale() { return 1.0; }
  [[nodiscard]] static constexpr bool takes(const PlacedOffMeshLink&) { return true; }
  [[nodiscard]] static double link_cost(const PlacedOffMeshLink& link) { return link.cost; }
};

// A query's AreaFilter read over the mesh's areas and flags: Detour's dtQueryFilter
// (passFilter, getCost), with the cost a multiplier of the move's length.
struct FilteredAreas {
  static constexpr bool filtered = true;
  const NavMesh* mesh;
  const AreaFilter* filter;
  /// The smallest multiplier among the areas in use: distances times it never overestimate.
  double smallest_multiplier;
  [[nodiscard]] bool enters(PolygonId polygon) const { return filter->passes(mesh->area(polygon), mesh->flags(polygon)); }
  [[nodiscard]] double multiplier(PolygonId polygon) const { return filter->cost(mesh->area(polygon)); }
  [[nodiscard]] double heuristic_scale() const { return smallest_multiplier; }
  // A link is priced and excluded by its own area and flags, as Detour's filter reads a
  // connection's polygon (its cost there being the link's length times the area's cost).
  [[nodiscard]] bool takes(const PlacedOffMeshLink& link) const { return filter->passes(link.input.area, link.input.flags); }
  [[nodiscard]] double link_cost(const PlacedOffMeshLink& link) const { return link.cost * filter->cost(link.input.area); }
};

// A directed off-mesh link (2 * id for start to end, 2 * id + 1 back; NavMesh::links_leaving):
// where it leaves from, where it lands and the polygon it lands in.
inline const PlacedOffMeshLink& link_of(const NavMesh& mesh, std::uint32_t directed) {
  return mesh.off_mesh_link(directed / 2);
}
inline const Point& link_takeoff(const NavMesh& mesh, std::uint32_t directed) {
  return (directed & 1u) != 0 ? link_of(mesh, directed).end : link_of(mesh, directed).start;
}
inline const Point& link_landing(const NavMesh& mesh, std::uint32_t directed) {
  return (directed & 1u) != 0 ? link_of(mesh, directed).start : link_of(mesh, directed).end;
}
inline PolygonId link_landing_polygon(const NavMesh& mesh, std::uint32_t directed) {
  return (directed & 1u) != 0 ? link_of(mesh, directed).start_polygon : link_of(mesh, directed).end_polygon;
}

// Both domains reach a link as one node per directed link, placed where it lands: taking it
// from a place in its take-off polygon costs the walk to its take-off point plus the link's
// cost (times its area's multiplier). Links cost at least their straight line and the heuristic
// scale is the smallest multiplier of every area in use (links' included), so the straight-line
// heuristic stays admissible and consistent across them. Only meshes with links look: the
// domains' `Links` parameter is false for a mesh without links, which compiles to the search as
// it was before links existed (searches with links are separate instantiations, compiled with
// the filtered ones in corridor_search_filtered.cpp).
template <class Areas, class Sink>
WAYFINDER_NEVER_INLINE void relax_links(const NavMesh& mesh, const Areas& areas, const Point& here, PolygonId polygon, double multiplier,
                 NodeId first_link_node, bool centroid_distance, Sink& sink) {
  for (const std::uint32_t directed : mesh.links_leaving(polygon)) {
    const PlacedOffMeshLink& link = link_of(mesh, directed);
    if (!areas.takes(link) || !areas.enters(link_landing_polygon(mesh, directed))) continue;
    const Point& takeoff = link_takeoff(mesh, directed);
    const double walk = centroid_distance ? distance(here, takeoff) : distance_xz(here, takeoff);
    sink(first_link_node + directed, walk * multiplier + areas.link_cost(link));
  }
}

// The corridor search over points on shared edges (see edge_point_graph.hpp). The graph's
// nodes are numbered 0 .. n - 1; the query's start and goal are nodes n and n + 1. Crossing
// points move with each query, so their places live in the query (`crossings`, one per
// directed edge): a successor's candidate place is kept while the engine decides, and stored by
// on_improve() when the engine accepts the cheaper cost.
//
// Every move lies inside one polygon (the one its from-node enters, or the start's), so with a
// filter its cost is its length times that polygon's multiplier, and a move into a polygon the
// filter excludes is never made.
template <class Areas, bool Links = false>
struct EdgePointDomain {
  const NavMesh& mesh;
  const EdgePointGraph& graph;
  PolygonId start_polygon;
  PolygonId goal_polygon;
  Point start;
  Point goal;
  std::vector<Point>& crossings;
  mutable NodeId candidate_node = invalid_node;
  mutable Point candidate_point;
  mutable double candidate_to_goal = 0.0;
  /// Leave out exits into dead ends. Only sound when the goal is in the start's region: a
  /// search for a partial path towards another region must see everything it can reach.
  bool prune_dead_ends = true;
  Areas areas;

  static constexpr std::uint32_t points = EdgePointGraph::points_per_edge;
  static constexpr std::uint32_t crossing = EdgePointGraph::crossing_point;
  static constexpr float unused = std::numeric_limits<float>::infinity();

  [[nodiscard]] NodeId start_node() const { return static_cast<NodeId>(graph.node_count()); }
  [[nodiscard]] NodeId goal_node() const { return static_cast<NodeId>(graph.node_count() + 1); }
  [[nodiscard]] NodeId first_link_node() const { return static_cast<NodeId>(graph.node_count() + 2); }
  /// With links, one node per directed link follows the goal.
  [[nodiscard]] std::size_t node_count() const {
    return graph.node_count() + 2 + (Links ? 2 * mesh.off_mesh_link_count() : 0);
  }

  // Kept as small as it was before links existed, so that the compiler still inlines it into
  // the search's loops: the rare nodes after the graph's (start, goal, links) are placed apart.
  [[nodiscard]] WAYFINDER_FORCE_INLINE const Point& position(NodeId node) const {
    if (node >= graph.node_count()) return position_after_graph(node);
    return node % points == crossing ? crossings[node / points] : graph.position(node);
  }
  [[nodiscard]] const Point& position_after_graph(NodeId node) const {
    if constexpr (Links)
      if (node >= first_link_node()) return link_landing(mesh, node - first_link_node());
    return node == start_node() ? start : goal;
  }

  // Relaxes the crossing point of the edge whose points start at node `first`: where the line
  // from `here` (at distance `here_to_goal` from the goal) towards the goal crosses the edge,
  // clamped between its end points. When the line does cross the edge before the goal, the
  // step and the candidate's distance to the goal are the two parts of `here_to_goal`. The
  // step costs its length times `multiplier`, the multiplier of the polygon it crosses.
  template <class Sink>
  void relax_crossing(const Point& here, double here_to_goal, double multiplier, NodeId first, Sink& sink) const {
    if constexpr (Areas::filtered) {
      // Where the multipliers on the two sides of the edge differ, the cheapest way bends there.
      const double rest = areas.multiplier(graph.entered_polygon(first));
      if (multiplier != rest) {
        relax_refracted_crossing(here, multiplier, rest, first, sink);
        return;
      }
    }
    const Point& a = graph.position(first);
    const Point& b = graph.position(first + points - 1);
    const double ex = b.x - a.x, ez = b.z - a.z;
    const double dx = goal.x - here.x, dz = goal.z - here.z;
    const double denominator = ex * dz - ez * dx;
    double step;
    if (std::abs(denominator) > 1e-12 * (std::abs(ex) + std::abs(ez)) * (std::abs(dx) + std::abs(dz))) {
      const double t = ((here.x - a.x) * dz - (here.z - a.z) * dx) / denominator;  // along the edge
      const double s = ((here.x - a.x) * ez - (here.z - a.z) * ex) / denominator;  // along here -> goal
      if (t >= 0.0 && t <= 1.0 && s >= 0.0 && s <= 1.0) {
        candidate_point = {a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
        step = s * here_to_goal;
        candidate_to_goal = here_to_goal - step;
      } else {
        const double clamped = std::clamp(t, 0.0, 1.0);
        candidate_point = {a.x + ex * clamped, a.y + (b.y - a.y) * clamped, a.z + ez * clamped};
        step = distance_xz(here, candidate_point);
        candidate_to_goal = distance_xz(candidate_point, goal);
      }
    } else {  // heading along the edge: the point of the edge nearest the goal
      const double length_squared = ex * ex + ez * ez;
      const double t = std::clamp(length_squared > 0.0 ? ((goal.x - a.x) * ex + (goal.z - a.z) * ez) / length_squared : 0.0,
                                  0.0, 1.0);
      candidate_point = {a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
      step = distance_xz(here, candidate_point);
      candidate_to_goal = distance_xz(candidate_point, goal);
    }
    candidate_node = first + crossing;
    sink(candidate_node, step * multiplier);
    candidate_node = invalid_node;  // decided: later heuristic calls read the stored place
  }

  // The crossing point when the polygon crossed costs more (or less) than the one beyond the
  // edge: the line towards the goal would spend too long in the costly one. The point is where
  // the cheapest way to the goal would cross the edge if the rest of the way cost `rest`, the
  // multiplier beyond (exactly so when the edge leads into the goal's polygon): it minimises
  //   multiplier * |here - p| + rest * |p - goal|
  // along the edge, a refraction as light's at a boundary between media (Snell's law), which
  // weighted-region shortest paths obey (Mitchell & Papadimitriou 1991). The sum is convex in
  // the point's place, so a golden-section search finds it; with equal multipliers it is the
  // straight line's crossing, which relax_crossing computes directly. (Assuming the smallest
  // multiplier beyond, as the heuristic does, placed the points worse on random meshes.)
  template <class Sink>
  void relax_refracted_crossing(const Point& here, double multiplier, double rest, NodeId first, Sink& sink) const {
    const Point& a = graph.position(first);
    const Point& b = graph.position(first + points - 1);
    auto at = [&](double t) { return Point{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t}; };
    auto price = [&](double t) {
      const Point p = at(t);
      return multiplier * distance_xz(here, p) + rest * distance_xz(p, goal);
    };
    constexpr double golden = 0.6180339887498949;
    double low = 0.0, high = 1.0;
    double left = high - golden * (high - low), right = low + golden * (high - low);
    double left_price = price(left), right_price = price(right);
    for (int i = 0; i < 40; ++i) {  // 0.618^40: about 1e-8 of the edge
      if (left_price <= right_price) {
        high = right;
        right = left;
        right_price = left_price;
        left = high - golden * (high - low);
        left_price = price(left);
      } else {
        low = left;
        left = right;
        left_price = right_price;
        right = low + golden * (high - low);
        right_price = price(right);
      }
    }
    candidate_point = at(0.5 * (low + high));
    candidate_to_goal = distance_xz(candidate_point, goal);
    candidate_node = first + crossing;
    sink(candidate_node, distance_xz(here, candidate_point) * multiplier);
    candidate_node = invalid_node;
  }

  // False for an exit into a dead end (see SearchTables::leads_towards) or into a polygon the
  // filter excludes.
  [[nodiscard]] bool worth_taking(NodeId first) const {
    return (!prune_dead_ends ||
            SearchTables::leads_towards(mesh, EdgePointGraph::shared_edge_of(first), graph.entered_polygon(first), goal_polygon)) &&
           areas.enters(graph.entered_polygon(first));
  }

  // Where paths may bend. Without a filter, only at the reflex corners of the mesh's boundary
  // (see edge_point_graph.hpp). With one, the boundary the search sees is not the mesh's: an
  // excluded polygon makes walls and corners where the mesh has none, and a costly area makes
  // the cheapest way bend where it meets cheaper ground. Every end point is then a possible
  // bend (their distances computed as needed: the stored ones are only the corners').
  [[nodiscard]] bool bends_at(NodeId end) const { return Areas::filtered || graph.is_corner_point(end); }

  // The points of one exit edge, from a place whose distances to the ends are not stored.
  template <class Sink>
  void relax_edge(const Point& here, double here_to_goal, double multiplier, NodeId first, Sink& sink) const {
    if (!worth_taking(first)) return;
    if (bends_at(first)) sink(first, distance_xz(here, graph.position(first)) * multiplier);
    if (bends_at(first + points - 1))
      sink(first + points - 1, distance_xz(here, graph.position(first + points - 1)) * multiplier);
    relax_crossing(here, here_to_goal, multiplier, first, sink);
  }

  // From the start, or from where a link lands: a place inside a polygon, with every exit
  // of the polygon ahead (the goal too when it lies there).
  template <class Sink>
  void relax_from_place(const Point& here, PolygonId polygon, Sink& sink) const {
    const double here_to_goal = distance_xz(here, goal);
    const double multiplier = areas.multiplier(polygon);
    if (polygon == goal_polygon) sink(goal_node(), here_to_goal * multiplier);
    for (NodeId first : graph.exits(polygon)) relax_edge(here, here_to_goal, multiplier, first, sink);
    if constexpr (Links) relax_links(mesh, areas, here, polygon, multiplier, first_link_node(), false, sink);
  }

  template <class Sink>
  WAYFINDER_FORCE_INLINE void for_each_successor(NodeId node, Sink&& sink) const {
    if (node >= graph.node_count()) {  // the start (the goal is never expanded) or a link's landing
      if (node == start_node()) {
        relax_from_place(start, start_polygon, sink);
      } else if constexpr (Links) {
        if (node >= first_link_node())
          relax_from_place(position(node), link_landing_polygon(mesh, node - first_link_node()), sink);
      }
      return;
    }
    const Point& here = position(node);
    const double here_to_goal = distance_xz(here, goal);
    const PolygonId crossed = graph.entered_polygon(node);
    const double multiplier = areas.multiplier(crossed);
    if (crossed == goal_polygon) sink(goal_node(), here_to_goal * multiplier);
    if constexpr (Links) relax_links(mesh, areas, here, crossed, multiplier, first_link_node(), false, sink);
    if (node % points == crossing || Areas::filtered) {
      for (const EdgePointGraph::Exit& exit : graph.onward_exits(node))
        relax_edge(here, here_to_goal, multiplier, exit.first, sink);
      return;
    }
    for (const EdgePointGraph::Exit& exit : graph.onward_exits(node)) {
      if (!worth_taking(exit.first)) continue;
      if (exit.cost_to_first_end != unused) sink(exit.first, static_cast<Cost>(exit.cost_to_first_end) * multiplier);
      if (exit.cost_to_last_end != unused)
        sink(exit.first + points - 1, static_cast<Cost>(exit.cost_to_last_end) * multiplier);
      relax_crossing(here, here_to_goal, multiplier, exit.first, sink);
    }
  }

  [[nodiscard]] Cost heuristic(NodeId node, NodeId) const {
    return (node == candidate_node ? candidate_to_goal : distance_xz(position(node), goal)) * areas.heuristic_scale();
  }

  /// The engine accepted a cheaper cost for `node`: a crossing point moves to its candidate place.
  void on_improve(NodeId node) const {
    if (node == candidate_node) crossings[node / points] = candidate_point;
  }
};

// Passes the engine's improvements on to the domain.
template <class Domain>
struct CrossingKeeper {
  const Domain& domain;
  void operator()(NodeId node, Cost) const { domain.on_improve(node); }
};

// The classic corridor search: one node per polygon at its centroid; the start and goal
// polygons stand at the query's points instead. A move from one polygon's node to a
// neighbour's runs half in each, as far as a filter's prices go: it costs its length times the
// mean of the two multipliers (as a grid step costs the mean of its two cells').
template <class Areas, bool Links = false>
struct CentroidDomain {
  const NavMesh& mesh;
  PolygonId start_polygon;
  PolygonId goal_polygon;
  Point start;
  Point goal;
  bool prune_dead_ends = true;  ///< as EdgePointDomain's
  Areas areas;

  [[nodiscard]] NodeId first_link_node() const { return static_cast<NodeId>(mesh.polygon_count()); }
  /// With links, one node per directed link follows the polygons.
  [[nodiscard]] std::size_t node_count() const {
    return mesh.polygon_count() + (Links ? 2 * mesh.off_mesh_link_count() : 0);
  }

  [[nodiscard]] const Point& polygon_position(NodeId polygon) const {
    return polygon == start_polygon ? start : polygon == goal_polygon ? goal : mesh.centroid(polygon);
  }
  [[nodiscard]] const Point& position(NodeId node) const {
    if constexpr (Links)
      if (node >= first_link_node()) return link_position(node);
    return polygon_position(node);
  }
  [[nodiscard]] WAYFINDER_NEVER_INLINE const Point& link_position(NodeId node) const {
    return link_landing(mesh, node - first_link_node());
  }

  // A link's landing: on to its polygon's node.
  template <class Sink>
  WAYFINDER_NEVER_INLINE void relax_from_link(NodeId node, Sink& sink) const {
    const std::uint32_t directed = node - first_link_node();
    const PolygonId landed = link_landing_polygon(mesh, directed);
    sink(landed, distance(link_landing(mesh, directed), polygon_position(landed)) * areas.multiplier(landed));
  }

  template <class Sink>
  WAYFINDER_FORCE_INLINE void for_each_successor(NodeId node, Sink&& sink) const {
    if constexpr (Links) {
      if (node >= first_link_node()) {
        relax_from_link(node, sink);
        return;
      }
    }
    const Point& here = polygon_position(node);
    [[maybe_unused]] const double multiplier = areas.multiplier(node);
    const auto neighbours = mesh.polygon_neighbours(node);
    for (std::uint32_t j = 0; j < neighbours.size(); ++j) {
      const PolygonId neighbour = neighbours[j];
      if (neighbour == invalid_polygon || !areas.enters(neighbour)) continue;
      // Dead ends (see SearchTables::leads_towards) are left out.
      if (prune_dead_ends &&
          !SearchTables::leads_towards(mesh, SearchTables::shared_edge_of_slot(mesh, SearchTables::edge_slot(mesh, node, j)), neighbour,
                                     goal_polygon))
        continue;
      if constexpr (Areas::filtered)
        sink(neighbour, distance(here, polygon_position(neighbour)) * (0.5 * (multiplier + areas.multiplier(neighbour))));
      else
        sink(neighbour, distance(here, polygon_position(neighbour)));
    }
    if constexpr (Links) relax_links(mesh, areas, here, node, areas.multiplier(node), first_link_node(), true, sink);
  }

  [[nodiscard]] Cost heuristic(NodeId node, NodeId) const {
    return distance(position(node), goal) * areas.heuristic_scale();
  }
};

// The point of `polygon` closest to `target` seen from above, at the mesh's height there: where
// a partial path ends.
inline Point closest_point_in_polygon(const NavMesh& mesh, PolygonId polygon, const Point& target) {
  if (mesh.contains_xz(polygon, target.x, target.z))
    return {target.x, mesh.height_at(polygon, target.x, target.z), target.z};
  const auto indices = mesh.polygon_vertices(polygon);
  Point best = mesh.vertex(indices[0]);
  double best_squared = std::numeric_limits<double>::infinity();
  for_each_polygon_edge(mesh, polygon, [&](const PolygonEdge& edge) {
    const Point p = geometry::lerp(edge.a, edge.b, geometry::closest_on_segment_xz(target, edge.a, edge.b));
    const double squared = geometry::distance_squared_xz(p, target);
    if (squared < best_squared) {
      best_squared = squared;
      best = p;
    }
  });
  return best;
}

// The 3D length of `points` (a path through `corridor`, whose portals are `portals`) with each
// piece weighted by the multiplier of the corridor polygon it lies in. The path crosses the
// portals in order, and each corridor polygon is convex, so the piece in polygon i runs from
// where the path crosses portal i - 1 to where it first reaches the line of portal i: the
// first waypoint on or beyond that line ends it, and the crossing is where the segment to that
// waypoint meets the line. A waypoint on a portal's end (where the funnel turns) ends the
// pieces of every portal that shares that corner, the polygons between getting no length.
double weighted_path_cost(const NavMesh& mesh, std::span<const PolygonId> corridor, std::span<const Portal> portals,
                          const std::vector<Point>& points, const AreaFilter& filter);



// Turns the corridor search's node path into polygons: each node on an edge enters the next.
inline void corridor_from_nodes(const std::vector<NodeId>& nodes, CorridorNodes placement, const EdgePointGraph& graph,
                                PolygonId start_polygon, std::vector<PolygonId>& corridor) {
  corridor.clear();
  if (placement == CorridorNodes::polygon_centroids) {
    corridor.assign(nodes.begin(), nodes.end());
    return;
  }
  corridor.push_back(start_polygon);
  for (NodeId node : nodes) {
    if (node < graph.node_count()) corridor.push_back(graph.entered_polygon(node));
  }
}
// The same on a mesh with off-mesh links: a link node lands in its link's far polygon, recorded
// in `links` by corridor index (the waypoints are filled in by the funnel). Out of line
// (corridor_output.cpp), as is everything about links the output does: nav_mesh_query.cpp's
// inlining budget belongs to the search loops.
void corridor_from_nodes_with_links(const std::vector<NodeId>& nodes, CorridorNodes placement, const NavMesh& mesh,
                                    PolygonId start_polygon, std::vector<PolygonId>& corridor,
                                    std::vector<PathLinkStep>& links);

// What a corridor search turns into once it ends: the corridor, its portals and (unless only
// the corridor is wanted) the funnel's waypoints. Lives in the query's state, reused by every
// query so that a warm query allocates nothing.
struct CorridorOutput {
  explicit CorridorOutput(const NavMesh& navmesh) : mesh(navmesh) {}
  const NavMesh& mesh;
  CorridorNodes placement = CorridorNodes::edge_points;
  MeshLocation start, goal;
  bool pull_string = true;       ///< false for find_corridor: the corridor search alone
  PathResult search_result;      ///< the engine's own result, kept for its memory
  PathResult result;             ///< the query's final result
  std::vector<PolygonId> corridor;
  std::vector<Portal> portals;
  std::vector<PathLinkStep> links;    ///< the off-mesh links the corridor takes
  std::vector<Portal> piece_portals;  ///< with links: one walked piece's portals
  std::vector<Point> piece_points;    ///< with links: one walked piece's waypoints
  const AreaFilter* filter = nullptr;  ///< the query's filter when it has effect: the cost is weighted

  // The search has ended with `search_result`: the corridor, then portals and funnel.
  void assemble() {
    result.status = search_result.status;
    result.reason = search_result.reason;
    result.stats = search_result.stats;
    result.message = search_result.message;
    result.cost = search_result.cost;
    result.points.clear();
    result.links.clear();
    if (!search_result.nodes.empty()) {
      if (mesh.off_mesh_link_count() == 0)
        corridor_from_nodes(search_result.nodes, placement, SearchTables::edge_point_graph(mesh), start.polygon, corridor);
      else
        corridor_from_nodes_with_links(search_result.nodes, placement, mesh, start.polygon, corridor, links);
    }
    result.nodes = corridor;
    if (!pull_string) {
      result.points = {start.point, goal.point};
      result.links = links;
      return;
    }
    if (corridor.empty()) return;
    const Point end = result.status == SearchStatus::found ? goal.point
                                                           : closest_point_in_polygon(mesh, corridor.back(), goal.point);
    if (links.empty()) {
      corridor_portals(mesh, corridor, portals);
      funnel_path(start.point, end, portals, result.points);
      if (mesh.has_detail_heights()) place_turns_on_ground(mesh, corridor, portals, result.points);
      result.cost = filter != nullptr ? weighted_path_cost(mesh, corridor, portals, result.points, *filter)
                                      : geometry::polyline_length(result.points);
      return;
    }
    pull_string_across_links(end);
  }

  // The funnel on each walked piece between links, separately (a link's two polygons share no
  // portal); corridor_output.cpp.
  void pull_string_across_links(const Point& end);
};

template <class D>
inline constexpr bool moves_crossings = false;
template <class Areas, bool Links>
inline constexpr bool moves_crossings<EdgePointDomain<Areas, Links>> = true;

// A corridor search on the engine (SteppedQuery's run): advances the search, and when it ends
// assembles the output. The edge-point domain also hears of every improvement (its crossing
// points move).
template <class D>
struct CorridorRun {
  CorridorRun(SearchContext& context, CorridorOutput& corridor_output, D&& domain_value)
      : engine(context, std::move(domain_value)), output(corridor_output) {}

  SearchStatus step(const StepBudget& budget) {
    if (finished) return output.result.status;
    SearchStatus status;
    if constexpr (moves_crossings<D>)
      status = engine.search.step(budget, CrossingKeeper<D>{engine.domain});
    else
      status = engine.step(budget);
    if (status != SearchStatus::in_progress) finish();
    return status;
  }
  // For a search settled in start() (trivial or rejected by the engine).
  void finish() {
    engine.result(output.search_result);
    output.assemble();
    finished = true;
  }
  [[nodiscard]] SearchStats stats() const { return finished ? output.result.stats : engine.stats(); }
  void result(PathResult& out) const {
    if (finished)
      out = output.result;  // assignment keeps out's memory
    else
      engine.result(out);   // in progress: the statistics so far, no path
  }

  EngineRun<D> engine;
  CorridorOutput& output;
  bool finished = false;
};

// ---- What only filtered queries need, compiled in corridor_search_filtered.cpp (the messages
// too: in nav_mesh_query.cpp their string building took the inlining budget the unfiltered
// search needs).

/// "<subject> polygon 12, which the filter excludes: its area 6 costs +infinity" (or what its
/// flags do), for a polygon the filter does not pass.
std::string exclusion_message(const NavMesh& mesh, const AreaFilter& filter, PolygonId polygon, const std::string& subject);
/// AreaFilter::problem(), out of line.
std::optional<std::string> filter_problem(const AreaFilter& filter);

// ---- The searches compiled in files of their own: the filtered searches
// (corridor_search_filtered.cpp) and those on meshes with off-mesh links, with or without a
// filter (corridor_search_linked.cpp), so that neither takes the inlining budget of the other
// nor of the unfiltered search without links. A query object holds each set once it has run
// such a query, and reuses it.
class FilteredSearches;
class LinkedSearches;
struct SeparateSearchesDeleter {
  void operator()(FilteredSearches* searches) const noexcept;
  void operator()(LinkedSearches* searches) const noexcept;
};
using FilteredSearchesPointer = std::unique_ptr<FilteredSearches, SeparateSearchesDeleter>;
using LinkedSearchesPointer = std::unique_ptr<LinkedSearches, SeparateSearchesDeleter>;
FilteredSearchesPointer make_filtered_searches();
LinkedSearchesPointer make_linked_searches();

/// One of those searches as a run of SteppedQuery: start it once it is the query's run. The
/// members are defined in separate_run.hpp and instantiated in the searches' own file (start
/// for each domain that file runs).
template <class Searches>
class SeparateRun {
 public:
  explicit SeparateRun(Searches& searches) : searches_(&searches) {}
  template <class D>
  SearchStatus start(SearchContext& context, CorridorOutput& output, D&& domain, NodeId from, NodeId to,
                     const SearchOptions& search);
  SearchStatus step(const StepBudget& budget);
  [[nodiscard]] SearchStats stats() const;
  void result(PathResult& out) const;
  /// The place of a search node (for traces); a default point for one out of range.
  [[nodiscard]] Point position(NodeId node) const;

 private:
  Searches* searches_;
};
/// The filtered searches on meshes without links: EdgePointDomain<FilteredAreas> and
/// CentroidDomain<FilteredAreas>.
using FilteredRun = SeparateRun<FilteredSearches>;
/// The searches on meshes with links: the domains with Links = true, over AllAreasAlike or
/// FilteredAreas.
using LinkedRun = SeparateRun<LinkedSearches>;

}  // namespace wayfinder::corridor_search
