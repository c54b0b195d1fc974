#include "wayfinder/debug/navmesh_svg.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "core/text_file.hpp"
#include "svg_legend.hpp"
#include "wayfinder/core/geometry.hpp"

namespace wayfinder {
namespace {

constexpr std::string_view outline_colour = "#4a4f57";
constexpr std::string_view corridor_colour = "#f2b630";
constexpr std::string_view path_colour = "#d62728";
constexpr std::string_view explored_colour = "#1f77b4";
constexpr std::string_view link_colour = "#7b3fa0";
constexpr std::string_view interval_colour = "#1f77b4";
constexpr std::string_view root_colour = "#0b3d66";
// Fill lightness (HSL %) of the lowest and the highest polygons; a flat mesh gets the middle
// one of navmesh_svg_region_colour.
constexpr int lowest_lightness = 58;
constexpr int highest_lightness = 90;
constexpr int flat_lightness = 80;

/// Shortest text that reads back as the same number, locale-independent; "0" for non-finite.
std::string format_number(double value) {
  if (!std::isfinite(value)) return "0";
  if (value == 0.0) return "0";  // also turns -0 into 0
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  if (error != std::errc{}) return "0";
  return std::string(text, end);
}

using svg_common::LegendEntry;
using svg_common::margin_px;
using svg_common::marker_colour;
using svg_common::SwatchKind;

// Outlined like the polygons, with the mesh's numbers written in full.
constexpr svg_common::LegendStyle mesh_legend_style{
    .format = format_number, .swatch_outline = outline_colour, .swatch_outline_width = 0.6, .line_width = 2.5,
    .grouped = true};

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

std::string region_colour(std::size_t region, int lightness) {
  // Successive regions step round the colour wheel by the golden angle, so any two regions with
  // nearby numbers get clearly different hues; light fills keep outlines and paths readable.
  constexpr double golden_angle_degrees = 137.50776405003785;
  const double hue = std::fmod(static_cast<double>(region % 100000) * golden_angle_degrees + 200.0, 360.0);
  return "hsl(" + std::to_string(static_cast<int>(hue)) + ",55%," + std::to_string(lightness) + "%)";
}

/// The lowest and highest vertex of a polygon.
HeightRange polygon_heights(const NavMesh& mesh, PolygonId polygon) {
  HeightRange range{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const std::uint32_t vertex : mesh.polygon_vertices(polygon)) {
    range.min = std::min(range.min, mesh.vertex(vertex).y);
    range.max = std::max(range.max, mesh.vertex(vertex).y);
  }
  return range;
}

bool overlaps(const HeightRange& a, const HeightRange& b) { return a.min <= b.max && a.max >= b.min; }

/// "12.5" with at most 2 decimals, for legend text.
std::string short_number(double value) { return svg_common::format_fixed(value, 2, "?"); }

std::string short_point(const Point& point) {
  return short_number(point.x) + "," + short_number(point.y) + "," + short_number(point.z);
}

}  // namespace

std::string navmesh_svg_region_colour(std::size_t region) { return region_colour(region, flat_lightness); }

std::vector<HeightRange> navmesh_height_bands(const NavMesh& mesh, double min_gap) {
  if (!(min_gap >= 0.0) || !std::isfinite(min_gap))
    throw std::invalid_argument("navmesh_height_bands: min_gap must be finite and non-negative, not " +
                                std::to_string(min_gap));
  std::vector<HeightRange> ranges;
  ranges.reserve(mesh.polygon_count());
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) ranges.push_back(polygon_heights(mesh, polygon));
  std::sort(ranges.begin(), ranges.end(), [](const HeightRange& a, const HeightRange& b) { return a.min < b.min; });
  std::vector<HeightRange> bands;
  for (const HeightRange& range : ranges) {
    if (!bands.empty() && range.min - bands.back().max <= min_gap)
      bands.back().max = std::max(bands.back().max, range.max);
    else
      bands.push_back(range);
  }
  return bands;
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
  if (options.level != nullptr) {
    double max_x = min_x + extent_x, max_z = min_z + extent_z;
    for (const Point& v : options.level->vertices) {
      if (!(std::isfinite(v.x) && std::isfinite(v.z))) continue;
      min_x = std::min(min_x, v.x);
      max_x = std::max(max_x, v.x);
      min_z = std::min(min_z, v.z);
      max_z = std::max(max_z, v.z);
    }
    extent_x = max_x - min_x;
    extent_z = max_z - min_z;
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
  const double map_top = margin_px + (options.title.empty() ? 0.0 : svg_common::title_band_px);
  const double content_width = std::max(drawing_width, svg_common::min_content_px);
  const double page_width = std::ceil(content_width + 2 * margin_px);

  // Line widths and marker sizes are given in pixels and converted to world units, so that they
  // look the same on a 1-unit test mesh and a 700-unit game map.
  auto pixels = [&](double count) { return format_number(count * units_per_pixel); };
  std::vector<LegendEntry> legend;

  // The polygons to draw (all, or those in the height range), lowest first so that upper floors
  // cover lower ones as seen from above.
  const bool ranged = options.y_range.has_value();
  const HeightRange y_range = ranged ? *options.y_range : HeightRange{};
  std::vector<PolygonId> drawn;
  drawn.reserve(mesh.polygon_count());
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon)
    if (!ranged || overlaps(polygon_heights(mesh, polygon), y_range)) drawn.push_back(polygon);
  std::stable_sort(drawn.begin(), drawn.end(),
                   [&](PolygonId a, PolygonId b) { return mesh.centroid(a).y < mesh.centroid(b).y; });
  const double low = drawn.empty() ? 0.0 : mesh.centroid(drawn.front()).y;
  const double high = drawn.empty() ? 0.0 : mesh.centroid(drawn.back()).y;
  const bool shaded = options.shade_by_height && high > low;
  auto lightness = [&](double y) {
    if (!shaded) return flat_lightness;
    const double t = std::clamp((y - low) / (high - low), 0.0, 1.0);
    return static_cast<int>(std::lround(lowest_lightness + t * (highest_lightness - lowest_lightness)));
  };
  auto is_drawn = [&](PolygonId polygon) {
    return polygon < mesh.polygon_count() && (!ranged || overlaps(polygon_heights(mesh, polygon), y_range));
  };

