#pragma once
// The graph the corridor search walks when it places its nodes on shared edges
// (CorridorNodes::edge_points). Built once with the mesh and read by every query.
//
// Each shared edge carries three points: its two ends, pulled in by a small fraction of its
// length so that the points of edges meeting at a corner stay apart, and a "crossing" point
// whose place each query chooses: where the straight line from the point it is reached from
// towards the goal crosses the edge (clamped between the two ends). Each point exists once per
// crossing direction, so a node means "crossing this edge here, into this polygon". Its
// successors are the points on the other shared edges of the polygon it enters, with the
// straight-line distance seen from above (the x-z plane, as path quality is measured) as cost:
// going back is never shorter, since a straight line across a convex polygon is the shortest
// way between two points of its boundary.
//
// Shortest paths on a mesh run straight except where they bend around a reflex corner of its
// boundary (Lee & Preparata 1984), so the end points model the bends and the crossing points
// the straight runs, in the spirit of Theta* (Nash et al. 2007) on the mesh's edges. The costs
// then follow true path lengths closely even across long, thin polygons, and the corridors
// found are nearly always those of the shortest paths. An end point is used only where its
// vertex is such a corner: on the boundary, with more than half a turn of walkable mesh around
// it; ends at other vertices, where no shortest path bends, would only add nodes.

#include <cstdint>
#include <span>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

class NavMesh;

class EdgePointGraph {
 public:
  /// Node 3 d + k is point k of directed edge d (d = 2 e for shared edge e crossed from its
  /// polygon_a into polygon_b, 2 e + 1 back); k = 0 and 2 are the ends, k = 1 the crossing point.
  static constexpr std::uint32_t points_per_edge = 3;
  static constexpr std::uint32_t crossing_point = 1;
  /// How far the end points sit from the edge's ends, as a fraction of its length.
  static constexpr double end_inset = 1e-3;

  EdgePointGraph() = default;
  explicit EdgePointGraph(const NavMesh& mesh);
  /// The graph of `mesh` after a change confined to the polygons `near` (ascending ids), made
  /// from `before`, the graph of `before_mesh` (the mesh before the change, with the same
  /// polygon ids): every polygon outside `near` must have the geometry and neighbours it had,
  /// and every polygon touching a vertex of a polygon in `near` must be in `around` (ascending).
  /// Nodes entering a polygon whose geometry, neighbours and edge-end corners did not change
  /// are copied from `before` (their exits renumbered), the others computed: the graph is the
  /// one `EdgePointGraph(mesh)` builds, at the cost of copying rather than measuring.
  EdgePointGraph(const NavMesh& mesh, const NavMesh& before_mesh, const EdgePointGraph& before,
                 std::span<const std::uint32_t> near, std::span<const std::uint32_t> around);

  [[nodiscard]] std::size_t node_count() const { return positions_.size(); }
  /// The fixed place of an end point (for a crossing point: the edge's midpoint).
  [[nodiscard]] const Point& position(NodeId node) const { return positions_[node]; }
  /// The polygon a node leads into.
  [[nodiscard]] std::uint32_t entered_polygon(NodeId node) const { return entered_[node]; }
  /// The shared edge a node lies on.
  [[nodiscard]] static std::uint32_t shared_edge_of(NodeId node) { return node / (2 * points_per_edge); }
  /// True if the end point `node` sits at a corner where paths bend (and so is used).
  [[nodiscard]] bool is_corner_point(NodeId node) const { return corner_points_[node] != 0; }

  /// An exit from the polygon a node enters: the first node of the edge it leaves by, and the
  /// distances from the node to that edge's two end points, rounded up to float (never below
  /// the true distance, which keeps the heuristic consistent); infinite for an end that is not
  /// a corner.
  struct Exit {
    NodeId first;
    float cost_to_first_end;
    float cost_to_last_end;
  };
  /// The exits a node can continue by: every other shared edge of the polygon it enters. (For a
  /// crossing point, whose place varies, the costs are not used.)
  [[nodiscard]] std::span<const Exit> onward_exits(NodeId node) const {
    return {onward_.data() + onward_starts_[node], onward_starts_[node + 1] - onward_starts_[node]};
  }
  /// The first nodes of the edges leaving `polygon`.
  [[nodiscard]] std::span<const NodeId> exits(std::uint32_t polygon) const {
    return {exits_.data() + exit_starts_[polygon], exit_starts_[polygon + 1] - exit_starts_[polygon]};
  }

 private:
  // The exits of every polygon, then each node's onward exits: measured for nodes entering a
  // polygon that is not `reused`, otherwise their costs copied from `before`'s node on edge
  // `new_to_old[edge]`.
  void build_exits(const NavMesh& mesh);
  void build_onward(const EdgePointGraph* before, const std::vector<std::uint8_t>* reused,
                    const std::vector<std::uint32_t>* new_to_old);

  std::vector<Point> positions_;
  std::vector<std::uint32_t> entered_;
  std::vector<std::uint8_t> corner_points_;
  std::vector<std::uint32_t> onward_starts_;
  std::vector<Exit> onward_;
  std::vector<std::uint32_t> exit_starts_;
  std::vector<NodeId> exits_;
};

}  // namespace wayfinder
