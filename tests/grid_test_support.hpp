#pragma once
// Helpers shared by the grid tests: reference answers computed independently of the library
// (plain Dijkstra and breadth-first search over passable() with the documented move rules), an
// independent step-by-step path checker, deterministic random maps, and the test environment
// (where the benchmark data lives, whether this is a sanitizer build).
//
// The references deliberately use none of the library's search machinery (no GridDomain, no
// neighbourhood bits, no IndexedHeap) so that a bug there cannot hide in both answers.

#include "test_environment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <ostream>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

// Readable GoogleTest output for the library's small value types (found by argument-dependent lookup).
inline void PrintTo(const Cell& cell, std::ostream* out) { *out << "(" << cell.x << ", " << cell.y << ")"; }
inline void PrintTo(const Point& point, std::ostream* out) {
  *out << "(" << point.x << ", " << point.y << ", " << point.z << ")";
}
inline void PrintTo(SearchStatus status, std::ostream* out) { *out << to_string(status); }
inline void PrintTo(StopReason reason, std::ostream* out) { *out << to_string(reason); }

}  // namespace wayfinder

namespace wayfinder::testing {

// ---------------------------------------------------------------------------------------------
// Deterministic randomness. std::uniform_int_distribution differs between standard libraries,
// so the tests derive everything from the raw 64-bit output of std::mt19937_64, which the
// standard fixes exactly.

class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [low, high] (the modulo bias is irrelevant for test sizes).
  int between(int low, int high) {
    const auto span = static_cast<std::uint64_t>(high - low) + 1;
    return low + static_cast<int>(engine_() % span);
  }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool chance(double probability) { return unit() < probability; }

 private:
  std::mt19937_64 engine_;
};

struct RandomMapSpec {
  int min_side = 5;
  int max_side = 24;
  double max_blocked_fraction = 0.45;
  /// Chance that a map gets terrain costs other than 1.
  double weighted_chance = 0.6;
};

/// A random map: random size, random obstacle density; weighted maps get costs 1, 2, 3 and a few
/// non-integer ones (0.5 checks that heuristics are scaled by the cheapest terrain).
inline GridMap random_map(TestRandom& random, const RandomMapSpec& spec = {}) {
  const int width = random.between(spec.min_side, spec.max_side);
  const int height = random.between(spec.min_side, spec.max_side);
  GridMap map(width, height);
  const double blocked_fraction = random.unit() * spec.max_blocked_fraction;
  const bool weighted = random.chance(spec.weighted_chance);
  constexpr float costs[] = {1.0f, 2.0f, 3.0f, 1.0f, 2.0f, 3.0f, 1.5f, 0.5f, 2.25f};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (random.chance(blocked_fraction)) {
        map.set_passable(x, y, false);
      } else if (weighted) {
        const float cost = costs[random.between(0, static_cast<int>(std::size(costs)) - 1)];
        if (cost != 1.0f) map.set_cost(x, y, cost);
      }
    }
  }
  return map;
}

inline std::vector<Cell> passable_cells(const GridMap& map) {
  std::vector<Cell> cells;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (map.passable(x, y)) cells.push_back({x, y});
  return cells;
}

// ---------------------------------------------------------------------------------------------
// Move rules, written out from the documentation of grid_rules.hpp

struct Move {
  int dx;
  int dy;
};
inline constexpr Move cardinal_moves[] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
inline constexpr Move diagonal_moves[] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};

/// Whether every cell of the size x size body with its top-left cell at (x, y) is passable
/// (size 1: the cell itself).
inline bool reference_body_fits(const GridMap& map, int x, int y, int size = 1) {
  for (int dy = 0; dy < size; ++dy)
    for (int dx = 0; dx < size; ++dx)
      if (!map.passable(x + dx, y + dy)) return false;
  return true;
}

/// Whether one move of a size x size agent (1: one cell) from (x, y) by (dx, dy) is legal: the
/// body fits at both positions, and for a diagonal the two side positions satisfy the diagonal
/// mode.
inline bool reference_move_allowed(const GridMap& map, DiagonalMode mode, int x, int y, int dx, int dy, int size = 1) {
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
  if (!reference_body_fits(map, x, y, size) || !reference_body_fits(map, x + dx, y + dy, size)) return false;
  if (dx == 0 || dy == 0) return true;
  const bool side_x = reference_body_fits(map, x + dx, y, size);
  const bool side_y = reference_body_fits(map, x, y + dy, size);
  switch (mode) {
    case DiagonalMode::never: return false;
    case DiagonalMode::at_least_one_walkable: return side_x || side_y;
    case DiagonalMode::only_if_no_obstacles: return side_x && side_y;
    case DiagonalMode::always: return true;
  }
  return false;
}

