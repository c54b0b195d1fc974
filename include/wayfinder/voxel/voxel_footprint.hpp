#pragma once
// Agents wider than one column (MovementProfile::agent_width 2 or 3), seen as one-column agents
// of a derived world: the footprint world. Its block at (x, y, z) stands for the blocks the
// agent's footprint covers when its corner is at (x, y, z), so that the one-column move rules
// of movement_profile.hpp, applied unchanged to the footprint world, are the wide agent's rules
// on the real one (the configuration-space idea of Lozano-Pérez, "Spatial Planning: A
// Configuration Space Approach", IEEE Trans. Computers C-32(2), 1983, on a block grid).
//
// A walker's footprint block at (x, y, z) aggregates the layer of agent_width x agent_width
// blocks [x, x + w) x {y} x [z, z + w): it is solid if any of them is solid; otherwise water if
// any is water; otherwise a ladder if any is a ladder; otherwise air. Hence:
// - clearance: the body's blocks are free exactly when every footprint block of its height is,
//   and a diagonal move checks the two side footprints, which with both ends cover the whole
//   swept (w + 1) x (w + 1) square: no cell of the body cuts a corner;
// - support: an agent stands when at least one block under its footprint is solid (or, with no
//   water beside it, a ladder's top); docs/voxel.md ("Wide agents") says why not all;
// - swimming: feet in water when any block of the feet layer is water.
// A flyer's footprint block at (x, y, z) covers the cube [x, x + w)^3 and is solid if any block
// of it is, air otherwise; its 26-neighbour moves then check the swept box of the whole body.
//
// The footprint world is smaller than the world by w - 1 along x and z (and y, for a flyer), so
// that every position of it is a corner whose body lies inside the world; node ids of the two
// differ, coordinates do not.

#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

/// True when the agent is wider than one column, so searched on its footprint world.
[[nodiscard]] inline bool wide_agent(const MovementProfile& profile) { return profile.agent_width > 1; }

/// The footprint block of the agent's corner at (x, y, z) (rules above). Blocks outside the
/// world read as air, as VoxelWorld::block does. Precondition: 1 <= agent_width <= 3.
[[nodiscard]] BlockKind footprint_block(const VoxelWorld& world, const MovementProfile& profile, int x, int y, int z);

/// True when the agent's whole body with its corner at `at` lies inside the world along x and z
/// (a walker's head may rise above the world's top, as a one-column walker's does) and, for a
/// flyer, along y too.
[[nodiscard]] bool footprint_inside(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at);

/// No value if the world has room for the agent's footprint, otherwise why not ("the world
/// (size 2x8x9) is narrower than the agent (3 blocks wide)").
[[nodiscard]] std::optional<std::string> footprint_world_problem(const VoxelWorld& world, const MovementProfile& profile);

/// The footprint world of `world` for the profile's width and kind (walker or flyer). Reads
/// every block of the world agent_width^2 (a flyer: ^3) times. Throws std::invalid_argument
/// when footprint_world_problem has a value. Its revision is 0: it is a snapshot.
[[nodiscard]] VoxelWorld footprint_world(const VoxelWorld& world, const MovementProfile& profile);

/// Rewrites node ids of `footprint` (a footprint world of `world`) as the ids of the same
/// positions in `world`.
void footprint_nodes_to_world(const VoxelWorld& footprint, const VoxelWorld& world, std::vector<NodeId>& nodes);

}  // namespace wayfinder
