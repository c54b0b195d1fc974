#pragma once
// Incremental replanning on a grid that changes while an agent walks it: D* Lite (Koenig &
// Likhachev 2002, "D* Lite", AAAI; the optimised version of their Figure 4). The search runs
// from the goal towards the agent, so that when the agent moves, the costs-to-goal already
// computed stay valid; when cells change, only the costs the change can affect are repaired.
//
// One GridReplanner per agent (it holds g and rhs values for every cell of the map: 20 bytes a
// cell); the map is shared and must outlive it. The replanner reads the map's change log
// (GridMap::changes_since) in notify_changes(), so edits need no bookkeeping by the caller.
// After every plan() its cost equals what a fresh A* on the map as it is would find (the tests
// check this after every change of random change sequences).

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

class GridReplanner final : public GridReplannerBase {
 public:
  // The replanners' constructor (grid_replanner_base.hpp).
  using GridReplannerBase::GridReplannerBase;
  /// The first call searches from scratch; later calls repair what notify_changes() and
  /// move_to() made stale.
  SearchStatus plan() override;
  [[nodiscard]] Cost cost() const override;
  [[nodiscard]] Cell next_cell() const override;

 private:
  [[nodiscard]] bool has_plan() const override;
  /// Follows the costs-to-goal down: from `at`, the move that minimises move cost + g.
  [[nodiscard]] std::pair<NodeId, Cost> next_move(NodeId at) const override;

  struct Key {
    Cost primary;
    Cost secondary;
    friend bool operator<(const Key& a, const Key& b) {
      return a.primary < b.primary || (a.primary == b.primary && a.secondary < b.secondary);
    }
  };
  void initialise();
  [[nodiscard]] Key key_of(NodeId node) const;
  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const;
  void update_vertex(NodeId node);
  void compute_shortest_path();
  /// Raises k_m by the distance moved (D* Lite's s_last is the cell the agent left).
  void moved(Cell from) override;
  /// min over neighbours n of c(node, n) + g(n): the one-step lookahead.
  [[nodiscard]] Cost lookahead(NodeId node) const;

  // The open list, the library's heap over D* Lite's two-part keys, with positions so that keys
  // can be changed and entries removed (the paper's U.Update and U.Remove).
  void queue_push(NodeId node, Key key);
  void queue_remove(NodeId node);
  void queue_update(NodeId node, Key key);
  [[nodiscard]] auto position_writer() {
    return [this](NodeId node, std::uint32_t index) { queue_position_[node] = index; };
  }
  [[nodiscard]] bool queued(NodeId node) const { return queue_position_[node] != not_queued; }

  static constexpr std::uint32_t not_queued = 0xFFFFFFFFu;

  std::vector<Cost> g_;
  std::vector<Cost> rhs_;
  std::vector<std::uint32_t> queue_position_;
  BasicIndexedHeap<Key> queue_;
  Cost key_modifier_ = 0.0;  ///< D* Lite's k_m: the heuristic distance the agent has moved
};

}  // namespace wayfinder
