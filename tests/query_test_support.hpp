#pragma once
// What the navigation-mesh, batch, queue, hierarchy and thread tests share: comparing two answers
// bit for bit, a query stepped to its end, the budget cases every query must stop on, generated
// navigation meshes with holes, and a visibility-graph oracle for shortest paths.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <cstdint>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder::testing {

/// "" if two results are the same bit for bit (status, cost, nodes, points, expansions and
/// generated nodes, message; not the time), otherwise what differs.
inline std::string result_difference(const PathResult& expected, const PathResult& actual) {
  if (actual.status != expected.status)
    return "status " + std::string(to_string(actual.status)) + " instead of " + std::string(to_string(expected.status));
  if (std::bit_cast<std::uint64_t>(actual.cost) != std::bit_cast<std::uint64_t>(expected.cost))
    return "cost " + std::to_string(actual.cost) + " instead of " + std::to_string(expected.cost);
  if (actual.nodes != expected.nodes) return "different nodes";
  if (actual.points != expected.points) return "different points";
  if (actual.stats.expanded != expected.stats.expanded || actual.stats.generated != expected.stats.generated)
    return "different expansions";
  if (actual.message != expected.message) return "message '" + actual.message + "' instead of '" + expected.message + "'";
  return "";
}

/// A Budget that stops a query, the field's name and the reason it stops it with.
struct BudgetCase {
  const char* name;
  Budget budget;
  StopReason reason;
};

/// One budget per field, each too small for the query whose whole result is `whole` (half its
/// expansions, half its cost, a nanosecond, one byte).
inline std::vector<BudgetCase> budget_cases(const PathResult& whole) {
  Budget expansions;
  expansions.max_expansions = whole.stats.expanded / 2;
  Budget cost;
  cost.max_cost = whole.cost / 2;
  Budget time;
  time.max_time = std::chrono::nanoseconds(1);
  Budget memory;
  memory.max_memory_bytes = 1;
  return {{"max_expansions", expansions, StopReason::expansion_limit},
          {"max_cost", cost, StopReason::cost_limit},
          {"max_time", time, StopReason::time_limit},
          {"max_memory_bytes", memory, StopReason::memory_limit}};
}

/// The query run with `begin` and steps of `step` expansions until it ends; expects that no step
/// does more than it was given and that a paused query's result says in_progress.
template <class Query, class Place, class Options = QueryOptions>
PathResult stepped_result(Query& query, const Place& start, const Place& goal, const Options& options,
                          std::uint64_t step) {
  SearchStatus status = query.begin(start, goal, options);
  std::uint64_t last = query.stats().expanded;
  while (status == SearchStatus::in_progress) {
    status = query.step(step);
    const std::uint64_t now = query.stats().expanded;
    EXPECT_LE(now - last, step);  // a step never does more than it was given
    if (status == SearchStatus::in_progress) {
      EXPECT_EQ(query.result().status, SearchStatus::in_progress);
    }
    last = now;
  }
  return query.result();
}

/// Expects `steps` to be `whole` bit for bit (result_difference) and to stop for the same reason.
inline void expect_same_result(const PathResult& whole, const PathResult& steps, const std::string& where) {
  EXPECT_EQ(result_difference(whole, steps), "") << where;
  EXPECT_EQ(steps.reason, whole.reason) << where;
}

