#pragma once
// Reading the 2D "mesh 2" format of Polyanya (Cui, Harabor & Grastien, IJCAI 2017):
//
//   mesh
//   2
//   V P
//   V lines:  x y n p1 .. pn        (the vertex's neighbouring polygons, -1 for an obstacle)
//   P lines:  n v1 .. vn p1 .. pn   (vertices counter-clockwise; p[j] lies across edge v[j-1], v[j])
//
// Whitespace (spaces and newlines) separates tokens freely. The 2D point (x, y) becomes the
// world point (x, 0, y): the mesh lies flat in the x-z plane of Wayfinder's y-up world. The
// neighbour lists are checked for range but not trusted: NavMesh::build finds adjacency itself
// from shared vertices.

#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

/// Reads a "mesh 2" file. Throws LoadError (file, line, column, cause) for a wrong header,
/// missing or malformed numbers, counts that are negative or too large for the file, polygons
/// with fewer than 3 vertices, vertex or polygon indices out of range and non-finite coordinates.
MeshGeometry read_polyanya_mesh(const std::filesystem::path& file);

/// The same from text in memory; `source_name` names it in errors.
MeshGeometry parse_polyanya_mesh(std::string_view text, const std::string& source_name);

}  // namespace wayfinder
