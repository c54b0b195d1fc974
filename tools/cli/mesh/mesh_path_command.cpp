#include "mesh/mesh_path_command.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/world_json.hpp"
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "command_error.hpp"
#include "command_line_terms.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "mesh/mesh_command_support.hpp"
#include "text_table.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/debug/navmesh_svg.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"

namespace wayfinder::cli {
namespace {

/// "start moved:  A -> B (0.707 away, onto polygon 3)" (after `label`) when --snap moved a point that is not on
/// the mesh, empty otherwise. The query snaps with the same two calls (locate, then
/// nearest_point within the snap distance), so this is the point it searched from.
std::string snap_line(const NavMesh& mesh, const char* label, const Point& point, const NavMeshSearchOptions& options) {
  if (options.snap_distance <= 0.0 || mesh.locate(point, options.height_tolerance).valid()) return {};
  const MeshLocation moved = mesh.nearest_point(point, options.snap_distance);
  if (!moved.valid()) return {};
  return label + format_point(point) + " -> " + format_point(moved.point) + " (" +
         format_fixed(geometry::distance(point, moved.point), 3) + " away, onto polygon " +
         std::to_string(moved.polygon) + ")\n";
}

// Height bands for --band: polygons at most this far apart in height are one band. A storey
// is several units high, a step or the slope of a ramp much less.
constexpr double band_gap = 1.0;

// The height range --y-range or --band asks for, nullopt for the whole mesh; an error message
// when the option's value is unusable.
std::optional<HeightRange> drawn_range(const MeshPathArguments& arguments, const NavMesh& mesh, std::string& error) {
  if (!arguments.y_range.empty()) {
    const auto values = parse_number_list(arguments.y_range);
    if (!values || values->size() != 2 || (*values)[0] > (*values)[1]) {
      error = "--y-range: expected MIN,MAX, two finite numbers with MIN <= MAX, got '" + arguments.y_range + "'";
      return std::nullopt;
    }
    return HeightRange{(*values)[0], (*values)[1]};
  }
  if (arguments.band >= 0) {
    const std::vector<HeightRange> bands = navmesh_height_bands(mesh, band_gap);
    if (static_cast<std::size_t>(arguments.band) >= bands.size()) {
      error = "--band " + std::to_string(arguments.band) + ": the mesh has " + std::to_string(bands.size()) +
              " height band" + (bands.size() == 1 ? "" : "s") + " (bands 0 to " + std::to_string(bands.size() - 1) +
              ":";
      for (const HeightRange& band : bands) error += " y " + format_fixed(band.min, 2) + ".." + format_fixed(band.max, 2);
      error += ")";
      return std::nullopt;
    }
    return bands[static_cast<std::size_t>(arguments.band)];
  }
  return std::nullopt;
}

}  // namespace

void configure_mesh_path_command(CLI::App& command, MeshPathArguments& arguments) {
  add_navmesh_file_argument(command, arguments.mesh_path);
  command.add_option("--from", arguments.from, "start point X,Y,Z (on a 2D .mesh also X,Y, meaning X,0,Y)")
      ->required()
      ->type_name("X,Y,Z");
  command.add_option("--to", arguments.to, "goal point")->required()->type_name("X,Y,Z");
  add_corridor_nodes_option(command, "--nodes", arguments.nodes);
  add_number_option(command, "--snap", arguments.snap_distance, 0.0,
                    "move a start or goal off the mesh to the nearest mesh point within this distance (0: reject)")
      ->type_name("D");
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  add_build_in_memory_options(command, arguments.reading, arguments.build_settings);
  add_links_option(command, arguments.links_path);
  CLI::Option* svg = command.add_option("--svg", arguments.svg_path, "write a top-down picture of the mesh, corridor and path")
      ->type_name("FILE");
  CLI::Option* y_range =
      command
          .add_option("--y-range", arguments.y_range,
                      "draw only the polygons with some part at heights MIN to MAX (one floor of a multi-level mesh)")
          ->type_name("MIN,MAX")
          ->needs(svg);
  command
      .add_option("--band", arguments.band,
                  "draw only height band N (0 = lowest): polygons whose height ranges overlap or lie within " +
                      format_fixed(band_gap, 1) + " of each other form one band")
      ->type_name("N")
      // CLI::NonNegativeNumber would print its bound as 309 digits.
      ->check(CLI::Validator(
          [](std::string& text) {
            int band = -1;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), band);
            if (error == std::errc{} && end == text.data() + text.size() && band >= 0) return std::string();
            return "must be a whole number from 0 (the lowest height band) up, got '" + text + "'";
          },
          "N"))
      ->needs(svg)
      ->excludes(y_range);
  add_json_flag(command, arguments.json);
  command.footer("Exit status: 0 path found; 1 no path; 2 bad input (unreadable file, a point off the mesh).");
}

