#include "wayfinder/voxel/voxel_world.hpp"

#include <bit>
#include <stdexcept>
#include <utility>

namespace wayfinder {

namespace {

int bits_for(std::int64_t size) {
  return size <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(size - 1)));
}

}  // namespace

std::optional<std::string> VoxelWorld::size_problem(std::int64_t size_x, std::int64_t size_y, std::int64_t size_z) {
  if (size_x < 1 || size_y < 1 || size_z < 1)
    return "world size " + std::to_string(size_x) + " x " + std::to_string(size_y) + " x " + std::to_string(size_z) +
           " must be at least 1 in every direction";
  constexpr std::int64_t largest_side = (std::int64_t{1} << max_node_bits) - 1;
  if (size_x > largest_side || size_y > largest_side || size_z > largest_side)
    return "world size " + std::to_string(size_x) + " x " + std::to_string(size_y) + " x " + std::to_string(size_z) +
           " is too large";
  auto chunks = [](std::int64_t size) { return (size + chunk_size - 1) / chunk_size; };
  const int bits = 3 * chunk_bits + bits_for(chunks(size_x)) + bits_for(chunks(size_y)) + bits_for(chunks(size_z));
  if (bits > max_node_bits)
    return "world size " + std::to_string(size_x) + " x " + std::to_string(size_y) + " x " + std::to_string(size_z) +
           " is too large: its chunk counts rounded up to powers of two must multiply to at most 2^19 chunks";
  return {};
}

VoxelWorld::VoxelWorld(const VoxelWorld& other)
    : size_x_(other.size_x_),
      size_y_(other.size_y_),
      size_z_(other.size_z_),
      chunk_x_bits_(other.chunk_x_bits_),
      chunk_y_bits_(other.chunk_y_bits_),
      chunk_z_bits_(other.chunk_z_bits_),
      chunk_x_mask_(other.chunk_x_mask_),
      chunk_z_mask_(other.chunk_z_mask_),
      chunks_x_(other.chunks_x_),
      chunks_z_(other.chunks_z_),
      chunk_slots_(other.chunk_slots_),
      changes_(other.changes_) {
  chunks_.reserve(other.chunks_.size());
  for (const auto& chunk : other.chunks_) chunks_.push_back(std::make_unique<Chunk>(*chunk));
}

VoxelWorld& VoxelWorld::operator=(const VoxelWorld& other) {
  if (this != &other) {
    VoxelWorld copy(other);
    *this = std::move(copy);
  }
  return *this;
}

VoxelWorld::VoxelWorld(int size_x, int size_y, int size_z) {
  if (const std::optional<std::string> problem = size_problem(size_x, size_y, size_z))
    throw std::invalid_argument(*problem);
  size_x_ = size_x;
  size_y_ = size_y;
  size_z_ = size_z;
  chunks_x_ = static_cast<std::size_t>((size_x + chunk_size - 1) / chunk_size);
  chunks_z_ = static_cast<std::size_t>((size_z + chunk_size - 1) / chunk_size);
  const auto chunks_y = static_cast<std::size_t>((size_y + chunk_size - 1) / chunk_size);
  chunk_x_bits_ = bits_for(static_cast<std::int64_t>(chunks_x_));
  chunk_y_bits_ = bits_for(static_cast<std::int64_t>(chunks_y));
  chunk_z_bits_ = bits_for(static_cast<std::int64_t>(chunks_z_));
  chunk_x_mask_ = (NodeId{1} << chunk_x_bits_) - 1;
  chunk_z_mask_ = (NodeId{1} << chunk_z_bits_) - 1;
  chunk_slots_.assign(chunks_x_ * chunks_z_ * chunks_y, 0);
}

VoxelWorld VoxelWorld::from_array(int size_x, int size_y, int size_z, std::span<const BlockKind> blocks) {
  VoxelWorld world(size_x, size_y, size_z);
  if (blocks.size() != world.block_count())
    throw std::invalid_argument("block array has " + std::to_string(blocks.size()) + " entries, the world " +
                                std::to_string(world.block_count()));
  std::size_t index = 0;
  for (int y = 0; y < size_y; ++y)
    for (int z = 0; z < size_z; ++z)
      for (int x = 0; x < size_x; ++x) {
        const BlockKind kind = blocks[index++];
        if (kind != BlockKind::air) world.set_block(x, y, z, kind);
      }
  world.forget_changes();  // building is not history
  return world;
}

