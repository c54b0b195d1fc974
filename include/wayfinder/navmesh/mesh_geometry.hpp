#pragma once
// The raw input of a navigation mesh: vertices and polygons as a file or a program gives them,
// before any checking. NavMesh::build turns it into a searchable mesh.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/off_mesh_link.hpp"

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
  /// Optional: for each polygon, its area (0..max_areas - 1) and flags (see AreaFilter), which
  /// every polygon NavMesh::build makes from it keeps. Empty means area 0 and no flags for
  /// every polygon; otherwise one entry per polygon (NavMesh::build throws LoadError when the
  /// count differs or an area is max_areas or more).
  std::vector<AreaId> polygon_areas;
  std::vector<AreaFlags> polygon_flags;
  /// Optional: the true ground under each polygon, finer than the polygon itself (Recast's
  /// detail mesh, which build_navmesh_geometry fills in). Polygon p's ground is the triangles
  /// detail_triangles[detail_starts[p] .. detail_starts[p + 1]), corners indexing
  /// detail_vertices; together they cover the polygon seen from above. With them, NavMesh::height_at
  /// (and so point location and the heights of path waypoints) follows the ground rather than
  /// the flat polygon. Empty means no detail; otherwise detail_starts has one entry per polygon
  /// plus one, never decreasing, ending at detail_triangles.size() (NavMesh::build throws
  /// LoadError when it does not, or when a corner index or coordinate is bad). A polygon may
  /// have no detail triangles: it keeps its own flat heights.
  std::vector<Point> detail_vertices;
  std::vector<std::array<std::uint32_t, 3>> detail_triangles;
  std::vector<std::uint32_t> detail_starts;
  /// Optional: off-mesh links (jumps, ladders, teleporters). NavMesh::build places their ends
  /// on the mesh and throws LoadError naming a link whose end is not on it (within its radius)
  /// or whose cost, radius or area is unusable. Link i gets id i.
  std::vector<OffMeshLink> off_mesh_links;
  /// Where the geometry came from (a file name, or a label such as "<arrays>"), for messages.
  std::string source = "<arrays>";
  /// True when the file says that it is a navigation mesh: a baked file, a Polyanya mesh, or an
  /// OBJ whose first line is Wayfinder's marker (`# wayfinder navmesh`, written by
  /// write_obj_mesh). classify_mesh_geometry trusts it; geometry from arrays leaves it false.
  bool declared_navmesh = false;
};

}  // namespace wayfinder
