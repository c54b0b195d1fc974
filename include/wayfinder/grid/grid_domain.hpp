#pragma once
// The grid as a search domain for the generic engine: node ids are cell ids y * width + x,
// successors are the allowed moves to the 8 (or 4) neighbours.

#include <bit>
#include <cstdint>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_rules.hpp"

namespace wayfinder {

/// `UniformCost` selects a loop that skips the terrain lookups (every cost multiplier is 1).
template <bool UniformCost>
class GridDomain {
 public:
  GridDomain(const GridMap& map, DiagonalMode diagonal, Heuristic heuristic)
      : map_(map),
        diagonal_(diagonal),
        heuristic_(resolve_heuristic(heuristic, diagonal)),
        heuristic_scale_(UniformCost ? 1.0 : static_cast<double>(map.min_cost())),
        width_(static_cast<NodeId>(map.width())) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int bit = (dy + 1) * 3 + (dx + 1);
        // Unsigned wrap-around makes node + offset the neighbour for negative steps too.
        offsets_[bit] = static_cast<NodeId>(dy) * width_ + static_cast<NodeId>(dx);
        lengths_[bit] = (dx != 0 && dy != 0) ? sqrt2 : 1.0;
      }
    }
  }

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }
  [[nodiscard]] const GridMap& map() const { return map_; }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    // One table lookup gives every allowed move; the loop visits them in the order of their
    // bits: up-left, up, up-right, left, right, down-left, down, down-right.
    std::uint32_t moves = allowed_moves(diagonal_, map_.neighbourhood(at.x, at.y));
    while (moves != 0) {
      const int bit = std::countr_zero(moves);
      moves &= moves - 1;
      const NodeId next = node + offsets_[bit];
      if constexpr (UniformCost) {
        sink(next, lengths_[bit]);
      } else {
        sink(next, lengths_[bit] * 0.5 * (static_cast<double>(map_.cost(node)) + static_cast<double>(map_.cost(next))));
      }
    }
  }

  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost heuristic(NodeId from, NodeId to) const {
    const Cell a = map_.cell_of(from);
    const Cell b = map_.cell_of(to);
    return heuristic_scale_ * grid_distance(heuristic_, a.x - b.x, a.y - b.y);
  }

 private:
  const GridMap& map_;
  DiagonalMode diagonal_;
  Heuristic heuristic_;
  double heuristic_scale_;
  NodeId width_;
  NodeId offsets_[9] = {};
  Cost lengths_[9] = {};
};

static_assert(Domain<GridDomain<true>>);
static_assert(Domain<GridDomain<false>>);

}  // namespace wayfinder
