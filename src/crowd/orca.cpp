// ORCA's half-planes and linear programs, after van den Berg, Guy, Lin & Manocha, "Reciprocal
// n-Body Collision Avoidance" (2011): section 4 for the half-plane of two agents, section 5.2
// for static obstacles, section 5.3 for the 2D linear program (incremental, one constraint at a
// time, each new violated constraint solved as a 1D program on its line) and the 3D program of
// dense situations (minimise the largest violation, solved as a 2D program over the lines that
// bisect each pair of constraints).

#include "wayfinder/crowd/orca.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wayfinder {
namespace {

/// Below this, two directions count as parallel.
constexpr double parallel_epsilon = 1e-12;

PlanarVector unit(PlanarVector v) {
  const double length = v.length();
  return length > 0.0 ? (1.0 / length) * v : PlanarVector{1.0, 0.0};
}

/// The line through `point` facing `normal` (the permitted side is where `normal` points).
OrcaLine line_facing(PlanarVector point, PlanarVector normal) { return {point, {normal.z, -normal.x}}; }

/// The 1D program on line `index`: the point of the line within the speed circle permitted by
/// lines [0, index) that is closest to `preferred` (or furthest along `preferred` when
/// `direction_only`). False when no point of the line qualifies.
bool solve_on_line(std::span<const OrcaLine> lines, std::size_t index, double max_speed, PlanarVector preferred,
                   bool direction_only, PlanarVector& result) {
  const OrcaLine& line = lines[index];
  const double along = dot(line.point, line.direction);
  const double discriminant = along * along + max_speed * max_speed - line.point.length_squared();
  if (discriminant < 0.0) return false;  // the line misses the speed circle
  const double root = std::sqrt(discriminant);
  double t_left = -along - root;
  double t_right = -along + root;
  for (std::size_t j = 0; j < index; ++j) {
    const double denominator = determinant(line.direction, lines[j].direction);
    const double numerator = determinant(lines[j].direction, line.point - lines[j].point);
    if (std::abs(denominator) <= parallel_epsilon) {
      if (numerator < 0.0) return false;  // parallel, and this line lies outside line j
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0)
      t_right = std::min(t_right, t);
    else
      t_left = std::max(t_left, t);
    if (t_left > t_right) return false;
  }
  if (direction_only) {
    result = line.point + (dot(preferred, line.direction) > 0.0 ? t_right : t_left) * line.direction;
  } else {
    const double t = std::clamp(dot(line.direction, preferred - line.point), t_left, t_right);
    result = line.point + t * line.direction;
  }
  return true;
}

/// The 2D program: returns lines.size() when every line is met, else the index of the line that
/// could not be (result then holds the best velocity for the lines before it).
std::size_t solve_planar(std::span<const OrcaLine> lines, double max_speed, PlanarVector preferred, bool direction_only,
                         PlanarVector& result) {
  if (direction_only)
    result = max_speed * preferred;
  else if (preferred.length_squared() > max_speed * max_speed)
    result = max_speed * unit(preferred);
  else
    result = preferred;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].permits(result)) continue;
    const PlanarVector before = result;
    if (!solve_on_line(lines, i, max_speed, preferred, direction_only, result)) {
      result = before;
      return i;
    }
  }
  return lines.size();
}

/// The 3D program, from the first line the 2D program failed on: the velocity whose largest
/// violation of lines [hard_lines, end) is smallest, lines [0, hard_lines) kept.
void solve_least_violation(std::span<const OrcaLine> lines, std::size_t hard_lines, std::size_t first_failed,
                           double max_speed, PlanarVector& result, std::vector<OrcaLine>& projected) {
  double violation = 0.0;
  for (std::size_t i = first_failed; i < lines.size(); ++i) {
    const OrcaLine& line = lines[i];
    if (determinant(line.direction, line.point - result) <= violation) continue;
    projected.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard_lines));
    for (std::size_t j = hard_lines; j < i; ++j) {
      const OrcaLine& other = lines[j];
      const double crossing = determinant(line.direction, other.direction);
      PlanarVector point;
      if (std::abs(crossing) <= parallel_epsilon) {
        if (dot(line.direction, other.direction) > 0.0) continue;  // same direction: line j never binds first
        point = 0.5 * (line.point + other.point);
      } else {
        point = line.point + (determinant(other.direction, line.point - other.point) / crossing) * line.direction;
      }
      projected.push_back({point, unit(other.direction - line.direction)});
    }
    const PlanarVector before = result;
    // Optimise towards the inside of line i: the bisectors keep every other violation below its.
    if (solve_planar(projected, max_speed, {-line.direction.z, line.direction.x}, true, result) < projected.size())
      result = before;  // only rounding can get here; keep the best so far
    violation = determinant(line.direction, line.point - result);
  }
}

}  // namespace

