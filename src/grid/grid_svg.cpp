#include "wayfinder/grid/grid_svg.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace wayfinder {
namespace {

// ---- Colours ------------------------------------------------------------------------------

struct Rgb {
  double r, g, b;
};

constexpr Rgb blocked_rgb{0x30, 0x34, 0x3b};
constexpr Rgb ground_rgb{0xf5, 0xf2, 0xea};
// Terrain dearer than ground passes through these at cost 2, 4 and 8 (and stays dark above).
constexpr Rgb costly_ramp[] = {{0xc4, 0xcf, 0x8f}, {0x9a, 0x7b, 0x45}, {0x5a, 0x41, 0x24}};
constexpr Rgb cheap_rgb{0x9c, 0xc8, 0xe8};   // terrain cheaper than 1 (roads) fades towards this

constexpr std::string_view closed_colour = "#3b82c4";
constexpr double closed_opacity = 0.34;
constexpr std::string_view open_colour = "#f2b630";
constexpr double open_opacity = 0.6;
constexpr std::string_view marker_colour = "#111111";

constexpr std::array<std::string_view, 10> palette = {"#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                                                      "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

std::string hex_colour(const Rgb& colour) {
  auto channel = [](double value) { return static_cast<int>(std::lround(std::clamp(value, 0.0, 255.0))); };
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", channel(colour.r), channel(colour.g), channel(colour.b));
  return text;
}

Rgb mix(const Rgb& from, const Rgb& to, double t) {
  return {from.r + (to.r - from.r) * t, from.g + (to.g - from.g) * t, from.b + (to.b - from.b) * t};
}

/// Terrain gets darker as it gets more expensive, on a log scale so that cost 2, 3 and 8 are all
/// told apart; the shade is quantised so a map with many distinct costs still has few colours.
std::string terrain_colour(float cost) {
  constexpr double levels = 8.0;  // shades per doubling of the cost
  const double log_cost = std::round(std::log2(static_cast<double>(cost)) * levels) / levels;
  if (log_cost <= 0.0) return hex_colour(mix(ground_rgb, cheap_rgb, std::min(1.0, -log_cost / 3.0)));
  const double position = std::min(log_cost, 3.0);  // 0 at cost 1 .. 3 at cost 8
  const auto stop = static_cast<int>(std::min(position, 2.999));
  const Rgb& from = stop == 0 ? ground_rgb : costly_ramp[stop - 1];
  return hex_colour(mix(from, costly_ramp[stop], position - stop));
}

// ---- Text ---------------------------------------------------------------------------------

/// Locale-independent, at most 3 decimals, no trailing zeros.
std::string format_number(double value) {
  if (!std::isfinite(value)) return "0";
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 3);
  if (error != std::errc{}) return "0";
  std::string result(text, end);
  if (result.find('.') != std::string::npos) {
    while (result.back() == '0') result.pop_back();
    if (result.back() == '.') result.pop_back();
  }
  if (result == "-0") result = "0";
  return result;
}

std::string escape_xml(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default:
        // Control characters other than tab and newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') escaped += c;
    }
  }
  return escaped;
}

// ---- Merging equal cells into rectangles ---------------------------------------------------

