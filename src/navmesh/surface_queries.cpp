#include "wayfinder/navmesh/surface_queries.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "navmesh/polygon_edges.hpp"
#include "wayfinder/core/geometry.hpp"

namespace wayfinder {

namespace {

// ---- Geometry in the x-z plane. Polygons are counter-clockwise seen from above, so their
// inside lies to the left of every edge (cross_xz >= 0).

using geometry::closest_on_segment_xz;
using geometry::cross_xz;
using geometry::is_finite;
using geometry::lerp;

// Lengths here use hypot, which never overflows or underflows on the way.
double length_xz(double dx, double dz) { return std::hypot(dx, dz); }

// The unit normal of edge a -> b pointing to its right: out of a counter-clockwise polygon.
Point outward_normal(const Point& a, const Point& b) {
  const double dx = b.x - a.x, dz = b.z - a.z;
  const double length = length_xz(dx, dz);
  if (length == 0.0) return {};
  return {dz / length, 0.0, -dx / length};
}

struct SegmentPoint {
  double along = 0.0;  ///< 0 at a, 1 at b
  double distance = 0.0;
  Point point;  ///< x, z on the segment; y interpolated between the ends' heights
};

// The point of segment a-b closest to p in x-z.
SegmentPoint closest_on_segment(const Point& p, const Point& a, const Point& b) {
  const double along = closest_on_segment_xz(p, a, b);
  const Point on = lerp(a, b, along);
  return {along, length_xz(p.x - on.x, p.z - on.z), on};
}

// Twice the area in x-z of the polygon given by its vertices, relative to the first (as the mesh
// measures areas, so that far from the origin the products stay small).
double twice_area_xz(std::span<const Point> polygon) {
  return geometry::twice_area_xz(polygon.size(), [&](std::size_t i) -> const Point& { return polygon[i]; });
}

// The same for one of the mesh's polygons, without copying its vertices.
double twice_area_xz(const NavMesh& mesh, PolygonId polygon) {
  const auto indices = mesh.polygon_vertices(polygon);
  return geometry::twice_area_xz(indices.size(), [&](std::size_t i) -> const Point& { return mesh.vertex(indices[i]); });
}

std::vector<Point> polygon_points(const NavMesh& mesh, PolygonId polygon) {
  std::vector<Point> points;
  for (const std::uint32_t index : mesh.polygon_vertices(polygon)) points.push_back(mesh.vertex(index));
  return points;
}

// ---- Input checks: one message per argument, naming it.

std::string describe(const Point& p) {
  std::ostringstream text;
  text << '(' << p.x << ", " << p.y << ", " << p.z << ')';
  return text.str();
}

bool passes(const NavMesh& mesh, const AreaFilter* filter, PolygonId polygon) {
  return filter == nullptr || filter->passes(mesh.area(polygon), mesh.flags(polygon));
}

std::optional<std::string> filter_problem(const AreaFilter* filter) {
  if (filter == nullptr) return std::nullopt;
  if (auto problem = filter->problem()) return "filter: " + *problem;
  return std::nullopt;
}

std::optional<std::string> point_problem(const char* name, const Point& p) {
  if (is_finite(p)) return std::nullopt;
  return std::string(name) + ": the point " + describe(p) + " is not finite";
}

std::optional<std::string> location_problem(const NavMesh& mesh, const char* name, const MeshLocation& location,
                                            const AreaFilter* filter) {
  if (location.polygon >= mesh.polygon_count())
    return std::string(name) + ": polygon " +
           (location.valid() ? std::to_string(location.polygon) : std::string("invalid_polygon")) +
           " is not one of the mesh's " + std::to_string(mesh.polygon_count()) + " polygons";
  if (auto problem = point_problem(name, location.point)) return problem;
  if (!mesh.contains_xz(location.polygon, location.point.x, location.point.z))
    return std::string(name) + ": the point " + describe(location.point) + " is not inside polygon " +
           std::to_string(location.polygon) + " seen from above";
  if (!passes(mesh, filter, location.polygon))
    return std::string(name) + ": polygon " + std::to_string(location.polygon) + " is excluded by the filter";
  return std::nullopt;
}

std::optional<std::string> distance_problem(const char* name, double value, bool allow_infinite) {
  if (std::isnan(value) || value < 0.0)
    return std::string(name) + ": must be >= 0, got " + (std::isnan(value) ? std::string("NaN") : std::to_string(value));
  if (!allow_infinite && std::isinf(value)) return std::string(name) + ": must be finite";
  return std::nullopt;
}

// The first problem found, or nullopt.
template <class... Checks>
std::optional<std::string> first_problem(Checks&&... checks) {
  std::optional<std::string> found;
  ((found = found ? found : std::optional<std::string>(checks)), ...);
  return found;
}

// Tolerance in world units below which two points in x-z count as one (a ray passing a vertex
// this close is treated as passing through it): a few units in the last place of the mesh's
// largest coordinate, and never below 1e-9.
double vertex_tolerance(const NavMesh& mesh) {
  const Bounds& box = mesh.bounds();
  return std::max(1e-9, geometry::units_in_last_place(64.0, geometry::largest_xz_coordinate(box.min, box.max)));
}

// ---- Raycast.

// Where the line start + t * direction leaves the convex polygon (Cyrus & Beck 1978, as Detour's
// dtIntersectSegmentPoly2D, keeping only the exit): the smallest t at which it crosses an edge
// outwards, and that edge. Edges the line runs parallel to do not end it. Two edges in a row
// may lie on one line (a straight corner, where a neighbour's corner meets the side): both are
// crossed at the same t, and the exit is the one whose segment holds the crossing point.
struct PolygonExit {
  double t = std::numeric_limits<double>::infinity();
  std::uint32_t edge = 0;
};

PolygonExit polygon_exit(const NavMesh& mesh, PolygonId polygon, const Point& start, const Point& direction,
                         double t_tolerance) {
  const auto indices = mesh.polygon_vertices(polygon);
  const std::uint32_t n = static_cast<std::uint32_t>(indices.size());
  auto edge_end = [&](std::uint32_t j) -> const Point& { return mesh.vertex(indices[j + 1 == n ? 0 : j + 1]); };
  auto crossing = [&](std::uint32_t j) {  // t where the line leaves across edge j's line, or infinity
    const Point& a = mesh.vertex(indices[j]);
    const Point& b = edge_end(j);
    // How fast the line's "inside" measure for this edge changes: negative when it heads out.
    const double rate = (b.x - a.x) * direction.z - (b.z - a.z) * direction.x;
    return rate < 0.0 ? cross_xz(a, b, start) / -rate : std::numeric_limits<double>::infinity();
  };
  PolygonExit exit;
  for (std::uint32_t j = 0; j < n; ++j) {
    const double t = crossing(j);
    if (t < exit.t) exit = {t, j};
  }
  if (exit.t == std::numeric_limits<double>::infinity()) return exit;
  const Point at{start.x + exit.t * direction.x, 0.0, start.z + exit.t * direction.z};
  double best_gap = std::numeric_limits<double>::infinity();
  for (std::uint32_t j = 0; j < n; ++j) {
    if (!(crossing(j) <= exit.t + t_tolerance)) continue;
    const double gap = closest_on_segment(at, mesh.vertex(indices[j]), edge_end(j)).distance;
    if (gap < best_gap) {
      best_gap = gap;
      exit.edge = j;
    }
  }
  return exit;
}

// The interval of t over which the line lies inside the polygon (empty when lo > hi).
std::pair<double, double> polygon_interval(const NavMesh& mesh, PolygonId polygon, const Point& start,
                                           const Point& direction) {
  const auto indices = mesh.polygon_vertices(polygon);
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0, n = indices.size(); j < n; ++j) {
    const Point& a = mesh.vertex(indices[j]);
    const Point& b = mesh.vertex(indices[j + 1 == n ? 0 : j + 1]);
    const double rate = (b.x - a.x) * direction.z - (b.z - a.z) * direction.x;
    const double inside = cross_xz(a, b, start);
    if (rate < 0.0) {
      hi = std::min(hi, inside / -rate);
    } else if (rate > 0.0) {
      lo = std::max(lo, -inside / rate);
    } else if (inside < 0.0) {
      return {1.0, 0.0};  // parallel to the edge and outside it
    }
  }
  return {lo, hi};
}

bool is_wall(const NavMesh& mesh, const AreaFilter* filter, PolygonId neighbour) {
  return neighbour == invalid_polygon || !passes(mesh, filter, neighbour);
}

// The polygons around `vertex` that can be walked to from `polygon` without leaving the vertex
// (across passable shared edges that end at it), `polygon` first.
std::vector<PolygonId> polygons_around_vertex(const NavMesh& mesh, PolygonId polygon, std::uint32_t vertex,
                                              const AreaFilter* filter) {
  std::vector<PolygonId> fan{polygon};
  for (std::size_t next = 0; next < fan.size(); ++next) {
    const auto indices = mesh.polygon_vertices(fan[next]);
    const auto neighbours = mesh.polygon_neighbours(fan[next]);
    for (std::size_t j = 0, n = indices.size(); j < n; ++j) {
      if (indices[j] != vertex && indices[j + 1 == n ? 0 : j + 1] != vertex) continue;
      const PolygonId neighbour = neighbours[j];
      if (is_wall(mesh, filter, neighbour)) continue;
      if (std::find(fan.begin(), fan.end(), neighbour) == fan.end()) fan.push_back(neighbour);
    }
  }
  return fan;
}

// Of the wall edges that end at `vertex` among `fan`'s polygons, the outward normal the
// direction meets most head-on; `fallback` when there is none.
Point corner_normal(const NavMesh& mesh, std::span<const PolygonId> fan, std::uint32_t vertex, const Point& direction,
                    const AreaFilter* filter, const Point& fallback) {
  Point best = fallback;
  double best_facing = -std::numeric_limits<double>::infinity();
  for (const PolygonId polygon : fan) {
    const auto indices = mesh.polygon_vertices(polygon);
    const auto neighbours = mesh.polygon_neighbours(polygon);
    for (std::size_t j = 0, n = indices.size(); j < n; ++j) {
      const std::uint32_t from = indices[j], to = indices[j + 1 == n ? 0 : j + 1];
      if ((from != vertex && to != vertex) || !is_wall(mesh, filter, neighbours[j])) continue;
      const Point normal = outward_normal(mesh.vertex(from), mesh.vertex(to));
      const double facing = normal.x * direction.x + normal.z * direction.z;
      if (facing > best_facing) {
        best_facing = facing;
        best = normal;
      }
    }
  }
  return best;
}

RaycastResult walk_ray(const NavMesh& mesh, const MeshLocation& start, const Point& end, const AreaFilter* filter) {
  RaycastResult result;
  const Point origin{start.point.x, 0.0, start.point.z};
  const Point direction{end.x - origin.x, 0.0, end.z - origin.z};
  const double length = length_xz(direction.x, direction.z);
  PolygonId current = start.polygon;
  result.polygons.push_back(current);
  // Fills in the answer and hands it over (the walk ends with every call).
  auto finish = [&](double t, bool reached, const Point& normal) -> RaycastResult {
    result.reached = reached;
    result.t = std::clamp(t, 0.0, 1.0);
    result.distance = result.t * length;
    const double x = reached ? end.x : origin.x + result.t * direction.x;
    const double z = reached ? end.z : origin.z + result.t * direction.z;
    result.point = {x, mesh.height_at(current, x, z), z};
    result.polygon = current;
    result.wall_normal = reached ? Point{} : normal;
    return std::move(result);
  };
  if (length == 0.0) return finish(1.0, true, {});

  const double tolerance = vertex_tolerance(mesh);
  const double t_tolerance = tolerance / length;
  double t = 0.0;  // how far the ray has got; it never goes back
  // Each step enters a new polygon further along the ray; the bound only guards against a
  // rounding cycle on a malformed mesh.
  for (std::size_t steps = 0; steps <= 2 * mesh.polygon_count() + 2; ++steps) {
    const PolygonExit exit = polygon_exit(mesh, current, origin, direction, t_tolerance);
    const double exit_t = std::max(exit.t, t);
    if (exit_t >= 1.0 - t_tolerance) return finish(1.0, true, {});
    t = exit_t;

    const auto indices = mesh.polygon_vertices(current);
    const std::uint32_t n = static_cast<std::uint32_t>(indices.size());
    const std::uint32_t from = indices[exit.edge], to = indices[exit.edge + 1 == n ? 0 : exit.edge + 1];
    const Point& a = mesh.vertex(from);
    const Point& b = mesh.vertex(to);
    const Point edge_normal = outward_normal(a, b);
    const Point here{origin.x + t * direction.x, 0.0, origin.z + t * direction.z};
    const double to_a = length_xz(here.x - a.x, here.z - a.z), to_b = length_xz(here.x - b.x, here.z - b.z);

    if (std::min(to_a, to_b) > tolerance) {
      // Through the inside of an edge: into the neighbour across it, unless it is a wall.
      const PolygonId neighbour = mesh.polygon_neighbours(current)[exit.edge];
      if (is_wall(mesh, filter, neighbour)) return finish(t, false, edge_normal);
      current = neighbour;
      result.polygons.push_back(current);
      continue;
    }

    // Through a vertex (or close enough that rounding could put it on either side): the ray
    // goes on in whichever polygon around the vertex holds the line furthest beyond it, which
    // need not be a neighbour of this one across an edge.
    const std::uint32_t vertex = to_a <= to_b ? from : to;
    const std::vector<PolygonId> fan = polygons_around_vertex(mesh, current, vertex, filter);
    PolygonId next = invalid_polygon;
    double next_exit = t + t_tolerance;
    for (std::size_t i = 1; i < fan.size(); ++i) {
      const auto [enter_t, leave_t] = polygon_interval(mesh, fan[i], origin, direction);
      if (enter_t <= t + t_tolerance && leave_t > next_exit) {
        next = fan[i];
        next_exit = leave_t;
      }
    }
    if (next == invalid_polygon) return finish(t, false, corner_normal(mesh, fan, vertex, direction, filter, edge_normal));
    current = next;
    result.polygons.push_back(current);
  }
  return finish(t, false, {});
}

// ---- Random numbers: made from the generator's bits here, so one seed gives the same points
// on every standard library.

double uniform01(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * 0x1.0p-53;  // [0, 1) with 53 random bits
}

// A uniform point inside a convex polygon: a fan triangle chosen by area, then a uniform point
// in it by the square-root method (Osada et al. 2002), as Detour's dtRandomPointInConvexPoly.
Point random_point_in_convex(std::span<const Point> polygon, std::mt19937_64& random) {
  double pick = uniform01(random) * twice_area_xz(polygon);
  std::size_t triangle = 1;
  for (; triangle + 2 < polygon.size(); ++triangle) {
    const double area = cross_xz(polygon[0], polygon[triangle], polygon[triangle + 1]);
    if (pick < area) break;
    pick -= area;
  }
  const Point& a = polygon[0];
  const Point& b = polygon[triangle];
  const Point& c = polygon[triangle + 1];
  const double s = std::sqrt(uniform01(random)), r = uniform01(random);
  const double wa = 1.0 - s, wb = s * (1.0 - r), wc = s * r;
  return {wa * a.x + wb * b.x + wc * c.x, 0.0, wa * a.z + wb * b.z + wc * c.z};
}

// The convex polygon clipped to the box [min_x, max_x] x [min_z, max_z] (Sutherland & Hodgman
// 1974, one side of the box at a time).
std::vector<Point> clip_to_box(std::vector<Point> polygon, double min_x, double max_x, double min_z, double max_z) {
  auto clip = [&](auto inside_measure) {  // keeps the part where inside_measure(p) >= 0
    std::vector<Point> kept;
    for (std::size_t i = 0, n = polygon.size(); i < n; ++i) {
      const Point& p = polygon[i];
      const Point& q = polygon[i + 1 == n ? 0 : i + 1];
      const double mp = inside_measure(p), mq = inside_measure(q);
      if (mp >= 0.0) kept.push_back(p);
      if ((mp >= 0.0) != (mq >= 0.0)) {
        const double f = mp / (mp - mq);
        kept.push_back({p.x + f * (q.x - p.x), p.y + f * (q.y - p.y), p.z + f * (q.z - p.z)});
      }
    }
    polygon = std::move(kept);
  };
  clip([&](const Point& p) { return p.x - min_x; });
  clip([&](const Point& p) { return max_x - p.x; });
  clip([&](const Point& p) { return p.z - min_z; });
  clip([&](const Point& p) { return max_z - p.z; });
  return polygon;
}

}  // namespace

