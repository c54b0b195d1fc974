#include "wayfinder/voxel/voxel_jump_point_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <bit>
#include <cstdlib>

namespace wayfinder {

namespace {

constexpr double sqrt3 = 1.73205080756887729353;

// Directions are numbered like the bits of VoxelWorld::blocked_neighbourhood: (dy + 1) * 9 +
// (dz + 1) * 3 + (dx + 1); 13, the centre, is no direction.
constexpr int centre = 13;
constexpr int index_of(int dx, int dy, int dz) { return (dy + 1) * 9 + (dz + 1) * 3 + (dx + 1); }
constexpr int sign(int value) { return (value > 0) - (value < 0); }

struct Rule {
  int out;             ///< the pruned move e
  std::uint32_t need;  ///< blocks (neighbourhood bits) that the replacement needs beyond d's and e's own
};

struct Tables {
  std::array<std::array<int, 3>, 27> delta{};
  std::array<int, 27> axes{};
  std::array<std::uint32_t, 27> box{};  ///< blocks a move from the centre crosses, the centre included
  std::array<std::uint32_t, 27> natural{};
  std::array<std::array<int, 3>, 27> flats{};  ///< the 2D parts of a 3D diagonal
  std::array<std::array<int, 3>, 27> lines{};  ///< the straight parts of a diagonal (axes of them)
  std::array<std::vector<Rule>, 27> rules;
  std::array<std::uint32_t, 27> any_need{};

  Tables() {
    for (int d = 0; d < 27; ++d) {
      delta[d] = {d % 3 - 1, d / 9 - 1, (d / 3) % 3 - 1};
      axes[d] = std::abs(delta[d][0]) + std::abs(delta[d][1]) + std::abs(delta[d][2]);
    }
    for (int d = 0; d < 27; ++d) {
      if (d == centre) continue;
      box[d] = box_from(0, 0, 0, delta[d]);
      const auto [dx, dy, dz] = delta[d];
      natural[d] = 1u << d;
      int flat_count = 0;
      int line_count = 0;
      if (axes[d] == 3) {
        for (const int f : {index_of(dx, dy, 0), index_of(dx, 0, dz), index_of(0, dy, dz)}) {
          flats[d][flat_count++] = f;
          natural[d] |= 1u << f;
        }
      }
      if (axes[d] >= 2) {
        for (const int l : {index_of(dx, 0, 0), index_of(0, dy, 0), index_of(0, 0, dz)})
          if (l != centre) {
            lines[d][line_count++] = l;
            natural[d] |= 1u << l;
          }
      }
    }
    // The forced-successor rules: see the header. Every (d, e) with e not natural after d.
    for (int d = 0; d < 27; ++d) {
      if (d == centre) continue;
      const auto& in = delta[d];
      for (int e = 0; e < 27; ++e) {
        if (e == centre || ((natural[d] >> e) & 1u) != 0) continue;
        const auto& out = delta[e];
        const std::array<int, 3> v = {in[0] + out[0], in[1] + out[1], in[2] + out[2]};
        const int longest = std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])});
        if (longest == 0) continue;  // back where it came from: the empty path is cheaper
        // Blocks relative to n; p = n - d.
        const std::array<int, 3> p = {-in[0], -in[1], -in[2]};
        const std::uint32_t own = box_from(p[0], p[1], p[2], in) | box[e];
        std::uint32_t cells = 0;
        bool always = false;
        const Cost original = unit(axes[d]) + unit(axes[e]);
        if (longest == 1) {
          cells = box_from(p[0], p[1], p[2], v);  // one move, cheaper than any two
        } else {
          const std::array<int, 3> a = {sign(v[0]), sign(v[1]), sign(v[2])};
          const std::array<int, 3> b = {v[0] - a[0], v[1] - a[1], v[2] - a[2]};
          const int a_index = index_of(a[0], a[1], a[2]);
          const int b_index = index_of(b[0], b[1], b[2]);
          const Cost replacement = unit(axes[a_index]) + unit(axes[b_index]);
          if (replacement < original - 1e-12) {
          } else if (std::abs(replacement - original) <= 1e-12 && a_index == e && b_index == d) {
            // The same moves in canonical order (b is a part of a): equal cost, more canonical.
          } else {
            always = true;  // no replacement known: keep e whenever it is open
          }
          cells = box_from(p[0], p[1], p[2], a) | box_from(p[0] + a[0], p[1] + a[1], p[2] + a[2], b);
        }
        const std::uint32_t need = always ? ~0u : cells & ~own;
        if (need == 0) continue;  // the replacement is open whenever d and e are: e is never needed
        rules[d].push_back({e, need});
        any_need[d] |= need;
      }
    }
  }

  static Cost unit(int axis_count) { return axis_count == 1 ? 1.0 : axis_count == 2 ? sqrt2 : sqrt3; }

  /// The blocks of the box crossed by a move `m` from (x, y, z) relative to the centre.
  static std::uint32_t box_from(int x, int y, int z, const std::array<int, 3>& m) {
    std::uint32_t bits = 0;
    for (int a = std::min(0, m[0]); a <= std::max(0, m[0]); ++a)
      for (int b = std::min(0, m[1]); b <= std::max(0, m[1]); ++b)
        for (int c = std::min(0, m[2]); c <= std::max(0, m[2]); ++c) {
          const int cx = x + a;
          const int cy = y + b;
          const int cz = z + c;
          if (std::abs(cx) > 1 || std::abs(cy) > 1 || std::abs(cz) > 1) std::abort();  // cannot happen
          bits |= 1u << index_of(cx, cy, cz);
        }
    return bits;
  }

  /// The open moves forced at a node entered by d with these blocked neighbourhood bits.
  [[nodiscard]] std::uint32_t forced(int d, std::uint32_t blocked) const {
    if ((blocked & any_need[d]) == 0) return 0;
    std::uint32_t moves = 0;
    for (const Rule& rule : rules[d])
      if ((blocked & rule.need) != 0 && (blocked & box[rule.out]) == 0) moves |= 1u << rule.out;
    return moves;
  }
};

