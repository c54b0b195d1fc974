#pragma once
// A world of blocks, y up, stored in chunks of 16 x 16 x 16 blocks. Only chunks holding at
// least one non-air block are stored, so a sparse world costs memory for what it holds, not
// for its bounding box (plus a table of 4 bytes per chunk position).
//
// Reading outside the world: block() returns air for any position outside the bounds, so the
// world is open on every side and has no floor below y = 0 (agents stand on blocks only).
// Searches never leave the bounds: a move whose agent would be outside is not generated.
//
// A world is built (set_block, from_function, from_array, the readers) and then read: it holds
// no search state, and any number of threads may search it at once. Edits (set_block) need
// exclusive access; each one that changes a block increments revision() and is logged
// (changes_since), and a stepped search notices an edit between its steps
// (SearchStatus::world_changed).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/change_log.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

enum class BlockKind : std::uint8_t {
  air = 0,     ///< empty: agents move through it
  solid = 1,   ///< blocks movement; agents stand on it
  water = 2,   ///< agents swim through it (when their profile allows)
  ladder = 3,  ///< climbable and not solid: agents climb it and may stand on its top
};

/// A block position (integer coordinates; y is up).
struct VoxelCoord {
  int x = 0;
  int y = 0;
  int z = 0;
  friend bool operator==(const VoxelCoord&, const VoxelCoord&) = default;
};

/// One edited block, as the world's change log records it.
struct VoxelBlockChange {
  VoxelCoord at;
  BlockKind before = BlockKind::air;  ///< the block's kind before the edit
  std::uint64_t revision = 0;         ///< the world's revision once the edit was made
};

class VoxelWorld {
 public:
  static constexpr int chunk_bits = 4;
  static constexpr int chunk_size = 1 << chunk_bits;  ///< blocks along each side of a chunk
  /// Node ids pack a position into 12 bits inside its chunk and bit fields as wide as the
  /// world's chunk counts need (see node_of), and must stay below 2^31: a world fits if the bit
  /// widths of its three chunk counts sum to at most 19, e.g. 2048 x 256 x 2048 blocks
  /// (128 x 16 x 128 chunks: 7 + 4 + 7 bits) or 4096 x 128 x 4096.
  static constexpr int max_node_bits = 31;

  /// An empty 0 x 0 x 0 world.
  VoxelWorld() = default;
  /// An all-air world of the given size. Throws std::invalid_argument unless every size is at
  /// least 1 and the world fits the node id limit (fits()).
  VoxelWorld(int size_x, int size_y, int size_z);
  /// A world is a value: a copy owns copies of every chunk (and starts with the same revision
  /// and change log), so a game can edit one copy while other threads search another.
  VoxelWorld(const VoxelWorld& other);
  VoxelWorld& operator=(const VoxelWorld& other);
  VoxelWorld(VoxelWorld&&) noexcept = default;
  VoxelWorld& operator=(VoxelWorld&&) noexcept = default;
  ~VoxelWorld() = default;

  /// No value if a world of this size can be built, otherwise why not.
  static std::optional<std::string> size_problem(std::int64_t size_x, std::int64_t size_y, std::int64_t size_z);

  /// Builds a world from `kind_at(x, y, z)`, called once for every position.
  template <class KindAt>
  static VoxelWorld from_function(int size_x, int size_y, int size_z, KindAt&& kind_at) {
    VoxelWorld world(size_x, size_y, size_z);
    for (int y = 0; y < size_y; ++y)
      for (int z = 0; z < size_z; ++z)
        for (int x = 0; x < size_x; ++x) {
          const BlockKind kind = kind_at(x, y, z);
          if (kind != BlockKind::air) world.set_block(x, y, z, kind);
        }
    world.forget_changes();  // building is not history
    return world;
  }

  /// Builds a world from an array of size_x * size_y * size_z kinds, index
  /// (y * size_z + z) * size_x + x (x varies fastest, then z, then y). Throws
  /// std::invalid_argument if the array has another length.
  static VoxelWorld from_array(int size_x, int size_y, int size_z, std::span<const BlockKind> blocks);

