#include "mesh/mesh_build_command.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <optional>
#include <stdexcept>

#include "command_error.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "mesh/mesh_command_support.hpp"
#include "output_paths.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"


namespace wayfinder::cli {

void configure_mesh_build_command(CLI::App& command, MeshBuildArguments& arguments) {
  add_level_argument(command, arguments.level_path);
  add_required_output_option(command, arguments.output_path,
                             "where to write the navigation mesh: .wfnav keeps all of it (detail heights, areas, "
                             "flags), anything else is written as Wavefront OBJ (its polygons only)");
  add_level_build_options(command, arguments.build);
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  add_json_flag(command, arguments.json);
}

int run_mesh_build_command(const MeshBuildArguments& arguments, std::ostream& out, std::ostream& err) {
  refuse_output_over("-o", arguments.output_path, "the level", arguments.level_path);
  const MeshGeometry level = read_mesh_geometry(arguments.level_path, arguments.z_up);
  NavMeshBuildReport report;
  const MeshGeometry built =
      build_level_navmesh(level, arguments.level_path, arguments.build, err, !arguments.json, &report);
  // The mesh must load as the other commands will load it; its regions and repairs are reported.
  std::optional<NavMesh> mesh;
  if (!built.polygons.empty()) mesh = NavMesh::build(built);
  const std::size_t regions = mesh ? mesh->region_count() : 0;
  const bool baked = mesh_file_format_of(arguments.output_path) == MeshFileFormat::baked;
  if (baked && !mesh)
    throw CommandError(arguments.output_path + ": nothing in the level is walkable for this agent (" +
                           describe_level_build(arguments.build) + "): there is no navmesh to bake",
                       arguments.output_path);
  try {
    if (baked)
      write_navmesh_file(*mesh, arguments.output_path);
    else
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
    json["tiles"] = report.tiles;
    json["polygons"] = report.polygons;
    json["vertices"] = report.vertices;
    json["detail_triangles"] = report.detail_triangles;
    json["regions"] = regions;
    json["problems"] = mesh ? mesh->problems().size() : 0;
    json["format"] = baked ? "wfnav" : "obj";
    json["build_milliseconds"] = report.milliseconds;
    out << json.dump() << '\n';
  } else {
    out << "level:     " << arguments.level_path << " (" << report.input_triangles << " triangles, "
        << report.walkable_triangles << " walkable)\n";
    out << "voxels:    " << report.grid_width << " x " << report.grid_depth << " cells of " << arguments.build.cell_size
        << " x " << arguments.build.cell_height;
    if (arguments.build.tile_size != 0) out << ", " << report.tiles << " tiles of " << arguments.build.tile_size;
    out << "\n";
    out << "navmesh:   " << report.polygons << " polygons, " << report.vertices << " vertices, " << regions
        << " regions -> " << arguments.output_path << "\n";
    out << "time:      " << std::fixed << std::setprecision(1) << report.milliseconds << " ms\n";
    if (report.polygons == 0) out << "note:      nothing is walkable for this agent: the mesh is empty\n";
  }
  return exit_ok;
}

}  // namespace wayfinder::cli
