#include "mesh/level_build_options.hpp"

#include <sstream>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_terms.hpp"
#include "command_line_values.hpp"
#include "mesh/mesh_command_support.hpp"
#include "progress_bar.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

#ifdef WAYFINDER_HAVE_RECAST
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#endif

namespace wayfinder::cli {

std::vector<CLI::Option*> add_level_build_options(CLI::App& command, LevelBuildArguments& arguments) {
  return {
      add_number_option(command, "--agent-radius", arguments.agent_radius, 0.0,
                        "the agent's radius: the mesh keeps this far from walls (default 0.6)"),
      add_number_option(command, "--agent-height", arguments.agent_height, 1e-9,
                        "the agent's height: floors with less headroom are left out (default 2)"),
      add_number_option(command, "--max-climb", arguments.max_climb, 0.0,
                        "the highest step the agent climbs (default 0.9)"),
      add_number_option(command, "--max-slope", arguments.max_slope, 0.0,
                        "the steepest walkable slope in degrees, at most 90 (default 45)"),
      add_number_option(command, "--cell-size", arguments.cell_size, 1e-9, "voxel width and depth (default 0.3)"),
      add_number_option(command, "--cell-height", arguments.cell_height, 1e-9, "voxel height (default 0.2)"),
      add_whole_number_option(command, "--max-vertices", arguments.vertices_per_polygon, 3, 12,
                              "most vertices per polygon (default 6, as Detour)"),
      add_whole_number_option(command, "--tile-size", arguments.tile_size, 0, 4096,
                              "build in square tiles this many cells wide, stitched into one mesh; 0 (default) "
                              "builds the level in one piece; 8 to 4096"),
  };
}

void add_build_in_memory_options(CLI::App& command, bool& build, LevelBuildArguments& arguments) {
  CLI::Option* flag = command.add_flag(
      "--build", build,
      "FILE is a level's geometry (walls, floors, everything): build its navmesh in memory first, as "
      "`mesh build` does, with the options below");
  for (CLI::Option* option : add_level_build_options(command, arguments)) option->needs(flag);
}

CommandNavMeshGeometry load_command_navmesh(const std::string& path, bool z_up, const std::string& links_path,
                                            bool build, const LevelBuildArguments& arguments, std::ostream& err,
                                            bool show_progress) {
  CommandNavMeshGeometry result;
  if (!build) {
    result.navmesh = read_mesh_geometry(path, z_up, links_path);
    if (const auto warning = level_geometry_warning(result.navmesh)) err << "wayfinder: warning: " << *warning << "\n";
    return result;
  }
  if (mesh_file_format(path) != MeshFileFormat::obj)
    throw CommandError(path + ": --build takes a level as Wavefront .obj", path);
  result.level = read_mesh_geometry(path, z_up);
  result.navmesh = build_level_navmesh(result.level, path, arguments, err, show_progress, &result.summary);
  result.built = true;
  // The links belong to the navmesh, placed on it when it is built.
  if (!links_path.empty()) result.navmesh.off_mesh_links = read_off_mesh_links(links_path);
  if (result.navmesh.polygons.empty())
    throw CommandError(path + ": nothing in the level is walkable for this agent (" + describe_level_build(arguments) +
                           "): the navmesh is empty",
                       path);
  return result;
}

std::string level_build_summary_json(const LevelBuildSummary& summary) {
  std::ostringstream text;
  text << "{\"polygons\":" << summary.polygons << ",\"vertices\":" << summary.vertices
       << ",\"detail_triangles\":" << summary.detail_triangles << ",\"tiles\":" << summary.tiles
       << ",\"build_milliseconds\":" << summary.milliseconds << "}";
  return text.str();
}

std::string level_build_summary_text(const LevelBuildSummary& summary) {
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(1);
  text << "built " << summary.polygons << " polygons, " << summary.vertices << " vertices in " << summary.milliseconds
       << " ms";
  if (summary.tiles > 1) text << " (" << summary.tiles << " tiles)";
  return text.str();
}

std::string describe_level_build(const LevelBuildArguments& arguments) {
  std::ostringstream text;
  text << "agent radius " << arguments.agent_radius << ", height " << arguments.agent_height << ", climb "
       << arguments.max_climb << ", slope " << arguments.max_slope << "; cells " << arguments.cell_size << " x "
       << arguments.cell_height;
  if (arguments.tile_size != 0) text << "; tiles of " << arguments.tile_size << " cells";
  return text.str();
}

MeshGeometry build_level_navmesh(const MeshGeometry& level, const std::string& level_path,
                                 const LevelBuildArguments& arguments, std::ostream& err, bool show_progress,
                                 LevelBuildSummary* summary) {
#ifdef WAYFINDER_HAVE_RECAST
  AgentSettings settings;
  settings.agent_radius = arguments.agent_radius;
  settings.agent_height = arguments.agent_height;
  settings.max_climb = arguments.max_climb;
  settings.max_slope_degrees = arguments.max_slope;
  settings.cell_size = arguments.cell_size;
  settings.cell_height = arguments.cell_height;
  settings.vertices_per_polygon = static_cast<int>(arguments.vertices_per_polygon);
  settings.tile_size = static_cast<int>(arguments.tile_size);
  if (const auto problem = settings_problem(settings))
    throw CommandError(in_command_line_terms(*problem));
  NavMeshBuildReport report;
  MeshGeometry built;
  {
    ProgressBar bar(err, show_progress && standard_error_is_terminal());
    bar.start("building", 100);
    try {
      built = build_navmesh_geometry(level, settings, &report, [&](std::string_view, double done) {
        bar.update(static_cast<std::size_t>(done * 100.0));
      });
    } catch (const std::invalid_argument& error) {
      throw CommandError(level_path + ": " + error.what(), level_path);
    } catch (const std::runtime_error& error) {
      throw CommandError(level_path + ": " + error.what(), level_path);
    }
  }
  if (summary != nullptr) {
    summary->input_triangles = report.input_triangles;
    summary->walkable_triangles = report.walkable_triangles;
    summary->grid_width = report.grid_width;
    summary->grid_depth = report.grid_depth;
    summary->tiles = report.tiles;
    summary->polygons = report.polygons;
    summary->vertices = report.vertices;
    summary->detail_triangles = report.detail_triangles;
    summary->milliseconds = report.milliseconds;
  }
  return built;
#else
  (void)level;
  (void)arguments;
  (void)err;
  (void)show_progress;
  (void)summary;
  throw CommandError(level_path +
                     ": this build of wayfinder cannot build navigation meshes (Recast was not found when it was "
                     "configured; install librecast-dev and rebuild)");
#endif
}

}  // namespace wayfinder::cli
