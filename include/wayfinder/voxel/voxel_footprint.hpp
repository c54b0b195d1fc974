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
//
// VoxelFootprint is the footprint world as derived data of the world (docs/architecture.md,
// "Query objects"): built once by the caller for a width and kind of agent, shared read-only by
// the queries (VoxelQuery::set_footprint) and kept up to date from the world's change log.

#include <cstdint>
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

/// The footprint world of one width and kind of agent (walker or flyer) for one world, as shared
/// derived data: built once, searched read-only by any number of queries at once
/// (VoxelQuery::set_footprint), brought up to date after edits by update(). It records the
/// revision of the world it describes; its own world has its own revision and change log, which
/// record the footprint blocks that update() changed (VoxelHierarchy::update of a wide agent's
/// hierarchy reads them). Memory: about one byte per block of the world (the stored chunks of
/// the footprint world), whatever number of queries share it.
class VoxelFootprint {
 public:
  /// Builds the footprint world of `world` for the profile's agent_width and kind (fly); the
  /// profile's other fields do not matter. Keeps a reference to `world`, which must outlive it.
  /// Reads every block of the world agent_width^2 (a flyer: ^3) times. Throws
  /// std::invalid_argument for an agent_width that is not 2 or 3 (width 1 searches the world
  /// itself) and for a world too small for the agent (footprint_world_problem).
  VoxelFootprint(const VoxelWorld& world, const MovementProfile& profile);
  VoxelFootprint(const VoxelWorld&& world, const MovementProfile& profile) = delete;

  /// The footprint world: what a wide agent's searches run on. Its revision() counts the
  /// footprint blocks changed by update(); changes_since() lists them.
  [[nodiscard]] const VoxelWorld& world() const { return footprint_; }
  /// The world it was built for.
  [[nodiscard]] const VoxelWorld& source_world() const { return source_; }
  [[nodiscard]] int agent_width() const { return shape_.agent_width; }
  [[nodiscard]] bool fly() const { return shape_.fly; }
  /// True when it serves agents of this profile: the same agent_width and kind (fly).
  [[nodiscard]] bool fits(const MovementProfile& profile) const {
    return profile.agent_width == shape_.agent_width && profile.fly == shape_.fly;
  }
  /// True when it serves agents of this profile on `world` now: built for `world`, fits(profile)
  /// and current() (footprint_fit_problem says which fails).
  [[nodiscard]] bool serves(const VoxelWorld& world, const MovementProfile& profile) const {
    return &world == &source_ && fits(profile) && current();
  }
  /// The revision of source_world() it describes.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// True when the world has not been edited since the build or the last update.
  [[nodiscard]] bool current() const { return source_.revision() == revision_; }

  /// Brings the footprint world up to the world's revision from its change log: an edited block
  /// at (x, y, z) can change only the footprint blocks of the corners in [x - w + 1, x] x {y} x
  /// [z - w + 1, z] (a flyer: y too, like x and z), which are computed again, and those that
  /// differ are set, so that the footprint world's own revision and log record exactly them.
  /// When the log does not reach back to revision() (or the world's log was restarted), every
  /// footprint block is computed again, still setting only those that differ. Guarantees:
  /// afterwards world() equals footprint_world(source_world(), profile) block for block, and
  /// revision() is the world's. Returns how many footprint blocks changed (0 when current).
  /// Precondition: exclusive access (no query searches it meanwhile), as for the world's edits.
  std::size_t update();

 private:
  /// Computes the footprint blocks of the corners in [low, high] (inclusive, clipped to the
  /// footprint world) again and sets those that differ.
  void refresh(VoxelCoord low, VoxelCoord high);

  const VoxelWorld& source_;
  MovementProfile shape_;  ///< only agent_width and fly are read
  VoxelWorld footprint_;
  std::uint64_t revision_ = 0;
};

/// No value if `footprint` serves agents of `profile` on `world` now: built for that world, the
/// profile's agent_width and kind, and current. Otherwise why not, as a predicate of the
/// footprint ("was built for agents 2 blocks wide, not 3: build one for this agent_width",
/// "is behind its world: ... call VoxelFootprint::update() first").
[[nodiscard]] std::optional<std::string> footprint_fit_problem(const VoxelFootprint& footprint, const VoxelWorld& world,
                                                               const MovementProfile& profile);

/// Rewrites node ids of `footprint` (a footprint world of `world`) as the ids of the same
/// positions in `world`.
void footprint_nodes_to_world(const VoxelWorld& footprint, const VoxelWorld& world, std::vector<NodeId>& nodes);

}  // namespace wayfinder
