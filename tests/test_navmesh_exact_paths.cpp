// Exact shortest paths on navigation meshes (ExactPathSearch): the lengths of the reference
// sets (<data>/meshes, computed by Polyanya) within 1e-6 relative, random meshes with holes
// against a visibility-graph oracle, two floors overlapping in x-z joined by a ramp against a
// brute-force visibility computation over both floors, and Polyanya's small test meshes with
// collinear points against the same brute force.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/mesh_query_file.hpp"
#include "query_test_support.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/navmesh/exact_path_search.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder {
namespace {

using testing::data_directory;
using testing::data_required;
using testing::open_corner_touches;
using testing::sanitized_build;
using testing::square_grid;
using testing::visibility_graph_oracle;

// Checks what every found path must be: from start to goal, its cost its x-z length, its
// polygons a chain of neighbours from the start's polygon, every segment on the mesh (sampled:
// each sample in a polygon of the path's chain).
void expect_well_formed(const NavMesh& mesh, const PathResult& result, const MeshLocation& start,
                        const MeshLocation& goal) {
  ASSERT_TRUE(result.found());
  ASSERT_GE(result.points.size(), 2u);
  EXPECT_EQ(result.points.front(), start.point);
  EXPECT_EQ(result.points.back(), goal.point);
  EXPECT_NEAR(result.cost, geometry::polyline_length_xz(result.points), 1e-9 * (1.0 + result.cost));
  ASSERT_FALSE(result.nodes.empty());
  EXPECT_EQ(result.nodes.front(), start.polygon);
  for (std::size_t i = 1; i < result.nodes.size(); ++i) {
    const auto neighbours = mesh.polygon_neighbours(result.nodes[i - 1]);
    EXPECT_NE(std::find(neighbours.begin(), neighbours.end(), result.nodes[i]), neighbours.end())
        << "polygons " << result.nodes[i - 1] << " and " << result.nodes[i] << " are not neighbours";
  }
}

// ---------------------------------------------------------------------------------------------
// Reference data

struct ExactDataCase {
  std::string name;
  std::string mesh;     ///< relative to <data>/meshes
  std::string queries;  ///< relative to <data>/meshes
};

void PrintTo(const ExactDataCase& data, std::ostream* out) { *out << data.name; }

const ExactDataCase exact_cases[] = {
    {"nav_test", "derived/nav_test_navmesh.obj", "derived/nav_test_reference_queries.csv"},
    {"dungeon", "derived/dungeon_navmesh.obj", "derived/dungeon_reference_queries.csv"},
    {"arena_cdt", "polyanya/meshes/arena.mesh", "derived/arena_polyanya_optimal.csv"},
    {"arena_merged", "polyanya/meshes/arena-merged.mesh", "derived/arena_polyanya_optimal.csv"},
    {"arena_merged6", "derived/arena-merged6.mesh", "derived/arena_polyanya_optimal.csv"},
    {"aurora_cdt", "polyanya/meshes/aurora.mesh", "derived/aurora_polyanya_optimal.csv"},
    {"aurora_merged", "polyanya/meshes/aurora-merged.mesh", "derived/aurora_polyanya_optimal.csv"},
    {"aurora_merged6", "derived/aurora-merged6.mesh", "derived/aurora_polyanya_optimal.csv"},
};

class ExactPathData : public ::testing::TestWithParam<ExactDataCase> {};

TEST_P(ExactPathData, LengthsAreTheOptimalOnes) {
  const ExactDataCase& data = GetParam();
  const std::filesystem::path root = data_directory() / "meshes";
  const std::filesystem::path mesh_path = root / data.mesh, queries_path = root / data.queries;
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (data_required()) FAIL() << "missing " << mesh_path << " or " << queries_path;
    GTEST_SKIP() << "no mesh data at " << root;
  }
  const bool polyanya_file = mesh_path.extension() == ".mesh";
  const NavMesh mesh = NavMesh::build(polyanya_file ? read_polyanya_mesh(mesh_path) : read_obj_mesh(mesh_path));
  const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
  ASSERT_FALSE(queries.empty());
  const std::size_t stride = sanitized_build() ? 20 : 1;
  ExactPathSearch search(mesh);
  double worst = 0.0;
  std::size_t checked = 0, reachable = 0;
  std::uint64_t expanded = 0, generated = 0;
  for (std::size_t i = 0; i < queries.size(); i += stride) {
    const MeshQueryCase& q = queries[i];
    SCOPED_TRACE(queries_path.filename().string() + ":" + std::to_string(q.line));
    const Point start = polyanya_file ? Point{q.start.x, 0.0, q.start.z} : q.start;
    const Point goal = polyanya_file ? Point{q.goal.x, 0.0, q.goal.z} : q.goal;
    const MeshLocation start_location = mesh.locate(start), goal_location = mesh.locate(goal);
    ASSERT_TRUE(start_location.valid() && goal_location.valid()) << "end point not on the mesh";
    const PathResult result = search.find_path(start_location, goal_location);
    ++checked;
    expanded += result.stats.expanded;
    generated += result.stats.generated;
    const bool expected_reachable = q.reachable.value_or(!(q.optimal_length < 0.0));
    ASSERT_EQ(result.found(), expected_reachable) << to_string(result.status) << " " << result.message;
    if (!result.found()) {
      EXPECT_EQ(result.status, SearchStatus::no_path);
      continue;
    }
    ++reachable;
    expect_well_formed(mesh, result, start_location, goal_location);
    if (std::isnan(q.optimal_length)) continue;
    const double error = std::abs(result.cost - q.optimal_length) / std::max(q.optimal_length, 1.0);
    worst = std::max(worst, error);
    EXPECT_LE(error, 1e-6) << "length " << result.cost << ", optimal " << q.optimal_length;
  }
  std::cout << data.name << ": " << checked << " queries, " << reachable << " reachable, worst relative error "
            << worst << ", " << double(expanded) / double(checked) << " expansions and "
            << double(generated) / double(checked) << " nodes generated per query\n";
  RecordProperty("worst_relative_error", std::to_string(worst));
  EXPECT_GT(reachable, 0u);
}

