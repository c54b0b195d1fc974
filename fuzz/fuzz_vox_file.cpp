// Fuzzes the MagicaVoxel .vox reader: any bytes must either parse or throw LoadError, never
// crash, hang or trip a sanitizer. A world that parses is searched once by a walker and once
// by a flyer, to exercise the world as built.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace {

// Searches between the first and the last place the agent can be (in a bounded scan).
void search_once(const wayfinder::VoxelWorld& world, const wayfinder::MovementProfile& profile) {
  wayfinder::VoxelQuery pathfinder(world, profile);
  wayfinder::VoxelCoord first{-1, -1, -1};
  wayfinder::VoxelCoord last{-1, -1, -1};
  int scanned = 0;
  for (int y = 0; y < world.size_y() && scanned < 200'000; ++y)
    for (int z = 0; z < world.size_z() && scanned < 200'000; ++z)
      for (int x = 0; x < world.size_x() && scanned < 200'000; ++x, ++scanned)
        if (!pathfinder.position_problem({x, y, z})) {
          if (first.x < 0) first = {x, y, z};
          last = {x, y, z};
        }
  if (first.x < 0) return;
  wayfinder::VoxelSearchOptions options;
  options.budget.max_expansions = 20'000;
  const wayfinder::PathResult result = pathfinder.find_path(first, last, options);
  if (result.status == wayfinder::SearchStatus::invalid_input) std::abort();
  if (result.found() && (result.nodes.front() != world.node_of(first) || result.nodes.back() != world.node_of(last)))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  wayfinder::VoxReadOptions options;
  options.set_kind(2, wayfinder::BlockKind::water).set_kind(3, wayfinder::BlockKind::ladder);
  wayfinder::VoxelWorld world;
  try {
    world = wayfinder::parse_vox(bytes, "fuzz.vox", options);
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.vox") std::abort();
    return 0;
  }
  if (world.size_x() < 1 || world.size_y() < 1 || world.size_z() < 1) std::abort();
  search_once(world, wayfinder::MovementProfile::walker());
  search_once(world, wayfinder::MovementProfile::flyer());
  return 0;
}
