#pragma once
// Splitting a simple polygon into triangles, for the mesh build's concave inputs.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

// The work allowed to split one face, in reflex vertices tested against ears. Ordinary faces
// need a few per vertex; a 200,000-vertex comb about that too. Faces of long thin spikes make
// the count grow with the square of the vertex count (a star of 200,000 random radii needs 120
// million tests, about 9 s), so past this budget the split gives up and the loader says so,
// rather than keep a level loading for minutes. The budget lets a 100,000-vertex star through
// (30 million tests, 2 s).
inline std::uint64_t triangulation_budget(std::size_t vertex_count) { return 32'000'000 + 64 * std::uint64_t{vertex_count}; }

// Splits a simple counter-clockwise polygon into triangles by ear clipping (Meisters 1975),
// near-linear in practice (see polygon_triangulation.cpp). Self-intersecting input may have no
// ear at some point: what is left is then split as a fan.
// `polygon` lists indices into `vertices`, counter-clockwise seen from above; the triangles
// come back as index triples, counter-clockwise too. nullopt when the split gave up after
// triangulation_budget(polygon.size()) tests.
std::optional<std::vector<std::vector<std::uint32_t>>> triangulate(const std::vector<Point>& vertices,
                                                                   const std::vector<std::uint32_t>& polygon);

}  // namespace wayfinder
