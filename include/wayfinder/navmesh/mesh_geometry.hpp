#pragma once
// The raw input of a navigation mesh: vertices and polygons as a file or a program gives them,
// before any checking. NavMesh::build turns it into a searchable mesh.

#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct MeshGeometry {
  /// Vertex positions in world units, y up.
  std::vector<Point> vertices;
  /// Each polygon as indices into `vertices`, in order around its boundary (either winding).
  std::vector<std::vector<std::uint32_t>> polygons;
  /// Optional: for each polygon, the 1-based line of the file it came from (0 when unknown).
  /// Build errors and warnings name it.
  std::vector<int> polygon_lines;
  /// Optional: for each vertex, the 1-based line it came from.
  std::vector<int> vertex_lines;
  /// Where the geometry came from (a file name, or a label such as "<arrays>"), for messages.
  std::string source = "<arrays>";
};

}  // namespace wayfinder
