#include "wayfinder/navmesh/exact_path_search.hpp"

// The search of Cui, Harabor & Grastien (IJCAI 2017, "Polyanya"), written from the paper's
// description; the terms below are the paper's.
//
// A search node is (root r, interval [left, right] on an edge, the polygon beyond that edge).
// Every point of the interval is visible from r, and the node stands for every path that goes
// from the start to r (its g), straight from r through the interval into the polygon, and on.
// The entered polygon is counter-clockwise seen from above, so walking its entry edge from
// vertex `entry` to vertex `entry + 1` it lies on the left and r on the right (or on the
// edge's line): seen from r, `left` lies towards vertex `entry` and `right` towards `entry + 1`.
//
// Expanding a node projects the cone from r through the interval across the polygon onto its
// other edges: the parts inside the cone are observable successors
// and keep the root; the parts outside it, beside an interval end that is a mesh corner, can
// only be reached by turning at that corner, and take it as their root (non-observable
// successors). f = g + h, h the length of the shortest path from r through the interval to the
// goal ignoring obstacles: straight when the line r -> goal crosses the interval
// (reflecting the goal across the interval's line when it lies on r's side), else through the
// nearer interval end.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "navmesh/search_tables.hpp"
#include "navmesh/straight_path.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/search_clock.hpp"

namespace wayfinder {

namespace {

using geometry::cross_xz;
using geometry::distance_xz;
using geometry::extent_xz;
using geometry::is_finite;

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// Positions seen from above: every length and orientation of the search lives in x-z.
struct Flat {
  double x = 0.0;
  double z = 0.0;
  friend bool operator==(const Flat&, const Flat&) = default;
};

Flat flat(const Point& p) { return {p.x, p.z}; }

Flat along(const Flat& a, const Flat& b, double t) {
  if (t <= 0.0) return a;
  if (t >= 1.0) return b;
  return {a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t};
}

// Orientation with a tolerance (geometry::ToleratedOrientation): collinear mesh vertices and
// rays through corners fall exactly on lines, so that an interval that ends at a corner ends at
// the corner itself, not a rounding error away.
using Orientation = geometry::ToleratedOrientation;

// A part [lo, hi] of the parameter range [0, 1] of a segment (empty when lo > hi). The
// functions below give the part where a function linear along the segment, `at_start` and
// `at_end` at its ends, is <= 0 (where_not_positive) or < 0 (where_negative, closed up to the
// point where it reaches 0). An end whose value is exactly 0 gives exactly 0 or 1, so an
// interval that reaches a vertex ends at the vertex itself.
struct Range {
  double lo = 1.0;
  double hi = 0.0;
  [[nodiscard]] bool empty() const { return lo > hi; }
};

Range where_not_positive(double at_start, double at_end) {
  if (at_start <= 0.0 && at_end <= 0.0) return {0.0, 1.0};
  if (at_start > 0.0 && at_end > 0.0) return {};
  const double crossing = at_start / (at_start - at_end);
  return at_start <= 0.0 ? Range{0.0, crossing} : Range{crossing, 1.0};
}

Range where_negative(double at_start, double at_end) {
  if (at_start < 0.0 && at_end < 0.0) return {0.0, 1.0};
  if (at_start >= 0.0 && at_end >= 0.0) return {};
  const double crossing = at_start / (at_start - at_end);
  return at_start < 0.0 ? Range{0.0, crossing} : Range{crossing, 1.0};
}

Range intersection(const Range& a, const Range& b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

// A point the path may pass through as a turn: the start, a mesh corner, or (for the final
// node only) an interval end on the goal's polygon.
struct Root {
  Flat point;
  std::uint32_t vertex = none;      ///< mesh vertex, or none for the start and interval ends
  PolygonId polygon = invalid_polygon;  ///< a polygon around it, for its height
};

struct SearchNode {
  Flat left;
  Flat right;
  double g = 0.0;  ///< length from the start to the root
  double f = 0.0;  ///< set when the node is queued (a node expanded at once as intermediate never needs it)
  std::uint32_t root = 0;      ///< index in roots
  std::uint32_t parent = none;  ///< node index
  PolygonId polygon = invalid_polygon;  ///< the polygon beyond the interval
  std::uint32_t entry = none;  ///< the interval's edge among the polygon's edges; none for a final node
  bool left_is_vertex = false;   ///< left is the polygon's vertex `entry`
  bool right_is_vertex = false;  ///< right is the polygon's vertex `entry + 1`
};

struct OpenEntry {
  double f;
  double g;
  std::uint32_t node;
  // std::priority_queue keeps the largest on top: the smallest f first, then the largest g
  // (deeper nodes first among equals, which reaches the goal sooner on ties).
  friend bool operator<(const OpenEntry& a, const OpenEntry& b) { return a.f != b.f ? a.f > b.f : a.g < b.g; }
};

// A binary heap whose storage survives clear(), so that the open list of a reused search
// allocates nothing once it has grown.
class OpenList {
 public:
  void push(const OpenEntry& entry) {
    entries_.push_back(entry);
    std::push_heap(entries_.begin(), entries_.end());
  }
  OpenEntry pop() {
    std::pop_heap(entries_.begin(), entries_.end());
    const OpenEntry top = entries_.back();
    entries_.pop_back();
    return top;
  }
  [[nodiscard]] bool empty() const { return entries_.empty(); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] std::size_t capacity_bytes() const { return entries_.capacity() * sizeof(OpenEntry); }
  void clear() { entries_.clear(); }

 private:
  std::vector<OpenEntry> entries_;
};

}  // namespace

struct ExactSearchState {
  explicit ExactSearchState(const NavMesh& mesh);

