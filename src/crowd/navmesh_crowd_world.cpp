#include "navmesh_crowd_world.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "path_corridor.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/corridor_breaks.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"

namespace wayfinder::crowd_detail {
namespace {

/// The turn `corner` (a portal end, as the funnel gives it) moved `inset` off the walls that
/// meet there: along the sum of the directions from it to the other ends of the portals it
/// ends, which fan out through the open ground around it (at most half the narrowest portal).
Point inset_corner(const Point& corner, const std::vector<Portal>& portals, double inset) {
  PlanarVector away;
  double narrowest = std::numeric_limits<double>::infinity();
  for (const Portal& portal : portals) {
    const Point* other = nullptr;
    if (portal.left.x == corner.x && portal.left.z == corner.z)
      other = &portal.right;
    else if (portal.right.x == corner.x && portal.right.z == corner.z)
      other = &portal.left;
    if (other == nullptr) continue;
    const double width = geometry::distance_xz(corner, *other);
    if (width <= 0.0) continue;
    narrowest = std::min(narrowest, width);
    away = away + (1.0 / width) * PlanarVector{other->x - corner.x, other->z - corner.z};
  }
  const double length = away.length();
  if (length <= 1e-9) return corner;
  const double shift = std::min(inset, 0.5 * narrowest) / length;
  return {corner.x + shift * away.x, corner.y, corner.z + shift * away.z};
}

class NavMeshCrowdWorld final : public CrowdWorld {
 public:
  NavMeshCrowdWorld(const NavMesh& mesh, const PathRequestQueueSettings& queue) : mesh_(mesh), queue_(mesh, queue) {}

  std::uint64_t revision() const override { return mesh_.revision(); }

  WorldLocation place(const Point& point, const AreaFilter* filter, double snap_distance) const override {
    MeshLocation location = filter != nullptr ? mesh_.locate(point, NavMesh::default_height_tolerance, *filter)
                                              : mesh_.locate(point);
    if (!location.valid()) {
      location = mesh_.nearest_point(point, snap_distance);
      if (location.valid() && filter != nullptr && !passes(location.polygon, *filter)) return {};
    }
    return {location.polygon, location.point};
  }

  bool passes(NodeId node, const AreaFilter& filter) const override {
    return filter.passes(mesh_.area(node), mesh_.flags(node));
  }

  PathTicket request_path(const Point& start, const Point& target, const std::optional<AreaFilter>& filter) override {
    NavMeshSearchOptions options;
    options.filter = filter;
    options.partial_when_unreachable = true;
    return queue_.submit({start, target, options});
  }
  void cancel_path(PathTicket ticket) override { queue_.cancel(ticket); }
  QueueUpdate run_paths(const StepBudget& budget) override { return queue_.update(budget); }
  bool take_path(PathTicket ticket, PathResult& path) override { return queue_.take_result(ticket, path); }

  void route_from_leg(std::vector<NodeId>&) const override {}  // a mesh walks its corridor as it is

  bool route_blocked(std::span<const NodeId> corridor, std::uint64_t planned_revision,
                     const AreaFilter* filter) const override {
    try {
      return first_blocked_polygon(mesh_, corridor, planned_revision, filter).has_value();
    } catch (const std::invalid_argument&) {
      return true;
    }
  }

  bool join_route_start(std::vector<NodeId>& corridor, const Point& path_start, const Point& position,
                        const AreaFilter* move_filter, std::size_t max_nodes, WorldScratch& scratch) const override {
    // The path starts where the agent stood when it asked (or in the polygon beside it on a
    // shared edge): walk from there to where it stands now and merge the walk in.
    const SurfaceMoveResult walk = move_along_surface(mesh_, {corridor.front(), path_start}, position, move_filter, max_nodes);
    const bool reached = walk.ok() && walk.point.x == position.x && walk.point.z == position.z;
    return reached && merge_moved_start(corridor, walk.corridor, scratch.merged) &&
           mesh_.contains_xz(corridor.front(), position.x, position.z);
  }

  bool steering_path(const Point& position, const Point& path_end, std::vector<NodeId>& corridor, WorldScratch& scratch,
                     std::vector<Point>& waypoints) const override {
    try {
      corridor_portals(mesh_, corridor, scratch.portals);
    } catch (const std::invalid_argument&) {
      return false;
    }
    funnel_path(position, path_end, scratch.portals, waypoints);
    return true;
  }

  Point aim_at_turn(const Point& corner, double inset, const WorldScratch& scratch) const override {
    return inset_corner(corner, scratch.portals, inset);
  }

  void gather_walls(NodeId node, PlanarVector centre, double range, const AreaFilter* filter, std::size_t max_nodes,
                    WorldScratch& scratch, std::vector<WallSegment>& walls) const override {
    crowd_detail::gather_walls(mesh_, node, centre, range, filter, max_nodes, scratch.wall_search, walls);
  }

  bool walls_bound_the_disc() const override { return false; }

  SurfaceMoveResult move(NodeId node, const Point& from, const Point& to, const AreaFilter* filter,
                         std::size_t max_nodes) const override {
    return move_along_surface(mesh_, {node, from}, to, filter, max_nodes);
  }

  bool follow_move(std::vector<NodeId>& corridor, const SurfaceMoveResult& moved, WorldScratch& scratch) const override {
    return merge_moved_start(corridor, moved.corridor, scratch.merged);
  }

  FlowStep follow_flow(const GridFlowField&, const Point&, Point&, double&) const override {
    return FlowStep::unreachable;  // flow fields are a grid's
  }

 private:
  const NavMesh& mesh_;
  PathRequestQueue<NavMesh> queue_;
};

}  // namespace

std::unique_ptr<CrowdWorld> make_navmesh_world(const NavMesh& mesh, const PathRequestQueueSettings& queue) {
  return std::make_unique<NavMeshCrowdWorld>(mesh, queue);
}

}  // namespace wayfinder::crowd_detail
