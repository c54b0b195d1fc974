#include "mesh/mesh_info_command.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "mesh/mesh_command_support.hpp"
#include "text_table.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::cli {
namespace {

constexpr std::size_t problems_listed = 10;

std::string_view to_string(MeshProblem::Kind kind) {
  switch (kind) {
    case MeshProblem::Kind::repeated_vertex: return "repeated_vertex";
    case MeshProblem::Kind::degenerate_polygon: return "degenerate_polygon";
    case MeshProblem::Kind::concave_polygon: return "concave_polygon";
    case MeshProblem::Kind::non_manifold_edge: return "non_manifold_edge";
    case MeshProblem::Kind::inconsistent_winding: return "inconsistent_winding";
  }
  return "unknown";
}

struct MeshSummary {
  std::map<std::size_t, std::size_t> polygon_sizes;  ///< vertex count -> polygons
  std::vector<std::size_t> region_sizes;             ///< polygons per region
  std::map<std::string_view, std::size_t> problem_counts;
  std::size_t shared_edges = 0;
};

MeshSummary summarise(const NavMesh& mesh) {
  MeshSummary summary;
  summary.region_sizes.assign(mesh.region_count(), 0);
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    ++summary.polygon_sizes[mesh.polygon_vertices(polygon).size()];
    const std::uint32_t region = mesh.region(polygon);
    if (region < summary.region_sizes.size()) ++summary.region_sizes[region];
  }
  for (const MeshProblem& problem : mesh.problems()) ++summary.problem_counts[to_string(problem.kind)];
  summary.shared_edges = mesh.shared_edge_count();
  return summary;
}

nlohmann::ordered_json point_json(const Point& point) { return {point.x, point.y, point.z}; }

}  // namespace

void configure_mesh_info_command(CLI::App& command, MeshInfoArguments& arguments) {
  add_navmesh_file_argument(command, arguments.mesh_path);
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  add_json_flag(command, arguments.json);
}

int run_mesh_info_command(const MeshInfoArguments& arguments, std::ostream& out, std::ostream& /*err*/) {
  const MeshGeometry geometry = read_mesh_geometry(arguments.mesh_path, arguments.z_up);
  const NavMesh mesh = NavMesh::build(geometry);
  const MeshSummary summary = summarise(mesh);
  const std::size_t largest_region =
      summary.region_sizes.empty() ? 0 : *std::max_element(summary.region_sizes.begin(), summary.region_sizes.end());
  const Bounds& bounds = mesh.bounds();
  const std::optional<std::string> level_warning = level_geometry_warning(geometry);

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["mesh"] = arguments.mesh_path;
    json["format"] = to_string(mesh_file_format(arguments.mesh_path));
    json["up"] = arguments.z_up ? "z" : "y";
    json["input_vertices"] = geometry.vertices.size();
    json["input_polygons"] = geometry.polygons.size();
    json["vertices"] = mesh.vertex_count();
    json["polygons"] = mesh.polygon_count();
    json["shared_edges"] = summary.shared_edges;
    json["regions"] = mesh.region_count();
    json["largest_region"] = largest_region;
    json["bounds"] = {{"min", point_json(bounds.min)}, {"max", point_json(bounds.max)}};
    nlohmann::ordered_json sizes = nlohmann::ordered_json::object();
    for (const auto& [size, count] : summary.polygon_sizes) sizes[std::to_string(size)] = count;
    json["polygon_sizes"] = sizes;
    nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
    for (const auto& [kind, count] : summary.problem_counts) kinds[std::string(kind)] = count;
    json["problem_counts"] = kinds;
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const MeshProblem& problem : mesh.problems())
      problems.push_back({{"kind", to_string(problem.kind)},
                          {"polygon", problem.polygon},
                          {"line", problem.line},
                          {"message", problem.message}});
    json["problems"] = problems;
    json["level_geometry"] = level_warning ? nlohmann::ordered_json(*level_warning) : nlohmann::ordered_json(nullptr);
    out << json.dump() << '\n';
    return exit_ok;
  }

  if (level_warning) out << "warning:       " << *level_warning << "\n";
  out << "mesh:          " << arguments.mesh_path << " (" << to_string(mesh_file_format(arguments.mesh_path))
      << (mesh_file_format(arguments.mesh_path) == MeshFileFormat::obj ? (arguments.z_up ? ", z up" : ", y up") : "")
      << ")\n";
  out << "vertices:      " << mesh.vertex_count() << '\n';
  out << "polygons:      " << mesh.polygon_count();
  if (mesh.polygon_count() != geometry.polygons.size()) out << " (from " << geometry.polygons.size() << " in the file)";
  out << '\n';
  out << "shared edges:  " << summary.shared_edges << '\n';
  out << "regions:       " << mesh.region_count() << " (largest " << largest_region << " polygons)\n";
  out << "bounds:        x " << format_fixed(bounds.min.x, 3) << " .. " << format_fixed(bounds.max.x, 3) << ", y "
      << format_fixed(bounds.min.y, 3) << " .. " << format_fixed(bounds.max.y, 3) << ", z "
      << format_fixed(bounds.min.z, 3) << " .. " << format_fixed(bounds.max.z, 3) << '\n';
  out << "polygon sizes:";
  for (const auto& [size, count] : summary.polygon_sizes) out << ' ' << size << ":" << count;
  out << "  (vertices:polygons)\n";
  out << "problems:      " << mesh.problems().size();
  if (!summary.problem_counts.empty()) {
    out << " (";
    bool first = true;
    for (const auto& [kind, count] : summary.problem_counts) {
      out << (first ? "" : ", ") << kind << " " << count;
      first = false;
    }
    out << ")";
  }
  out << '\n';
  for (std::size_t i = 0; i < mesh.problems().size() && i < problems_listed; ++i)
    out << "  " << mesh.problems()[i].message << '\n';
  if (mesh.problems().size() > problems_listed)
    out << "  ... and " << mesh.problems().size() - problems_listed << " more (--json lists all)\n";
  return exit_ok;
}

}  // namespace wayfinder::cli
