#pragma once
// A crowd: agents that walk their paths on a navigation mesh or a grid together, avoiding each
// other and the walls, never leaving walkable ground. The crowd asks its world for a few things
// only (paths, corridors, moves, walls: src/crowd/crowd_world.hpp), so the logic below is the
// same on both. On a mesh, each tick (update) every agent
//   1. gets its path from the library's corridor search and funnel through a PathRequestQueue
//      under the tick's path budget, and keeps a corridor of polygons that follows it as it
//      moves (polygons passed are trimmed, the start is moved along the surface, the way is
//      planned again when an edit of the mesh breaks it);
//   2. steers towards the next corner of the funnel path through its corridor;
//   3. avoids its neighbours and the walls around it by ORCA (crowd/orca.hpp; van den Berg, Guy,
//      Lin & Manocha, "Reciprocal n-Body Collision Avoidance", 2011);
//   4. moves, along the surface of the mesh, so that it never leaves it; then a bounded
//      collision pass pushes apart agents that still overlap.
// On a grid (GridMap), an agent stands at (x, 0, z): x is the grid's column and z its row, in
// cell units (a cell's centre is (column + 0.5, 0, row + 0.5)); paths come from the grid's search
// (A* or JPS, GridCrowdOptions), smoothed to any-angle waypoints through cell centres, and take
// the corridor's place; walls are the edges of blocked cells merged along rows and columns, and
// keep the agent's whole disc off them; moves never leave walkable cells. Voxel worlds are not
// supported yet.
// The model, the parameters, what is guaranteed and what is not: docs/crowds.md.
//
// Determinism: every new velocity is computed from the state the previous tick left, and each
// agent writes only its own state, so the same inputs (agents added in the same order, the same
// targets and ticks) give bit-identical positions whatever CrowdSettings::threads is.
//
// Threads: the mesh is shared read-only (as every world); a Crowd is driven by one thread (its
// update may use more internally: CrowdSettings::threads - 1 helper threads started with the
// crowd, asleep between updates). Editing the mesh (areas and flags) between updates is
// allowed; during an update it is not. The mesh must outlive the crowd.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_request_queue.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/crowd/orca.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// Names an agent of one Crowd; ids are handed out in increasing order and never reused.
using CrowdAgentId = std::uint32_t;

/// One agent's body and manners. Lengths in world units (metres in the docs), times in seconds.
struct CrowdAgentSettings {
  double radius = 0.5;             ///< > 0
  double height = 2.0;             ///< > 0; the agent occupies [y, y + height] (floors apart: docs/crowds.md)
  double max_speed = 3.5;          ///< >= 0, units per second
  double max_acceleration = 8.0;   ///< > 0, units per second squared
  /// How much others give way to this agent when they meet, >= 0: of two agents with
  /// priorities p and q, the first takes q / (p + q) of the avoidance (both 0: half each).
  double avoidance_priority = 1.0;
  /// Within this distance (x-z) of its target point the agent has arrived and stops (>= 0).
  double arrival_radius = 0.1;
  /// The polygons the agent may walk on and what they cost (areas and flags), for its paths,
  /// its moves and its walls; none: every polygon.
  std::optional<AreaFilter> filter;
  /// The game's own number for the agent; the crowd never reads it.
  std::uint64_t user_id = 0;

  /// Why these settings cannot be used (the field's name first), or nullopt.
  [[nodiscard]] std::optional<std::string> problem() const;
};

enum class CrowdTargetKind : std::uint8_t {
  none,      ///< stand still
  point,     ///< walk to a point of the mesh along a path
  velocity,  ///< walk at a velocity chosen by the game (a player's character): no path
  flow,      ///< follow a shared flow field to the nearest of its goals (grids only): no path search
};

enum class CrowdAgentStatus : std::uint8_t {
  idle,              ///< no target
  waiting_for_path,  ///< its path has been asked for and has not come yet: it stands still
  moving,            ///< following its path, or its target velocity
  arrived,           ///< within its arrival radius of its target point; stands still
  unreachable,       ///< its target cannot be reached: it walked as close as it can and stands there
  on_link,           ///< crossing an off-mesh link (CrowdAgent::link): a timed move, not steered or pushed
};

/// An agent's crossing of an off-mesh link (a jump, a ladder, a teleporter), a timed move the
/// game animates: the agent goes in a straight line (3D) from `start` to `end` at its max speed,
/// so `duration` is their distance over it (at least one tick), and lands on the link's far end
/// to walk the rest of its path. While crossing, avoidance and the collision pass never move it;
/// others avoid it (they take all of the avoidance between them and it).
struct CrowdLinkTraversal {
  OffMeshLinkId link = 0;  ///< the link's id (NavMesh::off_mesh_link)
  bool reverse = false;    ///< a two-way link taken from its end to its start
  Point start;             ///< where the agent stood when it took the link (within its radius of the link's start)
  Point end;               ///< where it lands: the link's far end, on the mesh
  PolygonId end_polygon = invalid_polygon;  ///< the polygon it lands on
  double duration = 0.0;   ///< seconds from taking the link to landing (> 0)
  double elapsed = 0.0;    ///< seconds since it took the link
  /// How far along the crossing is, 0 (the tick it took the link) to 1 (landed).
  [[nodiscard]] double progress() const { return duration > 0.0 && elapsed < duration ? elapsed / duration : 1.0; }
};

