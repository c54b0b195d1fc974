#pragma once
// What a character controller asks of a navigation mesh between path queries: can I walk
// straight there (raycast), where do I end up if I walk towards this point and slide along the
// walls (move_along_surface), where is a random place to wander to (random_point,
// random_point_around), and how close is the nearest wall (distance_to_wall). These are the
// queries of Detour's dtNavMeshQuery (raycast, moveAlongSurface, findRandomPoint,
// findRandomPointAroundCircle, findDistanceToWall; Mononen 2009), done on this library's mesh.
//
// Every query works in the x-z plane (seen from above) and walks the mesh from polygon to
// polygon across shared edges, so it stays on the floor it starts on where floors overlap;
// heights of the points it returns come from the polygon they lie in (NavMesh::height_at).
// The functions only read the mesh: any number of threads may call them on one shared mesh at
// the same time, and they keep no state between calls.
//
// Walls: an edge with no neighbour, or whose neighbour the optional filter does not let in
// (AreaFilter::passes on the neighbour's area and flags), is a wall.
//
// Bad input never throws and never crashes: a query given a point that is not finite, a
// MeshLocation whose polygon is out of range, excluded by the filter or does not hold its point
// (seen from above), a negative or NaN radius or distance (or an infinite one where it must be
// finite), a zero direction, or a filter with an unusable cost (AreaFilter::problem) returns a
// result whose `message` starts with the argument's name and says what is wrong (ok() is false)
// and whose other fields are left at their defaults. A MeshLocation from NavMesh::locate or
// nearest_point, or a point and polygon one of these queries returned, is always accepted.

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// What raycast found.
struct RaycastResult {
  /// Empty when the query was answered; otherwise what was wrong with its input (ok() false).
  std::string message;
  [[nodiscard]] bool ok() const { return message.empty(); }

  /// True when the segment stays on the mesh all the way to its end.
  bool reached = false;
  /// How far along start -> end (x-z) the ray got: 1 when it reached the end, else where it hit
  /// a wall, in [0, 1].
  double t = 0.0;
  /// The same as a distance in the x-z plane.
  double distance = 0.0;
  /// The end, or the point where the ray hit a wall, with the mesh's height there.
  Point point;
  /// The polygon `point` lies in (the last polygon crossed).
  PolygonId polygon = invalid_polygon;
  /// The hit wall edge's unit normal in x-z (y = 0), pointing out of the walkable side into the
  /// wall; (0, 0, 0) when the end was reached. When the ray hits a corner exactly, the normal of
  /// the wall edge there that the ray meets most head-on.
  Point wall_normal;
  /// Every polygon the ray passed through, in order, from the start's polygon to `polygon`.
  std::vector<PolygonId> polygons;
};

/// A direction in the x-z plane (it need not have unit length, but must not be zero).
struct RayDirection {
  double x = 0.0;
  double z = 0.0;
};

/// Whether the straight segment from `start` to `end` (seen from above; end.y is ignored) stays
/// on the mesh, walking from the start's polygon across shared edges as Detour's
/// dtNavMeshQuery::raycast does. A segment passing exactly through a vertex continues into
/// whichever polygon around the vertex it enters; a zero-length ray reaches its end at once; a
/// start on a wall heading out hits it at t = 0.
RaycastResult raycast(const NavMesh& mesh, const MeshLocation& start, const Point& end,
                      const AreaFilter* filter = nullptr);
/// The same along `direction` for `max_distance` (finite, >= 0) world units: t is the fraction
/// of max_distance travelled, `distance` the distance.
RaycastResult raycast(const NavMesh& mesh, const MeshLocation& start, RayDirection direction, double max_distance,
                      const AreaFilter* filter = nullptr);

/// What move_along_surface found.
struct SurfaceMoveResult {
  std::string message;  ///< empty when answered, else what was wrong with the input
  [[nodiscard]] bool ok() const { return message.empty(); }

  /// The reachable position closest to the target (the target itself when it was reached), with
  /// the mesh's height there.
  Point point;
  PolygonId polygon = invalid_polygon;
  /// The polygons from the start's to `polygon`, each a neighbour of the one before: the
  /// corridor the move took (what Detour's moveAlongSurface returns as its visited polygons,
  /// for fixing up a path corridor).
  std::vector<PolygonId> corridor;
  /// Every polygon the search looked at, in the order it reached them.
  std::vector<PolygonId> visited;
};

/// Moves from `start` towards `target` (x-z; target.y is ignored) and stops at the reachable
/// position closest to the target: the target itself when it lies in a polygon the search
/// reaches, else the closest point of a wall edge, so an agent walking into a wall slides along
/// it. As Detour's dtNavMeshQuery::moveAlongSurface: a breadth-first walk over the polygons
/// whose shared edges touch the circle through start and target (centred halfway, a little
/// larger than half their distance), looking at no more than `max_polygons` polygons (>= 1;
/// Detour's is 48). Meant for the short moves of one frame.
SurfaceMoveResult move_along_surface(const NavMesh& mesh, const MeshLocation& start, const Point& target,
                                     const AreaFilter* filter = nullptr, std::size_t max_polygons = 64);

