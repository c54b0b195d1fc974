#pragma once
// What the `wayfinder mesh` subcommands share: loading a mesh file by its extension, reading
// points from the command line, the --nodes option and path lengths.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/mesh_file.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::cli {

/// Reads the file's geometry by its extension (read_mesh_file_geometry, common/mesh_file.hpp; OBJ
/// with y or z up; a baked file is always y up).
MeshGeometry read_mesh_geometry(const std::string& path, bool z_up);
/// The same with the off-mesh links of `links_path` (read_off_mesh_links; none when empty) added
/// after the file's own (only a baked file has any).
MeshGeometry read_mesh_geometry(const std::string& path, bool z_up, const std::string& links_path);
/// The positional FILE of the commands that read a navigation mesh (required), stored in `target`.
CLI::Option* add_navmesh_file_argument(CLI::App& command, std::string& target);
/// `--links FILE`, stored in `target`.
CLI::Option* add_links_option(CLI::App& command, std::string& target);

/// "X,Y,Z", or "X,Y" when `allow_2d` (a point (x, y) of a 2D mesh is the world point (x, 0, y));
/// nullopt unless every part is a finite number.
std::optional<Point> parse_mesh_point(std::string_view text, bool allow_2d);
/// "x,y,z" with up to 6 decimals.
std::string format_point(const Point& point);

/// `--nodes centroids|edge-points|optimal`, stored in `target`.
CLI::Option* add_corridor_nodes_option(CLI::App& command, const std::string& name, CorridorNodes& target);


/// Distance in the x-z plane from (x, z) to the polygon (0 inside or on it).
double distance_xz_to_polygon(const NavMesh& mesh, PolygonId polygon, double x, double z);

}  // namespace wayfinder::cli