RaycastResult raycast(const NavMesh& mesh, const MeshLocation& start, const Point& end, const AreaFilter* filter) {
  if (auto problem = first_problem(filter_problem(filter), location_problem(mesh, "start", start, filter),
                                   point_problem("end", end))) {
    RaycastResult failed;
    failed.message = *problem;
    return failed;
  }
  return walk_ray(mesh, start, end, filter);
}

RaycastResult raycast(const NavMesh& mesh, const MeshLocation& start, RayDirection direction, double max_distance,
                      const AreaFilter* filter) {
  std::optional<std::string> problem = first_problem(filter_problem(filter), location_problem(mesh, "start", start, filter),
                                                     distance_problem("max_distance", max_distance, false));
  const double length = length_xz(direction.x, direction.z);
  if (!problem && !(std::isfinite(direction.x) && std::isfinite(direction.z)))
    problem = "direction: (" + std::to_string(direction.x) + ", " + std::to_string(direction.z) + ") is not finite";
  if (!problem && !(length > 0.0) && max_distance > 0.0) problem = "direction: must not be zero";
  if (problem) {
    RaycastResult failed;
    failed.message = *problem;
    return failed;
  }
  const double scale = length > 0.0 ? max_distance / length : 0.0;
  const Point end{start.point.x + direction.x * scale, start.point.y, start.point.z + direction.z * scale};
  RaycastResult result = walk_ray(mesh, start, end, filter);
  result.distance = result.t * max_distance;
  return result;
}

