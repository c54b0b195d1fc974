#pragma once
// Movement rules on a grid: which moves exist, what they cost, and the distance estimates.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

/// When a diagonal move is allowed (the names Godot and PathFinding.js use).
enum class DiagonalMode : std::uint8_t {
  never,                  ///< 4-connected grid
  at_least_one_walkable,  ///< one of the two side cells may be blocked (corner cutting)
  only_if_no_obstacles,   ///< both side cells must be passable: the MovingAI rule (default)
  always,                 ///< diagonals even between two blocked side cells
};

enum class Heuristic : std::uint8_t {
  automatic,  ///< octile when diagonals are allowed, manhattan on a 4-connected grid
  octile,     ///< exact distance on an empty 8-connected grid
  euclidean,
  manhattan,  ///< admissible on 4-connected grids only
  chebyshev,  ///< max(dx, dy): admissible but weak
};

std::string_view to_string(DiagonalMode mode);
std::string_view to_string(Heuristic heuristic);
/// Accepts the names printed by to_string and dashes for underscores; nullopt if unknown.
std::optional<DiagonalMode> parse_diagonal_mode(std::string_view name);
std::optional<Heuristic> parse_heuristic(std::string_view name);

/// The heuristic actually used for a mode when `automatic` is asked for.
inline Heuristic resolve_heuristic(Heuristic heuristic, DiagonalMode mode) {
  if (heuristic != Heuristic::automatic) return heuristic;
  return mode == DiagonalMode::never ? Heuristic::manhattan : Heuristic::octile;
}

/// Distance estimate between cells, in cost units of terrain cost 1.
WAYFINDER_FORCE_INLINE inline double grid_distance(Heuristic heuristic, int dx, int dy) {
  const double ax = std::abs(dx);
  const double ay = std::abs(dy);
  switch (heuristic) {
    case Heuristic::manhattan: return ax + ay;
    case Heuristic::chebyshev: return std::max(ax, ay);
    case Heuristic::euclidean: return std::sqrt(ax * ax + ay * ay);
    case Heuristic::automatic:
    case Heuristic::octile: break;
  }
  return std::max(ax, ay) + (sqrt2 - 1.0) * std::min(ax, ay);
}

/// Whether the diagonal move to (x + dx, y + dy) is allowed, given that the target is passable,
/// from the 9-bit neighbourhood of (x, y) (see GridMap::neighbourhood).
constexpr bool diagonal_allowed(DiagonalMode mode, std::uint32_t neighbourhood, int dx, int dy) {
  const bool side_x = (neighbourhood >> (4 + dx)) & 1u;      // (x + dx, y)
  const bool side_y = (neighbourhood >> (4 + 3 * dy)) & 1u;  // (x, y + dy)
  switch (mode) {
    case DiagonalMode::never: return false;
    case DiagonalMode::at_least_one_walkable: return side_x || side_y;
    case DiagonalMode::only_if_no_obstacles: return side_x && side_y;
    case DiagonalMode::always: return true;
  }
  return false;
}

/// The moves allowed from a cell with the given 9-bit neighbourhood, as a mask of the same
/// bits (bit (dy + 1) * 3 + (dx + 1) for the move by (dx, dy)); bit 4, the cell itself, is never
/// set. Read from a table made at compile time, so the search tests no rules per move.
std::uint16_t allowed_moves(DiagonalMode mode, std::uint32_t neighbourhood);

namespace detail {
constexpr std::array<std::uint16_t, 512> make_allowed_moves_table(DiagonalMode mode) {
  std::array<std::uint16_t, 512> table{};
  for (std::uint32_t around = 0; around < 512; ++around) {
    std::uint16_t moves = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int bit = (dy + 1) * 3 + (dx + 1);
        if (bit == 4 || !((around >> bit) & 1u)) continue;
        if (dx != 0 && dy != 0 && !diagonal_allowed(mode, around, dx, dy)) continue;
        moves = static_cast<std::uint16_t>(moves | (1u << bit));
      }
    }
    table[around] = moves;
  }
  return table;
}
inline constexpr std::array<std::array<std::uint16_t, 512>, 4> allowed_moves_tables = {
    make_allowed_moves_table(DiagonalMode::never), make_allowed_moves_table(DiagonalMode::at_least_one_walkable),
    make_allowed_moves_table(DiagonalMode::only_if_no_obstacles), make_allowed_moves_table(DiagonalMode::always)};
}  // namespace detail

inline std::uint16_t allowed_moves(DiagonalMode mode, std::uint32_t neighbourhood) {
  return detail::allowed_moves_tables[static_cast<std::size_t>(mode)][neighbourhood & 511u];
}

/// Cost of one move between adjacent cells: its length (1 or sqrt 2) times the mean of the two
/// cells' terrain costs. The mean makes every move cost the same in both directions, so a path
/// costs the same walked backwards and bidirectional search can search from the goal.
inline Cost grid_move_cost(const GridMap& map, NodeId from, NodeId to, bool diagonal) {
  const double length = diagonal ? sqrt2 : 1.0;
  return length * 0.5 * (static_cast<double>(map.cost(from)) + static_cast<double>(map.cost(to)));
}

}  // namespace wayfinder
