#pragma once
// Is this a navigation mesh, or a level's raw geometry? Searching a level as if it were a navmesh
// gives nonsense (paths up walls, across ceilings, straight through rocks), so the tools tell the
// two apart and build a level's navmesh first. A navigation mesh is one walkable surface: floors
// and gentle slopes, all facing one way, with open borders, and never two floors closer in
// height than an agent is tall (the agent could not stand on the lower one). A level has walls,
// ceilings, closed solids (rocks, crates, pillars) and surfaces stacked close above each other
// (a rock's top over the terrain it sits on). See docs/navmesh.md#level-or-navigation-mesh.

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
  /// Share of the area in closed surfaces: connected parts in which every edge joins exactly two
  /// polygons (vertices at the same position count as one). Solids are closed; a navmesh always
  /// has a border.
  double closed_share = 0.0;
  /// Share of the non-steep area whose centre has another polygon above it, higher by more than
  /// a hair and by at most LevelGeometryCheckOptions::agent_height, in plan view.
  double stacked_share = 0.0;
};

struct LevelGeometryCheckOptions {
  /// How tall an agent is, in world units (AgentSettings' default): surfaces closer above each
  /// other than this are not two floors of a navmesh. Must be positive.
  double agent_height = 2.0;
};

/// Measures the signs above (polygon normals by Newell's method, weighted by area). Polygons
/// with indices out of range are skipped (NavMesh::build reports them). Runs in about
/// O(polygons) for meshes whose polygons have similar sizes.
LevelGeometrySigns measure_level_geometry_signs(const MeshGeometry& geometry,
                                                const LevelGeometryCheckOptions& options = {});

enum class MeshGeometryKind : unsigned char { navmesh, level };

struct MeshGeometryVerdict {
  MeshGeometryKind kind = MeshGeometryKind::navmesh;
  /// The geometry said what it is (MeshGeometry::declared_navmesh); the signs were not measured.
  bool declared = false;
  LevelGeometrySigns signs;
  /// For a level, the signs that gave it away, in words ("12% of its area is in closed solids");
  /// empty for a navmesh.
  std::string reason;
};

/// Tells a level from a navigation mesh. Geometry that declares itself a navmesh is one.
/// Otherwise it is a level when any sign passes its bar: more than 5% of its area steep; more
/// than 10% facing the other way with more than 2% steep; more than 2% in closed solids; more
/// than 1% of its floors stacked under another surface within the agent's height. Navmeshes
/// built by Recast and Detour (and Polyanya's meshes) show none of these signs.
MeshGeometryVerdict classify_mesh_geometry(const MeshGeometry& geometry, const LevelGeometryCheckOptions& options = {});

/// A sentence saying that the geometry looks like a level rather than a navigation mesh
/// (classify_mesh_geometry), with the signs and a pointer at `wayfinder mesh build`, or nullopt
/// when it reads as a navigation mesh.
std::optional<std::string> level_geometry_warning(const MeshGeometry& geometry,
                                                  const LevelGeometryCheckOptions& options = {});

}  // namespace wayfinder
