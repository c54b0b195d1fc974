#pragma once
// Basic value types shared by every world: node ids, costs and points.

#include <cstdint>
#include <limits>

namespace wayfinder {

/// Dense id of a search node (a grid cell, a mesh polygon, ...), 0..node_count()-1.
using NodeId = std::uint32_t;
inline constexpr NodeId invalid_node = std::numeric_limits<NodeId>::max();

/// Path costs are exact sums of move costs in double precision.
using Cost = double;
inline constexpr Cost infinite_cost = std::numeric_limits<Cost>::infinity();

inline constexpr double sqrt2 = 1.41421356237309504880;

/// A position in world units. Grids use cell centres (x + 0.5, y + 0.5) and z = 0.
struct Point {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  friend bool operator==(const Point&, const Point&) = default;
};

}  // namespace wayfinder
