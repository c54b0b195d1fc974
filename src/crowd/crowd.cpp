// The crowd's tick: paths through the request queue, steering along corridors, ORCA avoidance
// (crowd/orca.hpp), moves along the surface and a collision pass. Each phase that works per
// agent reads the state the phase before left and writes only its own agent's, so the phases
// split over threads without changing a bit of the result.

#include "wayfinder/crowd/crowd.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>

#include "agent_slices.hpp"
#include "crowd_world.hpp"
#include "grid_crowd_world.hpp"
#include "neighbour_grid.hpp"
#include "navmesh_crowd_world.hpp"
#include "path_legs.hpp"
#include "wayfinder/core/geometry.hpp"

namespace wayfinder {
namespace {

using crowd_detail::NeighbourGrid;
using crowd_detail::WallSegment;

PlanarVector planar(const Point& p) { return {p.x, p.z}; }

/// Standing at rest by choice: arrived, idle, or as close to its target as it can get.
bool is_settled(const CrowdAgent& agent) {
  return agent.status == CrowdAgentStatus::arrived || agent.status == CrowdAgentStatus::idle ||
         agent.status == CrowdAgentStatus::unreachable;
}

/// How much more priority a stuck agent meets others with: others make way for it, which is how
/// a jam dissolves. 8 (it was 4): on the 957-agent dungeon run, one run each, 1 / 2 / 4 / 8 / 16
/// left 314 / 334 / 247 / 218 / 168 agents stuck after 60 s, and 250 / 251 / 262 / 269 / 260
/// arrived; 8 is the one that also got the most agents in (docs/benchmarks.md, crowds).
constexpr double stuck_priority_factor = 8.0;

/// The priority an agent meets others with this tick: its own, halved while it stands at rest
/// by choice (arrived, idle, or as close as it can get: settled agents make way), and
/// stuck_priority_factor times as much while it is stuck.
double effective_priority(const CrowdAgent& agent) {
  double priority = agent.settings.avoidance_priority;
  if (is_settled(agent)) priority *= 0.5;
  if (agent.stuck) priority *= stuck_priority_factor;
  return priority;
}

/// What an agent's neighbours read of it in the avoidance phase and the collision pass, taken
/// once per snapshot into an array beside the positions: the neighbour loops read it for every
/// neighbour, and each read from the CrowdAgent records (600 bytes apart) was a cache miss
/// (about a sixth of the avoidance phase's time at 10,000 agents; docs/benchmarks.md).
struct NeighbourView {
  CrowdAgentId id = 0;
  double radius = 0.0;
  double priority = 0.0;  ///< effective_priority
  PlanarVector desired_velocity;
  double remaining = 0.0;  ///< AgentWork::remaining
  bool on_link = false;
  bool settled = false;  ///< is_settled
  bool held_up = false;  ///< a walker going at a quarter of the speed it wants or less
};

/// The share of avoiding `other` that `self` takes: other's priority over both (half each when
/// both are 0). An agent crossing an off-mesh link takes none: it follows its crossing.
double responsibility_of(const NeighbourView& self, const NeighbourView& other) {
  if (other.on_link) return 1.0;
  if (self.on_link) return 0.0;
  const double mine = self.priority, theirs = other.priority;
  return mine + theirs > 0.0 ? theirs / (mine + theirs) : 0.5;
}

/// Seconds without progress after which a walker near its target has arrived where it stands.
constexpr double crowded_arrival_time = 1.0;

/// The collision pass's factor on every push (successive over-relaxation of its rounds).
constexpr double over_relaxation = 1.8;

/// The keep-right turn of the preferred velocity under avoidance: 0.15 radians (about 9
/// degrees) clockwise seen from above (x right, z up), give or take 60 % by agent.
constexpr double keep_right_angle = 0.15;

/// A number in [-1, 1] fixed by an agent's id (a SplitMix64 step: Steele, Lea & Flood 2014).
double id_spread(CrowdAgentId id) {
  std::uint64_t z = static_cast<std::uint64_t>(id) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) / static_cast<double>(1ULL << 52) - 1.0;
}

std::optional<std::string> positive(const char* name, double value) {
  if (std::isfinite(value) && value > 0.0) return std::nullopt;
  return std::string(name) + " must be finite and > 0, not " + std::to_string(value);
}
std::optional<std::string> non_negative(const char* name, double value) {
  if (std::isfinite(value) && value >= 0.0) return std::nullopt;
  return std::string(name) + " must be finite and >= 0, not " + std::to_string(value);
}

/// An agent's height band [low, high] (y, y + height), for height_bands_overlap's test.
struct HeightBand {
  double low = 0.0;
  double high = 0.0;
  [[nodiscard]] bool overlaps(const HeightBand& other) const { return low < other.high && other.low < high; }
};

/// The agent's own bookkeeping, beside the CrowdAgent the game reads.
struct AgentWork {
  PathTicket ticket;
  std::shared_ptr<const GridFlowField> flow;  ///< the field it follows (CrowdTargetKind::flow)
  bool wants_path = false;         ///< ask for a path in the next update
  std::uint64_t planned_revision = 0;
  std::uint64_t requested_revision = 0;
  bool partial_path = false;       ///< the path ends short of the target (unreachable)
  crowd_detail::PathLegs path;     ///< the path, in legs joined by off-mesh links
  Point path_end;                  ///< where the leg walked now ends
  double best_remaining = std::numeric_limits<double>::infinity();
  double time_without_progress = 0.0;
  PlanarVector new_velocity;
  double remaining = 0.0;          ///< the path's length left this tick (walkers), for the queue order
  PlanarVector push;               ///< the collision pass's displacement this round
  bool overlapping = false;
  double arrived_at = 0.0;         ///< how far from its target it arrived (x-z)
};

/// Per-thread scratch memory.
struct SliceScratch {
  std::vector<Point> waypoints;
  std::vector<std::pair<double, std::size_t>> candidates;
  std::vector<WallSegment> walls;
  std::vector<OrcaLine> lines;
  std::vector<OrcaLine> projected;
  crowd_detail::WorldScratch world;  ///< the world's own
};

}  // namespace

