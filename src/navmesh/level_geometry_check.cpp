#include "wayfinder/navmesh/level_geometry_check.hpp"

#include <cmath>
#include <cstdio>

namespace wayfinder {

LevelGeometrySigns measure_level_geometry_signs(const MeshGeometry& geometry) {
  // cos(60 degrees): a polygon whose normal is further than this from vertical is a wall.
  constexpr double steep_normal_y = 0.5;
  LevelGeometrySigns signs;
  double steep = 0.0, facing_up = 0.0, facing_down = 0.0;
  for (const auto& polygon : geometry.polygons) {
    bool in_range = polygon.size() >= 3;
    for (const std::uint32_t index : polygon) in_range = in_range && index < geometry.vertices.size();
    if (!in_range) continue;
    // Newell's method: the normal of a planar polygon, twice its area long, relative to the
    // first vertex so that meshes far from the origin keep their precision.
    const Point& origin = geometry.vertices[polygon[0]];
    double nx = 0.0, ny = 0.0, nz = 0.0;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Point& a = geometry.vertices[polygon[i]];
      const Point& b = geometry.vertices[polygon[(i + 1) % polygon.size()]];
      const double ax = a.x - origin.x, ay = a.y - origin.y, az = a.z - origin.z;
      const double bx = b.x - origin.x, by = b.y - origin.y, bz = b.z - origin.z;
      nx += (ay - by) * (az + bz);
      ny += (az - bz) * (ax + bx);
      nz += (ax - bx) * (ay + by);
    }
    const double length = std::sqrt(nx * nx + ny * ny + nz * nz);
    if (!(length > 0.0) || !std::isfinite(length)) continue;
    const double area = length / 2.0;
    signs.total_area += area;
    const double up = ny / length;
    if (std::abs(up) < steep_normal_y) {
      steep += area;
    } else if (up > 0.0) {
      facing_up += area;
    } else {
      facing_down += area;
    }
  }
  if (signs.total_area > 0.0) {
    signs.steep_share = steep / signs.total_area;
    const double flat = facing_up + facing_down;
    if (flat > 0.0) signs.flipped_share = std::min(facing_up, facing_down) / flat;
  }
  return signs;
}

std::optional<std::string> level_geometry_warning(const MeshGeometry& geometry) {
  const LevelGeometrySigns signs = measure_level_geometry_signs(geometry);
  constexpr double limit = 0.10;
  // Walls are the sure sign. Polygons facing both ways alone are not: NavMesh::build accepts a
  // mesh whose polygons are wound inconsistently (and reports it); with a few walls, they are
  // ceilings.
  const bool walls = signs.steep_share > limit;
  const bool ceilings = signs.flipped_share > limit && signs.steep_share > 0.02;
  if (!walls && !ceilings) return std::nullopt;
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, "%.0f%% of its area is steeper than 60 degrees (walls) and %.0f%% faces the other way (ceilings)",
                signs.steep_share * 100.0, signs.flipped_share * 100.0);
  return geometry.source + " looks like a level's geometry, not a navigation mesh: " + numbers +
         ". Paths on it would climb walls and cross ceilings; build its navigation mesh first "
         "(`wayfinder mesh build LEVEL.obj -o NAVMESH.obj`, or build_navmesh_geometry).";
}

}  // namespace wayfinder