OrcaLine orca_agent_line(const OrcaDisc& self, const OrcaDisc& other, double time_horizon, double time_step,
                         double responsibility) {
  const PlanarVector relative_position = other.position - self.position;
  const PlanarVector relative_velocity = self.velocity - other.velocity;
  const double distance_squared = relative_position.length_squared();
  const double combined_radius = self.radius + other.radius;
  const double combined_squared = combined_radius * combined_radius;

  PlanarVector u;       // the smallest change of relative velocity that leaves the velocity obstacle
  PlanarVector normal;  // the obstacle's outward normal where u ends
  if (distance_squared > combined_squared) {
    // Not colliding: the obstacle is the cone from the origin over the disc around
    // relative_position / time_horizon, cut off by that disc.
    const double inverse_horizon = 1.0 / time_horizon;
    const PlanarVector w = relative_velocity - inverse_horizon * relative_position;
    const double w_squared = w.length_squared();
    const double w_along = dot(w, relative_position);
    if (w_along < 0.0 && w_along * w_along > combined_squared * w_squared) {
      // Closest to the cut-off circle.
      const double w_length = std::sqrt(w_squared);
      normal = unit(w);
      u = (combined_radius * inverse_horizon - w_length) * normal;
    } else {
      // Closest to one of the cone's legs: left when w lies counter-clockwise of the centre.
      const double leg = std::sqrt(distance_squared - combined_squared);
      PlanarVector leg_direction;
      if (determinant(relative_position, w) > 0.0) {
        leg_direction = (1.0 / distance_squared) * PlanarVector{relative_position.x * leg - relative_position.z * combined_radius,
                                                                relative_position.x * combined_radius + relative_position.z * leg};
        normal = {-leg_direction.z, leg_direction.x};
      } else {
        leg_direction = (1.0 / distance_squared) * PlanarVector{relative_position.x * leg + relative_position.z * combined_radius,
                                                                -relative_position.x * combined_radius + relative_position.z * leg};
        normal = {leg_direction.z, -leg_direction.x};
      }
      u = dot(relative_velocity, leg_direction) * leg_direction - relative_velocity;
    }
  } else {
    // Colliding already: leave the disc of overlap within one time step.
    const double inverse_step = 1.0 / time_step;
    const PlanarVector w = relative_velocity - inverse_step * relative_position;
    const double w_length = w.length();
    normal = w_length > 0.0 ? (1.0 / w_length) * w
                            : (distance_squared > 0.0 ? unit(PlanarVector{} - relative_position) : PlanarVector{1.0, 0.0});
    u = (combined_radius * inverse_step - w_length) * normal;
  }
  // On a collision course (u leads out of the obstacle) the agent makes `responsibility` of the
  // change; otherwise u measures free room, and the agent that takes less of the avoidance gets
  // more of the room. Both agents see the same case (u and the normal both change sign), so
  // their shares still sum to one: the paper's guarantee holds.
  const double share = dot(u, normal) >= 0.0 ? responsibility : 1.0 - responsibility;
  return line_facing(self.velocity + share * u, normal);
}

OrcaLine orca_wall_line(PlanarVector position, double radius, PlanarVector a, PlanarVector b, double time_horizon,
                        double time_step) {
  const PlanarVector from_a = a - position;
  const PlanarVector edge = b - a;
  const double edge_squared = edge.length_squared();
  const double t = edge_squared > 0.0 ? std::clamp(-dot(from_a, edge) / edge_squared, 0.0, 1.0) : 0.0;
  const PlanarVector closest = from_a + t * edge;  // the wall's closest point, relative to the disc
  const double distance = closest.length();
  // Towards the wall; for a centre on the segment, the wall's outward side (right of a -> b).
  const PlanarVector towards = distance > 0.0 ? (1.0 / distance) * closest : unit(PlanarVector{edge.z, -edge.x});
  // The obstacle is every velocity that reaches the segment widened by the radius within the
  // horizon; its point closest to velocity 0 lies along `towards` at (distance - radius) / horizon.
  const double horizon = distance > radius ? time_horizon : time_step;
  const PlanarVector boundary = ((distance - radius) / horizon) * towards;
  return line_facing(boundary, PlanarVector{} - towards);
}

PlanarVector solve_orca(std::span<const OrcaLine> lines, std::size_t hard_lines, double max_speed,
                        PlanarVector preferred, std::vector<OrcaLine>& scratch) {
  PlanarVector result;
  const std::size_t failed = solve_planar(lines, max_speed, preferred, false, result);
  if (failed < lines.size()) {
    // Infeasible walls alone (a disc pushed into a corner): relax every line.
    solve_least_violation(lines, failed < hard_lines ? 0 : hard_lines, failed, max_speed, result, scratch);
  }
  return result;
}

}  // namespace wayfinder
