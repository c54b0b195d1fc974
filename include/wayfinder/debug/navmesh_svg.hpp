#pragma once
// Draws a NavMesh from above as an SVG picture: every polygon filled with its region's colour
// (connected regions get clearly different hues, so an island the agent cannot reach stands
// out), thin polygon outlines, and optionally a corridor, a path with its waypoints, start and
// goal markers and the positions a search explored. For debugging, documentation and the
// `wayfinder mesh path --svg` option.
//
// The view looks down the y axis: world x runs to the right and world z runs down the page
// (the picture is what a camera above the mesh sees, with -z at the top). Heights are ignored,
// so the levels of a multi-level mesh are drawn over each other.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

struct NavMeshSvgOptions {
  /// Heading above the picture; empty for none.
  std::string title;
  /// Polygons to highlight, usually PathResult::nodes of a mesh query.
  std::vector<PolygonId> corridor;
  /// A path to draw as a line through its waypoints (PathResult::points).
  std::vector<Point> path;
  /// Positions a search looked at (e.g. corridor-search nodes), drawn as small dots.
  std::vector<Point> explored;
  std::optional<Point> start;
  std::optional<Point> goal;
  /// Width of the mesh drawing in pixels (the height follows the mesh's proportions).
  int width_pixels = 1024;
};

/// The picture as a standalone SVG document.
std::string render_navmesh_svg(const NavMesh& mesh, const NavMeshSvgOptions& options = {});

/// Writes render_navmesh_svg(mesh, options) to a file; throws std::runtime_error naming the file
/// if it cannot be written.
void write_navmesh_svg(const std::filesystem::path& path, const NavMesh& mesh, const NavMeshSvgOptions& options = {});

/// The fill colour of a region in the picture, as an SVG colour ("hsl(...)").
std::string navmesh_svg_region_colour(std::size_t region);

}  // namespace wayfinder