/// For every budget case of `whole` (the query's answer without a budget), with return_partial
/// and without: the query (a hierarchy's, which knows no place nearer the goal than the start
/// before it refines) stops with partial or budget_exhausted and the case's reason, a partial
/// answer being the start alone (`start_node`) and the other none; an expansion limit stops it
/// at exactly that many expansions, stepped or whole. `also(c, partial, expected)` checks more
/// of each case (the same query through another query object).
template <class Options, class Query, class Place, class Also>
void expect_every_budget_stops_at_the_start(Query& query, const Place& start, const Place& goal,
                                            const PathResult& whole, NodeId start_node, const std::string& where,
                                            Also&& also) {
  for (const BudgetCase& c : budget_cases(whole)) {
    for (const bool partial : {true, false}) {
      Options options;
      options.budget = c.budget;
      options.return_partial = partial;
      const SearchStatus expected = partial ? SearchStatus::partial : SearchStatus::budget_exhausted;
      const PathResult stopped = query.find_path(start, goal, options);
      EXPECT_EQ(stopped.status, expected) << where << " " << c.name;
      EXPECT_EQ(stopped.reason, c.reason) << where << " " << c.name;
      if (partial) {
        EXPECT_EQ(stopped.nodes, std::vector<NodeId>{start_node}) << where << " " << c.name;
      } else {
        EXPECT_TRUE(stopped.nodes.empty()) << where << " " << c.name;
      }
      if (c.reason == StopReason::expansion_limit) {
        EXPECT_EQ(stopped.stats.expanded, c.budget.max_expansions) << where;
        // Stepped, the budget counts across steps: the same stop.
        expect_same_result(stopped, stepped_result(query, start, goal, options, 3), where + " stepped");
      }
      also(c, partial, expected);
    }
  }
}

/// A bad budget (a negative max_cost) is refused in words, as every search refuses it.
template <class Options, class Query, class Place>
void expect_bad_budget_refused(Query& query, const Place& start, const Place& goal) {
  Options bad;
  bad.budget.max_cost = -1.0;
  const PathResult refused = query.find_path(start, goal, bad);
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("max_cost"), std::string::npos) << refused.message;
}

/// A columns x rows grid of unit squares in the x-z plane, each a hole with `hole_chance`, the
/// others split into two triangles along a random diagonal; `centres` gets one point inside
/// each square kept.
inline MeshGeometry holey_square_mesh(int columns, int rows, double hole_chance, TestRandom& random,
                                      std::vector<Point>& centres) {
  MeshGeometry geometry;
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) geometry.vertices.push_back({double(x), 0.0, double(z)});
  const auto vertex = [columns](int x, int z) { return static_cast<std::uint32_t>(z * (columns + 1) + x); };
  centres.clear();
  for (int z = 0; z < rows; ++z)
    for (int x = 0; x < columns; ++x) {
      if (random.chance(hole_chance)) continue;
      const std::uint32_t a = vertex(x, z), b = vertex(x + 1, z), c = vertex(x + 1, z + 1), d = vertex(x, z + 1);
      if (random.chance(0.5)) {
        geometry.polygons.push_back({a, b, c});
        geometry.polygons.push_back({a, c, d});
      } else {
        geometry.polygons.push_back({a, b, d});
        geometry.polygons.push_back({b, c, d});
      }
      centres.push_back({x + 0.37, 0.0, z + 0.61});
    }
  return geometry;
}

// A rows x columns grid of unit squares in the x-z plane (at height y = 0), each square a
// polygon unless `blocked` says it is a hole. Vertices are shared, so squares are neighbours.
inline MeshGeometry square_grid(int columns, int rows, const std::vector<bool>& blocked = {}, bool split_into_triangles = false,
                         std::uint32_t seed = 0) {
  MeshGeometry geometry;
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) geometry.vertices.push_back({double(x), 0.0, double(z)});
  auto vertex = [&](int x, int z) { return static_cast<std::uint32_t>(z * (columns + 1) + x); };
  std::mt19937 random(seed);
  for (int z = 0; z < rows; ++z) {
    for (int x = 0; x < columns; ++x) {
      if (!blocked.empty() && blocked[static_cast<std::size_t>(z * columns + x)]) continue;
      const std::uint32_t a = vertex(x, z), b = vertex(x + 1, z), c = vertex(x + 1, z + 1), d = vertex(x, z + 1);
      if (!split_into_triangles) {
        geometry.polygons.push_back({a, b, c, d});
      } else if (random() % 2 == 0) {
        geometry.polygons.push_back({a, b, c});
        geometry.polygons.push_back({a, c, d});
      } else {
        geometry.polygons.push_back({a, b, d});
        geometry.polygons.push_back({b, c, d});
      }
    }
  }
  return geometry;
}

