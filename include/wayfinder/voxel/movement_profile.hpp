#pragma once
// What an agent can do in a voxel world, and what each kind of move costs.
//
// A walking agent is a column of `agent_height` blocks; its position is its feet block. It may
// be at a position whose blocks are all non-solid and where it is held: standing (the block
// below is solid or a ladder), climbing (its feet block is a ladder) or swimming (its feet block
// is water). From there:
//
// - walk: to a neighbouring column at the same height (4 or 8 directions; a diagonal needs both
//   side columns clear for the agent's whole height). Cost walk_cost, or diagonal_cost.
// - fall: walk off a ledge and drop until held again, at most max_fall blocks. Cost of the walk
//   plus fall_cost per block fallen.
// - step up: onto a solid block up to step_height higher in a neighbouring column, with
//   clearance above the agent for the rise. Cost of the walk plus step_up_cost per block risen.
// - jump (only when standing on a solid block): rise jump_height blocks, travel 1 to
//   jump_distance + 1 columns in a cardinal direction at that height (across a gap of up to
//   jump_distance blocks), then drop onto the first place that holds it, at most max_fall
//   blocks below the take-off. Every column crossed needs clearance at the raised height.
//   Cost walk_cost per column, plus jump_cost, plus step_up_cost per block ended higher or
//   fall_cost per block ended lower. (Jumps that a cheaper or equal walk makes redundant are
//   not generated: a one-column jump that does not end higher, and a jump over a column the
//   agent could walk onto and jump again from.)
// - swim (feet in water, when `swim`): one block in any of the 6 axis directions to a place
//   that holds it; cost swim_cost. A swimmer leaves the water by swimming to a place where it
//   stands, or by a step up.
// - climb (feet in a ladder, when `climb`): one block up, or down into a ladder block below
//   the feet (also from standing on a ladder's top); cost climb_cost.
//
// A flying agent (`fly`) occupies one block and moves to any of its 26 neighbours through
// non-solid blocks, with costs 1, sqrt 2 and sqrt 3 times fly_cost, and no corner cutting: a
// move needs every block of the 2 x 2 (x 2) box it crosses to be non-solid. This is the rule of
// the MovingAI voxel benchmark (Brewer & Sturtevant, "Benchmarks for Pathfinding in 3D Voxel
// Space", SoCS 2018).
//
// A wider agent (agent_width 2 or 3) occupies a square of agent_width x agent_width columns; its
// position is the corner of that square with the lowest x and z (and, for a flyer, the lowest
// y), and its body reaches agent_width - 1 blocks towards +x and +z from there. It follows the
// rules above applied to its footprint: every block of its body must be free, over the whole
// move (a diagonal move clears the swept box of every cell of the body, as it does for one
// column), and it is held when the rules above hold for the footprint's blocks taken together:
// standing needs at least one solid block (or ladder top) under the footprint. The exact rule,
// and why "at least one" rather than "all": voxel_footprint.hpp and docs/voxel.md.

#include <optional>
#include <string>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct MovementProfile {
  // The accepted ranges of the integer fields (profile_problem checks them): wide enough for
  // any game agent, small enough that the move generator's loops stay short.
  static constexpr int agent_height_limit = 64;
  static constexpr int agent_width_limit = 3;
  static constexpr int step_height_limit = 8;
  static constexpr int jump_height_limit = 16;
  static constexpr int jump_distance_limit = 16;
  static constexpr int max_fall_limit = 256;

  /// Blocks of clearance the agent needs, its feet block included (1 to 64).
  int agent_height = 2;
  /// Columns across the agent's square footprint (1 to 3): its body is agent_width x
  /// agent_width columns of agent_height blocks, or for a flyer a cube of agent_width blocks.
  /// Positions name the footprint's corner of lowest x and z (see above).
  int agent_width = 1;
  /// 4: cardinal walking only; 8: diagonals too.
  int walk_directions = 8;
  /// The highest ledge the agent walks up without jumping (0 to 8 blocks).
  int step_height = 1;
  /// How far a jump lifts the agent above its take-off (0 to 16 blocks; 0 disables jumping).
  int jump_height = 1;
  /// The widest gap a jump crosses (0 to 16 blocks): it lands up to jump_distance + 1 columns away.
  int jump_distance = 2;
  /// The deepest safe fall (0 to 256 blocks), for walking off ledges and for landing after jumps.
  int max_fall = 3;
  /// Whether the agent swims through water; without it, water blocks are avoided entirely.
  bool swim = true;
  /// Whether the agent climbs ladders.
  bool climb = true;
  /// A flying agent: 26-neighbour moves through non-solid blocks; the fields above, but for
  /// agent_width, are ignored.
  bool fly = false;

  Cost walk_cost = 1.0;        ///< per cardinal step
  Cost diagonal_cost = sqrt2;  ///< per diagonal step
  Cost step_up_cost = 0.5;     ///< extra per block risen (a one-block step up costs 1.5)
  Cost jump_cost = 1.0;        ///< extra per jump
  Cost fall_cost = 0.5;        ///< extra per block fallen: a deeper fall costs more
  Cost swim_cost = 2.0;        ///< per block swum
  Cost climb_cost = 1.5;       ///< per block climbed
  Cost fly_cost = 1.0;         ///< multiplies the flying lengths 1, sqrt 2, sqrt 3

  friend bool operator==(const MovementProfile&, const MovementProfile&) = default;

  /// A person-sized walker with the defaults above.
  static MovementProfile walker() { return {}; }
  /// A one-block flying agent, as in the voxel benchmark.
  static MovementProfile flyer() {
    MovementProfile profile;
    profile.agent_height = 1;
    profile.fly = true;
    return profile;
  }
};

/// No value if the profile is usable, otherwise what is wrong with it.
std::optional<std::string> profile_problem(const MovementProfile& profile);

}  // namespace wayfinder