const Tables& tables() {
  static const Tables instance;
  return instance;
}

}  // namespace

struct VoxelJumpPointDomain::Walk {
  const VoxelJumpPointDomain& domain;
  const Tables& t;
  std::vector<Successor>& out;

  [[nodiscard]] bool is_goal(int x, int y, int z) const {
    return x == domain.goal_at_.x && y == domain.goal_at_.y && z == domain.goal_at_.z;
  }
  void emit(int x, int y, int z, int threes, int twos, int ones) const {
    out.push_back({domain.world_.node_of(x, y, z), domain.fly_cost_ * (sqrt3 * threes + sqrt2 * twos + ones)});
  }

  // Each jump stops at a block, the goal, a node with a forced successor, or its bound. A
  // nested jump (one a walk runs from each of its nodes) returns true when it stopped at its
  // bound: the walk then hands its own node to the search, whose expansion runs that jump again
  // from there. A top-level jump hands its last node to the search at its bound.

  bool straight(int x, int y, int z, std::uint32_t blocked, int s, int threes, int twos, int limit, bool nested) const {
    const auto [dx, dy, dz] = t.delta[s];
    for (int k = 1;; ++k) {
      if ((blocked & t.box[s]) != 0) return false;
      x += dx;
      y += dy;
      z += dz;
      blocked = domain.world_.blocked_neighbourhood(x, y, z);
      if (is_goal(x, y, z) || t.forced(s, blocked) != 0) {
        emit(x, y, z, threes, twos, k);
        return false;
      }
      if (k >= limit) {
        if (!nested) emit(x, y, z, threes, twos, k);
        return true;
      }
    }
  }

  bool flat(int x, int y, int z, std::uint32_t blocked, int d, int threes, int limit, bool nested) const {
    const auto [dx, dy, dz] = t.delta[d];
    const VoxelJumpLimits& limits = domain.limits_;
    for (int k = 1;; ++k) {
      if ((blocked & t.box[d]) != 0) return false;
      x += dx;
      y += dy;
      z += dz;
      blocked = domain.world_.blocked_neighbourhood(x, y, z);
      if (is_goal(x, y, z) || t.forced(d, blocked) != 0) {
        emit(x, y, z, threes, k, 0);
        return false;
      }
      if (k >= limit) {
        if (nested) return true;
        emit(x, y, z, threes, k, 0);
        return false;
      }
      bool cut = straight(x, y, z, blocked, t.lines[d][0], threes, k, limits.nested, true);
      cut = straight(x, y, z, blocked, t.lines[d][1], threes, k, limits.nested, true) || cut;
      if (cut) {
        emit(x, y, z, threes, k, 0);
        return false;
      }
    }
  }

