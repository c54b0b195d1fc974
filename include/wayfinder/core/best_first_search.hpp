#pragma once
// The one best-first search loop. Breadth-first-by-cost (Dijkstra 1959), A* (Hart, Nilsson &
// Raphael 1968), weighted A* (Pohl 1970) and greedy best-first are all this loop with
// different weights on g and h: priority = g_weight * g + h_weight * h.
//
// Nodes are closed once expanded and never reopened. With a consistent heuristic this keeps A*
// optimal, and weighted A* without reopening still returns a path within h_weight times the
// optimal cost (Likhachev, Gordon & Thrun 2003).
//
// A search can run to completion or be advanced a few expansions at a time with step(), so a
// game can spread it over many frames; the stepped result equals the one-shot result. A step
// may be limited by expansions, by wall time or both (StepBudget); a step's limits only pause
// the search, where the Budget in SearchOptions ends it.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/search_clock.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/core/search_trace.hpp"

namespace wayfinder {

struct SearchOptions {
  Cost g_weight = 1.0;
  Cost h_weight = 1.0;
  Budget budget;
  /// When the budget runs out: true returns `partial` with the path to the expanded node
  /// closest to the goal (by heuristic); false returns `budget_exhausted` with no path.
  bool return_partial = true;
  /// When the goal is unreachable: true returns `partial` towards the closest node instead of
  /// `no_path`.
  bool partial_when_unreachable = false;
  /// Optional event log; null means no tracing and no tracing cost.
  SearchTrace* trace = nullptr;
};

/// A start node of a multi-source search and the cost it starts with.
struct SearchSource {
  NodeId node = invalid_node;
  Cost g = 0.0;
};

/// Does nothing; the default observer of improved nodes.
struct IgnoreImprovement {
  void operator()(NodeId, Cost) const {}
};

/// `Context` holds the per-query node records and the open list: the dense SearchContext, or
/// any type with the same members (ready_for, prepare, reached, record, touch, g, heap_position,
/// set_heap_position, open), such as the paged context for worlds too large for dense arrays.
template <class D, class Context = SearchContext>
  requires Domain<D> || ParentAwareDomain<D>
class BestFirstSearch {
 public:
  BestFirstSearch(const D& domain, Context& context) : domain_(domain), context_(context) {}
  /// The search keeps a reference to its domain: a temporary domain would dangle.
  BestFirstSearch(const D&& domain, Context& context) = delete;

  /// Begins a query. Returns in_progress, or a final status for trivial and invalid queries.
  SearchStatus start(NodeId start, NodeId goal, const SearchOptions& options) {
    const SearchSource source{start, 0.0};
    return this->start(std::span<const SearchSource>(&source, 1), goal, options);
  }