SurfaceMoveResult move_along_surface(const NavMesh& mesh, const MeshLocation& start, const Point& target,
                                     const AreaFilter* filter, std::size_t max_polygons) {
  SurfaceMoveResult result;
  if (auto problem = first_problem(filter_problem(filter), location_problem(mesh, "start", start, filter),
                                   point_problem("target", target))) {
    result.message = *problem;
    return result;
  }
  if (max_polygons == 0) {
    result.message = "max_polygons: must be at least 1";
    return result;
  }
  // Only polygons whose shared edges touch the circle through start and target are worth
  // entering (Detour: centred halfway, radius half their distance plus a little, so that the
  // start's own edges through the start count).
  const Point centre{(start.point.x + target.x) / 2, 0.0, (start.point.z + target.z) / 2};
  const double half = length_xz(target.x - start.point.x, target.z - start.point.z) / 2;
  const double radius = half + vertex_tolerance(mesh) + 1e-6 * half;

  struct Node {
    PolygonId polygon;
    std::uint32_t parent;  ///< index in `nodes`, or none for the start
  };
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<Node> nodes{{start.polygon, none}};
  std::unordered_set<PolygonId> seen{start.polygon};
  // Until something closer turns up, the agent stays where it is.
  Point best{start.point.x, 0.0, start.point.z};
  double best_distance = length_xz(target.x - start.point.x, target.z - start.point.z);
  std::uint32_t best_node = 0;

  for (std::uint32_t next = 0; next < nodes.size(); ++next) {
    const PolygonId polygon = nodes[next].polygon;
    if (mesh.contains_xz(polygon, target.x, target.z)) {
      best = {target.x, 0.0, target.z};
      best_node = next;
      best_distance = 0.0;
      break;
    }
    for_each_polygon_edge(mesh, polygon, [&](const PolygonEdge& edge) {
      if (is_wall(mesh, filter, edge.neighbour)) {
        // The agent slides along walls: the closest point of one is where it stops.
        const SegmentPoint on_wall = closest_on_segment(target, edge.a, edge.b);
        if (on_wall.distance < best_distance) {
          best_distance = on_wall.distance;
          best = on_wall.point;
          best_node = next;
        }
        return;
      }
      if (seen.contains(edge.neighbour) || nodes.size() >= max_polygons) return;
      if (closest_on_segment(centre, edge.a, edge.b).distance > radius) return;
      seen.insert(edge.neighbour);
      nodes.push_back({edge.neighbour, next});
    });
  }

  result.polygon = nodes[best_node].polygon;
  result.point = {best.x, mesh.height_at(result.polygon, best.x, best.z), best.z};
  for (std::uint32_t node = best_node; node != none; node = nodes[node].parent) result.corridor.push_back(nodes[node].polygon);
  std::reverse(result.corridor.begin(), result.corridor.end());
  for (const Node& node : nodes) result.visited.push_back(node.polygon);
  return result;
}

