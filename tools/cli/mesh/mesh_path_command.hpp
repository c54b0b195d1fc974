#pragma once
// `wayfinder mesh path FILE --from X,Y,Z --to X,Y,Z`: one query on a navigation mesh: the
// corridor of polygons, the waypoints of the shortest path through it and its length, and
// optionally a picture of it (--svg), of the whole mesh or of one height range (--y-range,
// --band).

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "mesh/level_build_options.hpp"

#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::cli {

struct MeshPathArguments {
  std::string mesh_path;
  std::string from;  ///< "X,Y,Z" (or "X,Y" on a 2D .mesh), checked once the format is known
  std::string to;
  CorridorNodes nodes = CorridorNodes::edge_points;
  double snap_distance = 0.0;
  bool z_up = false;
  /// Whether FILE is a level whose navmesh is built in memory first (--level, --navmesh, or as
  /// the geometry tells), with the build options.
  MeshReading reading = MeshReading::detect;
  AgentSettings build_settings;
  std::string links_path;  ///< --links: an off-mesh links file (empty: none)
  std::string svg_path;
  /// "MIN,MAX": draw only polygons with some part at heights MIN..MAX (checked when run).
  std::string y_range;
  /// Draw only the Nth height band (navmesh_height_bands, lowest 0); -1 for all.
  int band = -1;
  bool json = false;
};

void configure_mesh_path_command(CLI::App& command, MeshPathArguments& arguments);

/// Returns 0 when a path is found, 1 when none is; throws CommandError for an invalid query (a
/// point off the mesh, a malformed point) and LoadError for unreadable or malformed files.
int run_mesh_path_command(const MeshPathArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
