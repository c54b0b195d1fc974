#pragma once
// The breadth-first "wave" (Moore 1959, "The shortest path through a maze"; Lee 1961, "An
// algorithm for path connections"): flood outwards from the start one ring of moves at a
// time, writing into each reached cell the direction it was entered from; then walk those
// directions back from the goal. It finds a path with the fewest moves and ignores terrain
// cost (the returned cost is still the true cost of that path).

#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/run_outcome.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"
#include "wayfinder/core/zeroed_array.hpp"

namespace wayfinder {

/// Reusable per-thread state of the wave: a direction per cell, stamped with the query number
/// so that a new query needs no clearing. The arrays are ZeroedArrays (stamp 0 is never a
/// query number), so only the pages a wave reaches are committed.
class WaveState {
 public:
  void prepare(std::size_t cells);
  /// True if prepare(cells) needs no new memory.
  [[nodiscard]] bool ready_for(std::size_t cells) const { return stamps_.size() >= cells; }
  [[nodiscard]] bool reached(NodeId cell) const { return stamps_[cell] == generation_; }
  [[nodiscard]] std::uint8_t direction(NodeId cell) const { return directions_[cell]; }
  void reach(NodeId cell, std::uint8_t direction) {
    stamps_[cell] = generation_;
    directions_[cell] = direction;
  }
  std::vector<NodeId>& frontier() { return frontier_; }
  /// What Budget::max_memory_bytes counts for the wave: its arrays as reserved for the map's
  /// cells (as a dense SearchContext counts its own) and the frontier's capacity.
  [[nodiscard]] std::size_t memory_bytes() const {
    return stamps_.reserved_bytes() + directions_.reserved_bytes() + frontier_.capacity() * sizeof(NodeId);
  }

 private:
  ZeroedArray<std::uint32_t> stamps_;
  ZeroedArray<std::uint8_t> directions_;
  std::vector<NodeId> frontier_;
  std::uint32_t generation_ = 0;
};

class BreadthFirstWave {
 public:
  BreadthFirstWave(const GridMap& map, DiagonalMode diagonal, WaveState& state)
      : map_(map), diagonal_(diagonal), state_(state) {}
  /// The wave keeps a reference to the map: a temporary map would dangle.
  BreadthFirstWave(const GridMap&& map, DiagonalMode diagonal, WaveState& state) = delete;

  /// Budget and trace options are honoured; weights are ignored. The wave measures a path by
  /// its moves, so Budget::max_cost stops it once every path it could still find has more than
  /// max_cost / (the cheapest move's cost) moves: no path cheaper than max_cost can remain. A
  /// path it finds is returned whatever its cost (the wave does not weigh terrain).
  /// Budget::max_memory_bytes counts WaveState::memory_bytes() (a limit below the arrays for the
  /// map's cells stops the wave at once). Start or goal ids out of range and a budget that
  /// budget_problem() refuses give invalid_input.
  SearchStatus start(NodeId start, NodeId goal, const SearchOptions& options);
  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    return step(StepBudget::expansions(max_expansions));
  }
  /// Expands cells until the step's budget (expansions, wall time) is spent or the wave ends.
  SearchStatus step(const StepBudget& step_budget);
  [[nodiscard]] PathResult result() const;
  /// The same into a result the caller owns, reusing its memory (see BestFirstSearch::result).
  void result(PathResult& out) const;
  /// Statistics so far.
  [[nodiscard]] const SearchStats& stats() const { return stats_; }

 private:
  void walk_back(NodeId from, std::vector<NodeId>& path) const;
  // Ends the wave; a path (found or partial) leads to `end`.
  void finish(RunOutcome outcome, NodeId end);

  const GridMap& map_;
  DiagonalMode diagonal_;
  WaveState& state_;
  SearchOptions options_;
  NodeId start_ = invalid_node;
  NodeId goal_ = invalid_node;
  std::size_t head_ = 0;      // next frontier entry to expand
  std::size_t ring_end_ = 0;  // end of the ring being expanded: its cells are ring_moves_ moves from the start
  std::uint64_t ring_moves_ = 0;
  RunReport report_;
  NodeId end_ = invalid_node;
  NodeId closest_ = invalid_node;
  double closest_h_ = infinite_cost;
  SearchStats stats_;
};

}  // namespace wayfinder