namespace {

constexpr const char* everything_excluded = "filter: it excludes every polygon of the mesh";

// The random point inside the chosen polygon, as random_point and RandomPointSampler give it.
RandomPointResult point_in(const NavMesh& mesh, PolygonId polygon, std::mt19937_64& random) {
  RandomPointResult result;
  const Point inside = random_point_in_convex(polygon_points(mesh, polygon), random);
  result.polygon = polygon;
  result.point = {inside.x, mesh.height_at(polygon, inside.x, inside.z), inside.z};
  result.attempts = 1;
  return result;
}

}  // namespace

RandomPointResult random_point(const NavMesh& mesh, std::mt19937_64& random, const AreaFilter* filter) {
  if (auto problem = filter_problem(filter)) {
    RandomPointResult failed;
    failed.message = *problem;
    return failed;
  }
  // Running sums of the areas, added in polygon order as RandomPointSampler adds them, so that
  // both choose the same polygon for the same draw.
  double total = 0.0;
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon)
    if (passes(mesh, filter, polygon)) total += twice_area_xz(mesh, polygon);
  if (!(total > 0.0)) {
    RandomPointResult failed;
    failed.message = everything_excluded;
    return failed;
  }
  // The first polygon whose running sum exceeds the pick; the last one passing the filter when
  // rounding leaves the pick at the very end.
  const double pick = uniform01(random) * total;
  PolygonId chosen = invalid_polygon;
  double running = 0.0;
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    if (!passes(mesh, filter, polygon)) continue;
    chosen = polygon;
    running += twice_area_xz(mesh, polygon);
    if (pick < running) break;
  }
  return point_in(mesh, chosen, random);
}

