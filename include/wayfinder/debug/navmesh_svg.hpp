#pragma once
// Draws a NavMesh from above as an SVG picture: every polygon filled with its region's colour
// (connected regions get clearly different hues, so an island the agent cannot reach stands
// out), shaded by height, thin polygon outlines, and optionally a corridor, a path with its
// waypoints, start and goal markers (the grid picture's: a dark disc and a dark diamond) and the
// positions a search explored (or the intervals and roots of an exact search), the mesh's off-mesh links as dashed lines (a dot at each end a
// link may be taken from), with a legend under the drawing. For debugging, documentation
// and the `wayfinder mesh path --svg` option.
//
// The view looks down the y axis: world x runs to the right and world z runs down the page
// (the picture is what a camera above the mesh sees, with -z at the top). Height cannot be drawn
// from above, so it is shown two ways: each polygon's fill is lighter the higher it lies (from
// the lowest to the highest drawn polygon, as the legend says), and polygons are drawn from the
// lowest up, so an upper floor covers what lies under it. To see one floor of a multi-level
// mesh alone, draw a height range (`y_range`, or a band from navmesh_height_bands).

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// A closed range of heights (world y).
struct HeightRange {
  double min = 0.0;
  double max = 0.0;
};

struct NavMeshSvgOptions {
  /// Heading above the picture; empty for none.
  std::string title;
  /// Polygons to highlight, usually PathResult::nodes of a mesh query.
  std::vector<PolygonId> corridor;
  /// A path to draw as a line through its waypoints (PathResult::points).
  std::vector<Point> path;
  /// Positions a search looked at (e.g. corridor-search nodes), drawn as small dots.
  std::vector<Point> explored;
  /// Intervals an exact search expanded (ExactSearchNode's left and right), drawn as thin
  /// lines, and the roots it turned at (the start and mesh corners), drawn as small rings.
  std::vector<std::array<Point, 2>> intervals;
  std::vector<Point> roots;
  std::optional<Point> start;
  std::optional<Point> goal;
  /// Width of the mesh drawing in pixels (the height follows the mesh's proportions).
  int width_pixels = 1024;
  /// Draw only polygons with some part in this height range (their lowest vertex at most
  /// `max` and their highest at least `min`), and only the explored positions in it; the
  /// picture keeps the whole mesh's frame, so pictures of different ranges line up. The path
  /// and markers are always drawn. Unset: every polygon.
  std::optional<HeightRange> y_range;
  /// Shade polygons by height (lighter is higher); a flat mesh is drawn in its plain region
  /// colours either way.
  bool shade_by_height = true;
  /// A legend under the drawing: what the colours and marks mean, the heights the shading spans
  /// and the height range drawn.
  bool show_legend = true;
  /// The level the mesh was built from (navmesh_build), drawn faintly under the mesh as thin
  /// grey outlines of its polygons, walls included, so that one sees what the agent walks
  /// around; the picture's frame then takes in the whole level. Only the level's polygons in
  /// y_range are drawn when one is set. Null: none. Must outlive the call.
  const MeshGeometry* level = nullptr;
};

/// The mesh's separate height bands, lowest first, for drawing one floor at a time: the height
/// ranges of the polygons (lowest to highest vertex) merged wherever they overlap or lie at
/// most `min_gap` apart. Floors joined by a ramp or stairs are one band; use a y_range to cut
/// such a mesh where you like. `min_gap` must be finite and non-negative (else
/// std::invalid_argument).
std::vector<HeightRange> navmesh_height_bands(const NavMesh& mesh, double min_gap = 1.0);

/// The picture as a standalone SVG document.
std::string render_navmesh_svg(const NavMesh& mesh, const NavMeshSvgOptions& options = {});

/// Writes render_navmesh_svg(mesh, options) to a file; throws std::runtime_error naming the file
/// if it cannot be written.
void write_navmesh_svg(const std::filesystem::path& path, const NavMesh& mesh, const NavMeshSvgOptions& options = {});

/// The fill colour of a region in the picture, as an SVG colour ("hsl(...)"); polygons of a flat
/// mesh (or with shade_by_height off) have exactly this colour, others a lighter or darker shade
/// of it.
std::string navmesh_svg_region_colour(std::size_t region);

}  // namespace wayfinder
