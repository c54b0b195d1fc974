#include "mesh/mesh_command_support.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "command_line_values.hpp"
#include "text_table.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

namespace wayfinder::cli {

MeshGeometry read_mesh_geometry(const std::string& path, bool z_up) {
  return read_mesh_file_geometry(path, z_up ? UpAxis::z : UpAxis::y);
}

MeshGeometry read_mesh_geometry(const std::string& path, bool z_up, const std::string& links_path) {
  MeshGeometry geometry = read_mesh_geometry(path, z_up);
  // A baked mesh has links of its own: the file's are added to them.
  if (!links_path.empty()) {
    const std::vector<OffMeshLink> links = read_off_mesh_links(links_path);
    geometry.off_mesh_links.insert(geometry.off_mesh_links.end(), links.begin(), links.end());
  }
  return geometry;
}

CLI::Option* add_navmesh_file_argument(CLI::App& command, std::string& target) {
  return add_required_file_argument(command, "FILE", target,
                                    "navigation mesh: Wavefront .obj, Polyanya .mesh or baked .wfnav");
}

CLI::Option* add_links_option(CLI::App& command, std::string& target) {
  return command
      .add_option("--links", target,
                  "off-mesh links (jumps, ladders, teleporters), one a line: x1 y1 z1 x2 y2 z2 [both|oneway] "
                  "[cost=C] [area=A] [flags=F] [radius=R] [id=N], in the mesh's (y-up) frame")
      ->type_name("FILE");
}

std::optional<Point> parse_mesh_point(std::string_view text, bool allow_2d) {
  const auto values = parse_number_list(text);
  if (!values) return std::nullopt;
  if (values->size() == 3) return Point{(*values)[0], (*values)[1], (*values)[2]};
  if (values->size() == 2 && allow_2d) return Point{(*values)[0], 0.0, (*values)[1]};
  return std::nullopt;
}

std::string format_point(const Point& point) {
  return format_fixed(point.x, 6) + "," + format_fixed(point.y, 6) + "," + format_fixed(point.z, 6);
}

CLI::Option* add_corridor_nodes_option(CLI::App& command, const std::string& name, CorridorNodes& target) {
  CLI::Validator validator(
      [](std::string& input) -> std::string {
        if (parse_corridor_nodes(input)) return {};
        return "unknown value '" + input + "'; expected one of: centroids, edge-points, optimal";
      },
      "", "NODES");
  CLI::Option* option = command.add_option_function<std::string>(
      name, [&target](const std::string& input) { target = *parse_corridor_nodes(input); },
      "where the corridor search puts its nodes (centroids, edge-points), or optimal for exact shortest paths");
  option->check(validator)->type_name("NODES")->default_str(std::string(to_string(target)));
  return option;
}



double distance_xz_to_polygon(const NavMesh& mesh, PolygonId polygon, double x, double z) {
  if (mesh.contains_xz(polygon, x, z)) return 0.0;
  const std::span<const std::uint32_t> vertices = mesh.polygon_vertices(polygon);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Point& a = mesh.vertex(vertices[i]);
    const Point& b = mesh.vertex(vertices[(i + 1) % vertices.size()]);
    const double dx = b.x - a.x;
    const double dz = b.z - a.z;
    const double length_squared = dx * dx + dz * dz;
    double t = length_squared > 0.0 ? ((x - a.x) * dx + (z - a.z) * dz) / length_squared : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    best = std::min(best, std::hypot(x - (a.x + t * dx), z - (a.z + t * dz)));
  }
  return best;
}

}  // namespace wayfinder::cli