  /// Begins a query from several start nodes at once, each with its initial cost: the search
  /// finds the cheapest path from any of them (costs included), as if from one virtual node with
  /// a move of that cost to each. Preconditions, else invalid_input: at least one source, every
  /// id in range, every cost finite and non-negative. A node listed twice keeps its cheaper cost.
  /// Paths start at the source they come from; a partial path with nothing expanded ends at the
  /// first source.
  SearchStatus start(std::span<const SearchSource> sources, NodeId goal, const SearchOptions& options) {
    options_ = options;
    start_ = sources.empty() ? invalid_node : sources.front().node;
    goal_ = goal;
    stats_ = {};
    closest_ = invalid_node;
    closest_h_ = infinite_cost;
    closest_g_ = infinite_cost;
    end_node_ = invalid_node;
    has_held_ = false;
    report_.begin();
    const std::size_t count = domain_.node_count();
    if (sources.empty()) return finish(RunOutcome::invalid_input(), "no start node");
    for (const SearchSource& source : sources) {
      if (source.node >= count) return finish(RunOutcome::invalid_input(), "start or goal node id out of range");
      if (!(source.g >= 0.0) || !std::isfinite(source.g))
        return finish(RunOutcome::invalid_input(), "start costs must be finite and non-negative");
    }
    if (goal >= count) return finish(RunOutcome::invalid_input(), "start or goal node id out of range");
    if (!(options.g_weight >= 0.0) || !(options.h_weight >= 0.0) || !std::isfinite(options.g_weight) ||
        !std::isfinite(options.h_weight) || (options.g_weight == 0.0 && options.h_weight == 0.0))
      return finish(RunOutcome::invalid_input(), "search weights must be finite, non-negative and not both zero");
    if (std::optional<std::string> problem = budget_problem(options.budget))
      return finish(RunOutcome::invalid_input(), std::move(*problem));
    // Sizing the context for a bigger world is part of the query: it counts in the statistics'
    // time and against Budget::max_time. Otherwise preparing costs nanoseconds, less than
    // reading the clock.
    if (context_.ready_for(count)) {
      context_.prepare(count);
    } else {
      const auto began = std::chrono::steady_clock::now();
      context_.prepare(count);
      stats_.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    }
    for (const SearchSource& source : sources) {
      NodeRecord& record = context_.touch(source.node);
      if (!(source.g < record.g)) continue;  // listed before at no higher cost
      const bool queued = record.state() == NodeRecord::State::open;
      record.g = source.g;
      record.parent = invalid_node;
      record.set_state(NodeRecord::State::open);
      const std::uint64_t key = key_of(source.g, domain_.heuristic(source.node, goal));
      if (queued)
        context_.open().decrease(context_.heap_position(source.node), key, position_writer());
      else
        push_entry({key, source.node});
      if (options_.trace != nullptr) options_.trace->record(TraceEvent::opened, source.node, invalid_node, source.g);
    }
    return report_.status();
  }

  /// Expands up to `max_expansions` nodes. Returns in_progress while the search goes on.
  SearchStatus step(std::uint64_t max_expansions = Budget::unlimited_expansions) {
    return step(StepBudget::expansions(max_expansions), IgnoreImprovement{});
  }

  /// Expands nodes until the step's budget (expansions, wall time) is spent or the search ends.
  SearchStatus step(const StepBudget& step_budget) { return step(step_budget, IgnoreImprovement{}); }

  /// As step(), calling `on_improve(node, g)` whenever a node gets a cheaper cost.
  template <class OnImprove>
    requires ImprovementObserver<OnImprove>
  SearchStatus step(std::uint64_t max_expansions, OnImprove&& on_improve) {
    return step(StepBudget::expansions(max_expansions), on_improve);
  }

  template <class OnImprove>
    requires ImprovementObserver<OnImprove>
  SearchStatus step(const StepBudget& step_budget, OnImprove&& on_improve) {
    if (!report_.running()) return report_.status();
    const SearchClock clock(options_.budget, step_budget, stats_.microseconds);
    if (!step_budget.timed()) {
      run_chunk(step_budget.max_expansions, on_improve, clock);
    } else {
      // The clock is read between chunks of time_check_interval expansions, so that the loop
      // itself stays as it is without a time limit.
      std::uint64_t left = step_budget.max_expansions;
      while (true) {
        const std::uint64_t before = stats_.expanded;
        run_chunk(std::min(left, StepBudget::time_check_interval), on_improve, clock);
        left -= stats_.expanded - before;
        if (!report_.running() || left == 0 || clock.step_time_spent()) break;
      }
    }
    stats_.microseconds += clock.step_microseconds();
    return report_.status();
  }

  /// Runs a whole query.
  PathResult run(NodeId start_node, NodeId goal_node, const SearchOptions& options) {
    if (start(start_node, goal_node, options) == SearchStatus::in_progress) step();
    return result();
  }

  /// Expands exactly one node (no budget checks); for searches built on this one, such as
  /// bidirectional search. Returns the expanded node, or invalid_node if the open list is empty.
  template <class OnImprove>
    requires ImprovementObserver<OnImprove>
  NodeId expand_one(OnImprove&& on_improve) {
    settle_held();
    if (!has_held_ && context_.open().empty()) return invalid_node;
    const NodeId node = take_next();
    if (options_.trace != nullptr)
      expand<true>(node, on_improve);
    else
      expand<false>(node, on_improve);
    return node;
  }

