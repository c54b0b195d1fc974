#include "wayfinder/debug/navmesh_svg.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>

#include "../core/xml_text.hpp"
#include "core/text_file.hpp"

namespace wayfinder {
namespace {

constexpr std::string_view outline_colour = "#4a4f57";
constexpr std::string_view corridor_colour = "#f2b630";
constexpr std::string_view path_colour = "#d62728";
constexpr std::string_view explored_colour = "#1f77b4";
constexpr std::string_view marker_colour = "#111111";
constexpr double margin_px = 8.0;
constexpr double title_font_px = 16.0;
constexpr double title_band_px = 28.0;

/// Shortest text that reads back as the same number, locale-independent; "0" for non-finite.
std::string format_number(double value) {
  if (!std::isfinite(value)) return "0";
  if (value == 0.0) return "0";  // also turns -0 into 0
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  if (error != std::errc{}) return "0";
  return std::string(text, end);
}

using xml::escaped;

/// The page maps world (x, z) to the nested viewBox directly: one unit per world unit, so the
/// numbers in the file are the mesh's own coordinates.
void append_xz(std::string& out, const Point& point) {
  out += format_number(point.x);
  out += ',';
  out += format_number(point.z);
}

std::string polygon_points(const NavMesh& mesh, PolygonId polygon) {
  std::string points;
  for (const std::uint32_t vertex : mesh.polygon_vertices(polygon)) {
    if (!points.empty()) points += ' ';
    append_xz(points, mesh.vertex(vertex));
  }
  return points;
}

/// A circle of `radius` world units as path data (two arcs), so that many dots share one element.
void append_dot(std::string& data, const Point& centre, double radius) {
  const std::string r = format_number(radius);
  data += 'M';
  data += format_number(centre.x - radius);
  data += ',';
  data += format_number(centre.z);
  data += "a" + r + "," + r + " 0 1,0 " + format_number(2 * radius) + ",0";
  data += "a" + r + "," + r + " 0 1,0 " + format_number(-2 * radius) + ",0z";
}

bool finite_xz(const Point& point) { return std::isfinite(point.x) && std::isfinite(point.z); }

}  // namespace

std::string navmesh_svg_region_colour(std::size_t region) {
  // Successive regions step round the colour wheel by the golden angle, so any two regions with
  // nearby numbers get clearly different hues; light fills keep outlines and paths readable.
  constexpr double golden_angle_degrees = 137.50776405003785;
  const double hue = std::fmod(static_cast<double>(region % 100000) * golden_angle_degrees + 200.0, 360.0);
  return "hsl(" + std::to_string(static_cast<int>(hue)) + ",55%,80%)";
}

std::string render_navmesh_svg(const NavMesh& mesh, const NavMeshSvgOptions& options) {
  const Bounds& bounds = mesh.bounds();
  double min_x = bounds.min.x, min_z = bounds.min.z;
  double extent_x = bounds.max.x - bounds.min.x;
  double extent_z = bounds.max.z - bounds.min.z;
  if (!(std::isfinite(extent_x) && std::isfinite(extent_z)) || mesh.polygon_count() == 0) {
    min_x = min_z = 0.0;
    extent_x = extent_z = 1.0;
  }
  // A small border so that outlines and markers on the edge are not cut off.
  const double border = 0.02 * std::max({extent_x, extent_z, 1e-9});
  min_x -= border;
  min_z -= border;
  extent_x += 2 * border;
  extent_z += 2 * border;

  const double drawing_width = std::clamp(options.width_pixels, 64, 16384);
  const double pixels_per_unit = drawing_width / extent_x;
  const double drawing_height = std::clamp(extent_z * pixels_per_unit, 16.0, 65536.0);
  const double units_per_pixel = extent_z / drawing_height;  // equals 1 / pixels_per_unit unless clamped
  const double map_top = margin_px + (options.title.empty() ? 0.0 : title_band_px);
  const double page_width = std::ceil(drawing_width + 2 * margin_px);
  const double page_height = std::ceil(map_top + drawing_height + margin_px);

  std::string svg;
  svg.reserve(mesh.polygon_count() * 120 + 4096);
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + format_number(page_width) + "\" height=\"" +
         format_number(page_height) + "\" viewBox=\"0 0 " + format_number(page_width) + " " +
         format_number(page_height) + "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
  if (!options.title.empty()) svg += "<title>" + escaped(options.title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!options.title.empty())
    svg += "<text x=\"" + format_number(margin_px) + "\" y=\"" + format_number(margin_px + title_font_px) +
           "\" font-size=\"" + format_number(title_font_px) + "\" font-weight=\"bold\">" + escaped(options.title) +
           "</text>\n";
  // World units inside; x right, z down. preserveAspectRatio="none" keeps x and z at the same
  // scale unless the height had to be clamped for an extremely thin mesh.
  svg += "<svg x=\"" + format_number(margin_px) + "\" y=\"" + format_number(map_top) + "\" width=\"" +
         format_number(drawing_width) + "\" height=\"" + format_number(drawing_height) + "\" viewBox=\"" +
         format_number(min_x) + " " + format_number(min_z) + " " + format_number(extent_x) + " " +
         format_number(extent_z) + "\" preserveAspectRatio=\"none\">\n";

  // Line widths and marker sizes are given in pixels and converted to world units, so that they
  // look the same on a 1-unit test mesh and a 700-unit game map.
  auto pixels = [&](double count) { return format_number(count * units_per_pixel); };

  // Polygons, one element each, filled by region.
  svg += "<g id=\"polygons\" stroke=\"" + std::string(outline_colour) + "\" stroke-width=\"" + pixels(0.6) +
         "\" stroke-linejoin=\"round\">\n";
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    svg += "<polygon points=\"" + polygon_points(mesh, polygon) + "\" fill=\"" +
           navmesh_svg_region_colour(mesh.region(polygon)) + "\"/>\n";
  }
  svg += "</g>\n";

