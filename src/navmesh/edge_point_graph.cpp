#include "navmesh/edge_point_graph.hpp"

#include <array>
#include <cmath>
#include <span>
#include <limits>

#include "navmesh/search_tables.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

namespace {

// Adds polygon's corner angles to its vertices' totals and marks the ends of its walls.
void add_corner_angles(const NavMesh& mesh, std::uint32_t polygon, std::vector<double>& angle,
                       std::vector<std::uint8_t>& on_boundary) {
  const auto indices = mesh.polygon_vertices(polygon);
  const auto neighbours = mesh.polygon_neighbours(polygon);
  const std::size_t n = indices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point& previous = mesh.vertex(indices[(i + n - 1) % n]);
    const Point& here = mesh.vertex(indices[i]);
    const Point& next = mesh.vertex(indices[(i + 1) % n]);
    angle[indices[i]] +=
        std::atan2(std::abs(geometry::cross_xz(here, previous, next)), geometry::dot_xz(here, previous, next));
    if (neighbours[i] == invalid_node) {  // edge i runs from vertex i to vertex i + 1
      on_boundary[indices[i]] = 1;
      on_boundary[indices[(i + 1) % n]] = 1;
    }
  }
}

// Which vertices are reflex corners of the walkable boundary: they touch a wall edge and the
// polygons around them cover more than half a turn. Only `polygons` (ascending, so that each
// vertex's angles add up in the order of a whole-mesh pass) are looked at: the answer holds for
// vertices whose polygons are all among them.
template <class Polygons>
std::vector<std::uint8_t> find_reflex_corners(const NavMesh& mesh, const Polygons& polygons) {
  std::vector<double> angle(mesh.vertex_count(), 0.0);
  std::vector<std::uint8_t> on_boundary(mesh.vertex_count(), 0);
  for (const std::uint32_t polygon : polygons) add_corner_angles(mesh, polygon, angle, on_boundary);
  std::vector<std::uint8_t> corner(mesh.vertex_count(), 0);
  constexpr double half_turn = 3.14159265358979323846;
  for (std::size_t v = 0; v < corner.size(); ++v) corner[v] = on_boundary[v] && angle[v] > half_turn + 1e-9;
  return corner;
}

// Every polygon id of a mesh, in order.
struct AllPolygons {
  std::uint32_t count;
  struct Iterator {
    std::uint32_t at;
    std::uint32_t operator*() const { return at; }
    Iterator& operator++() {
      ++at;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at != other.at; }
  };
  [[nodiscard]] Iterator begin() const { return {0}; }
  [[nodiscard]] Iterator end() const { return {count}; }
};

// The distance seen from above (as the corridor search measures), rounded up to float.
float rounded_up_distance(const Point& a, const Point& b) {
  const double length = geometry::distance_xz(a, b);
  float cost = static_cast<float>(length);
  if (static_cast<double>(cost) < length) cost = std::nextafter(cost, std::numeric_limits<float>::infinity());
  return cost;
}

// The two end points and the crossing point of a shared edge, in the order of its nodes.
std::array<Point, EdgePointGraph::points_per_edge> edge_points(const NavMesh& mesh, const NavMesh::SharedEdge& edge) {
  const Point& a = mesh.vertex(edge.vertex_a);
  const Point& b = mesh.vertex(edge.vertex_b);
  return {geometry::lerp(a, b, EdgePointGraph::end_inset), geometry::lerp(a, b, 0.5),
          geometry::lerp(a, b, 1.0 - EdgePointGraph::end_inset)};
}

}  // namespace

EdgePointGraph::EdgePointGraph(const NavMesh& mesh) {
  const std::size_t edges = mesh.shared_edge_count();
  const std::vector<std::uint8_t> reflex_corner =
      find_reflex_corners(mesh, AllPolygons{static_cast<std::uint32_t>(mesh.polygon_count())});
  positions_.resize(edges * 2 * points_per_edge);
  entered_.resize(edges * 2 * points_per_edge);
  corner_points_.assign(edges * 2 * points_per_edge, 0);
  for (std::uint32_t e = 0; e < edges; ++e) {
    const NavMesh::SharedEdge& edge = mesh.shared_edge(e);
    const auto points = edge_points(mesh, edge);
    for (std::uint32_t direction = 0; direction < 2; ++direction) {
      const NodeId first = (e * 2 + direction) * points_per_edge;
      for (std::uint32_t k = 0; k < points_per_edge; ++k) {
        positions_[first + k] = points[k];
        entered_[first + k] = direction == 0 ? edge.polygon_b : edge.polygon_a;
      }
      corner_points_[first] = reflex_corner[edge.vertex_a];
      corner_points_[first + points_per_edge - 1] = reflex_corner[edge.vertex_b];
    }
  }
  build_exits(mesh);
  build_onward(nullptr, nullptr, nullptr);
}