std::optional<std::string> CrowdAgentSettings::problem() const {
  if (auto p = positive("radius", radius)) return p;
  if (auto p = positive("height", height)) return p;
  if (auto p = non_negative("max_speed", max_speed)) return p;
  if (auto p = positive("max_acceleration", max_acceleration)) return p;
  if (auto p = non_negative("avoidance_priority", avoidance_priority)) return p;
  if (auto p = non_negative("arrival_radius", arrival_radius)) return p;
  if (filter)
    if (auto p = filter->problem()) return p;
  return std::nullopt;
}

std::optional<std::string> CrowdSettings::problem() const {
  if (threads == 0) return "threads must be at least 1";
  if (min_agents_per_thread == 0) return "min_agents_per_thread must be at least 1";
  if (auto p = positive("time_horizon", time_horizon)) return p;
  if (auto p = positive("wall_time_horizon", wall_time_horizon)) return p;
  if (auto p = positive("neighbour_distance", neighbour_distance)) return p;
  if (max_neighbours == 0) return "max_neighbours must be at least 1";
  if (auto p = positive("stuck_time", stuck_time)) return p;
  if (auto p = non_negative("stuck_progress", stuck_progress)) return p;
  if (!(settle_speed_fraction >= 0.0 && settle_speed_fraction <= 1.0))
    return "settle_speed_fraction must be in [0, 1], not " + std::to_string(settle_speed_fraction);
  if (max_move_polygons == 0) return "max_move_polygons must be at least 1";
  if (auto p = non_negative("wall_clearance", wall_clearance)) return p;
  if (auto p = non_negative("target_snap_distance", target_snap_distance)) return p;
  if (path_queue.max_active == 0) return "path_queue.max_active must be at least 1";
  if (path_queue.slice_expansions == 0) return "path_queue.slice_expansions must be at least 1";
  return std::nullopt;
}

struct Crowd::State {
  State(std::unique_ptr<crowd_detail::CrowdWorld> ground, const NavMesh* navmesh, const GridMap* ground_grid,
        const CrowdSettings& chosen)
      : world(std::move(ground)), mesh(navmesh), grid_map(ground_grid), settings(chosen), slice_scratch(chosen.threads),
        workers(chosen.threads) {}

  /// The ground the agents walk on, with its path searches (crowd_world.hpp).
  std::unique_ptr<crowd_detail::CrowdWorld> world;
  const NavMesh* mesh;  ///< the world when it is a mesh
  const GridMap* grid_map;  ///< the world when it is a grid
  const bool walls_bound_the_disc = world->walls_bound_the_disc();
  CrowdSettings settings;
  std::vector<CrowdAgent> agents;  ///< in id order
  std::vector<AgentWork> work;     ///< beside agents
  CrowdAgentId next_id = 1;
  double time = 0.0;
  std::uint64_t seen_revision = 0;
  std::vector<SliceScratch> slice_scratch;  ///< one per thread
  NeighbourGrid grid;
  std::vector<PlanarVector> positions;   ///< the previous state's positions, for neighbours
  std::vector<PlanarVector> velocities;  ///< and velocities
  /// And height bands, which the neighbour searches test for every agent in the cells they
  /// visit, and what the neighbours kept read of each other (NeighbourView).
  std::vector<HeightBand> bands;
  std::vector<NeighbourView> views;
  double largest_radius = 0.0;           ///< of every agent, this tick
  /// The threads update() splits the agents over, kept for the crowd's life (last: its helpers
  /// stop before the state they read goes).
  crowd_detail::SliceWorkers workers;

  [[nodiscard]] std::size_t index_of(CrowdAgentId id) const {
    const auto found = std::lower_bound(agents.begin(), agents.end(), id,
                                        [](const CrowdAgent& agent, CrowdAgentId wanted) { return agent.id < wanted; });
    return found != agents.end() && found->id == id ? static_cast<std::size_t>(found - agents.begin()) : agents.size();
  }

  [[nodiscard]] const AreaFilter* filter_of(const CrowdAgent& agent) const {
    return agent.settings.filter ? &*agent.settings.filter : nullptr;
  }
  /// The filter, or none when the agent stands on a polygon the filter excludes (a door closed
  /// on it): it may then walk off it.
  [[nodiscard]] const AreaFilter* move_filter_of(const CrowdAgent& agent) const {
    const AreaFilter* filter = filter_of(agent);
    if (filter != nullptr && !world->passes(agent.polygon, *filter)) return nullptr;
    return filter;
  }

  [[nodiscard]] crowd_detail::WorldLocation place(const Point& point, const AreaFilter* filter) const {
    return world->place(point, filter, settings.target_snap_distance);
  }

  void forget_path(std::size_t i) {
    if (work[i].ticket) world->cancel_path(work[i].ticket);
    work[i].ticket = {};
    work[i].path.clear();
    agents[i].corridor.clear();
  }

  void reset_progress(std::size_t i) {
    work[i].best_remaining = std::numeric_limits<double>::infinity();
    work[i].time_without_progress = 0.0;
    agents[i].stuck = false;
  }