/// What happened to an agent's link crossing in the last update.
enum class CrowdLinkEvent : std::uint8_t {
  none,
  started,   ///< it took a link this tick (progress 0; its position has not moved yet)
  finished,  ///< it landed this tick (CrowdAgent::link is empty again; the status is moving, or
             ///< waiting_for_path when its target changed meanwhile)
};

/// What the game reads of an agent after an update.
struct CrowdAgent {
  CrowdAgentId id = 0;
  CrowdAgentSettings settings;
  /// Where it stands, on the mesh (the height is the mesh's there), and its polygon; on a grid,
  /// (column, 0, row) in cell units and its cell's id (row * width + column). While it crosses
  /// an off-mesh link its position is on the straight line of the crossing (off the mesh) and
  /// its polygon the one it took the link from.
  Point position;
  PolygonId polygon = invalid_polygon;
  /// Its velocity (x-z, units per second) during the last tick.
  PlanarVector velocity;
  /// The velocity it wanted during the last tick, before avoidance.
  PlanarVector desired_velocity;
  CrowdTargetKind target_kind = CrowdTargetKind::none;
  /// The target point (on the mesh), for CrowdTargetKind::point; for flow, the centre of the
  /// goal cell the field leads the agent to (from where it stood when sent).
  Point target;
  PlanarVector target_velocity; ///< for CrowdTargetKind::velocity
  CrowdAgentStatus status = CrowdAgentStatus::idle;
  /// True when it has a target but made no progress towards it for CrowdSettings::stuck_time.
  bool stuck = false;
  /// The polygons from its own to the end of its path (empty without a path); on a grid, its
  /// cell and then the cells of its path's waypoints still ahead.
  std::vector<PolygonId> corridor;
  /// The point it steers to: the next corner of its path (its position when it has none).
  Point next_corner;
  /// How many paths it has asked for (the first and every replan).
  std::uint32_t path_requests = 0;
  /// The off-mesh link it is crossing (status on_link), or empty.
  std::optional<CrowdLinkTraversal> link;
  /// Whether it took or left a link during the last update.
  CrowdLinkEvent link_event = CrowdLinkEvent::none;
};

struct CrowdSettings {
  /// Threads update() splits the agents over (>= 1); the result is the same for every count.
  std::size_t threads = 1;
  /// With fewer agents than threads x this (>= 1), update() runs on the calling thread alone:
  /// its phases meet dozens of times a tick, a few microseconds each, which a small crowd's
  /// work does not pay for. The result is the same either way.
  std::size_t min_agents_per_thread = 256;
  /// ORCA's time horizon for other agents, seconds (> 0): avoid collisions this far ahead.
  double time_horizon = 2.0;
  /// ORCA's time horizon for walls, seconds (> 0; shorter lets agents walk close to walls).
  double wall_time_horizon = 0.5;
  /// Agents within this distance (x-z, between centres) are neighbours (> 0).
  double neighbour_distance = 5.0;
  /// At most this many neighbours, the nearest, are avoided (>= 1).
  std::size_t max_neighbours = 10;
  /// Rounds of the collision pass after moving (0: none).
  std::size_t collision_iterations = 32;
  /// An agent with a target that has not come this much (world units) closer to it along its
  /// path for `stuck_time` seconds is stuck.
  double stuck_time = 3.0;
  double stuck_progress = 0.05;
  /// An agent that wants to stand still, or whose avoidance leaves it less than this fraction
  /// of its max speed, comes to rest at exactly zero velocity (0..1).
  double settle_speed_fraction = 0.05;
  /// The most polygons one move along the surface looks at (>= 1).
  std::size_t max_move_polygons = 64;
  /// How far (world units) agents' centres keep from the walls (>= 0). The mesh is taken to be
  /// what the agents' centres may cover, as Recast builds it (eroded by the agent radius), so the
  /// walls keep the centre, not the disc, on the mesh; a small margin keeps agents off the very edge.
  double wall_clearance = 0.02;
  /// A target point off the mesh is moved to the nearest point on it within this distance.
  double target_snap_distance = 2.0;
  /// How many searches the path queue runs at once and the expansions of each turn.
  PathRequestQueueSettings path_queue;

  /// Why these settings cannot be used (the field's name first), or nullopt.
  [[nodiscard]] std::optional<std::string> problem() const;
};

/// What one update did.
struct CrowdUpdateReport {
  std::size_t paths_started = 0;   ///< path searches begun this tick
  std::size_t paths_received = 0;  ///< paths handed to agents this tick
  std::uint64_t expansions = 0;    ///< the path searches' expansions this tick
  double microseconds = 0.0;       ///< wall time of the update
};