INSTANTIATE_TEST_SUITE_P(Meshes, ExactPathData, ::testing::ValuesIn(exact_cases),
                         [](const ::testing::TestParamInfo<ExactDataCase>& param) { return param.param.name; });

// ---------------------------------------------------------------------------------------------
// Random meshes with holes against the visibility-graph oracle (query_test_support.hpp)

// One query on a square-grid mesh (query_test_support.hpp) against the visibility-graph
// oracle: the same reachability, the same length, every segment on the grid's free squares.
// Returns whether it was compared (false when an end is off the mesh).
bool matches_oracle(const NavMesh& mesh, ExactPathSearch& search, const Point& start, const Point& goal, int columns,
                    int rows, const std::vector<bool>& blocked) {
  const MeshLocation start_location = mesh.locate(start), goal_location = mesh.locate(goal);
  if (!start_location.valid() || !goal_location.valid()) return false;
  const double optimal = visibility_graph_oracle(start, goal, columns, rows, blocked);
  const PathResult result = search.find_path(start_location, goal_location);
  if (optimal < 0.0) {
    EXPECT_EQ(result.status, SearchStatus::no_path);
    return true;
  }
  expect_well_formed(mesh, result, start_location, goal_location);
  EXPECT_NEAR(result.cost, optimal, 1e-9 * (1.0 + optimal));
  for (std::size_t i = 1; i < result.points.size(); ++i)
    EXPECT_TRUE(testing::segment_on_grid(result.points[i - 1], result.points[i], columns, rows, blocked));
  return true;
}

TEST(ExactPaths, RandomMeshesAgainstAVisibilityGraphOracle) {
  constexpr int columns = 8, rows = 8;
  std::mt19937 random(20261123);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<bool> blocked(columns * rows);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 100 < 25;
    open_corner_touches(blocked, columns, rows);
    const NavMesh mesh =
        NavMesh::build(square_grid(columns, rows, blocked, trial % 2 == 1, static_cast<std::uint32_t>(random())));
    ExactPathSearch search(mesh);
    std::uniform_real_distribution<double> coordinate(0.0, double(columns));
    for (int q = 0; q < 12; ++q) {
      Point start{coordinate(random), 0.0, coordinate(random)};
      Point goal{coordinate(random), 0.0, coordinate(random)};
      // Some queries from and to grid corners and edges: the degenerate cases.
      if (q % 4 == 1) start = {std::round(start.x), 0.0, std::round(start.z)};
      if (q % 4 == 2) goal = {std::round(goal.x), 0.0, goal.z};
      if (q % 4 == 3) goal = start;
      SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(q));
      compared += matches_oracle(mesh, search, start, goal, columns, rows, blocked) ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 300);
}

// Lattice points (corners, edge midpoints and centres of the squares) as ends: rays from them
// pass exactly through mesh vertices everywhere, so straight paths through vertices that are
// not corners, and cones whose rays meet far corners, are the rule here, not the exception.
TEST(ExactPaths, LatticeEndsAgainstAVisibilityGraphOracle) {
  constexpr int columns = 7, rows = 6;
  std::mt19937 random(20261125);
  int compared = 0;
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<bool> blocked(columns * rows);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = trial > 0 && random() % 100 < 20;
    open_corner_touches(blocked, columns, rows);
    const NavMesh mesh =
        NavMesh::build(square_grid(columns, rows, blocked, trial % 2 == 1, static_cast<std::uint32_t>(random())));
    ExactPathSearch search(mesh);
    std::uniform_int_distribution<int> half_x(0, 2 * columns), half_z(0, 2 * rows);
    for (int q = 0; q < 120; ++q) {
      const Point start{half_x(random) / 2.0, 0.0, half_z(random) / 2.0};
      const Point goal{half_x(random) / 2.0, 0.0, half_z(random) / 2.0};
      SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(q));
      compared += matches_oracle(mesh, search, start, goal, columns, rows, blocked) ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 800);
}

// ---------------------------------------------------------------------------------------------
// A brute force over any mesh: a visibility graph over the mesh's vertices and the two end
// points, within "layers" (sets of polygons that do not overlap seen from above), visibility
// tested exactly: a segment lies in a layer when it crosses none of the layer's boundary edges
// properly, and every piece between the points where it touches them has its midpoint in a
// polygon of the layer. Shortest paths bend only at vertices, and each straight piece lies in
// one layer.

struct Layer {
  std::vector<PolygonId> polygons;
  std::vector<std::pair<Point, Point>> boundary;  ///< edges with no neighbour in the layer
};

struct Layered {
  const NavMesh* mesh;
  std::vector<Layer> layers;
};

Layer make_layer(const NavMesh& mesh, std::vector<PolygonId> polygons) {
  Layer layer{std::move(polygons), {}};
  for (const PolygonId p : layer.polygons) {
    const auto vertices = mesh.polygon_vertices(p);
    const auto neighbours = mesh.polygon_neighbours(p);
    for (std::size_t j = 0; j < vertices.size(); ++j) {
      const bool inside = neighbours[j] != invalid_polygon &&
                          std::find(layer.polygons.begin(), layer.polygons.end(), neighbours[j]) != layer.polygons.end();
      if (!inside) layer.boundary.push_back({mesh.vertex(vertices[j]), mesh.vertex(vertices[(j + 1) % vertices.size()])});
    }
  }
  return layer;
}

