#pragma once
// `wayfinder mesh bench FILE --queries FILE`: runs every query of a query file on a navigation
// mesh, checks each answer against what the file knows (reachability, the start and goal
// polygons, the optimal 2D length) and times the whole query and its parts (locate, corridor
// search, funnel) in separate passes; the whole queries one by one or as a batch on several threads.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

#include "mesh/level_build_options.hpp"

#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::cli {

struct MeshBenchArguments {
  std::string mesh_path;
  std::string queries_path;
  CorridorNodes nodes = CorridorNodes::edge_points;
  std::uint64_t repeat = 5;
  std::uint64_t limit = 0;  ///< 0: every query
  /// 1: the whole queries one by one, each timed; more: each pass is one batch on this many
  /// threads (solve_batch).
  std::uint64_t threads = 1;
  bool z_up = false;
  /// Whether FILE is a level whose navmesh is built in memory first (--level, --navmesh, or as
  /// the geometry tells), with the build options.
  MeshReading reading = MeshReading::detect;
  AgentSettings build_settings;
  std::string links_path;  ///< --links: an off-mesh links file (empty: none)
  bool json = false;
};

void configure_mesh_bench_command(CLI::App& command, MeshBenchArguments& arguments);

/// Returns 0 when every answer agrees with the file, 1 when some do not; throws LoadError for
/// unreadable or malformed files.
int run_mesh_bench_command(const MeshBenchArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
