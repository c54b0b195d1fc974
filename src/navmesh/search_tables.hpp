#pragma once
// What only the searches read of a NavMesh: edge slots (one per polygon edge, numbered polygon
// by polygon), the shared edge of each slot, the bridges behind dead-end pruning, and the
// corridor search's edge-point graph. The mesh builds them with its geometry and links (the
// bridges in nav_mesh_regions.cpp, the graph in edge_point_graph.cpp); the searches reach them
// here, as inline reads of the mesh's own arrays.

#include <cstddef>
#include <cstdint>

#include "navmesh/edge_point_graph.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

class SearchTables {
 public:
  /// Index of edge j of `polygon` among all polygon edges (0 .. edge_slot_count() - 1).
  [[nodiscard]] static std::uint32_t edge_slot(const NavMesh& mesh, PolygonId polygon, std::uint32_t j) {
    return mesh.polygon_starts_[polygon] + j;
  }
  [[nodiscard]] static std::uint32_t first_edge_slot(const NavMesh& mesh, PolygonId polygon) {
    return mesh.polygon_starts_[polygon];
  }
  [[nodiscard]] static std::size_t edge_slot_count(const NavMesh& mesh) { return mesh.polygon_indices_.size(); }
  /// The shared (two-sided) edge an edge slot belongs to, or invalid_node for a wall.
  [[nodiscard]] static std::uint32_t shared_edge_of_slot(const NavMesh& mesh, std::uint32_t slot) {
    return mesh.slot_shared_edge_[slot];
  }

  /// False when crossing shared edge `edge` into polygon `entered` cannot be part of a
  /// shortest path to `goal`: the edge is a bridge of the polygon adjacency (the only way
  /// between its two sides) and the goal is not on the entered side, so the path would have to
  /// come back over the same edge. Such dead ends are left out of corridor searches (the
  /// dead-end pruning of Björnsson & Halldórsson 2006, exact here because bridges are known).
  /// Off-mesh links count as edges (both ways) when bridges are found, so an edge with a link
  /// around it is no bridge and a pocket a link leads into is never pruned.
  [[nodiscard]] static bool leads_towards(const NavMesh& mesh, std::uint32_t edge, PolygonId entered, PolygonId goal) {
    const NavMesh::Bridges& bridges = mesh.bridges_;
    const PolygonId child = bridges.children[edge];
    if (child == invalid_polygon) return true;
    const bool goal_below_child = bridges.enter[child] <= bridges.enter[goal] && bridges.enter[goal] < bridges.exit[child];
    return entered == child ? goal_below_child : !goal_below_child;
  }

  /// The graph of points on shared edges that corridor searches walk (edge_point_graph.hpp).
  [[nodiscard]] static const EdgePointGraph& edge_point_graph(const NavMesh& mesh) { return *mesh.edge_point_graph_; }
};

}  // namespace wayfinder
