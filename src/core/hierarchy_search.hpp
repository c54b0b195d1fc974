#pragma once
// Pieces the two hierarchical searches (src/grid/hierarchical_grid_*, src/voxel/voxel_hierarchy_*)
// share: the abstract graph with a query's start and goal inserted and A* over it, Dijkstra's
// search from one node to a set of targets, and adding up the statistics of several searches. Internal: not
// installed.

#include <algorithm>
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

/// Dijkstra's search from `from` over `domain` (which has an id, sentinel(), that is never
/// reached, as its goal), stopped once every target is closed; the targets' costs go to `out`
/// (infinite_cost where unreachable). The context keeps the search tree. Returns the search's
/// statistics.
template <class D>
SearchStats costs_to_targets(const D& domain, SearchContext& context, NodeId from, std::span<const NodeId> targets,
                             Cost* out) {
  BestFirstSearch<D> search(domain, context);
  SearchOptions options;
  options.h_weight = 0.0;
  if (search.start(from, domain.sentinel(), options) == SearchStatus::in_progress) {
    std::size_t closed = 0;
    while (search.step(16) == SearchStatus::in_progress) {
      while (closed < targets.size() && context.reached(targets[closed]) &&
             context.record(targets[closed]).state() == NodeRecord::State::closed)
        ++closed;
      if (closed == targets.size()) break;
    }
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const NodeId target = targets[i];
    const bool final = context.reached(target) && context.record(target).state() == NodeRecord::State::closed;
    out[i] = final ? context.record(target).g : infinite_cost;
  }
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
