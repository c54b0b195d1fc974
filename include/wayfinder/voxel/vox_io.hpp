#pragma once
// Reading MagicaVoxel `.vox` files (format version 150, and 200 which has the same layout):
// a `VOX ` header and a MAIN chunk whose children are SIZE + XYZI pairs (one per model) and,
// in files with a scene, the scene graph chunks nTRN (transform), nGRP (group) and nSHP
// (shape); PACK is accepted, RGBA (the palette) is read for VoxFileInfo, and every other chunk
// (MATL, LAYR, rOBJ, IMAP, ...) is skipped.
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
// origin, at most 65536 shapes are placed, holding at most 2^25 voxels in all (counted before
// any is written), and the world must fit VoxelWorld's size limit.

#include <array>
#include <cstddef>
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

/// One palette entry, 8 bits per channel.
struct VoxColour {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  std::uint8_t a = 0;
  friend bool operator==(const VoxColour&, const VoxColour&) = default;
};

/// MagicaVoxel's built-in palette, which files without an RGBA chunk use: index 0 is empty
/// (all zero), 1 to 215 the 6 x 6 x 6 colour cube of the channel levels ff, cc, 99, 66, 33, 00
/// without black (red slowest, blue fastest), then ten-step ramps ee..11 of red, green, blue
/// and grey.
std::array<VoxColour, 256> default_vox_palette();

/// What a .vox file holds besides its blocks, for describing it (`wayfinder voxel info`).
struct VoxFileInfo {
  /// The colour of each index: the file's RGBA chunk (its entry i is index i + 1; index 0 is
  /// empty), or default_vox_palette() for a file without one.
  std::array<VoxColour, 256> palette = default_vox_palette();
  bool palette_from_file = false;
  /// Voxels placed with each colour index. A model placed twice by the scene counts twice;
  /// where placed models overlap, the world keeps the last voxel written.
  std::array<std::uint64_t, 256> voxel_counts{};
  std::size_t model_count = 0;   ///< SIZE + XYZI pairs
  std::size_t placed_models = 0; ///< models placed in the world (shapes of the scene graph)
};

/// Reads a .vox file into a world. An RGBA chunk must hold at least 256 colours (1024 bytes).
/// When `info` is not null it receives the palette and colour counts.
VoxelWorld parse_vox(std::string_view bytes, const std::string& source_name, const VoxReadOptions& options = {},
                     VoxFileInfo* info = nullptr);
VoxelWorld read_vox_file(const std::filesystem::path& path, const VoxReadOptions& options = {},
                         VoxFileInfo* info = nullptr);

}  // namespace wayfinder
