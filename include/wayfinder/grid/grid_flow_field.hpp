#pragma once
// A flow field: the cheapest way to a goal from every cell of a grid at once, for crowds that
// share a destination (Emerson 2013, "Crowd Pathfinding and Steering Using Flow Field Tiles",
// Game AI Pro ch. 23). One Dijkstra search runs outwards from the goals (all at cost 0) and
// writes into every cell it reaches the cost to its nearest goal and the neighbour to move to.
//
// Guarantees: the costs are the optimal costs A* finds from each cell (moves cost the same both
// ways on a GridMap); following next_cell() from a reachable cell reaches a goal in at most
// reachable_count() moves at cost_to_goal(). Building is O(N log N) for the N reachable cells;
// the field keeps 9 bytes per cell (13 with several goals), and next_cell(), cost_to_goal(),
// reachable() and goal_index() are O(1). A built field is read-only and may be shared by
// threads; it keeps no reference to the map and describes the map as it was when built. Why the
// costs are exact, and the memory in detail: docs/flow-fields.md.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

struct GridFlowFieldOptions {
  /// Which diagonal moves the agents may make (default: the MovingAI rule, no corner cutting).
  DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;
};

enum class FlowFieldStatus : std::uint8_t {
  empty,          ///< never built: every cell reads as unreachable
  built,          ///< every cell's cost to the goal and next move are known
  invalid_input,  ///< the last build() was rejected (see message()); every cell reads as unreachable
};

std::string_view to_string(FlowFieldStatus status);

class GridFlowField {
 public:
  /// An empty field (status empty); build() it before use.
  GridFlowField() = default;
  /// Builds at once; check status(). Never throws for bad input (see build()).
  GridFlowField(const GridMap& map, std::span<const Cell> goals, const GridFlowFieldOptions& options = {}) {
    build(map, goals, options);
  }
  GridFlowField(const GridMap& map, Cell goal, const GridFlowFieldOptions& options = {}) { build(map, goal, options); }

  /// Computes the field towards the nearest of `goals`, reusing this field's memory. Returns
  /// `built`, or `invalid_input` with message() saying what was wrong: no goals, a goal outside
  /// the map or on a blocked cell, an empty map, an unknown diagonal mode. Bad input never
  /// throws; the only exception is std::bad_alloc when the memory above cannot be had. A goal
  /// listed twice is allowed: cells lead to its first occurrence. After a rejected build every
  /// cell reads as unreachable.
  FlowFieldStatus build(const GridMap& map, std::span<const Cell> goals, const GridFlowFieldOptions& options = {});
  FlowFieldStatus build(const GridMap& map, Cell goal, const GridFlowFieldOptions& options = {}) {
    return build(map, std::span<const Cell>(&goal, 1), options);
  }

  [[nodiscard]] FlowFieldStatus status() const { return status_; }
  [[nodiscard]] bool built() const { return status_ == FlowFieldStatus::built; }
  /// For invalid_input: what was wrong (empty otherwise).
  [[nodiscard]] const std::string& message() const { return message_; }

  /// The neighbour an agent at `at` moves to next on a cheapest path to the nearest goal; `at`
  /// itself on a goal. nullopt when `at` is outside the map, blocked, cannot reach a goal, or
  /// the field is not built: bad cells never crash and never give a move.
  [[nodiscard]] std::optional<Cell> next_cell(Cell at) const {
    if (!contains(at)) return std::nullopt;
    const std::uint8_t direction = directions_[id_of(at)];
    if (direction > last_move) return std::nullopt;
    return Cell{at.x + direction % 3 - 1, at.y + direction / 3 - 1};
  }
  /// The same on cell ids (y * width + x): the next cell's id, `id` on a goal, invalid_node when
  /// unreachable or out of range.
  [[nodiscard]] NodeId next_node(NodeId id) const {
    if (id >= directions_.size()) return invalid_node;
    const std::uint8_t direction = directions_[id];
    if (direction > last_move) return invalid_node;
    return id + offsets_[direction];
  }

  /// The cost of a cheapest path from `at` to the nearest goal (0 on a goal); infinite_cost when
  /// `at` is outside the map, blocked or cannot reach a goal.
  [[nodiscard]] Cost cost_to_goal(Cell at) const { return contains(at) ? costs_[id_of(at)] : infinite_cost; }
  /// True when a goal can be reached from `at`.
  [[nodiscard]] bool reachable(Cell at) const { return contains(at) && directions_[id_of(at)] <= last_move; }
  /// Which goal `at` leads to, as an index into goals() (the order given to build()); nullopt
  /// when unreachable. When goals tie, one of the nearest.
  [[nodiscard]] std::optional<std::size_t> goal_index(Cell at) const {
    if (!reachable(at)) return std::nullopt;
    return goal_indices_.empty() ? std::size_t{0} : std::size_t{goal_indices_[id_of(at)]};
  }

  /// The path the field gives from `start`, as a PathResult: `found` with the cells from start
  /// to its goal (nodes and cell centres) and cost_to_goal(start); `no_path` when no goal can be
  /// reached from start; `invalid_input` with a message when start is outside the map or
  /// blocked, or the field is not built. O(length of the path).
  [[nodiscard]] PathResult path_from(Cell start) const;

  /// The goals of the last successful build, in the order given.
  [[nodiscard]] const std::vector<Cell>& goals() const { return goals_; }
  [[nodiscard]] DiagonalMode diagonal() const { return diagonal_; }
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// Cells from which a goal can be reached (the goals included).
  [[nodiscard]] std::size_t reachable_count() const { return reachable_count_; }
  /// Bytes the built field keeps (costs, directions, goal indices).
  [[nodiscard]] std::size_t memory_bytes() const {
    return costs_.capacity() * sizeof(Cost) + directions_.capacity() + goal_indices_.capacity() * sizeof(std::uint32_t);
  }

 private:
  /// Directions are the move's bit in a 3x3 neighbourhood, (dy + 1) * 3 + (dx + 1) as in
  /// GridMap::neighbourhood(); 4 (no move) marks a goal. Cells without a move say why, so that
  /// path_from() can tell a blocked start (bad input) from one cut off from the goals.
  static constexpr std::uint8_t at_goal = 4;
  static constexpr std::uint8_t last_move = 8;
  static constexpr std::uint8_t unreachable_cell = 9;
  static constexpr std::uint8_t blocked_cell = 10;

  [[nodiscard]] bool contains(Cell at) const { return at.x >= 0 && at.y >= 0 && at.x < width_ && at.y < height_; }
  [[nodiscard]] std::size_t id_of(Cell at) const {
    return static_cast<std::size_t>(at.y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(at.x);
  }
  FlowFieldStatus reject(std::string why);
  template <bool UniformCost>
  void search(const GridMap& map);

  FlowFieldStatus status_ = FlowFieldStatus::empty;
  std::string message_;
  int width_ = 0;
  int height_ = 0;
  DiagonalMode diagonal_ = DiagonalMode::only_if_no_obstacles;
  std::vector<Cell> goals_;
  std::vector<Cost> costs_;
  std::vector<std::uint8_t> directions_;
  std::vector<std::uint32_t> goal_indices_;  ///< empty with one goal
  NodeId offsets_[9] = {};                   ///< id difference of each direction (unsigned wrap-around)
  std::size_t reachable_count_ = 0;
};

}  // namespace wayfinder