  void diagonal(int x, int y, int z, std::uint32_t blocked, int d) const {
    const auto [dx, dy, dz] = t.delta[d];
    const VoxelJumpLimits& limits = domain.limits_;
    for (int k = 1;; ++k) {
      if ((blocked & t.box[d]) != 0) return;
      x += dx;
      y += dy;
      z += dz;
      blocked = domain.world_.blocked_neighbourhood(x, y, z);
      if (is_goal(x, y, z) || t.forced(d, blocked) != 0 || k >= limits.diagonal) {
        emit(x, y, z, k, 0, 0);
        return;
      }
      bool cut = false;
      for (int i = 0; i < 3 && !cut; ++i) cut = straight(x, y, z, blocked, t.lines[d][i], k, 0, limits.nested, true);
      for (int i = 0; i < 3 && !cut; ++i) cut = flat(x, y, z, blocked, t.flats[d][i], k, limits.nested, true);
      if (cut) {
        emit(x, y, z, k, 0, 0);
        return;
      }
    }
  }
};

VoxelJumpPointDomain::VoxelJumpPointDomain(const VoxelWorld& world, Cost fly_cost, NodeId goal, VoxelJumpLimits limits)
    : world_(world), fly_cost_(fly_cost), goal_at_(world.coord_of(goal)), limits_(limits) {
  limits_.straight = std::max(1, limits_.straight);
  limits_.diagonal = std::max(1, limits_.diagonal);
  limits_.nested = std::max(1, limits_.nested);
  (void)tables();
}

Cost VoxelJumpPointDomain::heuristic(NodeId from, NodeId to) const {
  const VoxelCoord a = world_.coord_of(from);
  const VoxelCoord b = world_.coord_of(to);
  const int dx = std::abs(a.x - b.x);
  const int dy = std::abs(a.y - b.y);
  const int dz = std::abs(a.z - b.z);
  const int low = std::min({dx, dy, dz});
  const int high = std::max({dx, dy, dz});
  const int middle = dx + dy + dz - low - high;
  return fly_cost_ * (sqrt3 * low + sqrt2 * (middle - low) + (high - middle));
}

void VoxelJumpPointDomain::successors(NodeId node, NodeId parent, std::vector<Successor>& out) const {
  out.clear();
  const Tables& t = tables();
  const Walk walk{*this, t, out};
  const VoxelCoord at = world_.coord_of(node);
  const std::uint32_t blocked = world_.blocked_neighbourhood(at.x, at.y, at.z);
  std::uint32_t moves;
  if (parent == invalid_node) {
    moves = ((1u << 27) - 1) & ~(1u << centre);
  } else {
    // The move into this node: the signs of the axes on which it lies farthest from its parent
    // (a jump point found by a walk's nested jump ends with the nested jump's direction).
    const VoxelCoord from = world_.coord_of(parent);
    const int v[3] = {at.x - from.x, at.y - from.y, at.z - from.z};
    const int longest = std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])});
    const int in = index_of(std::abs(v[0]) == longest ? sign(v[0]) : 0, std::abs(v[1]) == longest ? sign(v[1]) : 0,
                            std::abs(v[2]) == longest ? sign(v[2]) : 0);
    moves = t.natural[in] | t.forced(in, blocked);
  }
  while (moves != 0) {
    const int d = std::countr_zero(moves);
    moves &= moves - 1;
    if ((blocked & t.box[d]) != 0) continue;
    switch (t.axes[d]) {
      case 1: walk.straight(at.x, at.y, at.z, blocked, d, 0, 0, limits_.straight, false); break;
      case 2: walk.flat(at.x, at.y, at.z, blocked, d, 0, limits_.diagonal, false); break;
      default: walk.diagonal(at.x, at.y, at.z, blocked, d); break;
    }
  }
}

void expand_voxel_jump_points(const VoxelWorld& world, const std::vector<NodeId>& jump_points,
                              std::vector<NodeId>& blocks) {
  blocks.clear();
  if (jump_points.empty()) return;
  blocks.push_back(jump_points.front());
  for (std::size_t i = 1; i < jump_points.size(); ++i) {
    VoxelCoord at = world.coord_of(jump_points[i - 1]);
    const VoxelCoord to = world.coord_of(jump_points[i]);
    // The canonical path: 3D diagonal moves while every axis has distance left, then 2D
    // diagonal moves, then straight ones.
    while (!(at == to)) {
      at.x += sign(to.x - at.x);
      at.y += sign(to.y - at.y);
      at.z += sign(to.z - at.z);
      blocks.push_back(world.node_of(at));
    }
  }
}

}  // namespace wayfinder
