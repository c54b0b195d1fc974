#pragma once
// Obstacles and area volumes checked, bounded and marked on a compact heightfield with Recast's
// area markers (rcMarkCylinderArea, rcMarkBoxArea, rcMarkConvexPolyArea). Internal to the
// navmesh_build library.

#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

#include <recastnavigation/Recast.h>

#include <optional>
#include <string>

namespace wayfinder {

/// Why an obstacle cannot be used (a coordinate that is not finite, a negative size, a box
/// turned inside out), or nullopt.
std::optional<std::string> obstacle_problem(const Obstacle& obstacle);
/// Why an area volume cannot be used, or nullopt.
std::optional<std::string> area_volume_problem(const AreaVolume& volume);

/// An x-z box in world units: min x, min z, max x, max z.
struct FootprintBox {
  double min_x, min_z, max_x, max_z;
};
FootprintBox footprint_box(const Obstacle& obstacle);
FootprintBox footprint_box(const AreaVolume& volume);

/// Marks the spans under the obstacle not walkable (their floor within its height range,
/// their cell centre within its footprint).
void mark_obstacle(rcContext& log, const Obstacle& obstacle, rcCompactHeightfield& compact);
/// Gives the walkable spans inside the volume the Recast area `recast_area`.
void mark_area_volume(rcContext& log, const AreaVolume& volume, unsigned char recast_area, rcCompactHeightfield& compact);

}  // namespace wayfinder
