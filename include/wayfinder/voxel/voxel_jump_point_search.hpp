#pragma once
// Jump point search for flying agents in voxel worlds: the 26-neighbour moves of
// VoxelFlyingDomain (costs 1, sqrt 2, sqrt 3 times fly_cost; a move needs every block of the
// 2 x 2 (x 2) box it crosses to be non-solid), pruned by JPS's "diagonal first" canonical
// ordering lifted to 26 neighbours (Harabor & Grastien 2011; Sturtevant & Rabin 2016), with
// forced successors tabulated per pair of moves and bounded jumps (Harabor & Grastien 2014).
// Optimal, like A*; bounded jumps are always sound (VoxelJumpLimits). The pruning rules, why
// they keep optimality, and the tuning behind the default bounds: docs/voxel.md, "Jump point
// search for flyers".

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
