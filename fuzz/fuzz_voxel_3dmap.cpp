// Fuzzes the MovingAI voxel benchmark readers (.3dmap and .3dscen): any bytes must either parse
// or throw LoadError, never crash, hang or trip a sanitizer. Inputs are read as both formats;
// a map that parses is searched once by a flyer.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const wayfinder::VoxelScenario scenario = wayfinder::parse_voxel_scenario(text, "fuzz.3dscen");
    if (scenario.source_name != "fuzz.3dscen") std::abort();
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.3dscen") std::abort();
  }
  wayfinder::VoxelWorld world;
  try {
    world = wayfinder::parse_voxel_benchmark_map(text, "fuzz.3dmap");
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.3dmap") std::abort();
    return 0;
  }
  if (world.size_x() < 1 || world.size_y() < 1 || world.size_z() < 1) std::abort();
  const wayfinder::VoxelCoord corner{0, 0, 0};
  const wayfinder::VoxelCoord far{world.size_x() - 1, world.size_y() - 1, world.size_z() - 1};
  if (world.solid(0, 0, 0) || world.solid(far.x, far.y, far.z)) return 0;
  wayfinder::VoxelQuery pathfinder(world, wayfinder::MovementProfile::flyer());
  wayfinder::VoxelSearchOptions options;
  options.budget.max_expansions = 20'000;
  const wayfinder::PathResult result = pathfinder.find_path(corner, far, options);
  if (result.status == wayfinder::SearchStatus::invalid_input) std::abort();
  return 0;
}
