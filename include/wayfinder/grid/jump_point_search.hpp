#pragma once
// Jump point search (Harabor & Grastien 2011, "Online Graph Pruning for Pathfinding on Grid
// Maps"), with the no-corner-cutting rules of their 2012 system (a diagonal step needs both
// side cells free), which is the MovingAI rule. It is an expansion policy for the generic
// engine: the successors of a node are the jump points reached by scanning in the directions
// that the direction of travel leaves unpruned, so A* runs unchanged on top of it.
//
// Straight scans read 56 cells of a row (or, through the transposed bit grid, a column) per
// step and find blocked cells, forced neighbours and the goal with bit operations (Harabor &
// Grastien 2014, "Improving Jump Point Search"). Optimal on uniform-cost 8-connected grids.

#include <cstdint>

#include "wayfinder/core/domain.hpp"
#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_rules.hpp"

namespace wayfinder {

class JumpPointDomain {
 public:
  JumpPointDomain(const GridMap& map, NodeId goal)
      : map_(map), goal_cell_(map.cell_of(goal)) {}

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const {
    const Cell a = map_.cell_of(from);
    const Cell b = map_.cell_of(to);
    return grid_distance(Heuristic::octile, a.x - b.x, a.y - b.y);
  }

  template <class Sink>
  void for_each_successor(NodeId node, NodeId parent, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    if (parent == invalid_node) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx != 0 || dy != 0) jump_towards(at, dx, dy, sink);
      return;
    }
    const Cell from = map_.cell_of(parent);
    const int dx = (at.x > from.x) - (at.x < from.x);
    const int dy = (at.y > from.y) - (at.y < from.y);
    if (dx != 0 && dy != 0) {
      // Diagonal travel: the two straight directions and the diagonal itself; without corner
      // cutting there are no forced neighbours.
      jump_towards(at, dx, 0, sink);
      jump_towards(at, 0, dy, sink);
      jump_towards(at, dx, dy, sink);
    } else if (dx != 0) {
      jump_towards(at, dx, 0, sink);
      // A side cell is forced when the cell beside the one we came from is blocked.
      for (int side : {-1, 1}) {
        if (!map_.passable_unchecked(at.x - dx, at.y + side) && map_.passable_unchecked(at.x, at.y + side)) {
          jump_towards(at, 0, side, sink);
          jump_towards(at, dx, side, sink);
        }
      }
    } else {
      jump_towards(at, 0, dy, sink);
      for (int side : {-1, 1}) {
        if (!map_.passable_unchecked(at.x + side, at.y - dy) && map_.passable_unchecked(at.x + side, at.y)) {
          jump_towards(at, side, 0, sink);
          jump_towards(at, side, dy, sink);
        }
      }
    }
  }

  /// The first jump point (or the goal) scanning from `from` along a row or column; returns
  /// the distance in cells, or 0 if the scan hits an obstacle first.
  [[nodiscard]] int jump_straight(Cell from, int dx, int dy) const;
  /// The first diagonal step from which a straight scan finds something; 0 if none.
  [[nodiscard]] int jump_diagonal(Cell from, int dx, int dy) const;

 private:
  template <class Sink>
  void jump_towards(Cell at, int dx, int dy, Sink& sink) const {
    if (dx != 0 && dy != 0) {
      const int steps = jump_diagonal(at, dx, dy);
      if (steps > 0) sink(map_.id_of(at.x + dx * steps, at.y + dy * steps), steps * sqrt2);
    } else {
      const int steps = jump_straight(at, dx, dy);
      if (steps > 0) sink(map_.id_of(at.x + dx * steps, at.y + dy * steps), static_cast<Cost>(steps));
    }
  }

  const GridMap& map_;
  Cell goal_cell_;
};

static_assert(ParentAwareDomain<JumpPointDomain>);

/// Expands a path of jump points into every cell it passes through.
std::vector<NodeId> expand_jump_points(const GridMap& map, const std::vector<NodeId>& jump_points);

}  // namespace wayfinder
