// Point location on a NavMesh: the uniform grid over x-z, containment, heights, locate and
// nearest_point.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

using geometry::cross_xz;
using geometry::distance_squared;
using geometry::is_finite;

void NavMesh::build_locator(double cell_size) {
  const double width = std::max(bounds_.max.x - bounds_.min.x, 1e-9);
  const double depth = std::max(bounds_.max.z - bounds_.min.z, 1e-9);
  // A tiled mesh's unused ids (empty polygons) are never located, and count for nothing here.
  std::size_t used_polygons = 0;
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) used_polygons += is_empty_polygon(polygon) ? 0 : 1;
  if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
    // About one polygon per cell on average: the mean polygon box side.
    double total = 0.0;
    for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
      const Bounds& box = polygon_bounds_[polygon];
      if (!is_empty_polygon(polygon)) total += (box.max.x - box.min.x) + (box.max.z - box.min.z);
    }
    cell_size = std::max(total / (2.0 * static_cast<double>(used_polygons)), 1e-9);
  }
  // At most a few cells per polygon (and never an absurd number for a degenerate size).
  const double max_cells = 4.0 * static_cast<double>(used_polygons) + 64.0;
  while ((width / cell_size + 1.0) * (depth / cell_size + 1.0) > max_cells) cell_size *= 1.5;
  locator_columns_ = static_cast<std::uint32_t>(width / cell_size) + 1;
  locator_rows_ = static_cast<std::uint32_t>(depth / cell_size) + 1;
  locator_origin_x_ = bounds_.min.x;
  locator_origin_z_ = bounds_.min.z;
  locator_inverse_cell_ = 1.0 / cell_size;

  const std::size_t cells = static_cast<std::size_t>(locator_columns_) * locator_rows_;
  auto cell_range = [&](const Bounds& box, std::uint32_t& x0, std::uint32_t& x1, std::uint32_t& z0, std::uint32_t& z1) {
    auto clamp_column = [&](double x) {
      const double c = std::floor((x - locator_origin_x_) * locator_inverse_cell_);
      return static_cast<std::uint32_t>(std::clamp(c, 0.0, static_cast<double>(locator_columns_ - 1)));
    };
    auto clamp_row = [&](double z) {
      const double r = std::floor((z - locator_origin_z_) * locator_inverse_cell_);
      return static_cast<std::uint32_t>(std::clamp(r, 0.0, static_cast<double>(locator_rows_ - 1)));
    };
    x0 = clamp_column(box.min.x);
    x1 = clamp_column(box.max.x);
    z0 = clamp_row(box.min.z);
    z1 = clamp_row(box.max.z);
  };
  std::vector<std::uint32_t> counts(cells + 1, 0);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    if (is_empty_polygon(polygon)) continue;
    std::uint32_t x0, x1, z0, z1;
    cell_range(polygon_bounds_[polygon], x0, x1, z0, z1);
    for (std::uint32_t z = z0; z <= z1; ++z)
      for (std::uint32_t x = x0; x <= x1; ++x) ++counts[static_cast<std::size_t>(z) * locator_columns_ + x + 1];
  }
  std::partial_sum(counts.begin(), counts.end(), counts.begin());
  locator_starts_ = counts;
  locator_polygons_.resize(counts.back());
  std::vector<std::uint32_t> fill(counts.begin(), counts.end() - 1);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    if (is_empty_polygon(polygon)) continue;
    std::uint32_t x0, x1, z0, z1;
    cell_range(polygon_bounds_[polygon], x0, x1, z0, z1);
    for (std::uint32_t z = z0; z <= z1; ++z)
      for (std::uint32_t x = x0; x <= x1; ++x)
        locator_polygons_[fill[static_cast<std::size_t>(z) * locator_columns_ + x]++] = polygon;
  }
}

bool NavMesh::contains_xz(PolygonId polygon, double x, double z) const {
  const auto indices = polygon_vertices(polygon);
  const Point p{x, 0.0, z};
  // Inside or on the boundary: left of (or on) every edge, up to a rounding margin (xz_margin_,
  // about 1e-9 world units near the origin), so points on a shared edge belong to both polygons.
  for (std::size_t i = 0, n = indices.size(); i < n; ++i) {
    const Point& a = vertices_[indices[i]];
    const Point& b = vertices_[indices[i + 1 == n ? 0 : i + 1]];
    const double cross = cross_xz(a, b, p);
    if (cross < 0.0 && cross < -xz_margin_ * (std::abs(b.x - a.x) + std::abs(b.z - a.z))) return false;
  }
  return true;
}

