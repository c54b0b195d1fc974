#pragma once
// A voxel world's blocks for the page's 3D view, in boxes of whole columns, so that no answer is
// larger than ApiLimits::max_voxel_blocks characters however large the world: the page asks for
// the world box by box and meshes the faces itself (voxel_geometry.js). The request and answer
// are documented in docs/viewer.md ("POST /api/worlds/{id}/blocks").

#include "common/world_json.hpp"
#include "viewer/viewer_api.hpp"
#include "viewer/world_catalog.hpp"

namespace wayfinder::viewer {

/// The blocks of the columns request["from"] = [x, z] to [x + width, z + depth) with
/// request["size"] = [width, depth], at every height: {"world", "revision", "from": [x, z],
/// "size": [width, size_y, depth], "blocks": one character per block, '0' air, '1' solid,
/// '2' water, '3' ladder, index (y * depth + (z - from z)) * width + (x - from x)}. Refuses
/// (400) a world that is not a voxel world, a box that is empty or not inside the world, and a
/// box of more than limits.max_voxel_blocks blocks, naming the field.
Json voxel_block_box_json(const CatalogWorld& world, const Json& request, const ApiLimits& limits);

}  // namespace wayfinder::viewer