double cross_xz(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

bool segment_on_layer(const NavMesh& mesh, const Layer& layer, const Point& a, const Point& b) {
  const double segment_length = std::hypot(b.x - a.x, b.z - a.z);
  std::vector<double> cuts = {0.0, 1.0};
  for (const auto& [p, q] : layer.boundary) {
    const double edge_length = std::hypot(q.x - p.x, q.z - p.z);
    const double tolerance = 1e-10 * (1.0 + segment_length) * (1.0 + edge_length);
    auto sign = [&](double value) { return std::abs(value) <= tolerance ? 0 : (value > 0.0 ? 1 : -1); };
    const int a_side = sign(cross_xz(p, q, a)), b_side = sign(cross_xz(p, q, b));
    const int p_side = sign(cross_xz(a, b, p)), q_side = sign(cross_xz(a, b, q));
    if (a_side * b_side < 0 && p_side * q_side < 0) return false;  // a proper crossing
    // Touching: the edge's ends on the segment cut it.
    for (const auto& [end, side] : {std::pair{p, p_side}, std::pair{q, q_side}}) {
      if (side != 0 || segment_length == 0.0) continue;
      const double t = ((end.x - a.x) * (b.x - a.x) + (end.z - a.z) * (b.z - a.z)) / (segment_length * segment_length);
      if (t > 0.0 && t < 1.0) cuts.push_back(t);
    }
    // The segment's line through the edge's inside at a single point: cut there too.
    if (a_side * b_side < 0 && p_side * q_side == 0) {
      const double fa = cross_xz(p, q, a), fb = cross_xz(p, q, b);
      cuts.push_back(fa / (fa - fb));
    }
  }
  std::sort(cuts.begin(), cuts.end());
  auto inside = [&](double x, double z) {
    return std::any_of(layer.polygons.begin(), layer.polygons.end(), [&](PolygonId p) { return mesh.contains_xz(p, x, z); });
  };
  for (std::size_t i = 1; i < cuts.size(); ++i) {
    if (cuts[i] - cuts[i - 1] <= 1e-12) continue;
    const double t = 0.5 * (cuts[i] + cuts[i - 1]);
    if (!inside(a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t)) return false;
  }
  return true;
}

// The polygons around vertex v, in groups joined through edges that meet at v: more than one
// group where polygons only touch at the vertex (a pinch, which the mesh's adjacency does not
// pass, while the union of polygons would).
std::vector<std::vector<PolygonId>> groups_around(const NavMesh& mesh, std::uint32_t v) {
  std::vector<std::vector<PolygonId>> groups;
  std::vector<PolygonId> around;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const auto vertices = mesh.polygon_vertices(p);
    if (std::find(vertices.begin(), vertices.end(), v) != vertices.end()) around.push_back(p);
  }
  std::vector<bool> placed(around.size(), false);
  for (std::size_t seed = 0; seed < around.size(); ++seed) {
    if (placed[seed]) continue;
    std::vector<PolygonId> group{around[seed]};
    placed[seed] = true;
    for (std::size_t at = 0; at < group.size(); ++at) {
      const auto vertices = mesh.polygon_vertices(group[at]);
      const auto neighbours = mesh.polygon_neighbours(group[at]);
      for (std::size_t j = 0; j < vertices.size(); ++j) {
        if (vertices[j] != v && vertices[(j + 1) % vertices.size()] != v) continue;
        for (std::size_t k = 0; k < around.size(); ++k)
          if (!placed[k] && around[k] == neighbours[j]) {
            placed[k] = true;
            group.push_back(around[k]);
          }
      }
    }
    groups.push_back(group);
  }
  return groups;
}

// -1 when unreachable. Nodes are the end points and the vertices, a vertex once per group of
// polygons around it; a segment leaves and enters a vertex inside its node's group, and passes
// through a pinch only within one group.
double brute_force_length(const Layered& world, const MeshLocation& start, const MeshLocation& goal) {
  const NavMesh& mesh = *world.mesh;
  struct Node {
    Point point;
    std::vector<PolygonId> group;
    bool pinch = false;
  };
  std::vector<Node> nodes;
  // An end point's group: the polygons that hold it, joined to its own through neighbours
  // that hold it too (on an edge or a corner it is in several; at a pinch, only its side's).
  auto end_node = [&](const MeshLocation& at) {
    Node node{at.point, {at.polygon}, true};
    for (std::size_t i = 0; i < node.group.size(); ++i)
      for (const PolygonId next : mesh.polygon_neighbours(node.group[i]))
        if (next != invalid_polygon && mesh.contains_xz(next, at.point.x, at.point.z) &&
            std::find(node.group.begin(), node.group.end(), next) == node.group.end())
          node.group.push_back(next);
    return node;
  };
  nodes.push_back(end_node(start));
  nodes.push_back(end_node(goal));
  struct Pinch {
    Point point;
    std::vector<std::vector<PolygonId>> groups;
  };
  std::vector<Pinch> pinches;
  for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) {
    const auto groups = groups_around(mesh, v);
    for (const auto& group : groups) nodes.push_back({mesh.vertex(v), group, groups.size() > 1});
    if (groups.size() > 1) pinches.push_back({mesh.vertex(v), groups});
  }
  auto in_group = [&](const std::vector<PolygonId>& group, double x, double z) {
    return std::any_of(group.begin(), group.end(), [&](PolygonId p) { return mesh.contains_xz(p, x, z); });
  };
  auto in_layer = [&](const Node& node, const Layer& layer) {
    return std::any_of(node.group.begin(), node.group.end(), [&](PolygonId p) {
      return std::find(layer.polygons.begin(), layer.polygons.end(), p) != layer.polygons.end();
    });
  };
  auto pinches_respected = [&](const Node& from, const Node& to) {
    const double dx = to.point.x - from.point.x, dz = to.point.z - from.point.z;
    const double length = std::hypot(dx, dz);
    if (length == 0.0) {
      // The same point: one node may stand for the other only if their groups meet.
      return std::any_of(from.group.begin(), from.group.end(), [&](PolygonId p) {
        return std::find(to.group.begin(), to.group.end(), p) != to.group.end();
      });
    }
    const double step = 1e-6 / length;
    if (from.pinch && !in_group(from.group, from.point.x + dx * step, from.point.z + dz * step)) return false;
    if (to.pinch && !in_group(to.group, to.point.x - dx * step, to.point.z - dz * step)) return false;
    for (const Pinch& pinch : pinches) {
      const double t = ((pinch.point.x - from.point.x) * dx + (pinch.point.z - from.point.z) * dz) / (length * length);
      if (t <= step || t >= 1.0 - step) continue;
      if (std::abs(cross_xz(from.point, to.point, pinch.point)) > 1e-10 * length * (1.0 + length)) continue;
      const bool within_one = std::any_of(pinch.groups.begin(), pinch.groups.end(), [&](const auto& group) {
        return in_group(group, from.point.x + dx * (t - step), from.point.z + dz * (t - step)) &&
               in_group(group, from.point.x + dx * (t + step), from.point.z + dz * (t + step));
      });
      if (!within_one) return false;
    }
    return true;
  };
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
      const double length = std::hypot(nodes[next].point.x - nodes[at].point.x, nodes[next].point.z - nodes[at].point.z);
      if (best[at] + length >= best[next]) continue;
      for (const Layer& layer : world.layers) {
        if (in_layer(nodes[at], layer) && in_layer(nodes[next], layer) &&
            segment_on_layer(mesh, layer, nodes[at].point, nodes[next].point) && pinches_respected(nodes[at], nodes[next])) {
          best[next] = best[at] + length;
          break;
        }
      }
    }
  }
  return -1.0;
}