int run_mesh_path_command(const MeshPathArguments& arguments, std::ostream& out, std::ostream& err) {
  const bool flat_mesh = mesh_file_format(arguments.mesh_path) == MeshFileFormat::polyanya;
  const std::optional<Point> from = parse_mesh_point(arguments.from, flat_mesh);
  const std::optional<Point> to = parse_mesh_point(arguments.to, flat_mesh);
  for (const auto& [name, text, point] :
       {std::tuple{"--from", &arguments.from, &from}, std::tuple{"--to", &arguments.to, &to}}) {
    if (!point->has_value())
      throw CommandError(std::string(name) + ": expected a point X,Y,Z" + (flat_mesh ? " or X,Y" : "") +
                         " of finite numbers, got '" + *text + "'");
  }

  const CommandNavMeshGeometry loaded =
      load_command_navmesh(arguments.mesh_path, arguments.z_up, arguments.links_path, arguments.reading,
                           arguments.build_settings, err, !arguments.json);
  const NavMesh mesh = NavMesh::build(loaded.navmesh);
  std::optional<HeightRange> range;
  if (!arguments.y_range.empty() || arguments.band >= 0) {
    std::string error;
    range = drawn_range(arguments, mesh, error);
    if (!error.empty()) throw CommandError(error);
  }

  NavMeshSearchOptions options;
  options.nodes = arguments.nodes;
  options.snap_distance = arguments.snap_distance;
  NavMeshQuery query(mesh);
  // Timed without a trace, so that the time is the query alone.
  const auto started = std::chrono::steady_clock::now();
  const PathResult result = query.find_path(*from, *to, options);
  const double microseconds =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();

  if (result.status == SearchStatus::invalid_input)
    throw CommandError(arguments.mesh_path + ": " + in_command_line_terms(result.message),
                       arguments.mesh_path);
  const double length_2d = geometry::polyline_length_xz(result.points);

  if (!arguments.svg_path.empty()) {
    // The same query again with a trace, for the picture; searches are deterministic.
    SearchTrace trace;
    options.trace = &trace;
    const PathResult traced = query.find_path(*from, *to, options);
    NavMeshSvgOptions picture;
    picture.title = std::filesystem::path(arguments.mesh_path).filename().string() + ": " +
                    std::string(to_string(traced.status)) +
                    (traced.points.empty() ? std::string() : ", length " + format_fixed(traced.cost, 3)) + ", " +
                    std::to_string(traced.nodes.size()) + " corridor polygons, " +
                    std::to_string(traced.stats.expanded) + " expanded";
    picture.corridor.assign(traced.nodes.begin(), traced.nodes.end());
    picture.path = traced.points;
    picture.start = *from;
    picture.goal = *to;
    picture.y_range = range;
    if (loaded.built) picture.level = &loaded.level;
    std::vector<Point> roots;
    for (const TraceRecord& record : trace.events()) {
      if (record.event != TraceEvent::closed) continue;
      if (const auto node = query.exact_search_node(record.node)) {
        // An exact search: the intervals it expanded and the roots it turned at.
        picture.intervals.push_back({node->left, node->right});
        roots.push_back(node->root);
      } else {
        picture.explored.push_back(query.corridor_node_position(record.node));
      }
    }
    std::sort(roots.begin(), roots.end(), [](const Point& a, const Point& b) {
      return std::tie(a.x, a.z, a.y) < std::tie(b.x, b.z, b.y);
    });
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    picture.roots = std::move(roots);
    write_navmesh_svg(arguments.svg_path, mesh, picture);
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["mesh"] = arguments.mesh_path;
    json["from"] = {from->x, from->y, from->z};
    json["to"] = {to->x, to->y, to->z};
    json["nodes"] = to_string(arguments.nodes);
    json["status"] = to_string(result.status);
    json["reason"] = to_string(result.reason);
    json["message"] = result.message;
    json["cost"] = result.points.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(result.cost);
    json["length_2d"] = result.points.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(length_2d);
    json["corridor"] = result.nodes;
    json["waypoints"] = points_json(result.points, true);
    if (!arguments.links_path.empty()) {
      // Where the path leaves the ground: the waypoint index of each link's start (its end is
      // the next waypoint), the corridor index of the polygon it leaves, the link's id.
      nlohmann::ordered_json links = nlohmann::ordered_json::array();
      for (const PathLinkStep& step : result.links)
        links.push_back({{"waypoint", step.waypoint},
                         {"corridor_index", step.node},
                         {"link", step.link},
                         {"user_id", mesh.off_mesh_link(step.link).input.user_id},
                         {"reverse", step.reverse}});
      json["links"] = std::move(links);
    }
    json["expanded"] = result.stats.expanded;
    json["generated"] = result.stats.generated;
    json["microseconds"] = microseconds;
    if (!arguments.svg_path.empty()) json["svg"] = arguments.svg_path;
    if (range) json["y_range"] = {range->min, range->max};
    if (loaded.built) json["build"] = nlohmann::ordered_json::parse(level_build_summary_json(loaded.report));
    out << json.dump() << '\n';
  } else {
    out << "mesh:         " << arguments.mesh_path << " (" << mesh.polygon_count() << " polygons, "
        << mesh.region_count() << " regions";
    if (mesh.off_mesh_link_count() != 0) out << ", " << mesh.off_mesh_link_count() << " off-mesh links";
    out << ")\n";
    if (loaded.built) out << "navmesh:      " << level_build_summary_text(loaded.report) << '\n';
    out << "query:        " << format_point(*from) << " -> " << format_point(*to) << '\n';
    out << snap_line(mesh, "start moved:  ", *from, options)
        << snap_line(mesh, "goal moved:   ", *to, options);
    out << "nodes:        " << to_string(arguments.nodes) << '\n';
    out << "status:       " << to_string(result.status);
    if (result.status != SearchStatus::found) out << " (" << to_string(result.reason) << ")";
    out << '\n';
    if (!result.message.empty()) out << "message:      " << result.message << '\n';
    if (!result.points.empty()) {
      // The exact search (--nodes optimal) measures and minimises lengths seen from above; the
      // corridor searches' cost is the path's length in 3D.
      if (arguments.nodes == CorridorNodes::optimal)
        out << "cost:         " << format_fixed(result.cost, 6) << " (x-z length, the one the exact search minimises)\n";
      else
        out << "cost:         " << format_fixed(result.cost, 6)
            << (result.links.empty() ? " (3D length; " : " (3D length walked plus the links' costs; ")
            << format_fixed(length_2d, 6) << " in x-z)\n";
      out << "corridor:     " << result.nodes.size() << " polygons";
      if (!result.links.empty()) out << ", " << result.links.size() << " off-mesh links taken";
      out << '\n';
      out << "waypoints:    " << result.points.size() << '\n';
      std::size_t next_link = 0;
      for (std::size_t i = 0; i < result.points.size(); ++i) {
        out << "  " << format_point(result.points[i]);
        if (next_link < result.links.size() && result.links[next_link].waypoint == i) {
          const PathLinkStep& step = result.links[next_link++];
          out << "  -> off-mesh link " << step.link << (step.reverse ? " (end to start)" : "");
        }
        out << '\n';
      }
    }
    out << "expanded:     " << result.stats.expanded << '\n';
    // A first query also pays for the query object's search arrays; later queries reuse them.
    out << "microseconds: " << format_fixed(microseconds, 1) << " (find_path, first query)\n";
    if (!arguments.svg_path.empty()) {
      out << "svg:          " << arguments.svg_path;
      if (range) out << " (heights " << format_fixed(range->min, 2) << " to " << format_fixed(range->max, 2) << ")";
      out << '\n';
    }
  }
  return result.found() ? exit_ok : exit_no_path;
}

}  // namespace wayfinder::cli
