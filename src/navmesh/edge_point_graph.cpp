#include "navmesh/edge_point_graph.hpp"

#include <cmath>
#include <limits>

#include "navmesh/search_tables.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

namespace {

// Which vertices are reflex corners of the walkable boundary: they touch a wall edge and the
// polygons around them cover more than half a turn.
std::vector<std::uint8_t> find_reflex_corners(const NavMesh& mesh) {
  std::vector<double> angle(mesh.vertex_count(), 0.0);
  std::vector<std::uint8_t> on_boundary(mesh.vertex_count(), 0);
  for (std::uint32_t polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
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
  std::vector<std::uint8_t> corner(mesh.vertex_count(), 0);
  constexpr double half_turn = 3.14159265358979323846;
  for (std::size_t v = 0; v < corner.size(); ++v) corner[v] = on_boundary[v] && angle[v] > half_turn + 1e-9;
  return corner;
}

// The distance seen from above (as the corridor search measures), rounded up to float.
float rounded_up_distance(const Point& a, const Point& b) {
  const double length = geometry::distance_xz(a, b);
  float cost = static_cast<float>(length);
  if (static_cast<double>(cost) < length) cost = std::nextafter(cost, std::numeric_limits<float>::infinity());
  return cost;
}

}  // namespace

EdgePointGraph::EdgePointGraph(const NavMesh& mesh) {
  const std::size_t edges = mesh.shared_edge_count();
  const std::vector<std::uint8_t> reflex_corner = find_reflex_corners(mesh);
  positions_.resize(edges * 2 * points_per_edge);
  entered_.resize(edges * 2 * points_per_edge);
  corner_points_.assign(edges * 2 * points_per_edge, 0);
  for (std::uint32_t e = 0; e < edges; ++e) {
    const NavMesh::SharedEdge& edge = mesh.shared_edge(e);
    const Point& a = mesh.vertex(edge.vertex_a);
    const Point& b = mesh.vertex(edge.vertex_b);
    auto along = [&](double t) { return geometry::lerp(a, b, t); };
    const Point points[points_per_edge] = {along(end_inset), along(0.5), along(1.0 - end_inset)};
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

  exit_starts_.assign(mesh.polygon_count() + 1, 0);
  exits_.reserve(edges * 2);  // every shared edge leaves each of its two polygons once
  for (std::uint32_t polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    for (std::uint32_t j = 0; j < mesh.polygon_vertices(polygon).size(); ++j) {
      const std::uint32_t e = SearchTables::shared_edge_of_slot(mesh, SearchTables::edge_slot(mesh, polygon, j));
      if (e == invalid_node) continue;
      const std::uint32_t direction = mesh.shared_edge(e).polygon_a == polygon ? 0 : 1;
      exits_.push_back((e * 2 + direction) * points_per_edge);
    }
    exit_starts_[polygon + 1] = static_cast<std::uint32_t>(exits_.size());
  }

  onward_starts_.assign(positions_.size() + 1, 0);
  // Sized first (every exit of the entered polygon but the node's own edge), so that the
  // array grows once: the graph is built again on every tile change.
  std::size_t onward_count = 0;
  for (NodeId node = 0; node < positions_.size(); ++node) onward_count += exits(entered_[node]).size() - 1;
  onward_.reserve(onward_count);
  constexpr float unused = std::numeric_limits<float>::infinity();
  for (NodeId node = 0; node < positions_.size(); ++node) {
    const Point& here = positions_[node];
    for (NodeId first : exits(entered_[node])) {
      if (shared_edge_of(first) == shared_edge_of(node)) continue;
      const NodeId last = first + points_per_edge - 1;
      onward_.push_back({first, corner_points_[first] ? rounded_up_distance(here, positions_[first]) : unused,
                         corner_points_[last] ? rounded_up_distance(here, positions_[last]) : unused});
    }
    onward_starts_[node + 1] = static_cast<std::uint32_t>(onward_.size());
  }
}

}  // namespace wayfinder