  [[nodiscard]] SearchStatus status() const { return report_.status(); }
  /// The status and the reason the search stopped (in_progress / none while it goes on).
  [[nodiscard]] const RunOutcome& outcome() const { return report_.outcome(); }
  [[nodiscard]] bool finished() const { return !report_.running(); }
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  [[nodiscard]] const Context& context() const { return context_; }
  [[nodiscard]] NodeId start_node() const { return start_; }
  [[nodiscard]] NodeId goal_node() const { return goal_; }
  /// Smallest priority on the open list (infinite when empty).
  [[nodiscard]] Cost min_priority() const {
    const Cost top = context_.open().empty() ? infinite_cost : key_priority(context_.open().top().key);
    return has_held_ ? std::min(top, key_priority(held_.key)) : top;
  }
  [[nodiscard]] std::size_t open_size() const { return context_.open().size() + (has_held_ ? 1 : 0); }
  /// The expanded node closest to the goal by heuristic (ties: cheaper), or invalid_node.
  [[nodiscard]] NodeId closest_node() const { return closest_; }

  /// The path from the start to `node` through parent links (empty if unreached).
  [[nodiscard]] std::vector<NodeId> path_to(NodeId node) const {
    std::vector<NodeId> path;
    path_to(node, path);
    return path;
  }

  /// The same into `path`, whose memory is reused (it is cleared, not shrunk).
  void path_to(NodeId node, std::vector<NodeId>& path) const {
    path.clear();
    if (node == invalid_node || !context_.reached(node)) return;
    for (NodeId at = node; at != invalid_node; at = context_.record(at).parent) path.push_back(at);
    std::reverse(path.begin(), path.end());
  }

  /// The result so far: final once finished(), otherwise in_progress with no path.
  [[nodiscard]] PathResult result() const {
    PathResult out;
    result(out);
    return out;
  }

  /// The same into a result the caller owns: its vectors and message are cleared and refilled,
  /// not reallocated, so a result reused across queries allocates only when a path is longer
  /// than any before. Points are left empty (the world's query object fills them).
  void result(PathResult& out) const {
    report_.write(out, stats_);
    if (end_node_ != invalid_node) {
      path_to(end_node_, out.nodes);
      out.cost = context_.record(end_node_).g;
    }
  }

 private:
  void push(NodeId node, Cost g, Cost h) {
    push_entry({key_of(g, h), node});
  }

  // Priority g_weight * g + h_weight * h; among equal priorities the larger g comes first
  // (the share of g in the priority breaks the tie).
  [[nodiscard]] std::uint64_t key_of(Cost g, Cost h) const {
    const Cost weighted_g = options_.g_weight * g;
    const Cost priority = weighted_g + options_.h_weight * h;
    return heap_key(priority, priority > 0.0 ? weighted_g / priority : 1.0);
  }

  void push_entry(const HeapEntry& entry) {
    context_.open().push(entry, position_writer());
    stats_.peak_open = std::max<std::uint64_t>(stats_.peak_open, open_size());
  }

  // A newly reached node that would come off the open list next is held beside it instead of
  // going through it: each expansion keeps its best new successor aside, and if that one still
  // comes before the heap's top when the next node is chosen, it is expanded without a push
  // and a pop. The order of expansions is the heap's order; only the two O(log n) heap
  // operations are saved, for the many expansions that continue straight on from the last.
  void offer_new(const HeapEntry& entry) {
    if (!has_held_) {
      held_ = entry;
      has_held_ = true;
    } else if (IndexedHeap::before(entry, held_)) {
      push_entry(held_);
      held_ = entry;
    } else {
      push_entry(entry);
    }
  }

  // Moves the held node into the heap unless it is next in order.
  void settle_held() {
    if (has_held_ && !context_.open().empty() && !IndexedHeap::before(held_, context_.open().top())) {
      push_entry(held_);
      has_held_ = false;
    }
  }