// True when the segment a-b (x-z) stays on the walkable squares of the grid (closed squares, so
// sliding along a wall or touching a corner is allowed, as for the mesh). Exact up to 1e-9: the
// segment is cut where it crosses grid lines, and each piece, which lies in one square's
// closure, is tested at its midpoint (on a grid line, either square beside it will do).
inline bool segment_on_grid(const Point& a, const Point& b, int columns, int rows, const std::vector<bool>& blocked) {
  std::vector<double> cuts = {0.0, 1.0};
  auto add_crossings = [&](double from, double to) {
    if (from == to) return;
    const double low = std::min(from, to), high = std::max(from, to);
    for (double line = std::ceil(low); line <= high; line += 1.0) cuts.push_back((line - from) / (to - from));
  };
  add_crossings(a.x, b.x);
  add_crossings(a.z, b.z);
  std::sort(cuts.begin(), cuts.end());
  auto walkable_at = [&](double x, double z) {
    for (int cz = static_cast<int>(std::floor(z - 1e-9)); cz <= static_cast<int>(std::floor(z + 1e-9)); ++cz)
      for (int cx = static_cast<int>(std::floor(x - 1e-9)); cx <= static_cast<int>(std::floor(x + 1e-9)); ++cx)
        if (cx >= 0 && cz >= 0 && cx < columns && cz < rows && !blocked[static_cast<std::size_t>(cz * columns + cx)])
          return true;
    return false;
  };
  if (!walkable_at(a.x, a.z) || !walkable_at(b.x, b.z)) return false;
  for (std::size_t i = 1; i < cuts.size(); ++i) {
    if (cuts[i] - cuts[i - 1] <= 1e-12) continue;
    const double t = 0.5 * (cuts[i] + cuts[i - 1]);
    if (!walkable_at(a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t)) return false;
  }
  return true;
}

// The shortest path through the walkable squares by a visibility graph over the grid's corners
// and the two end points (shortest paths in a polygonal domain bend only at its corners), with
// visibility tested exactly (segment_on_grid). Returns -1 when the goal cannot be reached.
inline double visibility_graph_oracle(const Point& start, const Point& goal, int columns, int rows,
                               const std::vector<bool>& blocked) {
  std::vector<Point> nodes = {start, goal};
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) nodes.push_back({double(x), 0.0, double(z)});
  const std::size_t n = nodes.size();
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<bool> done(n, false);
  best[0] = 0.0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t at = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && std::isfinite(best[i]) && (at == n || best[i] < best[at])) at = i;
    if (at == n) break;
    if (at == 1) return best[1];
    done[at] = true;
    for (std::size_t next = 0; next < n; ++next) {
      if (done[next]) continue;
      const double length = std::hypot(nodes[next].x - nodes[at].x, nodes[next].z - nodes[at].z);
      if (best[at] + length >= best[next]) continue;
      if (segment_on_grid(nodes[at], nodes[next], columns, rows, blocked)) best[next] = best[at] + length;
    }
  }
  return -1.0;
}

// Squares that touch only at a corner are not neighbours on the mesh (no shared edge), but the
// oracle's closed squares would let a path slip through that corner: opens one of the other two
// squares of every such 2 x 2 block.
inline void open_corner_touches(std::vector<bool>& blocked, int columns, int rows) {
  auto at = [&](int x, int z) { return blocked[static_cast<std::size_t>(z * columns + x)]; };
  for (bool changed = true; changed;) {
    changed = false;
    for (int z = 0; z + 1 < rows; ++z) {
      for (int x = 0; x + 1 < columns; ++x) {
        const bool a = at(x, z), b = at(x + 1, z), c = at(x, z + 1), d = at(x + 1, z + 1);
        if ((!a && !d && b && c) || (a && d && !b && !c)) {
          blocked[static_cast<std::size_t>(z * columns + x + (a ? 0 : 1))] = false;
          changed = true;
        }
      }
    }
  }
}

}  // namespace wayfinder::testing
