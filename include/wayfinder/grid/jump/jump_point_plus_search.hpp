#pragma once
// JPS+ (Rabin 2015, "JPS+: An Extreme A* Speed Optimization for Static Uniform Cost Grids", Game
// AI Pro 2; offline jump points as in Harabor & Grastien 2014, "Improving Jump Point Search"):
// jump point search whose jumps are looked up in a GridJumpTable instead of scanned. It prunes
// exactly as JumpPointDomain (the same successors): the MovingAI rules (8-connected, no corner
// cutting), uniform costs, optimal. The goal, which is no jump point in the table, is found by
// Rabin's "target jump point" checks on every jump.
//
// With GridGoalBounds (Rabin & Sturtevant 2016, "Combining Bounding Boxes and JPS to Prune Grid
// Pathfinding", AAAI) it also skips every jump whose first move's box of goals excludes the
// goal, and stays optimal. Why both are sound: docs/grid.md, "JPS+: preprocessed jump points"
// and "Goal bounding".

#include <algorithm>
#include <cstdlib>

#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/jump/jump_point_search.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

class JumpPointPlusDomain {
 public:
  /// `table` must fit `map` (GridJumpTable::mismatch is nullopt); both must outlive the domain.
  /// `bounds`, when not null, must fit `map` too and outlive the domain.
  JumpPointPlusDomain(const GridMap& map, const GridJumpTable& table, NodeId goal,
                      const GridGoalBounds* bounds = nullptr)
      : map_(map), table_(table), bounds_(bounds), goal_(goal), goal_cell_(map.cell_of(goal)) {}

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const { return octile_cell_distance(map_, from, to); }

  template <class Sink>
  void for_each_successor(NodeId node, NodeId parent, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    // The directions JumpPointDomain would scan.
    detail::for_each_jump_direction(map_, parent, at, [&](int dx, int dy) { jump(at, node, dx, dy, sink); });
  }

 private:
  // A straight jump from `at` by (dx, dy), `walked` already paid to reach `at` from the node
  // being expanded.
  template <class Sink>
  WAYFINDER_FORCE_INLINE void straight(Cell at, int dx, int dy, Cost walked, Sink& sink) const {
    const int distance = table_.distance(map_.id_of(at), jump_direction_index(dx, dy));
    // The goal ahead on this line, within reach?
    const int to_goal = dy == 0 ? (goal_cell_.y == at.y ? (goal_cell_.x - at.x) * dx : 0)
                                : (goal_cell_.x == at.x ? (goal_cell_.y - at.y) * dy : 0);
    if (to_goal > 0 && to_goal <= std::abs(distance)) {
      sink(goal_, walked + to_goal);
      return;
    }
    if (distance > 0) sink(map_.id_of(at.x + dx * distance, at.y + dy * distance), walked + distance);
  }

  template <class Sink>
  void diagonal(Cell from, int dx, int dy, Sink& sink) const {
    const int direction = jump_direction_index(dx, dy);
    const int along_x = jump_direction_index(dx, 0);
    const int along_y = jump_direction_index(0, dy);
    Cell at = from;
    Cost walked = 0.0;
    while (true) {
      const int distance = table_.distance(map_.id_of(at), direction);
      const int steps = std::abs(distance);
      if (steps == 0) return;
      // Does this stretch of the diagonal cross the goal's row or column ahead?
      const int gx = (goal_cell_.x - at.x) * dx;
      const int gy = (goal_cell_.y - at.y) * dy;
      if (gx > 0 && gy > 0) {
        const int k = std::min(gx, gy);
        if (k <= steps) {
          const Cell cross{at.x + dx * k, at.y + dy * k};
          const Cost to_cross = walked + k * sqrt2;
          if (gx == gy) {
            sink(goal_, to_cross);
            return;
          }
          const int rest = gx > gy ? gx - gy : gy - gx;
          const int reach = table_.distance(map_.id_of(cross), gx > gy ? along_x : along_y);
          // The octile distance from the walk's node: nothing through it can do better.
          if (rest <= std::abs(reach)) {
            sink(goal_, to_cross + rest);
            return;
          }
        }
      }
      if (distance < 0) return;
      at.x += dx * steps;
      at.y += dy * steps;
      walked += steps * sqrt2;
      if (bounds_ == nullptr) {
        straight(at, dx, 0, walked, sink);
        straight(at, 0, dy, walked, sink);
        continue;
      }
      const NodeId id = map_.id_of(at);
      if (admitted(id, along_x)) straight(at, dx, 0, walked, sink);
      if (admitted(id, along_y)) straight(at, 0, dy, walked, sink);
      if (!admitted(id, direction)) return;
    }
  }

  // Whether the goal is in the box of leaving `cell` in `direction` (always, without bounds).
  [[nodiscard]] WAYFINDER_FORCE_INLINE bool admitted(NodeId cell, int direction) const {
    return bounds_ == nullptr || bounds_->admits(cell, direction, goal_cell_.x, goal_cell_.y);
  }

  // The jump from the expanded node `node` (at `at`) by (dx, dy).
  template <class Sink>
  WAYFINDER_FORCE_INLINE void jump(Cell at, NodeId node, int dx, int dy, Sink& sink) const {
    if (!admitted(node, jump_direction_index(dx, dy))) return;
    if (dx != 0 && dy != 0)
      diagonal(at, dx, dy, sink);
    else
      straight(at, dx, dy, 0.0, sink);
  }

  const GridMap& map_;
  const GridJumpTable& table_;
  const GridGoalBounds* bounds_;
  NodeId goal_;
  Cell goal_cell_;
};

static_assert(ParentAwareDomain<JumpPointPlusDomain>);

}  // namespace wayfinder
