#include "wayfinder/voxel/voxel_world_generator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace wayfinder {

namespace {

// splitmix64's output function (Steele, Lea and Flood 2014): a bijective mix whose every output
// bit depends on every input bit, so consecutive lattice coordinates give unrelated values.
std::uint64_t mix64(std::uint64_t value) {
  value += 0x9E3779B97F4A7C15ull;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
  return value ^ (value >> 31);
}

/// The random value of a lattice point, in [-1, 1).
double lattice_value(std::uint64_t seed, std::int64_t x, std::int64_t y, std::int64_t z) {
  std::uint64_t h = mix64(seed ^ static_cast<std::uint64_t>(x));
  h = mix64(h ^ static_cast<std::uint64_t>(y));
  h = mix64(h ^ static_cast<std::uint64_t>(z));
  return static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;  // 53 bits
}

/// Perlin's quintic fade (2002): zero first and second derivatives at the lattice points, so
/// the blended noise has no creases along lattice lines.
double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }

double lerp(double a, double b, double t) { return a + (b - a) * t; }

/// A coordinate in lattice units: the lattice line at or below it and the faded offset from it.
struct LatticeCoordinate {
  std::int64_t line;
  double blend;
};

LatticeCoordinate lattice_coordinate(double x) {
  const double below = std::floor(x);
  return {static_cast<std::int64_t>(below), fade(x - below)};
}

/// The value noise of lattice layer `y` at (x, z): the lattice values of the four corners
/// around (x, z) blended, in [-1, 1].
double layer_noise(std::uint64_t seed, LatticeCoordinate x, std::int64_t y, LatticeCoordinate z) {
  const double low = lerp(lattice_value(seed, x.line, y, z.line), lattice_value(seed, x.line + 1, y, z.line), x.blend);
  const double high =
      lerp(lattice_value(seed, x.line, y, z.line + 1), lattice_value(seed, x.line + 1, y, z.line + 1), x.blend);
  return lerp(low, high, z.blend);
}

/// 2-D value noise at (x, z) in lattice units, in [-1, 1].
double value_noise_2d(std::uint64_t seed, double x, double z) {
  return layer_noise(seed, lattice_coordinate(x), 0, lattice_coordinate(z));
}

std::uint64_t octave_seed(std::uint64_t seed, std::uint64_t stream) { return mix64(seed * 0x2545F4914F6CDD1Dull + stream); }

// Streams of the world's noise fields: each field gets its own seed derived from the world's.
constexpr std::uint64_t terrain_stream = 1;  // + octave
constexpr std::uint64_t cave_a_stream = 101;
constexpr std::uint64_t cave_b_stream = 102;

/// The highest block of the world.
int surface_limit(const VoxelWorldGeneratorOptions& options) { return std::max(0, options.size_y - 1); }

/// The highest y any ground or water block can have.
int highest_filled_y(const VoxelWorldGeneratorOptions& options) {
  const double sy = options.size_y;
  const int ground = static_cast<int>(std::ceil((options.ground_level + options.relief) * sy));
  const int water = options.water_level < 0.0 ? 0 : static_cast<int>(std::floor(options.water_level * sy));
  return std::clamp(std::max(ground, water), 0, surface_limit(options));
}

bool fraction_ok(double value) { return std::isfinite(value) && value >= 0.0 && value <= 1.0; }

std::string format_mib(std::size_t bytes) {
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return text.str();
}

/// The cave noise of one field along a column: the 3-D value noise at (x, y, z) for every y,
/// with the x-z blend of each lattice layer worked out once per column.
class CaveColumn {
 public:
  CaveColumn(std::uint64_t seed, double spacing, int x, int z, int top) : spacing_(spacing) {
    const LatticeCoordinate lx = lattice_coordinate(x / spacing);
    const LatticeCoordinate lz = lattice_coordinate(z / spacing);
    const auto layers = static_cast<std::int64_t>(std::floor(top / spacing)) + 2;
    layer_.resize(static_cast<std::size_t>(layers));
    for (std::int64_t j = 0; j < layers; ++j) layer_[static_cast<std::size_t>(j)] = layer_noise(seed, lx, j, lz);
  }
  [[nodiscard]] double at(int y) const {
    const double ly = y / spacing_;
    const double fy = std::floor(ly);
    const auto j = static_cast<std::size_t>(fy);
    return lerp(layer_[j], layer_[j + 1], fade(ly - fy));
  }

 private:
  double spacing_;
  std::vector<double> layer_;
};

}  // namespace

