#pragma once
// The grid as a search domain for an agent of size k x k (k >= 2), from the map's clearance
// (grid_clearance.hpp; Harabor & Botea 2008). A node is the agent's top-left cell; it is usable
// when clearance >= k, i.e. the whole body is on passable cells inside the map.
//
// Moves are GridDomain's, with "passable cell" read as "position where the body fits" (the side
// positions p + (dx, 0) and p + (0, dy) stand for the side cells of a diagonal move; under
// only_if_no_obstacles no part of the body cuts a corner). For k = 1 the rule is exactly
// GridDomain's, and the unit agent keeps GridDomain.
//
// Costs: a move costs its length (1 or sqrt 2) times the mean of the terrain costs of the two
// top-left cells it joins; the rest of the body is only read for passability. Costs are
// symmetric. See docs/grid.md, "Agents larger than one cell".

#include <cstdint>

#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/world/grid_domain.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

template <GridCosts Costs>
class SizedAgentGridDomain {
  static_assert(Costs != GridCosts::filtered, "agents larger than one cell are not searched under area filters");

 public:
  /// `clearance` must be current for `map` and outlive the domain; `size` in [1, max_clearance].
  SizedAgentGridDomain(const GridMap& map, const GridClearance& clearance, int size, DiagonalMode diagonal,
                       Heuristic heuristic)
      : map_(map),
        clearance_(clearance),
        size_(static_cast<std::uint8_t>(size)),
        diagonal_(diagonal),
        heuristic_(resolve_heuristic(heuristic, diagonal)),
        heuristic_scale_(Costs == GridCosts::uniform ? 1.0 : static_cast<double>(map.min_cost())) {
    grid_neighbour_steps(static_cast<NodeId>(map.width()), offsets_, lengths_);
  }

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }
  [[nodiscard]] const GridMap& map() const { return map_; }
  [[nodiscard]] int agent_size() const { return size_; }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    const Cell at = map_.cell_of(node);
    const std::uint32_t moves = allowed_moves(diagonal_, clearance_.fitting_neighbourhood(at.x, at.y, size_));
    for_each_allowed_move<Costs>(map_, node, moves, offsets_, lengths_, sink);
  }

  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost heuristic(NodeId from, NodeId to) const {
    const Cell a = map_.cell_of(from);
    const Cell b = map_.cell_of(to);
    return heuristic_scale_ * grid_distance(heuristic_, a.x - b.x, a.y - b.y);
  }

 private:
  const GridMap& map_;
  const GridClearance& clearance_;
  std::uint8_t size_;
  DiagonalMode diagonal_;
  Heuristic heuristic_;
  double heuristic_scale_;
  NodeId offsets_[9] = {};
  Cost lengths_[9] = {};
};

static_assert(Domain<SizedAgentGridDomain<GridCosts::uniform>>);
static_assert(Domain<SizedAgentGridDomain<GridCosts::terrain>>);

}  // namespace wayfinder
