#pragma once
// `wayfinder mesh obstacles LEVEL.obj EVENTS`: builds a level's navmesh in tiles with a tile
// cache (NavMeshTileCache), replays a file of timed obstacle events (mesh/obstacle_events.hpp),
// puts each event's rebuilt tiles into the mesh (NavMesh::replace_tile) and, before the first
// event and after each one, runs a query set: what changed, how long the rebuild took, how many
// queries are reachable and how long their paths are.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder::cli {

struct MeshObstaclesArguments {
  std::string level_path;
  std::string events_path;
  std::string queries_path;  ///< empty: no queries, the tiles only
  AgentSettings build;       ///< tile_size is never 0 here (the cache is tiled)
  bool z_up = false;
  bool json = false;
};

void configure_mesh_obstacles_command(CLI::App& command, MeshObstaclesArguments& arguments);

/// Returns 0; throws CommandError (exit 2) for an unreadable or malformed level, events or
/// queries file, and for a level the agent cannot walk on.
int run_mesh_obstacles_command(const MeshObstaclesArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
