#pragma once
// Bidirectional A*: one A* from the start towards the goal and one from the goal towards the
// start, each expanding the side with the smaller open list (Pohl 1971, "Bi-directional
// search"). Every time a node reached by one side improves, the cost of the path through it
// is offered as the best meeting cost mu. The search stops once mu <= max(min f forward,
// min f backward): with consistent heuristics each side's smallest f bounds every path that
// still passes through an unexpanded node of that side, so nothing cheaper than mu remains.
//
// The domain must be undirected (every move costs the same both ways), as grids are.

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "wayfinder/core/best_first_search.hpp"

namespace wayfinder {

template <class D>
  requires Domain<D>
class BidirectionalSearch {
 public:
  BidirectionalSearch(const D& domain, SearchContext& forward_context, SearchContext& backward_context)
      : forward_(domain, forward_context), backward_(domain, backward_context) {}

  SearchStatus start(NodeId start, NodeId goal, const SearchOptions& options) {
    options_ = options;
    best_cost_ = infinite_cost;
    meeting_ = invalid_node;
    extra_microseconds_ = 0.0;
    report_.begin();
    if (std::optional<std::string> problem = budget_problem(options.budget))
      return report_.finish(RunOutcome::invalid_input(), std::move(*problem));
    SearchOptions side;  // both sides unbudgeted, unweighted: the budget is enforced here
    side.trace = options.trace;
    if (forward_.start(start, goal, side) != SearchStatus::in_progress) return copy_final(forward_);
    if (backward_.start(goal, start, side) != SearchStatus::in_progress) return copy_final(backward_);
    // Sizing the sides' contexts (counted in their statistics) counts here too.
    extra_microseconds_ = forward_.stats().microseconds + backward_.stats().microseconds;
    if (start == goal) {
      best_cost_ = 0.0;
      meeting_ = start;
      return finish(RunOutcome::goal_reached());
    }
    return report_.status();
  }

  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    return step(StepBudget::expansions(max_expansions));
  }

  /// Expands nodes (of both sides together) until the step's budget is spent or the search ends.
  SearchStatus step(const StepBudget& step_budget) {
    if (!report_.running()) return report_.status();
    const SearchClock clock(options_.budget, step_budget, extra_microseconds_);
    auto met_from_forward = [this](NodeId node, Cost g) { offer(node, g + backward_.context().g(node)); };
    auto met_from_backward = [this](NodeId node, Cost g) { offer(node, g + forward_.context().g(node)); };
    std::uint64_t done = 0;
    while (report_.running()) {
      const Cost lower_bound = std::max(forward_.min_priority(), backward_.min_priority());
      if (best_cost_ <= lower_bound) {
        finish(best_cost_ < infinite_cost ? RunOutcome::goal_reached()
                                          : RunOutcome::unreachable(options_.partial_when_unreachable));
        break;
      }
      const StopReason budget_stop = clock.budget_stop(
          forward_.stats().expanded + backward_.stats().expanded,
          [&] { return lower_bound > options_.budget.max_cost; },
          [&] { return forward_.context().memory_bytes() + backward_.context().memory_bytes(); });
      if (budget_stop != StopReason::none) {
        finish(RunOutcome::budget_spent(budget_stop, options_.return_partial));
        break;
      }
      if (clock.step_over(done)) break;
      if (forward_.open_size() <= backward_.open_size())
        forward_.expand_one(met_from_forward);
      else
        backward_.expand_one(met_from_backward);
      ++done;
    }
    extra_microseconds_ += clock.step_microseconds();
    return report_.status();
  }

  PathResult run(NodeId start_node, NodeId goal_node, const SearchOptions& options) {
    if (start(start_node, goal_node, options) == SearchStatus::in_progress) step();
    return result();
  }

  [[nodiscard]] SearchStatus status() const { return report_.status(); }

  [[nodiscard]] PathResult result() const {
    PathResult out;
    result(out);
    return out;
  }

  /// Both sides' statistics together, so far.
  [[nodiscard]] SearchStats stats() const {
    SearchStats stats;
    stats.expanded = forward_.stats().expanded + backward_.stats().expanded;
    stats.generated = forward_.stats().generated + backward_.stats().generated;
    stats.peak_open = forward_.stats().peak_open + backward_.stats().peak_open;
    stats.microseconds = extra_microseconds_;
    return stats;
  }

  /// The same into a result the caller owns, reusing its memory (see BestFirstSearch::result).
  void result(PathResult& out) const {
    report_.write(out, stats());
    if (report_.status() == SearchStatus::found) {
      forward_.path_to(meeting_, out.nodes);
      // The backward half, from the meeting node to the goal: its parent links lead to the goal.
      for (NodeId at = backward_.context().record(meeting_).parent; at != invalid_node;
           at = backward_.context().record(at).parent)
        out.nodes.push_back(at);
      out.cost = best_cost_;
    } else if (report_.status() == SearchStatus::partial) {
      const NodeId end = forward_.closest_node() != invalid_node ? forward_.closest_node() : forward_.start_node();
      forward_.path_to(end, out.nodes);
      out.cost = forward_.context().g(end);
    }
  }

 private:
  void offer(NodeId node, Cost cost) {
    if (cost < best_cost_) {
      best_cost_ = cost;
      meeting_ = node;
    }
  }

  SearchStatus copy_final(const BestFirstSearch<D>& side) {
    PathResult final_result = side.result();
    return report_.finish({final_result.status, final_result.reason}, std::move(final_result.message));
  }

  SearchStatus finish(RunOutcome outcome) { return report_.finish(outcome); }

  BestFirstSearch<D> forward_;
  BestFirstSearch<D> backward_;
  SearchOptions options_;
  Cost best_cost_ = infinite_cost;
  NodeId meeting_ = invalid_node;
  double extra_microseconds_ = 0.0;
  RunReport report_;
};

}  // namespace wayfinder
