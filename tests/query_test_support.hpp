#pragma once
// What the tests of batches, queues and threads share: comparing two answers bit for bit, and a
// generated navigation mesh with holes.

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder::testing {

/// "" if two results are the same bit for bit (status, cost, nodes, points, expansions and
/// generated nodes, message; not the time), otherwise what differs.
inline std::string result_difference(const PathResult& expected, const PathResult& actual) {
  if (actual.status != expected.status)
    return "status " + std::string(to_string(actual.status)) + " instead of " + std::string(to_string(expected.status));
  if (std::bit_cast<std::uint64_t>(actual.cost) != std::bit_cast<std::uint64_t>(expected.cost))
    return "cost " + std::to_string(actual.cost) + " instead of " + std::to_string(expected.cost);
  if (actual.nodes != expected.nodes) return "different nodes";
  if (actual.points != expected.points) return "different points";
  if (actual.stats.expanded != expected.stats.expanded || actual.stats.generated != expected.stats.generated)
    return "different expansions";
  if (actual.message != expected.message) return "message '" + actual.message + "' instead of '" + expected.message + "'";
  return "";
}

/// A columns x rows grid of unit squares in the x-z plane, each a hole with `hole_chance`, the
/// others split into two triangles along a random diagonal; `centres` gets one point inside
/// each square kept.
inline MeshGeometry holey_square_mesh(int columns, int rows, double hole_chance, TestRandom& random,
                                      std::vector<Point>& centres) {
  MeshGeometry geometry;
  for (int z = 0; z <= rows; ++z)
    for (int x = 0; x <= columns; ++x) geometry.vertices.push_back({double(x), 0.0, double(z)});
  const auto vertex = [columns](int x, int z) { return static_cast<std::uint32_t>(z * (columns + 1) + x); };
  centres.clear();
  for (int z = 0; z < rows; ++z)
    for (int x = 0; x < columns; ++x) {
      if (random.chance(hole_chance)) continue;
      const std::uint32_t a = vertex(x, z), b = vertex(x + 1, z), c = vertex(x + 1, z + 1), d = vertex(x, z + 1);
      if (random.chance(0.5)) {
        geometry.polygons.push_back({a, b, c});
        geometry.polygons.push_back({a, c, d});
      } else {
        geometry.polygons.push_back({a, b, d});
        geometry.polygons.push_back({b, c, d});
      }
      centres.push_back({x + 0.37, 0.0, z + 0.61});
    }
  return geometry;
}

}  // namespace wayfinder::testing