// A point inside polygon `p`: a random convex combination of its vertices, on its surface.
MeshLocation random_point_in(const NavMesh& mesh, PolygonId p, std::mt19937& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double x = 0.0, z = 0.0, total = 0.0;
  for (const std::uint32_t v : mesh.polygon_vertices(p)) {
    const double w = unit(random) + 0.05;
    x += w * mesh.vertex(v).x;
    z += w * mesh.vertex(v).z;
    total += w;
  }
  x /= total;
  z /= total;
  return {p, {x, mesh.height_at(p, x, z), z}};
}

// Two floors 5 units apart overlapping seen from above, joined by a ramp and a landing:
//   lower floor   x 0..10, z 0..10 at y 0, with a pillar (hole) at x 4..5, z 6..8;
//   ramp          x 10..20, z 0..3, rising from y 0 to 5;
//   landing       x 20..23, z 0..10 at y 5;
//   upper floor   x 0..20, z 4..10 at y 5 (over the lower floor's back), with a hole at x 12..14, z 6..7.
// Unit squares throughout; vertices are shared where the pieces meet at the same height.
struct TwoFloors {
  MeshGeometry geometry;
  std::vector<std::uint32_t> lower, upper;  ///< input polygon indices per piece (ramp and landing in both)
};

TwoFloors two_floors() {
  TwoFloors world;
  std::map<std::tuple<double, double, double>, std::uint32_t> index;
  auto vertex = [&](double x, double y, double z) {
    const auto key = std::make_tuple(x, y, z);
    if (const auto found = index.find(key); found != index.end()) return found->second;
    world.geometry.vertices.push_back({x, y, z});
    return index[key] = static_cast<std::uint32_t>(world.geometry.vertices.size() - 1);
  };
  auto squares = [&](int x0, int x1, int z0, int z1, auto height, auto hole, std::vector<std::uint32_t>& piece,
                     std::vector<std::uint32_t>* also) {
    for (int z = z0; z < z1; ++z)
      for (int x = x0; x < x1; ++x) {
        if (hole(x, z)) continue;
        auto at = [&](int vx, int vz) { return vertex(vx, height(vx), vz); };
        world.geometry.polygons.push_back({at(x, z), at(x + 1, z), at(x + 1, z + 1), at(x, z + 1)});
        piece.push_back(static_cast<std::uint32_t>(world.geometry.polygons.size() - 1));
        if (also != nullptr) also->push_back(piece.back());
      }
  };
  auto flat_at = [](double y) { return [y](int) { return y; }; };
  auto no_hole = [](int, int) { return false; };
  squares(0, 10, 0, 10, flat_at(0.0), [](int x, int z) { return x == 4 && (z == 6 || z == 7); }, world.lower, nullptr);
  squares(10, 20, 0, 3, [](int x) { return (x - 10) * 0.5; }, no_hole, world.lower, &world.upper);
  squares(20, 23, 0, 10, flat_at(5.0), no_hole, world.lower, &world.upper);
  squares(0, 20, 4, 10, flat_at(5.0), [](int x, int z) { return (x == 12 || x == 13) && z == 6; }, world.upper, nullptr);
  return world;
}

