#include "wayfinder/navmesh/funnel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "wayfinder/core/geometry.hpp"

namespace wayfinder {

namespace {

using geometry::cross_xz;
using geometry::distance_squared_xz;
using geometry::dot_xz;
using geometry::same_xz;
using geometry::units_in_last_place;

// True if p lies on the segment a-b (within rounding), seen from above: within 1e-9 of the
// segment's length of its line, plus a few units in the last place of the coordinates, which
// far from the origin are coarser than that (a point put on an edge at x = 1e9 is only known to
// about 1e-7).
bool on_segment_xz(const Point& p, const Point& a, const Point& b) {
  const double length_squared = distance_squared_xz(a, b);
  if (length_squared == 0.0) return same_xz(p, a);
  const double across = cross_xz(a, b, p);
  const double along = dot_xz(a, b, p);
  const double magnitude = std::max({std::abs(p.x), std::abs(p.z), std::abs(a.x), std::abs(a.z)});
  const double slack = 1e-9 * std::sqrt(length_squared) + units_in_last_place(8.0, magnitude);
  return across * across <= slack * slack * length_squared && along >= 0.0 && along <= length_squared;
}

}  // namespace

void corridor_portals(const NavMesh& mesh, std::span<const PolygonId> corridor, std::vector<Portal>& portals) {
  portals.clear();
  for (std::size_t i = 0; i + 1 < corridor.size(); ++i) {
    const PolygonId from = corridor[i], to = corridor[i + 1];
    if (from >= mesh.polygon_count() || to >= mesh.polygon_count())
      throw std::invalid_argument("corridor polygon out of range at position " + std::to_string(i));
    const auto neighbours = mesh.polygon_neighbours(from);
    const auto indices = mesh.polygon_vertices(from);
    std::size_t j = 0;
    while (j < neighbours.size() && neighbours[j] != to) ++j;
    if (j == neighbours.size())
      throw std::invalid_argument("corridor polygons " + std::to_string(from) + " and " + std::to_string(to) +
                                  " are not neighbours");
    // Polygons run counter-clockwise seen from above, so walking out of `from` across its edge
    // (v[j], v[j + 1]), the edge's second vertex is on the left.
    const Point& a = mesh.vertex(indices[j]);
    const Point& b = mesh.vertex(indices[j + 1 == indices.size() ? 0 : j + 1]);
    portals.push_back({b, a});
  }
}

std::vector<Portal> corridor_portals(const NavMesh& mesh, std::span<const PolygonId> corridor) {
  std::vector<Portal> portals;
  corridor_portals(mesh, corridor, portals);
  return portals;
}

void funnel_path(const Point& start, const Point& goal, std::span<const Portal> portals, std::vector<Point>& waypoints) {
  waypoints.clear();
  waypoints.push_back(start);
  // The portal list is implicitly (start, start), the corridor's portals, then (goal, goal).
  const std::size_t count = portals.size() + 2;
  auto left_of = [&](std::size_t i) -> const Point& {
    return i == 0 ? start : i == count - 1 ? goal : portals[i - 1].left;
  };
  auto right_of = [&](std::size_t i) -> const Point& {
    return i == 0 ? start : i == count - 1 ? goal : portals[i - 1].right;
  };
  auto add_corner = [&](const Point& corner) {
    if (!same_xz(corner, waypoints.back())) waypoints.push_back(corner);
  };

  Point apex = start, left = start, right = start;
  std::size_t apex_index = 0, left_index = 0, right_index = 0;
  for (std::size_t i = 1; i < count; ++i) {
    const Point& next_left = left_of(i);
    const Point& next_right = right_of(i);

    // An apex that lies on the portal itself (a start point on a shared edge, say) has no
    // funnel to narrow yet: the portal is passed where the apex is.
    if (same_xz(left, apex) && same_xz(right, apex) && !same_xz(next_left, apex) && !same_xz(next_right, apex) &&
        i + 1 < count && on_segment_xz(apex, next_left, next_right))
      continue;

    // The right side of the funnel moves in when the new right end is not outside it. (The two
    // sides are mirror images; written as one function of the side, the loop took 10 % more
    // instructions, so each is spelt out.)
    if (cross_xz(apex, right, next_right) >= 0.0) {
      if (same_xz(apex, right) || cross_xz(apex, left, next_right) < 0.0) {
        right = next_right;
        right_index = i;
      } else {
        // The right side crossed the left one: the path turns at the left corner, which
        // becomes the new apex, and the scan restarts from the portal after it.
        add_corner(left);
        apex = left;
        apex_index = left_index;
        right = left = apex;
        right_index = left_index = apex_index;
        i = apex_index;
        continue;
      }
    }

    if (cross_xz(apex, left, next_left) <= 0.0) {
      if (same_xz(apex, left) || cross_xz(apex, right, next_left) > 0.0) {
        left = next_left;
        left_index = i;
      } else {
        add_corner(right);
        apex = right;
        apex_index = right_index;
        left = right = apex;
        left_index = right_index = apex_index;
        i = apex_index;
        continue;
      }
    }
  }
  if (same_xz(waypoints.back(), goal) && waypoints.size() > 1)
    waypoints.back() = goal;
  else
    waypoints.push_back(goal);
}

std::vector<Point> funnel_path(const Point& start, const Point& goal, std::span<const Portal> portals) {
  std::vector<Point> waypoints;
  funnel_path(start, goal, portals, waypoints);
  return waypoints;
}

void place_turns_on_ground(const NavMesh& mesh, std::span<const PolygonId> corridor, std::span<const Portal> portals,
                           std::vector<Point>& waypoints) {
  // The turns follow the portals in order, so one pass finds each turn's portal.
  std::size_t portal = 0;
  for (std::size_t w = 1; w + 1 < waypoints.size(); ++w) {
    Point& turn_point = waypoints[w];
    while (portal < portals.size() && !same_xz(portals[portal].left, turn_point) &&
           !same_xz(portals[portal].right, turn_point))
      ++portal;
    if (portal == portals.size()) return;  // not a portal end: nothing to place
    turn_point.y = mesh.height_at(corridor[portal], turn_point.x, turn_point.z);
  }
}

}  // namespace wayfinder
