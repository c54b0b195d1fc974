#pragma once
// Optimal reciprocal collision avoidance (ORCA): van den Berg, Guy, Lin & Manocha, "Reciprocal
// n-Body Collision Avoidance", Robotics Research (ISRR 2009), Springer 2011. Each neighbour
// (another agent, or a wall segment) turns into a half-plane of permitted velocities; the new
// velocity is the one closest to the preferred velocity inside all half-planes and within the
// maximum speed, found by the paper's 2D linear program; when the half-planes have no common
// point, the paper's 3D linear program finds the velocity that violates the agents' half-planes
// least (the walls' stay hard). Everything here is in the x-z plane (seen from above), in world
// units and seconds; pure functions, no state, so any number of threads may call them.

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace wayfinder {

/// A vector in the x-z plane (a position or a velocity seen from above).
struct PlanarVector {
  double x = 0.0;
  double z = 0.0;
  friend bool operator==(const PlanarVector&, const PlanarVector&) = default;
  friend PlanarVector operator+(PlanarVector a, PlanarVector b) { return {a.x + b.x, a.z + b.z}; }
  friend PlanarVector operator-(PlanarVector a, PlanarVector b) { return {a.x - b.x, a.z - b.z}; }
  friend PlanarVector operator*(double s, PlanarVector a) { return {s * a.x, s * a.z}; }
  [[nodiscard]] double length_squared() const { return x * x + z * z; }
  [[nodiscard]] double length() const { return std::sqrt(length_squared()); }
};
[[nodiscard]] inline double dot(PlanarVector a, PlanarVector b) { return a.x * b.x + a.z * b.z; }
/// The 2D cross product: positive when b lies counter-clockwise of a (x right, z up).
[[nodiscard]] inline double determinant(PlanarVector a, PlanarVector b) { return a.x * b.z - a.z * b.x; }

/// A half-plane of velocities: those on the left of `direction` (a unit vector) through `point`,
/// i.e. determinant(direction, v - point) >= 0.
struct OrcaLine {
  PlanarVector point;
  PlanarVector direction;
  [[nodiscard]] bool permits(PlanarVector velocity, double tolerance = 0.0) const {
    return determinant(direction, velocity - point) >= -tolerance;
  }
};

/// An agent as ORCA sees it: a disc moving at a velocity.
struct OrcaDisc {
  PlanarVector position;
  PlanarVector velocity;
  double radius = 0.0;
};

/// The half-plane `self` must keep its velocity in so as not to collide with `other` within
/// `time_horizon` seconds (> 0), taking `responsibility` (0..1; 0.5 is the paper's reciprocal
/// share) of the avoidance; when they are not on a collision course, `self` may use
/// 1 - responsibility of the room left (the other its complement, so the shares still sum to
/// one and the paper's guarantee holds): who gives way more also gets less of the room. Discs that already overlap get the half-plane that separates them
/// within one step of `time_step` seconds (> 0). Discs at the same position are pushed apart
/// along +x for the one and -x for the other only by the caller's collision pass: here their
/// line is (0, 0) facing +x.
[[nodiscard]] OrcaLine orca_agent_line(const OrcaDisc& self, const OrcaDisc& other, double time_horizon,
                                       double time_step, double responsibility);

/// The half-plane that keeps a disc at `position` with `radius` from reaching the wall segment
/// a-b within `time_horizon` seconds: the tangent to the segment's velocity obstacle at its point
/// closest to the zero velocity (the paper's static obstacles, with the optimisation velocity 0),
/// the disc taking all of the responsibility. A disc already touching the wall gets the
/// half-plane that moves it out within `time_step`. The walkable side of the wall is the left of
/// a -> b (the mesh's polygons are counter-clockwise), which decides the direction when the
/// disc's centre lies on the segment.
[[nodiscard]] OrcaLine orca_wall_line(PlanarVector position, double radius, PlanarVector a, PlanarVector b,
                                      double time_horizon, double time_step);

/// The velocity closest to `preferred` within `max_speed` (>= 0) that every line permits; when
/// no velocity does, the one that violates lines [hard_lines, end) by the smallest largest
/// distance while keeping lines [0, hard_lines) (when those alone are infeasible too, every line
/// is relaxed). Lines are processed in the order given, so the same lines give the same bits.
/// `scratch` is reused memory for the 3D program's projected lines.
[[nodiscard]] PlanarVector solve_orca(std::span<const OrcaLine> lines, std::size_t hard_lines, double max_speed,
                                      PlanarVector preferred, std::vector<OrcaLine>& scratch);

}  // namespace wayfinder