  void check_corridors_after_edits() {
    if (world->revision() == seen_revision) return;
    seen_revision = world->revision();
    for (std::size_t i = 0; i < agents.size(); ++i) {
      CrowdAgent& agent = agents[i];
      if (agent.target_kind != CrowdTargetKind::point || agent.link) continue;  // a crossing lands first
      if (work[i].ticket) {
        work[i].wants_path = true;  // searched on the old mesh: ask again
        continue;
      }
      if (agent.corridor.empty()) {
        // No path, or an unreachable target: the edit may have opened a way.
        if (agent.status == CrowdAgentStatus::unreachable) work[i].wants_path = true;
        continue;
      }
      const bool broken = world->route_blocked(agent.corridor, work[i].planned_revision, filter_of(agent));
      if (broken || work[i].partial_path) work[i].wants_path = true;
    }
  }

  void submit_requests() {
    for (std::size_t i = 0; i < agents.size(); ++i) {
      if (!work[i].wants_path || agents[i].link) continue;  // asked for once it lands
      work[i].wants_path = false;
      CrowdAgent& agent = agents[i];
      if (agent.target_kind != CrowdTargetKind::point) continue;
      if (work[i].ticket) world->cancel_path(work[i].ticket);
      work[i].ticket = world->request_path(agent.position, agent.target, agent.settings.filter);
      work[i].requested_revision = world->revision();
      ++agent.path_requests;
      // A broken or missing corridor is not followed while the new path is searched.
      if (agent.corridor.empty() || agent.status != CrowdAgentStatus::moving) {
        agent.corridor.clear();
        agent.status = CrowdAgentStatus::waiting_for_path;
      }
    }
  }

  void receive_path(std::size_t i, PathResult& path, crowd_detail::WorldScratch& scratch) {
    CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    own.ticket = {};
    const bool usable = (path.status == SearchStatus::found || path.status == SearchStatus::partial) &&
                        !path.nodes.empty() && !path.points.empty();
    if (!usable) {
      agent.corridor.clear();
      agent.status = CrowdAgentStatus::unreachable;
      return;
    }
    std::vector<PolygonId>& corridor = agent.corridor;
    // The corridor is the path's first leg: up to its first off-mesh link, or all of it (on a
    // grid, always all of it, smoothed to waypoints).
    own.path.assign(path);
    own.path_end = own.path.leg(corridor);
    world->route_from_leg(corridor);
    own.partial_path = path.status == SearchStatus::partial;
    if (corridor.front() != agent.polygon) {
      if (!world->join_route_start(corridor, path.points.front(), agent.position, move_filter_of(agent),
                                   settings.max_move_polygons, scratch)) {
        corridor.clear();
        own.path.clear();
        own.wants_path = true;
        agent.status = CrowdAgentStatus::waiting_for_path;
        return;
      }
      agent.polygon = corridor.front();
    }
    own.planned_revision = own.requested_revision;
    if (agent.status != CrowdAgentStatus::arrived) agent.status = CrowdAgentStatus::moving;
    // Progress is measured along the new path from here on; a stuck agent stays stuck (and
    // keeps its priority) until it gets on.
    own.best_remaining = std::numeric_limits<double>::infinity();
  }

