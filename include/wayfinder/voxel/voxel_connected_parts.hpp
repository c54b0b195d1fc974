#pragma once
// The connected parts of a voxel world for one agent: the places where it can be
// (voxel_places.hpp) grouped so that, within a part, the agent gets from any place to any other
// by the moves its search uses (VoxelFlyingDomain, VoxelWalkingDomain in voxel_domain.hpp),
// while a query from one part to another answers no_path. Worlds of rooftops, islands and pits
// have many parts; knowing them tells a user which start and goal can be joined before
// searching, and lets a benchmark draw pairs that have a path.
//
// Flying moves go both ways at the same cost (a move and its reverse cross the same box), so a
// flyer's parts are the connected components of its moves, labelled by a breadth-first flood.
// Walking moves do not (a fall or a jump down cannot always be walked back), so a walker's
// parts are the strongly connected components of its moves (Tarjan, "Depth-first search and
// linear graph algorithms", SIAM J. Computing 1972): a flood from one place would also take in
// places it reaches but cannot come back from. Places that a walker reaches only one way (the
// foot of a drop it cannot climb) are parts of their own.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

class VoxelConnectedParts {
 public:
  /// part_of() of a block where the agent cannot be, or outside the world.
  static constexpr std::uint32_t no_part = std::numeric_limits<std::uint32_t>::max();

  /// Labels every place of `world` for an agent with `profile`. Reads every block once and
  /// every move from every place once. Keeps 4 bytes per block of the world; while labelling it
  /// also holds 4 bytes per node id (VoxelWorld::node_count, the blocks rounded up to whole
  /// chunks and powers of two) and about 20 bytes per place (about 30 for walkers); a wide
  /// agent's (agent_width > 1) labelling also holds its footprint world (voxel_footprint.hpp), and
  /// its places are the corners of its body. Throws std::invalid_argument if
  /// profile_problem(profile) is not empty or the world is narrower than the agent. The result is a value: it does not refer to the
  /// world, and after an edit of the world it describes the world as it was
  /// (world_revision()).
  VoxelConnectedParts(const VoxelWorld& world, const MovementProfile& profile);

  /// The part of the place at `at`, or no_part when the agent cannot be there. Parts are
  /// numbered from 0 by decreasing size; parts of one size in the order of their first place
  /// (by y, then z, then x), so the same world and profile always give the same numbers.
  [[nodiscard]] std::uint32_t part_of(VoxelCoord at) const;
  /// The number of parts (0 for a world without places).
  [[nodiscard]] std::size_t part_count() const { return part_sizes_.size(); }
  /// The number of places in each part, indexed by part: not increasing.
  [[nodiscard]] const std::vector<std::uint64_t>& part_sizes() const { return part_sizes_; }
  /// The number of places in the world, the sum of part_sizes().
  [[nodiscard]] std::uint64_t place_count() const { return place_count_; }
  /// The places of `part`, ordered by y, then z, then x; empty for a part that does not exist.
  [[nodiscard]] std::vector<VoxelCoord> places_in(std::uint32_t part) const;
  /// The world's revision when it was labelled.
  [[nodiscard]] std::uint64_t world_revision() const { return world_revision_; }

 private:
  [[nodiscard]] std::size_t block_index(VoxelCoord at) const {
    return (static_cast<std::size_t>(at.y) * static_cast<std::size_t>(size_z_) + static_cast<std::size_t>(at.z)) *
               static_cast<std::size_t>(size_x_) +
           static_cast<std::size_t>(at.x);
  }

  int size_x_ = 0;
  int size_y_ = 0;
  int size_z_ = 0;
  std::uint64_t world_revision_ = 0;
  std::uint64_t place_count_ = 0;
  /// The part of each block, index (y * size_z + z) * size_x + x; no_part where no place is.
  std::vector<std::uint32_t> labels_;
  std::vector<std::uint64_t> part_sizes_;
};

}  // namespace wayfinder