  // ---- Per mesh, built once, by the first query that gets past its checks (build_tables()):
  // inside that query's set-up, so that its time counts in the query's stats and against its
  // Budget::max_time, as the set-up of every query does (a few milliseconds on a mesh of tens
  // of thousands of polygons, more than a frame's share of a budget).
  const NavMesh& mesh;
  bool tables_built = false;
  std::uint64_t tables_geometry = 0;  ///< the mesh's geometry_revision() the tables were built for
  /// Builds the tables below and sizes the per-query arrays for the mesh.
  void build_tables();
  Orientation orientation;
  double scale = 1.0;  ///< the mesh's extent, for tolerances on point equality
  /// Per vertex: an edge of a polygon around it is a wall. A taut path turns only at such
  /// corners (a turn at a vertex surrounded by polygons could be cut short).
  std::vector<bool> wall_corner;
  /// Per vertex, the polygons around it (all that list it), for corners made by a filter.
  std::vector<std::uint32_t> vertex_polygon_starts;
  std::vector<PolygonId> vertex_polygons;
  /// Per polygon, its corners seen from above twice over (2n points from 2 * its first edge
  /// slot), so that the corners from any one onwards are read from consecutive memory without
  /// wrapping; per edge slot (NavMesh::edge_slot), the index of the same edge among the
  /// neighbour's edges (none for a wall): the entry of a successor.
  std::vector<Flat> corners_twice;
  std::vector<std::uint32_t> slot_entry;

  [[nodiscard]] const Flat* corners_of(PolygonId polygon) const {
    return &corners_twice[2 * std::size_t{SearchTables::first_edge_slot(mesh, polygon)}];
  }
  [[nodiscard]] bool crossable(PolygonId polygon, std::uint32_t edge) const {
    return slot_entry[SearchTables::first_edge_slot(mesh, polygon) + edge] != none;
  }

  // ---- Per query, reused.
  std::vector<SearchNode> nodes;
  std::vector<Root> roots;
  OpenList open;
  // Root-level pruning: the best g known for each corner as a root; a node whose
  // root was reached more cheaply since is dominated. Entries are valid when their stamp is
  // the query's.
  std::vector<double> best_root_g;
  std::vector<std::uint32_t> root_stamp;
  std::vector<std::uint32_t> best_root_from;  ///< the vertex of the root before (none: the start)
  /// Relative difference under which two ways to a corner count as equally long.
  static constexpr double root_tie = 1e-12;
  std::vector<std::uint32_t> goal_stamp;   ///< per polygon: the goal lies in it this query
  // Per polygon: entered, this query, in full view of root `fan_root` (a root at one of its
  // corners). Walking around a corner from polygon to polygon, each is entered once per root,
  // so that a walk around a vertex whose polygons close a full circle ends.
  std::vector<std::uint32_t> fan_stamp;
  std::vector<std::uint32_t> fan_root;
  std::uint32_t query_stamp = 0;
  std::vector<std::uint32_t> successors;  ///< of the node being expanded
  std::vector<std::uint32_t> chain;
  std::vector<PolygonId> fan_walk;  ///< polygons around the goal's corner still to visit
  /// What Budget::max_memory_bytes counts: the per-query state above (its reserved arrays, as a
  /// dense context's are counted), not the per-mesh tables, which belong with the mesh.
  [[nodiscard]] std::size_t search_memory_bytes() const {
    auto bytes = [](const auto& array) { return array.capacity() * sizeof(array[0]); };
    return bytes(nodes) + bytes(roots) + open.capacity_bytes() + bytes(best_root_g) + bytes(root_stamp) +
           bytes(best_root_from) + bytes(goal_stamp) + bytes(fan_stamp) + bytes(fan_root) + bytes(successors) +
           bytes(chain) + bytes(fan_walk);
  }

  // ---- The query under way.
  MeshLocation start_location;
  MeshLocation goal_location;
  QueryOptions options;
  PathResult result;      ///< final once `running` is false; stats kept up to date while running
  bool begun = false;     ///< a query has begun on this object
  bool running = false;   ///< begun and not yet ended
  std::uint32_t closest = none;  ///< the reached node nearest the goal, for a partial path
  double closest_distance = std::numeric_limits<double>::infinity();
  Flat start;
  Flat goal;
  PolygonId goal_polygon = invalid_polygon;
  const AreaFilter* filter = nullptr;
  bool prune_dead_ends = true;
  std::uint64_t generated = 0;

