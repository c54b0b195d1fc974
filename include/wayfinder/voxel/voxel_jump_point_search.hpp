#pragma once
// Jump point search for flying agents in voxel worlds: the 26-neighbour moves of
// VoxelFlyingDomain (costs 1, sqrt 2, sqrt 3 times fly_cost; a move needs every block of the
// 2 x 2 (x 2) box it crosses to be non-solid), searched with the pruning of a canonical
// ordering and jumps over the nodes that pruning leaves with one successor. Optimal, like A*.
//
// The canonical ordering is "diagonal first", JPS's own (Harabor & Grastien 2011, "Online Graph
// Pruning for Pathfinding on Grid Maps"; Sturtevant & Rabin 2016, "Canonical Orderings on
// Grids") lifted to 26 neighbours: in open space a path is a run of 3D diagonal moves, then a
// run of 2D diagonal moves whose axes are among the 3D move's, then straight moves along one of
// those axes. So a node reached by a 3D diagonal move d continues with d, its three 2D parts
// and its three straight parts; one reached by a 2D diagonal continues with it and its two
// straight parts; one reached by a straight move only straight on (the natural successors).
//
// Forced successors come from the exchange argument that proves the pruning sound, made
// mechanical: for a move d into node n (from p = n - d) and a move e out of n that is not
// natural, the canonical arrangement of the octile path from p to n + e (at most two moves, so
// inside n's 3 x 3 x 3 neighbourhood) costs less than d then e, or the same with the moves in
// canonical order. Where all of its blocks are free, the pruned path has an equal or cheaper
// replacement that does not pass through n; where one of them is solid, e is forced. The
// blocks that must be free are tabulated per (d, e) once (less those that the moves d and e
// themselves already need), so a node's forced successors are a few mask tests on its 27-bit
// neighbourhood. Forcing more than needed is always sound; these rules force only where the
// replacement is blocked.
//
// Jumps follow the canonical order: a straight jump runs until the next block is solid, the
// goal, a node with a forced successor or the jump bound; a diagonal walk does the same and,
// at every step, runs the jumps of its natural parts (2D walks and straight jumps for a 3D
// walk, straight jumps for a 2D walk). What those find becomes a successor of the node the
// walk started from, at the cost of the canonical path there (Harabor & Grastien 2014,
// "Improving Jump Point Search": diagonal cells never enter the open list). Jumps are bounded
// (VoxelJumpLimits; stopping a jump anywhere and handing its node to the search is always
// sound): unbounded, the nested scans sweep whole octants of the benchmark's open halls and are
// hundreds of times slower than A*. The defaults, straight jumps of up to 8 blocks and diagonal
// moves one at a time, make it a canonical A* with straight jumps: see docs/voxel.md.

#include <cstdint>
#include <vector>

#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

/// How far jumps go before they hand their node to the search (bounded jumps). Any bounds give
/// optimal paths; they trade scanning against open-list work (docs/voxel.md has the numbers).
/// The defaults were the fastest on the MovingAI voxel benchmark (docs/voxel.md): straight jumps
/// of up to 8 blocks, diagonal moves one at a time (so no nested jumps).
struct VoxelJumpLimits {
  int straight = 8;  ///< steps of a straight jump from an expanded node
  int diagonal = 1;  ///< steps of a 2D or 3D diagonal walk from an expanded node
  int nested = 8;    ///< steps of the jumps a diagonal walk runs from each of its nodes
};

class VoxelJumpPointDomain {
 public:
  VoxelJumpPointDomain(const VoxelWorld& world, Cost fly_cost, NodeId goal, VoxelJumpLimits limits = {});

  [[nodiscard]] std::size_t node_count() const { return world_.node_count(); }
  [[nodiscard]] const VoxelWorld& world() const { return world_; }

  /// The 3D octile distance (VoxelFlyingDomain's heuristic).
  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const;

  /// The jump points reached from `node`, entered from `parent` (invalid_node: the start,
  /// which jumps in all 26 directions).
  template <class Sink>
  void for_each_successor(NodeId node, NodeId parent, Sink&& sink) const {
    found_.clear();
    successors(node, parent, found_);
    for (const Successor& next : found_) sink(next.node, next.cost);
  }

  struct Successor {
    NodeId node;
    Cost cost;
  };
  /// The same into a list (cleared first).
  void successors(NodeId node, NodeId parent, std::vector<Successor>& out) const;

 private:
  struct Walk;
  const VoxelWorld& world_;
  Cost fly_cost_;
  VoxelCoord goal_at_;
  VoxelJumpLimits limits_;
  mutable std::vector<Successor> found_;
};

static_assert(ParentAwareDomain<VoxelJumpPointDomain>);

/// Expands a path of jump points into every block it passes through: between two jump points
/// the canonical path (3D diagonal moves, then 2D diagonal moves, then straight moves).
/// `blocks` must not be `jump_points`; its memory is reused.
void expand_voxel_jump_points(const VoxelWorld& world, const std::vector<NodeId>& jump_points,
                              std::vector<NodeId>& blocks);

}  // namespace wayfinder
