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
#include <chrono>

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
    status_ = SearchStatus::in_progress;
    reason_ = StopReason::none;
    message_.clear();
    SearchOptions side;  // both sides unbudgeted, unweighted: the budget is enforced here
    side.trace = options.trace;
    if (forward_.start(start, goal, side) != SearchStatus::in_progress) return copy_final(forward_);
    if (backward_.start(goal, start, side) != SearchStatus::in_progress) return copy_final(backward_);
    // Sizing the sides' contexts (counted in their statistics) counts here too.
    extra_microseconds_ = forward_.stats().microseconds + backward_.stats().microseconds;
    if (start == goal) {
      best_cost_ = 0.0;
      meeting_ = start;
      return finish(SearchStatus::found, StopReason::goal_reached);
    }
    return status_;
  }

  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    return step(StepBudget::expansions(max_expansions));
  }

  /// Expands nodes (of both sides together) until the step's budget is spent or the search ends.
  SearchStatus step(const StepBudget& step_budget) {
    if (status_ != SearchStatus::in_progress) return status_;
    const std::uint64_t max_expansions = step_budget.max_expansions;
    const auto started = std::chrono::steady_clock::now();
    const Budget& budget = options_.budget;
    const bool timed = budget.max_time.count() > 0;
    const bool memory_capped = budget.max_memory_bytes != 0;
    const double time_limit_us = std::chrono::duration<double, std::micro>(budget.max_time).count();
    auto met_from_forward = [this](NodeId node, Cost g) { offer(node, g + backward_.context().g(node)); };
    auto met_from_backward = [this](NodeId node, Cost g) { offer(node, g + forward_.context().g(node)); };
    std::uint64_t done = 0;
    while (status_ == SearchStatus::in_progress) {
      const Cost forward_bound = forward_.min_priority();
      const Cost backward_bound = backward_.min_priority();
      const Cost lower_bound = std::max(forward_bound, backward_bound);
      if (best_cost_ <= lower_bound) {
        if (best_cost_ < infinite_cost)
          finish(SearchStatus::found, StopReason::goal_reached);
        else
          stop_unreachable();
        break;
      }
      const std::uint64_t expanded = forward_.stats().expanded + backward_.stats().expanded;
      if (expanded >= budget.max_expansions) {
        stop_budget(StopReason::expansion_limit);
        break;
      }
      if (lower_bound > budget.max_cost) {
        stop_budget(StopReason::cost_limit);
        break;
      }
      if (timed && (expanded % Budget::time_check_interval) == 0 &&
          extra_microseconds_ + elapsed_us(started) >= time_limit_us) {
        stop_budget(StopReason::time_limit);
        break;
      }
      if (memory_capped && (expanded % Budget::time_check_interval) == 0 &&
          forward_.context().memory_bytes() + backward_.context().memory_bytes() > budget.max_memory_bytes) {
        stop_budget(StopReason::memory_limit);
        break;
      }
      if (done >= max_expansions || step_time_is_up(step_budget, done, started)) break;
      if (forward_.open_size() <= backward_.open_size())
        forward_.expand_one(met_from_forward);
      else
        backward_.expand_one(met_from_backward);
      ++done;
    }
    extra_microseconds_ += elapsed_us(started);
    return status_;
  }

  PathResult run(NodeId start_node, NodeId goal_node, const SearchOptions& options) {
    if (start(start_node, goal_node, options) == SearchStatus::in_progress) step();
    return result();
  }

  [[nodiscard]] SearchStatus status() const { return status_; }

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
    out.reset();
    out.status = status_;
    out.reason = reason_;
    out.message = message_;
    out.stats = stats();
    if (status_ == SearchStatus::found) {
      forward_.path_to(meeting_, out.nodes);
      // The backward half, from the meeting node to the goal: its parent links lead to the goal.
      for (NodeId at = backward_.context().record(meeting_).parent; at != invalid_node;
           at = backward_.context().record(at).parent)
        out.nodes.push_back(at);
      out.cost = best_cost_;
    } else if (status_ == SearchStatus::partial) {
      const NodeId end = forward_.closest_node() != invalid_node ? forward_.closest_node() : forward_.start_node();
      forward_.path_to(end, out.nodes);
      out.cost = forward_.context().g(end);
    }
  }

 private:
  static double elapsed_us(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
  }

  void offer(NodeId node, Cost cost) {
    if (cost < best_cost_) {
      best_cost_ = cost;
      meeting_ = node;
    }
  }

  SearchStatus copy_final(const BestFirstSearch<D>& side) {
    const PathResult final_result = side.result();
    message_ = final_result.message;
    return finish(final_result.status, final_result.reason);
  }

  void stop_budget(StopReason reason) {
    finish(options_.return_partial ? SearchStatus::partial : SearchStatus::budget_exhausted, reason);
  }
  void stop_unreachable() {
    finish(options_.partial_when_unreachable ? SearchStatus::partial : SearchStatus::no_path,
           StopReason::open_list_empty);
  }
  SearchStatus finish(SearchStatus status, StopReason reason) {
    status_ = status;
    reason_ = reason;
    return status_;
  }

  BestFirstSearch<D> forward_;
  BestFirstSearch<D> backward_;
  SearchOptions options_;
  Cost best_cost_ = infinite_cost;
  NodeId meeting_ = invalid_node;
  double extra_microseconds_ = 0.0;
  SearchStatus status_ = SearchStatus::in_progress;
  StopReason reason_ = StopReason::none;
  std::string message_;
};

}  // namespace wayfinder
