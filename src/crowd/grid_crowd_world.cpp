#include "grid_crowd_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/paths/path_smoothing.hpp"

namespace wayfinder::crowd_detail {
namespace {

/// How far inside a cell a clamped point stays from its edges (cell units): enough that
/// std::floor puts it in that cell.
constexpr double edge_margin = 1e-6;
/// A waypoint counts as passed within this distance (cell units) of its centre.
constexpr double waypoint_reach = 0.25;
/// Half the side of the square swept along a sight line to the waypoint after next (cell units):
/// the agent turns early only where a body of about this size fits.
constexpr double sight_half_width = 0.35;
/// How many cells down a flow field an agent looks for the furthest one it can walk to straight.
constexpr int flow_lookahead = 12;

class GridCrowdWorld final : public CrowdWorld {
 public:
  GridCrowdWorld(const GridMap& map, const GridCrowdOptions& options, const PathRequestQueueSettings& queue)
      : map_(map), options_(options), queue_(map, queue) {}

  std::uint64_t revision() const override { return map_.revision(); }

  WorldLocation place(const Point& point, const AreaFilter* filter, double snap_distance) const override {
    if (!std::isfinite(point.x) || !std::isfinite(point.z)) return {};
    const Cell at = cell_at(point.x, point.z);
    if (walkable(at, filter)) return {map_.id_of(at), Point{point.x, 0.0, point.z}};
    // The nearest point of a walkable cell within snap_distance (ties: the first in row order).
    const int reach = static_cast<int>(std::ceil(std::min(snap_distance, 1e6))) + 1;
    WorldLocation best;
    double best_distance = snap_distance * snap_distance;
    for (int y = at.y - reach; y <= at.y + reach; ++y)
      for (int x = at.x - reach; x <= at.x + reach; ++x) {
        if (!walkable({x, y}, filter)) continue;
        const Point inside = clamp_into({x, y}, point);
        const double dx = inside.x - point.x, dz = inside.z - point.z;
        const double squared = dx * dx + dz * dz;
        if (squared <= best_distance && (!best.valid() || squared < best_distance)) {
          best = {map_.id_of(x, y), inside};
          best_distance = squared;
        }
      }
    return best;
  }

  bool passes(NodeId node, const AreaFilter& filter) const override {
    const Cell cell = map_.cell_of(node);
    return filter.passes(map_.area(cell), map_.flags(cell));
  }

  PathTicket request_path(const Point& start, const Point& target, const std::optional<AreaFilter>& filter) override {
    GridSearchOptions search;
    // Jump point search takes no filter: a filtered agent's paths come from A*.
    search.algorithm = filter ? GridAlgorithm::astar : options_.algorithm;
    search.diagonal = options_.diagonal;
    search.filter = filter;
    search.partial_when_unreachable = true;
    const PathTicket ticket = queue_.submit({cell_at(start.x, start.z), cell_at(target.x, target.z), search});
    targets_[ticket.id] = target;
    return ticket;
  }
  void cancel_path(PathTicket ticket) override {
    queue_.cancel(ticket);
    targets_.erase(ticket.id);
  }
  QueueUpdate run_paths(const StepBudget& budget) override { return queue_.update(budget); }
  bool take_path(PathTicket ticket, PathResult& path) override {
    if (!queue_.take_result(ticket, path)) return false;
    const auto target = targets_.find(ticket.id);
    // A found path ends in the target's cell: at the target itself, not the cell's centre.
    if (target != targets_.end()) {
      for (Point& point : path.points) point = {point.x, 0.0, point.y};
      if (path.status == SearchStatus::found && !path.points.empty()) path.points.back() = target->second;
      targets_.erase(target);
    }
    return true;
  }

  void route_from_leg(std::vector<NodeId>& corridor) const override {
    const std::vector<Point> waypoints = smooth_path(map_, corridor);
    corridor.clear();
    for (const Point& waypoint : waypoints)
      corridor.push_back(map_.id_of(static_cast<int>(waypoint.x), static_cast<int>(waypoint.y)));
  }

  bool route_blocked(std::span<const NodeId> corridor, std::uint64_t planned_revision,
                     const AreaFilter* filter) const override {
    if (map_.revision() == planned_revision) return false;
    for (std::size_t k = 0; k < corridor.size(); ++k) {
      const Cell cell = map_.cell_of(corridor[k]);
      if (!walkable(cell, filter)) return true;
      if (k > 0 && !line_of_sight(map_, map_.cell_of(corridor[k - 1]), cell)) return true;
    }
    return false;
  }