std::size_t estimate_generated_world_bytes(const VoxelWorldGeneratorOptions& options) {
  auto chunks = [](std::int64_t size) {
    return static_cast<std::size_t>((std::max<std::int64_t>(size, 1) + VoxelWorld::chunk_size - 1) / VoxelWorld::chunk_size);
  };
  const std::size_t columns = chunks(options.size_x) * chunks(options.size_z);
  const std::size_t layers = chunks(options.size_y);
  const std::size_t filled_layers =
      std::min(layers, static_cast<std::size_t>(highest_filled_y(options) / VoxelWorld::chunk_size) + 1);
  return columns * filled_layers * voxel_chunk_bytes_estimate + columns * layers * sizeof(std::uint32_t);
}

std::optional<std::string> voxel_generator_problem(const VoxelWorldGeneratorOptions& options) {
  if (std::optional<std::string> problem = VoxelWorld::size_problem(options.size_x, options.size_y, options.size_z))
    return problem;
  if (!fraction_ok(options.ground_level)) return "ground level must be a fraction from 0 to 1";
  if (!fraction_ok(options.relief)) return "relief must be a fraction from 0 to 1";
  if (!std::isfinite(options.feature_size) || options.feature_size < 1.0)
    return "feature size must be a finite number of blocks, at least 1";
  if (options.octaves < 1 || options.octaves > 12) return "octaves must be from 1 to 12";
  if (!fraction_ok(options.cave_width)) return "cave width must be a fraction from 0 to 1";
  if (!std::isfinite(options.cave_size) || options.cave_size < 1.0)
    return "cave size must be a finite number of blocks, at least 1";
  if (std::isnan(options.water_level) || options.water_level > 1.0)
    return "water level must be a fraction from 0 to 1, or negative for no water";
  if (const std::size_t bytes = estimate_generated_world_bytes(options); bytes > options.max_memory_bytes)
    return "world size " + std::to_string(options.size_x) + " x " + std::to_string(options.size_y) + " x " +
           std::to_string(options.size_z) + " could take " + format_mib(bytes) + ", more than the limit of " +
           format_mib(options.max_memory_bytes);
  return {};
}

int generated_surface_height(const VoxelWorldGeneratorOptions& options, int x, int z) {
  // Fractional Brownian motion: octave k has frequency 2^k / feature_size and amplitude 2^-k;
  // the sum is divided by the amplitudes' sum so that it stays in [-1, 1].
  double sum = 0.0;
  double amplitude = 1.0;
  double amplitudes = 0.0;
  double frequency = 1.0 / options.feature_size;
  for (int octave = 0; octave < options.octaves; ++octave) {
    const std::uint64_t seed = octave_seed(options.seed, terrain_stream + static_cast<std::uint64_t>(octave));
    sum += amplitude * value_noise_2d(seed, x * frequency, z * frequency);
    amplitudes += amplitude;
    amplitude *= 0.5;
    frequency *= 2.0;
  }
  const double height = (options.ground_level + options.relief * (sum / amplitudes)) * options.size_y;
  return std::clamp(static_cast<int>(std::lround(height)), 0, surface_limit(options));
}

VoxelWorld generate_voxel_world(const VoxelWorldGeneratorOptions& options) {
  if (const std::optional<std::string> problem = voxel_generator_problem(options)) throw std::invalid_argument(*problem);
  VoxelWorld world(options.size_x, options.size_y, options.size_z);
  const int water_y =
      options.water_level < 0.0 ? -1 : std::min(options.size_y - 1, static_cast<int>(std::floor(options.water_level * options.size_y)));
  const std::uint64_t cave_a_seed = octave_seed(options.seed, cave_a_stream);
  const std::uint64_t cave_b_seed = octave_seed(options.seed, cave_b_stream);
  // Column by column: each column's cave noise is blended once per lattice layer (CaveColumn),
  // and a column's blocks lie in a few chunks.
  for (int z = 0; z < options.size_z; ++z)
    for (int x = 0; x < options.size_x; ++x) {
      const int surface = generated_surface_height(options, x, z);
      world.set_block(x, 0, z, BlockKind::solid);  // bedrock
      if (options.caves && surface >= 1) {
        const CaveColumn cave_a(cave_a_seed, options.cave_size, x, z, surface);
        const CaveColumn cave_b(cave_b_seed, options.cave_size, x, z, surface);
        for (int y = 1; y <= surface; ++y)
          if (std::abs(cave_a.at(y)) >= options.cave_width || std::abs(cave_b.at(y)) >= options.cave_width)
            world.set_block(x, y, z, BlockKind::solid);
      } else {
        for (int y = 1; y <= surface; ++y) world.set_block(x, y, z, BlockKind::solid);
      }
      for (int y = surface + 1; y <= water_y; ++y) world.set_block(x, y, z, BlockKind::water);
    }
  world.forget_changes();  // building is not history
  return world;
}

}  // namespace wayfinder
