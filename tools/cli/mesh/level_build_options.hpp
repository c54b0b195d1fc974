#pragma once
// The navmesh-generation options that `mesh build` takes, and that `mesh path` and `mesh bench`
// take with --build to build a level's navmesh in memory before querying it: agent size, voxel
// size, polygon size and tiles, and the build itself (with a progress bar on a terminal).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder::cli {

/// The positional LEVEL of the commands that build a level's navmesh (required), stored in `target`.
CLI::Option* add_level_argument(CLI::App& command, std::string& target);

/// Adds --agent-radius, --agent-height, --max-climb, --max-slope, --cell-size, --cell-height,
/// --max-vertices and --tile-size, stored in `settings`, whose values are the defaults --help
/// shows (the library's, unless the caller changed them); returns them, so that a command can
/// make them need --build.
std::vector<CLI::Option*> add_level_build_options(CLI::App& command, AgentSettings& settings);

/// Builds the navmesh of `level` (read from `level_path`, named in errors) with Recast, and
/// fills `report` when it is not null. Throws CommandError for bad settings, a level Recast
/// cannot build, or a wayfinder built without Recast. A progress bar goes to `err` when
/// `show_progress` and it is a terminal.
MeshGeometry build_level_navmesh(const MeshGeometry& level, const std::string& level_path,
                                 const AgentSettings& settings, std::ostream& err, bool show_progress,
                                 NavMeshBuildReport* report = nullptr);

/// How a mesh command reads an OBJ FILE: as the geometry tells (classify_mesh_geometry), or as
/// the user forces it.
enum class MeshReading { detect, navmesh, level };

/// `--build` (also spelt `--level`: FILE is a level, build its navmesh in memory first),
/// `--navmesh` (FILE is a navigation mesh, search it as it is) and the build options, each of
/// which needs --build.
void add_build_in_memory_options(CLI::App& command, MeshReading& reading, AgentSettings& settings);

/// What a mesh command queries: FILE's navmesh as written, or the navmesh built from FILE as
/// level geometry (and the level itself, for pictures).
struct CommandNavMeshGeometry {
  MeshGeometry navmesh;
  MeshGeometry level;  ///< empty unless built
  bool built = false;
  NavMeshBuildReport report;  ///< what the build did, when built
};

/// Reads FILE and builds its navmesh (CommandError when nothing is walkable) when it is a level:
/// with MeshReading::level, or with MeshReading::detect for an OBJ that classify_mesh_geometry
/// (for the settings' agent height) finds to be a level, which `err` is told with the reason.
/// MeshReading::navmesh reads any file as a navmesh. The off-mesh links of `links_path` (none
/// when empty) go with the navmesh either way.
CommandNavMeshGeometry load_command_navmesh(const std::string& path, bool z_up, const std::string& links_path,
                                            MeshReading reading, const AgentSettings& settings, std::ostream& err,
                                            bool show_progress);

/// The build's figures as JSON text for a command's output: {"polygons", "vertices",
/// "detail_triangles", "tiles", "build_milliseconds"}.
std::string level_build_summary_json(const NavMeshBuildReport& report);
/// The same as one line of text: "built 118 polygons, 223 vertices in 12.3 ms (4 tiles)".
std::string level_build_summary_text(const NavMeshBuildReport& report);

/// The settings as one line of text ("agent radius 0.6, height 2, ...") for reports.
std::string describe_level_build(const AgentSettings& settings);

}  // namespace wayfinder::cli
