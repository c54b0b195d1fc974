#include "navmesh_build/obstacle_marking.hpp"

#include "wayfinder/core/geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace wayfinder {

namespace {

bool finite_at_least_zero(double value) { return std::isfinite(value) && value >= 0.0; }

// The corners of an oriented box's footprint, in order around it, x and z.
std::array<std::array<double, 2>, 4> oriented_corners(const OrientedBoxObstacle& box) {
  const double c = std::cos(box.yaw_radians), s = std::sin(box.yaw_radians);
  const double hx = box.half_extents.x, hz = box.half_extents.z;
  std::array<std::array<double, 2>, 4> corners{};
  const double signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (int i = 0; i < 4; ++i) {
    const double lx = signs[i][0] * hx, lz = signs[i][1] * hz;
    corners[static_cast<std::size_t>(i)] = {box.center.x + c * lx - s * lz, box.center.z + s * lx + c * lz};
  }
  return corners;
}

}  // namespace

std::optional<std::string> obstacle_problem(const Obstacle& obstacle) {
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle)) {
    if (!geometry::is_finite(cylinder->base)) return "cylinder obstacle: base must be finite";
    if (!finite_at_least_zero(cylinder->radius)) return "cylinder obstacle: radius must be a finite number >= 0";
    if (!finite_at_least_zero(cylinder->height)) return "cylinder obstacle: height must be a finite number >= 0";
    return std::nullopt;
  }
  if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
    if (!geometry::is_finite(box->min) || !geometry::is_finite(box->max)) return "box obstacle: min and max must be finite";
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
      return "box obstacle: min must not exceed max in x, y or z";
    return std::nullopt;
  }
  const auto& oriented = std::get<OrientedBoxObstacle>(obstacle);
  if (!geometry::is_finite(oriented.center)) return "oriented box obstacle: center must be finite";
  if (!finite_at_least_zero(oriented.half_extents.x) || !finite_at_least_zero(oriented.half_extents.y) ||
      !finite_at_least_zero(oriented.half_extents.z))
    return "oriented box obstacle: half_extents must be finite numbers >= 0";
  if (!std::isfinite(oriented.yaw_radians)) return "oriented box obstacle: yaw_radians must be finite";
  return std::nullopt;
}

std::optional<std::string> area_volume_problem(const AreaVolume& volume) {
  if (volume.corners.size() < 3) return "area volume: needs at least 3 corners";
  for (const Point& corner : volume.corners)
    if (!geometry::is_finite(corner)) return "area volume: corners must be finite";
  if (!std::isfinite(volume.min_y) || !std::isfinite(volume.max_y) || volume.min_y > volume.max_y)
    return "area volume: min_y and max_y must be finite with min_y <= max_y";
  if (volume.area >= max_areas)
    return "area volume: area " + std::to_string(volume.area) + " is not in [0, " + std::to_string(max_areas) + ")";
  return std::nullopt;
}

FootprintBox footprint_box(const Obstacle& obstacle) {
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle))
    return {cylinder->base.x - cylinder->radius, cylinder->base.z - cylinder->radius, cylinder->base.x + cylinder->radius,
            cylinder->base.z + cylinder->radius};
  if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) return {box->min.x, box->min.z, box->max.x, box->max.z};
  FootprintBox bounds{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const auto& corner : oriented_corners(std::get<OrientedBoxObstacle>(obstacle))) {
    bounds.min_x = std::min(bounds.min_x, corner[0]);
    bounds.min_z = std::min(bounds.min_z, corner[1]);
    bounds.max_x = std::max(bounds.max_x, corner[0]);
    bounds.max_z = std::max(bounds.max_z, corner[1]);
  }
  return bounds;
}

FootprintBox footprint_box(const AreaVolume& volume) {
  FootprintBox bounds{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const Point& corner : volume.corners) {
    bounds.min_x = std::min(bounds.min_x, corner.x);
    bounds.min_z = std::min(bounds.min_z, corner.z);
    bounds.max_x = std::max(bounds.max_x, corner.x);
    bounds.max_z = std::max(bounds.max_z, corner.z);
  }
  return bounds;
}

void mark_obstacle(rcContext& log, const Obstacle& obstacle, rcCompactHeightfield& compact) {
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle)) {
    const float base[3] = {static_cast<float>(cylinder->base.x), static_cast<float>(cylinder->base.y),
                           static_cast<float>(cylinder->base.z)};
    rcMarkCylinderArea(&log, base, static_cast<float>(cylinder->radius), static_cast<float>(cylinder->height),
                       RC_NULL_AREA, compact);
    return;
  }
  if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
    const float min[3] = {static_cast<float>(box->min.x), static_cast<float>(box->min.y), static_cast<float>(box->min.z)};
    const float max[3] = {static_cast<float>(box->max.x), static_cast<float>(box->max.y), static_cast<float>(box->max.z)};
    rcMarkBoxArea(&log, min, max, RC_NULL_AREA, compact);
    return;
  }
  const auto& oriented = std::get<OrientedBoxObstacle>(obstacle);
  float corners[12];
  int k = 0;
  for (const auto& corner : oriented_corners(oriented)) {
    corners[k++] = static_cast<float>(corner[0]);
    corners[k++] = static_cast<float>(oriented.center.y);
    corners[k++] = static_cast<float>(corner[1]);
  }
  rcMarkConvexPolyArea(&log, corners, 4, static_cast<float>(oriented.center.y - oriented.half_extents.y),
                       static_cast<float>(oriented.center.y + oriented.half_extents.y), RC_NULL_AREA, compact);
}

void mark_area_volume(rcContext& log, const AreaVolume& volume, unsigned char recast_area, rcCompactHeightfield& compact) {
  std::vector<float> corners;
  corners.reserve(volume.corners.size() * 3);
  for (const Point& corner : volume.corners)
    corners.insert(corners.end(), {static_cast<float>(corner.x), static_cast<float>(volume.min_y), static_cast<float>(corner.z)});
  rcMarkConvexPolyArea(&log, corners.data(), static_cast<int>(volume.corners.size()), static_cast<float>(volume.min_y),
                       static_cast<float>(volume.max_y), recast_area, compact);
}

}  // namespace wayfinder