EdgePointGraph::EdgePointGraph(const NavMesh& mesh, const NavMesh& before_mesh, const EdgePointGraph& before,
                               std::span<const std::uint32_t> near, std::span<const std::uint32_t> around) {
  const std::size_t edges = mesh.shared_edge_count();
  // Corners are known for the vertices of the polygons near the change (all their polygons are
  // around it); farther vertices kept their polygons, and so their corners.
  const std::vector<std::uint8_t> reflex_corner = find_reflex_corners(mesh, around);
  // A polygon is reused when its corners, neighbours and the corner flags of its shared edges'
  // ends are those before; then so is every node entering it, up to the numbering of edges.
  std::vector<std::uint8_t> reused(mesh.polygon_count(), 1);
  std::vector<std::uint32_t> new_to_old(edges, invalid_node);
  auto same_polygon = [&](std::uint32_t polygon) {
    if (polygon >= before_mesh.polygon_count()) return false;
    const auto indices = mesh.polygon_vertices(polygon), old_indices = before_mesh.polygon_vertices(polygon);
    const auto neighbours = mesh.polygon_neighbours(polygon), old_neighbours = before_mesh.polygon_neighbours(polygon);
    if (indices.size() != old_indices.size()) return false;
    for (std::uint32_t j = 0; j < indices.size(); ++j) {
      if (!(mesh.vertex(indices[j]) == before_mesh.vertex(old_indices[j])) || neighbours[j] != old_neighbours[j])
        return false;
      const std::uint32_t e = SearchTables::shared_edge_of_slot(mesh, SearchTables::edge_slot(mesh, polygon, j));
      const std::uint32_t old_e =
          SearchTables::shared_edge_of_slot(before_mesh, SearchTables::edge_slot(before_mesh, polygon, j));
      if ((e == invalid_node) != (old_e == invalid_node)) return false;
      if (e == invalid_node) continue;
      const NavMesh::SharedEdge &edge = mesh.shared_edge(e), &old_edge = before_mesh.shared_edge(old_e);
      const NodeId old_first = old_e * 2 * points_per_edge;
      if (edge.polygon_a != old_edge.polygon_a || edge.polygon_b != old_edge.polygon_b ||
          !(mesh.vertex(edge.vertex_a) == before_mesh.vertex(old_edge.vertex_a)) ||
          !(mesh.vertex(edge.vertex_b) == before_mesh.vertex(old_edge.vertex_b)) ||
          reflex_corner[edge.vertex_a] != before.corner_points_[old_first] ||
          reflex_corner[edge.vertex_b] != before.corner_points_[old_first + points_per_edge - 1])
        return false;
    }
    return true;
  };
  for (const std::uint32_t polygon : near) reused[polygon] = same_polygon(polygon) ? 1 : 0;
  for (std::uint32_t polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    if (!reused[polygon]) continue;
    const std::uint32_t first_slot = SearchTables::first_edge_slot(mesh, polygon);
    const std::uint32_t old_first_slot = SearchTables::first_edge_slot(before_mesh, polygon);
    const auto size = static_cast<std::uint32_t>(mesh.polygon_vertices(polygon).size());
    for (std::uint32_t j = 0; j < size; ++j) {
      const std::uint32_t e = SearchTables::shared_edge_of_slot(mesh, first_slot + j);
      if (e == invalid_node) continue;
      new_to_old[e] = SearchTables::shared_edge_of_slot(before_mesh, old_first_slot + j);
    }
  }

  positions_.resize(edges * 2 * points_per_edge);
  entered_.resize(edges * 2 * points_per_edge);
  corner_points_.assign(edges * 2 * points_per_edge, 0);
  for (std::uint32_t e = 0; e < edges; ++e) {
    const NavMesh::SharedEdge& edge = mesh.shared_edge(e);
    for (std::uint32_t direction = 0; direction < 2; ++direction) {
      const NodeId first = (e * 2 + direction) * points_per_edge;
      const std::uint32_t entered = direction == 0 ? edge.polygon_b : edge.polygon_a;
      if (reused[entered]) {
        const NodeId old_first = (new_to_old[e] * 2 + direction) * points_per_edge;
        for (std::uint32_t k = 0; k < points_per_edge; ++k) {
          positions_[first + k] = before.positions_[old_first + k];
          entered_[first + k] = entered;
          corner_points_[first + k] = before.corner_points_[old_first + k];
        }
        continue;
      }
      const auto points = edge_points(mesh, edge);
      for (std::uint32_t k = 0; k < points_per_edge; ++k) {
        positions_[first + k] = points[k];
        entered_[first + k] = entered;
      }
      corner_points_[first] = reflex_corner[edge.vertex_a];
      corner_points_[first + points_per_edge - 1] = reflex_corner[edge.vertex_b];
    }
  }
  build_exits(mesh);
  build_onward(&before, &reused, &new_to_old);
}

