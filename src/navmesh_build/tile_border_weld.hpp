#pragma once
// Stitching the tiles of a tiled navmesh build into one mesh. Wayfinder's NavMesh joins two
// polygons only where they share an edge (the same two vertices), so a polygon edge along a
// tile border that meets two polygons of the next tile, or meets one at a vertex it lacks (a
// T-junction), would be a wall. Detour instead links tiles by overlapping border segments;
// here the edge is split at the vertices of the polygons across it, which keeps every polygon
// convex (the new vertices lie on its edge) and makes each shared stretch a shared edge.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wayfinder {

/// A vertex in voxels of the whole level's grid: x, y (height), z.
using VoxelCorner = std::array<int, 3>;

/// Splits every edge of `polygons` (indices into `corners`) that runs along a tile border line
/// (x or z a multiple of `tile_size`) at every corner on the same line strictly between its ends
/// and within `climb` voxels of the edge's height there (a corner of another floor is not
/// taken). Returns the number of corners inserted.
std::size_t split_edges_at_border_vertices(std::vector<std::vector<std::uint32_t>>& polygons,
                                           const std::vector<VoxelCorner>& corners, int tile_size, int climb);

}  // namespace wayfinder
