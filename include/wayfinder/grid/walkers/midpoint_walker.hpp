#pragma once
// The divide-and-conquer midpoint walker ("divide"): a path by halving, with no search at all.
// To join A and B it tries the straight line between them; if that line is blocked it takes the
// cell halfway between them, moves it outwards ring by ring (a square spiral) to the nearest
// passable cell, and joins A to that cell and that cell to B the same way. Segments end when
// their straight line is free (which includes neighbours one allowed move apart). This is the
// divide-and-conquer reconstruction of divide-and-conquer frontier search (R. E. Korf, W. Zhang,
// I. Thayer and H. Hohwald, "Frontier search", Journal of the ACM 52(5):715-748, 2005) with the
// search taken out: there the middle cell of the path is found by searching, here it is guessed
// from the geometry, which is why this walker can fail where a path exists.
//
// It knows nothing of connectivity: a midpoint moved into another room, or into a pocket that
// leads nowhere, makes segments that do not shrink. A depth limit (2 x log2(width + height) + 16
// halvings) and a step limit (default_walker_moves_per_cell x the map's cells segments) end it
// then, with no_path and a message naming the segment it could not join. On open maps it
// returns the straight line; round convex obstacles it usually finds a path; in spirals, mazes
// and U-shaped traps it usually fails.
//
// Straight lines are made of the moves every grid algorithm makes under the DiagonalMode
// (Bresenham lines with diagonals, 4-connected lines without: see crash_walker.hpp), so the path
// passes check_grid_path. stats.expanded counts the segments examined.

#include <cstdint>
#include <string>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/grid/walkers/crash_walker.hpp"  // default_walker_moves_per_cell, shared by the walkers
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

class MidpointWalker {
 public:
  MidpointWalker(const GridMap& map, DiagonalMode diagonal) : map_(map), diagonal_(diagonal) {}
  /// The walker keeps a reference to the map: a temporary map would dangle.
  MidpointWalker(const GridMap&& map, DiagonalMode diagonal) = delete;

  /// Begins joining `start` to `goal`. `step_limit` is the most segments it may examine (0:
  /// default_walker_moves_per_cell x the map's cells). The options' budget (max_expansions
  /// counts segments, and max_time) also ends it: with return_partial the result is then
  /// partial, the path joined so far up to its cell closest to the goal. max_cost is ignored.
  /// Ids out of range or a budget that budget_problem() refuses give invalid_input.
  SearchStatus start(NodeId start, NodeId goal, const SearchOptions& options, std::uint64_t step_limit = 0);
  /// Examines segments until the step's budget (segments, wall time) is spent or it ends.
  SearchStatus step(const StepBudget& step_budget);
  SearchStatus step() { return step(StepBudget::expansions(1)); }
  /// The result into a result the caller owns, reusing its memory (points left empty).
  void result(PathResult& out) const;
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  [[nodiscard]] SearchStatus status() const { return report_.status(); }
  /// The most halvings of one segment.
  [[nodiscard]] int depth_limit() const { return depth_limit_; }

 private:
  struct Segment {
    Cell from;
    Cell to;
    int depth = 0;
  };
  /// The passable cell nearest the midpoint of a segment (ring by ring), other than its ends;
  /// false if there is none within the map.
  bool free_cell_near(Cell middle, Cell from, Cell to, Cell& found);
  void examine(const Segment& segment);

  const GridMap& map_;
  DiagonalMode diagonal_;
  SearchOptions options_;
  std::uint64_t step_limit_ = 0;
  int depth_limit_ = 0;
  NodeId goal_ = invalid_node;
  std::vector<Segment> pending_;  ///< segments still to join, the next on top
  std::vector<Cell> line_;        ///< scratch
  std::vector<NodeId> path_;      ///< joined so far, from the start
  SearchStats stats_;
  RunReport report_;
};

}  // namespace wayfinder