  // ---- Steering: the preferred velocity from the corridor (per agent, parallel).
  void steer(std::size_t i, double dt, SliceScratch& scratch) {
    CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    agent.next_corner = agent.position;
    agent.desired_velocity = {};
    agent.link_event = CrowdLinkEvent::none;
    if (agent.link) {
      agent.status = CrowdAgentStatus::on_link;  // whatever the game asked meanwhile: it lands first
      agent.next_corner = agent.link->end;
      return;
    }
    switch (agent.target_kind) {
      case CrowdTargetKind::none:
        agent.status = CrowdAgentStatus::idle;
        reset_progress(i);
        return;
      case CrowdTargetKind::velocity: {
        agent.status = CrowdAgentStatus::moving;
        const PlanarVector wanted = agent.target_velocity;
        const double speed = wanted.length();
        agent.desired_velocity = speed > agent.settings.max_speed ? (agent.settings.max_speed / speed) * wanted : wanted;
        return;
      }
      case CrowdTargetKind::flow:
        steer_by_flow(i, dt);
        return;
      case CrowdTargetKind::point:
        break;
    }
    const double to_target = geometry::distance_xz(agent.position, agent.target);
    const bool same_floor = std::abs(agent.position.y - agent.target.y) < agent.settings.height;
    const double arrive_within = agent.status == CrowdAgentStatus::arrived
                                     ? std::max(agent.settings.arrival_radius, own.arrived_at) + agent.settings.radius
                                     : agent.settings.arrival_radius;
    if (to_target <= arrive_within && same_floor) {
      if (agent.status != CrowdAgentStatus::arrived) own.arrived_at = to_target;
      agent.status = CrowdAgentStatus::arrived;
      reset_progress(i);
      return;
    }
    // As close as the crowd allows: a walker within a body's width of its target that has made
    // no progress for a second (others stand on its target, settled agents do not make way)
    // has arrived where it stands.
    if (agent.status == CrowdAgentStatus::moving && same_floor &&
        to_target <= agent.settings.arrival_radius + 2.0 * agent.settings.radius &&
        own.time_without_progress >= crowded_arrival_time) {
      own.arrived_at = to_target;
      agent.status = CrowdAgentStatus::arrived;
      reset_progress(i);
      return;
    }
    if (agent.corridor.empty()) return;  // waiting for a path, or unreachable
    if (agent.status == CrowdAgentStatus::arrived) agent.status = CrowdAgentStatus::moving;
    if (own.path.leg_ends_at_link()) {
      if (take_link_when_there(i, dt)) return;
    } else if (own.partial_path &&
               geometry::distance_xz(agent.position, own.path_end) <= agent.settings.arrival_radius) {
      agent.status = CrowdAgentStatus::unreachable;
      reset_progress(i);
      return;
    }
    if (!world->steering_path(agent.position, own.path_end, agent.corridor, scratch.world, scratch.waypoints)) {
      own.wants_path = true;
      return;
    }
    const std::vector<Point>& waypoints = scratch.waypoints;
    double remaining = 0.0;
    for (std::size_t k = 1; k < waypoints.size(); ++k) remaining += geometry::distance_xz(waypoints[k - 1], waypoints[k]);
    own.remaining = remaining;
    // The corner to steer to: the first one not yet reached. Turns are portal ends, on the
    // walls themselves, where the walls' clearance never lets an agent stand: each is aimed at
    // a little way off the walls instead, and counts as reached within half that way (an agent
    // that overshoots it sees the turn leave its funnel once the corner no longer hides the
    // next one).
    const double inset = std::max(0.1, 4.0 * settings.wall_clearance);
    const double reach = 0.5 * inset;
    auto aim = [&](std::size_t k) {
      if (k + 1 >= waypoints.size()) return waypoints[k];
      // A straight path through a portal's end (collinear waypoints) does not turn there.
      const Point& before = waypoints[k - 1];
      const Point& after = waypoints[k + 1];
      const double turn = geometry::cross_xz(before, waypoints[k], after);
      const double scale = geometry::distance_xz(before, waypoints[k]) * geometry::distance_xz(waypoints[k], after);
      if (std::abs(turn) <= 1e-9 * scale) return waypoints[k];
      return world->aim_at_turn(waypoints[k], inset, scratch.world);
    };
    std::size_t corner = 1;
    Point aimed = aim(corner);
    while (corner + 1 < waypoints.size() && geometry::distance_xz(agent.position, aimed) < reach) aimed = aim(++corner);
    if (corner >= waypoints.size()) return;
    agent.next_corner = aimed;
    const PlanarVector heading = planar(aimed) - planar(agent.position);
    const double heading_length = heading.length();
    if (heading_length > 0.0) {
      // Slow down so as to stop at the end of the path: v^2 = 2 a d, and never past it in a tick
      // (at a leg's end, where a link is taken, only the latter).
      const double stopping_speed = own.path.leg_ends_at_link()
                                        ? agent.settings.max_speed
                                        : std::sqrt(2.0 * agent.settings.max_acceleration * remaining);
      const double speed = std::min({agent.settings.max_speed, stopping_speed, remaining / dt});
      agent.desired_velocity = (speed / heading_length) * heading;
    }
    // Progress along the path, for stuck detection.
    if (!std::isfinite(own.best_remaining)) {
      own.best_remaining = remaining;  // a new path: measure from here
    } else if (remaining < own.best_remaining - settings.stuck_progress) {
      own.best_remaining = remaining;
      own.time_without_progress = 0.0;
      agent.stuck = false;
    } else {
      own.time_without_progress += dt;
      if (!agent.stuck && own.time_without_progress >= settings.stuck_time) {
        agent.stuck = true;
        own.wants_path = true;  // one replan: the crowd may have opened another way
      }
    }
  }

  // ---- Off-mesh links: taking one at a leg's end, crossing it, landing (per agent, parallel).

  /// At the end of a leg that ends at a link (within its radius of the link's start, on the
  /// link's floor), the agent takes the link: true when it did.
  bool take_link_when_there(std::size_t i, double dt) {
    CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    const double reach = std::max(agent.settings.arrival_radius, agent.settings.radius);
    if (geometry::distance_xz(agent.position, own.path_end) > reach ||
        std::abs(agent.position.y - own.path_end.y) >= agent.settings.height)
      return false;
    agent.link = own.path.take_link(agent.position, agent.settings.max_speed, dt);
    agent.link_event = CrowdLinkEvent::started;
    agent.status = CrowdAgentStatus::on_link;
    agent.corridor.clear();
    agent.next_corner = agent.link->end;
    reset_progress(i);
    return true;
  }

  /// One tick of a crossing; on landing the agent stands on the link's far end and walks the
  /// next leg of its path (or asks for a path, when its target changed meanwhile).
  void cross_link(std::size_t i, double dt) {
    CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    if (agent.link_event == CrowdLinkEvent::started) {  // the tick it took the link: progress 0
      agent.velocity = {};
      return;
    }
    const PlanarVector before = planar(agent.position);
    agent.position = crowd_detail::advance_link(*agent.link, dt);
    agent.velocity = (1.0 / dt) * (planar(agent.position) - before);
    if (agent.link->progress() < 1.0) return;
    agent.polygon = agent.link->end_polygon;
    agent.link.reset();
    agent.link_event = CrowdLinkEvent::finished;
    agent.velocity = {};
    reset_progress(i);
    if (agent.target_kind == CrowdTargetKind::point && !own.path.empty() && !own.wants_path) {
      own.path.next_leg();
      own.path_end = own.path.leg(agent.corridor);
      world->route_from_leg(agent.corridor);
      agent.status = CrowdAgentStatus::moving;
      // An edit while it crossed may have broken the rest of the way: planned again.
      if (world->revision() != own.planned_revision) own.wants_path = true;
      return;
    }
    agent.corridor.clear();
    switch (agent.target_kind) {
      case CrowdTargetKind::point:
        own.wants_path = true;
        agent.status = CrowdAgentStatus::waiting_for_path;
        break;
      case CrowdTargetKind::velocity:
      case CrowdTargetKind::flow: agent.status = CrowdAgentStatus::moving; break;
      case CrowdTargetKind::none: agent.status = CrowdAgentStatus::idle; break;
    }
  }