  [[nodiscard]] bool enters(PolygonId polygon) const {
    return polygon != invalid_polygon &&
           (filter == nullptr || filter->passes(mesh.area(polygon), mesh.flags(polygon)));
  }
  [[nodiscard]] bool is_goal_polygon(PolygonId polygon) const { return goal_stamp[polygon] == query_stamp; }
  [[nodiscard]] bool corner(std::uint32_t vertex) const;
  void mark_goal_polygons(const MeshLocation& target);
  [[nodiscard]] double heuristic(const Flat& root, const Flat& left, const Flat& right) const;
  /// A node's heuristic: a lower bound of the length from its root through its interval to the goal.
  [[nodiscard]] double estimate(const SearchNode& node) const {
    return node.entry == none ? node.f - node.g : heuristic(roots[node.root].point, node.left, node.right);
  }
  void queue(std::uint32_t node_index) {
    SearchNode& node = nodes[node_index];
    if (node.entry != none) node.f = node.g + estimate(node);
    open.push({node.f, node.g, node_index});
  }
  // The successor across edge `edge` of `polygon`, with the interval [right_t, left_t] of that
  // edge (parameters from its vertex `edge` to `edge + 1`); false if it is not worth keeping.
  bool add_successor(std::uint32_t parent, std::uint32_t root, double root_g, PolygonId polygon, std::uint32_t edge,
                     double right_t, double left_t);
  std::uint32_t make_corner_root(std::uint32_t vertex, PolygonId polygon, double g, std::uint32_t from_root);
  void add_final(std::uint32_t parent);
  void expand(std::uint32_t node_index);
  // Successors of a node whose root sees all of `polygon` (the root is on the entry interval,
  // or is the start inside it): every other edge, whole.
  void expand_in_full_view(std::uint32_t node_index, std::uint32_t root, double g, PolygonId polygon,
                           std::uint32_t entry);
  void push_initial(const MeshLocation& from);
  void note_reached(std::uint32_t index);
  // Ends the query without reaching the goal (RunOutcome::budget_spent or unreachable): a
  // partial path leads towards the reached node nearest the goal.
  void stop_early(RunOutcome outcome);
  // The result's polygons, turning points and length for the chain of parents ending at `last`,
  // ending at `end` (the goal), or at `end_point` (a partial path's end, on the last interval).
  void emit_path(std::uint32_t last, const Flat* end_point, const Point* end);
};

ExactSearchState::ExactSearchState(const NavMesh& navmesh) : mesh(navmesh) {}

void ExactSearchState::build_tables() {
  tables_built = true;
  tables_geometry = mesh.geometry_revision();
  const Bounds& bounds = mesh.bounds();
  const double largest = std::max(geometry::largest_xz_coordinate(bounds.min, bounds.max), 1.0);
  orientation.rounding = geometry::units_in_last_place(8.0, largest);
  scale = std::max({bounds.max.x - bounds.min.x, bounds.max.z - bounds.min.z, 1e-300});
  wall_corner.assign(mesh.vertex_count(), false);
  std::vector<std::uint32_t> counts(mesh.vertex_count() + 1, 0);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto vertices = mesh.polygon_vertices(p);
    const auto neighbours = mesh.polygon_neighbours(p);
    for (std::size_t j = 0; j < vertices.size(); ++j) {
      ++counts[vertices[j] + 1];
      if (neighbours[j] == invalid_polygon) {
        wall_corner[vertices[j]] = true;
        wall_corner[vertices[(j + 1) % vertices.size()]] = true;
      }
    }
  }
  for (std::size_t v = 1; v < counts.size(); ++v) counts[v] += counts[v - 1];
  vertex_polygon_starts = counts;
  vertex_polygons.resize(counts.back());
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
    for (const std::uint32_t v : mesh.polygon_vertices(p)) vertex_polygons[counts[v]++] = p;
  corners_twice.resize(2 * SearchTables::edge_slot_count(mesh));
  slot_entry.assign(SearchTables::edge_slot_count(mesh), none);
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto vertices = mesh.polygon_vertices(p);
    const auto neighbours = mesh.polygon_neighbours(p);
    const std::size_t n = vertices.size();
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint32_t slot = SearchTables::edge_slot(mesh, p, j);
      corners_twice[2 * std::size_t{SearchTables::first_edge_slot(mesh, p)} + j] =
          corners_twice[2 * std::size_t{SearchTables::first_edge_slot(mesh, p)} + n + j] = flat(mesh.vertex(vertices[j]));
      const PolygonId next = neighbours[j];
      if (next == invalid_polygon) continue;
      // The same edge in the next polygon runs the other way: found by its vertices (two
      // polygons may in principle share more than one edge).
      const std::uint32_t b_vertex = vertices[(j + 1) % n];
      const auto next_vertices = mesh.polygon_vertices(next);
      const auto next_neighbours = mesh.polygon_neighbours(next);
      for (std::uint32_t k = 0; k < next_vertices.size(); ++k)
        if (next_neighbours[k] == p && next_vertices[k] == b_vertex) slot_entry[slot] = k;
    }
  }
  best_root_g.assign(mesh.vertex_count(), 0.0);
  root_stamp.assign(mesh.vertex_count(), 0);
  best_root_from.assign(mesh.vertex_count(), none);
  goal_stamp.assign(mesh.polygon_count(), 0);
  fan_stamp.assign(mesh.polygon_count(), 0);
  fan_root.assign(mesh.polygon_count(), 0);
}

bool ExactSearchState::corner(std::uint32_t vertex) const {
  if (wall_corner[vertex]) return true;
  if (filter == nullptr) return false;
  // A polygon the filter refuses is an obstacle: its corners are corners too.
  for (std::uint32_t i = vertex_polygon_starts[vertex]; i < vertex_polygon_starts[vertex + 1]; ++i)
    if (!enters(vertex_polygons[i])) return true;
  return false;
}

// The goal lies in its polygon, and also in the polygons around it when it stands on an edge
// or a corner: a path may reach it through any of them (found by adjacency, not by position,
// so that another floor above or below never counts).
void ExactSearchState::mark_goal_polygons(const MeshLocation& target) {
  const PolygonId polygon = target.polygon;
  goal_stamp[polygon] = query_stamp;
  const auto vertices = mesh.polygon_vertices(polygon);
  const auto neighbours = mesh.polygon_neighbours(polygon);
  const std::size_t n = vertices.size();
  for (std::size_t j = 0; j < n; ++j) {
    const Flat a = flat(mesh.vertex(vertices[j])), b = flat(mesh.vertex(vertices[(j + 1) % n]));
    if (orientation.same_point(goal, a, scale)) {
      // On a corner: every polygon of its fan reachable through edges that meet there.
      const std::uint32_t vertex = vertices[j];
      fan_walk.assign(1, polygon);
      while (!fan_walk.empty()) {
        const PolygonId at = fan_walk.back();
        fan_walk.pop_back();
        const auto around = mesh.polygon_vertices(at);
        const auto next = mesh.polygon_neighbours(at);
        for (std::size_t k = 0; k < around.size(); ++k) {
          const bool touches = around[k] == vertex || around[(k + 1) % around.size()] == vertex;
          if (touches && enters(next[k]) && goal_stamp[next[k]] != query_stamp) {
            goal_stamp[next[k]] = query_stamp;
            fan_walk.push_back(next[k]);
          }
        }
      }
      return;
    }
    if (orientation.side(a, b, goal) == 0.0 && enters(neighbours[j])) {
      const double t = ((goal.x - a.x) * (b.x - a.x) + (goal.z - a.z) * (b.z - a.z)) /
                       ((b.x - a.x) * (b.x - a.x) + (b.z - a.z) * (b.z - a.z));
      if (t >= 0.0 && t <= 1.0) goal_stamp[neighbours[j]] = query_stamp;
    }
  }
}

