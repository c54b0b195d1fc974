#pragma once
// Where an agent can be in a voxel world: why a position is refused, the nearest position that
// is not (to move a start or goal a user picked by eye onto a usable place), and a count and
// spread-out sample of all of them (a first look at an unknown world).
//
// The rules are those of movement_profile.hpp. A walking agent can be at a position when it is
// inside the world, the `agent_height` blocks from its feet up are not solid (nor water, unless
// it swims), and it is held: standing on a solid block or a ladder, climbing (feet in a ladder,
// when it climbs) or swimming (feet in water, when it swims). A flying agent needs one block
// inside the world that is not solid. Start and goal of every query must be such places. An agent
// wider than one column (agent_width > 1) is placed by the corner of its footprint and follows
// the same rules on its footprint blocks (voxel_footprint.hpp): its whole body inside the world
// and free, at least one solid block or ladder under its footprint.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

/// "(x,y,z)", the way voxel messages name a block.
std::string voxel_coord_text(VoxelCoord at);

/// True if an agent with this profile can be at `at`.
bool voxel_place_allowed(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at);

/// No value if an agent with this profile can be at `at`; otherwise the first check that fails,
/// naming the block that fails it, for example
///   "(10,1,10) is outside the world (size 64x32x64)"
///   "(10,1,10) is inside a solid block"
///   "(10,1,10): a solid block at head height (10,2,10)"
///   "(10,1,10): water at head height (10,2,10), and the agent does not swim"
///   "(10,1,10): the block below (10,0,10) is air, so nothing holds the agent"
/// The checks run in that order: inside the world, the feet block, the body from the feet up,
/// then what holds the agent.
std::optional<std::string> voxel_place_problem(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at);

/// The largest distance nearest_voxel_place searches.
inline constexpr int max_snap_distance = 64;

/// The place nearest to `at` where the agent can be, at most `max_distance` blocks away
/// (straight-line distance between block positions), or nullopt if there is none. `at` itself
/// when it is allowed. Among places at the same distance the higher one wins (a user who names
/// the floor block under a spot means the place on top of it), then the lower z, then the lower
/// x, so the answer is deterministic. `at` may lie outside the world. Costs up to
/// (2 max_distance + 1)^3 place checks. Throws std::invalid_argument unless
/// 0 <= max_distance <= max_snap_distance.
std::optional<VoxelCoord> nearest_voxel_place(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at,
                                              int max_distance);

/// Every place where the agent can be, ordered by y, then z, then x. Reads every block of the
/// world: for large worlds, prefer sample_voxel_places.
std::vector<VoxelCoord> all_voxel_places(const VoxelWorld& world, const MovementProfile& profile);

struct VoxelPlaceSample {
  /// How many places the agent can be at, in the whole world.
  std::uint64_t place_count = 0;
  /// Up to the requested number of them, spread out (see sample_voxel_places).
  std::vector<VoxelCoord> places;
};

/// Counts the places where the agent can be and picks up to `count` of them spread over the
/// world: the first is the one nearest the world's centre, each next one is the farthest from
/// those already picked (farthest-point sampling, Gonzalez 1985), chosen among at most 4096
/// evenly strided candidates so that the cost stays two passes over the world. The same world
/// and profile always give the same places.
VoxelPlaceSample sample_voxel_places(const VoxelWorld& world, const MovementProfile& profile, std::size_t count);

}  // namespace wayfinder