  /// Steering along a flow field: at the most speed that still stops at the goal, towards the
  /// furthest cell down the field in straight sight; arrived while in a goal cell.
  void steer_by_flow(std::size_t i, double dt) {
    CrowdAgent& agent = agents[i];
    double remaining = 0.0;
    using FlowStep = crowd_detail::CrowdWorld::FlowStep;
    switch (world->follow_flow(*work[i].flow, agent.position, agent.next_corner, remaining)) {
      case FlowStep::at_goal:
        agent.status = CrowdAgentStatus::arrived;
        reset_progress(i);
        return;
      case FlowStep::unreachable:
        agent.status = CrowdAgentStatus::unreachable;
        reset_progress(i);
        return;
      case FlowStep::heading:
        break;
    }
    agent.status = CrowdAgentStatus::moving;
    const PlanarVector heading = planar(agent.next_corner) - planar(agent.position);
    const double heading_length = heading.length();
    if (heading_length <= 0.0) return;
    const double stopping_speed = std::sqrt(2.0 * agent.settings.max_acceleration * remaining);
    const double speed = std::min({agent.settings.max_speed, stopping_speed, remaining / dt});
    agent.desired_velocity = (speed / heading_length) * heading;
  }

  // ---- Avoidance: the new velocity by ORCA (per agent, parallel; reads only the snapshot).
  void avoid(std::size_t i, double dt, SliceScratch& scratch) {
    const CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    if (agent.link || (is_settled(agent) && !asked_to_make_way(i))) {
      // Crossing a link: its move is the crossing's. At rest by choice, with no walker held up
      // against it: it stays exactly where it is, at exactly zero velocity (the others avoid it
      // by their share; what they leave, the collision pass settles).
      own.new_velocity = {};
      return;
    }
    const CrowdAgentSettings& body = agent.settings;
    const PlanarVector position = positions[i];
    scratch.lines.clear();

    // Walls first: they stay hard when the agents' half-planes have to give.
    scratch.walls.clear();
    // A mesh's ground is where centres may go; a grid's blocked cells must keep the disc off.
    const double keep_off = walls_bound_the_disc ? body.radius + settings.wall_clearance : settings.wall_clearance;
    const double wall_range = body.max_speed * settings.wall_time_horizon + keep_off + body.radius;
    world->gather_walls(agent.polygon, position, wall_range, move_filter_of(agent), settings.max_move_polygons,
                        scratch.world, scratch.walls);
    for (const WallSegment& wall : scratch.walls)
      scratch.lines.push_back(orca_wall_line(position, keep_off, wall.a, wall.b, settings.wall_time_horizon, dt));
    const std::size_t wall_lines = scratch.lines.size();

    // The nearest neighbours on the same floor, nearest first (ties by index).
    scratch.candidates.clear();
    const double range = settings.neighbour_distance;
    grid.for_each_within(position, range, [&](std::size_t j, double squared) {
      if (j != i && bands[i].overlaps(bands[j])) scratch.candidates.emplace_back(squared, j);
    });
    const std::size_t kept = std::min(settings.max_neighbours, scratch.candidates.size());
    std::partial_sort(scratch.candidates.begin(), scratch.candidates.begin() + static_cast<std::ptrdiff_t>(kept),
                      scratch.candidates.end());
    const OrcaDisc self{position, velocities[i], body.radius};
    const NeighbourView& me = views[i];
    const bool resting = me.settled;
    const bool held_up = me.held_up;
    for (std::size_t k = 0; k < kept; ++k) {
      const std::size_t j = scratch.candidates[k].second;
      const NeighbourView& other = views[j];
      double responsibility = responsibility_of(me, other);
      // A settled agent sees a walker by where it wants to go, not by its speed: a walker held
      // up in front of it (at a goal among settled agents) would otherwise never be made way
      // for, since ORCA only acts on a collision course.
      bool by_intent = resting && !other.settled && !other.on_link;
      // Two walkers held up by each other (a jam in a door) queue: the one with less of its
      // path left goes first (the lower id on a tie), and the other sees it by where it wants
      // to go, and so makes way for it as a settled agent would. Their shares are even: the
      // order comes from what each sees, and a stuck agent's priority would only push harder.
      if (held_up && other.held_up) {
        responsibility = 0.5;
        by_intent = other.remaining < me.remaining || (other.remaining == me.remaining && other.id < me.id);
      }
      const PlanarVector other_velocity = by_intent ? other.desired_velocity : velocities[j];
      scratch.lines.push_back(orca_agent_line(self, {positions[j], other_velocity, other.radius},
                                              settings.time_horizon, dt, responsibility));
    }

    // Keep right: when avoidance has to act, aim a little to the right. Perfectly symmetric
    // meetings (head on, a circle of agents swapping places) otherwise meet at a velocity of
    // zero for all, and stay there; a bias every agent shares breaks the tie the same way on
    // every run.
    // Each agent's turn differs a little (from its id) and its speed too, so that a ring of
    // agents closing in shoulder to shoulder does not stay a ring.
    PlanarVector preferred = agent.desired_velocity;
    for (std::size_t k = wall_lines; k < scratch.lines.size(); ++k)
      if (!scratch.lines[k].permits(preferred)) {
        const double spread = id_spread(agent.id);
        const double angle = keep_right_angle * (1.0 + 0.6 * spread);
        const double scale = 1.0 - 0.15 * (0.5 + 0.5 * spread);
        const double c = scale * std::cos(angle), sn = scale * std::sin(angle);
        preferred = {c * preferred.x + sn * preferred.z, -sn * preferred.x + c * preferred.z};
        break;
      }
    PlanarVector chosen = solve_orca(scratch.lines, wall_lines, body.max_speed, preferred, scratch.projected);
    // Settle: a crawl is no better than rest, and rest is exactly zero.
    // A walking agent squeezed to a crawl keeps crawling (it is how a jam dissolves) unless it
    // is all but blocked (a fifth of the settling speed).
    const bool wants_rest = agent.desired_velocity.x == 0.0 && agent.desired_velocity.z == 0.0;
    const double rest_below = settings.settle_speed_fraction * body.max_speed * (wants_rest ? 1.0 : 0.2);
    if (chosen.length() < rest_below) chosen = {};
    // Acceleration: reach the chosen velocity at most max_acceleration * dt from the last one.
    const PlanarVector change = chosen - velocities[i];
    const double change_length = change.length();
    const double reach = body.max_acceleration * dt;
    own.new_velocity = change_length > reach ? velocities[i] + (reach / change_length) * change : chosen;
  }

