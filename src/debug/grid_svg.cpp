#include "wayfinder/debug/grid_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "../core/xml_text.hpp"
#include "core/text_file.hpp"
#include "svg_legend.hpp"

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
constexpr Rgb cheap_rgb{0x9c, 0xc8, 0xe8};  // terrain cheaper than 1 (roads) fades towards this

constexpr std::string_view closed_colour = "#3b82c4";
constexpr double closed_opacity = 0.34;
constexpr std::string_view open_colour = "#f2b630";
constexpr double open_opacity = 0.6;

constexpr std::array<std::string_view, 10> palette = {"#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                                                      "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

// The grid picture's legend writes every swatch's opacity.
constexpr svg_common::LegendStyle grid_legend_style{.always_write_opacity = true};

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

using svg_common::format_number;
using svg_common::LegendEntry;
using svg_common::marker_colour;
using svg_common::SwatchKind;
using xml::escaped;

/// One SVG element, attributes escaped: SvgElement("circle").set("r", 2.5).set("fill", c).empty_tag().
class SvgElement {
 public:
  explicit SvgElement(std::string_view name) : name_(name) {
    text_ += '<';
    text_ += name;
  }
  SvgElement& set(std::string_view attribute, std::string_view value) {
    text_ += ' ';
    text_ += attribute;
    text_ += "=\"";
    text_ += escaped(value);
    text_ += '"';
    return *this;
  }
  SvgElement& set(std::string_view attribute, const char* value) { return set(attribute, std::string_view(value)); }
  SvgElement& set(std::string_view attribute, double value) { return set(attribute, format_number(value)); }

  /// "<name .../>" and a newline.
  [[nodiscard]] std::string empty_tag() const { return text_ + "/>\n"; }
  /// "<name ...>text</name>" and a newline.
  [[nodiscard]] std::string with_text(std::string_view content) const {
    return text_ + '>' + escaped(content) + "</" + name_ + ">\n";
  }
  /// "<name ...>" and a newline; the caller closes it.
  [[nodiscard]] std::string open_tag() const { return text_ + ">\n"; }

 private:
  std::string name_;
  std::string text_;
};

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

// ---- Layers of the map (cell units) --------------------------------------------------------

/// Sizes that depend on the scale, so that lines and markers stay visible on a 512 x 512 map
/// drawn at 2 pixels per cell and do not swamp a 10 x 10 map drawn at 32.
struct Scale {
  double pixels_per_cell;
  [[nodiscard]] double pixels(double count) const { return count / pixels_per_cell; }  ///< in cell units
};

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
  float previous_cost = 1.0f;  // ground never reaches the cache below
  int previous_class = -1;
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
      if (cost != previous_cost) {  // terrain comes in patches: most cells repeat their neighbour's cost
        const std::string colour = terrain_colour(cost);
        auto& colours = summary.class_colours;
        const auto found = std::find(colours.begin(), colours.end(), colour);
        previous_class = static_cast<int>(found - colours.begin());
        if (found == colours.end()) colours.push_back(colour);
        previous_cost = cost;
      }
      summary.cell_class[id] = previous_class;
    }
  }
  std::sort(summary.distinct_costs.begin(), summary.distinct_costs.end());
  return summary;
}

/// One <path> per class of cells, with the runs merged into rectangles.
std::string filled_cells(const std::vector<std::string>& path_data, const std::vector<std::string>& colours,
                         double opacity) {
  std::string svg;
  for (std::size_t i = 0; i < path_data.size(); ++i) {
    if (path_data[i].empty()) continue;
    SvgElement path("path");
    path.set("fill", colours[i]);
    if (opacity < 1.0) path.set("fill-opacity", opacity);
    svg += path.set("d", path_data[i]).empty_tag();
  }
  return svg;
}

std::string draw_terrain(const GridMap& map, std::vector<LegendEntry>& legend) {
  const TerrainSummary terrain = summarise_terrain(map);
  std::vector<std::string> path_data(terrain.class_colours.size());
  merge_cells_into_rectangles(map.width(), map.height(), path_data,
                              [&](int x, int y) { return terrain.cell_class[map.id_of(x, y)]; });

  const bool has_terrain = !terrain.distinct_costs.empty();
  legend.push_back({SwatchKind::fill, hex_colour(ground_rgb), has_terrain ? "passable, cost 1" : "passable"});
  if (terrain.has_blocked) legend.push_back({SwatchKind::fill, hex_colour(blocked_rgb), "blocked"});
  std::vector<float> listed = terrain.distinct_costs;
  if (terrain.many_costs) listed = {terrain.min_cost, terrain.max_cost};  // the two ends of the range
  for (const float cost : listed)
    legend.push_back({SwatchKind::fill, terrain_colour(cost), "cost " + format_number(cost)});

  // The ground of cost 1 is one rectangle under everything; only other cells are drawn.
  return SvgElement("rect")
             .set("width", map.width())
             .set("height", map.height())
             .set("fill", hex_colour(ground_rgb))
             .empty_tag() +
         filled_cells(path_data, terrain.class_colours, 1.0);
}