  std::string drawing;
  drawing.reserve(drawn.size() * 120 + 4096);
  if (options.level != nullptr) {
    // Under everything: the level's polygons as faint outlines (walls seen from above are lines).
    const MeshGeometry& level = *options.level;
    std::size_t level_drawn = 0;
    drawing += "<g id=\"level\" fill=\"none\" stroke=\"#8a8a8a\" stroke-opacity=\"0.45\" stroke-width=\"" +
               pixels(0.5) + "\" stroke-linejoin=\"round\">\n";
    for (const auto& polygon : level.polygons) {
      bool usable = polygon.size() >= 2;
      HeightRange heights{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
      std::string points;
      for (const std::uint32_t index : polygon) {
        if (index >= level.vertices.size() || !std::isfinite(level.vertices[index].x) ||
            !std::isfinite(level.vertices[index].z)) {
          usable = false;
          break;
        }
        const Point& v = level.vertices[index];
        heights.min = std::min(heights.min, v.y);
        heights.max = std::max(heights.max, v.y);
        if (!points.empty()) points += ' ';
        append_xz(points, v);
      }
      if (!usable || (ranged && !overlaps(heights, y_range))) continue;
      drawing += "<polygon points=\"" + points + "\"/>\n";
      ++level_drawn;
    }
    drawing += "</g>\n";
    legend.push_back({SwatchKind::line, "#bdbdbd",
                      "level geometry (" + std::to_string(level_drawn) + " polygons, walls included)"});
  }
  drawing += "<g id=\"polygons\" stroke=\"" + std::string(outline_colour) + "\" stroke-width=\"" + pixels(0.6) +
             "\" stroke-linejoin=\"round\">\n";
  for (const PolygonId polygon : drawn) {
    drawing += "<polygon points=\"" + polygon_points(mesh, polygon) + "\" fill=\"" +
               region_colour(mesh.region(polygon), lightness(mesh.centroid(polygon).y)) + "\"/>\n";
  }
  drawing += "</g>\n";
  const std::size_t regions = mesh.region_count();
  legend.push_back({SwatchKind::fill, navmesh_svg_region_colour(0),
                    regions == 1 ? "walkable polygon" : "walkable polygon, colour by connected region (" +
                                                            std::to_string(regions) + " regions)"});
  if (shaded) {
    legend.push_back({SwatchKind::fill, region_colour(0, lowest_lightness), "lowest, y " + short_number(low)});
    legend.push_back({SwatchKind::fill, region_colour(0, highest_lightness), "highest, y " + short_number(high)});
  }
  if (ranged) {
    legend.push_back({SwatchKind::none, "",
                      "showing y " + short_number(y_range.min) + " to " + short_number(y_range.max) + ": " +
                          std::to_string(drawn.size()) + " of " + std::to_string(mesh.polygon_count()) + " polygons"});
  }

  if (!options.corridor.empty()) {
    std::string data;
    for (const PolygonId polygon : options.corridor) {
      if (!is_drawn(polygon)) continue;
      bool first = true;
      for (const std::uint32_t vertex : mesh.polygon_vertices(polygon)) {
        data += first ? 'M' : 'L';
        first = false;
        append_xz(data, mesh.vertex(vertex));
      }
      data += 'z';
    }
    drawing += "<path id=\"corridor\" d=\"" + data + "\" fill=\"" + std::string(corridor_colour) +
               "\" fill-opacity=\"0.55\" stroke=\"" + std::string(corridor_colour) + "\" stroke-width=\"" +
               pixels(1.5) + "\" stroke-linejoin=\"round\"/>\n";
    legend.push_back({SwatchKind::fill, std::string(corridor_colour),
                      "corridor (" + std::to_string(options.corridor.size()) + " polygons)"});
  }

  if (mesh.off_mesh_link_count() != 0) {
    // Each off-mesh link as a dashed line between its placed ends, a dot where it starts and,
    // for a one-way link, none where it lands.
    std::string lines;
    std::string dots;
    std::size_t drawn_links = 0;
    for (std::uint32_t id = 0; id < mesh.off_mesh_link_count(); ++id) {
      const PlacedOffMeshLink& link = mesh.off_mesh_link(id);
      const bool in_range = !ranged || (link.start.y >= y_range.min && link.start.y <= y_range.max) ||
                            (link.end.y >= y_range.min && link.end.y <= y_range.max);
      if (!in_range) continue;
      lines += 'M';
      append_xz(lines, link.start);
      lines += 'L';
      append_xz(lines, link.end);
      append_dot(dots, link.start, 2.5 * units_per_pixel);
      if (link.input.bidirectional) append_dot(dots, link.end, 2.5 * units_per_pixel);
      ++drawn_links;
    }
    drawing += "<path id=\"links\" d=\"" + lines + "\" fill=\"none\" stroke=\"" + std::string(link_colour) +
               "\" stroke-width=\"" + pixels(1.8) + "\" stroke-dasharray=\"" + pixels(5) + "," + pixels(3) + "\"/>\n";
    drawing += "<path id=\"link-ends\" d=\"" + dots + "\" fill=\"" + std::string(link_colour) + "\"/>\n";
    legend.push_back({SwatchKind::dashed_line, std::string(link_colour),
                      "off-mesh link (" + std::to_string(drawn_links) + "; a dot at each end it may be taken from)"});
  }

  if (!options.explored.empty()) {
    std::string data;
    std::size_t dots = 0;
    for (const Point& point : options.explored) {
      if (!finite_xz(point) || (ranged && !(point.y >= y_range.min && point.y <= y_range.max))) continue;
      append_dot(data, point, 1.5 * units_per_pixel);
      ++dots;
    }
    drawing += "<path id=\"explored\" d=\"" + data + "\" fill=\"" + std::string(explored_colour) +
               "\" fill-opacity=\"0.6\"/>\n";
    legend.push_back({SwatchKind::dots, std::string(explored_colour),
                      "explored by the search (" + std::to_string(dots) + ")"});
  }

  auto in_range = [&](const Point& point) {
    return finite_xz(point) && (!ranged || (point.y >= y_range.min && point.y <= y_range.max));
  };
  if (!options.intervals.empty()) {
    std::string data;
    std::size_t drawn_intervals = 0;
    for (const auto& [left, right] : options.intervals) {
      if (!in_range(left) || !in_range(right)) continue;
      data += 'M';
      append_xz(data, left);
      data += 'L';
      append_xz(data, right);
      ++drawn_intervals;
    }
    drawing += "<path id=\"intervals\" d=\"" + data + "\" fill=\"none\" stroke=\"" + std::string(interval_colour) +
               "\" stroke-opacity=\"0.7\" stroke-width=\"" + pixels(1.2) + "\" stroke-linecap=\"round\"/>\n";
    legend.push_back({SwatchKind::line, std::string(interval_colour),
                      "intervals the exact search expanded (" + std::to_string(drawn_intervals) + ")"});
  }
  if (!options.roots.empty()) {
    std::string data;
    std::size_t drawn_roots = 0;
    for (const Point& point : options.roots) {
      if (!in_range(point)) continue;
      append_dot(data, point, 3.0 * units_per_pixel);
      ++drawn_roots;
    }
    drawing += "<path id=\"roots\" d=\"" + data + "\" fill=\"none\" stroke=\"" + std::string(root_colour) +
               "\" stroke-width=\"" + pixels(1.2) + "\"/>\n";
    legend.push_back({SwatchKind::dots, std::string(root_colour),
                      "roots the exact search turned at (" + std::to_string(drawn_roots) + ")"});
  }

  if (!options.path.empty()) {
    std::string points;
    std::string dots;
    double length = 0.0;
    const Point* previous = nullptr;
    for (const Point& point : options.path) {
      if (!finite_xz(point)) continue;
      if (!points.empty()) points += ' ';
      append_xz(points, point);
      append_dot(dots, point, 3.0 * units_per_pixel);
      if (previous != nullptr)
        length += geometry::distance(*previous, point);
      previous = &point;
    }
    drawing += "<polyline id=\"path\" points=\"" + points + "\" fill=\"none\" stroke=\"" +
               std::string(path_colour) + "\" stroke-width=\"" + pixels(2.5) +
               "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
    drawing += "<path id=\"waypoints\" d=\"" + dots + "\" fill=\"" + std::string(path_colour) + "\"/>\n";
    legend.push_back({SwatchKind::line, std::string(path_colour),
                      "path, length " + short_number(length) + " (" + std::to_string(options.path.size()) +
                          " waypoints)"});
  }

  // Start and goal as the grid picture draws them, about 5 pixels across whatever the scale.
  for (const bool is_start : {true, false}) {
    const std::optional<Point>& marker = is_start ? options.start : options.goal;
    if (!marker || !finite_xz(*marker)) continue;
    drawing += svg_common::marker_shape(format_number, is_start, marker->x, marker->z, 5.0 * units_per_pixel,
                                 1.5 * units_per_pixel, is_start ? "start" : "goal");
    legend.push_back({is_start ? SwatchKind::start_marker : SwatchKind::goal_marker, std::string(marker_colour),
                      (is_start ? "start " : "goal ") + short_point(*marker)});
  }

  const double legend_top = map_top + drawing_height + margin_px;
  std::string legend_svg;
  double legend_height = 0.0;
  if (options.show_legend && !legend.empty())
    legend_height = svg_common::draw_legend(legend, mesh_legend_style, legend_top, content_width, legend_svg) + margin_px / 2.0;
  const double page_height = std::ceil(options.show_legend ? legend_top + legend_height : legend_top);

  std::string svg;
  svg.reserve(drawing.size() + legend_svg.size() + 1024);
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + format_number(page_width) + "\" height=\"" +
         format_number(page_height) + "\" viewBox=\"0 0 " + format_number(page_width) + " " +
         format_number(page_height) + "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
  svg += svg_common::title_and_background(options.title);
  // World units inside; x right, z down. preserveAspectRatio="none" keeps x and z at the same
  // scale unless the height had to be clamped for an extremely thin mesh.
  svg += "<svg x=\"" + format_number(margin_px) + "\" y=\"" + format_number(map_top) + "\" width=\"" +
         format_number(drawing_width) + "\" height=\"" + format_number(drawing_height) + "\" viewBox=\"" +
         format_number(min_x) + " " + format_number(min_z) + " " + format_number(extent_x) + " " +
         format_number(extent_z) + "\" preserveAspectRatio=\"none\">\n";
  svg += drawing;
  svg += "</svg>\n";
  svg += legend_svg;
  svg += "</svg>\n";
  return svg;
}

void write_navmesh_svg(const std::filesystem::path& path, const NavMesh& mesh, const NavMeshSvgOptions& options) {
  write_text_file(path, render_navmesh_svg(mesh, options));
}

}  // namespace wayfinder