  /// Moves agent i towards `destination` along the surface; merges the walk into its corridor.
  /// Returns false when the move could not be made (the agent stays).
  bool move_agent(std::size_t i, PlanarVector destination, SliceScratch& scratch) {
    CrowdAgent& agent = agents[i];
    if (agent.link) return false;  // crossing a link: never pushed
    const SurfaceMoveResult move = world->move(agent.polygon, agent.position,
                                               Point{destination.x, agent.position.y, destination.z},
                                               move_filter_of(agent), settings.max_move_polygons);
    if (!move.ok()) return false;
    agent.position = move.point;
    agent.polygon = move.polygon;
    if (!agent.corridor.empty() && !world->follow_move(agent.corridor, move, scratch.world)) {
      agent.corridor.clear();
      work[i].wants_path = agent.target_kind == CrowdTargetKind::point;
    }
    return true;
  }

  // ---- Integration (per agent, parallel).
  void integrate(std::size_t i, double dt, SliceScratch& scratch) {
    CrowdAgent& agent = agents[i];
    if (agent.link) {
      cross_link(i, dt);
      return;
    }
    const PlanarVector velocity = work[i].new_velocity;
    if (velocity.x == 0.0 && velocity.z == 0.0) {
      agent.velocity = {};
      return;
    }
    const PlanarVector before = planar(agent.position);
    if (!move_agent(i, before + dt * velocity, scratch)) {
      agent.velocity = {};
      return;
    }
    agent.velocity = (1.0 / dt) * (planar(agent.position) - before);
  }

  // ---- Collision pass: one round's push (per agent, parallel; reads the round's snapshot).
  /// `hold_settled`: agents at rest by choice are not pushed by walkers this round (the walker
  /// takes all of the push), as in the first half of the rounds: a walker squeezing past makes
  /// room for itself, and only an overlap it cannot clear moves the settled agent.
  void compute_push(std::size_t i, bool hold_settled) {
    const CrowdAgent& agent = agents[i];
    AgentWork& own = work[i];
    own.push = {};
    own.overlapping = false;
    if (agent.link) return;  // crossing a link: the others make room
    const double radius = agent.settings.radius;
    // (A hair beyond the furthest reach: the exact test is the distance's, below.)
    grid.for_each_within(positions[i], (radius + largest_radius) * (1.0 + 1e-9), [&](std::size_t j, double squared) {
      if (j == i || !bands[i].overlaps(bands[j])) return;
      const NeighbourView& other = views[j];
      const double distance = std::sqrt(squared);
      const double reach = radius + other.radius;
      if (distance >= reach) return;
      const PlanarVector apart = positions[i] - positions[j];
      own.overlapping = true;
      PlanarVector direction;
      if (distance > 0.0) {
        direction = (1.0 / distance) * apart;
      } else {
        // One on top of the other: a direction from the pair's ids, opposite for the two.
        const double angle = static_cast<double>(std::min(agent.id, other.id)) * 2.399963229728653;
        direction = (agent.id < other.id ? 1.0 : -1.0) * PlanarVector{std::cos(angle), std::sin(angle)};
      }
      const NeighbourView& me = views[i];
      double share = responsibility_of(me, other);
      if (hold_settled && !other.on_link && me.settled != other.settled) share = me.settled ? 0.0 : 1.0;
      // Half a per cent more than the overlap, so that a pair pushed apart ends clear of the 1 %
      // bound even when a third agent nudges one of them back; and over-relaxed: the rounds are
      // Jacobi iterations (every push from the same positions, so that threads do not matter),
      // which in a packed crowd converge slowly, and a factor between 1 and 2 speeds them up
      // without making them diverge (1.8 left no overlap beyond the bound with 200 agents
      // swapping places through one point, where 1 left 15 % of a radius after 32 rounds).
      own.push = own.push + (over_relaxation * share * (reach * (1.0 + 5e-3) - distance)) * direction;
    });
    const double length = own.push.length();
    if (length > radius) own.push = (radius / length) * own.push;  // bounded: never a jump
  }

  /// True when a walker held up right beside settled agent i (within one of i's radii of
  /// touching it) wants to go towards it: i makes way for it (avoid() then runs ORCA for i,
  /// seeing the walker by the velocity it wants). Otherwise a settled agent does not move.
  [[nodiscard]] bool asked_to_make_way(std::size_t i) const {
    const CrowdAgent& agent = agents[i];
    bool asked = false;
    const double reach = 2.0 * agent.settings.radius + largest_radius;
    grid.for_each_near(positions[i], reach, [&](std::size_t j) {
      if (asked || j == i) return;
      const PlanarVector towards = positions[i] - positions[j];
      if (towards.length_squared() > reach * reach * (1.0 + 1e-9) || !bands[i].overlaps(bands[j])) return;
      const NeighbourView& other = views[j];
      if (other.on_link || !other.held_up) return;
      const double gap = towards.length() - agent.settings.radius - other.radius;
      if (gap > agent.settings.radius) return;
      asked = dot(other.desired_velocity, towards) > 0.0;
    });
    return asked;
  }

