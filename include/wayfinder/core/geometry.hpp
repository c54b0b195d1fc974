#pragma once
// The geometry kernel of the navigation mesh code: points, lengths, orientation and segment
// tests, most of them seen from above (in the x-z plane, y up), written once as Detour's
// DetourCommon.h is. Every function is inline and pure; results are plain IEEE double
// arithmetic in the order written here, so two callers that compute the same thing get the
// same bits.
//
// Planar functions are templates over any type with double members `x` and `z` (Point, or a
// search's own flat position), so a search that keeps only x and z pays for nothing else.

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder::geometry {

/// A position seen from above: anything with double members x and z.
template <class P>
concept PlanarPoint = requires(const P& p) {
  { p.x } -> std::convertible_to<double>;
  { p.z } -> std::convertible_to<double>;
};

/// True when no coordinate is NaN or infinite.
[[nodiscard]] inline bool is_finite(const Point& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

/// Twice the signed area of the triangle (o, a, b) in the x-z plane: positive when b lies to the
/// left of the ray from o through a (counter-clockwise with x to the right and z up), 0 when the
/// three are collinear. Relative to o, so that far from the origin the products stay small.
template <PlanarPoint P>
[[nodiscard]] constexpr double cross_xz(const P& o, const P& a, const P& b) {
  return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

/// The dot product of (a - o) and (b - o) in the x-z plane.
template <PlanarPoint P>
[[nodiscard]] constexpr double dot_xz(const P& o, const P& a, const P& b) {
  return (a.x - o.x) * (b.x - o.x) + (a.z - o.z) * (b.z - o.z);
}

/// True when a and b are the same point seen from above (exactly).
template <PlanarPoint P>
[[nodiscard]] constexpr bool same_xz(const P& a, const P& b) {
  return a.x == b.x && a.z == b.z;
}

/// Squared distance seen from above.
template <PlanarPoint P>
[[nodiscard]] constexpr double distance_squared_xz(const P& a, const P& b) {
  const double dx = a.x - b.x, dz = a.z - b.z;
  return dx * dx + dz * dz;
}

/// Distance seen from above (the length by which paths on a mesh are compared).
template <PlanarPoint P>
[[nodiscard]] inline double distance_xz(const P& a, const P& b) {
  return std::sqrt(distance_squared_xz(a, b));
}

/// |dx| + |dz|: an upper bound of distance_xz, within a factor sqrt(2) of it, for scaling
/// tolerances without a square root.
template <PlanarPoint P>
[[nodiscard]] constexpr double extent_xz(const P& a, const P& b) {
  return std::abs(a.x - b.x) + std::abs(a.z - b.z);
}

/// Squared distance in 3D.
[[nodiscard]] constexpr double distance_squared(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/// Distance in 3D.
[[nodiscard]] inline double distance(const Point& a, const Point& b) { return std::sqrt(distance_squared(a, b)); }

/// The length of a polyline seen from above: the sum of its segments' distance_xz, 0 for fewer
/// than two points. This is a mesh path's cost (the length searches minimise and compare).
[[nodiscard]] inline double polyline_length_xz(const std::vector<Point>& points) {
  double length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) length += distance_xz(points[i - 1], points[i]);
  return length;
}

/// The length of a polyline in 3D: the sum of its segments' distance, 0 for fewer than two points.
[[nodiscard]] inline double polyline_length(const std::vector<Point>& points) {
  double length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) length += distance(points[i - 1], points[i]);
  return length;
}

/// The point a + t (b - a), in 3D; t is not clamped.
[[nodiscard]] constexpr Point lerp(const Point& a, const Point& b, double t) {
  return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
}

/// The parameter t in [0, 1] of the point of segment a-b closest to p seen from above (0 for a
/// segment of zero length); lerp(a, b, t) is that point, its height interpolated.
template <PlanarPoint P>
[[nodiscard]] constexpr double closest_on_segment_xz(const P& p, const P& a, const P& b) {
  const double squared = distance_squared_xz(a, b);
  const double t = squared > 0.0 ? dot_xz(a, b, p) / squared : 0.0;
  return std::clamp(t, 0.0, 1.0);
}

/// Twice the signed area in x-z of the polygon whose `count` (>= 3) vertices `vertex(i)` gives in
/// order: the sum of its fan of triangles from vertex 0, each taken relative to vertex 0 (far
/// from the origin the plain shoelace formula's products swamp the area of a small polygon;
/// differences to a vertex of the same polygon are exact or nearly so, by Sterbenz's lemma).
/// Positive for a counter-clockwise polygon.
template <class VertexAt>
[[nodiscard]] constexpr double twice_area_xz(std::size_t count, VertexAt&& vertex) {
  double twice_area = 0.0;
  for (std::size_t i = 1; i + 1 < count; ++i) twice_area += cross_xz(vertex(0), vertex(i), vertex(i + 1));
  return twice_area;
}

/// `units` units in the last place of a coordinate of size `magnitude`: how far rounding alone
/// can move a point computed from coordinates that large.
[[nodiscard]] constexpr double units_in_last_place(double units, double magnitude) {
  return units * std::numeric_limits<double>::epsilon() * magnitude;
}

/// The largest |x| or |z| of a box given by its corners: the size of the coordinates rounding
/// has to be measured against.
[[nodiscard]] constexpr double largest_xz_coordinate(const Point& min, const Point& max) {
  return std::max({std::abs(min.x), std::abs(max.x), std::abs(min.z), std::abs(max.z)});
}

/// Orientation with a tolerance: cross_xz(o, a, b) counts as zero (b on the line o -> a) when
/// the sine of the angle at o is below `relative_tolerance` (up to the factor 2 that measuring
/// lengths by extent_xz may add), or when the value is within `rounding` (a few units in the
/// last place of the coordinates; far from the origin, rounding alone is that large). Collinear
/// vertices and rays through corners then fall exactly on lines.
struct ToleratedOrientation {
  static constexpr double relative_tolerance = 1e-10;
  double rounding = 0.0;  ///< units_in_last_place(8, the largest coordinate in use)

  /// `value`, or exactly 0 when it is within the tolerance of two sides of lengths a and b.
  [[nodiscard]] constexpr double snapped(double value, double length_a, double length_b) const {
    const double tolerance = relative_tolerance * length_a * length_b + rounding * (length_a + length_b);
    return std::abs(value) <= tolerance ? 0.0 : value;
  }
  /// cross_xz(o, a, b), snapped: > 0 left of o -> a, < 0 right, 0 on the line.
  template <PlanarPoint P>
  [[nodiscard]] constexpr double side(const P& o, const P& a, const P& b) const {
    return snapped(cross_xz(o, a, b), extent_xz(o, a), extent_xz(o, b));
  }
  /// True when a and b are within the tolerance of one another, for lengths of about `scale`.
  template <PlanarPoint P>
  [[nodiscard]] constexpr bool same_point(const P& a, const P& b, double scale) const {
    const double tolerance = relative_tolerance * scale + rounding;
    return distance_squared_xz(a, b) <= tolerance * tolerance;
  }
};

}  // namespace wayfinder::geometry