// Section 3.2: the length of the shortest path from `root` through [left, right] to the goal,
// obstacles ignored. Admissible, and exact for the last leg inside the goal's polygon.
double ExactSearchState::heuristic(const Flat& root, const Flat& left, const Flat& right) const {
  auto via = [&](const Flat& end, const Flat& target) { return distance_xz(root, end) + distance_xz(end, target); };
  if (left == right) return via(left, goal);
  const double root_side = orientation.side(left, right, root);
  // A root on the interval's line (on the interval, or beyond an end of it): the shortest
  // way through is straight when the root is on it, else through the nearer end.
  if (root_side == 0.0) {
    const double ex = right.x - left.x, ez = right.z - left.z;
    const double t = ((root.x - left.x) * ex + (root.z - left.z) * ez) / (ex * ex + ez * ez);
    return t >= 0.0 && t <= 1.0 ? distance_xz(root, goal) : std::min(via(left, goal), via(right, goal));
  }
  Flat target = goal;
  const double goal_side = cross_xz(left, right, goal);
  if ((goal_side > 0.0) == (root_side > 0.0) && goal_side != 0.0) {
    // Reflect the goal across the interval's line: a path through the interval that comes
    // back to the root's side is at least as long as one to the mirror image.
    const double ex = right.x - left.x, ez = right.z - left.z;
    const double t = ((goal.x - left.x) * ex + (goal.z - left.z) * ez) / (ex * ex + ez * ez);
    const Flat foot{left.x + ex * t, left.z + ez * t};
    target = {2.0 * foot.x - goal.x, 2.0 * foot.z - goal.z};
  }
  // The target now lies beyond the interval's line (or on it): straight when it is in the cone,
  // else through the end on its side (the cone is narrower than a half-plane, so the target
  // beyond the line is outside on one side only; both ends are compared if rounding says both).
  const bool left_of_cone = cross_xz(root, left, target) > 0.0;
  const bool right_of_cone = cross_xz(root, right, target) < 0.0;
  if (!left_of_cone && !right_of_cone) return distance_xz(root, target);
  if (left_of_cone != right_of_cone) return left_of_cone ? via(left, target) : via(right, target);
  return std::min(via(left, target), via(right, target));
}

std::uint32_t ExactSearchState::make_corner_root(std::uint32_t vertex, PolygonId polygon, double g,
                                                  std::uint32_t from_root) {
  // Root-level pruning: a corner already reached more cheaply as a root makes this way to it
  // useless. An equally long way is kept only when it comes from the same previous root: one
  // path around a corner reaches it through several intervals (one per polygon beside the
  // corner), each of which sees a different part of what lies behind it; an equal way from
  // elsewhere would only repeat the search behind the corner.
  const std::uint32_t from_vertex = roots[from_root].vertex;
  if (root_stamp[vertex] == query_stamp) {
    const double best = best_root_g[vertex];
    const double tie = root_tie * std::max(best, 1.0);
    if (g > best + tie) return none;
    if (g >= best - tie && best_root_from[vertex] != from_vertex) return none;
    best_root_g[vertex] = std::min(best, g);
  } else {
    root_stamp[vertex] = query_stamp;
    best_root_g[vertex] = g;
  }
  best_root_from[vertex] = from_vertex;
  roots.push_back({flat(mesh.vertex(vertex)), vertex, polygon});
  return static_cast<std::uint32_t>(roots.size() - 1);
}

bool ExactSearchState::add_successor(std::uint32_t parent, std::uint32_t root, double root_g, PolygonId polygon,
                                     std::uint32_t edge, double right_t, double left_t) {
  const std::uint32_t first_slot = SearchTables::first_edge_slot(mesh, polygon);
  const std::uint32_t slot = first_slot + edge;
  const PolygonId next = mesh.polygon_neighbours(polygon)[edge];
  const std::uint32_t entry = slot_entry[slot];
  if (entry == none || !enters(next)) return false;
  // Dead ends (the paper's dead-end pruning): a bridge of the adjacency whose far side holds no goal cannot be on
  // a shortest path (NavMesh::leads_towards, exact because bridges are known).
  if (prune_dead_ends) {
    const std::uint32_t shared = SearchTables::shared_edge_of_slot(mesh, slot);
    if (shared != none && !SearchTables::leads_towards(mesh, shared, next, goal_polygon)) return false;
  }
  const Flat* corners = corners_of(polygon);
  const Flat a = corners[edge], b = corners[edge + 1];
  SearchNode& node = nodes.emplace_back();
  node.right = along(a, b, right_t);
  node.left = along(a, b, left_t);
  node.right_is_vertex = right_t <= 0.0;
  node.left_is_vertex = left_t >= 1.0;
  node.g = root_g;
  node.root = root;
  node.parent = parent;
  node.polygon = next;
  node.entry = entry;
  successors.push_back(static_cast<std::uint32_t>(nodes.size() - 1));
  ++generated;
  return true;
}

// The goal's polygon is reached: the best path through this node to the goal is straight when
// the goal is in view through the interval, else it turns at the nearer interval end (inside
// a convex polygon nothing is in the way), and no other successor can beat it.
void ExactSearchState::add_final(std::uint32_t parent) {
  const SearchNode from = nodes[parent];
  const Flat root = roots[from.root].point;
  SearchNode node = from;
  node.parent = parent;
  node.entry = none;
  const double direct = distance_xz(root, goal);
  const double exact = heuristic(root, from.left, from.right);
  if (exact > direct * (1.0 + 1e-12) + orientation.rounding) {
    // Not in view: turn at the interval end that gives `exact`.
    const double via_left = distance_xz(root, from.left) + distance_xz(from.left, goal);
    const double via_right = distance_xz(root, from.right) + distance_xz(from.right, goal);
    const Flat turn = via_left <= via_right ? from.left : from.right;
    const bool turn_is_vertex = via_left <= via_right ? from.left_is_vertex : from.right_is_vertex;
    const auto vertices = mesh.polygon_vertices(from.polygon);
    const std::uint32_t vertex =
        !turn_is_vertex ? none
                        : (via_left <= via_right ? vertices[from.entry] : vertices[(from.entry + 1) % vertices.size()]);
    roots.push_back({turn, vertex, from.polygon});
    node.root = static_cast<std::uint32_t>(roots.size() - 1);
    node.g = from.g + distance_xz(root, turn);
    node.f = node.g + distance_xz(turn, goal);
  } else {
    node.f = from.g + direct;
  }
  nodes.push_back(node);
  successors.push_back(static_cast<std::uint32_t>(nodes.size() - 1));
  ++generated;
}