/// Documented rule: length (1 or sqrt 2) times the mean of the two cells' terrain costs.
inline double reference_move_cost(const GridMap& map, int x, int y, int dx, int dy) {
  const double length = (dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0;
  return length * (static_cast<double>(map.cost(x, y)) + static_cast<double>(map.cost(x + dx, y + dy))) / 2.0;
}

template <class Visit>
void for_each_reference_move(const GridMap& map, DiagonalMode mode, int x, int y, Visit&& visit, int size = 1) {
  for (const Move move : cardinal_moves)
    if (reference_move_allowed(map, mode, x, y, move.dx, move.dy, size)) visit(move);
  for (const Move move : diagonal_moves)
    if (reference_move_allowed(map, mode, x, y, move.dx, move.dy, size)) visit(move);
}

// ---------------------------------------------------------------------------------------------
// Reference searches

/// Cheapest cost from `start` to every cell (infinity when unreachable) of a size x size agent
/// (1: one cell; a larger one's moves costed by its top-left cells, the documented rule):
/// textbook Dijkstra with a lazy-deletion priority queue.
inline std::vector<double> reference_costs_from(const GridMap& map, DiagonalMode mode, Cell start, int size = 1) {
  const auto index = [&](int x, int y) { return static_cast<std::size_t>(y) * map.width() + x; };
  std::vector<double> best(map.cell_count(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  best[index(start.x, start.y)] = 0.0;
  queue.push({0.0, index(start.x, start.y)});
  while (!queue.empty()) {
    // Plain variables, not a structured binding: clang 14 cannot capture bindings in the lambda.
    const double cost = queue.top().first;
    const std::size_t at = queue.top().second;
    queue.pop();
    if (cost > best[at]) continue;
    const int x = static_cast<int>(at % map.width());
    const int y = static_cast<int>(at / map.width());
    for_each_reference_move(
        map, mode, x, y,
        [&](Move move) {
          const double next_cost = cost + reference_move_cost(map, x, y, move.dx, move.dy);
          const std::size_t next = index(x + move.dx, y + move.dy);
          if (next_cost < best[next]) {
            best[next] = next_cost;
            queue.push({next_cost, next});
          }
        },
        size);
  }
  return best;
}

inline constexpr int unreachable_moves = -1;

/// Fewest moves from `start` to every cell (unreachable_moves when unreachable).
inline std::vector<int> reference_moves_from(const GridMap& map, DiagonalMode mode, Cell start) {
  const auto index = [&](int x, int y) { return static_cast<std::size_t>(y) * map.width() + x; };
  std::vector<int> moves(map.cell_count(), unreachable_moves);
  std::deque<Cell> frontier{start};
  moves[index(start.x, start.y)] = 0;
  while (!frontier.empty()) {
    const Cell at = frontier.front();
    frontier.pop_front();
    const int here = moves[index(at.x, at.y)];
    for_each_reference_move(map, mode, at.x, at.y, [&](Move move) {
      const std::size_t next = index(at.x + move.dx, at.y + move.dy);
      if (moves[next] == unreachable_moves) {
        moves[next] = here + 1;
        frontier.push_back({at.x + move.dx, at.y + move.dy});
      }
    });
  }
  return moves;
}

// ---------------------------------------------------------------------------------------------
// Independent path checker

struct ReferencePathCheck {
  std::string problem;  ///< empty when the path is valid
  double cost = 0.0;
  std::size_t moves = 0;
  [[nodiscard]] bool valid() const { return problem.empty(); }
};

/// Checks a cell path move by move from first principles: ends where asked, every cell inside
/// and passable, every move to one of the 8 (or 4) neighbours and allowed by the diagonal mode;
/// sums the documented move costs.
inline ReferencePathCheck reference_check_path(const GridMap& map, const std::vector<NodeId>& nodes,
                                               DiagonalMode mode, Cell start, Cell goal) {
  ReferencePathCheck check;
  if (nodes.empty()) {
    check.problem = "empty path";
    return check;
  }
  const auto cell_of = [&](NodeId id) {
    return Cell{static_cast<int>(id % static_cast<NodeId>(map.width())),
                static_cast<int>(id / static_cast<NodeId>(map.width()))};
  };
  const auto text = [](Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] >= map.cell_count()) {
      check.problem = "node " + std::to_string(i) + " id " + std::to_string(nodes[i]) + " is outside the map";
      return check;
    }
    if (!map.passable(cell_of(nodes[i]))) {
      check.problem = "node " + std::to_string(i) + " " + text(cell_of(nodes[i])) + " is blocked";
      return check;
    }
  }
  if (!(cell_of(nodes.front()) == start)) {
    check.problem = "path starts at " + text(cell_of(nodes.front())) + ", not at the start " + text(start);
    return check;
  }
  if (!(cell_of(nodes.back()) == goal)) {
    check.problem = "path ends at " + text(cell_of(nodes.back())) + ", not at the goal " + text(goal);
    return check;
  }
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const Cell from = cell_of(nodes[i - 1]);
    const Cell to = cell_of(nodes[i]);
    const int dx = to.x - from.x;
    const int dy = to.y - from.y;
    if (!reference_move_allowed(map, mode, from.x, from.y, dx, dy)) {
      check.problem = "move " + std::to_string(i) + " from " + text(from) + " to " + text(to) +
                      " is not allowed with diagonal mode " + std::string(to_string(mode));
      return check;
    }
    check.cost += reference_move_cost(map, from.x, from.y, dx, dy);
    ++check.moves;
  }
  return check;
}

/// |a - b| within a relative tolerance (absolute near zero).
inline bool nearly_equal(double a, double b, double relative = 1e-9) {
  return std::abs(a - b) <= relative * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace wayfinder::testing
