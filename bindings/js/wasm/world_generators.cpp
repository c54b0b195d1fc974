// Worlds the WebAssembly module makes for the page that uses it (the web viewer's static site):
// the grids of rooms `wayfinder serve` generates (tools/common/room_map_generator), seeded
// voxel terrain (generate_voxel_world, docs/voxel.md) and every block of a voxel world in one
// call, so that a page draws a world of millions of blocks without a call per block. The
// handles are the C API's; these functions are the module's own, not part of wayfinder.h.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/room_map_generator.hpp"
#include "handles.hpp"
#include "query_calls.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/voxel/voxel_world.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

extern "C" {

/// A grid of rooms joined by corridors, with forest and swamp patches (RoomMapOptions; the
/// server's `"generate"` request). Errors as wf_grid_create.
__attribute__((used, visibility("default"))) wf_status wf_js_grid_generate_rooms(int width, int height,
                                                                                 std::uint64_t seed, int rooms,
                                                                                 wf_grid** out_grid, char* error,
                                                                                 std::size_t error_capacity) {
  return create_world(out_grid, &wf_grid::map, error, error_capacity, [&] {
    RoomMapOptions options;
    options.width = width;
    options.height = height;
    options.seed = seed;
    options.room_count = rooms;
    return std::make_unique<GridMap>(generate_room_map(options).map);
  });
}

/// Seeded terrain with caves and lakes of size_x x size_y x size_z blocks, the other
/// VoxelWorldGeneratorOptions at their defaults but the memory limit: the default 4 GiB does not
/// fit this module's 32-bit size_t (it would read as 0), and its memory grows to 2 GiB at most,
/// so a world estimated above 1 GiB is refused. Errors as wf_voxel_world_create.
__attribute__((used, visibility("default"))) wf_status wf_js_voxel_world_generate(int size_x, int size_y, int size_z,
                                                                                  std::uint64_t seed,
                                                                                  wf_voxel_world** out_world,
                                                                                  char* error,
                                                                                  std::size_t error_capacity) {
  return create_world(out_world, &wf_voxel_world::world, error, error_capacity, [&] {
    VoxelWorldGeneratorOptions options;
    options.size_x = size_x;
    options.size_y = size_y;
    options.size_z = size_z;
    options.seed = seed;
    options.max_memory_bytes = std::size_t{1} << 30;
    return std::make_unique<VoxelWorld>(generate_voxel_world(options));
  });
}

/// Every block as a wf_block_kind, at index (y * size_z + z) * size_x + x (wf_voxel_world_create's
/// order), into `blocks`, which holds size_x * size_y * size_z bytes.
__attribute__((used, visibility("default"))) wf_status wf_js_voxel_world_blocks(const wf_voxel_world* world,
                                                                                std::uint8_t* blocks) {
  if (!is_live(world, OnWrongHandle::stay_silent) || blocks == nullptr) return WF_INVALID_ARGUMENT;
  const VoxelWorld& voxels = *world->world;
  std::size_t i = 0;
  for (int y = 0; y < voxels.size_y(); ++y)
    for (int z = 0; z < voxels.size_z(); ++z)
      for (int x = 0; x < voxels.size_x(); ++x) blocks[i++] = static_cast<std::uint8_t>(voxels.block(x, y, z));
  return WF_OK;
}
}