  // The node next in order (after settle_held()); the open list must not be empty.
  [[nodiscard]] NodeId peek_next() const { return has_held_ ? held_.node : context_.open().top().node; }

  auto position_writer() {
    return [this](NodeId node, std::uint32_t index) { context_.set_heap_position(node, index); };
  }

  NodeId take_next() {
    HeapEntry next;
    if (has_held_) {
      next = held_;
      has_held_ = false;
    } else {
      next = context_.open().pop(position_writer());
    }
    popped_priority_ = key_priority(next.key);
    if constexpr (ClosingContext<Context>)
      context_.close(next.node);
    else
      context_.record(next.node).set_state(NodeRecord::State::closed);
    return next.node;
  }

  template <class OnImprove>
  void run_chunk(std::uint64_t max_expansions, OnImprove& on_improve, const SearchClock& clock) {
    if (options_.trace != nullptr)
      run_loop<true>(max_expansions, on_improve, clock);
    else
      run_loop<false>(max_expansions, on_improve, clock);
  }

  template <bool Tracing, class OnImprove>
  // The clock is read through the reference: a local copy of it kept eight more values live
  // across the loop, and the spills made the loop 1.9 % dearer (callgrind, A* on brc202d).
  void run_loop(std::uint64_t max_expansions, OnImprove& on_improve, const SearchClock& clock) {
    std::uint64_t done_this_step = 0;
    IndexedHeap& open = context_.open();
    while (true) {
      settle_held();
      if (!has_held_ && open.empty()) {
        stop(RunOutcome::unreachable(options_.partial_when_unreachable));
        return;
      }
      const NodeId node = peek_next();
      if (node == goal_) {
        take_next();
        finish(RunOutcome::goal_reached());
        end_node_ = goal_;
        return;
      }
      const StopReason budget_stop = clock.budget_stop(
          stats_.expanded,
          [&] { return context_.record(node).g + domain_.heuristic(node, goal_) > options_.budget.max_cost; },
          [&] { return context_.memory_bytes(); });
      if (budget_stop != StopReason::none) {
        stop(RunOutcome::budget_spent(budget_stop, options_.return_partial));
        return;
      }
      if (done_this_step >= max_expansions) return;
      take_next();
      expand<Tracing>(node, on_improve);
      ++done_this_step;
    }
  }

