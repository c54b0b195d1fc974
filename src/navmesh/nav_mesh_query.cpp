#include "wayfinder/navmesh/nav_mesh_query.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "wayfinder/core/best_first_search.hpp"
#include "core/engine_run.hpp"
#include "core/stepped_query.hpp"
#include "wayfinder/core/search_context.hpp"

namespace wayfinder {

std::string_view to_string(CorridorNodes nodes) {
  switch (nodes) {
    case CorridorNodes::polygon_centroids: return "centroids";
    case CorridorNodes::edge_points: return "edge-points";
  }
  return "?";
}

std::optional<CorridorNodes> parse_corridor_nodes(std::string_view name) {
  if (name == "centroids") return CorridorNodes::polygon_centroids;
  if (name == "edge-points") return CorridorNodes::edge_points;
  return std::nullopt;
}

namespace {

double distance(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// The length seen from above: the corridor search measures moves as the paths' quality is
// measured (the 2D length), and it saves a term in every distance.
double distance_xz(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dz = a.z - b.z;
  return std::sqrt(dx * dx + dz * dz);
}

bool finite(const Point& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// Whether every cost of the filter is > 0 (NaN is not), the check AreaFilter::problem() makes,
// without stopping at the first failure, so that the compiler compares many costs at once: a
// query pays a few instructions for it rather than a loop of 64 branches. problem() then
// words the message.
bool costs_usable(const AreaFilter& filter) {
  bool usable = true;
  for (const float cost : filter.area_costs) usable &= cost > 0.0f;
  return usable;
}

// What is wrong with the options, or nothing. Checked where a query enters, before anything
// else, so that no value the header does not allow reaches the search (an enum cast from an
// out-of-range number, a NaN limit) and every query answers invalid_input instead of throwing
// or searching with nonsense.
std::optional<std::string> option_problem(const NavMeshSearchOptions& options) {
  if (options.nodes != CorridorNodes::polygon_centroids && options.nodes != CorridorNodes::edge_points)
    return "nodes must be CorridorNodes::polygon_centroids or CorridorNodes::edge_points, not " +
           std::to_string(static_cast<int>(options.nodes));
  if (!(options.weight >= 0.0) || !std::isfinite(options.weight))
    return "weight must be finite and non-negative, not " + std::to_string(options.weight);
  if (!(options.height_tolerance >= 0.0))
    return "height_tolerance must be non-negative, not " + std::to_string(options.height_tolerance);
  if (!(options.snap_distance >= 0.0))
    return "snap_distance must be non-negative, not " + std::to_string(options.snap_distance);
  if (!(options.budget.max_cost >= 0.0))
    return "budget.max_cost must be non-negative (infinite for no limit), not " +
           std::to_string(options.budget.max_cost);
  if (options.budget.max_time.count() < 0)
    return "budget.max_time must not be negative (zero for no limit), not " +
           std::to_string(options.budget.max_time.count()) + " ns";
  if (options.filter && !costs_usable(*options.filter)) return options.filter->problem();
  return std::nullopt;
}

std::string hex(unsigned value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 15u]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

// Why `filter` keeps out a polygon with this area and these flags, for messages.
std::string exclusion_reason(const AreaFilter& filter, AreaId area, AreaFlags flags) {
  if (!filter.area_passes(area)) return "its area " + std::to_string(area) + " costs +infinity";
  if ((flags & filter.exclude_flags) != 0)
    return "its flags " + hex(flags) + " include excluded flags " + hex(flags & filter.exclude_flags);
  return "its flags " + hex(flags) + " share none of include_flags " + hex(filter.include_flags);
}

// AreaFilter::neutral_for(mesh.areas_in_use(), mesh.flags_in_use()), visiting only the areas
// and flags in use: most meshes use area 0 alone and no flags, and a query with a neutral
// filter should cost what one without a filter costs (neutral_for looks at all 64 areas and
// 16 flags). The same test as neutral_for's, so the two must change together.
bool neutral_on(const AreaFilter& filter, const NavMesh& mesh) {
  for (std::uint64_t areas = mesh.areas_in_use(); areas != 0; areas &= areas - 1)
    if (filter.cost(static_cast<AreaId>(std::countr_zero(areas))) != 1.0f) return false;
  for (unsigned flags = mesh.flags_in_use(); flags != 0; flags &= flags - 1)
    if (!filter.flags_pass(static_cast<AreaFlags>(flags & (~flags + 1)))) return false;
  return true;
}

// How a corridor search sees areas and flags: which polygons it may enter, and the multiplier
// of a move across a polygon. The search without a filter is its own instantiation, in which
// every polygon is open and every multiplier is the constant 1, so it compiles to the search
// as it was before filters existed, at the same speed.
struct AllAreasAlike {
  static constexpr bool filtered = false;
  [[nodiscard]] static constexpr bool enters(PolygonId) { return true; }
  [[nodiscard]] static constexpr double multiplier(PolygonId) { return 1.0; }
  [[nodiscard]] static constexpr double heuristic_scale() { return 1.0; }
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
};

// The corridor search over points on shared edges (see edge_point_graph.hpp). The graph's
// nodes are numbered 0 .. n - 1; the query's start and goal are nodes n and n + 1. Crossing
// points move with each query, so their places live in the query (`crossings`, one per
// directed edge): a successor's candidate place is kept while the engine decides, and stored by
// on_improve() when the engine accepts the cheaper cost.
//
// Every move lies inside one polygon (the one its from-node enters, or the start's), so with a
// filter its cost is its length times that polygon's multiplier, and a move into a polygon the
// filter excludes is never made.
template <class Areas>
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
  [[nodiscard]] std::size_t node_count() const { return graph.node_count() + 2; }

  [[nodiscard]] const Point& position(NodeId node) const {
    if (node >= graph.node_count()) return node == start_node() ? start : goal;
    return node % points == crossing ? crossings[node / points] : graph.position(node);
  }

  // Relaxes the crossing point of the edge whose points start at node `first`: where the line
  // from `here` (at distance `here_to_goal` from the goal) towards the goal crosses the edge,
  // clamped between its end points. When the line does cross the edge before the goal, the
  // step and the candidate's distance to the goal are the two parts of `here_to_goal`. The
  // step costs its length times `multiplier`, the multiplier of the polygon it crosses.
  template <class Sink>
  void relax_crossing(const Point& here, double here_to_goal, double multiplier, NodeId first, Sink& sink) const {
    if constexpr (Areas::filtered) {
      // Beyond the edge: the goal's polygon, straight to the goal at its multiplier, or
      // unknown ground at no less than the smallest multiplier.
      const PolygonId beyond = graph.entered_polygon(first);
      const double rest = beyond == goal_polygon ? areas.multiplier(beyond) : areas.heuristic_scale();
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

  // The crossing point when the polygon crossed costs more (or less) than what lies beyond:
  // the line towards the goal would spend too long in a costly polygon (or too little in a
  // cheap one). The point is where the cheapest way to the goal would cross the edge if the
  // rest of the way cost `rest` (the goal polygon's multiplier when the edge leads into it,
  // else the smallest, the heuristic's): it minimises
  //   multiplier * |here - p| + rest * |p - goal|
  // along the edge, a refraction as light's at a boundary between media (Snell's law), which
  // weighted-region shortest paths obey (Mitchell & Papadimitriou 1991). The sum is convex in
  // the point's place, so a golden-section search finds it; with equal multipliers it is the
  // straight line's crossing, which relax_crossing computes directly.
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

  // False for an exit into a dead end (see NavMesh::leads_towards) or into a polygon the
  // filter excludes.
  [[nodiscard]] bool worth_taking(NodeId first) const {
    return (!prune_dead_ends ||
            mesh.leads_towards(EdgePointGraph::shared_edge_of(first), graph.entered_polygon(first), goal_polygon)) &&
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

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == start_node()) {
      const double start_to_goal = distance_xz(start, goal);
      const double multiplier = areas.multiplier(start_polygon);
      for (NodeId first : graph.exits(start_polygon)) relax_edge(start, start_to_goal, multiplier, first, sink);
      return;
    }
    const Point& here = position(node);
    const double here_to_goal = distance_xz(here, goal);
    const PolygonId crossed = graph.entered_polygon(node);
    const double multiplier = areas.multiplier(crossed);
    if (crossed == goal_polygon) sink(goal_node(), here_to_goal * multiplier);
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
template <class Areas>
struct CentroidDomain {
  const NavMesh& mesh;
  PolygonId start_polygon;
  PolygonId goal_polygon;
  Point start;
  Point goal;
  bool prune_dead_ends = true;  ///< as EdgePointDomain's
  Areas areas;

  [[nodiscard]] std::size_t node_count() const { return mesh.polygon_count(); }

  [[nodiscard]] const Point& position(NodeId polygon) const {
    return polygon == start_polygon ? start : polygon == goal_polygon ? goal : mesh.centroid(polygon);
  }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    const Point& here = position(node);
    [[maybe_unused]] const double multiplier = areas.multiplier(node);
    const auto neighbours = mesh.polygon_neighbours(node);
    for (std::uint32_t j = 0; j < neighbours.size(); ++j) {
      const PolygonId neighbour = neighbours[j];
      if (neighbour == invalid_polygon || !areas.enters(neighbour)) continue;
      // Dead ends (see NavMesh::leads_towards) are left out.
      if (prune_dead_ends &&
          !mesh.leads_towards(mesh.shared_edge_of_slot(mesh.edge_slot(node, j)), neighbour, goal_polygon))
        continue;
      if constexpr (Areas::filtered)
        sink(neighbour, distance(here, position(neighbour)) * (0.5 * (multiplier + areas.multiplier(neighbour))));
      else
        sink(neighbour, distance(here, position(neighbour)));
    }
  }

  [[nodiscard]] Cost heuristic(NodeId node, NodeId) const {
    return distance(position(node), goal) * areas.heuristic_scale();
  }
};

// The point of `polygon` closest to `target` seen from above, at the mesh's height there: where
// a partial path ends.
Point closest_point_in_polygon(const NavMesh& mesh, PolygonId polygon, const Point& target) {
  if (mesh.contains_xz(polygon, target.x, target.z))
    return {target.x, mesh.height_at(polygon, target.x, target.z), target.z};
  const auto indices = mesh.polygon_vertices(polygon);
  Point best = mesh.vertex(indices[0]);
  double best_squared = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const Point& a = mesh.vertex(indices[i]);
    const Point& b = mesh.vertex(indices[i + 1 == indices.size() ? 0 : i + 1]);
    const double ex = b.x - a.x, ez = b.z - a.z;
    const double length_squared = ex * ex + ez * ez;
    double t = length_squared > 0.0 ? ((target.x - a.x) * ex + (target.z - a.z) * ez) / length_squared : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const Point p{a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
    const double dx = p.x - target.x, dz = p.z - target.z;
    if (dx * dx + dz * dz < best_squared) {
      best_squared = dx * dx + dz * dz;
      best = p;
    }
  }
  return best;
}

double path_length(const std::vector<Point>& points) {
  double length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) length += distance(points[i - 1], points[i]);
  return length;
}

// Twice the signed area of (a, b, p) seen from above, relative to a (precision far from the
// origin): the side of the line from a to b that p lies on.
double side_xz(const Point& a, const Point& b, const Point& p) {
  return (b.x - a.x) * (p.z - a.z) - (b.z - a.z) * (p.x - a.x);
}

// The 3D length of `points` (a path through `corridor`, whose portals are `portals`) with each
// piece weighted by the multiplier of the corridor polygon it lies in. The path crosses the
// portals in order, and each corridor polygon is convex, so the piece in polygon i runs from
// where the path crosses portal i - 1 to where it first reaches the line of portal i: the
// first waypoint on or beyond that line ends it, and the crossing is where the segment to that
// waypoint meets the line. A waypoint on a portal's end (where the funnel turns) ends the
// pieces of every portal that shares that corner, the polygons between getting no length.
double weighted_path_cost(const NavMesh& mesh, std::span<const PolygonId> corridor, std::span<const Portal> portals,
                          const std::vector<Point>& points, const AreaFilter& filter) {
  if (points.size() < 2 || corridor.empty()) return 0.0;
  double total = 0.0;
  std::size_t next = 1;  // the waypoint the path is heading for
  Point at = points[0];
  for (std::size_t i = 0; i < portals.size() && i + 1 < corridor.size(); ++i) {
    const Point& left = portals[i].left;
    const Point& right = portals[i].right;
    // Positive on the side of polygon corridor[i]; within rounding of 0 on the portal's line.
    const double near_sign = side_xz(left, right, mesh.centroid(corridor[i])) >= 0.0 ? 1.0 : -1.0;
    const double portal_length = distance_xz(left, right);
    const double on_line = 1e-9 * portal_length * (portal_length + 1.0);
    double piece = 0.0;
    while (next < points.size()) {
      const Point& target = points[next];
      const double target_side = near_sign * side_xz(left, right, target);
      if (target_side <= on_line) {
        const double at_side = near_sign * side_xz(left, right, at);
        const double t = at_side > on_line && at_side - target_side > 0.0
                             ? std::clamp(at_side / (at_side - target_side), 0.0, 1.0)
                             : 0.0;
        const Point crossing{at.x + (target.x - at.x) * t, at.y + (target.y - at.y) * t, at.z + (target.z - at.z) * t};
        piece += distance(at, crossing);
        at = t == 1.0 ? target : crossing;
        break;
      }
      piece += distance(at, target);
      at = target;
      ++next;
    }
    total += piece * filter.cost(mesh.area(corridor[i]));
  }
  // The rest lies in the last polygon.
  double rest = 0.0;
  for (; next < points.size(); ++next) {
    rest += distance(at, points[next]);
    at = points[next];
  }
  return total + rest * filter.cost(mesh.area(corridor.back()));
}

}  // namespace

namespace {

// Turns the corridor search's node path into polygons: each node on an edge enters the next.
void corridor_from_nodes(const std::vector<NodeId>& nodes, CorridorNodes placement, const EdgePointGraph& graph,
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
  const AreaFilter* filter = nullptr;  ///< the query's filter when it has effect: the cost is weighted

  // The search has ended with `search_result`: the corridor, then portals and funnel.
  void assemble() {
    result.status = search_result.status;
    result.reason = search_result.reason;
    result.stats = search_result.stats;
    result.message = search_result.message;
    result.cost = search_result.cost;
    result.points.clear();
    if (!search_result.nodes.empty())
      corridor_from_nodes(search_result.nodes, placement, mesh.edge_point_graph(), start.polygon, corridor);
    result.nodes = corridor;
    if (!pull_string) {
      result.points = {start.point, goal.point};
      return;
    }
    if (corridor.empty()) return;
    const Point end = result.status == SearchStatus::found ? goal.point
                                                           : closest_point_in_polygon(mesh, corridor.back(), goal.point);
    corridor_portals(mesh, corridor, portals);
    funnel_path(start.point, end, portals, result.points);
    result.cost = filter != nullptr ? weighted_path_cost(mesh, corridor, portals, result.points, *filter)
                                    : path_length(result.points);
  }
};

template <class D>
inline constexpr bool moves_crossings = false;
template <class Areas>
inline constexpr bool moves_crossings<EdgePointDomain<Areas>> = true;

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

// Different regions and start and goal in one polygon settle in begin() (SteppedQuery::settle_in_place).
// Searches with and without a filter are different runs, so that the unfiltered one stays
// exactly as fast as before.
using ActiveSearch =
    SteppedQuery<CorridorRun<EdgePointDomain<AllAreasAlike>>, CorridorRun<CentroidDomain<AllAreasAlike>>,
                 CorridorRun<EdgePointDomain<FilteredAreas>>, CorridorRun<CentroidDomain<FilteredAreas>>>;

// Starts a corridor run of domain D and runs it to its end when it ends at once.
template <class D>
SearchStatus start_run(ActiveSearch& active, SearchContext& context, CorridorOutput& output, D&& domain, NodeId from,
                       NodeId to, const SearchOptions& search) {
  auto& run = active.start<CorridorRun<D>>(context, output, std::move(domain));
  const SearchStatus status = run.engine.search.start(from, to, search);
  if (status != SearchStatus::in_progress) run.finish();
  return status;
}

}  // namespace

struct NavMeshQueryState {
  explicit NavMeshQueryState(const NavMesh& mesh) : output(mesh) {}
  SearchContext context;
  std::vector<Point> crossings;  ///< per directed edge: where this query's crossing point lies
  CorridorOutput output;
  ActiveSearch active;
  CorridorNodes nodes = CorridorNodes::edge_points;  ///< the current query's (options are not kept whole: a filter is large)
  AreaFilter filter;  ///< the current query's filter, when it has effect (output.filter points here)
};

NavMeshQuery::NavMeshQuery(const NavMesh& mesh) : mesh_(mesh), state_(std::make_unique<NavMeshQueryState>(mesh)) {}
NavMeshQuery::~NavMeshQuery() = default;
NavMeshQuery::NavMeshQuery(NavMeshQuery&&) noexcept = default;

const std::vector<Portal>& NavMeshQuery::portals() const { return state_->output.portals; }

Point NavMeshQuery::corridor_node_position(NodeId node) const {
  const NavMeshQueryState& state = *state_;
  std::optional<Point> position;
  auto position_in = [&]<class D>(std::type_identity<D>) {
    if (const auto* run = state.active.run_if<CorridorRun<D>>())
      position = node < run->engine.domain.node_count() ? run->engine.domain.position(node) : Point{};
  };
  position_in(std::type_identity<CentroidDomain<AllAreasAlike>>{});
  position_in(std::type_identity<EdgePointDomain<AllAreasAlike>>{});
  position_in(std::type_identity<CentroidDomain<FilteredAreas>>{});
  position_in(std::type_identity<EdgePointDomain<FilteredAreas>>{});
  if (position) return *position;
  if (state.nodes == CorridorNodes::polygon_centroids)
    return node < mesh_.polygon_count() ? mesh_.centroid(node) : Point{};
  const EdgePointGraph& graph = mesh_.edge_point_graph();
  return node < graph.node_count() ? graph.position(node) : Point{};
}

SearchStatus NavMeshQuery::begin(const Point& start, const Point& goal, const NavMeshSearchOptions& options) {
  NavMeshQueryState& state = *state_;
  state.nodes = options.nodes;
  ActiveSearch& active = state.active;
  active.watch(mesh_.revision());
  if (const auto problem = option_problem(options)) return active.reject(*problem);
  if (!finite(start) || !finite(goal)) return active.reject("start and goal must be finite points");

  const AreaFilter* filter = adopt_filter(options);
  std::string problem;
  auto excluded = [&](const MeshLocation& location, const char* which, const char* how) {
    const PolygonId polygon = location.polygon;
    problem = std::string(which) + " point " + how + " polygon " + std::to_string(polygon) +
              ", which the filter excludes: " + exclusion_reason(*filter, mesh_.area(polygon), mesh_.flags(polygon));
  };
  auto place = [&](const Point& point, const char* which) -> std::optional<MeshLocation> {
    // With a filter, the point stands on a polygon the filter passes if it can (on an edge
    // between an excluded polygon and another, it stands on the other).
    MeshLocation location =
        filter != nullptr ? mesh_.locate(point, options.height_tolerance, *filter) : mesh_.locate(point, options.height_tolerance);
    if (!location.valid() && filter != nullptr) {
      if (const MeshLocation on_excluded = mesh_.locate(point, options.height_tolerance); on_excluded.valid()) {
        excluded(on_excluded, which, "stands on");
        return std::nullopt;
      }
    }
    if (!location.valid() && options.snap_distance > 0.0) {
      location = mesh_.nearest_point(point, options.snap_distance);
      if (location.valid() && filter != nullptr &&
          !filter->passes(mesh_.area(location.polygon), mesh_.flags(location.polygon))) {
        excluded(location, which, "is off the mesh, and snaps onto");
        return std::nullopt;
      }
    }
    if (!location.valid()) {
      problem = std::string(which) + " point is not on the mesh" +
                (options.snap_distance > 0.0 ? " (nor within snap_distance of it)" : " (set snap_distance to clamp it)");
      return std::nullopt;
    }
    return location;
  };
  const auto start_location = place(start, "start");
  if (!start_location) return active.reject(problem);
  const auto goal_location = place(goal, "goal");
  if (!goal_location) return active.reject(problem);
  return start_corridor_search(*start_location, *goal_location, options, true, filter);
}

const AreaFilter* NavMeshQuery::adopt_filter(const NavMeshSearchOptions& options) {
  if (!options.filter || neutral_on(*options.filter, mesh_)) return nullptr;
  state_->filter = *options.filter;
  return &state_->filter;
}

SearchStatus NavMeshQuery::start_corridor_search(const MeshLocation& start, const MeshLocation& goal,
                                                 const NavMeshSearchOptions& options, bool pull_string,
                                                 const AreaFilter* filter) {
  NavMeshQueryState& state = *state_;
  state.nodes = options.nodes;
  state.active.watch(mesh_.revision());
  CorridorOutput& output = state.output;
  output.placement = options.nodes;
  output.start = start;
  output.goal = goal;
  output.pull_string = pull_string;
  output.filter = filter;
  output.corridor.clear();
  output.portals.clear();
  ActiveSearch& active = state.active;
  // Different regions: no path, known without searching (unless a partial path towards the
  // goal is wanted: then the search finds the closest place).
  const bool same_region = mesh_.region(start.polygon) == mesh_.region(goal.polygon);
  if (!same_region && !options.partial_when_unreachable) {
    PathResult& result = active.settle_in_place();
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    result.message.assign("start and goal are in different connected regions (");
    result.message.append(std::to_string(mesh_.region(start.polygon))).append(" and ");
    result.message.append(std::to_string(mesh_.region(goal.polygon))).append("); no search was needed");
    return result.status;
  }
  // Inside one convex polygon the straight segment is the path.
  if (start.polygon == goal.polygon) {
    PathResult& result = active.settle_in_place();
    result.status = SearchStatus::found;
    result.reason = StopReason::goal_reached;
    result.nodes.push_back(start.polygon);
    result.points.push_back(start.point);
    result.points.push_back(goal.point);
    result.cost = distance(start.point, goal.point);
    if (filter != nullptr) result.cost *= filter->cost(mesh_.area(start.polygon));
    output.corridor.push_back(start.polygon);
    return result.status;
  }
  const SearchOptions search = engine_options(options, 1.0, options.weight);
  // Dead ends stay exact under a filter (it only takes polygons away, and a move's cost depends
  // on the polygon it crosses alone, so going into a dead end and back over the same edge is
  // still never shorter), but a partial search towards a goal the filter may have cut off must
  // see everything it can reach, as across regions.
  const bool prune_dead_ends = same_region && (filter == nullptr || !options.partial_when_unreachable);
  // The domains are aggregates, built here and moved in: not every compiler supports aggregate
  // initialisation with parentheses yet.
  auto start_search = [&](auto areas) {
    using Areas = decltype(areas);
    if (options.nodes == CorridorNodes::edge_points) {
      state.crossings.resize(mesh_.edge_point_graph().node_count() / EdgePointGraph::points_per_edge);
      EdgePointDomain<Areas> domain{mesh_,       mesh_.edge_point_graph(), start.polygon, goal.polygon, start.point,
                                    goal.point,  state.crossings,          invalid_node,  Point{},      0.0,
                                    prune_dead_ends, areas};
      const NodeId from = domain.start_node(), to = domain.goal_node();
      return start_run(active, state.context, output, std::move(domain), from, to, search);
    }
    return start_run(active, state.context, output,
                     CentroidDomain<Areas>{mesh_, start.polygon, goal.polygon, start.point, goal.point, prune_dead_ends, areas},
                     start.polygon, goal.polygon, search);
  };
  if (filter == nullptr) return start_search(AllAreasAlike{});
  return start_search(FilteredAreas{&mesh_, filter, filter->smallest_cost(mesh_.areas_in_use())});
}

SearchStatus NavMeshQuery::step(std::uint64_t max_expansions) { return step(StepBudget::expansions(max_expansions)); }

SearchStatus NavMeshQuery::step(const StepBudget& budget) { return state_->active.step(budget, mesh_.revision()); }

SearchStats NavMeshQuery::stats() const { return state_->active.stats(); }

PathResult NavMeshQuery::result() const {
  PathResult out;
  result(out);
  return out;
}

void NavMeshQuery::result(PathResult& out) const { state_->active.result(out); }

PathResult NavMeshQuery::find_path(const Point& start, const Point& goal, const NavMeshSearchOptions& options) {
  PathResult out;
  find_path(start, goal, options, out);
  return out;
}

SearchStatus NavMeshQuery::find_path(const Point& start, const Point& goal, const NavMeshSearchOptions& options,
                                     PathResult& out) {
  if (begin(start, goal, options) == SearchStatus::in_progress) step(StepBudget{});
  result(out);
  return out.status;
}

PathResult NavMeshQuery::find_corridor(const MeshLocation& start, const MeshLocation& goal,
                                       const NavMeshSearchOptions& options) {
  if (const auto problem = option_problem(options)) return PathResult::invalid(*problem);
  if (!start.valid() || !goal.valid() || start.polygon >= mesh_.polygon_count() ||
      goal.polygon >= mesh_.polygon_count())
    return PathResult::invalid("start and goal must be located on the mesh");
  if (!finite(start.point) || !finite(goal.point)) return PathResult::invalid("start and goal must be finite points");
  const AreaFilter* filter = adopt_filter(options);
  if (filter != nullptr) {
    for (const auto& [location, which] : {std::pair{&start, "start"}, std::pair{&goal, "goal"}}) {
      const PolygonId polygon = location->polygon;
      if (!filter->passes(mesh_.area(polygon), mesh_.flags(polygon)))
        return PathResult::invalid(std::string(which) + " polygon " + std::to_string(polygon) +
                                   " is one the filter excludes: " +
                                   exclusion_reason(*filter, mesh_.area(polygon), mesh_.flags(polygon)));
    }
  }
  if (start_corridor_search(start, goal, options, false, filter) == SearchStatus::in_progress) step(StepBudget{});
  PathResult corridor = result();
  corridor.points = {start.point, goal.point};
  return corridor;
}

}  // namespace wayfinder