void VoxelWorld::set_block(int x, int y, int z, BlockKind kind) {
  if (!contains(x, y, z))
    throw std::out_of_range("block (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) +
                            ") is outside the world");
  if (static_cast<unsigned>(kind) > static_cast<unsigned>(BlockKind::ladder))
    throw std::invalid_argument("unknown block kind " + std::to_string(static_cast<unsigned>(kind)));
  const BlockKind before = block(x, y, z);
  if (before == kind) return;  // no change: no revision
  changes_.record({{x, y, z}, before});
  changes_.commit();
  std::uint32_t& slot = chunk_slots_[chunk_index(x, y, z)];
  if (slot == 0) {
    chunks_.push_back(std::make_unique<Chunk>());
    Chunk& chunk = *chunks_.back();
    std::fill(std::begin(chunk.blocks), std::end(chunk.blocks), std::uint8_t{0});
    fill_padded_rows(chunk, x >> chunk_bits, y >> chunk_bits, z >> chunk_bits);
    slot = static_cast<std::uint32_t>(chunks_.size());
  }
  Chunk& chunk = *chunks_[slot - 1];
  std::uint8_t& stored = chunk.blocks[local_index(x, y, z)];
  if (stored == 0 && kind != BlockKind::air) ++chunk.filled;
  if (stored != 0 && kind == BlockKind::air) --chunk.filled;
  const bool was_solid = stored == static_cast<std::uint8_t>(BlockKind::solid);
  stored = static_cast<std::uint8_t>(kind);
  if (was_solid != (kind == BlockKind::solid)) set_padded_bit(x, y, z, kind == BlockKind::solid);
}

void VoxelWorld::set_padded_bit(int x, int y, int z, bool blocked) {
  // The chunks whose padded box holds (x, y, z): its own, and along each axis the neighbour
  // it borders when it lies on a face.
  auto neighbours = [](int v) {
    const int local = v & (chunk_size - 1);
    return std::pair<int, int>{local == 0 ? -1 : 0, local == chunk_size - 1 ? 1 : 0};
  };
  const auto [x_low, x_high] = neighbours(x);
  const auto [y_low, y_high] = neighbours(y);
  const auto [z_low, z_high] = neighbours(z);
  for (int dy = y_low; dy <= y_high; ++dy)
    for (int dz = z_low; dz <= z_high; ++dz)
      for (int dx = x_low; dx <= x_high; ++dx) {
        const int cx = (x >> chunk_bits) + dx;
        const int cy = (y >> chunk_bits) + dy;
        const int cz = (z >> chunk_bits) + dz;
        if (cx < 0 || cy < 0 || cz < 0 || static_cast<std::size_t>(cx) >= chunks_x_ ||
            static_cast<std::size_t>(cz) >= chunks_z_ || cy > ((size_y_ - 1) >> chunk_bits))
          continue;
        const std::uint32_t slot = chunk_slots_[chunk_index(cx << chunk_bits, cy << chunk_bits, cz << chunk_bits)];
        if (slot == 0) continue;
        // Position relative to that chunk, -1 to 16 on each axis.
        const int lx = x - (cx << chunk_bits);
        const int ly = y - (cy << chunk_bits);
        const int lz = z - (cz << chunk_bits);
        std::uint32_t& row = chunks_[slot - 1]->padded_rows[(ly + 1) * padded_size + lz + 1];
        const std::uint32_t bit = 1u << (lx + 1);
        row = blocked ? (row | bit) : (row & ~bit);
      }
}

void VoxelWorld::fill_padded_rows(Chunk& chunk, int cx, int cy, int cz) const {
  const int x0 = cx << chunk_bits;
  const int y0 = cy << chunk_bits;
  const int z0 = cz << chunk_bits;
  for (int ly = -1; ly <= chunk_size; ++ly)
    for (int lz = -1; lz <= chunk_size; ++lz) {
      std::uint32_t row = 0;
      for (int lx = -1; lx <= chunk_size; ++lx)
        row |= blocked_or_outside(x0 + lx, y0 + ly, z0 + lz) << (lx + 1);
      chunk.padded_rows[(ly + 1) * padded_size + lz + 1] = row;
    }
}

std::size_t VoxelWorld::memory_bytes() const {
  return chunks_.size() * sizeof(Chunk) + chunk_slots_.capacity() * sizeof(std::uint32_t) +
         chunks_.capacity() * sizeof(std::unique_ptr<Chunk>);
}

std::uint64_t VoxelWorld::filled_block_count() const {
  std::uint64_t count = 0;
  for (const auto& chunk : chunks_) count += chunk->filled;
  return count;
}

std::array<std::uint64_t, 4> VoxelWorld::block_counts() const {
  std::array<std::uint64_t, 4> counts{};
  for (const auto& chunk : chunks_)
    for (const std::uint8_t kind : chunk->blocks) ++counts[kind & 3u];
  // Absent chunks, and the parts of edge chunks outside the world, are air; only the stored
  // non-air blocks were counted exactly.
  counts[static_cast<std::size_t>(BlockKind::air)] = block_count() - counts[1] - counts[2] - counts[3];
  return counts;
}

int VoxelWorld::top_block(int x, int z) const {
  for (int y = size_y_ - 1; y >= 0; --y)
    if (block(x, y, z) != BlockKind::air) return y;
  return -1;
}

}  // namespace wayfinder