/// How a crowd on a grid searches its paths.
struct GridCrowdOptions {
  /// astar or jump_point (JPS needs uniform costs; agents with a filter use A*).
  GridAlgorithm algorithm = GridAlgorithm::astar;
  DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;

  /// Why these options cannot be used, or nullopt.
  [[nodiscard]] std::optional<std::string> problem() const;
};

class Crowd {
 public:
  /// Throws std::invalid_argument for settings with a problem(). The crowd keeps a reference to
  /// `mesh`, which must outlive it; building one on a temporary mesh does not compile.
  explicit Crowd(const NavMesh& mesh, const CrowdSettings& settings = {});
  explicit Crowd(const NavMesh&& mesh, const CrowdSettings& settings = {}) = delete;
  /// A crowd on a grid (see the top of this file). Throws std::invalid_argument for settings or
  /// options with a problem(). The crowd keeps a reference to `map`, which must outlive it; the
  /// map may be edited between updates (blocked cells, costs, areas), never during one.
  explicit Crowd(const GridMap& map, const CrowdSettings& settings = {}, const GridCrowdOptions& options = {});
  explicit Crowd(const GridMap&& map, const CrowdSettings& settings = {}, const GridCrowdOptions& options = {}) = delete;
  ~Crowd();
  /// A crowd can be moved (not copied); the crowd moved from may only be destroyed.
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) = delete;
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  /// Adds an agent standing at the point of the mesh nearest to `position` (within
  /// target_snap_distance), with no target. Throws std::invalid_argument for settings with a
  /// problem() or a position with no mesh (its filter's) that near.
  CrowdAgentId add_agent(const Point& position, const CrowdAgentSettings& settings = {});
  /// False when no agent has this id.
  bool remove_agent(CrowdAgentId id);
  /// Puts the agent at the mesh point nearest to `position` (as add_agent), at rest; its path,
  /// if it has a target point, is asked for again. False when no agent has this id or the
  /// position has no mesh that near (then nothing changes).
  bool teleport(CrowdAgentId id, const Point& position);
  /// Sends the agent to the mesh point nearest to `target`: its path is asked for in the next
  /// update. False (nothing changed) when no agent has this id or the target has no mesh that near.
  bool set_target(CrowdAgentId id, const Point& target);
  /// Sends the agent along `field` (a crowd on a grid only), shared by as many agents as like:
  /// no path is searched; each tick the agent heads for the furthest cell down the field it can
  /// walk to in a straight line, and has arrived while it stands in a goal cell. The field must
  /// be built on this crowd's map (its size) and describes the map as it was then: rebuild it
  /// after edits. False (nothing changed) when no agent has this id, the crowd is on a mesh, the
  /// field is null, not built or of another size, or no goal can be reached from the agent's cell.
  bool set_target_flow(CrowdAgentId id, std::shared_ptr<const GridFlowField> field);
  /// Makes the agent walk at `velocity` (x-z; clamped to its max speed), avoiding others and walls.
  bool set_target_velocity(CrowdAgentId id, PlanarVector velocity);
  /// The agent stops (comes to rest at its max acceleration).
  bool clear_target(CrowdAgentId id);
  /// Replaces the agent's settings (a problem() throws std::invalid_argument); a new filter
  /// asks for its path again. False when no agent has this id.
  bool set_agent_settings(CrowdAgentId id, const CrowdAgentSettings& settings);

  /// Advances every agent by `dt` seconds (finite, > 0; throws std::invalid_argument otherwise).
  /// Path searches run first, within `path_budget` (expansions and/or wall time; unlimited by
  /// default, the only deterministic choice besides an expansion count); an agent whose path
  /// has not come waits where it stands.
  CrowdUpdateReport update(double dt, const StepBudget& path_budget = {});

  /// The agent with this id, or null. The pointer is valid until the next add or remove.
  [[nodiscard]] const CrowdAgent* agent(CrowdAgentId id) const;
  /// Every agent, in the order of their ids.
  [[nodiscard]] std::span<const CrowdAgent> agents() const;
  [[nodiscard]] std::size_t agent_count() const;
  /// The sum of every tick's dt so far.
  [[nodiscard]] double time() const;
  [[nodiscard]] const CrowdSettings& settings() const;
  /// The mesh of a crowd on a mesh; std::logic_error for a crowd on a grid.
  [[nodiscard]] const NavMesh& mesh() const;
  /// The grid of a crowd on a grid, or null.
  [[nodiscard]] const GridMap* grid() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// True when two agents' height bands overlap: one standing at y with `height` occupies
/// [y, y + height]. Agents whose bands do not overlap (different floors) ignore each other.
[[nodiscard]] inline bool height_bands_overlap(double y_a, double height_a, double y_b, double height_b) {
  return y_a < y_b + height_b && y_b < y_a + height_a;
}

}  // namespace wayfinder