  /// A walker going much slower than it wants to (a quarter of its desired speed or less), by
  /// the snapshot's velocity.
  [[nodiscard]] bool is_held_up(std::size_t i) const {
    const CrowdAgent& agent = agents[i];
    if (is_settled(agent)) return false;
    const double wanted = agent.desired_velocity.length_squared();
    return wanted > 0.0 && velocities[i].length_squared() <= 0.0625 * wanted;
  }

  /// Sizes the snapshot's arrays for this tick's agents (before the phases split).
  void size_snapshot() {
    positions.resize(agents.size());
    velocities.resize(agents.size());
    bands.resize(agents.size());
    views.resize(agents.size());
  }

  /// Agent i's entries of the snapshot the next phase reads (per agent, parallel).
  void publish(std::size_t i) {
    const CrowdAgent& agent = agents[i];
    positions[i] = planar(agent.position);
    velocities[i] = agent.velocity;
    bands[i] = {agent.position.y, agent.position.y + agent.settings.height};
    NeighbourView& view = views[i];
    view.id = agent.id;
    view.radius = agent.settings.radius;
    view.priority = effective_priority(agent);
    view.desired_velocity = agent.desired_velocity;
    view.remaining = work[i].remaining;
    view.on_link = agent.link.has_value();
    view.settled = is_settled(agent);
    view.held_up = is_held_up(i);
  }

};

Crowd::Crowd(const NavMesh& mesh, const CrowdSettings& settings) {
  if (const auto problem = settings.problem()) throw std::invalid_argument("crowd settings: " + *problem);
  state_ = std::make_unique<State>(crowd_detail::make_navmesh_world(mesh, settings.path_queue), &mesh, nullptr, settings);
  state_->seen_revision = mesh.revision();
}

std::optional<std::string> GridCrowdOptions::problem() const {
  if (algorithm != GridAlgorithm::astar && algorithm != GridAlgorithm::jump_point)
    return "algorithm must be astar or jump_point, not " + std::string(to_string(algorithm));
  if (algorithm == GridAlgorithm::jump_point && diagonal != DiagonalMode::only_if_no_obstacles)
    return "diagonal: jump_point needs only_if_no_obstacles";
  return std::nullopt;
}

Crowd::Crowd(const GridMap& map, const CrowdSettings& settings, const GridCrowdOptions& options) {
  if (const auto problem = settings.problem()) throw std::invalid_argument("crowd settings: " + *problem);
  if (const auto problem = options.problem()) throw std::invalid_argument("grid crowd options: " + *problem);
  state_ = std::make_unique<State>(crowd_detail::make_grid_world(map, options, settings.path_queue), nullptr, &map,
                                   settings);
  state_->seen_revision = map.revision();
}
Crowd::~Crowd() = default;
Crowd::Crowd(Crowd&&) noexcept = default;

CrowdAgentId Crowd::add_agent(const Point& position, const CrowdAgentSettings& settings) {
  if (const auto problem = settings.problem()) throw std::invalid_argument("agent settings: " + *problem);
  State& s = *state_;
  const crowd_detail::WorldLocation location = s.place(position, settings.filter ? &*settings.filter : nullptr);
  if (!location.valid())
    throw std::invalid_argument("position: no polygon of the mesh (that the agent's filter lets in) within " +
                                std::to_string(s.settings.target_snap_distance) + " of the agent's position");
  CrowdAgent agent;
  agent.id = s.next_id++;
  agent.settings = settings;
  agent.position = location.point;
  agent.polygon = location.node;
  agent.next_corner = location.point;
  s.agents.push_back(std::move(agent));
  s.work.emplace_back();
  return s.agents.back().id;
}

bool Crowd::remove_agent(CrowdAgentId id) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size()) return false;
  s.forget_path(i);
  s.agents.erase(s.agents.begin() + static_cast<std::ptrdiff_t>(i));
  s.work.erase(s.work.begin() + static_cast<std::ptrdiff_t>(i));
  return true;
}

bool Crowd::teleport(CrowdAgentId id, const Point& position) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size()) return false;
  CrowdAgent& agent = s.agents[i];
  const crowd_detail::WorldLocation location = s.place(position, s.filter_of(agent));
  if (!location.valid()) return false;
  s.forget_path(i);
  agent.link.reset();  // a teleport ends a crossing where it is
  agent.position = location.point;
  agent.polygon = location.node;
  agent.velocity = {};
  s.reset_progress(i);
  if (agent.target_kind == CrowdTargetKind::point) {
    s.work[i].wants_path = true;
    agent.status = CrowdAgentStatus::waiting_for_path;
  }
  return true;
}

bool Crowd::set_target(CrowdAgentId id, const Point& target) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size()) return false;
  CrowdAgent& agent = s.agents[i];
  const crowd_detail::WorldLocation location = s.place(target, s.filter_of(agent));
  if (!location.valid()) return false;
  s.forget_path(i);
  s.work[i].flow.reset();
  agent.target_kind = CrowdTargetKind::point;
  agent.target = location.point;
  agent.status = CrowdAgentStatus::waiting_for_path;
  s.work[i].wants_path = true;
  s.reset_progress(i);
  return true;
}

bool Crowd::set_target_velocity(CrowdAgentId id, PlanarVector velocity) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size() || !std::isfinite(velocity.x) || !std::isfinite(velocity.z)) return false;
  s.forget_path(i);
  s.work[i].wants_path = false;
  s.work[i].flow.reset();
  s.agents[i].target_kind = CrowdTargetKind::velocity;
  s.agents[i].target_velocity = velocity;
  s.agents[i].status = CrowdAgentStatus::moving;
  s.reset_progress(i);
  return true;
}

