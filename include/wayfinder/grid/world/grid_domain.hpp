#pragma once
// The grid as a search domain for the generic engine: node ids are cell ids y * width + x,
// successors are the allowed moves to the 8 (or 4) neighbours.
//
// Three cost models, each its own loop so the common ones pay nothing for the others: every
// cell costs 1 (no terrain lookups), terrain costs, and terrain costs under a per-query
// AreaFilter (area multipliers and excluded cells, Detour's dtQueryFilter idea on a grid).

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

/// The octile distance between two cells of `map` (by id): the length of a shortest 8-connected
/// path on an open map, in cells (cardinal 1, diagonal sqrt 2).
WAYFINDER_FORCE_INLINE inline Cost octile_cell_distance(const GridMap& map, NodeId a, NodeId b) {
  const Cell p = map.cell_of(a);
  const Cell q = map.cell_of(b);
  return grid_distance(Heuristic::octile, p.x - q.x, p.y - q.y);
}

/// The steps to the 3 x 3 neighbourhood of a cell on a map `width` cells wide, indexed by the
/// neighbourhood's bit (dy + 1) * 3 + (dx + 1): `offsets` added to a cell id give the
/// neighbour's id (unsigned wrap-around makes that hold for negative steps too), `lengths` are
/// the moves' lengths (1 or sqrt 2).
inline void grid_neighbour_steps(NodeId width, NodeId (&offsets)[9], Cost (&lengths)[9]) {
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int bit = (dy + 1) * 3 + (dx + 1);
      offsets[bit] = static_cast<NodeId>(dy) * width + static_cast<NodeId>(dx);
      lengths[bit] = (dx != 0 && dy != 0) ? sqrt2 : 1.0;
    }
  }
}

enum class GridCosts : std::uint8_t {
  uniform,   ///< every passable cell costs 1: the loop skips the terrain lookups
  terrain,   ///< each cell's terrain cost multiplier
  filtered,  ///< terrain times the filter's area multiplier; cells the filter excludes are walls
};

/// Calls sink(neighbour, move cost) for every move from `node` whose bit is set in `moves`
/// (allowed_moves()'s bits), in the order of the bits, with the steps of grid_neighbour_steps():
/// a move costs its length, times the mean of the terrain costs of the two cells it joins unless
/// Costs is uniform. GridDomain and SizedAgentGridDomain differ only in which moves they allow.
template <GridCosts Costs, class Sink>
WAYFINDER_FORCE_INLINE inline void for_each_allowed_move(const GridMap& map, NodeId node, std::uint32_t moves,
                                                         const NodeId (&offsets)[9], const Cost (&lengths)[9],
                                                         Sink&& sink) {
  static_assert(Costs != GridCosts::filtered, "filtered moves read the filter's costs");
  while (moves != 0) {
    const int bit = std::countr_zero(moves);
    moves &= moves - 1;
    const NodeId next = node + offsets[bit];
    if constexpr (Costs == GridCosts::uniform) {
      sink(next, lengths[bit]);
    } else {
      sink(next, lengths[bit] * 0.5 * (static_cast<double>(map.cost(node)) + static_cast<double>(map.cost(next))));
    }
  }
}

template <GridCosts Costs>
class GridDomain {
 public:
  /// For GridCosts::filtered, `filter` is the query's (copied: the domain does not keep the
  /// pointer); it is ignored otherwise. A filtered move from a to b costs its length times the
  /// mean of (terrain x area multiplier) of a and b, so costs stay symmetric. Excluded cells
  /// count as blocked for the diagonal rule too: an agent that may not enter a cell may not cut
  /// its corner either.
  GridDomain(const GridMap& map, DiagonalMode diagonal, Heuristic heuristic, const AreaFilter* filter = nullptr)
      : map_(map),
        diagonal_(diagonal),
        heuristic_(resolve_heuristic(heuristic, diagonal)),
        heuristic_scale_(heuristic_scale_for(map, filter)),
        width_(static_cast<NodeId>(map.width())) {
    if constexpr (Costs == GridCosts::filtered) {
      filtered_.areas = map.area_data();
      filtered_.flags = map.flag_data();
      if (filter != nullptr) filtered_.filter = *filter;
    }
    grid_neighbour_steps(width_, offsets_, lengths_);
  }