RandomPointSampler::RandomPointSampler(const NavMesh& mesh, const AreaFilter* filter)
    : mesh_(&mesh), revision_(mesh.revision()) {
  if (auto problem = filter_problem(filter)) {
    problem_ = *problem;
    return;
  }
  double running = 0.0;
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    if (!passes(mesh, filter, polygon)) continue;
    running += twice_area_xz(mesh, polygon);
    polygons_.push_back(polygon);
    running_areas_.push_back(running);
  }
  if (!(running > 0.0)) problem_ = everything_excluded;
}

RandomPointResult RandomPointSampler::operator()(std::mt19937_64& random) const {
  if (!problem_.empty() || mesh_->revision() != revision_) {
    RandomPointResult failed;
    failed.message = problem_.empty() ? "mesh: its areas or flags were edited since the sampler was built (revision " +
                                        std::to_string(revision_) + ", now " + std::to_string(mesh_->revision()) +
                                        "); build a new sampler"
                                    : problem_;
    return failed;
  }
  const double pick = uniform01(random) * running_areas_.back();
  const auto found = std::upper_bound(running_areas_.begin(), running_areas_.end(), pick);
  const std::size_t index = found == running_areas_.end() ? running_areas_.size() - 1
                                                          : static_cast<std::size_t>(found - running_areas_.begin());
  return point_in(*mesh_, polygons_[index], random);
}

