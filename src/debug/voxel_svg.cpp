#include "wayfinder/debug/voxel_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text_file.hpp"
#include "svg_legend.hpp"

namespace wayfinder {

namespace {

// The world is drawn on dark ground (an empty column shows it) and the page around it is white,
// as in the grid picture. The start and goal markers are every picture's (svg_legend.hpp).
constexpr std::string_view empty_colour = "#1b1b24";
constexpr std::string_view water_colour = "#3a6ea5";
constexpr std::string_view ladder_colour = "#a5773a";
constexpr std::string_view explored_colour = "#e0a030";
constexpr double explored_opacity = 0.35;
constexpr std::string_view path_colour = "#ff3060";

using svg_common::LegendEntry;
using svg_common::legend_font_px;
using svg_common::margin_px;
using svg_common::marker_colour;
using svg_common::title_font_px;
using svg_common::SwatchKind;
using svg_common::format_number;

std::string grey(double shade) {
  const int level = std::clamp(static_cast<int>(60.0 + 170.0 * shade), 0, 255);
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", level, level, level);
  return text;
}

std::string rect(double x, double y, double width, double height, std::string_view fill, std::string_view extra = {}) {
  std::string svg = "<rect x=\"" + format_number(x) + "\" y=\"" + format_number(y) + "\" width=\"" + format_number(width) + "\" height=\"" +
                    format_number(height) + "\" fill=\"" + std::string(fill) + "\"";
  if (!extra.empty()) svg += " " + std::string(extra);
  return svg + "/>\n";
}

std::string coord_label(VoxelCoord at) {
  return std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z);
}

}  // namespace