/// Closed cells (expanded) and cells left on the open list, from the trace's last word on each.
std::string draw_explored(const GridMap& map, const SearchTrace& trace, std::vector<LegendEntry>& legend) {
  enum State : int { untouched = -1, closed = 0, open = 1 };
  std::vector<int> state(map.cell_count(), untouched);
  for (const TraceRecord& event : trace.events()) {
    if (event.node >= state.size()) continue;  // a trace of some other map: ignore what does not fit
    if (event.event == TraceEvent::closed)
      state[event.node] = closed;
    else if (state[event.node] == untouched)
      state[event.node] = open;
  }
  std::vector<std::string> path_data(2);
  merge_cells_into_rectangles(map.width(), map.height(), path_data,
                              [&](int x, int y) { return state[map.id_of(x, y)]; });
  legend.push_back({SwatchKind::fill, std::string(closed_colour), "expanded (closed)", closed_opacity});
  legend.push_back({SwatchKind::fill, std::string(open_colour), "open list", open_opacity});
  return filled_cells({path_data[closed]}, {std::string(closed_colour)}, closed_opacity) +
         filled_cells({path_data[open]}, {std::string(open_colour)}, open_opacity);
}

struct PathLayers {
  std::string casings;  ///< drawn first, beneath every path
  std::string lines;
};

/// Paths side by side, each as wide as fits in about a cell but never thinner than 2 pixels.
/// Every line gets a thin light casing, drawn beneath all of them, so that it stands out on
/// dark walls and on shaded cells alike.
PathLayers draw_paths(const GridMap& map, const GridSvgOptions& options, const Scale& scale,
                      std::vector<LegendEntry>& legend) {
  PathLayers layers;
  const auto drawn_paths =
      static_cast<std::size_t>(std::count_if(options.paths.begin(), options.paths.end(), [](const GridSvgPath& path) {
        return !path.cells.empty() || !path.waypoints.empty();
      }));
  if (drawn_paths == 0) return layers;
  const double path_count = static_cast<double>(drawn_paths);
  const bool side_by_side = options.side_by_side_paths && drawn_paths > 1;
  const double stroke = std::max(side_by_side ? std::min(1.2 / path_count, 0.3) : 0.3, scale.pixels(2.0));

  std::size_t drawn = 0;
  for (std::size_t i = 0; i < options.paths.size(); ++i) {
    const GridSvgPath& path = options.paths[i];
    if (path.cells.empty() && path.waypoints.empty()) continue;
    const std::string colour = path.colour.empty() ? grid_svg_palette_colour(i) : path.colour;
    const std::string label = path.label.empty() ? "path" : path.label;
    const double offset = side_by_side ? (static_cast<double>(drawn++) - (path_count - 1.0) / 2.0) * stroke : 0.0;

    if (!path.cells.empty()) {
      std::vector<Vec2> centres;
      centres.reserve(path.cells.size());
      for (const NodeId id : path.cells) {
        if (id >= map.cell_count()) continue;
        const Point centre = GridMap::centre(map.cell_of(id));
        centres.push_back({centre.x, centre.y});
      }
      const std::vector<Vec2> line = offset_polyline(simplify_polyline(centres), offset);
      if (line.size() == 1) {
        layers.lines += SvgElement("circle")
                            .set("cx", line[0].x)
                            .set("cy", line[0].y)
                            .set("r", stroke)
                            .set("fill", colour)
                            .empty_tag();
      } else if (line.size() > 1) {
        const std::string points = polyline_points(line);
        layers.casings += SvgElement("polyline").set("points", points).empty_tag();
        layers.lines += SvgElement("polyline")
                            .set("fill", "none")
                            .set("stroke", colour)
                            .set("stroke-width", stroke)
                            .set("stroke-linejoin", "round")
                            .set("stroke-linecap", "round")
                            .set("points", points)
                            .empty_tag();
      }
      if (!path.label.empty() || path.waypoints.empty()) legend.push_back({SwatchKind::line, colour, label});
    }

    if (!path.waypoints.empty()) {
      std::vector<Vec2> waypoints;
      for (const Point& point : path.waypoints) waypoints.push_back({point.x, point.y});
      const std::vector<Vec2> line = offset_polyline(simplify_polyline(waypoints), offset);
      const double dash = std::max(0.6, scale.pixels(5.0));
      layers.lines += SvgElement("polyline")
                          .set("fill", "none")
                          .set("stroke", colour)
                          .set("stroke-width", stroke)
                          .set("stroke-dasharray", format_number(dash) + ' ' + format_number(dash * 0.6))
                          .set("stroke-linejoin", "round")
                          .set("points", polyline_points(line))
                          .empty_tag();
      // Waypoint dots only where cells are big enough for them not to blur into the line.
      if (scale.pixels_per_cell >= 4.0) {
        for (const Vec2& point : line)
          layers.lines += SvgElement("circle")
                              .set("cx", point.x)
                              .set("cy", point.y)
                              .set("r", stroke * 1.2)
                              .set("fill", colour)
                              .set("stroke", "#ffffff")
                              .set("stroke-width", scale.pixels(1.0))
                              .empty_tag();
      }
      legend.push_back({SwatchKind::dashed_line, colour, label + " (smoothed)"});
    }
  }
  if (!layers.casings.empty()) {
    layers.casings = SvgElement("g")
                         .set("fill", "none")
                         .set("stroke", "#ffffff")
                         .set("stroke-opacity", 0.85)
                         .set("stroke-width", stroke + scale.pixels(2.0))
                         .set("stroke-linejoin", "round")
                         .set("stroke-linecap", "round")
                         .open_tag() +
                     layers.casings + "</g>\n";
  }
  return layers;
}