RandomPointResult random_point_around(const NavMesh& mesh, const MeshLocation& centre, double radius,
                                      std::mt19937_64& random, const AreaFilter* filter) {
  RandomPointResult result;
  if (auto problem = first_problem(filter_problem(filter), location_problem(mesh, "centre", centre, filter),
                                   distance_problem("radius", radius, false))) {
    result.message = *problem;
    return result;
  }
  auto return_centre = [&](int attempts) {
    result.polygon = centre.polygon;
    result.point = {centre.point.x, mesh.height_at(centre.polygon, centre.point.x, centre.point.z), centre.point.z};
    result.attempts = attempts;
    result.centre_returned = true;
    return result;
  };
  if (radius == 0.0) return return_centre(0);

  // The reachable polygons: connected to the centre's across shared edges that come within the
  // radius (Detour's findRandomPointAroundCircle), each clipped to the circle's bounding square.
  const double min_x = centre.point.x - radius, max_x = centre.point.x + radius;
  const double min_z = centre.point.z - radius, max_z = centre.point.z + radius;
  struct Piece {
    PolygonId polygon;
    std::vector<Point> points;
    double twice_area;
  };
  std::vector<Piece> pieces;
  std::vector<PolygonId> reached{centre.polygon};
  std::unordered_set<PolygonId> seen{centre.polygon};
  double total = 0.0;
  for (std::size_t next = 0; next < reached.size(); ++next) {
    const PolygonId polygon = reached[next];
    std::vector<Point> piece = clip_to_box(polygon_points(mesh, polygon), min_x, max_x, min_z, max_z);
    const double twice_area = piece.size() >= 3 ? twice_area_xz(piece) : 0.0;
    if (twice_area > 0.0) {
      total += twice_area;
      pieces.push_back({polygon, std::move(piece), twice_area});
    }
    for_each_polygon_edge(mesh, polygon, [&](const PolygonEdge& edge) {
      if (is_wall(mesh, filter, edge.neighbour) || seen.contains(edge.neighbour)) return;
      if (closest_on_segment(centre.point, edge.a, edge.b).distance > radius) return;
      seen.insert(edge.neighbour);
      reached.push_back(edge.neighbour);
    });
  }
  if (!(total > 0.0)) return return_centre(0);

  // Uniform over the pieces, kept only inside the circle: uniform over the reachable disc.
  for (int attempt = 1; attempt <= random_point_around_attempts; ++attempt) {
    double pick = uniform01(random) * total;
    const Piece* chosen = &pieces.back();
    for (const Piece& piece : pieces) {
      if (pick < piece.twice_area) {
        chosen = &piece;
        break;
      }
      pick -= piece.twice_area;
    }
    const Point inside = random_point_in_convex(chosen->points, random);
    if (length_xz(inside.x - centre.point.x, inside.z - centre.point.z) > radius) continue;
    result.polygon = chosen->polygon;
    result.point = {inside.x, mesh.height_at(chosen->polygon, inside.x, inside.z), inside.z};
    result.attempts = attempt;
    return result;
  }
  return return_centre(random_point_around_attempts);
}