/// Emits every maximal horizontal run of cells with the same class, merged downwards with the
/// identical run of the next row, as a rectangle "m dx dy h w v h h -w z" into the path data of
/// its class. `class_of(x, y)` returns a class index, or -1 for cells that are not drawn. This is
/// a cheap form of greedy meshing: a maze's one-cell walls become one rectangle per wall, not
/// per cell. Moves are relative to the previous rectangle (after "z" the pen is back at its
/// corner), which keeps the numbers short.
template <class ClassOf>
void merge_cells_into_rectangles(int width, int height, std::vector<std::string>& path_data, ClassOf class_of) {
  struct Run {
    int x_begin;
    int x_end;  // exclusive
    int cell_class;
    int y_begin;
  };
  struct Pen {
    int x = 0;
    int y = 0;
  };
  std::vector<Pen> pens(path_data.size());
  auto emit = [&](const Run& run, int y_end) {
    const auto index = static_cast<std::size_t>(run.cell_class);
    std::string& data = path_data[index];
    Pen& pen = pens[index];
    data += 'm';
    data += std::to_string(run.x_begin - pen.x);
    data += ' ';
    data += std::to_string(run.y_begin - pen.y);
    data += 'h';
    data += std::to_string(run.x_end - run.x_begin);
    data += 'v';
    data += std::to_string(y_end - run.y_begin);
    data += 'h';
    data += std::to_string(run.x_begin - run.x_end);
    data += 'z';
    pen = {run.x_begin, run.y_begin};
  };

  std::vector<Run> growing;  // runs still open at the previous row, sorted by x_begin
  std::vector<Run> row_runs;
  std::vector<Run> next_growing;
  for (int y = 0; y < height; ++y) {
    row_runs.clear();
    for (int x = 0; x < width;) {
      const int cell_class = class_of(x, y);
      int end = x + 1;
      while (end < width && class_of(end, y) == cell_class) ++end;
      if (cell_class >= 0) row_runs.push_back({x, end, cell_class, y});
      x = end;
    }
    next_growing.clear();
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < growing.size() || j < row_runs.size()) {
      if (j == row_runs.size() || (i < growing.size() && growing[i].x_begin < row_runs[j].x_begin)) {
        emit(growing[i++], y);
      } else if (i == growing.size() || row_runs[j].x_begin < growing[i].x_begin) {
        next_growing.push_back(row_runs[j++]);
      } else if (growing[i].x_end == row_runs[j].x_end && growing[i].cell_class == row_runs[j].cell_class) {
        next_growing.push_back(growing[i++]);  // same run continues one row further down
        ++j;
      } else {
        emit(growing[i++], y);
        next_growing.push_back(row_runs[j++]);
      }
    }
    growing.swap(next_growing);
  }
  for (const Run& run : growing) emit(run, height);
}

// ---- Polylines ----------------------------------------------------------------------------

struct Vec2 {
  double x, y;
};

/// Drops repeated points and the inner points of straight stretches: a grid path is mostly
/// straight runs, and only its turns need to be written.
std::vector<Vec2> simplify_polyline(const std::vector<Vec2>& points) {
  std::vector<Vec2> kept;
  for (const Vec2& point : points) {
    if (!kept.empty() && std::abs(point.x - kept.back().x) < 1e-12 && std::abs(point.y - kept.back().y) < 1e-12)
      continue;
    if (kept.size() >= 2) {
      const Vec2& a = kept[kept.size() - 2];
      const Vec2& b = kept.back();
      const double cross = (b.x - a.x) * (point.y - b.y) - (b.y - a.y) * (point.x - b.x);
      const double dot = (b.x - a.x) * (point.x - b.x) + (b.y - a.y) * (point.y - b.y);
      if (std::abs(cross) < 1e-9 && dot > 0.0) {
        kept.back() = point;
        continue;
      }
    }
    kept.push_back(point);
  }
  return kept;
}

/// Shifts a polyline sideways by `offset` (positive: to the left of the direction of travel in
/// SVG's y-down frame), with mitred corners limited to twice the offset.
std::vector<Vec2> offset_polyline(const std::vector<Vec2>& points, double offset) {
  if (offset == 0.0 || points.size() < 2) return points;
  auto unit_normal = [](const Vec2& a, const Vec2& b) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double length = std::hypot(dx, dy);
    return Vec2{dy / length, -dx / length};
  };
  std::vector<Vec2> shifted;
  shifted.reserve(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    Vec2 normal;
    double scale = offset;
    if (k == 0) {
      normal = unit_normal(points[0], points[1]);
    } else if (k + 1 == points.size()) {
      normal = unit_normal(points[k - 1], points[k]);
    } else {
      const Vec2 in = unit_normal(points[k - 1], points[k]);
      const Vec2 out = unit_normal(points[k], points[k + 1]);
      const Vec2 sum{in.x + out.x, in.y + out.y};
      const double length = std::hypot(sum.x, sum.y);
      if (length < 1e-9) {  // a U-turn: no mitre exists
        normal = in;
      } else {
        normal = {sum.x / length, sum.y / length};
        const double cosine = normal.x * in.x + normal.y * in.y;
        scale = offset / std::max(cosine, 0.5);
      }
    }
    shifted.push_back({points[k].x + normal.x * scale, points[k].y + normal.y * scale});
  }
  return shifted;
}

std::string polyline_points(const std::vector<Vec2>& points) {
  std::string text;
  for (const Vec2& point : points) {
    if (!text.empty()) text += ' ';
    text += format_number(point.x);
    text += ',';
    text += format_number(point.y);
  }
  return text;
}

// ---- Legend -------------------------------------------------------------------------------

enum class SwatchKind : std::uint8_t { fill, line, dashed_line, start_marker, goal_marker };

