#pragma once
// The "crash" walker: a reactive bug algorithm on a grid (Bug2: V. J. Lumelsky and A. A.
// Stepanov, Algorithmica 2:403-430, 1987). It knows only the cells next to it and moves one cell
// per step: along the straight line from the start to the goal, round an obstacle's wall with
// the right or left hand (`automatic` chooses at the first obstacle), and back onto the line
// closer to the goal. FourWayCrashWalker races right and left hands from both ends.
//
// Guarantees: the path is the walk as walked, every move (a cell may repeat), each move allowed
// by the grid's DiagonalMode, with its true cost. A walk that loops round a wall with both hands
// (Brent's cycle detection) ends in no_path, "the walker looped"; one past the step limit
// (default 4 x the map's cells) in budget_exhausted. stats.expanded counts moves;
// stats.generated also counts the moves the automatic hand imagines. How it walks, and the maps
// where it fails: docs/grid.md, "Reactive walkers".

#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/run_outcome.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

/// Which hand stays on the wall while a walker goes round an obstacle.
enum class WallHand : std::uint8_t {
  right,      ///< the wall on the walker's right
  left,       ///< the wall on its left
  automatic,  ///< chosen at the first obstacle (see above); then kept
};

/// The step limit walkers use when none is given: this many moves per cell of the map.
inline constexpr std::uint64_t default_walker_moves_per_cell = 4;

/// One right- or left-handed crash walker. Reusable: start() begins a new walk.
class CrashWalker {
 public:
  CrashWalker(const GridMap& map, DiagonalMode diagonal) : map_(map), diagonal_(diagonal) {}
  /// The walker keeps a reference to the map: a temporary map would dangle.
  CrashWalker(const GridMap&& map, DiagonalMode diagonal) = delete;

  /// Begins a walk. `step_limit` is the most moves it may make (0: default_walker_moves_per_cell
  /// x the map's cells). The options' budget (max_expansions counts moves, and max_time) also
  /// ends it: with return_partial the result is then partial, the walk up to the cell closest to
  /// the goal it reached. Weights and max_cost are ignored (a walker cannot know what is left to
  /// walk). Ids out of range or a budget that budget_problem() refuses give invalid_input.
  SearchStatus start(NodeId start, NodeId goal, WallHand hand, const SearchOptions& options,
                     std::uint64_t step_limit = 0);
  /// Makes moves until the step's budget (moves, wall time) is spent or the walk ends.
  SearchStatus step(const StepBudget& step_budget);
  /// One move (or the end of the walk).
  SearchStatus step() { return step(StepBudget::expansions(1)); }
  /// The walk so far (in_progress), or its end, into a result the caller owns, reusing its
  /// memory. Points are left empty (the pathfinder fills cell centres).
  void result(PathResult& out) const;
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  [[nodiscard]] SearchStatus status() const { return report_.status(); }
  /// The cells walked so far, from the start.
  [[nodiscard]] const std::vector<NodeId>& walked() const { return walk_; }
  /// The hand in use now (after a switch, the other one).
  [[nodiscard]] WallHand hand() const { return hand_; }
  /// The octile distance to the goal of the walked cell closest to it.
  [[nodiscard]] double closest_distance() const { return closest_distance_; }
  /// Where that cell is in walked().
  [[nodiscard]] std::size_t closest_index() const { return closest_; }

 private:
  enum class Mode : std::uint8_t { on_line, following_wall };
  /// The walker's state while it follows a wall: where it is and where the wall is.
  struct FollowState {
    NodeId cell = invalid_node;
    int wall = 0;  ///< direction (0..7, clockwise from north) of the wall cell the sweep starts at
    friend bool operator==(const FollowState&, const FollowState&) = default;
  };

  bool move_allowed(Cell from, int direction) const;
  /// The next move of a wall follower at `at` with the wall at `wall`; -1 when boxed in. Sets
  /// `next_wall` to the wall's direction as seen from the new cell.
  int follow_move(Cell at, int wall, WallHand hand, int& next_wall) const;
  /// Whether a walker at m-line index `index` may leave the wall (see the rule above).
  bool may_leave_at(std::size_t index) const;
  std::size_t line_index_of(Cell cell) const;  ///< index on the m-line, or npos
  WallHand choose_hand(Cell at, int wall);  ///< counts its imagined moves in stats.generated
  void make_move(NodeId to, bool diagonal);
  void begin_following(Cell at, int wall);
  const GridMap& map_;
  DiagonalMode diagonal_;
  SearchOptions options_;
  std::uint64_t step_limit_ = 0;
  NodeId goal_ = invalid_node;
  WallHand hand_ = WallHand::right;
  bool hand_chosen_ = false;   ///< automatic: decided at the first obstacle
  bool hand_switched_ = false; ///< this obstacle: the other hand has been tried
  Mode mode_ = Mode::on_line;
  std::vector<Cell> line_;     ///< the m-line, start to goal
  std::size_t line_at_ = 0;    ///< the walker's index on the m-line (on_line)
  std::size_t hit_index_ = 0;  ///< m-line index where the current wall was hit
  int wall_ = 0;
  // Brent's cycle detection over FollowState.
  FollowState saved_;
  std::uint64_t power_ = 1;
  std::uint64_t lambda_ = 0;

  std::vector<NodeId> walk_;
  Cost walked_cost_ = 0.0;
  std::size_t closest_ = 0;  ///< index in walk_ of the walked cell closest to the goal
  double closest_distance_ = 0.0;
  SearchStats stats_;
  RunReport report_;
};

/// Four crash walkers at once: right- and left-handed from the start to the goal, and from the
/// goal to the start, one move each in turn. The first to arrive wins (a walk from the goal is
/// reversed); it fails only when all four fail. stats.expanded counts the moves of all four.
class FourWayCrashWalker {
 public:
  FourWayCrashWalker(const GridMap& map, DiagonalMode diagonal)
      : map_(map),
        walkers_{CrashWalker(map, diagonal), CrashWalker(map, diagonal), CrashWalker(map, diagonal),
                 CrashWalker(map, diagonal)} {}
  FourWayCrashWalker(const GridMap&& map, DiagonalMode diagonal) = delete;

  /// As CrashWalker::start; `step_limit` applies to each walker, the options' budget to the
  /// moves of all four together.
  SearchStatus start(NodeId start, NodeId goal, const SearchOptions& options, std::uint64_t step_limit = 0);
  SearchStatus step(const StepBudget& step_budget);
  SearchStatus step() { return step(StepBudget::expansions(1)); }
  void result(PathResult& out) const;
  [[nodiscard]] SearchStats stats() const;
  [[nodiscard]] SearchStatus status() const { return report_.status(); }
  /// Which walker arrived (0, 1: right, left from the start; 2, 3: right, left from the goal),
  /// or -1.
  [[nodiscard]] int winner() const { return winner_; }

 private:
  void finish_when_all_failed();

  const GridMap& map_;
  CrashWalker walkers_[4];
  SearchOptions options_;
  std::uint64_t moves_ = 0;
  int turn_ = 0;
  int winner_ = -1;
  RunReport report_;
  double microseconds_ = 0.0;
};

}  // namespace wayfinder
