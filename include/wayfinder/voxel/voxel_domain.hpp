#pragma once
// Voxel worlds as search domains for the generic engine. Node ids are the world's packed
// coordinates (VoxelWorld::node_of); the search state for them lives in a PagedSearchContext,
// allocated page by page where the search goes.
//
// VoxelFlyingDomain: 26-neighbour moves through non-solid blocks without corner cutting.
// VoxelWalkingDomain: the walk, fall, step-up, jump, swim and climb moves of a
// MovementProfile (the rules are written out in movement_profile.hpp).
// Both move an agent of one column and ignore MovementProfile::agent_width: a wider agent is
// searched by running them on its footprint world (voxel_footprint.hpp), as VoxelQuery does.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder {

/// The kinds of move a voxel path is made of.
enum class VoxelMoveKind : std::uint8_t { walk, fall, step_up, jump, swim, climb, fly };

// The flying domain leaves out closed neighbours by reading the closed flags of a
// PagedSearchContext page (ClosedFlagsSink), and finds a neighbour's flag by its position in the
// chunk. That holds only while one page is exactly one chunk (16 x 16 x 16 = 4096 consecutive
// ids, as VoxelWorld::node_of lays them out) and one 16-bit word of flags is one row of 16 blocks
// along x.
static_assert(PagedSearchContext::page_size == std::size_t{1} << (3 * VoxelWorld::chunk_bits),
              "a page of the voxel search state must hold exactly one chunk's node ids");
static_assert(VoxelWorld::chunk_size == 16, "a row of a chunk must fill one 16-bit word of closed flags");