struct LegendEntry {
  SwatchKind kind;
  std::string colour;
  double opacity;
  std::string label;
};

constexpr double legend_font_px = 12.0;
constexpr double legend_row_px = 20.0;
constexpr double legend_swatch_px = 22.0;
constexpr double title_font_px = 16.0;
constexpr double title_band_px = 28.0;
constexpr double margin_px = 8.0;
constexpr double min_content_px = 480.0;

/// Width the legend entry takes up; text width is estimated (no font metrics in a library that
/// only writes text), generously, at 0.62 em per character.
double legend_entry_width(const LegendEntry& entry) {
  return legend_swatch_px + 6.0 + static_cast<double>(entry.label.size()) * legend_font_px * 0.62 + 16.0;
}

void append_swatch(std::string& svg, const LegendEntry& entry, double x, double y) {
  const double middle = y + legend_row_px / 2.0;
  switch (entry.kind) {
    case SwatchKind::fill:
      svg += "<rect x=\"" + format_number(x) + "\" y=\"" + format_number(middle - 6.0) +
             "\" width=\"" + format_number(legend_swatch_px) + "\" height=\"12\" fill=\"" + entry.colour +
             "\" fill-opacity=\"" + format_number(entry.opacity) + "\" stroke=\"#888888\" stroke-width=\"0.5\"/>";
      break;
    case SwatchKind::line:
    case SwatchKind::dashed_line:
      svg += "<line x1=\"" + format_number(x) + "\" y1=\"" + format_number(middle) + "\" x2=\"" +
             format_number(x + legend_swatch_px) + "\" y2=\"" + format_number(middle) + "\" stroke=\"" +
             entry.colour + "\" stroke-width=\"3\" stroke-linecap=\"round\"" +
             (entry.kind == SwatchKind::dashed_line ? " stroke-dasharray=\"5 3\"" : "") + "/>";
      break;
    case SwatchKind::start_marker:
      svg += "<circle cx=\"" + format_number(x + legend_swatch_px / 2.0) + "\" cy=\"" + format_number(middle) +
             "\" r=\"6\" fill=\"" + entry.colour + "\" stroke=\"#ffffff\" stroke-width=\"2\"/>";
      break;
    case SwatchKind::goal_marker: {
      const double cx = x + legend_swatch_px / 2.0;
      svg += "<rect x=\"" + format_number(cx - 5.5) + "\" y=\"" + format_number(middle - 5.5) +
             "\" width=\"11\" height=\"11\" transform=\"rotate(45 " + format_number(cx) + ' ' + format_number(middle) +
             ")\" fill=\"" + entry.colour + "\" stroke=\"#ffffff\" stroke-width=\"2\"/>";
      break;
    }
  }
}

// ---- The picture --------------------------------------------------------------------------

struct TerrainSummary {
  std::vector<std::string> class_colours;  ///< cell class -> fill colour; class 0 is blocked
  std::vector<int> cell_class;             ///< per cell; -1 for ground of cost 1 (the background)
  std::vector<float> distinct_costs;       ///< sorted costs != 1 present in the map (up to a limit)
  bool many_costs = false;                 ///< more distinct costs than distinct_costs holds
  float min_cost = 1.0f;
  float max_cost = 1.0f;
  bool has_blocked = false;
};

TerrainSummary summarise_terrain(const GridMap& map) {
  constexpr std::size_t max_listed_costs = 6;
  TerrainSummary summary;
  summary.class_colours.push_back(hex_colour(blocked_rgb));
  summary.cell_class.assign(map.cell_count(), -1);
  bool first_cost = true;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const NodeId id = map.id_of(x, y);
      if (!map.passable(x, y)) {
        summary.cell_class[id] = 0;
        summary.has_blocked = true;
        continue;
      }
      const float cost = map.cost(id);
      if (cost == 1.0f) continue;
      if (first_cost) {
        summary.min_cost = summary.max_cost = cost;
        first_cost = false;
      }
      summary.min_cost = std::min(summary.min_cost, cost);
      summary.max_cost = std::max(summary.max_cost, cost);
      auto& costs = summary.distinct_costs;
      if (!summary.many_costs && std::find(costs.begin(), costs.end(), cost) == costs.end()) {
        if (costs.size() < max_listed_costs)
          costs.push_back(cost);
        else
          summary.many_costs = true;
      }
      const std::string colour = terrain_colour(cost);
      auto& colours = summary.class_colours;
      const auto found = std::find(colours.begin(), colours.end(), colour);
      summary.cell_class[id] = static_cast<int>(found - colours.begin());
      if (found == colours.end()) colours.push_back(colour);
    }
  }
  std::sort(summary.distinct_costs.begin(), summary.distinct_costs.end());
  return summary;
}