  bool join_route_start(std::vector<NodeId>& corridor, const Point&, const Point& position, const AreaFilter*,
                        std::size_t, WorldScratch&) const override {
    corridor.front() = map_.id_of(cell_at(position.x, position.z));
    return true;
  }

  bool steering_path(const Point& position, const Point& path_end, std::vector<NodeId>& corridor, WorldScratch&,
                     std::vector<Point>& waypoints) const override {
    if (corridor.empty()) return false;
    // Drop the next waypoint once it is reached, or once the one after it can be walked to
    // straight from here (the last is the path's end, kept).
    while (corridor.size() > 2) {
      const Point next = centre(corridor[1]);
      const bool reached = std::hypot(next.x - position.x, next.z - position.z) <= waypoint_reach;
      if (!reached && !clear_sight(position, centre(corridor[2]))) break;
      corridor.erase(corridor.begin() + 1);
    }
    waypoints.clear();
    waypoints.push_back(position);
    for (std::size_t k = 1; k + 1 < corridor.size(); ++k) waypoints.push_back(centre(corridor[k]));
    waypoints.push_back(path_end);
    return true;
  }

  Point aim_at_turn(const Point& corner, double, const WorldScratch&) const override { return corner; }

  void gather_walls(NodeId, PlanarVector centre, double range, const AreaFilter* filter, std::size_t, WorldScratch&,
                    std::vector<WallSegment>& walls) const override {
    const int x0 = static_cast<int>(std::floor(centre.x - range)) - 1, x1 = static_cast<int>(std::floor(centre.x + range)) + 1;
    const int z0 = static_cast<int>(std::floor(centre.z - range)) - 1, z1 = static_cast<int>(std::floor(centre.z + range)) + 1;
    auto keep = [&](PlanarVector a, PlanarVector b) {
      if (distance_squared_to_segment(centre, a, b) <= range * range && determinant(b - a, centre - a) >= 0.0)
        walls.push_back({a, b});
    };
    // Edges along rows (lines z = k) and along columns (lines x = k), each merged while the same
    // side stays walkable.
    auto merge_edges = [&](int first_line, int last_line, int first, int last, bool reversed, auto cell_of) {
      auto point_of = [&](int along, int line) {
        const Cell corner = cell_of(along, line);
        return PlanarVector{double(corner.x), double(corner.y)};
      };
      auto edge = [&](PlanarVector a, PlanarVector b) { reversed ? keep(b, a) : keep(a, b); };
      for (int k = first_line; k <= last_line + 1; ++k) {
        int run_start = 0, run_side = 0;  // +1: walkable after the line (greater k), -1: before, 0: no edge
        for (int along = first; along <= last + 1; ++along) {
          int side = 0;
          if (along <= last) {
            const bool before = walkable(cell_of(along, k - 1), filter), after = walkable(cell_of(along, k), filter);
            side = before == after ? 0 : (after ? 1 : -1);
          }
          if (side == run_side) continue;
          if (run_side == 1) edge(point_of(run_start, k), point_of(along, k));
          if (run_side == -1) edge(point_of(along, k), point_of(run_start, k));
          run_start = along;
          run_side = side;
        }
      }
    };
    // The walkable side on the left of a -> b, as on a mesh: along a row, a -> b runs towards
    // greater x when the walkable side is at greater z; along a column, towards smaller z when
    // it is at greater x. (A cell's corner with the smallest coordinates has the cell's numbers.)
    merge_edges(z0, z1, x0, x1, false, [](int along, int line) { return Cell{along, line}; });
    merge_edges(x0, x1, z0, z1, true, [](int along, int line) { return Cell{line, along}; });
  }

  bool walls_bound_the_disc() const override { return true; }

  SurfaceMoveResult move(NodeId node, const Point& from, const Point& to, const AreaFilter* filter,
                         std::size_t) const override {
    SurfaceMoveResult result;
    if (!std::isfinite(to.x) || !std::isfinite(to.z)) {
      result.message = "target is not finite";
      return result;
    }
    // In steps of at most half a cell, each along x then along z, stopping at the edge of a
    // cell that is not walkable (the move slides along it).
    double x = from.x, z = from.z;
    const double dx = to.x - from.x, dz = to.z - from.z;
    const int steps = std::max(1, static_cast<int>(std::ceil(2.0 * std::max(std::abs(dx), std::abs(dz)))));
    result.corridor.push_back(node);
    for (int step = 1; step <= steps; ++step) {
      const double t = static_cast<double>(step) / steps;
      const double want_x = from.x + t * dx, want_z = from.z + t * dz;
      x = slide(x, want_x, [&](int column) { return walkable({column, cell_at(x, z).y}, filter); });
      z = slide(z, want_z, [&](int row) { return walkable({cell_at(x, z).x, row}, filter); });
      const NodeId now = map_.id_of(cell_at(x, z));
      if (now != result.corridor.back()) result.corridor.push_back(now);
    }
    result.point = {x, 0.0, z};
    result.polygon = result.corridor.back();
    return result;
  }