std::string draw_markers(const GridMap& map, const GridSvgOptions& options, const Scale& scale,
                         std::vector<LegendEntry>& legend) {
  std::string svg;
  const double radius = std::max(0.35, scale.pixels(5.0));
  const double ring = std::max(0.15, scale.pixels(1.5));
  for (const bool is_start : {true, false}) {
    const std::optional<Cell>& cell = is_start ? options.start : options.goal;
    if (!cell || !map.contains(*cell)) continue;
    const Point centre = GridMap::centre(*cell);
    svg += svg_common::marker_shape(format_number, is_start, centre.x, centre.y, radius, ring);
    legend.push_back({is_start ? SwatchKind::start_marker : SwatchKind::goal_marker, std::string(marker_colour),
                      (is_start ? "start " : "goal ") + std::to_string(cell->x) + "," + std::to_string(cell->y)});
  }
  return svg;
}

}  // namespace

std::string grid_svg_palette_colour(std::size_t index) { return std::string(palette[index % palette.size()]); }

std::string render_grid_svg(const GridMap& map, const GridSvgOptions& options) {
  using svg_common::legend_font_px;
  using svg_common::margin_px;
  using svg_common::title_band_px;
  const int width = std::max(map.width(), 1);
  const int height = std::max(map.height(), 1);
  const double max_pixels = std::max(options.max_pixels, 64);
  const Scale scale{std::min(32.0, max_pixels / std::max(width, height))};
  const double map_px_width = width * scale.pixels_per_cell;
  const double map_px_height = height * scale.pixels_per_cell;
  const double content_width = std::max(map_px_width, svg_common::min_content_px);

  // The map, in cell units; legend entries are collected on the way.
  std::vector<LegendEntry> legend;
  std::string cells;
  std::string explored;
  if (map.cell_count() > 0) {
    cells = draw_terrain(map, legend);
    if (options.trace != nullptr) explored = draw_explored(map, *options.trace, legend);
  }
  const PathLayers paths = draw_paths(map, options, scale, legend);
  const std::string markers = draw_markers(map, options, scale, legend);

  // The page, in pixels: title band, map, legend.
  const double map_top = margin_px + (options.title.empty() ? 0.0 : title_band_px);
  const double legend_top = map_top + map_px_height + margin_px;
  std::string legend_svg;
  double legend_height = 0.0;
  if (options.show_legend && !legend.empty())
    legend_height = svg_common::draw_legend(legend, grid_legend_style, legend_top, content_width, legend_svg) + margin_px / 2.0;
  const double page_width = std::ceil(content_width + 2 * margin_px);
  const double page_height = std::ceil(legend_top + legend_height);

  std::string svg;
  svg.reserve(cells.size() + explored.size() + paths.casings.size() + paths.lines.size() + legend_svg.size() + 4096);
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += SvgElement("svg")
             .set("xmlns", "http://www.w3.org/2000/svg")
             .set("width", page_width)
             .set("height", page_height)
             .set("viewBox", "0 0 " + format_number(page_width) + ' ' + format_number(page_height))
             .set("font-family", "Helvetica, Arial, sans-serif")
             .set("font-size", legend_font_px)
             .open_tag();
  svg += svg_common::title_and_background(options.title);
  // One viewBox unit per cell, so cell (x, y) is the unit square at (x, y).
  svg += SvgElement("svg")
             .set("x", margin_px)
             .set("y", map_top)
             .set("width", map_px_width)
             .set("height", map_px_height)
             .set("viewBox", "0 0 " + std::to_string(width) + ' ' + std::to_string(height))
             .open_tag();
  svg += "<g shape-rendering=\"crispEdges\">\n";  // no hairline seams between neighbouring cells
  svg += cells;
  svg += explored;
  svg += "</g>\n";
  svg += paths.casings;
  svg += paths.lines;
  svg += markers;
  svg += "</svg>\n";
  svg += legend_svg;
  svg += "</svg>\n";
  return svg;
}

void write_grid_svg(const std::filesystem::path& path, const GridMap& map, const GridSvgOptions& options) {
  write_text_file(path, render_grid_svg(map, options));
}

}  // namespace wayfinder