TEST(ExactPaths, TwoFloorsOverlappingSeenFromAboveJoinedByARamp) {
  const TwoFloors world = two_floors();
  const NavMesh mesh = NavMesh::build(world.geometry);
  ASSERT_EQ(mesh.polygon_count(), world.geometry.polygons.size());
  Layered layered{&mesh, {make_layer(mesh, {world.lower.begin(), world.lower.end()}),
                          make_layer(mesh, {world.upper.begin(), world.upper.end()})}};
  ExactPathSearch search(mesh);
  std::mt19937 random(7);
  std::uniform_int_distribution<PolygonId> any_polygon(0, static_cast<PolygonId>(mesh.polygon_count() - 1));
  int compared = 0, between_floors = 0;
  const int queries = sanitized_build() ? 15 : 60;
  for (int q = 0; q < queries; ++q) {
    const MeshLocation start = random_point_in(mesh, any_polygon(random), random);
    const MeshLocation goal = random_point_in(mesh, any_polygon(random), random);
    SCOPED_TRACE("query " + std::to_string(q));
    const double expected = brute_force_length(layered, start, goal);
    const PathResult result = search.find_path(start, goal);
    ASSERT_GT(expected, -0.5);
    expect_well_formed(mesh, result, start, goal);
    EXPECT_NEAR(result.cost, expected, 1e-9 * (1.0 + expected));
    // Every waypoint stands on the ground of a polygon of the path.
    for (const Point& p : result.points) {
      const bool on_ground = std::any_of(result.nodes.begin(), result.nodes.end(), [&](PolygonId polygon) {
        return mesh.contains_xz(polygon, p.x, p.z) && std::abs(mesh.height_at(polygon, p.x, p.z) - p.y) < 1e-9;
      });
      EXPECT_TRUE(on_ground) << p.x << " " << p.y << " " << p.z;
    }
    if (std::abs(start.point.y - goal.point.y) > 4.0) ++between_floors;
    ++compared;
  }
  EXPECT_GT(between_floors, sanitized_build() ? 1 : 5);
  // Straight above one another: the path takes the ramp, far longer than the 0 seen from above.
  const MeshLocation below{mesh.locate({2.5, 0.0, 8.5}, 1.0)}, above{mesh.locate({2.5, 5.0, 8.5}, 1.0)};
  ASSERT_TRUE(below.valid() && above.valid());
  ASSERT_NE(below.polygon, above.polygon);
  const PathResult up = search.find_path(below, above);
  ASSERT_TRUE(up.found());
  EXPECT_NEAR(up.cost, brute_force_length(layered, below, above), 1e-9 * up.cost);
  EXPECT_GT(up.cost, 30.0);
}

// Polyanya's own small test meshes: collinear vertices, vertices on edges, ambiguous corners.
TEST(ExactPaths, PolyanyaTestMeshesAgainstBruteForce) {
  const std::filesystem::path folder = data_directory() / "meshes" / "polyanya" / "meshes" / "tests";
  if (!std::filesystem::exists(folder)) {
    if (data_required()) FAIL() << "missing " << folder;
    GTEST_SKIP() << "no mesh data at " << folder;
  }
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".mesh") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const NavMesh mesh = NavMesh::build(read_polyanya_mesh(entry.path()));
    std::vector<PolygonId> all(mesh.polygon_count());
    for (PolygonId p = 0; p < mesh.polygon_count(); ++p) all[p] = p;
    Layered layered{&mesh, {make_layer(mesh, all)}};

    ExactPathSearch search(mesh);
    std::mt19937 random(11);
    std::uniform_int_distribution<PolygonId> any_polygon(0, static_cast<PolygonId>(mesh.polygon_count() - 1));
    std::uniform_int_distribution<std::uint32_t> any_vertex(0, static_cast<std::uint32_t>(mesh.vertex_count() - 1));
    const int queries = sanitized_build() ? 10 : 60;
    for (int q = 0; q < queries; ++q) {
      MeshLocation start = random_point_in(mesh, any_polygon(random), random);
      MeshLocation goal = random_point_in(mesh, any_polygon(random), random);
      // Every third query starts or ends on a mesh vertex (the file's corners, collinear ones
      // included).
      if (q % 3 == 1) start = mesh.locate(mesh.vertex(any_vertex(random)));
      if (q % 3 == 2) goal = mesh.locate(mesh.vertex(any_vertex(random)));
      if (!start.valid() || !goal.valid()) continue;
      SCOPED_TRACE("query " + std::to_string(q));
      const double expected = brute_force_length(layered, start, goal);
      const PathResult result = search.find_path(start, goal);
      if (expected < 0.0) {
        EXPECT_EQ(result.status, SearchStatus::no_path);
        continue;
      }
      expect_well_formed(mesh, result, start, goal);
      EXPECT_NEAR(result.cost, expected, 1e-9 * (1.0 + expected));
      ++compared;
    }
  }
  EXPECT_GT(compared, sanitized_build() ? 30 : 100);
}

TEST(ExactPaths, DegenerateQueries) {
  const NavMesh mesh = NavMesh::build(square_grid(4, 3, {false, true, false, false, false, false, false, false, false,
                                                         false, false, false}));
  ExactPathSearch search(mesh);
  // Start == goal, on a vertex, inside a polygon.
  for (const Point& p : {Point{0.5, 0.0, 0.5}, Point{2.0, 0.0, 1.0}, Point{3.0, 0.0, 0.5}}) {
    const MeshLocation at = mesh.locate(p);
    ASSERT_TRUE(at.valid());
    const PathResult result = search.find_path(at, at);
    ASSERT_TRUE(result.found());
    EXPECT_EQ(result.cost, 0.0);
  }
  // Around the hole at square (1, 0): from (0.5, 0.5) to (2.5, 0.5) over its top corners.
  const PathResult around = search.find_path(mesh.locate({0.5, 0, 0.5}), mesh.locate({2.5, 0, 0.5}));
  ASSERT_TRUE(around.found());
  EXPECT_NEAR(around.cost, 2.0 * std::hypot(0.5, 0.5) + 1.0, 1e-12);
  ASSERT_EQ(around.points.size(), 4u);
  EXPECT_EQ(around.points[1], (Point{1.0, 0.0, 1.0}));
  EXPECT_EQ(around.points[2], (Point{2.0, 0.0, 1.0}));
  // A budget of one expansion: partial or budget_exhausted, as asked.
  QueryOptions tight;
  tight.budget.max_expansions = 1;
  const PathResult partial = search.find_path(mesh.locate({0.5, 0, 0.5}), mesh.locate({3.5, 0, 2.5}), tight);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::expansion_limit);
  tight.return_partial = false;
  EXPECT_EQ(search.find_path(mesh.locate({0.5, 0, 0.5}), mesh.locate({3.5, 0, 2.5}), tight).status,
            SearchStatus::budget_exhausted);
  // Area costs are not supported; exclusions are.
  NavMesh tagged = NavMesh::build(square_grid(3, 1));
  tagged.set_area(1, 3);
  ExactPathSearch tagged_search(tagged);
  AreaFilter costly;
  costly.set_area_cost(3, 2.0f);
  const PathResult refused = tagged_search.find_path(tagged.locate({0.5, 0, 0.5}), tagged.locate({2.5, 0, 0.5}), {}, &costly);
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("not supported"), std::string::npos) << refused.message;
  AreaFilter closed;
  closed.exclude_area(3);
  EXPECT_EQ(tagged_search.find_path(tagged.locate({0.5, 0, 0.5}), tagged.locate({2.5, 0, 0.5}), {}, &closed).status,
            SearchStatus::no_path);
}