  bool follow_move(std::vector<NodeId>& corridor, const SurfaceMoveResult& moved, WorldScratch&) const override {
    corridor.front() = moved.polygon;
    return true;
  }

  FlowStep follow_flow(const GridFlowField& field, const Point& position, Point& heading,
                       double& remaining) const override {
    const Cell at = cell_at(position.x, position.z);
    if (field.width() != map_.width() || field.height() != map_.height() || !field.reachable(at))
      return FlowStep::unreachable;
    if (field.cost_to_goal(at) == 0.0) return FlowStep::at_goal;
    // Down the field, the furthest of the next flow_lookahead cells in straight sight.
    Cell aim = *field.next_cell(at);
    Cell next = aim;
    for (int k = 1; k < flow_lookahead; ++k) {
      const std::optional<Cell> after = field.next_cell(next);
      if (!after || *after == next) break;
      next = *after;
      if (!clear_sight(position, centre(map_.id_of(next)))) break;
      aim = next;
    }
    heading = centre(map_.id_of(aim));
    remaining = std::hypot(heading.x - position.x, heading.z - position.z) + field.cost_to_goal(aim);
    return FlowStep::heading;
  }

 private:
  static Cell cell_at(double x, double z) {
    return {static_cast<int>(std::floor(std::clamp(x, -1e9, 1e9))), static_cast<int>(std::floor(std::clamp(z, -1e9, 1e9)))};
  }
  Point centre(NodeId node) const {
    const Cell cell = map_.cell_of(node);
    return {cell.x + 0.5, 0.0, cell.y + 0.5};
  }
  static Point clamp_into(Cell cell, const Point& point) {
    return {std::clamp(point.x, cell.x + edge_margin, cell.x + 1.0 - edge_margin), 0.0,
            std::clamp(point.z, cell.y + edge_margin, cell.y + 1.0 - edge_margin)};
  }
  bool walkable(Cell cell, const AreaFilter* filter) const {
    if (!map_.passable(cell)) return false;
    return filter == nullptr || filter->passes(map_.area(cell), map_.flags(cell));
  }
  /// One coordinate moved from `at` towards `want`, stopped just inside the last walkable cell
  /// when `open(next cell index)` says the next is not.
  template <class Open>
  static double slide(double at, double want, Open&& open) {
    const int from = static_cast<int>(std::floor(at)), to = static_cast<int>(std::floor(want));
    if (to > from) {
      for (int c = from + 1; c <= to; ++c)
        if (!open(c)) return c - edge_margin;
    } else if (to < from) {
      for (int c = from - 1; c >= to; --c)
        if (!open(c)) return c + 1 + edge_margin;
    }
    return want;
  }
  /// True when a square of half-side sight_half_width swept from `from` to `to` covers only
  /// passable cells (sampled every quarter cell, the ends included).
  bool clear_sight(const Point& from, const Point& to) const {
    const double length = std::hypot(to.x - from.x, to.z - from.z);
    const int samples = static_cast<int>(std::ceil(4.0 * length)) + 1;
    for (int s = 0; s <= samples; ++s) {
      const double t = static_cast<double>(s) / samples;
      const double x = from.x + t * (to.x - from.x), z = from.z + t * (to.z - from.z);
      for (const double ox : {-sight_half_width, sight_half_width})
        for (const double oz : {-sight_half_width, sight_half_width})
          if (!map_.passable(cell_at(x + ox, z + oz))) return false;
    }
    return true;
  }

  const GridMap& map_;
  GridCrowdOptions options_;
  PathRequestQueue<GridMap> queue_;
  std::unordered_map<std::uint64_t, Point> targets_;  ///< each open request's target point
};

}  // namespace

std::unique_ptr<CrowdWorld> make_grid_world(const GridMap& map, const GridCrowdOptions& options,
                                            const PathRequestQueueSettings& queue) {
  return std::make_unique<GridCrowdWorld>(map, options, queue);
}

}  // namespace wayfinder::crowd_detail
