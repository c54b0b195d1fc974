#pragma once
// Reading MagicaVoxel `.vox` files (format version 150, and 200 which has the same layout):
// a `VOX ` header and a MAIN chunk whose children are SIZE + XYZI pairs (one per model) and,
// in files with a scene, the scene graph chunks nTRN (transform), nGRP (group) and nSHP
// (shape); PACK is accepted and every other chunk (RGBA, MATL, LAYR, rOBJ, ...) is skipped.
// Format: github.com/ephtracy/voxel-model, "MagicaVoxel-file-format-vox.txt".
//
// Placement. Without a scene graph every model is placed with its corner at the origin. With
// one, each shape node is placed by the sum of the `_t` translations of the transforms above
// it (frame 0), MagicaVoxel's centre convention: a voxel at (x, y, z) of a model of size
// (sx, sy, sz) lands at translation + (x - sx / 2, y - sy / 2, z - sz / 2), with integer
// division. Rotated transforms (`_r` other than the identity) are refused with an error rather
// than placed wrongly. The world is then shifted so that its smallest corner is at 0.
//
// Axes: MagicaVoxel's z is up, so the file's (x, y, z) becomes the world's (x, z, y).
// Blocks: colour index 0 is empty; every other index is solid unless VoxReadOptions maps it
// to another kind (water, ladder, or air to leave it out).
//
// Errors throw LoadError with the file name, line 0 and a cause that starts with the byte
// offset where the problem was found ("byte 1234: ..."). Limits keep a hostile file from
// costing much: a model side is at most 1024 voxels, translations at most 2^20 from the
// origin, at most 65536 shapes are placed, and the world must fit VoxelWorld's size limit.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

struct VoxReadOptions {
  /// The block kind of each colour index; index 0 is always empty.
  std::array<BlockKind, 256> kinds{};

  VoxReadOptions() {
    kinds.fill(BlockKind::solid);
    kinds[0] = BlockKind::air;
  }
  /// Marks the voxels of one colour index (1 to 255) as `kind`, e.g. water or ladders.
  VoxReadOptions& set_kind(std::uint8_t colour_index, BlockKind kind) {
    if (colour_index != 0) kinds[colour_index] = kind;
    return *this;
  }
};

VoxelWorld parse_vox(std::string_view bytes, const std::string& source_name, const VoxReadOptions& options = {});
VoxelWorld read_vox_file(const std::filesystem::path& path, const VoxReadOptions& options = {});

}  // namespace wayfinder
