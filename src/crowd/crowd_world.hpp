#pragma once
// The world seam under the crowd: the few things the crowd's tick asks of the ground its agents
// walk on. The steering, avoidance and collision logic (crowd.cpp) is written once against this
// interface; each kind of world answers it beside it (navmesh_crowd_world.*, grid_crowd_world.*).
//
// An agent's place in a world is a node (a mesh polygon, a grid cell's id) and a point; its route
// is a list of nodes, the corridor (the mesh's polygons to its path's end; on a grid the agent's
// cell, then the cells of its path's remaining waypoints). Every const call may be made from any
// of the crowd's threads at once; the path calls (request, cancel, run, take) only from the
// thread that drives the crowd.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "local_walls.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/crowd/orca.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "wayfinder/navmesh/surface_queries.hpp"

namespace wayfinder::crowd_detail {

/// A point on walkable ground and the node holding it; node invalid_node when there is none.
struct WorldLocation {
  NodeId node = invalid_node;
  Point point;
  [[nodiscard]] bool valid() const { return node != invalid_node; }
};

/// Per-thread scratch memory the worlds reuse across calls.
struct WorldScratch {
  std::vector<Portal> portals;
  WallSearchScratch wall_search;
  std::vector<NodeId> merged;
};

class CrowdWorld {
 public:
  virtual ~CrowdWorld() = default;

  /// Moves with every edit of the world; routes planned before an edit are checked against it.
  [[nodiscard]] virtual std::uint64_t revision() const = 0;
  /// The walkable point nearest `point` (within `snap_distance` when it is not on walkable
  /// ground) that `filter` lets in, or an invalid location.
  [[nodiscard]] virtual WorldLocation place(const Point& point, const AreaFilter* filter, double snap_distance) const = 0;
  /// True when `filter` lets an agent stand on `node`.
  [[nodiscard]] virtual bool passes(NodeId node, const AreaFilter& filter) const = 0;

  // ---- Paths: searched in turns within each tick's budget (a PathRequestQueue of the world).
  virtual PathTicket request_path(const Point& start, const Point& target, const std::optional<AreaFilter>& filter) = 0;
  virtual void cancel_path(PathTicket ticket) = 0;
  virtual QueueUpdate run_paths(const StepBudget& budget) = 0;
  /// Moves a finished path into `path`; false (nothing taken) while it is not finished.
  virtual bool take_path(PathTicket ticket, PathResult& path) = 0;

  // ---- Routes.
  /// Makes a leg of a found path (its nodes, PathLegs::leg) the route walked: as it is on a mesh,
  /// smoothed to waypoints on a grid.
  virtual void route_from_leg(std::vector<NodeId>& corridor) const = 0;
  /// True when an edit after `planned_revision` blocked the route (or it cannot be checked).
  [[nodiscard]] virtual bool route_blocked(std::span<const NodeId> corridor, std::uint64_t planned_revision,
                                           const AreaFilter* filter) const = 0;
  /// Joins a new route that starts at `path_start` (where the agent stood when it asked) to
  /// where it stands now, `position`: afterwards corridor.front() holds `position`. False when
  /// they cannot be joined (the route is dropped and asked for again).
  virtual bool join_route_start(std::vector<NodeId>& corridor, const Point& path_start, const Point& position,
                                const AreaFilter* move_filter, std::size_t max_nodes, WorldScratch& scratch) const = 0;
  /// The way from `position` along the route to `path_end`: waypoints[0] is `position`, the
  /// last is `path_end`, and the ones between are the turns. May drop waypoints already passed
  /// from the route. False when the route is broken (asked for again).
  virtual bool steering_path(const Point& position, const Point& path_end, std::vector<NodeId>& corridor,
                             WorldScratch& scratch, std::vector<Point>& waypoints) const = 0;
  /// Where to aim for the turn `corner` of the last steering_path: moved `inset` off the walls
  /// that meet there when the turn lies on them (a mesh's turns are polygon corners).
  [[nodiscard]] virtual Point aim_at_turn(const Point& corner, double inset, const WorldScratch& scratch) const = 0;

  // ---- Ground.
  /// Appends the walls within `range` (x-z) of `centre`, which stands on `node`, that face it.
  virtual void gather_walls(NodeId node, PlanarVector centre, double range, const AreaFilter* filter,
                            std::size_t max_nodes, WorldScratch& scratch, std::vector<WallSegment>& walls) const = 0;
  /// True when the walls must keep the agent's whole disc off them (a grid's blocked cells);
  /// false when the ground is where centres may go (a mesh eroded by the agent's radius).
  [[nodiscard]] virtual bool walls_bound_the_disc() const = 0;
  /// Moves from `from` on `node` towards `to` without leaving walkable ground (sliding along
  /// its edges): SurfaceMoveResult's point, node (`polygon`) and the nodes passed (`corridor`).
  [[nodiscard]] virtual SurfaceMoveResult move(NodeId node, const Point& from, const Point& to,
                                               const AreaFilter* filter, std::size_t max_nodes) const = 0;
  // ---- Flow fields (grids).
  /// Where an agent at `position` heads along `field` (the furthest cell down it that it can walk
  /// to straight), and the way left from there (`remaining`: that distance and the field's cost
  /// on). at_goal: it stands in a goal cell; unreachable: no goal from its cell (or no field here).
  enum class FlowStep : std::uint8_t { heading, at_goal, unreachable };
  virtual FlowStep follow_flow(const GridFlowField& field, const Point& position, Point& heading,
                               double& remaining) const = 0;

  /// Makes the route follow a move; false when it cannot (the route is dropped and asked for again).
  virtual bool follow_move(std::vector<NodeId>& corridor, const SurfaceMoveResult& moved, WorldScratch& scratch) const = 0;
};

}  // namespace wayfinder::crowd_detail