namespace {

// The height at (x, z) of the triangle among `count` (corners(i) gives triangle i's three
// corners) that contains the point seen from above, by barycentric coordinates; of the one it
// is least outside of when rounding puts it outside all of them; `fallback` when none has an
// area. Triangles wound clockwise count too when `either_winding` (a detail mesh's may be).
template <class Corners>
double height_over_triangles(double x, double z, std::size_t count, double fallback, bool either_winding,
                             Corners&& corners) {
  const Point p{x, 0.0, z};
  double best_height = fallback, best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    const auto [a, b, c] = corners(i);
    const double area = cross_xz(*a, *b, *c);
    if (either_winding ? area == 0.0 : area <= 0.0) continue;
    const double wa = cross_xz(*b, *c, p) / area, wb = cross_xz(*c, *a, p) / area, wc = cross_xz(*a, *b, p) / area;
    const double score = std::min({wa, wb, wc});
    if (score > best_score) {
      best_score = score;
      best_height = wa * a->y + wb * b->y + wc * c->y;
      if (score >= 0.0) break;
    }
  }
  return best_height;
}

}  // namespace

double NavMesh::height_at(PolygonId polygon, double x, double z) const {
  const auto indices = polygon_vertices(polygon);
  const double corner_height = vertices_[indices[0]].y;
  if (!detail_starts_.empty()) {
    const std::uint32_t input = source_polygons_[polygon];
    const std::uint32_t first = detail_starts_[input];
    if (first != detail_starts_[input + 1]) {
      return height_over_triangles(x, z, detail_starts_[input + 1] - first, corner_height, true, [&](std::size_t i) {
        const auto& triangle = detail_triangles_[first + i];
        return std::array{&detail_vertices_[triangle[0]], &detail_vertices_[triangle[1]], &detail_vertices_[triangle[2]]};
      });
    }
  }
  // The polygon's fan of triangles (0, i, i + 1).
  return height_over_triangles(x, z, indices.size() - 2, corner_height, false, [&](std::size_t i) {
    return std::array{&vertices_[indices[0]], &vertices_[indices[i + 1]], &vertices_[indices[i + 2]]};
  });
}

template <class Visit>
void NavMesh::for_each_polygon_near(double min_x, double min_z, double max_x, double max_z, Visit&& visit) const {
  const double c0 = std::floor((min_x - locator_origin_x_) * locator_inverse_cell_);
  const double c1 = std::floor((max_x - locator_origin_x_) * locator_inverse_cell_);
  const double r0 = std::floor((min_z - locator_origin_z_) * locator_inverse_cell_);
  const double r1 = std::floor((max_z - locator_origin_z_) * locator_inverse_cell_);
  if (c1 < 0.0 || r1 < 0.0 || c0 >= locator_columns_ || r0 >= locator_rows_) return;
  const auto x0 = static_cast<std::uint32_t>(std::max(c0, 0.0));
  const auto x1 = static_cast<std::uint32_t>(std::min(c1, static_cast<double>(locator_columns_ - 1)));
  const auto z0 = static_cast<std::uint32_t>(std::max(r0, 0.0));
  const auto z1 = static_cast<std::uint32_t>(std::min(r1, static_cast<double>(locator_rows_ - 1)));
  for (std::uint32_t z = z0; z <= z1; ++z) {
    for (std::uint32_t x = x0; x <= x1; ++x) {
      const std::size_t cell = static_cast<std::size_t>(z) * locator_columns_ + x;
      for (std::uint32_t i = locator_starts_[cell]; i < locator_starts_[cell + 1]; ++i) visit(locator_polygons_[i]);
    }
  }
}

MeshLocation NavMesh::locate(const Point& point, double height_tolerance) const {
  return locate_where(point, height_tolerance, [](PolygonId) { return true; });
}

MeshLocation NavMesh::locate(const Point& point, double height_tolerance, const AreaFilter& filter) const {
  return locate_where(point, height_tolerance,
                      [&](PolygonId polygon) { return filter.passes(tags_[polygon].area, tags_[polygon].flags); });
}