// Budget::max_memory_bytes ends the exact search as it ends every search: the per-query state
// (search_memory_bytes) over the limit stops it with memory_limit, partial or budget_exhausted
// as asked, whole or stepped; a limit above what it holds changes nothing.
TEST(ExactPaths, TheMemoryBudgetStopsTheSearch) {
  const NavMesh mesh = NavMesh::build(square_grid(12, 12, std::vector<bool>(144, false)));
  ExactPathSearch search(mesh);
  const MeshLocation start = mesh.locate({0.5, 0, 0.5});
  const MeshLocation goal = mesh.locate({11.5, 0, 10.7});
  const PathResult free = search.find_path(start, goal);
  ASSERT_TRUE(free.found());
  ASSERT_GT(free.stats.expanded, 0u);
  EXPECT_GT(search.search_memory_bytes(), 0u);
  QueryOptions tight;
  tight.budget.max_memory_bytes = 1;
  tight.return_partial = false;
  const PathResult stopped = search.find_path(start, goal, tight);
  EXPECT_EQ(stopped.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(stopped.reason, StopReason::memory_limit);
  tight.return_partial = true;
  const PathResult partial = search.find_path(start, goal, tight);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.reason, StopReason::memory_limit);
  // Stepped, the same stop.
  SearchStatus status = search.begin(start, goal, tight);
  while (status == SearchStatus::in_progress) status = search.step(StepBudget::expansions(1));
  EXPECT_EQ(status, SearchStatus::partial);
  EXPECT_EQ(search.result().reason, StopReason::memory_limit);
  QueryOptions roomy;
  roomy.budget.max_memory_bytes = std::size_t{64} << 20;
  const PathResult same = search.find_path(start, goal, roomy);
  EXPECT_EQ(testing::result_difference(free, same), "");
}

// NavMeshQuery with CorridorNodes::optimal: the same answer as ExactPathSearch after locating;
// a filter's exclusions are honoured, its area costs refused.
TEST(ExactPaths, NavMeshQueryRunsTheExactSearchForOptimalNodes) {
  EXPECT_EQ(parse_corridor_nodes("optimal"), CorridorNodes::optimal);
  EXPECT_EQ(to_string(CorridorNodes::optimal), "optimal");
  std::vector<bool> blocked(8 * 8, false);
  for (int z = 0; z < 6; ++z) blocked[static_cast<std::size_t>(z * 8 + 4)] = true;  // a wall with a gap at the top
  NavMesh mesh = NavMesh::build(square_grid(8, 8, blocked, true, 3));
  NavMeshQuery query(mesh);
  ExactPathSearch search(mesh);
  NavMeshSearchOptions options;
  options.nodes = CorridorNodes::optimal;
  const Point start{1.5, 0.0, 1.5}, goal{6.5, 0.0, 1.5};
  const PathResult through_query = query.find_path(start, goal, options);
  const PathResult direct = search.find_path(mesh.locate(start), mesh.locate(goal));
  ASSERT_TRUE(through_query.found()) << through_query.message;
  EXPECT_EQ(through_query.cost, direct.cost);
  EXPECT_EQ(through_query.points, direct.points);
  EXPECT_NEAR(through_query.cost, std::hypot(2.5, 4.5) + 1.0 + std::hypot(1.5, 4.5), 1e-12);  // over (4, 6) and (5, 6)
  // The corridor alone (as mesh bench times it): the polygons crossed.
  const PathResult corridor = query.find_corridor(mesh.locate(start), mesh.locate(goal), options);
  EXPECT_EQ(corridor.nodes, direct.nodes);
  // Exclusions: close the gap's squares; area costs: refused.
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
    if (mesh.contains_xz(p, 4.5, 6.5)) mesh.set_area(p, 5);
  AreaFilter closed;
  closed.exclude_area(5);
  options.filter = closed;
  const PathResult around = query.find_path(start, goal, options);
  ASSERT_TRUE(around.found()) << around.message;
  EXPECT_GT(around.cost, through_query.cost);
  AreaFilter costly;
  costly.set_area_cost(5, 3.0f);
  options.filter = costly;
  const PathResult refused = query.find_path(start, goal, options);
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("not supported"), std::string::npos) << refused.message;
}