void ExactSearchState::expand(std::uint32_t node_index) {
  const SearchNode node = nodes[node_index];
  if (is_goal_polygon(node.polygon)) {
    add_final(node_index);
    return;
  }
  const PolygonId polygon = node.polygon;
  const auto vertices = mesh.polygon_vertices(polygon);
  const auto n = static_cast<std::uint32_t>(vertices.size());
  const Flat root = roots[node.root].point;
  // Tolerances are scaled by extent_xz() (within a factor sqrt(2) of the lengths): no square
  // roots for the many expansions that turn at no corner.
  const double root_extent_left = extent_xz(root, node.left), root_extent_right = extent_xz(root, node.right);
  const bool zero_interval = node.left == node.right;
  const double tolerance_scale = std::max({root_extent_left, root_extent_right, extent_xz(node.left, node.right)});

  // A root on the interval (the start on an edge, a corner at an end of the edge it turned
  // onto): the whole polygon is in view from it, as the polygon is convex.
  bool whole_polygon = orientation.same_point(root, node.left, tolerance_scale) ||
                       orientation.same_point(root, node.right, tolerance_scale);
  if (!whole_polygon && !zero_interval && orientation.side(node.right, node.left, root) == 0.0) {
    const double ex = node.left.x - node.right.x, ez = node.left.z - node.right.z;
    const double t = ((root.x - node.right.x) * ex + (root.z - node.right.z) * ez) / (ex * ex + ez * ez);
    whole_polygon = t >= 0.0 && t <= 1.0;
  }
  if (whole_polygon) {
    expand_in_full_view(node_index, node.root, node.g, polygon, node.entry);
    return;
  }

  // The cone seen from the root: a point x is in it when x is right of (or on) root -> left
  // and left of (or on) root -> right. A zero-length interval, or one on a line through the
  // root, makes the cone a single ray: the search then moves strictly forward along it (only
  // points beyond the interval's far end count), so that it never circles a vertex.
  const bool ray = zero_interval || orientation.side(root, node.left, node.right) == 0.0;
  auto beyond_far_end = [&](const Flat& p) {
    const double root_length_left = distance_xz(root, node.left), root_length_right = distance_xz(root, node.right);
    const Flat far_end = root_length_left >= root_length_right ? node.left : node.right;
    const double far_distance = std::max(root_length_left, root_length_right);
    const double along_ray = (p.x - root.x) * (far_end.x - root.x) + (p.z - root.z) * (far_end.z - root.z);
    return along_ray > far_distance * far_distance + orientation.rounding * far_distance +
                           Orientation::relative_tolerance * far_distance * far_distance;
  };
  // Corners the path may turn at: an interval end that is the polygon's vertex and a corner
  // of the walkable space. A zero-length interval at a corner may turn either way.
  const std::uint32_t left_vertex = vertices[node.entry], right_vertex = vertices[(node.entry + 1) % n];
  std::uint32_t left_corner = node.left_is_vertex && corner(left_vertex) ? left_vertex : none;
  std::uint32_t right_corner = node.right_is_vertex && corner(right_vertex) ? right_vertex : none;
  if (zero_interval) {
    if (left_corner == none) left_corner = right_corner;
    if (right_corner == none) right_corner = left_corner;
  }
  // A turn at an interval end: its corner, and the root and g made the first time a successor
  // needs them (none if root-level pruning refuses the corner).
  struct Turn {
    std::uint32_t corner;
    const Flat& at;
    std::uint32_t root = none;
    double g = 0.0;
    bool tried = false;
  };
  Turn right_turn{right_corner, node.right}, left_turn{left_corner, node.left};
  auto add_hidden = [&](Turn& turn, std::uint32_t edge, double lo, double hi) {
    if (!turn.tried) {
      turn.g = node.g + distance_xz(root, turn.at);
      turn.root = make_corner_root(turn.corner, polygon, turn.g, node.root);
      turn.tried = true;
    }
    if (turn.root != none) add_successor(node_index, turn.root, turn.g, polygon, edge, lo, hi);
  };

  // The far side of the polygon, walked from the right (vertex entry + 1, walk position 1) to
  // the left (vertex entry, position n): edge k joins positions k and k + 1.
  const Flat* corners = corners_of(polygon) + node.entry;
  auto corner_at = [&](std::uint32_t k) -> const Flat& { return corners[k]; };
  auto edge_at = [&](std::uint32_t k) { return node.entry + k >= n ? node.entry + k - n : node.entry + k; };
  // Seen from the root, a point is right of the cone (a negative right value), in it, or left
  // of it (a positive left value).
  auto right_value = [&](const Flat& p) {
    return orientation.snapped(cross_xz(root, node.right, p), root_extent_right, extent_xz(root, p));
  };
  auto left_value = [&](const Flat& p) {
    return orientation.snapped(cross_xz(root, node.left, p), root_extent_left, extent_xz(root, p));
  };
  // One edge from the cone values at its ends: the part in the cone keeps the root; the parts
  // right and left of it turn at the right and left corners.
  auto split_edge = [&](std::uint32_t k, double right_at_start, double right_at_end, double left_at_start,
                        double left_at_end) {
    const std::uint32_t edge = edge_at(k);
    const Range observable =
        intersection(where_not_positive(left_at_start, left_at_end), where_not_positive(-right_at_start, -right_at_end));
    // A cone's ray through a far corner touches the edge beyond that corner at the corner alone:
    // that single point is already the end of the neighbouring edge's observable interval, so
    // it makes no successor of its own (as in Polyanya, where a cone meeting the far side at a
    // vertex yields the intervals on either side only). A ray node, which has no width, keeps
    // its single points: they are all it sees.
    if (!observable.empty() && (ray || observable.hi > observable.lo)) {
      bool keep = true;
      if (ray) {
        const Flat &a = corner_at(k), &b = corner_at(k + 1);
        keep = beyond_far_end(along(a, b, observable.lo)) || beyond_far_end(along(a, b, observable.hi));
      }
      if (keep) add_successor(node_index, node.root, node.g, polygon, edge, observable.lo, observable.hi);
    }
    if (right_corner != none) {
      const Range hidden = where_negative(right_at_start, right_at_end);
      if (!hidden.empty() && hidden.hi > hidden.lo) add_hidden(right_turn, edge, hidden.lo, hidden.hi);
    }
    if (left_corner != none) {
      const Range hidden = where_negative(-left_at_start, -left_at_end);
      if (!hidden.empty() && hidden.hi > hidden.lo) add_hidden(left_turn, edge, hidden.lo, hidden.hi);
    }
  };
  if (ray || n <= 4) {
    // Few corners (or a cone that is a single ray): every edge, each corner's values once.
    double right_at_start = right_value(corner_at(1)), left_at_start = left_value(corner_at(1));
    for (std::uint32_t k = 1; k < n; ++k) {
      const Flat& b = corner_at(k + 1);
      const double right_at_end = right_value(b), left_at_end = left_value(b);
      split_edge(k, right_at_start, right_at_end, left_at_start, left_at_end);
      right_at_start = right_at_end;
      left_at_start = left_at_end;
    }
    return;
  }
  // A convex polygon meets each ray of the cone once on its far side, so its corners at
  // positions 1 .. n fall into three runs: right of the cone, in it, left of it. Binary search
  // finds where the runs change (as Polyanya finds the observable range); an edge with both
  // ends in one run is whole on one side, and only the edges between runs are split. The two
  // corners of the entry edge may lie on the rays (an interval that ends at a corner): the
  // edges beside them are then always split.
  auto first_where = [&](std::uint32_t lo, auto&& holds) {
    std::uint32_t hi = n;  // position n - 1 is the last searched; n: none holds
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (holds(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const std::uint32_t cone_starts = first_where(2, [&](std::uint32_t k) { return right_value(corner_at(k)) >= 0.0; });
  const std::uint32_t left_starts =
      first_where(cone_starts, [&](std::uint32_t k) { return left_value(corner_at(k)) > 0.0; });
  // Edge `cone_begins` joins the last corner right of the cone to the first one in it (or left
  // of it), edge `left_begins` the last one not left of the cone to the first one left of it;
  // edges before the first are whole right of the cone, edges between the two whole in it,
  // edges after the second whole left of it.
  const std::uint32_t cone_begins = cone_starts - 1, left_begins = left_starts - 1;
  const bool split_first = right_value(corner_at(1)) >= 0.0, split_last = left_value(corner_at(n)) <= 0.0;
  for (std::uint32_t k = 1; k < n; ++k) {
    if (k == cone_begins || k == left_begins || (k == 1 && split_first) || (k == n - 1 && split_last)) {
      const Flat &a = corner_at(k), &b = corner_at(k + 1);
      split_edge(k, right_value(a), right_value(b), left_value(a), left_value(b));
      continue;
    }
    const std::uint32_t edge = edge_at(k);
    if (k < cone_begins) {
      // Right of the cone: successors only around a right corner.
      if (right_corner == none) k = cone_begins - 1;
      else if (crossable(polygon, edge)) add_hidden(right_turn, edge, 0.0, 1.0);
    } else if (k < left_begins) {
      if (crossable(polygon, edge)) add_successor(node_index, node.root, node.g, polygon, edge, 0.0, 1.0);
    } else if (left_corner != none) {
      if (crossable(polygon, edge)) add_hidden(left_turn, edge, 0.0, 1.0);
    } else if (split_last) {
      k = n - 2;
    } else {
      break;
    }
  }
}

void ExactSearchState::push_initial(const MeshLocation& from) {
  // The start sees all of its convex polygon: every edge is a whole interval with the start as
  // root (a start on an edge or corner is on the interval: the next polygon is in full view).
  roots.push_back({start, none, from.polygon});
  SearchNode origin;
  origin.polygon = from.polygon;
  nodes.push_back(origin);
  expand_in_full_view(0, 0, 0.0, from.polygon, none);
}

void ExactSearchState::expand_in_full_view(std::uint32_t node_index, std::uint32_t root, double g, PolygonId polygon,
                                           std::uint32_t entry) {
  const auto vertices = mesh.polygon_vertices(polygon);
  const auto neighbours = mesh.polygon_neighbours(polygon);
  const auto n = static_cast<std::uint32_t>(vertices.size());
  const Flat at = roots[root].point;
  fan_stamp[polygon] = query_stamp;
  fan_root[polygon] = root;
  for (std::uint32_t edge = 0; edge < n; ++edge) {
    if (edge == entry) continue;
    const Flat a = flat(mesh.vertex(vertices[edge])), b = flat(mesh.vertex(vertices[(edge + 1) % n]));
    const double edge_length = distance_xz(a, b);
    const bool around_the_root = orientation.same_point(at, a, edge_length) || orientation.same_point(at, b, edge_length);
    const PolygonId next = neighbours[edge];
    if (around_the_root && next != invalid_polygon) {
      if (fan_stamp[next] == query_stamp && fan_root[next] == root) continue;
      fan_stamp[next] = query_stamp;
      fan_root[next] = root;
    }
    add_successor(node_index, root, g, polygon, edge, 0.0, 1.0);
  }
}

ExactPathSearch::ExactPathSearch(const NavMesh& mesh)
    : mesh_(mesh), state_(std::make_unique<ExactSearchState>(mesh)) {}
ExactPathSearch::~ExactPathSearch() = default;
ExactPathSearch::ExactPathSearch(ExactPathSearch&&) noexcept = default;

PathResult ExactPathSearch::find_path(const MeshLocation& start, const MeshLocation& goal, const QueryOptions& options,
                                      const AreaFilter* filter) {
  PathResult out;
  find_path(start, goal, options, filter, out);
  return out;
}

SearchStatus ExactPathSearch::find_path(const MeshLocation& start, const MeshLocation& goal,
                                        const QueryOptions& options, const AreaFilter* filter, PathResult& out) {
  if (begin(start, goal, options, filter) == SearchStatus::in_progress) step(StepBudget{});
  result(out);
  return out.status;
}

SearchStatus ExactPathSearch::begin(const MeshLocation& start, const MeshLocation& goal, const QueryOptions& options,
                                    const AreaFilter* filter) {
  const auto started = std::chrono::steady_clock::now();
  ExactSearchState& state = *state_;
  PathResult& out = state.result;
  out.reset();
  state.begun = true;
  state.running = false;
  auto reject = [&](const std::string& why) {
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = why;
    return out.status;
  };
  if (!start.valid() || !goal.valid() || start.polygon >= mesh_.polygon_count() || goal.polygon >= mesh_.polygon_count())
    return reject("start and goal must be located on the mesh");
  if (!is_finite(start.point) || !is_finite(goal.point)) return reject("start and goal must be finite points");
  if (const std::optional<std::string> problem = budget_problem(options.budget)) return reject(*problem);
  // Off-mesh links join polygons the search's intervals cannot describe (a jump, a ladder):
  // refused rather than ignored, so that an answer is always the shortest path on the mesh.
  if (mesh_.off_mesh_link_count() != 0)
    return reject("exact paths do not take off-mesh links, and this mesh has " +
                  std::to_string(mesh_.off_mesh_link_count()));
  if (filter != nullptr) {
    if (const auto problem = filter->problem()) return reject(*problem);
    for (std::uint64_t areas = mesh_.areas_in_use(); areas != 0; areas &= areas - 1) {
      const auto area = static_cast<AreaId>(std::countr_zero(areas));
      if (filter->area_passes(area) && filter->cost(area) != 1.0f)
        return reject("exact paths take a filter's exclusions only: area " + std::to_string(area) + " costs " +
                      std::to_string(filter->cost(area)) + ", and area cost multipliers are not supported in this mode");
    }
    for (const auto& [location, which] : {std::pair{&start, "start"}, std::pair{&goal, "goal"}})
      if (!filter->passes(mesh_.area(location->polygon), mesh_.flags(location->polygon)))
        return reject(std::string(which) + " is located on polygon " + std::to_string(location->polygon) +
                      ", which the filter excludes");
  }
  auto add_time = [&] {
    out.stats.microseconds += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    return out.status;
  };
  if (mesh_.region(start.polygon) != mesh_.region(goal.polygon) && !options.partial_when_unreachable) {
    out.status = SearchStatus::no_path;
    out.reason = StopReason::open_list_empty;
    out.message = "start and goal are in different connected regions (" + std::to_string(mesh_.region(start.polygon)) +
                  " and " + std::to_string(mesh_.region(goal.polygon)) + "); no search was needed";
    return add_time();
  }

  // Set up the query (the first one also builds the tables, on the query's clock).
  if (!state.tables_built || state.tables_geometry != mesh_.geometry_revision()) state.build_tables();
  if (++state.query_stamp == 0) {
    std::fill(state.root_stamp.begin(), state.root_stamp.end(), 0u);
    std::fill(state.goal_stamp.begin(), state.goal_stamp.end(), 0u);
    std::fill(state.fan_stamp.begin(), state.fan_stamp.end(), 0u);
    state.query_stamp = 1;
  }
  state.start_location = start;
  state.goal_location = goal;
  state.options = options;
  state.filter = filter;
  state.start = flat(start.point);
  state.goal = flat(goal.point);
  state.goal_polygon = goal.polygon;
  state.prune_dead_ends = mesh_.region(start.polygon) == mesh_.region(goal.polygon) &&
                          (filter == nullptr || !options.partial_when_unreachable);
  state.nodes.clear();
  state.roots.clear();
  state.open.clear();
  state.successors.clear();
  state.generated = 0;
  state.closest = none;
  state.closest_distance = std::numeric_limits<double>::infinity();
  state.mark_goal_polygons(goal);

  // Start and goal in one polygon (or the goal in a polygon around the start's point): straight.
  if (state.is_goal_polygon(start.polygon)) {
    set_straight_path(out, start.polygon, start.point, goal.point, distance_xz(state.start, state.goal));
    return add_time();
  }

  state.push_initial(start);
  for (const std::uint32_t successor : state.successors) state.queue(successor);
  out.stats.peak_open = state.open.size();
  out.stats.generated = state.generated;
  out.status = SearchStatus::in_progress;
  state.running = true;
  return add_time();
}

void ExactSearchState::emit_path(std::uint32_t last, const Flat* end_point, const Point* end) {
  // Polygons and roots from the chain of parents.
  chain.clear();
  for (std::uint32_t at = last; at != none; at = nodes[at].parent) chain.push_back(at);
  std::reverse(chain.begin(), chain.end());
  for (const std::uint32_t at : chain) {
    const PolygonId polygon = nodes[at].polygon;
    if (result.nodes.empty() || result.nodes.back() != polygon) result.nodes.push_back(polygon);
  }
  result.points.push_back(start_location.point);
  std::uint32_t previous_root = 0;
  for (const std::uint32_t at : chain) {
    const std::uint32_t root = nodes[at].root;
    if (root == previous_root) continue;
    previous_root = root;
    const Root& turn = roots[root];
    result.points.push_back({turn.point.x, mesh.height_at(turn.polygon, turn.point.x, turn.point.z), turn.point.z});
  }
  if (end != nullptr) {
    result.points.push_back(*end);
  } else if (end_point != nullptr && !(flat(result.points.back()) == *end_point)) {
    const PolygonId polygon = nodes[last].polygon;
    result.points.push_back({end_point->x, mesh.height_at(polygon, end_point->x, end_point->z), end_point->z});
  }
  result.cost = geometry::polyline_length_xz(result.points);
}

void ExactSearchState::stop_early(RunOutcome outcome) {
  running = false;
  result.status = outcome.status;
  result.reason = outcome.reason;
  if (outcome.status != SearchStatus::partial) return;
  if (closest == none) {
    result.nodes.push_back(start_location.polygon);
    result.points.push_back(start_location.point);
    return;
  }
  // End at the interval's point nearest the goal: in view from the node's root.
  const SearchNode& node = nodes[closest];
  const double ex = node.left.x - node.right.x, ez = node.left.z - node.right.z;
  const double squared = ex * ex + ez * ez;
  const double t =
      squared == 0.0
          ? 0.0
          : std::clamp(((goal.x - node.right.x) * ex + (goal.z - node.right.z) * ez) / squared, 0.0, 1.0);
  const Flat end = along(node.right, node.left, t);
  emit_path(closest, &end, nullptr);
}

void ExactSearchState::note_reached(std::uint32_t index) {
  if (!options.return_partial && !options.partial_when_unreachable) return;
  const double distance = estimate(nodes[index]);  // a lower bound of the distance left
  if (distance < closest_distance) {
    closest_distance = distance;
    closest = index;
  }
}

SearchStatus ExactPathSearch::step(const StepBudget& step_budget) {
  ExactSearchState& state = *state_;
  PathResult& out = state.result;
  if (!state.running) return out.status;
  const SearchClock clock(state.options.budget, step_budget, out.stats.microseconds);
  SearchTrace* const trace = state.options.trace;
  std::uint64_t done_this_step = 0;
  while (state.running) {
    if (state.open.empty()) {
      state.stop_early(RunOutcome::unreachable(state.options.partial_when_unreachable));
      break;
    }
    if (clock.step_over(done_this_step)) break;
    const OpenEntry top = state.open.pop();
    if (top.f > state.options.budget.max_cost) {
      state.stop_early(RunOutcome::budget_spent(StopReason::cost_limit, state.options.return_partial));
      break;
    }
    std::uint32_t current = top.node;
    const SearchNode& popped = state.nodes[current];
    if (popped.entry == none) {
      state.running = false;
      out.status = SearchStatus::found;
      out.reason = StopReason::goal_reached;
      state.emit_path(current, nullptr, &state.goal_location.point);
      break;
    }
    // Root-level pruning, again at expansion: the root may have been reached more cheaply
    // since this node was made.
    const Root& popped_root = state.roots[popped.root];
    if (popped_root.vertex != none &&
        popped.g > state.best_root_g[popped_root.vertex] +
                       ExactSearchState::root_tie * std::max(state.best_root_g[popped_root.vertex], 1.0))
      continue;
    // Intermediate nodes (the paper's intermediate pruning): a node with a single successor is
    // expanded at once rather than queued; its f cannot be lower, so the order of the search
    // is unchanged where it matters (a final node is still only accepted off the open list).
    // The whole chain counts as one step of the caller's budget.
    ++done_this_step;
    while (true) {
      // The cost bound is checked on the open list's top above.
      const StopReason budget_stop =
          clock.budget_stop(out.stats.expanded, NoCostCheck{}, [&state] { return state.search_memory_bytes(); });
      if (budget_stop != StopReason::none) {
        state.stop_early(RunOutcome::budget_spent(budget_stop, state.options.return_partial));
        break;
      }
      ++out.stats.expanded;
      if (trace != nullptr) trace->record(TraceEvent::closed, current, state.nodes[current].parent, state.nodes[current].g);
      state.note_reached(current);
      state.successors.clear();
      state.expand(current);
      if (state.successors.size() == 1 && state.nodes[state.successors.front()].entry != none) {
        current = state.successors.front();
        continue;
      }
      for (const std::uint32_t successor : state.successors) {
        state.queue(successor);
        if (trace != nullptr) trace->record(TraceEvent::opened, successor, current, state.nodes[successor].g);
      }
      break;
    }
    out.stats.peak_open = std::max<std::uint64_t>(out.stats.peak_open, state.open.size());
  }
  out.stats.generated = state.generated;
  out.stats.microseconds = clock.microseconds();
  return state.running ? SearchStatus::in_progress : out.status;
}

void ExactPathSearch::result(PathResult& out) const {
  const ExactSearchState& state = *state_;
  if (!state.begun) {
    out.reset();
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = "no query has begun: call begin() before step() and result()";
    return;
  }
  out = state.result;  // assignment keeps out's memory
  if (state.running) out.status = SearchStatus::in_progress;
}

PathResult ExactPathSearch::result() const {
  PathResult out;
  result(out);
  return out;
}

SearchStats ExactPathSearch::stats() const { return state_->result.stats; }

std::size_t ExactPathSearch::search_memory_bytes() const { return state_->search_memory_bytes(); }

std::optional<ExactSearchNode> ExactPathSearch::search_node(NodeId node) const {
  const ExactSearchState& state = *state_;
  if (node >= state.nodes.size()) return std::nullopt;
  const SearchNode& at = state.nodes[node];
  const Root& root = state.roots[at.root];
  // The interval lies on an edge of the polygon it was made in: the parent's polygon (the
  // start's for the first nodes); its heights are the ground's there.
  const PolygonId on = at.parent == none ? state.start_location.polygon : state.nodes[at.parent].polygon;
  auto ground = [&](const Flat& p, PolygonId polygon) { return Point{p.x, mesh_.height_at(polygon, p.x, p.z), p.z}; };
  ExactSearchNode view;
  view.root = at.root == 0 ? state.start_location.point : ground(root.point, root.polygon);
  // Node 0 stands for the start itself (its successors are the start polygon's edges).
  view.left = node == 0 ? view.root : ground(at.left, on);
  view.right = node == 0 ? view.root : ground(at.right, on);
  view.polygon = at.polygon;
  view.parent = at.parent == none ? invalid_node : at.parent;
  view.g = at.g;
  view.final = at.entry == none;
  return view;
}

}  // namespace wayfinder