void EdgePointGraph::build_exits(const NavMesh& mesh) {
  const std::size_t edges = mesh.shared_edge_count();
  exit_starts_.assign(mesh.polygon_count() + 1, 0);
  exits_.reserve(edges * 2);  // every shared edge leaves each of its two polygons once
  for (std::uint32_t polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    const std::uint32_t first_slot = SearchTables::first_edge_slot(mesh, polygon);
    const auto size = static_cast<std::uint32_t>(mesh.polygon_vertices(polygon).size());
    for (std::uint32_t j = 0; j < size; ++j) {
      const std::uint32_t e = SearchTables::shared_edge_of_slot(mesh, first_slot + j);
      if (e == invalid_node) continue;
      const std::uint32_t direction = mesh.shared_edge(e).polygon_a == polygon ? 0 : 1;
      exits_.push_back((e * 2 + direction) * points_per_edge);
    }
    exit_starts_[polygon + 1] = static_cast<std::uint32_t>(exits_.size());
  }
}

void EdgePointGraph::build_onward(const EdgePointGraph* before, const std::vector<std::uint8_t>* reused,
                                  const std::vector<std::uint32_t>* new_to_old) {
  // Sized first, so that the array is written once: every node entering a polygon with m exits
  // goes on by the m - 1 others, and 3 nodes per exit enter it.
  onward_starts_.assign(positions_.size() + 1, 0);
  std::size_t onward_count = 0;
  for (std::size_t polygon = 0; polygon + 1 < exit_starts_.size(); ++polygon) {
    const std::size_t m = exit_starts_[polygon + 1] - exit_starts_[polygon];
    if (m > 0) onward_count += points_per_edge * m * (m - 1);
  }
  onward_.resize(onward_count);
  constexpr float unused = std::numeric_limits<float>::infinity();
  Exit* out = onward_.data();
  std::uint32_t* starts = onward_starts_.data();
  std::uint32_t at = 0;
  // The three nodes of a directed edge enter one polygon and go on by the same exits.
  for (std::uint32_t directed = 0; directed < positions_.size() / points_per_edge; ++directed) {
    const NodeId node = directed * points_per_edge;
    const std::uint32_t entered = entered_[node];
    const std::uint32_t edge = directed / 2;
    const std::span<const NodeId> onward = exits(entered);
    if (reused != nullptr && (*reused)[entered]) {
      // The same exits in the same order as before, with the same costs: only the numbers of
      // their edges may have changed, and exits() has the new ones.
      const NodeId old_node = ((*new_to_old)[edge] * 2 + directed % 2) * points_per_edge;
      const Exit* old_exit = before->onward_.data() + before->onward_starts_[old_node];
      for (std::uint32_t k = 0; k < points_per_edge; ++k) {
        for (const NodeId first : onward) {
          if (shared_edge_of(first) == edge) continue;
          out[at++] = {first, old_exit->cost_to_first_end, old_exit->cost_to_last_end};
          ++old_exit;
        }
        starts[node + k + 1] = at;
      }
      continue;
    }
    for (std::uint32_t k = 0; k < points_per_edge; ++k) {
      const Point& here = positions_[node + k];
      for (const NodeId first : onward) {
        if (shared_edge_of(first) == edge) continue;
        const NodeId last = first + points_per_edge - 1;
        out[at++] = {first, corner_points_[first] ? rounded_up_distance(here, positions_[first]) : unused,
                     corner_points_[last] ? rounded_up_distance(here, positions_[last]) : unused};
      }
      starts[node + k + 1] = at;
    }
  }
}

}  // namespace wayfinder