std::string render_voxel_svg(const VoxelWorld& world, const PathResult& result, VoxelCoord start, VoxelCoord goal,
                             const VoxelSvgOptions& options) {
  const int width = std::max(world.size_x(), 1);
  const int depth = std::max(world.size_z(), 1);
  // The heights drawn: the requested range, clipped to the world's.
  const int low = std::max(options.min_y, 0);
  const int high = std::min(options.max_y, world.size_y() - 1);
  const bool whole_height = low == 0 && high == world.size_y() - 1;
  // Named by the heights drawn (a range reaching past the world is clipped to it).
  const std::string range_text = high >= low ? std::to_string(low) + ".." + std::to_string(high)
                                             : std::to_string(options.min_y) + ".." + std::to_string(options.max_y);
  auto in_range = [&](int y) { return y >= low && y <= high; };

  // Keep the picture around 1000 pixels across, whatever the world's size.
  const double cell = std::clamp(1000.0 / std::max(width, depth), 1.0, 24.0);
  const double map_width = cell * width;
  const double map_height = cell * depth;
  // Wide enough for the title too (estimated at 0.62 em per character, as the legend's text).
  const double title_width = static_cast<double>(options.title.size()) * title_font_px * 0.62;
  const double content_width = std::max({map_width, svg_common::min_content_px, title_width});
  const double map_top = margin_px + (options.title.empty() ? 0.0 : svg_common::title_band_px);
  std::vector<LegendEntry> legend;

  // Columns, shaded by their highest block in the range.
  std::string map;
  map += rect(0, 0, map_width, map_height, empty_colour);
  bool any_water = false;
  bool any_ladder = false;
  int lowest_top = high;
  int highest_top = low;
  const double shade_span = std::max(1, high - low);
  for (int z = 0; z < world.size_z(); ++z)
    for (int x = 0; x < world.size_x(); ++x) {
      int top = -1;
      for (int y = high; y >= low; --y)
        if (world.block(x, y, z) != BlockKind::air) {
          top = y;
          break;
        }
      if (top < 0) continue;  // nothing in range: the dark ground shows
      const BlockKind kind = world.block(x, top, z);
      std::string fill;
      if (kind == BlockKind::water) {
        fill = water_colour;
        any_water = true;
      } else if (kind == BlockKind::ladder) {
        fill = ladder_colour;
        any_ladder = true;
      } else {
        fill = grey((top - low) / shade_span);
        lowest_top = std::min(lowest_top, top);
        highest_top = std::max(highest_top, top);
      }
      map += rect(x * cell, z * cell, cell, cell, fill);
    }
  legend.push_back({SwatchKind::fill, std::string(empty_colour),
                    whole_height ? "no block in the column" : "no block at y " + range_text});
  if (lowest_top <= highest_top) {
    legend.push_back({SwatchKind::fill, grey((lowest_top - low) / shade_span), "highest block at y " + std::to_string(lowest_top)});
    if (highest_top != lowest_top)
      legend.push_back({SwatchKind::fill, grey((highest_top - low) / shade_span), "highest block at y " + std::to_string(highest_top)});
  }
  if (any_water) legend.push_back({SwatchKind::fill, std::string(water_colour), "water on top"});
  if (any_ladder) legend.push_back({SwatchKind::fill, std::string(ladder_colour), "ladder on top"});

  // Explored columns: one tint per column, however many of its blocks the search expanded.
  if (options.trace != nullptr) {
    std::vector<bool> explored(static_cast<std::size_t>(world.size_x()) * static_cast<std::size_t>(world.size_z()), false);
    bool any_explored = false;
    for (const TraceRecord& event : options.trace->events()) {
      if (event.event != TraceEvent::closed) continue;
      const VoxelCoord at = world.coord_of(event.node);
      if (!world.contains(at) || !in_range(at.y)) continue;
      explored[static_cast<std::size_t>(at.z) * static_cast<std::size_t>(world.size_x()) + static_cast<std::size_t>(at.x)] = true;
      any_explored = true;
    }
    for (int z = 0; z < world.size_z(); ++z)
      for (int x = 0; x < world.size_x(); ++x)
        if (explored[static_cast<std::size_t>(z) * static_cast<std::size_t>(world.size_x()) + static_cast<std::size_t>(x)])
          map += rect(x * cell, z * cell, cell, cell, explored_colour, "fill-opacity=\"" + format_number(explored_opacity) + "\"");
    if (any_explored)
      legend.push_back({SwatchKind::fill, std::string(explored_colour),
                        whole_height ? "explored column" : "explored at y " + range_text, explored_opacity});
  }

  // The path: runs of steps inside the range solid, the whole path dashed and faint under them
  // when part of it lies outside.
  std::string path;
  const double stroke = std::max(1.5, cell / 3);
  auto point_text = [&](NodeId node) {
    const VoxelCoord at = world.coord_of(node);
    return format_number((at.x + 0.5) * cell) + "," + format_number((at.z + 0.5) * cell);
  };
  auto polyline = [&](std::size_t begin, std::size_t end, std::string_view extra) {
    std::string points;
    for (std::size_t i = begin; i < end; ++i) points += (i == begin ? "" : " ") + point_text(result.nodes[i]);
    return "<polyline fill=\"none\" stroke=\"" + std::string(path_colour) + "\" stroke-width=\"" + format_number(stroke) +
           "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" " + std::string(extra) + " points=\"" + points + "\"/>\n";
  };
  if (result.nodes.size() >= 2) {
    bool all_inside = true;
    for (const NodeId node : result.nodes) all_inside = all_inside && in_range(world.coord_of(node).y);
    if (!all_inside) {
      path += polyline(0, result.nodes.size(),
                       "stroke-opacity=\"0.45\" stroke-dasharray=\"" + format_number(stroke * 2) + " " + format_number(stroke * 1.5) + "\"");
      legend.push_back({SwatchKind::dashed_line, std::string(path_colour), "path outside y " + range_text});
    }
    bool any_inside = false;
    std::size_t run = 0;
    for (std::size_t i = 0; i <= result.nodes.size(); ++i) {
      if (i < result.nodes.size() && in_range(world.coord_of(result.nodes[i]).y)) continue;
      if (i - run >= 2) {
        path += polyline(run, i, "");
        any_inside = true;
      }
      run = i + 1;
    }
    if (any_inside) legend.push_back({SwatchKind::line, std::string(path_colour), whole_height ? "path" : "path at y " + range_text});
  }

  // Start and goal, sized like the grid picture's: at least 5 pixels, and a third of a block.
  const double radius = std::max(5.0, cell * 0.35);
  const double ring = std::max(1.5, cell * 0.15);
  for (const bool is_start : {true, false}) {
    const VoxelCoord at = is_start ? start : goal;
    if (!world.contains(at)) continue;
    path += svg_common::marker_shape(format_number, is_start, (at.x + 0.5) * cell, (at.z + 0.5) * cell, radius, ring);
    legend.push_back({is_start ? SwatchKind::start_marker : SwatchKind::goal_marker, std::string(marker_colour),
                      (is_start ? "start " : "goal ") + coord_label(at)});
  }

  const double legend_top = map_top + map_height + margin_px;
  std::string legend_svg;
  double legend_height = 0.0;
  if (options.show_legend && !legend.empty())
    legend_height = svg_common::draw_legend(legend, svg_common::LegendStyle{}, legend_top, content_width, legend_svg) + margin_px / 2.0;
  const double page_width = std::ceil(content_width + 2 * margin_px);
  const double page_height = std::ceil(legend_top + legend_height);

  std::string svg;
  svg.reserve(map.size() + path.size() + legend_svg.size() + 1024);
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + format_number(page_width) + "\" height=\"" + format_number(page_height) +
         "\" viewBox=\"0 0 " + format_number(page_width) + " " + format_number(page_height) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"" + format_number(legend_font_px) + "\">\n";
  svg += svg_common::title_and_background(options.title);
  svg += "<g transform=\"translate(" + format_number(margin_px) + "," + format_number(map_top) + ")\">\n";
  svg += "<g shape-rendering=\"crispEdges\">\n" + map + "</g>\n";  // no hairline seams between columns
  svg += path;
  svg += "</g>\n";
  svg += legend_svg;
  svg += "</svg>\n";
  return svg;
}

void write_voxel_svg(const std::filesystem::path& path, const VoxelWorld& world, const PathResult& result,
                     VoxelCoord start, VoxelCoord goal, const VoxelSvgOptions& options) {
  write_text_file(path, render_voxel_svg(world, result, start, goal, options));
}

}  // namespace wayfinder
