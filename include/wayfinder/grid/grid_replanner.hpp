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
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_rules.hpp"

namespace wayfinder {

class GridReplanner {
 public:
  /// Lifetime: the replanner keeps a reference to `map`, which must outlive it (a temporary map
  /// does not compile). Nothing is searched until plan().
  GridReplanner(const GridMap& map, Cell start, Cell goal, DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles);
  GridReplanner(const GridMap&& map, Cell start, Cell goal,
                DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles) = delete;

  /// Brings the plan up to date with the map and the agent's position: the first call searches
  /// from scratch, later calls repair what notify_changes() and move_to() made stale. Returns
  /// found, no_path (the goal is cut off, or the agent or goal stands on a blocked cell) or
  /// invalid_input (start or goal outside the map, a bad diagonal mode).
  SearchStatus plan();

  /// The agent is now at `cell` (usually the next cell of path()). Any cell of the map is
  /// accepted; plan() then repairs the plan from there.
  void move_to(Cell cell);

  /// Reads the map's edits since the last call (or since construction) from its change log and
  /// marks the costs they affect for repair by the next plan(). When the log no longer reaches
  /// back, or an edit made some cell cheaper than the cheapest cell the heuristic was scaled
  /// by, the next plan() starts from scratch. Returns the number of changed cells read.
  std::size_t notify_changes();

  /// The current plan from the agent to the goal (nodes, points at cell centres, cost), as of
  /// the last plan(): found or no_path.
  [[nodiscard]] PathResult path() const;
  /// The plan's cost from the agent's cell (infinite when there is no path).
  [[nodiscard]] Cost cost() const;
  /// The next cell to step to, or the agent's own cell when it is at the goal or has no path.
  [[nodiscard]] Cell next_cell() const;

  [[nodiscard]] Cell position() const { return start_; }
  [[nodiscard]] Cell goal() const { return goal_; }
  /// Expansions of the last plan() (the repair's work), and in total.
  [[nodiscard]] std::uint64_t last_expansions() const { return last_expansions_; }
  [[nodiscard]] std::uint64_t total_expansions() const { return total_expansions_; }
  /// Why the last plan() gave invalid_input or no_path ("" otherwise).
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  struct Key {
    Cost primary;
    Cost secondary;
    friend bool operator<(const Key& a, const Key& b) {
      return a.primary < b.primary || (a.primary == b.primary && a.secondary < b.secondary);
    }
  };
  struct QueueEntry {
    Key key;
    NodeId node;
  };

  void initialise();
  [[nodiscard]] Key key_of(NodeId node) const;
  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const;
  void update_vertex(NodeId node);
  void compute_shortest_path();
  /// min over neighbours n of c(node, n) + g(n): the one-step lookahead.
  [[nodiscard]] Cost lookahead(NodeId node) const;
  /// Calls visit(neighbour, move cost) for every move allowed from `node` on the map as it is.
  template <class Visit>
  void for_each_move(NodeId node, Visit&& visit) const;

  // The open list: a binary heap with positions, so that keys can be changed and entries
  // removed (D* Lite's U.Update and U.Remove).
  void queue_push(NodeId node, Key key);
  void queue_remove(NodeId node);
  void queue_update(NodeId node, Key key);
  void sift_up(std::size_t index);
  void sift_down(std::size_t index);
  void place(std::size_t index, QueueEntry entry);
  [[nodiscard]] bool queued(NodeId node) const { return queue_position_[node] != not_queued; }

  static constexpr std::uint32_t not_queued = 0xFFFFFFFFu;

  const GridMap& map_;
  Cell start_;
  Cell goal_;
  DiagonalMode diagonal_;
  std::vector<Cost> g_;
  std::vector<Cost> rhs_;
  std::vector<std::uint32_t> queue_position_;
  std::vector<QueueEntry> queue_;
  Cost key_modifier_ = 0.0;  ///< D* Lite's k_m: the heuristic distance the agent has moved
  Cell last_start_;          ///< where the agent was when k_m was last raised
  double heuristic_scale_ = 1.0;
  std::uint64_t seen_revision_ = 0;
  std::vector<NodeId> stale_;  ///< cells whose moves changed since the last plan()
  bool initialised_ = false;
  bool restart_ = false;
  std::uint64_t last_expansions_ = 0;
  std::uint64_t total_expansions_ = 0;
  std::string message_;
};

}  // namespace wayfinder