// The first exact query of a query object builds the exact search's per-mesh tables: that work
// is part of the query's set-up, so it counts against the query's max_time. On this mesh of
// 80,000 triangles the tables take tens of milliseconds (hundreds of thousands of entries
// written), while the rest of the set-up takes microseconds: a budget of 20 microseconds ends
// the first query with the time limit before its first expansion (without the tables on its
// clock, it ran its first 64 expansions before the clock was read). The statuses only depend on
// the tables taking more than 20 microseconds, which they do on any machine.
TEST(ExactPaths, FirstQueryCountsTheTablesItBuildsAgainstMaxTime) {
  const NavMesh mesh = NavMesh::build(square_grid(200, 200, {}, true, 5));
  const Point start{0.5, 0.0, 0.5}, goal{199.5, 0.0, 199.5};
  NavMeshSearchOptions options;
  options.nodes = CorridorNodes::optimal;
  options.budget.max_time = std::chrono::microseconds(20);
  for (const bool partial : {false, true}) {
    NavMeshQuery query(mesh);
    options.return_partial = partial;
    const PathResult first = query.find_path(start, goal, options);
    EXPECT_EQ(first.status, partial ? SearchStatus::partial : SearchStatus::budget_exhausted) << first.message;
    EXPECT_EQ(first.reason, StopReason::time_limit);
    EXPECT_EQ(first.stats.expanded, 0u);
  }
  // The same on the exact search used directly.
  ExactPathSearch search(mesh);
  QueryOptions direct_options;
  direct_options.return_partial = false;
  direct_options.budget.max_time = std::chrono::microseconds(20);
  const PathResult direct = search.find_path(mesh.locate(start), mesh.locate(goal), direct_options);
  EXPECT_EQ(direct.status, SearchStatus::budget_exhausted);
  EXPECT_EQ(direct.reason, StopReason::time_limit);
  EXPECT_EQ(direct.stats.expanded, 0u);
  direct_options.budget.max_time = std::chrono::nanoseconds(0);
  const PathResult later = search.find_path(mesh.locate(start), mesh.locate(goal), direct_options);
  ASSERT_TRUE(later.found()) << later.message;
  EXPECT_NEAR(later.cost, std::hypot(199.0, 199.0), 1e-9);
}

// Off-mesh links are not taken by the exact search: a mesh with links is refused, not answered
// with a path that ignores them.
TEST(ExactPaths, MeshesWithOffMeshLinksAreRefused) {
  NavMesh mesh = NavMesh::build(square_grid(3, 1, {false, true, false}));
  OffMeshLink link;
  link.start = {0.9, 0.0, 0.5};
  link.end = {2.1, 0.0, 0.5};
  mesh.add_off_mesh_link(link);
  ExactPathSearch search(mesh);
  const PathResult refused = search.find_path(mesh.locate({0.5, 0, 0.5}), mesh.locate({2.5, 0, 0.5}));
  EXPECT_EQ(refused.status, SearchStatus::invalid_input);
  EXPECT_NE(refused.message.find("off-mesh links"), std::string::npos) << refused.message;
  NavMeshQuery query(mesh);
  NavMeshSearchOptions options;
  options.nodes = CorridorNodes::optimal;
  EXPECT_EQ(query.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}, options).status, SearchStatus::invalid_input);
}

// Stepping: begin() then step() by a few expansions at a time ends with the result find_path
// gives (the same path, cost and statistics but time), on random meshes with holes and on
// aurora-merged when the data is there; NavMeshQuery's begin/step does the same.
void expect_same_answer(const PathResult& stepped, const PathResult& whole) {
  EXPECT_EQ(stepped.status, whole.status);
  EXPECT_EQ(stepped.reason, whole.reason);
  EXPECT_EQ(stepped.points, whole.points);
  EXPECT_EQ(stepped.nodes, whole.nodes);
  EXPECT_EQ(stepped.cost, whole.cost);
  EXPECT_EQ(stepped.stats.expanded, whole.stats.expanded);
  EXPECT_EQ(stepped.stats.generated, whole.stats.generated);
}

PathResult run_in_steps(ExactPathSearch& search, const MeshLocation& start, const MeshLocation& goal,
                        std::uint64_t per_step, const QueryOptions& options = {}) {
  SearchStatus status = search.begin(start, goal, options);
  std::uint64_t steps = 0, last_expanded = 0;
  while (status == SearchStatus::in_progress) {
    EXPECT_EQ(search.result().status, SearchStatus::in_progress);
    status = search.step(StepBudget::expansions(per_step));
    const std::uint64_t expanded = search.stats().expanded;
    EXPECT_GE(expanded, last_expanded);
    last_expanded = expanded;
    if (++steps > 10'000'000) {
      ADD_FAILURE() << "the stepped search does not end";
      break;
    }
  }
  return search.result();
}

TEST(ExactPaths, SteppedSearchesEndWithTheOneShotResult) {
  constexpr int columns = 8, rows = 8;
  std::mt19937 random(20261124);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<bool> blocked(columns * rows);
    for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = random() % 100 < 25;
    open_corner_touches(blocked, columns, rows);
    const NavMesh mesh =
        NavMesh::build(square_grid(columns, rows, blocked, trial % 2 == 1, static_cast<std::uint32_t>(random())));
    ExactPathSearch whole(mesh), stepped(mesh);
    std::uniform_real_distribution<double> coordinate(0.0, double(columns));
    for (int q = 0; q < 10; ++q) {
      const MeshLocation start = mesh.locate({coordinate(random), 0.0, coordinate(random)});
      const MeshLocation goal = mesh.locate({coordinate(random), 0.0, coordinate(random)});
      if (!start.valid() || !goal.valid()) continue;
      SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(q));
      QueryOptions options;
      options.partial_when_unreachable = q % 3 == 0;  // some unreachable goals searched to the end
      const PathResult expected = whole.find_path(start, goal, options);
      for (const std::uint64_t per_step : {std::uint64_t{1}, std::uint64_t{3}})
        expect_same_answer(run_in_steps(stepped, start, goal, per_step, options), expected);
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);

  // A budget spread over steps ends where the one-shot query's does.
  const NavMesh open_mesh = NavMesh::build(square_grid(6, 6, {}, true, 5));
  ExactPathSearch whole(open_mesh), stepped(open_mesh);
  QueryOptions tight;
  tight.budget.max_expansions = 3;
  const MeshLocation from = open_mesh.locate({0.5, 0, 0.5}), to = open_mesh.locate({5.5, 0, 5.7});
  const PathResult expected = whole.find_path(from, to, tight);
  EXPECT_EQ(expected.status, SearchStatus::partial);
  expect_same_answer(run_in_steps(stepped, from, to, 1, tight), expected);

  // Before any begin(): invalid_input, saying so.
  ExactPathSearch fresh(open_mesh);
  EXPECT_EQ(fresh.result().status, SearchStatus::invalid_input);
  EXPECT_NE(fresh.result().message.find("begin()"), std::string::npos);
}