/// A point on the mesh found by random_point or random_point_around.
struct RandomPointResult {
  std::string message;  ///< empty when answered, else what was wrong with the input
  [[nodiscard]] bool ok() const { return message.empty(); }

  Point point;
  PolygonId polygon = invalid_polygon;
  /// random_point_around: how many points were drawn before one fell inside the circle
  /// (1 for random_point).
  int attempts = 0;
  /// random_point_around: true when every attempt fell outside the circle and the centre
  /// itself was returned.
  bool centre_returned = false;
};

/// A point uniformly distributed over the mesh seen from above: a polygon chosen with
/// probability proportional to its area in x-z, then a uniform point inside it (a triangle of
/// its fan chosen by area, then a uniform point in the triangle), as Detour's findRandomPoint
/// and dtRandomPointInConvexPoly. Polygons the filter excludes are never chosen; with none left
/// the result says so in its message. The same generator state gives the same point on every platform
/// (the generator's bits are turned into numbers here, not by a standard distribution). Takes
/// time linear in the number of polygons.
RandomPointResult random_point(const NavMesh& mesh, std::mt19937_64& random, const AreaFilter* filter = nullptr);

/// random_point's points in time logarithmic in the polygon count, for drawing many: the
/// running sums of the polygons' areas are computed once. For the same generator state it gives
/// exactly the point random_point gives (with the same filter). It keeps a reference to the
/// mesh, which must outlive it, and reads the mesh as random_point does (any number of threads
/// may draw from one sampler, each with its own generator). The filter is applied when the
/// sampler is built: an edit of the mesh's areas or flags afterwards makes every draw fail (a message)
/// ("mesh: ... edited since the sampler was built"), so build a new sampler after edits (and
/// after NavMesh::forget_changes, which restarts the revision it compares). A
/// filter with an unusable cost, or one that excludes every polygon, makes every draw fail (a message).
class RandomPointSampler {
 public:
  explicit RandomPointSampler(const NavMesh& mesh, const AreaFilter* filter = nullptr);
  explicit RandomPointSampler(const NavMesh&& mesh, const AreaFilter* filter = nullptr) = delete;

  RandomPointResult operator()(std::mt19937_64& random) const;

 private:
  const NavMesh* mesh_;
  std::uint64_t revision_;
  std::string problem_;               ///< why no point can be drawn, or empty
  std::vector<PolygonId> polygons_;   ///< the polygons the filter passes, in id order
  std::vector<double> running_areas_; ///< twice their areas in x-z, summed up to each
};

/// How many points random_point_around draws before it gives up and returns the centre.
inline constexpr int random_point_around_attempts = 64;

/// A point uniformly distributed over the part of the mesh within `radius` (x-z) of `centre`
/// that is reachable from it: the polygons connected to the centre's polygon through shared
/// edges that come within `radius` of the centre (as Detour's findRandomPointAroundCircle
/// collects them). Each polygon is clipped to the circle's bounding square, a point is drawn
/// uniformly over those pieces (piece by area, then inside it) and kept only if it lies within
/// the circle; so, unlike Detour's, the result is always within `radius` and uniform over the
/// reachable disc. A point is drawn at most random_point_around_attempts times (each falls in
/// the circle with probability at least about pi/4 unless the reachable ground lies mostly in
/// the square's corners); after that, and for radius 0, the centre is returned
/// (`centre_returned`).
RandomPointResult random_point_around(const NavMesh& mesh, const MeshLocation& centre, double radius,
                                      std::mt19937_64& random, const AreaFilter* filter = nullptr);

/// What distance_to_wall found.
struct WallDistanceResult {
  std::string message;  ///< empty when answered, else what was wrong with the input
  [[nodiscard]] bool ok() const { return message.empty(); }

  /// True when a wall closer than max_radius was found.
  bool found = false;
  /// The distance (x-z) from the point to the nearest wall, or max_radius when none is closer.
  double distance = 0.0;
  /// The nearest point of that wall, with the height of the wall edge there (when found).
  Point point;
  /// The wall edge's unit normal in x-z (y = 0), pointing out of the walkable side into the wall.
  Point wall_normal;
  /// The polygon the wall edge belongs to.
  PolygonId polygon = invalid_polygon;
};

/// The distance from `point` to the nearest wall edge reachable within `max_radius` (>= 0,
/// may be infinite), as Detour's dtNavMeshQuery::findDistanceToWall: a walk from the point's
/// polygon across shared edges that come within the best distance found so far. The nearest
/// wall point is always reached this way (the straight line to it crosses no wall before it),
/// so the answer is the true distance to the nearest wall that can be seen from the point.
WallDistanceResult distance_to_wall(const NavMesh& mesh, const MeshLocation& point, double max_radius,
                                    const AreaFilter* filter = nullptr);

}  // namespace wayfinder
