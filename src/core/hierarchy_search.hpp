#pragma once
// Pieces the two hierarchical searches (src/grid/hierarchical_grid_*, src/voxel/voxel_hierarchy_*)
// share: the abstract graph with a query's start and goal inserted and A* over it, Dijkstra's
// search from one node to a set of targets, and adding up the statistics of several searches. Internal: not
// installed.

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder::hierarchy_search {

/// Adds the work of one search to a query's statistics (the peak open list is the largest).
inline void add_stats(SearchStats& total, const SearchStats& part) {
  total.expanded += part.expanded;
  total.generated += part.generated;
  total.peak_open = std::max(total.peak_open, part.peak_open);
}

/// What is left of a query's `budget` for its next search, after `expanded` expansions and
/// `microseconds` of the query so far, when the query's other search state holds
/// `others_memory` bytes (the next search's engine adds its own context's measure). A hierarchy's
/// query is several searches in turn under one Budget, so each starts with what the ones before
/// left: the query stops with the reason of the field that ran out, as a single search would.
inline Budget budget_left(const Budget& budget, std::uint64_t expanded, double microseconds, std::size_t others_memory) {
  Budget left = budget;
  if (budget.max_expansions != Budget::unlimited_expansions)
    left.max_expansions = budget.max_expansions - std::min(budget.max_expansions, expanded);
  if (budget.max_time.count() > 0) {
    // At least a nanosecond: zero would mean no limit, and the search reads its clock before
    // its first expansion.
    const auto spent =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double, std::micro>(microseconds));
    left.max_time = std::max(budget.max_time - spent, std::chrono::nanoseconds{1});
  }
  if (budget.max_memory_bytes != 0)
    left.max_memory_bytes = budget.max_memory_bytes > others_memory ? budget.max_memory_bytes - others_memory : 1;
  return left;
}

/// One step of a query made of several searches in turn: `run(n)` advances the query by up to n
/// expansions and returns its status, `expanded()` counts its expansions so far. A timed step
/// reads the clock between chunks of StepBudget::time_check_interval expansions (and not before
/// the first), as every search's step reads it.
template <class Run, class Expanded>
SearchStatus step_in_chunks(const StepBudget& budget, Run&& run, Expanded&& expanded) {
  if (!budget.timed()) return run(budget.max_expansions);
  const auto began = std::chrono::steady_clock::now();
  SearchStatus status = SearchStatus::in_progress;
  std::uint64_t done = 0;
  while (status == SearchStatus::in_progress && done < budget.max_expansions) {
    const std::uint64_t before = expanded();
    status = run(std::min(budget.max_expansions - done, StepBudget::time_check_interval));
    done += expanded() - before;
    if (std::chrono::steady_clock::now() - began >= budget.max_time) break;
  }
  return status;
}

/// A hierarchy's query result into `out`: the settled result once the query has ended (`settled`
/// holds a final status), else in_progress with the statistics so far.
inline void write_query_result(const PathResult& settled, const SearchStats& so_far, PathResult& out) {
  if (settled.status != SearchStatus::in_progress) {
    out = settled;  // assignment keeps out's memory
    return;
  }
  out.reset();
  out.status = SearchStatus::in_progress;
  out.stats = so_far;
}

/// Dijkstra's search from one node over `domain` (which has an id, sentinel(), that is never
/// reached, as its goal) until every one of a set of targets is closed, steppable: the query's
/// connection of its start or goal to the nodes of their clusters, and the build's costs
/// between a cluster's nodes. The targets are tested every `check_interval` expansions of the
/// search, so where it ends (and its statistics) do not depend on how it is stepped. The
/// context keeps the search tree.
template <class D>
class TargetCostSearch {
 public:
  static constexpr std::uint64_t check_interval = 16;

  TargetCostSearch(const D& domain, SearchContext& context) : domain_(domain), context_(context), search_(domain, context) {}
  TargetCostSearch(const D&& domain, SearchContext& context) = delete;

  /// Begins at `from`; `targets` are read (not copied) until the search ends. The budget ends it
  /// as it ends the engine (its max_cost should be infinite: every cost up to the last target
  /// is needed). Returns in_progress, or a final status as step() does.
  SearchStatus start(NodeId from, std::span<const NodeId> targets, const Budget& budget = {}) {
    targets_ = targets;
    closed_ = 0;
    SearchOptions options;
    options.h_weight = 0.0;
    options.budget = budget;
    options.return_partial = false;
    status_ = search_.start(from, domain_.sentinel(), options);
    if (status_ == SearchStatus::no_path) status_ = SearchStatus::found;
    return status_;
  }