WallDistanceResult distance_to_wall(const NavMesh& mesh, const MeshLocation& point, double max_radius,
                                    const AreaFilter* filter) {
  WallDistanceResult result;
  if (auto problem = first_problem(filter_problem(filter), location_problem(mesh, "point", point, filter),
                                   distance_problem("max_radius", max_radius, true))) {
    result.message = *problem;
    return result;
  }
  result.distance = max_radius;
  // Breadth-first over the polygons whose shared edges come within the best distance so far
  // (Detour's findDistanceToWall walks them cheapest first; the answer is the same, the order
  // only changes how many polygons are looked at).
  std::vector<PolygonId> reached{point.polygon};
  std::unordered_set<PolygonId> seen{point.polygon};
  for (std::size_t next = 0; next < reached.size(); ++next) {
    const PolygonId polygon = reached[next];
    for_each_polygon_edge(mesh, polygon, [&](const PolygonEdge& edge) {
      const SegmentPoint nearest = closest_on_segment(point.point, edge.a, edge.b);
      if (is_wall(mesh, filter, edge.neighbour)) {
        if (nearest.distance < result.distance) {
          result.found = true;
          result.distance = nearest.distance;
          result.point = nearest.point;
          result.wall_normal = outward_normal(edge.a, edge.b);
          result.polygon = polygon;
        }
        return;
      }
      if (nearest.distance > result.distance || seen.contains(edge.neighbour)) return;
      seen.insert(edge.neighbour);
      reached.push_back(edge.neighbour);
    });
  }
  return result;
}

}  // namespace wayfinder
