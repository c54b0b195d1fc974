#include "mesh_build_command.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "mesh_command_support.hpp"
#include "progress_bar.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"

#ifdef WAYFINDER_HAVE_RECAST
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#endif

namespace wayfinder::cli {

void configure_mesh_build_command(CLI::App& command, MeshBuildArguments& arguments) {
  command.add_option("LEVEL", arguments.level_path, "the level's geometry: Wavefront .obj (walls, floors, everything)")
      ->required()
      ->type_name("FILE");
  command.add_option("-o,--output", arguments.output_path, "where to write the navigation mesh (.obj)")
      ->required()
      ->type_name("FILE");
  add_number_option(command, "--agent-radius", arguments.agent_radius, 0.0,
                    "the agent's radius: the mesh keeps this far from walls (default 0.6)");
  add_number_option(command, "--agent-height", arguments.agent_height, 1e-9,
                    "the agent's height: floors with less headroom are left out (default 2)");
  add_number_option(command, "--max-climb", arguments.max_climb, 0.0, "the highest step the agent climbs (default 0.9)");
  add_number_option(command, "--max-slope", arguments.max_slope, 0.0,
                    "the steepest walkable slope in degrees, at most 90 (default 45)");
  add_number_option(command, "--cell-size", arguments.cell_size, 1e-9, "voxel width and depth (default 0.3)");
  add_number_option(command, "--cell-height", arguments.cell_height, 1e-9, "voxel height (default 0.2)");
  add_whole_number_option(command, "--max-vertices", arguments.vertices_per_polygon, 3, 12,
                          "most vertices per polygon (default 6, as Detour)");
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  command.add_flag("--json", arguments.json, "print one JSON object instead of text");
}

int run_mesh_build_command(const MeshBuildArguments& arguments, std::ostream& out, std::ostream& err) {
#ifdef WAYFINDER_HAVE_RECAST
  const MeshGeometry level = read_mesh_geometry(arguments.level_path, arguments.z_up);
  AgentSettings settings;
  settings.agent_radius = arguments.agent_radius;
  settings.agent_height = arguments.agent_height;
  settings.max_climb = arguments.max_climb;
  settings.max_slope_degrees = arguments.max_slope;
  settings.cell_size = arguments.cell_size;
  settings.cell_height = arguments.cell_height;
  settings.vertices_per_polygon = static_cast<int>(arguments.vertices_per_polygon);
  if (const auto problem = settings_problem(settings)) throw CommandError(in_command_line_terms(*problem, {
      {"agent_radius", "--agent-radius"}, {"agent_height", "--agent-height"}, {"max_climb", "--max-climb"},
      {"max_slope_degrees", "--max-slope"}, {"cell_size", "--cell-size"}, {"cell_height", "--cell-height"},
      {"vertices_per_polygon", "--max-vertices"}}));

  NavMeshBuildReport report;
  MeshGeometry built;
  {
    ProgressBar bar(err, !arguments.json && standard_error_is_terminal());
    bar.start("building", 100);
    try {
      built = build_navmesh_geometry(level, settings, &report, [&](std::string_view, double done) {
        bar.update(static_cast<std::size_t>(done * 100.0));
      });
    } catch (const std::invalid_argument& error) {
      throw CommandError(arguments.level_path + ": " + error.what(), arguments.level_path);
    } catch (const std::runtime_error& error) {
      throw CommandError(arguments.level_path + ": " + error.what(), arguments.level_path);
    }
  }
  // The mesh must load as the other commands will load it; its regions and repairs are reported.
  std::size_t regions = 0, problems = 0;
  if (!built.polygons.empty()) {
    const NavMesh mesh = NavMesh::build(built);
    regions = mesh.region_count();
    problems = mesh.problems().size();
  }
  try {
    write_obj_mesh(built, arguments.output_path);
  } catch (const std::runtime_error& error) {
    throw CommandError(error.what(), arguments.output_path);
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["level"] = arguments.level_path;
    json["output"] = arguments.output_path;
    json["input_triangles"] = report.input_triangles;
    json["walkable_triangles"] = report.walkable_triangles;
    json["grid"] = {report.grid_width, report.grid_depth};
    json["polygons"] = report.polygons;
    json["vertices"] = report.vertices;
    json["regions"] = regions;
    json["problems"] = problems;
    json["build_milliseconds"] = report.milliseconds;
    out << json.dump() << '\n';
  } else {
    out << "level:     " << arguments.level_path << " (" << report.input_triangles << " triangles, "
        << report.walkable_triangles << " walkable)\n";
    out << "voxels:    " << report.grid_width << " x " << report.grid_depth << " cells of " << settings.cell_size
        << " x " << settings.cell_height << "\n";
    out << "navmesh:   " << report.polygons << " polygons, " << report.vertices << " vertices, " << regions
        << " regions -> " << arguments.output_path << "\n";
    out << "time:      " << std::fixed << std::setprecision(1) << report.milliseconds << " ms\n";
    if (report.polygons == 0) out << "note:      nothing is walkable for this agent: the mesh is empty\n";
  }
  return exit_ok;
#else
  (void)arguments;
  (void)out;
  err << "wayfinder: this build cannot build navigation meshes (Recast was not found when it was configured; "
         "install librecast-dev and rebuild)\n";
  return exit_bad_input;
#endif
}

}  // namespace wayfinder::cli
