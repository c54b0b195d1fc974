#pragma once
// Internal to the grid hierarchy (hierarchical_grid_build.cpp, hierarchical_grid_query.cpp): the
// grid inside one cluster as a search domain, and the searches restricted to one cluster that
// the build (costs between a cluster's nodes, their paths) and the queries (connecting the start
// and the goal, the direct search) run.

#include <algorithm>
#include <optional>
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

// Searches restricted to one cluster, with one reusable context. Each runs whole (for the
// build) or stepped (for a query: start_*, then step_*, then the result), one at a time.
class ClusterSearch {
 public:
  using Domain = hierarchical_grid_detail::ClusterDomain;

  explicit ClusterSearch(const GridMap& map) : map_(map) {}

  /// Costs from `from` to each of `targets` inside `rect` (infinite_cost where none).
  void costs_from(const GridRect& rect, NodeId from, std::span<const NodeId> targets, Cost* out, SearchStats& stats) {
    if (start_costs(rect, from, targets, Budget{}) == SearchStatus::in_progress) step_costs(Budget::unlimited_expansions);
    write_costs(out);
    hierarchy_search::add_stats(stats, costs_stats());
  }

  /// Starts the search of the costs from `from` to each of `targets` inside `rect`, ended by
  /// `budget` as the engine is (its max_cost is not applied). Returns as step_costs() does.
  SearchStatus start_costs(const GridRect& rect, NodeId from, std::span<const NodeId> targets, const Budget& budget) {
    rect_ = rect;
    const Domain& domain = domain_.emplace(map_, rect);
    locals_.clear();
    for (const NodeId target : targets) locals_.push_back(domain.local(target));
    Budget costs_budget = budget;
    costs_budget.max_cost = infinite_cost;
    return costs_.emplace(domain, context_).start(domain.local(from), locals_, costs_budget);
  }
  /// Up to `max_expansions` more: found once the costs are final, in_progress, or a stop
  /// (costs_outcome() says why).
  SearchStatus step_costs(std::uint64_t max_expansions) { return costs_->step(max_expansions); }
  void write_costs(Cost* out) const { costs_->write_costs(out); }
  [[nodiscard]] RunOutcome costs_outcome() const { return costs_->outcome(); }
  [[nodiscard]] const SearchStats& costs_stats() const { return costs_->stats(); }

  /// After the costs' search: the cells of the cheapest path from its `from` to `target` (one
  /// whose cost was finite), appended to `path` in the search's order (from `from`) or reversed
  /// (ending at `from`), without the first cell appended when `path` already ends there.
  void append_tree_path(NodeId target, std::vector<NodeId>& path, bool reversed) {
    const Domain domain(map_, rect_);
    scratch_.clear();
    for (NodeId at = domain.local(target); at != invalid_node; at = context_.record(at).parent)
      scratch_.push_back(domain.global(at));
    if (!reversed) std::reverse(scratch_.begin(), scratch_.end());
    const bool skip_first = !path.empty() && !scratch_.empty() && path.back() == scratch_.front();
    path.insert(path.end(), scratch_.begin() + (skip_first ? 1 : 0), scratch_.end());
  }

  /// Starts A* for a cheapest path inside `rect` from `from` to `to` under `options` (its
  /// return_partial is not used: a stop gives no path).
  SearchStatus start_path(const GridRect& rect, NodeId from, NodeId to, SearchOptions options) {
    rect_ = rect;
    const Domain& domain = domain_.emplace(map_, rect);
    options.return_partial = false;
    options.partial_when_unreachable = false;
    return path_.emplace(domain, context_).start(domain.local(from), domain.local(to), options);
  }
  SearchStatus step_path(std::uint64_t max_expansions) { return path_->step(max_expansions); }
  [[nodiscard]] RunOutcome path_outcome() const { return path_->outcome(); }
  [[nodiscard]] const SearchStats& path_stats() const { return path_->stats(); }
  /// After step_path() returned found: appends the path's cells to `path` (without its first
  /// cell when the path already ends there).
  void append_found_path(std::vector<NodeId>& path) {
    path_->path_to(path_->goal_node(), scratch_);
    const bool skip_first = !path.empty() && !scratch_.empty() && path.back() == domain_->global(scratch_.front());
    for (std::size_t i = skip_first ? 1 : 0; i < scratch_.size(); ++i) path.push_back(domain_->global(scratch_[i]));
  }

  /// The memory the search state holds (what Budget::max_memory_bytes counts).
  [[nodiscard]] std::size_t memory_bytes() const { return context_.memory_bytes(); }

 private:
  const GridMap& map_;
  SearchContext context_;
  GridRect rect_;  ///< the last search's
  std::optional<Domain> domain_;
  std::optional<hierarchy_search::TargetCostSearch<Domain>> costs_;
  std::optional<BestFirstSearch<Domain>> path_;
  std::vector<NodeId> scratch_;
  std::vector<NodeId> locals_;
};

}  // namespace wayfinder
