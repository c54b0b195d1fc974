#pragma once
// Iterative deepening A* (Korf 1985, "Depth-first iterative-deepening: an optimal admissible
// tree search"): depth-first searches bounded by f = g + h, each bound the smallest f that
// exceeded the last one. On graphs with many paths to a node, plain IDA* revisits nodes
// exponentially often, so each iteration keeps the cheapest g seen per node in the search
// context and prunes a node reached again at no lower cost (a transposition table, as in
// Reinefeld & Marsland 1994, "Enhanced iterative-deepening search").
//
// Memory is one record per node plus the current path; time can still grow with the number
// of distinct f bounds, so IDA* suits small maps, and it always runs under an expansion limit.
// Budget::max_memory_bytes counts the context's reserved arrays (as for the engine) and the
// path's frames and their successors, read every Budget::time_check_interval expansions.
// A trace records every iteration: nodes are closed again in each one.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/best_first_search.hpp"

namespace wayfinder {

/// The expansion limit IDA* uses when the budget sets none, so that it can never hang.
inline constexpr std::uint64_t ida_star_default_expansion_limit = 20'000'000;

template <class D>
  requires Domain<D>
class IdaStarSearch {
 public:
  IdaStarSearch(const D& domain, SearchContext& context) : domain_(domain), context_(context) {}

  PathResult run(NodeId start, NodeId goal, const SearchOptions& options) {
    if (start >= domain_.node_count() || goal >= domain_.node_count())
      return PathResult::invalid("start or goal node id out of range");
    if (std::optional<std::string> problem = budget_problem(options.budget)) return PathResult::invalid(*problem);
    options_ = options;
    Budget budget = options.budget;
    if (budget.max_expansions == Budget::unlimited_expansions) budget.max_expansions = ida_star_default_expansion_limit;
    // One run is one step: the budget's limits apply, IDA* is never paused.
    const SearchClock clock(budget, StepBudget{}, 0.0);
    goal_ = goal;
    stats_ = {};
    closest_path_.assign(1, start);
    closest_h_ = domain_.heuristic(start, goal);
    closest_g_ = 0.0;

    PathResult result;
    Cost bound = domain_.heuristic(start, goal);
    RunOutcome outcome;
    while (outcome.running()) {
      if (bound > options.budget.max_cost) {
        outcome = RunOutcome::budget_spent(StopReason::cost_limit, options.return_partial);
        break;
      }
      const Iteration iteration = iterate(start, bound, clock);
      if (iteration.found) {
        outcome = RunOutcome::goal_reached();
        result.nodes = found_path_;
        result.cost = found_cost_;
      } else if (iteration.stop != StopReason::none) {
        outcome = RunOutcome::budget_spent(iteration.stop, options.return_partial);
      } else if (iteration.next_bound == infinite_cost) {
        outcome = RunOutcome::unreachable(options.partial_when_unreachable);
      }
      bound = iteration.next_bound;
    }
    result.status = outcome.status;
    result.reason = outcome.reason;
    if (outcome.status == SearchStatus::partial) {
      result.nodes = closest_path_;
      result.cost = closest_g_;
    }
    result.stats = stats_;
    result.stats.microseconds = clock.microseconds();
    return result;
  }

 private:
  struct Iteration {
    bool found = false;
    Cost next_bound = infinite_cost;
    StopReason stop = StopReason::none;
  };
  struct Frame {
    NodeId node;
    Cost g;
    std::size_t begin;  // this frame's successors are successors_[begin, end)
    std::size_t next;   // the next one to try
    std::size_t end;
  };

  /// What Budget::max_memory_bytes counts: the transposition table (the context's arrays) and
  /// the depth-first path with its successors and the kept paths.
  [[nodiscard]] std::size_t memory_bytes() const {
    return context_.memory_bytes() + frames_.capacity() * sizeof(Frame) +
           successors_.capacity() * sizeof(std::pair<NodeId, Cost>) +
           (found_path_.capacity() + closest_path_.capacity()) * sizeof(NodeId);
  }

  // Floating-point sums of the same moves in another order can differ in the last bits.
  static bool exceeds(Cost f, Cost bound) { return f > bound + 1e-9 * std::max<Cost>(1.0, bound); }

  void push_frame(NodeId node, Cost g) {
    const std::size_t begin = successors_.size();
    domain_.for_each_successor(node, [this](NodeId next, Cost step) { successors_.push_back({next, step}); });
    stats_.generated += successors_.size() - begin;
    frames_.push_back({node, g, begin, begin, successors_.size()});
    stats_.peak_open = std::max<std::uint64_t>(stats_.peak_open, frames_.size());
  }

  Iteration iterate(NodeId start, Cost bound, const SearchClock& clock) {
    Iteration outcome;
    context_.prepare(domain_.node_count());
    context_.touch(start).g = 0.0;
    frames_.clear();
    successors_.clear();
    if (start == goal_) {
      outcome.found = true;
      found_path_.assign(1, start);
      found_cost_ = 0.0;
      return outcome;
    }
    // Every iteration expands the start again, and that expansion counts against the budget too.
    outcome.stop = clock.budget_stop(stats_.expanded, NoCostCheck{}, [this] { return memory_bytes(); });
    if (outcome.stop != StopReason::none) return outcome;
    push_frame(start, 0.0);
    ++stats_.expanded;
    if (options_.trace != nullptr) options_.trace->record(TraceEvent::closed, start, invalid_node, 0.0);
    while (!frames_.empty()) {
      Frame& frame = frames_.back();
      if (frame.next == frame.end) {
        successors_.resize(frame.begin);
        frames_.pop_back();
        continue;
      }
      const auto [next, step_cost] = successors_[frame.next++];
      const NodeId parent = frame.node;
      const Cost g = frame.g + step_cost;
      NodeRecord& record = context_.touch(next);
      if (g >= record.g) continue;
      const bool first_time = record.g == infinite_cost;
      record.g = g;
      if (options_.trace != nullptr)
        options_.trace->record(first_time ? TraceEvent::opened : TraceEvent::updated, next, parent, g);
      const Cost h = domain_.heuristic(next, goal_);
      if (exceeds(g + h, bound)) {
        outcome.next_bound = std::min(outcome.next_bound, g + h);
        continue;
      }
      if (next == goal_) {
        outcome.found = true;
        found_path_.clear();
        for (const Frame& on_path : frames_) found_path_.push_back(on_path.node);
        found_path_.push_back(next);
        found_cost_ = g;
        return outcome;
      }
      outcome.stop = clock.budget_stop(stats_.expanded, NoCostCheck{}, [this] { return memory_bytes(); });
      if (outcome.stop != StopReason::none) return outcome;
      ++stats_.expanded;
      if (options_.trace != nullptr) options_.trace->record(TraceEvent::closed, next, parent, g);
      if (h < closest_h_ || (h == closest_h_ && g < closest_g_)) {
        closest_h_ = h;
        closest_g_ = g;
        closest_path_.clear();
        for (const Frame& on_path : frames_) closest_path_.push_back(on_path.node);
        closest_path_.push_back(next);
      }
      push_frame(next, g);
    }
    return outcome;
  }

  const D& domain_;
  SearchContext& context_;
  SearchOptions options_;
  NodeId goal_ = invalid_node;
  SearchStats stats_;
  std::vector<Frame> frames_;
  std::vector<std::pair<NodeId, Cost>> successors_;
  std::vector<NodeId> found_path_;
  Cost found_cost_ = 0.0;
  std::vector<NodeId> closest_path_;
  Cost closest_h_ = infinite_cost;
  Cost closest_g_ = infinite_cost;
};

}  // namespace wayfinder
