#pragma once
// Reading the MovingAI voxel benchmark (Brewer & Sturtevant, "Benchmarks for Pathfinding in 3D
// Voxel Space", SoCS 2018):
//
//   .3dmap   first line `voxel W H D`, then one `x y z` line (0-based) per blocked voxel.
//   .3dscen  `version 1`, the map's file name, then one query per line:
//            `sx sy sz gx gy gz optimal_length heuristic_ratio`.
//
// The file's (x, y, z) are the world's (x, y, z): W, H and D are size_x, size_y and size_z.
// Blocked voxels become solid blocks. Fields are separated by spaces or tabs; lines end in LF or
// CRLF; blank lines are ignored. Errors throw LoadError with the file, line and column.

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

VoxelWorld parse_voxel_benchmark_map(std::string_view text, const std::string& source_name);
VoxelWorld read_voxel_benchmark_map(const std::filesystem::path& path);

struct VoxelScenarioQuery {
  VoxelCoord start;
  VoxelCoord goal;
  double optimal_length = 0.0;
  double heuristic_ratio = 0.0;  ///< optimal length / heuristic estimate, as the file gives it
  int line = 0;                  ///< line number in the file, for messages
};

struct VoxelScenario {
  std::string source_name;
  std::string map_name;  ///< the map's file name, as the second line gives it
  std::vector<VoxelScenarioQuery> queries;
};

/// With `max_queries`, stops after that many queries: the rest is neither read nor checked (the
/// file is read a piece at a time, so only as far as those queries).
VoxelScenario parse_voxel_scenario(std::string_view text, const std::string& source_name,
                                   std::size_t max_queries = std::numeric_limits<std::size_t>::max());
VoxelScenario read_voxel_scenario(const std::filesystem::path& path,
                                  std::size_t max_queries = std::numeric_limits<std::size_t>::max());

/// The map that belongs to a scenario file: its path minus the `.3dscen` suffix.
std::filesystem::path voxel_scenario_map_path(const std::filesystem::path& scenario_path);

/// No value if the scenario was written for the map at `map_path`, otherwise
/// "this scenario was written for Simple.3dmap, not Complex.3dmap". The file names are
/// compared (the scenario's second line may hold a path); a scenario run on another map gets
/// other optimal lengths, so every answer would look wrong.
std::optional<std::string> voxel_scenario_map_mismatch(const VoxelScenario& scenario, const std::filesystem::path& map_path);

/// Throws LoadError if a query's start or goal is outside the world or on a solid block.
void check_voxel_scenario_fits_world(const VoxelScenario& scenario, const VoxelWorld& world);

}  // namespace wayfinder
