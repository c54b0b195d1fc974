#pragma once
// The grid as a search domain for the generic engine: node ids are cell ids y * width + x,
// successors are the allowed moves to the 8 (or 4) neighbours.

#include <cstdint>

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
        width_(static_cast<NodeId>(map.width())) {}

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }
  [[nodiscard]] const GridMap& map() const { return map_; }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    const std::uint32_t around = map_.neighbourhood(at.x, at.y);
    const NodeId w = width_;
    // Cardinal moves: up, left, right, down (bits 1, 3, 5, 7 of the neighbourhood).
    if (around & (1u << 1)) sink(node - w, cost(node, node - w, false));
    if (around & (1u << 3)) sink(node - 1, cost(node, node - 1, false));
    if (around & (1u << 5)) sink(node + 1, cost(node, node + 1, false));
    if (around & (1u << 7)) sink(node + w, cost(node, node + w, false));
    if (diagonal_ == DiagonalMode::never) return;
    // Diagonal moves: up-left, up-right, down-left, down-right (bits 0, 2, 6, 8).
    if ((around & (1u << 0)) && diagonal_allowed(diagonal_, around, -1, -1)) sink(node - w - 1, cost(node, node - w - 1, true));
    if ((around & (1u << 2)) && diagonal_allowed(diagonal_, around, 1, -1)) sink(node - w + 1, cost(node, node - w + 1, true));
    if ((around & (1u << 6)) && diagonal_allowed(diagonal_, around, -1, 1)) sink(node + w - 1, cost(node, node + w - 1, true));
    if ((around & (1u << 8)) && diagonal_allowed(diagonal_, around, 1, 1)) sink(node + w + 1, cost(node, node + w + 1, true));
  }

  [[nodiscard, gnu::always_inline]] Cost heuristic(NodeId from, NodeId to) const {
    const Cell a = map_.cell_of(from);
    const Cell b = map_.cell_of(to);
    return heuristic_scale_ * grid_distance(heuristic_, a.x - b.x, a.y - b.y);
  }

 private:
  [[nodiscard]] Cost cost(NodeId from, NodeId to, bool diagonal) const {
    if constexpr (UniformCost) {
      (void)from;
      (void)to;
      return diagonal ? sqrt2 : 1.0;
    } else {
      return grid_move_cost(map_, from, to, diagonal);
    }
  }

  const GridMap& map_;
  DiagonalMode diagonal_;
  Heuristic heuristic_;
  double heuristic_scale_;
  NodeId width_;
};

static_assert(Domain<GridDomain<true>>);
static_assert(Domain<GridDomain<false>>);

}  // namespace wayfinder
