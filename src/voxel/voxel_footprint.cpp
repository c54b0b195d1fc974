// The footprint world of agents wider than one column (see voxel_footprint.hpp).

#include "wayfinder/voxel/voxel_footprint.hpp"

#include <algorithm>
#include <stdexcept>

namespace wayfinder {

namespace {

/// How much smaller than the world the footprint world is along each axis.
VoxelCoord footprint_shrink(const MovementProfile& profile) {
  const int extra = profile.agent_width - 1;
  return {extra, profile.fly ? extra : 0, extra};
}

}  // namespace

BlockKind footprint_block(const VoxelWorld& world, const MovementProfile& profile, int x, int y, int z) {
  const int width = profile.agent_width;
  const int layers = profile.fly ? width : 1;
  bool water = false;
  bool ladder = false;
  for (int k = 0; k < layers; ++k)
    for (int dz = 0; dz < width; ++dz)
      for (int dx = 0; dx < width; ++dx) {
        const BlockKind kind = world.block(x + dx, y + k, z + dz);
        if (kind == BlockKind::solid) return BlockKind::solid;
        water = water || kind == BlockKind::water;
        ladder = ladder || kind == BlockKind::ladder;
      }
  if (profile.fly) return BlockKind::air;  // a flyer moves through every block that is not solid
  return water ? BlockKind::water : ladder ? BlockKind::ladder : BlockKind::air;
}

bool footprint_inside(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  const VoxelCoord shrink = footprint_shrink(profile);
  return at.x >= 0 && at.y >= 0 && at.z >= 0 && at.x < world.size_x() - shrink.x && at.y < world.size_y() - shrink.y &&
         at.z < world.size_z() - shrink.z;
}

std::optional<std::string> footprint_world_problem(const VoxelWorld& world, const MovementProfile& profile) {
  const VoxelCoord shrink = footprint_shrink(profile);
  if (world.size_x() > shrink.x && world.size_y() > shrink.y && world.size_z() > shrink.z) return {};
  return "the world (size " + std::to_string(world.size_x()) + "x" + std::to_string(world.size_y()) + "x" +
         std::to_string(world.size_z()) + ") is narrower than the agent (" + std::to_string(profile.agent_width) +
         " blocks wide)";
}

VoxelWorld footprint_world(const VoxelWorld& world, const MovementProfile& profile) {
  if (const std::optional<std::string> problem = footprint_world_problem(world, profile))
    throw std::invalid_argument(*problem);
  const VoxelCoord shrink = footprint_shrink(profile);
  return VoxelWorld::from_function(world.size_x() - shrink.x, world.size_y() - shrink.y, world.size_z() - shrink.z,
                                   [&](int x, int y, int z) { return footprint_block(world, profile, x, y, z); });
}

namespace {

/// The profile a footprint is built for, checked: a width of 2 or 3 on a world with room for it.
const MovementProfile& checked_footprint_profile(const VoxelWorld& world, const MovementProfile& profile) {
  if (profile.agent_width < 2 || profile.agent_width > MovementProfile::agent_width_limit)
    throw std::invalid_argument("voxel footprint: agent_width must be 2 to " +
                                std::to_string(MovementProfile::agent_width_limit) + ", got " +
                                std::to_string(profile.agent_width) + " (agents one block wide search the world itself)");
  if (const std::optional<std::string> problem = footprint_world_problem(world, profile))
    throw std::invalid_argument("voxel footprint: " + *problem);
  return profile;
}

}  // namespace

VoxelFootprint::VoxelFootprint(const VoxelWorld& world, const MovementProfile& profile)
    : source_(world),
      shape_(checked_footprint_profile(world, profile)),
      footprint_(footprint_world(world, profile)),
      revision_(world.revision()) {}

std::optional<std::string> footprint_fit_problem(const VoxelFootprint& footprint, const VoxelWorld& world,
                                                 const MovementProfile& profile) {
  if (&footprint.source_world() != &world) return "was built for another world";
  if (footprint.agent_width() != profile.agent_width)
    return "was built for agents " + std::to_string(footprint.agent_width()) + " blocks wide, not " +
           std::to_string(profile.agent_width) + ": build one for this agent_width";
  auto kind = [](bool fly) { return fly ? "flyers" : "walkers"; };
  if (footprint.fly() != profile.fly)
    return std::string("was built for ") + kind(footprint.fly()) + ", not " + kind(profile.fly) +
           ": build one for this kind of agent";
  if (!footprint.current())
    return "is behind its world: the world was edited since the footprint was built or updated (footprint at revision " +
           std::to_string(footprint.revision()) + ", world at " + std::to_string(world.revision()) +
           "): call VoxelFootprint::update() first";
  return {};
}

std::size_t VoxelFootprint::update() {
  if (current()) return 0;
  const std::uint64_t before = footprint_.revision();
  const VoxelCoord reach = footprint_shrink(shape_);  // an edit reaches the corners this far below it
  if (const auto changes = source_.changes_since(revision_)) {
    for (const VoxelBlockChange& change : *changes)
      refresh({change.at.x - reach.x, change.at.y - reach.y, change.at.z - reach.z}, change.at);
  } else {
    refresh({0, 0, 0}, {footprint_.size_x() - 1, footprint_.size_y() - 1, footprint_.size_z() - 1});
  }
  revision_ = source_.revision();
  return static_cast<std::size_t>(footprint_.revision() - before);
}

void VoxelFootprint::refresh(VoxelCoord low, VoxelCoord high) {
  const int x_last = std::min(high.x, footprint_.size_x() - 1);
  const int y_last = std::min(high.y, footprint_.size_y() - 1);
  const int z_last = std::min(high.z, footprint_.size_z() - 1);
  for (int y = std::max(low.y, 0); y <= y_last; ++y)
    for (int z = std::max(low.z, 0); z <= z_last; ++z)
      for (int x = std::max(low.x, 0); x <= x_last; ++x)
        footprint_.set_block(x, y, z, footprint_block(source_, shape_, x, y, z));  // logged only if it differs
}

void footprint_nodes_to_world(const VoxelWorld& footprint, const VoxelWorld& world, std::vector<NodeId>& nodes) {
  for (NodeId& node : nodes) node = world.node_of(footprint.coord_of(node));
}

}  // namespace wayfinder
