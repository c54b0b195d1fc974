#pragma once
// Is this a navigation mesh, or a level's raw geometry? A level exported from an editor has
// walls (vertical polygons) and ceilings (polygons facing the other way from the floors); a
// navigation mesh has only floors and gentle slopes, all facing one way. Searching a level as if
// it were a navmesh gives nonsense (paths up walls and across ceilings), so the tools say so and
// point at `wayfinder mesh build`.

#include <optional>
#include <string>

#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

struct LevelGeometrySigns {
  double total_area = 0.0;
  /// Share of the polygon area steeper than 60 degrees from horizontal (walls): a navmesh built
  /// for agents that climb at most 45 to 60 degrees has none.
  double steep_share = 0.0;
  /// Share of the non-steep area facing the minority way (ceilings under floors, or floors under
  /// ceilings when the mesh is wound the other way round): a navmesh faces one way.
  double flipped_share = 0.0;
};

/// Measures the signs above (polygon normals by Newell's method, weighted by area). Polygons
/// with indices out of range are skipped (NavMesh::build reports them).
LevelGeometrySigns measure_level_geometry_signs(const MeshGeometry& geometry);

/// A sentence saying that the geometry looks like a level rather than a navigation mesh (more
/// than 10% of its area steep, or more than 10% facing the other way with more than 2% steep),
/// with the numbers, or nullopt when it looks like a navigation mesh.
std::optional<std::string> level_geometry_warning(const MeshGeometry& geometry);

}  // namespace wayfinder