template <class Accept>
MeshLocation NavMesh::locate_where(const Point& point, double height_tolerance, Accept&& accept) const {
  MeshLocation best;
  if (!is_finite(point) || !(height_tolerance >= 0.0)) return best;
  double best_gap = std::numeric_limits<double>::infinity();
  // Boxes are widened by the same margin as contains_xz's, so a point on a box edge is seen.
  const double margin = xz_margin_;
  for_each_polygon_near(point.x - margin, point.z - margin, point.x + margin, point.z + margin, [&](PolygonId polygon) {
    const Bounds& box = polygon_bounds_[polygon];
    // The tests are joined with | rather than ||: whether a polygon listed near the point holds
    // it is unpredictable, and one branch mispredicts less often than four.
    const bool outside = (point.x < box.min.x - margin) | (point.x > box.max.x + margin) |
                         (point.z < box.min.z - margin) | (point.z > box.max.z + margin);
    if (outside) return;
    // The surface lies within the box's heights, so a box farther away in height than the
    // tolerance, or than the nearest surface found so far, cannot hold a nearer one. (With the
    // vertical extent of 4, boxes of other floors often pass the first test; the second stops
    // them once the point's own floor is found.)
    const double reach = std::min(height_tolerance, best_gap);
    if ((point.y < box.min.y - reach) | (point.y > box.max.y + reach)) return;
    if (!contains_xz(polygon, point.x, point.z) || !accept(polygon)) return;
    const double height = height_at(polygon, point.x, point.z);
    const double gap = std::abs(point.y - height);
    // Without detail heights the flat polygon only approximates the ground its source walked on
    // (a Detour polygon spans hills), so, as Detour's findNearestPoly, a point within the box's
    // heights widened by the tolerance (the polygon's vertical reach, tested above) is on it.
    const bool within_reach = gap <= height_tolerance || !has_detail_heights();
    if (within_reach && (gap < best_gap || (gap == best_gap && polygon < best.polygon))) {
      best_gap = gap;
      best = {polygon, {point.x, height, point.z}};
    }
  });
  return best;
}

namespace {

// The closest point to p on triangle abc in 3D (Ericson, Real-Time Collision Detection, 2005,
// section 5.1.5).
Point closest_point_on_triangle(const Point& p, const Point& a, const Point& b, const Point& c) {
  auto sub = [](const Point& u, const Point& v) { return Point{u.x - v.x, u.y - v.y, u.z - v.z}; };
  auto dot = [](const Point& u, const Point& v) { return u.x * v.x + u.y * v.y + u.z * v.z; };
  auto along = [](const Point& origin, const Point& direction, double t) {
    return Point{origin.x + t * direction.x, origin.y + t * direction.y, origin.z + t * direction.z};
  };
  const Point ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Point bp = sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return along(a, ab, d1 / (d1 - d3));
  const Point cp = sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return along(a, ac, d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return along(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denominator = 1.0 / (va + vb + vc);
  const double v = vb * denominator, w = vc * denominator;
  return {a.x + ab.x * v + ac.x * w, a.y + ab.y * v + ac.y * w, a.z + ab.z * v + ac.z * w};
}

}  // namespace

MeshLocation NavMesh::nearest_point(const Point& point, double max_distance) const {
  MeshLocation best;
  if (!is_finite(point) || !(max_distance >= 0.0) || std::isnan(max_distance)) return best;
  // A point straight above or below a polygon, within reach, stays where it is in x and z.
  best = locate(point, max_distance);
  if (best.valid()) return best;
  // No point of the mesh is farther (in x-z) than the distance to its box plus the box's size:
  // that bounds the cells to look at when max_distance is huge.
  const double outside_x = std::max({bounds_.min.x - point.x, 0.0, point.x - bounds_.max.x});
  const double outside_z = std::max({bounds_.min.z - point.z, 0.0, point.z - bounds_.max.z});
  const double reach = std::min(max_distance, std::hypot(outside_x, outside_z) + (bounds_.max.x - bounds_.min.x) +
                                                  (bounds_.max.z - bounds_.min.z) + 1.0);
  double best_squared = max_distance * max_distance;
  if (std::isinf(best_squared)) best_squared = std::numeric_limits<double>::max();
  for_each_polygon_near(point.x - reach, point.z - reach, point.x + reach, point.z + reach, [&](PolygonId polygon) {
    const Bounds& box = polygon_bounds_[polygon];
    const double dx = std::max({box.min.x - point.x, 0.0, point.x - box.max.x});
    const double dy = std::max({box.min.y - point.y, 0.0, point.y - box.max.y});
    const double dz = std::max({box.min.z - point.z, 0.0, point.z - box.max.z});
    if (dx * dx + dy * dy + dz * dz > best_squared) return;
    const auto indices = polygon_vertices(polygon);
    for (std::size_t i = 1; i + 1 < indices.size(); ++i) {
      const Point candidate = closest_point_on_triangle(point, vertices_[indices[0]], vertices_[indices[i]],
                                                        vertices_[indices[i + 1]]);
      const double squared = distance_squared(point, candidate);
      if (squared <= best_squared && (squared < best_squared || !best.valid() || polygon < best.polygon)) {
        best_squared = squared;
        best = {polygon, candidate};
      }
    }
  });
  // The search measured distances to the polygons' flat surfaces; the point returned stands on
  // the ground.
  if (best.valid() && has_detail_heights()) best.point.y = height_at(best.polygon, best.point.x, best.point.z);
  return best;
}

}  // namespace wayfinder
