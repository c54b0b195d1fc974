#pragma once
// Internal to the grid hierarchy (hierarchical_grid_build.cpp, hierarchical_grid_query.cpp): the
// grid inside one cluster as a search domain, and the searches restricted to one cluster that
// the build (costs between a cluster's nodes, their paths) and the queries (connecting the start
// and the goal, the direct search) run.

#include <algorithm>
#include <span>
#include <vector>

#include "core/hierarchy_search.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

namespace hierarchical_grid_detail {

/// The corner rule of the hierarchy's moves: the MovingAI one.
inline constexpr DiagonalMode rule = DiagonalMode::only_if_no_obstacles;

// The grid inside one rectangle (a cluster) as a search domain, with local ids
// (y - rect.y) * rect.width + (x - rect.x) so that a search context sized for one cluster
// serves every cluster. One more id, never reached, is the goal of the searches that must
// exhaust the cluster (the costs from one node to all the others). A diagonal move between two
// cells of the rectangle has both side cells in the rectangle too, so restricting the moves to
// the rectangle never changes the corner rule.
class ClusterDomain {
 public:
  ClusterDomain(const GridMap& map, GridRect rect)
      : map_(map),
        rect_(rect),
        shift_(std::bit_width(static_cast<unsigned>(rect.width - 1))),
        scale_(static_cast<double>(map.min_cost())),
        uniform_(map.uniform_cost()) {
    for (int bit = 0; bit < 9; ++bit) {
      const int dx = bit % 3 - 1;
      const int dy = bit / 3 - 1;
      offsets_[bit] = static_cast<NodeId>(dy * (1 << shift_) + dx);
      map_offsets_[bit] = static_cast<NodeId>(dy * map.width() + dx);
    }
  }

  // Local ids are (y - rect.y) << shift | (x - rect.x), rows padded to a power of two so that
  // a cell's coordinates come back by shifts.
  [[nodiscard]] std::size_t node_count() const { return (static_cast<std::size_t>(rect_.height) << shift_) + 1; }
  [[nodiscard]] NodeId sentinel() const { return static_cast<NodeId>(rect_.height) << shift_; }
  [[nodiscard]] NodeId local(NodeId cell) const {
    const Cell c = map_.cell_of(cell);
    return (static_cast<NodeId>(c.y - rect_.y) << shift_) | static_cast<NodeId>(c.x - rect_.x);
  }
  [[nodiscard]] Cell cell_at(NodeId local_id) const {
    return {rect_.x + static_cast<int>(local_id & ((1u << shift_) - 1)), rect_.y + static_cast<int>(local_id >> shift_)};
  }
  [[nodiscard]] NodeId global(NodeId local_id) const { return map_.id_of(cell_at(local_id)); }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == sentinel()) return;
    const Cell at = cell_at(node);
    std::uint32_t around = map_.neighbourhood(at.x, at.y);
    // Cells outside the rectangle are walls here: the moves to them are never allowed, and a
    // diagonal inside the rectangle has both its side cells inside it.
    if (at.x == rect_.x) around &= ~0b001001001u;
    if (at.x == rect_.x + rect_.width - 1) around &= ~0b100100100u;
    if (at.y == rect_.y) around &= ~0b000000111u;
    if (at.y == rect_.y + rect_.height - 1) around &= ~0b111000000u;
    std::uint32_t moves = allowed_moves(rule, around);
    const NodeId here = map_.id_of(at);
    while (moves != 0) {
      const int bit = std::countr_zero(moves);
      moves &= moves - 1;
      const bool diagonal = (bit & 1) == 0;  // bits 0, 2, 6, 8
      if (uniform_)
        sink(node + offsets_[bit], diagonal ? sqrt2 : 1.0);
      else
        sink(node + offsets_[bit], grid_move_cost(map_, here, here + map_offsets_[bit], diagonal));
    }
  }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const {
    if (from == sentinel() || to == sentinel()) return 0.0;
    const Cell a = cell_at(from);
    const Cell b = cell_at(to);
    return scale_ * grid_distance(Heuristic::octile, a.x - b.x, a.y - b.y);
  }

 private:
  const GridMap& map_;
  GridRect rect_;
  int shift_;
  double scale_;
  bool uniform_;
  NodeId offsets_[9] = {};
  NodeId map_offsets_[9] = {};
};

static_assert(Domain<ClusterDomain>);

}  // namespace hierarchical_grid_detail

// Searches restricted to one cluster, with one reusable context.
class ClusterSearch {
 public:
  explicit ClusterSearch(const GridMap& map) : map_(map) {}

  /// Costs from `from` to each of `targets` inside `rect` (infinite_cost where none).
  void costs_from(const GridRect& rect, NodeId from, std::span<const NodeId> targets, Cost* out, SearchStats& stats) {
    rect_ = rect;
    const hierarchical_grid_detail::ClusterDomain domain(map_, rect);
    locals_.clear();
    for (const NodeId target : targets) locals_.push_back(domain.local(target));
    hierarchy_search::add_stats(stats, hierarchy_search::costs_to_targets(domain, context_, domain.local(from), locals_, out));
  }

  /// After costs_from: the cells of the cheapest path from its `from` to `target` (one whose
  /// cost was finite), appended to `path` in the search's order (from `from`) or reversed
  /// (ending at `from`), without the first cell appended when `path` already ends there.
  void append_tree_path(NodeId target, std::vector<NodeId>& path, bool reversed) {
    const hierarchical_grid_detail::ClusterDomain domain(map_, rect_);
    scratch_.clear();
    for (NodeId at = domain.local(target); at != invalid_node; at = context_.record(at).parent)
      scratch_.push_back(domain.global(at));
    if (!reversed) std::reverse(scratch_.begin(), scratch_.end());
    const bool skip_first = !path.empty() && !scratch_.empty() && path.back() == scratch_.front();
    path.insert(path.end(), scratch_.begin() + (skip_first ? 1 : 0), scratch_.end());
  }

  /// Appends the cells of a cheapest path inside `rect` from `from` to `to` to `path` (without
  /// `from` when the path already ends there). False when there is none.
  bool append_path(const GridRect& rect, NodeId from, NodeId to, std::vector<NodeId>& path, SearchStats& stats) {
    const hierarchical_grid_detail::ClusterDomain domain(map_, rect);
    BestFirstSearch<hierarchical_grid_detail::ClusterDomain> search(domain, context_);
    SearchOptions options;
    options.return_partial = false;
    search.run(domain.local(from), domain.local(to), options);
    hierarchy_search::add_stats(stats, search.stats());
    if (search.status() != SearchStatus::found) return false;
    search.path_to(domain.local(to), scratch_);
    const bool skip_first = !path.empty() && path.back() == from;
    for (std::size_t i = skip_first ? 1 : 0; i < scratch_.size(); ++i) path.push_back(domain.global(scratch_[i]));
    return true;
  }

 private:
  const GridMap& map_;
  SearchContext context_;
  GridRect rect_;  ///< costs_from's
  std::vector<NodeId> scratch_;
  std::vector<NodeId> locals_;
};

}  // namespace wayfinder
