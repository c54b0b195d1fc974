#include "viewer/voxel_blocks.hpp"

#include <cstdint>
#include <shared_mutex>
#include <string>

#include "viewer/request_fields.hpp"

namespace wayfinder::viewer {

Json voxel_block_box_json(const CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  if (world.kind != WorldKind::voxel)
    refuse("only voxel worlds have blocks; world " + std::to_string(world.id) + " is a " +
           std::string(to_string(world.kind)));
  const VoxelWorld& voxels = *world.voxels;
  const auto from = coordinates(request, "from", 2, true);
  const auto size = coordinates(request, "size", 2, true);
  // In 64 bits: a corner plus a size of two ints may not fit an int.
  const auto x0 = static_cast<std::int64_t>(from[0]), z0 = static_cast<std::int64_t>(from[1]);
  const auto width = static_cast<std::int64_t>(size[0]), depth = static_cast<std::int64_t>(size[1]);
  const std::string world_size = std::to_string(voxels.size_x()) + "x" + std::to_string(voxels.size_y()) + "x" +
                                 std::to_string(voxels.size_z());
  if (width < 1 || depth < 1)
    refuse("\"size\" [" + std::to_string(width) + ", " + std::to_string(depth) + "] must be positive");
  if (x0 < 0 || z0 < 0 || x0 + width > voxels.size_x() || z0 + depth > voxels.size_z())
    refuse("the columns \"from\" [" + std::to_string(x0) + ", " + std::to_string(z0) + "] of \"size\" [" +
           std::to_string(width) + ", " + std::to_string(depth) + "] are not inside the " + world_size + " world");
  const auto count = width * depth * voxels.size_y();
  if (static_cast<std::uint64_t>(count) > limits.max_voxel_blocks)
    refuse("\"size\" [" + std::to_string(width) + ", " + std::to_string(depth) + "] holds " + std::to_string(count) +
           " blocks (" + std::to_string(voxels.size_y()) + " high); at most " + std::to_string(limits.max_voxel_blocks) +
           " are sent at once: ask for fewer columns");

  std::string blocks(static_cast<std::size_t>(count), '0');
  const std::shared_lock lock(world.access);
  std::size_t i = 0;
  for (int y = 0; y < voxels.size_y(); ++y)
    for (auto z = z0; z < z0 + depth; ++z)
      for (auto x = x0; x < x0 + width; ++x, ++i)
        blocks[i] = static_cast<char>('0' + static_cast<int>(voxels.block(static_cast<int>(x), y, static_cast<int>(z))));
  Json json;
  json["world"] = world.id;
  json["revision"] = voxels.revision();
  json["from"] = {x0, z0};
  json["size"] = {width, voxels.size_y(), depth};
  json["blocks"] = std::move(blocks);
  return json;
}

}  // namespace wayfinder::viewer