  [[nodiscard]] int size_x() const { return size_x_; }
  [[nodiscard]] int size_y() const { return size_y_; }
  [[nodiscard]] int size_z() const { return size_z_; }
  [[nodiscard]] std::uint64_t block_count() const {
    return static_cast<std::uint64_t>(size_x_) * static_cast<std::uint64_t>(size_y_) * static_cast<std::uint64_t>(size_z_);
  }
  [[nodiscard]] bool contains(int x, int y, int z) const {
    return static_cast<unsigned>(x) < static_cast<unsigned>(size_x_) &&
           static_cast<unsigned>(y) < static_cast<unsigned>(size_y_) &&
           static_cast<unsigned>(z) < static_cast<unsigned>(size_z_);
  }
  [[nodiscard]] bool contains(VoxelCoord at) const { return contains(at.x, at.y, at.z); }

  /// The block at a position; air outside the world.
  [[nodiscard]] WAYFINDER_FORCE_INLINE BlockKind block(int x, int y, int z) const {
    if (!contains(x, y, z)) return BlockKind::air;
    const std::uint32_t slot = chunk_slots_[chunk_index(x, y, z)];
    if (slot == 0) return BlockKind::air;
    return static_cast<BlockKind>(chunks_[slot - 1]->blocks[local_index(x, y, z)]);
  }
  [[nodiscard]] BlockKind block(VoxelCoord at) const { return block(at.x, at.y, at.z); }
  [[nodiscard]] bool solid(int x, int y, int z) const { return block(x, y, z) == BlockKind::solid; }

  /// Sets one block. Throws std::out_of_range outside the world. Setting a block to the kind it
  /// has changes nothing (no revision, no log entry).
  void set_block(int x, int y, int z, BlockKind kind);
  void set_block(VoxelCoord at, BlockKind kind) { set_block(at.x, at.y, at.z, kind); }

  /// Incremented by every set_block that changes a block; 0 for a world just built or read.
  [[nodiscard]] std::uint64_t revision() const { return changes_.revision(); }
  /// The blocks changed after `revision`, oldest first, or nullopt when the log (the latest
  /// ChangeLog::limit changes) does not reach back that far. Valid until the next edit.
  [[nodiscard]] std::optional<std::span<const VoxelBlockChange>> changes_since(std::uint64_t revision) const {
    return changes_.since(revision);
  }
  /// Empties the change log and restarts the revision at 0 (the builders and readers do this
  /// once the world is built). Never call it while a query is stepping on the world.
  void forget_changes() { changes_.clear(); }

  /// Solid-or-outside bits of the blocks (x - 1, y, z), (x, y, z), (x + 1, y, z) as bits 0, 1,
  /// 2. Positions outside the world count as solid here, which keeps searches inside it.
  [[nodiscard]] WAYFINDER_FORCE_INLINE std::uint32_t blocked_triplet(int x, int y, int z) const {
    if (!contains(x, y, z)) return blocked_or_outside(x - 1, y, z) | 2u | (blocked_or_outside(x + 1, y, z) << 2);
    const std::uint32_t slot = chunk_slots_[chunk_index(x, y, z)];
    if (slot != 0) return (chunks_[slot - 1]->padded_rows[padded_row_index(y, z)] >> (x & (chunk_size - 1))) & 7u;
    const int local_x = x & (chunk_size - 1);
    if (local_x >= 1 && local_x <= chunk_size - 2 && x + 1 < size_x_) return 0u;  // an absent chunk is all air
    return blocked_or_outside(x - 1, y, z) | (blocked_or_outside(x + 1, y, z) << 2);
  }