  template <bool Tracing, class OnImprove>
  void expand(NodeId node, OnImprove& on_improve) {
    ++stats_.expanded;
    const NodeRecord& current = context_.record(node);
    const Cost g = current.g;
    if (options_.return_partial || options_.partial_when_unreachable) {
      // h is recovered from the priority the node was popped with when h counts in it.
      const Cost h = options_.h_weight > 0.0 ? (popped_priority_ - options_.g_weight * g) / options_.h_weight
                                             : domain_.heuristic(node, goal_);
      if (h < closest_h_ || (h == closest_h_ && g < closest_g_)) {
        closest_ = node;
        closest_h_ = h;
        closest_g_ = g;
      }
    }
    if constexpr (Tracing) options_.trace->record(TraceEvent::closed, node, current.parent, g);
    // A domain may pass a third argument, a HeuristicOfNext (domain.hpp), that computes
    // heuristic(next, goal) from what it already knows about `next` (its coordinates, say); it
    // is called only for the successors that improve, and must return the same value.
    // The values the relaxation reads are captured by value: the domain's successor function
    // gets this lambda by reference and would otherwise reload them after every record store.
    // A context may offer a lighter handle for touching records during one expansion.
    auto&& records = touch_handle();
    std::uint64_t generated = 0;
    auto relax = [this, g, node, &records, &generated, &on_improve](
                     NodeId next, Cost step_cost, auto&&... heuristic_of_next) WAYFINDER_FORCE_INLINE_LAMBDA {
      static_assert(sizeof...(heuristic_of_next) <= 1);
      static_assert((HeuristicOfNext<std::remove_reference_t<decltype(heuristic_of_next)>> && ...));
      ++generated;
      NodeRecord& record = records.touch(next);
      const Cost new_g = g + step_cost;
      if (new_g >= record.g) return;  // also skips closed nodes, whose g is final
      if (record.state() == NodeRecord::State::closed) return;
      const bool first_time = record.state() == NodeRecord::State::unqueued;
      record.g = new_g;
      record.parent = node;
      // h is recomputed rather than stored: it keeps node records at 24 bytes, and improving
      // an already queued node is rare next to first reaching one.
      Cost h = 0.0;
      if (options_.h_weight != 0.0) {
        if constexpr (sizeof...(heuristic_of_next) == 0)
          h = domain_.heuristic(next, goal_);
        else
          h = (heuristic_of_next(goal_), ...);
      }
      if (first_time) {
        record.set_state(NodeRecord::State::open);
        offer_new({key_of(new_g, h), next});
        if constexpr (Tracing) options_.trace->record(TraceEvent::opened, next, node, new_g);
      } else {
        const std::uint64_t key = key_of(new_g, h);
        if (has_held_ && held_.node == next)  // a domain listed the same successor twice
          held_.key = key;
        else
          context_.open().decrease(context_.heap_position(next), key, position_writer());
        if constexpr (Tracing) options_.trace->record(TraceEvent::updated, next, node, new_g);
      }
      on_improve(next, new_g);
    };
    if constexpr (ParentAwareDomain<D>) {
      domain_.for_each_successor(node, current.parent, relax);
    } else if constexpr (ClosedFlagsContext<Context>) {
      ClosedAwareSink<decltype(relax)> sink{relax, context_, generated};
      static_assert(ClosedFlagsSink<decltype(sink)>, "domains look for ClosedFlagsSink to read the closed flags");
      domain_.for_each_successor(node, sink);
    } else {
      domain_.for_each_successor(node, relax);
    }
    stats_.generated += generated;
  }

  // The successor sink for contexts that keep closed flags by id (PagedSearchContext): a domain
  // that knows how its successors' ids lie may read the flags (closed_words) and leave closed
  // successors out, reporting how many (skipped) so that the generated count stays the same.
  // Relaxing a closed node changes nothing, so leaving it out gives the same search.
  template <class Relax>
  struct ClosedAwareSink {
    Relax& relax;
    const Context& context;
    std::uint64_t& generated;
    template <class... Args>
    WAYFINDER_FORCE_INLINE auto operator()(Args&&... args) -> decltype(relax(std::forward<Args>(args)...)) {
      return relax(std::forward<Args>(args)...);
    }
    [[nodiscard]] WAYFINDER_FORCE_INLINE const std::uint16_t* closed_words(NodeId node) const {
      return context.closed_words(node);
    }
    WAYFINDER_FORCE_INLINE void skipped(std::uint64_t count) { generated += count; }
  };

  decltype(auto) touch_handle() {
    if constexpr (TouchHandleContext<Context>)
      return context_.touch_handle();
    else
      return (context_);
  }

  // Ends the search; a partial outcome leads to the expanded node closest to the goal. Called
  // once a query: kept out of the loop's code.
  WAYFINDER_NEVER_INLINE void stop(RunOutcome outcome) {
    finish(outcome);
    if (outcome.status == SearchStatus::partial) end_node_ = closest_ != invalid_node ? closest_ : start_;
  }

  SearchStatus finish(RunOutcome outcome, std::string message = {}) {
    return report_.finish(outcome, std::move(message));
  }

  const D& domain_;
  Context& context_;
  SearchOptions options_;
  NodeId start_ = invalid_node;
  NodeId goal_ = invalid_node;
  RunReport report_;
  SearchStats stats_;
  NodeId closest_ = invalid_node;
  Cost closest_h_ = infinite_cost;
  Cost closest_g_ = infinite_cost;
  NodeId end_node_ = invalid_node;
  Cost popped_priority_ = 0.0;
  HeapEntry held_{};  // see offer_new()
  bool has_held_ = false;
};

}  // namespace wayfinder