  [[nodiscard]] std::size_t node_count() const { return map_.cell_count(); }
  [[nodiscard]] const GridMap& map() const { return map_; }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if constexpr (Costs == GridCosts::filtered) {
      for_each_filtered_successor(node, sink);
    } else {
      const Cell at = map_.cell_of(node);
      // One table lookup gives every allowed move; the loop visits them in the order of their
      // bits: up-left, up, up-right, left, right, down-left, down, down-right.
      for_each_allowed_move<Costs>(map_, node, allowed_moves(diagonal_, map_.neighbourhood(at.x, at.y)), offsets_,
                                   lengths_, sink);
    }
  }

  /// Whether the filter lets a search enter the cell (always true without a filter).
  [[nodiscard]] bool usable(NodeId cell) const {
    if constexpr (Costs == GridCosts::filtered) {
      return filtered_.filter.passes(filtered_.areas != nullptr ? filtered_.areas[cell] : AreaId{0},
                                     filtered_.flags != nullptr ? filtered_.flags[cell] : AreaFlags{0});
    } else {
      return true;
    }
  }

  [[nodiscard]] WAYFINDER_FORCE_INLINE Cost heuristic(NodeId from, NodeId to) const {
    const Cell a = map_.cell_of(from);
    const Cell b = map_.cell_of(to);
    return heuristic_scale_ * grid_distance(heuristic_, a.x - b.x, a.y - b.y);
  }

 private:
  static double heuristic_scale_for(const GridMap& map, const AreaFilter* filter) {
    if constexpr (Costs == GridCosts::uniform) return 1.0;
    double scale = static_cast<double>(map.min_cost());
    if (Costs == GridCosts::filtered && filter != nullptr)
      scale *= static_cast<double>(filter->smallest_cost(map.areas_in_use()));
    return scale;
  }

  [[nodiscard]] double filtered_cost(NodeId cell) const {
    const AreaId area = filtered_.areas != nullptr ? filtered_.areas[cell] : AreaId{0};
    return static_cast<double>(map_.cost(cell)) * static_cast<double>(filtered_.filter.cost(area));
  }

  // The filtered loop reads each passable neighbour's area and flags once: a neighbour the
  // filter excludes is cleared from the neighbourhood (so the diagonal rule sees it as a wall),
  // the others keep their filtered cost for the moves that enter them.
  template <class Sink>
  void for_each_filtered_successor(NodeId node, Sink& sink) const {
    const Cell at = map_.cell_of(node);
    std::uint32_t around = map_.neighbourhood(at.x, at.y);
    double cost_of[9];
    std::uint32_t candidates = around & ~(1u << 4);
    while (candidates != 0) {
      const int bit = std::countr_zero(candidates);
      candidates &= candidates - 1;
      const NodeId next = node + offsets_[bit];
      const float multiplier = filtered_.filter.cost(filtered_.areas != nullptr ? filtered_.areas[next] : AreaId{0});
      const AreaFlags flags = filtered_.flags != nullptr ? filtered_.flags[next] : AreaFlags{0};
      if (multiplier == std::numeric_limits<float>::infinity() || (flags != 0 && !filtered_.filter.flags_pass(flags))) {
        around &= ~(1u << bit);
      } else {
        cost_of[bit] = static_cast<double>(map_.cost(next)) * static_cast<double>(multiplier);
      }
    }
    const double here = filtered_cost(node);
    std::uint32_t moves = allowed_moves(diagonal_, around);
    while (moves != 0) {
      const int bit = std::countr_zero(moves);
      moves &= moves - 1;
      sink(node + offsets_[bit], lengths_[bit] * 0.5 * (here + cost_of[bit]));
    }
  }

  const GridMap& map_;
  DiagonalMode diagonal_;
  Heuristic heuristic_;
  double heuristic_scale_;
  NodeId width_;
  NodeId offsets_[9] = {};
  Cost lengths_[9] = {};
  struct FilterState {
    const AreaId* areas = nullptr;  ///< the map's, or null: every cell in area 0
    const AreaFlags* flags = nullptr;
    AreaFilter filter;
  };
  struct NoFilter {};
  [[no_unique_address]] std::conditional_t<Costs == GridCosts::filtered, FilterState, NoFilter> filtered_;
};

static_assert(Domain<GridDomain<GridCosts::uniform>>);
static_assert(Domain<GridDomain<GridCosts::terrain>>);
static_assert(Domain<GridDomain<GridCosts::filtered>>);

}  // namespace wayfinder