enum class ExploredState : std::uint8_t { none, open, closed };

std::vector<ExploredState> explored_cells(const GridMap& map, const SearchTrace& trace) {
  std::vector<ExploredState> state(map.cell_count(), ExploredState::none);
  for (const TraceRecord& event : trace.events()) {
    if (event.node >= state.size()) continue;  // a trace of some other map: ignore what does not fit
    if (event.event == TraceEvent::closed)
      state[event.node] = ExploredState::closed;
    else if (state[event.node] == ExploredState::none)
      state[event.node] = ExploredState::open;
  }
  return state;
}

void append_filled_layer(std::string& svg, const std::vector<std::string>& path_data,
                         const std::vector<std::string>& colours, double opacity) {
  for (std::size_t i = 0; i < path_data.size(); ++i) {
    if (path_data[i].empty()) continue;
    svg += "<path fill=\"" + colours[i] + "\"";
    if (opacity < 1.0) svg += " fill-opacity=\"" + format_number(opacity) + "\"";
    svg += " d=\"" + path_data[i] + "\"/>\n";
  }
}

}  // namespace

std::string grid_svg_palette_colour(std::size_t index) { return std::string(palette[index % palette.size()]); }

std::string render_grid_svg(const GridMap& map, const GridSvgOptions& options) {
  const int width = std::max(map.width(), 1);
  const int height = std::max(map.height(), 1);
  const double max_pixels = std::max(options.max_pixels, 64);
  const double scale = std::min(32.0, max_pixels / std::max(width, height));  // pixels per cell
  const double map_px_width = width * scale;
  const double map_px_height = height * scale;
  const double content_width = std::max(map_px_width, min_content_px);
  const double px = 1.0 / scale;  // one pixel in cell units: keeps thin things visible on big maps

  // Legend entries, collected while the layers are drawn and laid out afterwards.
  std::vector<LegendEntry> legend;

  std::string cells_svg;
  const TerrainSummary terrain = summarise_terrain(map);
  if (map.width() > 0 && map.height() > 0) {
    std::vector<std::string> path_data(terrain.class_colours.size());
    merge_cells_into_rectangles(map.width(), map.height(), path_data,
                                [&](int x, int y) { return terrain.cell_class[map.id_of(x, y)]; });
    append_filled_layer(cells_svg, path_data, terrain.class_colours, 1.0);
  }
  legend.push_back({SwatchKind::fill, hex_colour(ground_rgb), 1.0, "passable"});
  if (terrain.has_blocked) legend.push_back({SwatchKind::fill, hex_colour(blocked_rgb), 1.0, "blocked"});
  if (terrain.many_costs) {
    legend.push_back({SwatchKind::fill, terrain_colour(terrain.min_cost), 1.0,
                      "cost " + format_number(terrain.min_cost)});
    legend.push_back({SwatchKind::fill, terrain_colour(terrain.max_cost), 1.0,
                      "cost " + format_number(terrain.max_cost)});
  } else {
    for (const float cost : terrain.distinct_costs)
      legend.push_back({SwatchKind::fill, terrain_colour(cost), 1.0, "cost " + format_number(cost)});
  }

  std::string explored_svg;
  if (options.trace != nullptr && map.cell_count() > 0) {
    const std::vector<ExploredState> state = explored_cells(map, *options.trace);
    std::vector<std::string> closed_data(1);
    std::vector<std::string> open_data(1);
    merge_cells_into_rectangles(map.width(), map.height(), closed_data, [&](int x, int y) {
      return state[map.id_of(x, y)] == ExploredState::closed ? 0 : -1;
    });
    merge_cells_into_rectangles(map.width(), map.height(), open_data, [&](int x, int y) {
      return state[map.id_of(x, y)] == ExploredState::open ? 0 : -1;
    });
    append_filled_layer(explored_svg, closed_data, {std::string(closed_colour)}, closed_opacity);
    append_filled_layer(explored_svg, open_data, {std::string(open_colour)}, open_opacity);
    legend.push_back({SwatchKind::fill, std::string(closed_colour), closed_opacity, "expanded (closed)"});
    legend.push_back({SwatchKind::fill, std::string(open_colour), open_opacity, "open list"});
  }

  // Paths: side by side, each as wide as fits in about a cell, but never thinner than 2 pixels.
  // Every line gets a thin light casing, drawn beneath all of them, so that it stands out on
  // dark walls and on the shaded cells alike.
  std::string casings_svg;
  std::string paths_svg;
  std::size_t drawn_paths = 0;
  for (const GridSvgPath& path : options.paths)
    if (!path.cells.empty() || !path.waypoints.empty()) ++drawn_paths;
  const double path_count = static_cast<double>(std::max<std::size_t>(drawn_paths, 1));
  const bool spread = options.side_by_side_paths && drawn_paths > 1;
  const double stroke = std::max(spread ? std::min(1.2 / path_count, 0.3) : 0.3, 2.0 * px);
  const double casing = stroke + 2.0 * px;
  std::size_t path_index = 0;
  for (std::size_t i = 0; i < options.paths.size(); ++i) {
    const GridSvgPath& path = options.paths[i];
    if (path.cells.empty() && path.waypoints.empty()) continue;
    const std::string colour = path.colour.empty() ? grid_svg_palette_colour(i) : path.colour;
    const double offset = spread ? (static_cast<double>(path_index) - (path_count - 1.0) / 2.0) * stroke : 0.0;
    ++path_index;
    if (!path.cells.empty()) {
      std::vector<Vec2> points;
      points.reserve(path.cells.size());
      for (const NodeId id : path.cells) {
        if (id >= map.cell_count()) continue;
        const Point centre = GridMap::centre(map.cell_of(id));
        points.push_back({centre.x, centre.y});
      }
      const std::vector<Vec2> line = offset_polyline(simplify_polyline(points), offset);
      if (line.size() == 1) {
        paths_svg += "<circle cx=\"" + format_number(line[0].x) + "\" cy=\"" + format_number(line[0].y) + "\" r=\"" +
                     format_number(stroke) + "\" fill=\"" + colour + "\"/>\n";
      } else if (line.size() > 1) {
        const std::string points_text = polyline_points(line);
        casings_svg += "<polyline points=\"" + points_text + "\"/>\n";
        paths_svg += "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" + format_number(stroke) +
                     "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"" + points_text + "\"/>\n";
      }
      if (!path.label.empty() || path.waypoints.empty())
        legend.push_back({SwatchKind::line, colour, 1.0, path.label.empty() ? "path" : path.label});
    }
    if (!path.waypoints.empty()) {
      std::vector<Vec2> points;
      for (const Point& point : path.waypoints) points.push_back({point.x, point.y});
      const std::vector<Vec2> line = offset_polyline(simplify_polyline(points), offset);
      const double dash = std::max(0.6, 5.0 * px);
      paths_svg += "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" + format_number(stroke) +
                   "\" stroke-dasharray=\"" + format_number(dash) + ' ' + format_number(dash * 0.6) +
                   "\" stroke-linejoin=\"round\" points=\"" + polyline_points(line) + "\"/>\n";
      // Waypoint dots only where cells are big enough for them not to blur into the line.
      if (scale >= 4.0)
        for (const Vec2& point : line)
          paths_svg += "<circle cx=\"" + format_number(point.x) + "\" cy=\"" + format_number(point.y) + "\" r=\"" +
                       format_number(stroke * 1.2) + "\" fill=\"" + colour + "\" stroke=\"#ffffff\" stroke-width=\"" +
                       format_number(px) + "\"/>\n";
      const std::string label = path.label.empty() ? "path" : path.label;
      legend.push_back({SwatchKind::dashed_line, colour, 1.0, label + " (smoothed)"});
    }
  }
  if (!casings_svg.empty())
    casings_svg = "<g fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.85\" stroke-width=\"" +
                  format_number(casing) + "\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n" + casings_svg +
                  "</g>\n";

  // Start and goal: neutral shapes (a disc and a diamond) that clash with no path colour.
  std::string markers_svg;
  const double marker_radius = std::max(0.7, 5.0 * px);
  const double ring = std::max(0.15, 1.5 * px);
  if (options.start && map.contains(*options.start)) {
    const Point centre = GridMap::centre(*options.start);
    markers_svg += "<circle cx=\"" + format_number(centre.x) + "\" cy=\"" + format_number(centre.y) + "\" r=\"" +
                   format_number(marker_radius) + "\" fill=\"" + std::string(marker_colour) +
                   "\" stroke=\"#ffffff\" stroke-width=\"" + format_number(ring) + "\"/>\n";
    legend.push_back({SwatchKind::start_marker, std::string(marker_colour), 1.0,
                      "start " + std::to_string(options.start->x) + "," + std::to_string(options.start->y)});
  }
  if (options.goal && map.contains(*options.goal)) {
    const Point centre = GridMap::centre(*options.goal);
    const double half = marker_radius * 0.8;
    markers_svg += "<rect x=\"" + format_number(centre.x - half) + "\" y=\"" + format_number(centre.y - half) +
                   "\" width=\"" + format_number(2 * half) + "\" height=\"" + format_number(2 * half) +
                   "\" transform=\"rotate(45 " + format_number(centre.x) + ' ' + format_number(centre.y) +
                   ")\" fill=\"" + std::string(marker_colour) + "\" stroke=\"#ffffff\" stroke-width=\"" +
                   format_number(ring) + "\"/>\n";
    legend.push_back({SwatchKind::goal_marker, std::string(marker_colour), 1.0,
                      "goal " + std::to_string(options.goal->x) + "," + std::to_string(options.goal->y)});
  }

  // Layout in pixels: title band, map, legend rows (entries flow left to right and wrap).
  const double title_height = options.title.empty() ? 0.0 : title_band_px;
  const double map_top = margin_px + title_height;
  const double legend_top = map_top + map_px_height + margin_px;
  std::string legend_svg;
  double legend_height = 0.0;
  if (options.show_legend && !legend.empty()) {
    double x = 0.0;
    double y = legend_top;
    for (const LegendEntry& entry : legend) {
      const double entry_width = legend_entry_width(entry);
      if (x > 0.0 && x + entry_width > content_width) {
        x = 0.0;
        y += legend_row_px;
      }
      append_swatch(legend_svg, entry, margin_px + x, y);
      legend_svg += "<text x=\"" + format_number(margin_px + x + legend_swatch_px + 6.0) + "\" y=\"" +
                    format_number(y + legend_row_px / 2.0 + legend_font_px * 0.35) + "\">" +
                    escape_xml(entry.label) + "</text>\n";
      x += entry_width;
    }
    legend_height = y + legend_row_px - legend_top + margin_px / 2.0;
  }
  const double total_width = content_width + 2 * margin_px;
  const double total_height = legend_top + legend_height;

  std::string svg;
  svg.reserve(cells_svg.size() + explored_svg.size() + casings_svg.size() + paths_svg.size() + legend_svg.size() + 2048);
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + format_number(std::ceil(total_width)) +
         "\" height=\"" + format_number(std::ceil(total_height)) + "\" viewBox=\"0 0 " +
         format_number(std::ceil(total_width)) + ' ' + format_number(std::ceil(total_height)) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"" + format_number(legend_font_px) + "\">\n";
  if (!options.title.empty()) svg += "<title>" + escape_xml(options.title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!options.title.empty())
    svg += "<text x=\"" + format_number(margin_px) + "\" y=\"" + format_number(margin_px + title_font_px) +
           "\" font-size=\"" + format_number(title_font_px) + "\" font-weight=\"bold\">" + escape_xml(options.title) +
           "</text>\n";
  // The map itself, in cell units: one viewBox unit per cell.
  svg += "<svg x=\"" + format_number(margin_px) + "\" y=\"" + format_number(map_top) + "\" width=\"" +
         format_number(map_px_width) + "\" height=\"" + format_number(map_px_height) + "\" viewBox=\"0 0 " +
         std::to_string(width) + ' ' + std::to_string(height) + "\">\n";
  svg += "<g shape-rendering=\"crispEdges\">\n";
  svg += "<rect width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" fill=\"" +
         hex_colour(ground_rgb) + "\"/>\n";
  svg += cells_svg;
  svg += explored_svg;
  svg += "</g>\n";
  svg += casings_svg;
  svg += paths_svg;
  svg += markers_svg;
  svg += "</svg>\n";
  svg += legend_svg;
  svg += "</svg>\n";
  return svg;
}

void write_grid_svg(const std::filesystem::path& path, const GridMap& map, const GridSvgOptions& options) {
  const std::string svg = render_grid_svg(map, options);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot open '" + path.string() + "' for writing");
  file.write(svg.data(), static_cast<std::streamsize>(svg.size()));
  file.close();
  if (!file) throw std::runtime_error("cannot write '" + path.string() + "'");
}

}  // namespace wayfinder
