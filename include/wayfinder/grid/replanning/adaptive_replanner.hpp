#pragma once
// Replanning on a grid that changes while an agent walks towards a fixed goal, by Multipath
// Adaptive A* (MPAA*: Hernández, Baier & Asín 2014, ICAPS) with the consistency repair of
// Generalized Adaptive A* (GAA*: Sun, Koenig & Yeoh 2008, AAMAS), together MPGAA* (Hernández,
// Asín & Baier 2015, AAAI): every plan() is a forward A* that uses the costs-to-goal earlier
// searches learned and stops at a cell of an earlier path that still leads to the goal.
//
// Guarantees: after every plan() the cost equals what a fresh A* on the map as it is finds
// (openings and cheaper terrain are repaired first). One replanner per agent, 36 bytes a cell;
// the map is shared, must outlive it, and its edits are read from its change log in
// notify_changes(), as GridReplanner does. How it learns, reuses paths and repairs:
// docs/changing-worlds.md, "Replanning incrementally".

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "wayfinder/core/indexed_heap.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/replanning/grid_replanner_base.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

class GridAdaptiveReplanner final : public GridReplannerBase {
 public:
  // The replanners' constructor (grid_replanner_base.hpp).
  using GridReplannerBase::GridReplannerBase;
  /// A forward A* from the agent's cell, reusing what earlier plans learned. After
  /// notify_changes(), a change that may make learned heuristics overestimate (a cell opened or
  /// got cheaper) is repaired first; a start from scratch forgets everything learned.
  SearchStatus plan() override;
  // move_to() needs nothing more: learned heuristics are costs to the fixed goal, valid
  // wherever the agent goes.
  [[nodiscard]] Cost cost() const override;
  [[nodiscard]] Cell next_cell() const override;

  /// last_expansions() counts the cells the last plan() expanded in its A* search plus the cells
  /// whose heuristic its consistency repair lowered; the repair's share alone:
  [[nodiscard]] std::uint64_t last_heuristic_repairs() const { return last_heuristic_repairs_; }
  /// Whether the last plan() stopped on a previously found path instead of reaching the goal.
  [[nodiscard]] bool last_reused_path() const { return last_reused_path_; }

 private:
  [[nodiscard]] bool has_plan() const override;
  /// The chain of `next` pointers as of the last plan(): path() follows it from the agent's cell.
  [[nodiscard]] std::pair<NodeId, Cost> next_move(NodeId at) const override;

  /// A cell's state in one search; valid only while `search` equals the replanner's counter.
  struct SearchCell {
    Cost g = infinite_cost;
    NodeId parent = invalid_node;
    std::uint32_t search = 0;
    std::uint32_t heap_position = not_queued;
    std::uint8_t flags = 0;  ///< SearchFlag bits
  };
  static constexpr std::uint32_t not_queued = 0xFFFFFFFFu;
  enum SearchFlag : std::uint8_t {
    expanded = 1,       ///< closed in this search
    chain_broken = 2,   ///< its `next` chain was followed in this search and does not reach the goal
  };

  void forget_everything();
  void repair_after_changes();
  void repair_heuristics(const std::vector<NodeId>& touched);
  [[nodiscard]] bool search(NodeId start, NodeId goal);
  /// The cost of the `next` chain from `node` to the goal if it is intact (every step allowed
  /// and h(s) = c(s, next(s)) + h(next(s))); infinite_cost otherwise.
  [[nodiscard]] Cost intact_path_cost(NodeId node, NodeId goal);
  void touch(NodeId node);
  [[nodiscard]] bool flagged(NodeId node, SearchFlag flag) const {
    return cells_[node].search == search_counter_ && (cells_[node].flags & flag) != 0;
  }

  [[nodiscard]] Cost octile(NodeId node) const;
  [[nodiscard]] Cost heuristic(NodeId node) const;
  /// The cost of the move from `from` to the adjacent `to` on the map as it is, infinite_cost
  /// when it is not allowed.
  [[nodiscard]] Cost move_cost(NodeId from, NodeId to) const;

  Heuristic distance_ = resolve_heuristic(Heuristic::automatic, diagonal_);

  // Memory kept between searches.
  std::vector<Cost> learned_h_;  ///< 0 where nothing was learned (the octile distance rules)
  std::vector<NodeId> next_;     ///< the next cell of a previously found path towards the goal

  // One search's scratch, reset lazily by search_counter_.
  std::vector<SearchCell> cells_;
  std::uint32_t search_counter_ = 0;
  IndexedHeap open_;
  std::vector<NodeId> expanded_;
  std::vector<NodeId> chain_;  ///< the chain being checked by intact_path_cost

  SearchStatus status_ = SearchStatus::no_path;
  Cost plan_cost_ = infinite_cost;
  std::uint64_t last_heuristic_repairs_ = 0;
  bool last_reused_path_ = false;
};

}  // namespace wayfinder
