#pragma once
// `wayfinder voxel generate --size X,Y,Z --seed S`: builds a seeded world of terrain, caves and
// lakes in memory (voxel_world_generator.hpp), says how long that took and how much memory the
// world holds, and with `--queries N` runs N walking and N flying queries across the world
// (from one end of its x axis to the other), reporting per algorithm the search times,
// expansions and the memory each query's search state takes. With `--algo hpa` it first builds
// each profile's VoxelHierarchy and reports its build time, size and memory.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <vector>

#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world_generator.hpp"

namespace wayfinder::cli {

struct VoxelGenerateArguments {
  VoxelWorldGeneratorOptions world;
  std::uint64_t max_memory_mib = 4096;
  std::uint64_t queries = 0;  ///< cross-world pairs, each run walking and flying
  std::vector<VoxelAlgorithm> algorithms{VoxelAlgorithm::astar, VoxelAlgorithm::weighted_astar};
  double weight = 2.0;
  std::uint64_t max_expansions = 0;  ///< 0: no limit
  /// One pathfinder per profile for all the queries (its pages are reused, as a game's would
  /// be), instead of a new one per query (whose memory is then that query's alone).
  bool reuse_pathfinder = false;
  /// For hpa: the hierarchy's cluster side, its build threads, and the most places it may hold
  /// (a flyer's hierarchy of a world mostly of air is skipped past this).
  std::uint64_t cluster_size = 16;
  std::uint64_t build_threads = 2;
  std::uint64_t hierarchy_max_places = 50'000'000;
  bool json = false;
};

void configure_voxel_generate_command(CLI::App& command, VoxelGenerateArguments& arguments);

/// Returns 0, or 1 when an answer fails its check (a weighted A* path dearer than weight x the
/// A* path of the same query, a pair one algorithm connects and another does not); throws
/// std::invalid_argument for options the generator or the search refuses.
int run_voxel_generate_command(const VoxelGenerateArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
