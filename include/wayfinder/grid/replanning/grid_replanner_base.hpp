#pragma once
// What the grid's two replanners share (GridReplanner: D* Lite; GridAdaptiveReplanner: MPAA*):
// one agent on a shared map walking to a fixed goal, the map's edits read from its change log,
// the checks every plan() makes, the statistics, the plan returned as a PathResult, and the
// interface (plan(), move_to(), path(), cost(), next_cell()), declared and documented here once.
// The algorithms behind the interface are each replanner's own.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

/// Every grid replanner inherits the constructor declared here (`using
/// GridReplannerBase::GridReplannerBase;`), so that the constructor's contract is written once.
class GridReplannerBase {
 public:
  /// The replanner keeps a reference to `map`, which must outlive it (a temporary map does not
  /// compile); nothing is searched until plan(). The base is abstract: only the replanners that
  /// inherit this constructor are built with it.
  GridReplannerBase(const GridMap& map, Cell start, Cell goal, DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles)
      : map_(map), start_(start), goal_(goal), diagonal_(diagonal), seen_revision_(map.revision()) {}
  GridReplannerBase(const GridMap&& map, Cell start, Cell goal,
                    DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles) = delete;

  /// Brings the plan up to date with the map and the agent's cell; returns found, no_path (the
  /// goal is cut off, or the agent or goal stands on a blocked cell) or invalid_input (start or
  /// goal outside the map, a bad diagonal mode).
  virtual SearchStatus plan() = 0;
  /// The agent is now at `cell` (usually next_cell()); any cell is accepted.
  void move_to(Cell cell) {
    const Cell from = start_;
    start_ = cell;
    moved(from);
  }
  /// The plan from the agent's cell to the goal as of the last plan() (nodes, points at cell
  /// centres, cost): found or no_path. It follows the replanner's next_move() from the agent's
  /// cell, so it is written once here.
  [[nodiscard]] PathResult path() const;
  /// The plan's cost (infinite when there is no path).
  [[nodiscard]] virtual Cost cost() const = 0;
  /// The next cell to step to, or the agent's own cell when it is at the goal or has no path.
  [[nodiscard]] virtual Cell next_cell() const = 0;

  /// Reads the map's edits since the last call (or since construction) from its change log and
  /// marks what they affect for repair by the next plan(). When the log no longer reaches back,
  /// or an edit made some cell cheaper than the cheapest cell the heuristic was scaled by, the
  /// next plan() starts from scratch. Returns the number of changed cells read.
  std::size_t notify_changes();

  /// The agent's cell and the goal.
  [[nodiscard]] Cell position() const { return start_; }
  [[nodiscard]] Cell goal() const { return goal_; }
  /// Expansions of the last plan() (the repair's work), and in total.
  [[nodiscard]] std::uint64_t last_expansions() const { return last_expansions_; }
  [[nodiscard]] std::uint64_t total_expansions() const { return total_expansions_; }
  /// Why the last plan() gave invalid_input or no_path ("" otherwise).
  [[nodiscard]] const std::string& message() const { return message_; }

 protected:
  /// The checks at the start of plan(): false, with the message, for a bad diagonal mode or a
  /// start or goal outside the map.
  [[nodiscard]] bool ends_on_the_map();
  /// False, with the message, when the agent's cell or the goal is blocked.
  [[nodiscard]] bool ends_passable();
  /// The message for a goal the agent cannot reach.
  void say_unreachable();
  /// A fresh start has begun: the changes read so far are part of it, and the heuristic is
  /// scaled by the map's cheapest cell.
  void started_over();

  /// Calls visit(neighbour, move cost) for every move allowed from `node` on the map as it is.
  template <class Visit>
  void for_each_move(NodeId node, Visit&& visit) const {
    const Cell at = map_.cell_of(node);
    if (!map_.passable(at)) return;  // a blocked cell has no moves, in or out
    const std::uint16_t allowed = allowed_moves(diagonal_, map_.neighbourhood(at.x, at.y));
    for (int i = 0; i < 8; ++i) {
      const int dx = move_dx[i], dy = move_dy[i];
      if (!((allowed >> ((dy + 1) * 3 + (dx + 1))) & 1u)) continue;
      const NodeId next = map_.id_of(at.x + dx, at.y + dy);
      visit(next, grid_move_cost(map_, node, next, dx != 0 && dy != 0));
    }
  }

  /// Called by move_to() once position() is the agent's new cell, with the cell it left: a
  /// replanner that keeps something about the agent's cell brings it up to date here.
  virtual void moved(Cell /*from*/) {}
  /// Whether the last plan() left a plan that path() can follow from the agent's cell.
  [[nodiscard]] virtual bool has_plan() const = 0;
  /// The plan's move from `at`: the next cell and the move's cost ({invalid_node, ...} or an
  /// infinite cost where the plan breaks).
  [[nodiscard]] virtual std::pair<NodeId, Cost> next_move(NodeId at) const = 0;

  /// The eight moves, in the order for_each_move visits them.
  static constexpr int move_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
  static constexpr int move_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

  const GridMap& map_;
  Cell start_;
  Cell goal_;
  DiagonalMode diagonal_;
  double heuristic_scale_ = 1.0;        ///< the map's cheapest cell cost when the plan started
  std::uint64_t seen_revision_ = 0;     ///< the map's revision notify_changes() read up to
  std::vector<NodeId> changed_cells_;   ///< cells changed since the last plan()
  bool initialised_ = false;
  bool start_over_ = false;             ///< the next plan() starts from scratch
  std::uint64_t last_expansions_ = 0;
  std::uint64_t total_expansions_ = 0;
  std::string message_;
};

}  // namespace wayfinder