TEST(ExactPaths, SteppedSearchesOnAuroraMergedEndWithTheOneShotResult) {
  const std::filesystem::path mesh_path = data_directory() / "meshes" / "polyanya" / "meshes" / "aurora-merged.mesh";
  const std::filesystem::path queries_path = data_directory() / "meshes" / "derived" / "aurora_polyanya_optimal.csv";
  if (!std::filesystem::exists(mesh_path) || !std::filesystem::exists(queries_path)) {
    if (data_required()) FAIL() << "missing " << mesh_path << " or " << queries_path;
    GTEST_SKIP() << "no mesh data";
  }
  const NavMesh mesh = NavMesh::build(read_polyanya_mesh(mesh_path));
  const std::vector<MeshQueryCase> queries = read_mesh_queries(queries_path);
  ExactPathSearch whole(mesh), stepped(mesh);
  NavMeshQuery query(mesh);
  NavMeshSearchOptions options;
  options.nodes = CorridorNodes::optimal;
  const std::size_t stride = sanitized_build() ? 400 : 60;
  for (std::size_t i = 0; i < queries.size(); i += stride) {
    SCOPED_TRACE("query " + std::to_string(i));
    const Point start{queries[i].start.x, 0.0, queries[i].start.z}, goal{queries[i].goal.x, 0.0, queries[i].goal.z};
    const MeshLocation from = mesh.locate(start), to = mesh.locate(goal);
    const PathResult expected = whole.find_path(from, to);
    ASSERT_TRUE(expected.found());
    expect_same_answer(run_in_steps(stepped, from, to, 50), expected);
    // Through NavMeshQuery, 25 expansions a step.
    SearchStatus status = query.begin(start, goal, options);
    while (status == SearchStatus::in_progress) status = query.step(25);
    expect_same_answer(query.result(), expected);
  }
}

// A trace of an exact search: one `closed` event per expansion, every node it names readable
// with exact_search_node (its interval on an edge of the polygon it was made in, the root not
// beyond it), and every turn of the path a root of a traced node.
TEST(ExactPaths, TracesNameIntervalsAndRoots) {
  std::vector<bool> blocked(8 * 8, false);
  for (int z = 0; z < 6; ++z) blocked[static_cast<std::size_t>(z * 8 + 4)] = true;
  const NavMesh mesh = NavMesh::build(square_grid(8, 8, blocked, true, 3));
  NavMeshQuery query(mesh);
  SearchTrace trace;
  NavMeshSearchOptions options;
  options.nodes = CorridorNodes::optimal;
  options.trace = &trace;
  const PathResult result = query.find_path({1.5, 0.0, 1.5}, {6.5, 0.0, 1.5}, options);
  ASSERT_TRUE(result.found());
  std::size_t closed = 0;
  std::vector<Point> roots;
  for (const TraceRecord& record : trace.events()) {
    const auto node = query.exact_search_node(record.node);
    ASSERT_TRUE(node.has_value()) << "node " << record.node;
    closed += record.event == TraceEvent::closed ? 1 : 0;
    EXPECT_EQ(record.g, node->g);
    EXPECT_EQ(record.parent, node->parent);
    roots.push_back(node->root);
    // The interval lies on a boundary edge of the polygon beyond it.
    const auto vertices = mesh.polygon_vertices(node->polygon);
    bool on_an_edge = false;
    for (std::size_t j = 0; j < vertices.size(); ++j) {
      const Point& a = mesh.vertex(vertices[j]);
      const Point& b = mesh.vertex(vertices[(j + 1) % vertices.size()]);
      auto on_segment = [&](const Point& p) {
        const double along = std::hypot(p.x - a.x, p.z - a.z) + std::hypot(b.x - p.x, b.z - p.z);
        return std::abs(along - std::hypot(b.x - a.x, b.z - a.z)) < 1e-9;
      };
      on_an_edge = on_an_edge || (on_segment(node->left) && on_segment(node->right));
    }
    EXPECT_TRUE(on_an_edge) << "node " << record.node;
    const Point middle = query.corridor_node_position(record.node);
    EXPECT_NEAR(middle.x, (node->left.x + node->right.x) / 2, 1e-12);
  }
  EXPECT_EQ(closed, result.stats.expanded);
  for (std::size_t i = 1; i + 1 < result.points.size(); ++i)
    EXPECT_NE(std::find(roots.begin(), roots.end(), result.points[i]), roots.end()) << "turn " << i;
  EXPECT_FALSE(query.exact_search_node(1'000'000).has_value());
  // Another mode's query has no exact nodes.
  options.nodes = CorridorNodes::edge_points;
  query.find_path({1.5, 0.0, 1.5}, {6.5, 0.0, 1.5}, options);
  EXPECT_FALSE(query.exact_search_node(0).has_value());
}

}  // namespace
}  // namespace wayfinder
