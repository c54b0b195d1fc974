#pragma once
// `wayfinder voxel bench FILE.3dscen`: runs every query of a MovingAI voxel scenario with a
// flying agent, checks each answer against the optimal length and times the searches.
// `wayfinder voxel bench FILE.vox --random N --seed S`: the same for a walking agent on
// seeded random pairs of places it can be (both ends in the largest connected part unless
// --any-pairs), checked against Dijkstra's costs. Either one by one
// or as a batch on several threads (--threads).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder::cli {

struct VoxelBenchArguments {
  std::string path;
  /// The map of a .3dscen scenario; empty: the scenario's path minus ".3dscen".
  std::string map_path;
  std::vector<VoxelAlgorithm> algorithms{VoxelAlgorithm::astar};
  double weight = 2.0;
  std::uint64_t random_pairs = 0;  ///< walking: how many random pairs (required for .vox/.3dmap)
  std::uint64_t seed = 1;
  /// Random pairs: draw both ends among all places, not only within the largest connected part.
  bool any_pairs = false;
  std::uint64_t limit = 0;  ///< 0: every query
  /// 1: the queries one by one, each timed; more: one batch on this many threads (solve_batch).
  std::uint64_t threads = 1;
  /// hpa: the side of the hierarchy's clusters (built once, before the queries, not timed).
  std::uint64_t cluster_size = 16;
  bool json = false;
};

void configure_voxel_bench_command(CLI::App& command, VoxelBenchArguments& arguments);

/// Returns 0 when every answer agrees with its reference, 1 when some do not; throws LoadError
/// for unreadable or mismatched files (a scenario written for another map than the one found
/// beside it) and std::invalid_argument for options the search refuses.
int run_voxel_bench_command(const VoxelBenchArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