  /// Expands up to `max_expansions` more nodes. Returns found once every target is closed or
  /// everything reachable was searched (the costs are then final), budget_exhausted (or
  /// invalid_input) when the search stopped for that (see outcome()), in_progress otherwise.
  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    std::uint64_t done = 0;
    while (status_ == SearchStatus::in_progress && done < max_expansions) {
      const std::uint64_t before = search_.stats().expanded;
      const std::uint64_t chunk = std::min(max_expansions - done, check_interval - before % check_interval);
      const SearchStatus status = search_.step(chunk);
      done += search_.stats().expanded - before;
      if (status == SearchStatus::no_path) {
        status_ = SearchStatus::found;
      } else if (status != SearchStatus::in_progress) {
        status_ = status;
      } else if (search_.stats().expanded % check_interval == 0) {
        while (closed_ < targets_.size() && closed(targets_[closed_])) ++closed_;
        if (closed_ == targets_.size()) status_ = SearchStatus::found;
      }
    }
    return status_;
  }

  /// The targets' costs (infinite_cost where none was found) into `out`; final once step()
  /// returned found.
  void write_costs(Cost* out) const {
    for (std::size_t i = 0; i < targets_.size(); ++i)
      out[i] = closed(targets_[i]) ? context_.record(targets_[i]).g : infinite_cost;
  }

  /// The search's outcome (its stop reason when the budget stopped it).
  [[nodiscard]] RunOutcome outcome() const { return search_.outcome(); }
  [[nodiscard]] const SearchStats& stats() const { return search_.stats(); }

 private:
  [[nodiscard]] bool closed(NodeId node) const {
    return context_.reached(node) && context_.record(node).state() == NodeRecord::State::closed;
  }

  const D& domain_;
  SearchContext& context_;
  BestFirstSearch<D> search_;
  std::span<const NodeId> targets_;
  std::size_t closed_ = 0;
  SearchStatus status_ = SearchStatus::invalid_input;
};

/// A whole TargetCostSearch from `from`: the targets' costs go to `out` (infinite_cost where
/// unreachable). Returns the search's statistics.
template <class D>
SearchStats costs_to_targets(const D& domain, SearchContext& context, NodeId from, std::span<const NodeId> targets,
                             Cost* out) {
  TargetCostSearch<D> search(domain, context);
  if (search.start(from, targets) == SearchStatus::in_progress) search.step();
  search.write_costs(out);
  return search.stats();
}

/// A hierarchy's abstract graph with a query's start and goal inserted: ids 0..N-1 are the
/// hierarchy's nodes, N the start and N + 1 the goal. The start's edges lead to the nodes of its
/// cluster, and the nodes of the goal's cluster have one more edge, to the goal, with the
/// in-cluster costs the query found (infinite_cost: none).
///
/// `Graph` has node_count(), edges(node) (each with `to` and `cost`), cluster_first_node(c) and
/// cluster_end_node(c); `Locate` gives a node's world id; `Estimate` the heuristic between two
/// world ids.
template <class Graph, class Locate, class Estimate>
class AbstractDomain {
 public:
  AbstractDomain(const Graph& graph, Locate locate, Estimate estimate, NodeId start_place, NodeId goal_place,
                 int start_cluster, int goal_cluster, const std::vector<Cost>& start_costs,
                 const std::vector<Cost>& goal_costs)
      : graph_(graph),
        locate_(locate),
        estimate_(estimate),
        start_place_(start_place),
        goal_place_(goal_place),
        start_first_(graph.cluster_first_node(start_cluster)),
        goal_first_(graph.cluster_first_node(goal_cluster)),
        goal_end_(graph.cluster_end_node(goal_cluster)),
        start_costs_(start_costs),
        goal_costs_(goal_costs) {}

  [[nodiscard]] std::size_t node_count() const { return graph_.node_count() + 2; }
  [[nodiscard]] NodeId start() const { return static_cast<NodeId>(graph_.node_count()); }
  [[nodiscard]] NodeId goal() const { return static_cast<NodeId>(graph_.node_count() + 1); }
  /// The world id of a node, the start or the goal.
  [[nodiscard]] NodeId place(NodeId node) const {
    if (node == start()) return start_place_;
    if (node == goal()) return goal_place_;
    return locate_(node);
  }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == start()) {
      for (std::size_t i = 0; i < start_costs_.size(); ++i)
        if (start_costs_[i] != infinite_cost) sink(static_cast<NodeId>(start_first_ + i), start_costs_[i]);
      return;
    }
    if (node == goal()) return;
    for (const auto& edge : graph_.edges(node)) sink(edge.to, edge.cost);
    if (node >= goal_first_ && node < goal_end_) {
      const Cost cost = goal_costs_[node - goal_first_];
      if (cost != infinite_cost) sink(goal(), cost);
    }
  }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const { return estimate_(place(from), place(to)); }

 private:
  const Graph& graph_;
  Locate locate_;
  Estimate estimate_;
  NodeId start_place_;
  NodeId goal_place_;
  std::uint32_t start_first_;
  std::uint32_t goal_first_;
  std::uint32_t goal_end_;
  const std::vector<Cost>& start_costs_;
  const std::vector<Cost>& goal_costs_;
};

/// A* over an AbstractDomain from its start to its goal. True when it finds a path, which then
/// goes to `path` (the start, the hierarchy's nodes, the goal); the search's work is added to
/// `stats` either way.
template <class Abstract>
bool search_abstract_graph(const Abstract& domain, SearchContext& context, SearchStats& stats,
                           std::vector<NodeId>& path) {
  BestFirstSearch<Abstract> search(domain, context);
  SearchOptions options;
  options.return_partial = false;
  search.run(domain.start(), domain.goal(), options);
  add_stats(stats, search.stats());
  if (search.status() != SearchStatus::found) return false;
  search.path_to(domain.goal(), path);
  return true;
}

}  // namespace wayfinder::hierarchy_search
