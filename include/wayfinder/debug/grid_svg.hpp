#pragma once
// Draws a GridMap as an SVG picture: the cells (blocked, passable, terrain shaded by its cost),
// what a search explored (closed and open cells from a SearchTrace), one or more paths with
// start and goal markers, and a legend. For debugging, documentation and the `wayfinder` tool.
//
// The map is drawn in a nested viewBox with one unit per cell (cell (x, y) covers
// [x, x + 1] x [y, y + 1], its centre is (x + 0.5, y + 0.5) as in GridMap::centre), so path
// points in world units can be drawn as they are. Runs of equal cells are merged into one
// shape: a 512 x 512 maze with a search drawn over it stays about a megabyte.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

/// One path to draw.
struct GridSvgPath {
  /// Shown in the legend; may be empty.
  std::string label;
  /// Any SVG/CSS colour ("#d62728", "teal"); empty picks one from a built-in palette.
  std::string colour;
  /// Cell ids y * width + x from start to end (PathResult::nodes); drawn through cell centres.
  std::vector<NodeId> cells;
  /// Optional any-angle waypoints in world units (smooth_path), drawn dashed in the same colour.
  std::vector<Point> waypoints;
};

struct GridSvgOptions {
  /// Heading above the map; empty for none.
  std::string title;
  std::vector<GridSvgPath> paths;
  /// What a search explored: cells with a `closed` event are drawn as expanded, cells only
  /// opened or updated as the open list (frontier). Not owned; null draws no search.
  const SearchTrace* trace = nullptr;
  std::optional<Cell> start;
  std::optional<Cell> goal;
  bool show_legend = true;
  /// When several paths share cells, draw them side by side (offset across the direction of
  /// travel) instead of on top of each other, so that every colour stays visible.
  bool side_by_side_paths = true;
  /// The longer side of the map is scaled to about this many pixels (small maps get at most
  /// 32 pixels per cell).
  int max_pixels = 1024;
};

/// Returns the picture as a standalone SVG document.
std::string render_grid_svg(const GridMap& map, const GridSvgOptions& options = {});

/// Writes render_grid_svg(map, options) to a file. Throws std::runtime_error naming the file if it
/// cannot be written.
void write_grid_svg(const std::filesystem::path& path, const GridMap& map, const GridSvgOptions& options = {});

/// The colour render_grid_svg gives to the path at `index` when its colour is left empty.
std::string grid_svg_palette_colour(std::size_t index);

}  // namespace wayfinder
