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


namespace wayfinder::cli {

CLI::Option* add_level_argument(CLI::App& command, std::string& target) {
  return add_required_file_argument(command, "LEVEL", target,
                                    "the level's geometry: Wavefront .obj (walls, floors, everything)");
}

std::vector<CLI::Option*> add_level_build_options(CLI::App& command, AgentSettings& settings) {
  // The defaults --help shows are the values `settings` holds (add_number_option shows them; the
  // whole numbers are given theirs here), so that the library's AgentSettings keeps the one copy.
  return {
      add_number_option(command, "--agent-radius", settings.agent_radius, 0.0,
                        "the agent's radius: the mesh keeps this far from walls"),
      add_number_option(command, "--agent-height", settings.agent_height, 1e-9,
                        "the agent's height: floors with less headroom are left out"),
      add_number_option(command, "--max-climb", settings.max_climb, 0.0, "the highest step the agent climbs"),
      add_number_option(command, "--max-slope", settings.max_slope_degrees, 0.0,
                        "the steepest walkable slope in degrees, at most 90"),
      add_number_option(command, "--cell-size", settings.cell_size, 1e-9, "voxel width and depth"),
      add_number_option(command, "--cell-height", settings.cell_height, 1e-9, "voxel height"),
      add_whole_number_option(command, "--max-vertices", settings.vertices_per_polygon, 3, 12,
                              "most vertices per polygon (as Detour)")
          ->default_str(std::to_string(settings.vertices_per_polygon)),
      add_whole_number_option(command, "--tile-size", settings.tile_size, 0, 4096,
                              "build in square tiles this many cells wide, stitched into one mesh; 0 builds the "
                              "level in one piece; 8 to 4096")
          ->default_str(std::to_string(settings.tile_size)),
  };
}

void add_build_in_memory_options(CLI::App& command, MeshReading& reading, AgentSettings& settings) {
  CLI::Option* level = command.add_flag_callback(
      "--build,--level", [&reading] { reading = MeshReading::level; },
      "FILE is a level's geometry (walls, floors, everything): build its navmesh in memory first, as "
      "`mesh build` does, with the options below. Without --build (--level) or --navmesh, an OBJ is read as "
      "its geometry tells: steep faces, closed solids or surfaces stacked closer than an agent's height make it "
      "a level, built with the default options");
  CLI::Option* navmesh = command.add_flag_callback(
      "--navmesh", [&reading] { reading = MeshReading::navmesh; },
      "FILE is a navigation mesh: search its polygons as they are, whatever they look like");
  navmesh->excludes(level);
  for (CLI::Option* option : add_level_build_options(command, settings)) option->needs(level);
}

CommandNavMeshGeometry load_command_navmesh(const std::string& path, bool z_up, const std::string& links_path,
                                            MeshReading reading, const AgentSettings& settings, std::ostream& err,
                                            bool show_progress) {
  CommandNavMeshGeometry result;
  const bool obj = mesh_file_format(path) == MeshFileFormat::obj;
  if (reading == MeshReading::navmesh || (reading == MeshReading::detect && !obj))
    return {read_mesh_geometry(path, z_up, links_path), {}, false, {}};
  if (!obj) throw CommandError(path + ": --level takes a level as Wavefront .obj", path);
  result.level = read_mesh_geometry(path, z_up);
  if (reading == MeshReading::detect) {
    const MeshGeometryVerdict verdict = classify_mesh_geometry(result.level, {.agent_height = settings.agent_height});
    if (verdict.kind == MeshGeometryKind::navmesh) {
      result.navmesh = std::move(result.level);
      result.level = {};
      if (!links_path.empty()) result.navmesh.off_mesh_links = read_off_mesh_links(links_path);
      return result;
    }
    err << "wayfinder: " << path << " looks like a level's geometry, not a navigation mesh (" << verdict.reason
        << "): building its navigation mesh first (--navmesh searches the file as it is)\n";
  }
  result.navmesh = build_level_navmesh(result.level, path, settings, err, show_progress, &result.report);
  result.built = true;
  // The links belong to the navmesh, placed on it when it is built.
  if (!links_path.empty()) result.navmesh.off_mesh_links = read_off_mesh_links(links_path);
  if (result.navmesh.polygons.empty())
    throw CommandError(path + ": nothing in the level is walkable for this agent (" + describe_level_build(settings) +
                           "): the navmesh is empty",
                       path);
  return result;
}

std::string level_build_summary_json(const NavMeshBuildReport& summary) {
  std::ostringstream text;
  text << "{\"polygons\":" << summary.polygons << ",\"vertices\":" << summary.vertices
       << ",\"detail_triangles\":" << summary.detail_triangles << ",\"tiles\":" << summary.tiles
       << ",\"build_milliseconds\":" << summary.milliseconds << "}";
  return text.str();
}

std::string level_build_summary_text(const NavMeshBuildReport& summary) {
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(1);
  text << "built " << summary.polygons << " polygons, " << summary.vertices << " vertices in " << summary.milliseconds
       << " ms";
  if (summary.tiles > 1) text << " (" << summary.tiles << " tiles)";
  return text.str();
}

std::string describe_level_build(const AgentSettings& settings) {
  std::ostringstream text;
  text << "agent radius " << settings.agent_radius << ", height " << settings.agent_height << ", climb "
       << settings.max_climb << ", slope " << settings.max_slope_degrees << "; cells " << settings.cell_size << " x "
       << settings.cell_height;
  if (settings.tile_size != 0) text << "; tiles of " << settings.tile_size << " cells";
  return text.str();
}

MeshGeometry build_level_navmesh(const MeshGeometry& level, const std::string& level_path,
                                 const AgentSettings& settings, std::ostream& err, bool show_progress,
                                 NavMeshBuildReport* report) {
#ifdef WAYFINDER_HAVE_RECAST
  if (const auto problem = settings_problem(settings))
    throw CommandError(in_command_line_terms(*problem));
  MeshGeometry built;
  {
    ProgressBar bar(err, show_progress && standard_error_is_terminal());
    bar.start("building", 100);
    try {
      built = build_navmesh_geometry(level, settings, report, [&](std::string_view, double done) {
        bar.update(static_cast<std::size_t>(done * 100.0));
      });
    } catch (const std::invalid_argument& error) {
      throw CommandError(level_path + ": " + error.what(), level_path);
    } catch (const std::runtime_error& error) {
      throw CommandError(level_path + ": " + error.what(), level_path);
    }
  }
  return built;
#else
  (void)level;
  (void)settings;
  (void)err;
  (void)show_progress;
  (void)report;
  throw CommandError(level_path +
                     ": this build of wayfinder cannot build navigation meshes (Recast was not found when it was "
                     "configured; install librecast-dev and rebuild)");
#endif
}

}  // namespace wayfinder::cli
