// The footprint world of agents wider than one column (see voxel_footprint.hpp).

#include "wayfinder/voxel/voxel_footprint.hpp"

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

void footprint_nodes_to_world(const VoxelWorld& footprint, const VoxelWorld& world, std::vector<NodeId>& nodes) {
  for (NodeId& node : nodes) node = world.node_of(footprint.coord_of(node));
}

}  // namespace wayfinder