bool Crowd::set_target_flow(CrowdAgentId id, std::shared_ptr<const GridFlowField> field) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size() || s.grid_map == nullptr || field == nullptr || !field->built() ||
      field->width() != s.grid_map->width() || field->height() != s.grid_map->height())
    return false;
  CrowdAgent& agent = s.agents[i];
  const Cell at{static_cast<int>(std::floor(agent.position.x)), static_cast<int>(std::floor(agent.position.z))};
  const std::optional<std::size_t> goal = field->goal_index(at);
  if (!goal) return false;
  s.forget_path(i);
  s.work[i].wants_path = false;
  s.work[i].flow = std::move(field);
  const Cell goal_cell = s.work[i].flow->goals()[*goal];
  agent.target_kind = CrowdTargetKind::flow;
  agent.target = {goal_cell.x + 0.5, 0.0, goal_cell.y + 0.5};
  agent.status = CrowdAgentStatus::moving;
  s.reset_progress(i);
  return true;
}

bool Crowd::clear_target(CrowdAgentId id) {
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size()) return false;
  s.forget_path(i);
  s.work[i].wants_path = false;
  s.work[i].flow.reset();
  s.agents[i].target_kind = CrowdTargetKind::none;
  s.agents[i].status = CrowdAgentStatus::idle;
  s.reset_progress(i);
  return true;
}

bool Crowd::set_agent_settings(CrowdAgentId id, const CrowdAgentSettings& settings) {
  if (const auto problem = settings.problem()) throw std::invalid_argument("agent settings: " + *problem);
  State& s = *state_;
  const std::size_t i = s.index_of(id);
  if (i == s.agents.size()) return false;
  CrowdAgent& agent = s.agents[i];
  const bool new_filter = agent.settings.filter.has_value() != settings.filter.has_value() ||
                          (settings.filter && (settings.filter->area_costs != agent.settings.filter->area_costs ||
                                               settings.filter->include_flags != agent.settings.filter->include_flags ||
                                               settings.filter->exclude_flags != agent.settings.filter->exclude_flags));
  agent.settings = settings;
  if (new_filter && agent.target_kind == CrowdTargetKind::point) s.work[i].wants_path = true;
  return true;
}

CrowdUpdateReport Crowd::update(double dt, const StepBudget& path_budget) {
  if (!(std::isfinite(dt) && dt > 0.0)) throw std::invalid_argument("dt must be finite and > 0, not " + std::to_string(dt));
  const auto began = std::chrono::steady_clock::now();
  State& s = *state_;
  CrowdUpdateReport report;

  // Paths: replan what edits broke, ask for what is wanted, run the searches, hand out paths.
  s.check_corridors_after_edits();
  s.submit_requests();
  const QueueUpdate searched = s.world->run_paths(path_budget);
  report.paths_started = searched.started;
  report.expansions = searched.expansions;
  PathResult path;
  for (std::size_t i = 0; i < s.agents.size(); ++i) {
    if (!s.work[i].ticket || !s.world->take_path(s.work[i].ticket, path)) continue;
    s.receive_path(i, path, s.slice_scratch.front().world);
    ++report.paths_received;
  }

  double largest_radius = 0.0;
  for (const CrowdAgent& agent : s.agents) largest_radius = std::max(largest_radius, agent.settings.radius);
  s.largest_radius = largest_radius;
  s.size_snapshot();
  s.workers.run(s.agents.size(), s.settings.min_agents_per_thread, [&](crowd_detail::SliceTeam& team) {
    SliceScratch& scratch = s.slice_scratch[team.slice()];
    team.each([&](std::size_t i) {
      s.steer(i, dt, scratch);
      s.publish(i);
    });
    team.serial([&] {
      // Cells of half the neighbour distance: a search visits 5 x 5 of them (156 square metres
      // at the default 5 m) rather than 3 x 3 of the full distance (225). The neighbours kept
      // are sorted by distance, then index, so the cells' order does not matter.
      s.grid.build(s.positions, 0.5 * s.settings.neighbour_distance);
    });
    team.each([&](std::size_t i) { s.avoid(i, dt, scratch); });
    team.each([&](std::size_t i) { s.integrate(i, dt, scratch); });
    for (std::size_t round = 0; round < s.settings.collision_iterations; ++round) {
      team.each([&](std::size_t i) { s.publish(i); });
      team.serial([&] {
        s.grid.build(s.positions, std::max(2.0 * largest_radius, 1e-3));
      });
      const bool hold_settled = 2 * round < s.settings.collision_iterations;
      team.each([&](std::size_t i) { s.compute_push(i, hold_settled); });
      // Every slice reads the flags the pushes left (no slice writes them until the next
      // round's pushes, two meetings on) and so breaks on the same round, with no meeting here.
      const bool overlaps_left =
          std::any_of(s.work.begin(), s.work.end(), [](const AgentWork& own) { return own.overlapping; });
      if (!overlaps_left) break;
      team.each([&](std::size_t i) {
        const PlanarVector push = s.work[i].push;
        if (push.x != 0.0 || push.z != 0.0) s.move_agent(i, s.positions[i] + push, scratch);
      });
    }
  });

  s.time += dt;
  report.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
  return report;
}

const CrowdAgent* Crowd::agent(CrowdAgentId id) const {
  const std::size_t i = state_->index_of(id);
  return i == state_->agents.size() ? nullptr : &state_->agents[i];
}
std::span<const CrowdAgent> Crowd::agents() const { return state_->agents; }
std::size_t Crowd::agent_count() const { return state_->agents.size(); }
double Crowd::time() const { return state_->time; }
const CrowdSettings& Crowd::settings() const { return state_->settings; }
const GridMap* Crowd::grid() const { return state_->grid_map; }
const NavMesh& Crowd::mesh() const {
  if (state_->mesh == nullptr) throw std::logic_error("Crowd::mesh: this crowd walks on a grid");
  return *state_->mesh;
}

}  // namespace wayfinder