class VoxelFlyingDomain {
 public:
  VoxelFlyingDomain(const VoxelWorld& world, Cost fly_cost) : world_(world), fly_cost_(fly_cost) {
    int direction = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          const int axes = std::abs(dx) + std::abs(dy) + std::abs(dz);
          offsets_[direction] = static_cast<NodeId>(dx + dz * VoxelWorld::chunk_size + dy * VoxelWorld::chunk_size * VoxelWorld::chunk_size);
          steps_[direction] = {static_cast<std::uint8_t>(dx + 1), static_cast<std::uint8_t>(dy + 1),
                               static_cast<std::uint8_t>(dz + 1)};
          costs_[direction] = fly_cost * (axes == 1 ? 1.0 : axes == 2 ? sqrt2 : sqrt3);
          ++direction;
        }
  }

  [[nodiscard]] std::size_t node_count() const { return world_.node_count(); }
  [[nodiscard]] const VoxelWorld& world() const { return world_; }

  template <class Sink>
  WAYFINDER_FORCE_INLINE void for_each_successor(NodeId node, Sink&& sink) const {
    const VoxelCoord at = world_.coord_of(node);
    // Solid-or-outside bits of the 3 x 3 x 3 neighbourhood, bit (dy + 1) * 9 + (dz + 1) * 3 + (dx + 1).
    const std::uint32_t blocked = world_.blocked_neighbourhood(at.x, at.y, at.z);
    // A search engine may take, with each successor, a way to get its heuristic from the
    // coordinates known here instead of decoding its id again.
    GoalDistances goal{invalid_node, false, {}};
    auto emit = [&](int d, NodeId next) WAYFINDER_FORCE_INLINE_LAMBDA {
      if constexpr (SinkTakesHeuristic<std::remove_cvref_t<Sink>, OctileFrom>)
        sink(next, costs_[d], OctileFrom{this, &at, d, &goal});
      else
        sink(next, costs_[d]);
    };
    if (world_.inside_chunk_interior(node)) {
      // The whole neighbourhood lies in the node's chunk: neighbour ids are fixed offsets.
      std::uint32_t allowed = blocked == 0 ? all_directions : open_directions(blocked);  // bit d: direction d is open
      if constexpr (ClosedFlagsSink<std::remove_cvref_t<Sink>>) {
        // A search that keeps closed flags by id lets expanded neighbours be left out: their
        // cost is final, relaxing them would change nothing. The flags come in 16-bit words, one
        // per row of a chunk (a page of the search state holds a chunk's 4096 ids).
        if (const std::uint16_t* words = sink.closed_words(node)) {
          const NodeId local = node & (chunk_ids - 1);
          const std::uint16_t* rows = words + (local >> VoxelWorld::chunk_bits) - VoxelWorld::chunk_size - 1;
          const int shift = static_cast<int>(local & (VoxelWorld::chunk_size - 1)) - 1;
          std::uint32_t closed = 0;  // bits laid out like `blocked`
          for (int dy = 0; dy <= 2; ++dy)
            for (int dz = 0; dz <= 2; ++dz)
              closed |= ((static_cast<std::uint32_t>(rows[dy * VoxelWorld::chunk_size + dz]) >> shift) & 7u) << (dy * 9 + dz * 3);
          // Neighbour bits run like direction numbers, but with the centre (bit 13) in between.
          const std::uint32_t closed_directions = ((closed & 0x1FFFu) | ((closed >> 1) & ~0x1FFFu)) & allowed;
          sink.skipped(bit_count(closed_directions));
          allowed &= ~closed_directions;
        }
      }
      while (allowed != 0) {
        const int d = std::countr_zero(allowed);
        allowed &= allowed - 1;
        emit(d, node + offsets_[d]);
      }
      return;
    }
    // A neighbour's id is the OR of its x, y and z parts, three of each around the node.
    // Parts of positions outside the world are garbage but never used: those moves are blocked.
    const NodeId xs[3] = {world_.x_part(at.x - 1), world_.x_part(at.x), world_.x_part(at.x + 1)};
    const NodeId ys[3] = {world_.y_part(at.y - 1), world_.y_part(at.y), world_.y_part(at.y + 1)};
    const NodeId zs[3] = {world_.z_part(at.z - 1), world_.z_part(at.z), world_.z_part(at.z + 1)};
    for (std::uint32_t allowed = open_directions(blocked); allowed != 0; allowed &= allowed - 1) {
      const int d = std::countr_zero(allowed);
      emit(d, xs[steps_[d][0]] | ys[steps_[d][1]] | zs[steps_[d][2]]);
    }
  }

  /// The open directions (bit d: direction d, numbered like the neighbour bits with the centre
  /// left out) of a node whose 3 x 3 x 3 neighbourhood has the solid-or-outside bits `blocked`
  /// (bit (dy + 1) * 9 + (dz + 1) * 3 + (dx + 1)). A move is open when no block of the box it
  /// spans is blocked (no corner cutting). The box is a product of one interval per axis, each
  /// reaching from the centre to the move's step, so "some block of the box is blocked" spreads
  /// the centre layer's bits outwards one axis at a time: three shifts and ORs instead of a test
  /// per direction.
  [[nodiscard]] WAYFINDER_FORCE_INLINE static constexpr std::uint32_t open_directions(std::uint32_t blocked) {
    constexpr std::uint32_t centre_x = 0x2492492u;  // bits with dx = 0
    constexpr std::uint32_t centre_z = 0xE07038u;   // bits with dz = 0
    constexpr std::uint32_t centre_y = 0x3FE00u;    // bits with dy = 0
    std::uint32_t spread = blocked | ((blocked & centre_x) << 1) | ((blocked & centre_x) >> 1);
    spread |= ((spread & centre_z) << 3) | ((spread & centre_z) >> 3);
    spread |= ((spread & centre_y) << 9) | ((spread & centre_y) >> 9);
    const std::uint32_t open = ~spread;
    return ((open & 0x1FFFu) | ((open >> 1) & ~0x1FFFu)) & all_directions;
  }

  /// The 3D octile distance: the cost of the cheapest move sequence in open space.
  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost heuristic(NodeId from, NodeId to) const {
    const VoxelCoord a = world_.coord_of(from);
    return octile(a.x, a.y, a.z, world_.coord_of(to));
  }

  /// The kind and cost of a move from one node to the next, or a negative cost if there is none.
  [[nodiscard]] std::pair<VoxelMoveKind, Cost> classify_move(NodeId from, NodeId to) const {
    Cost best = -1.0;
    for_each_successor(from, [&](NodeId next, Cost cost) {
      if (next == to && (best < 0.0 || cost < best)) best = cost;
    });
    return {VoxelMoveKind::fly, best};
  }

 private:
  static constexpr double sqrt3 = 1.73205080756887729353;
  static constexpr std::uint32_t all_directions = (1u << 26) - 1;
  static constexpr NodeId chunk_ids = NodeId{1} << (3 * VoxelWorld::chunk_bits);

  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost octile(int x, int y, int z, VoxelCoord b) const {
    return octile_of_distances(std::abs(x - b.x), std::abs(y - b.y), std::abs(z - b.z));
  }
  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost octile_of_distances(int dx, int dy, int dz) const {
    const int low = std::min(std::min(dx, dy), dz);
    const int high = std::max(std::max(dx, dy), dz);
    const int middle = dx + dy + dz - low - high;
    return fly_cost_ * (sqrt3 * low + sqrt2 * (middle - low) + (high - middle));
  }

  static constexpr std::uint64_t bit_count(std::uint32_t bits) {
    bits = bits - ((bits >> 1) & 0x55555555u);
    bits = (bits & 0x33333333u) + ((bits >> 2) & 0x33333333u);
    return (((bits + (bits >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
  }

  /// The distances along each axis from the neighbours of one node to a goal: distance[axis][k]
  /// for the neighbours at offset k - 1. Filled by the first heuristic asked for while the
  /// node's successors are generated.
  struct GoalDistances {
    NodeId goal;
    bool known;
    int distance[3][3];
  };

  /// heuristic(successor, goal) for a successor of a node whose coordinates are known.
  struct OctileFrom {
    const VoxelFlyingDomain* domain;
    const VoxelCoord* from;  ///< the expanded node
    int direction;
    GoalDistances* distances;
    WAYFINDER_FORCE_INLINE Cost operator()(NodeId goal) const {
      if (!distances->known || goal != distances->goal) {
        const VoxelCoord to = domain->world_.coord_of(goal);
        distances->goal = goal;
        distances->known = true;
        for (int k = 0; k < 3; ++k) {
          distances->distance[0][k] = std::abs(from->x + k - 1 - to.x);
          distances->distance[1][k] = std::abs(from->y + k - 1 - to.y);
          distances->distance[2][k] = std::abs(from->z + k - 1 - to.z);
        }
      }
      const auto& step = domain->steps_[direction];
      return domain->octile_of_distances(distances->distance[0][step[0]], distances->distance[1][step[1]],
                                         distances->distance[2][step[2]]);
    }
  };

  const VoxelWorld& world_;
  Cost fly_cost_;
  std::array<NodeId, 26> offsets_{};  ///< id difference of each direction inside one chunk
  std::array<std::array<std::uint8_t, 3>, 26> steps_{};  ///< (dx, dy, dz) + 1 of each direction
  std::array<Cost, 26> costs_{};
};

class VoxelWalkingDomain {
 public:
  VoxelWalkingDomain(const VoxelWorld& world, const MovementProfile& profile) : world_(world), profile_(profile) {
    const Cost straight = profile.swim ? std::min(profile.walk_cost, profile.swim_cost) : profile.walk_cost;
    const Cost diagonal = profile.walk_directions == 8 ? std::min(profile.diagonal_cost, 2.0 * straight) : 2.0 * straight;
    Cost vertical = std::min(profile.fall_cost, profile.step_up_cost);
    if (profile.climb) vertical = std::min(vertical, profile.climb_cost);
    if (profile.swim) vertical = std::min(vertical, profile.swim_cost);
    straight_unit_ = straight;
    diagonal_unit_ = diagonal;
    vertical_unit_ = vertical;
  }

  [[nodiscard]] std::size_t node_count() const { return world_.node_count(); }
  [[nodiscard]] const VoxelWorld& world() const { return world_; }
  [[nodiscard]] const MovementProfile& profile() const { return profile_; }

  /// True if the agent can be at `at`: inside the world, every block of its body non-solid (and
  /// not water unless it swims), and held (standing, climbing or swimming).
  [[nodiscard]] bool can_be_at(VoxelCoord at) const {
    return world_.contains(at) && band_clear(at.x, at.z, at.y, at.y + profile_.agent_height - 1) && held(at.x, at.y, at.z);
  }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    generate(node, [&](NodeId next, Cost cost, VoxelMoveKind) { sink(next, cost); });
  }

  /// A lower bound that no sequence of moves beats: horizontal octile distance at the cheapest
  /// horizontal costs plus the height difference at the cheapest cost per block of height.
  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost heuristic(NodeId from, NodeId to) const {
    const VoxelCoord a = world_.coord_of(from);
    const VoxelCoord b = world_.coord_of(to);
    const int dx = std::abs(a.x - b.x);
    const int dz = std::abs(a.z - b.z);
    const int low = std::min(dx, dz);
    const int high = std::max(dx, dz);
    return diagonal_unit_ * low + straight_unit_ * (high - low) + vertical_unit_ * std::abs(a.y - b.y);
  }

  [[nodiscard]] std::pair<VoxelMoveKind, Cost> classify_move(NodeId from, NodeId to) const {
    Cost best = -1.0;
    VoxelMoveKind kind = VoxelMoveKind::walk;
    generate(from, [&](NodeId next, Cost cost, VoxelMoveKind move) {
      if (next == to && (best < 0.0 || cost < best)) {
        best = cost;
        kind = move;
      }
    });
    return {kind, best};
  }

  /// Every move from `node`, as emit(next, cost, kind).
  template <class Emit>
  void generate(NodeId node, Emit&& emit) const {
    const VoxelCoord at = world_.coord_of(node);
    const int x = at.x;
    const int y = at.y;
    const int z = at.z;
    const BlockKind feet = world_.block(x, y, z);
    const BlockKind below = world_.block(x, y - 1, z);
    if (profile_.swim && feet == BlockKind::water) {
      swim_moves(x, y, z, emit);
      // Out onto a ledge: a step up where the agent cannot swim straight over.
      for (int d = 0; d < 4; ++d) {
        const int dx = directions_[d][0];
        const int dz = directions_[d][1];
        if (!band_clear(x + dx, z + dz, y, y + profile_.agent_height - 1))
          step_up(x, y, z, dx, dz, profile_.walk_cost, emit);
      }
    } else {
      const int direction_count = profile_.walk_directions == 8 ? 8 : 4;
      for (int d = 0; d < direction_count; ++d) walk_moves(x, y, z, directions_[d][0], directions_[d][1], emit);
      if (below == BlockKind::solid && profile_.jump_height > 0)
        for (int d = 0; d < 4; ++d) jump_moves(x, y, z, directions_[d][0], directions_[d][1], emit);
    }
    if (profile_.climb) {
      const int head = y + profile_.agent_height;
      if (feet == BlockKind::ladder && y + 1 < world_.size_y() && clear(x, head, z))
        emit(world_.node_of(x, y + 1, z), profile_.climb_cost, VoxelMoveKind::climb);
      if (below == BlockKind::ladder)  // the block below is inside the world (block() is air outside)
        emit(world_.node_of(x, y - 1, z), profile_.climb_cost, VoxelMoveKind::climb);
    }
  }

 private:
  /// Cardinal directions first (jumps and swimmers use only those), then the diagonals.
  static constexpr int directions_[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

  /// A block the agent's body may occupy.
  [[nodiscard]] WAYFINDER_FORCE_INLINE bool clear(int x, int y, int z) const {
    const BlockKind kind = world_.block(x, y, z);
    return kind != BlockKind::solid && (kind != BlockKind::water || profile_.swim);
  }
  [[nodiscard]] bool band_clear(int x, int z, int from_y, int to_y) const {
    for (int y = from_y; y <= to_y; ++y)
      if (!clear(x, y, z)) return false;
    return true;
  }
  /// Standing on a solid block or a ladder's top, climbing a ladder, or swimming.
  [[nodiscard]] bool held(int x, int y, int z) const {
    const BlockKind feet = world_.block(x, y, z);
    if (feet == BlockKind::water) return profile_.swim;
    if (feet == BlockKind::ladder && profile_.climb) return true;
    const BlockKind below = world_.block(x, y - 1, z);
    return below == BlockKind::solid || below == BlockKind::ladder;
  }
  [[nodiscard]] bool column_inside(int x, int z) const {
    return static_cast<unsigned>(x) < static_cast<unsigned>(world_.size_x()) &&
           static_cast<unsigned>(z) < static_cast<unsigned>(world_.size_z());
  }

  template <class Emit>
  void walk_moves(int x, int y, int z, int dx, int dz, Emit& emit) const {
    const int nx = x + dx;
    const int nz = z + dz;
    if (!column_inside(nx, nz)) return;
    const int top = y + profile_.agent_height - 1;
    const bool diagonal = dx != 0 && dz != 0;
    if (diagonal && (!band_clear(nx, z, y, top) || !band_clear(x, nz, y, top))) return;
    const Cost horizontal = diagonal ? profile_.diagonal_cost : profile_.walk_cost;
    if (band_clear(nx, nz, y, top)) {
      // Walk across, then drop until held (a drop of 0 is a plain walk).
      for (int drop = 0; drop <= profile_.max_fall && y - drop >= 0; ++drop) {
        const int ny = y - drop;
        if (drop > 0 && !clear(nx, ny, nz)) return;
        if (held(nx, ny, nz)) {
          emit(world_.node_of(nx, ny, nz), horizontal + profile_.fall_cost * drop,
               drop == 0 ? VoxelMoveKind::walk : VoxelMoveKind::fall);
          return;
        }
      }
      return;
    }
    step_up(x, y, z, dx, dz, horizontal, emit);
  }

  template <class Emit>
  void step_up(int x, int y, int z, int dx, int dz, Cost horizontal, Emit& emit) const {
    const int nx = x + dx;
    const int nz = z + dz;
    if (!column_inside(nx, nz)) return;
    const int height = profile_.agent_height;
    const bool diagonal = dx != 0 && dz != 0;
    for (int rise = 1; rise <= profile_.step_height && y + rise < world_.size_y(); ++rise) {
      // The agent rises in its own column (and beside it, for a diagonal) before moving over.
      const int head = y + rise + height - 1;
      if (!clear(x, head, z)) return;
      if (diagonal && (!clear(nx, head, z) || !clear(x, head, nz))) return;
      if (world_.block(nx, y + rise - 1, nz) != BlockKind::solid) continue;
      if (band_clear(nx, nz, y + rise, head) && held(nx, y + rise, nz)) {
        emit(world_.node_of(nx, y + rise, nz), horizontal + profile_.step_up_cost * rise, VoxelMoveKind::step_up);
        return;
      }
    }
  }

  template <class Emit>
  void jump_moves(int x, int y, int z, int dx, int dz, Emit& emit) const {
    const int height = profile_.agent_height;
    const int apex = y + profile_.jump_height;
    if (apex >= world_.size_y()) return;
    if (!band_clear(x, z, y + height, apex + height - 1)) return;  // room to rise
    // A jump across a column where the agent could stand and jump the same jump again is left
    // to a walk and that jump: they land in the same place for the same cost.
    const bool next_walkable = column_inside(x + dx, z + dz) && band_clear(x + dx, z + dz, y, apex + height - 1) &&
                               world_.block(x + dx, y - 1, z + dz) == BlockKind::solid;
    const int farthest = next_walkable ? 1 : profile_.jump_distance + 1;
    for (int k = 1; k <= farthest; ++k) {
      const int cx = x + k * dx;
      const int cz = z + k * dz;
      if (!column_inside(cx, cz) || !band_clear(cx, cz, apex, apex + height - 1)) return;
      // Drop from the apex onto the first place that holds the agent.
      for (int ny = apex; ny >= 0 && ny >= y - profile_.max_fall; --ny) {
        if (ny < apex && !clear(cx, ny, cz)) break;
        if (held(cx, ny, cz)) {
          // A one-column jump that does not end higher lands where walking off does, for less.
          if (k >= 2 || ny > y) {
            const Cost vertical = ny > y ? profile_.step_up_cost * (ny - y) : profile_.fall_cost * (y - ny);
            emit(world_.node_of(cx, ny, cz), profile_.walk_cost * k + profile_.jump_cost + vertical,
                 VoxelMoveKind::jump);
          }
          break;
        }
      }
    }
  }

  template <class Emit>
  void swim_moves(int x, int y, int z, Emit& emit) const {
    static constexpr int steps[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}, {0, -1, 0}};
    for (const auto& step : steps) {
      const VoxelCoord next{x + step[0], y + step[1], z + step[2]};
      if (can_be_at(next)) emit(world_.node_of(next.x, next.y, next.z), profile_.swim_cost, VoxelMoveKind::swim);
    }
  }

  const VoxelWorld& world_;
  MovementProfile profile_;
  Cost straight_unit_ = 1.0;
  Cost diagonal_unit_ = sqrt2;
  Cost vertical_unit_ = 0.5;
};

static_assert(Domain<VoxelFlyingDomain>);
static_assert(Domain<VoxelWalkingDomain>);

}  // namespace wayfinder