  if (!options.corridor.empty()) {
    std::string data;
    for (const PolygonId polygon : options.corridor) {
      if (polygon >= mesh.polygon_count()) continue;
      bool first = true;
      for (const std::uint32_t vertex : mesh.polygon_vertices(polygon)) {
        data += first ? 'M' : 'L';
        first = false;
        append_xz(data, mesh.vertex(vertex));
      }
      data += 'z';
    }
    svg += "<path id=\"corridor\" d=\"" + data + "\" fill=\"" + std::string(corridor_colour) +
           "\" fill-opacity=\"0.55\" stroke=\"" + std::string(corridor_colour) + "\" stroke-width=\"" + pixels(1.5) +
           "\" stroke-linejoin=\"round\"/>\n";
  }

  if (!options.explored.empty()) {
    std::string data;
    for (const Point& point : options.explored)
      if (finite_xz(point)) append_dot(data, point, 1.5 * units_per_pixel);
    svg += "<path id=\"explored\" d=\"" + data + "\" fill=\"" + std::string(explored_colour) +
           "\" fill-opacity=\"0.6\"/>\n";
  }

  if (!options.path.empty()) {
    std::string points;
    std::string dots;
    for (const Point& point : options.path) {
      if (!finite_xz(point)) continue;
      if (!points.empty()) points += ' ';
      append_xz(points, point);
      append_dot(dots, point, 3.0 * units_per_pixel);
    }
    svg += "<polyline id=\"path\" points=\"" + points + "\" fill=\"none\" stroke=\"" + std::string(path_colour) +
           "\" stroke-width=\"" + pixels(2.5) + "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
    svg += "<path id=\"waypoints\" d=\"" + dots + "\" fill=\"" + std::string(path_colour) + "\"/>\n";
  }

  // Start: a ring; goal: a filled dot with a ring, both a few pixels across whatever the scale.
  for (const auto& [marker, is_start] : {std::pair{options.start, true}, std::pair{options.goal, false}}) {
    if (!marker || !finite_xz(*marker)) continue;
    const double radius = 6.0 * units_per_pixel;
    svg += std::string("<circle id=\"") + (is_start ? "start" : "goal") + "\" cx=\"" + format_number(marker->x) +
           "\" cy=\"" + format_number(marker->z) + "\" r=\"" + format_number(radius) + "\" fill=\"" +
           (is_start ? std::string("#ffffff") : std::string(marker_colour)) + "\" stroke=\"" +
           std::string(marker_colour) + "\" stroke-width=\"" + pixels(2.0) + "\"/>\n";
  }
  svg += "</svg>\n</svg>\n";
  return svg;
}

void write_navmesh_svg(const std::filesystem::path& path, const NavMesh& mesh, const NavMeshSvgOptions& options) {
  write_text_file(path, render_navmesh_svg(mesh, options));
}

}  // namespace wayfinder