  /// Solid-or-outside bits of the 3 x 3 x 3 blocks around (x, y, z): bit
  /// (dy + 1) * 9 + (dz + 1) * 3 + (dx + 1) for the block (x + dx, y + dy, z + dz).
  [[nodiscard]] WAYFINDER_FORCE_INLINE std::uint32_t blocked_neighbourhood(int x, int y, int z) const {
    if (contains(x, y, z)) {
      const std::uint32_t slot = chunk_slots_[chunk_index(x, y, z)];
      if (slot != 0) {
        // A stored chunk keeps its rows with one block of its neighbours on every side: the 27
        // bits are 9 row reads whatever the position inside the chunk.
        const std::uint32_t* rows = chunks_[slot - 1]->padded_rows + padded_row_index(y, z) - padded_size - 1;
        const int shift = x & (chunk_size - 1);
        std::uint32_t bits = 0;
        for (int dy = 0; dy <= 2; ++dy)
          for (int dz = 0; dz <= 2; ++dz)
            bits |= ((rows[dy * padded_size + dz] >> shift) & 7u) << (dy * 9 + dz * 3);
        return bits;
      }
      // Inside an absent (all-air) chunk, away from its faces.
      constexpr unsigned interior = chunk_size - 2;
      if (static_cast<unsigned>((x & (chunk_size - 1)) - 1) < interior &&
          static_cast<unsigned>((y & (chunk_size - 1)) - 1) < interior &&
          static_cast<unsigned>((z & (chunk_size - 1)) - 1) < interior && x + 1 < size_x_ && y + 1 < size_y_ &&
          z + 1 < size_z_)
        return 0u;
    }
    std::uint32_t bits = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) bits |= blocked_triplet(x, y + dy, z + dz) << ((dy + 1) * 9 + (dz + 1) * 3);
    return bits;
  }

  // Node ids pack a position chunk by chunk: the low 12 bits are the position inside its
  // chunk (x, then z, then y, 4 bits each), the bits above the chunk's (x, z, y) position. A
  // search's records for one chunk so lie together (PagedSearchContext pages are 4096 ids), so
  // the records of an explored region stay close in memory whatever the world's shape.
  [[nodiscard]] std::size_t node_count() const { return std::size_t{1} << (local_bits + chunk_x_bits_ + chunk_y_bits_ + chunk_z_bits_); }
  /// The x part of a node id (node_of is x_part | y_part | z_part).
  [[nodiscard]] WAYFINDER_FORCE_INLINE NodeId x_part(int x) const {
    return (static_cast<NodeId>(x) & 15u) | ((static_cast<NodeId>(x) >> chunk_bits) << local_bits);
  }
  [[nodiscard]] WAYFINDER_FORCE_INLINE NodeId z_part(int z) const {
    return ((static_cast<NodeId>(z) & 15u) << 4) | ((static_cast<NodeId>(z) >> chunk_bits) << (local_bits + chunk_x_bits_));
  }
  [[nodiscard]] WAYFINDER_FORCE_INLINE NodeId y_part(int y) const {
    return ((static_cast<NodeId>(y) & 15u) << 8) |
           ((static_cast<NodeId>(y) >> chunk_bits) << (local_bits + chunk_x_bits_ + chunk_z_bits_));
  }
  [[nodiscard]] WAYFINDER_FORCE_INLINE NodeId node_of(int x, int y, int z) const { return x_part(x) | y_part(y) | z_part(z); }
  [[nodiscard]] NodeId node_of(VoxelCoord at) const { return node_of(at.x, at.y, at.z); }
  [[nodiscard]] WAYFINDER_FORCE_INLINE VoxelCoord coord_of(NodeId node) const {
    const NodeId chunk = node >> local_bits;
    const NodeId x = (node & 15u) | ((chunk & chunk_x_mask_) << chunk_bits);
    const NodeId z = ((node >> 4) & 15u) | (((chunk >> chunk_x_bits_) & chunk_z_mask_) << chunk_bits);
    const NodeId y = ((node >> 8) & 15u) | ((chunk >> (chunk_x_bits_ + chunk_z_bits_)) << chunk_bits);
    return {static_cast<int>(x), static_cast<int>(y), static_cast<int>(z)};
  }

  /// True if the 3 x 3 x 3 blocks around the node's position lie inside its chunk (they may
  /// still be outside the world, for a world whose size is not a multiple of the chunk size).
  /// Their ids are then the node's id plus dx + 16 dz + 256 dy.
  [[nodiscard]] WAYFINDER_FORCE_INLINE static bool inside_chunk_interior(NodeId node) {
    constexpr NodeId interior = chunk_size - 2;
    return ((node & 15u) - 1u) < interior && (((node >> 4) & 15u) - 1u) < interior && (((node >> 8) & 15u) - 1u) < interior;
  }

  /// Chunks that hold at least one non-air block.
  [[nodiscard]] std::size_t stored_chunk_count() const { return chunks_.size(); }
  /// Bytes used by the stored chunks and the chunk table.
  [[nodiscard]] std::size_t memory_bytes() const;
  /// Non-air blocks.
  [[nodiscard]] std::uint64_t filled_block_count() const;
  /// How many blocks of each kind the world holds, indexed by BlockKind (air, solid, water,
  /// ladder); they add up to block_count(). Reads the stored chunks only.
  [[nodiscard]] std::array<std::uint64_t, 4> block_counts() const;
  /// The highest non-air block of column (x, z), or -1 if it has none.
  [[nodiscard]] int top_block(int x, int z) const;

 private:
  static constexpr int padded_size = chunk_size + 2;
  struct Chunk {
    std::uint8_t blocks[chunk_size * chunk_size * chunk_size];  ///< BlockKind, index local_index()
    /// Solid-or-outside bits of the chunk's rows and of the one block around it on every side:
    /// row (ly, lz) for ly, lz from -1 to 16 at padded_row_index, bit lx + 1 for lx from -1 to 16.
    std::uint32_t padded_rows[padded_size * padded_size];
    std::uint32_t filled = 0;  ///< non-air blocks
  };

  [[nodiscard]] WAYFINDER_FORCE_INLINE std::size_t chunk_index(int x, int y, int z) const {
    return (static_cast<std::size_t>(y >> chunk_bits) * chunks_z_ + static_cast<std::size_t>(z >> chunk_bits)) * chunks_x_ +
           static_cast<std::size_t>(x >> chunk_bits);
  }
  [[nodiscard]] WAYFINDER_FORCE_INLINE static std::size_t local_index(int x, int y, int z) {
    constexpr int mask = chunk_size - 1;
    return static_cast<std::size_t>((((y & mask) << chunk_bits | (z & mask)) << chunk_bits) | (x & mask));
  }
  /// The padded row of (y, z) in the chunk holding it.
  [[nodiscard]] WAYFINDER_FORCE_INLINE static std::size_t padded_row_index(int y, int z) {
    constexpr int mask = chunk_size - 1;
    return static_cast<std::size_t>(((y & mask) + 1) * padded_size + (z & mask) + 1);
  }
  /// Sets the bit of (x, y, z) in the padded rows of every stored chunk whose padded box holds it.
  void set_padded_bit(int x, int y, int z, bool blocked);
  /// Fills the padded rows of a new chunk at chunk position (cx, cy, cz) from the world around it.
  void fill_padded_rows(Chunk& chunk, int cx, int cy, int cz) const;
  [[nodiscard]] std::uint32_t blocked_or_outside(int x, int y, int z) const {
    return !contains(x, y, z) || block(x, y, z) == BlockKind::solid ? 1u : 0u;
  }

  int size_x_ = 0;
  int size_y_ = 0;
  int size_z_ = 0;
  static constexpr int local_bits = 3 * chunk_bits;
  int chunk_x_bits_ = 0;
  int chunk_y_bits_ = 0;
  int chunk_z_bits_ = 0;
  NodeId chunk_x_mask_ = 0;
  NodeId chunk_z_mask_ = 0;
  std::size_t chunks_x_ = 0;
  std::size_t chunks_z_ = 0;
  std::vector<std::uint32_t> chunk_slots_;  ///< per chunk position: 0 absent, else index + 1 in chunks_
  std::vector<std::unique_ptr<Chunk>> chunks_;
  ChangeLog<VoxelBlockChange> changes_;
};

}  // namespace wayfinder
