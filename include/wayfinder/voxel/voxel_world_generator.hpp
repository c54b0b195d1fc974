#pragma once
// Seeded generated voxel worlds: rolling terrain with caves and lakes, of any size the world
// storage takes, to measure searches on worlds far larger than the files at hand. Every column
// has bedrock at y = 0 (never carved), solid ground up to a fractal value-noise surface, caves
// where two 3-D noise fields are both near zero, and water up to `water_level`; the same
// options give the same world on every compiler and standard library. The method and its
// sources are in docs/voxel.md, "Generated worlds".

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

struct VoxelWorldGeneratorOptions {
  int size_x = 256;
  int size_y = 128;
  int size_z = 256;
  std::uint64_t seed = 1;
  /// Mean surface height, as a fraction of size_y (0..1).
  double ground_level = 0.35;
  /// The surface rises and falls at most this fraction of size_y about ground_level (0..1).
  double relief = 0.2;
  /// Width in blocks of the largest terrain features (the first octave's lattice spacing), >= 1.
  double feature_size = 128.0;
  /// Octaves of terrain noise, 1..12.
  int octaves = 4;
  /// Carve caves.
  bool caves = true;
  /// Width of the cave tunnels, as the noise band |a|, |b| < cave_width (0..1; 0.1 gives tunnels
  /// a few blocks across).
  double cave_width = 0.1;
  /// Lattice spacing in blocks of the cave noise, >= 1: how far a tunnel goes before it turns.
  double cave_size = 32.0;
  /// Lakes: air above the ground and at or below this fraction of size_y is water; negative for
  /// no water.
  double water_level = 0.3;
  /// Generation is refused when the world could take more memory than this
  /// (estimate_generated_world_bytes). 4 GiB, or the whole address space where size_t is
  /// 32 bits (WebAssembly), where 4 GiB does not fit.
  std::size_t max_memory_bytes =
      static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{4} << 30, std::numeric_limits<std::size_t>::max()));
};

/// Bytes a stored chunk of a VoxelWorld takes (its blocks, its padded solid bits, its counters
/// and the pointer to it): what estimate_generated_world_bytes counts per chunk.
inline constexpr std::size_t voxel_chunk_bytes_estimate = 5440;

/// An upper bound on the memory of the world generate_voxel_world would build: every chunk at
/// or below the highest surface or water level the options allow, plus the chunk table. Usable
/// before generating, for sizes the world storage takes.
std::size_t estimate_generated_world_bytes(const VoxelWorldGeneratorOptions& options);

/// No value if generate_voxel_world accepts the options, otherwise what is wrong: a size the
/// world storage refuses (VoxelWorld::size_problem), a fraction outside 0..1 or NaN, a feature
/// or cave size below 1, octaves outside 1..12, or a world whose memory estimate exceeds
/// max_memory_bytes (the message gives both).
std::optional<std::string> voxel_generator_problem(const VoxelWorldGeneratorOptions& options);

/// The surface height of column (x, z): the highest ground block before caves are carved
/// (0..size_y - 1). Cheap; the generator uses the same function.
int generated_surface_height(const VoxelWorldGeneratorOptions& options, int x, int z);

/// Builds the world. Throws std::invalid_argument with voxel_generator_problem's message for
/// options it refuses. The same options always give the same world.
VoxelWorld generate_voxel_world(const VoxelWorldGeneratorOptions& options);

}  // namespace wayfinder
