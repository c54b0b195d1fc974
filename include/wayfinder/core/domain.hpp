#pragma once
// What the search engine needs from a world: dense node ids, successors with step costs, and a
// heuristic. Everything else is an optional hook, named below as a concept: the engine
// (best_first_search.hpp) looks for each with `if constexpr` and uses it when present, and a
// type that lacks it searches the same, only without that saving. Naming the hooks keeps the
// two sides in step: a hook renamed on one side fails these concepts' checks instead of being
// silently skipped.

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct SuccessorSink {
  void operator()(NodeId, Cost) const {}
};

template <class D>
concept Domain = requires(const D& domain, NodeId node, SuccessorSink sink) {
  { domain.node_count() } -> std::convertible_to<std::size_t>;
  domain.for_each_successor(node, sink);
  { domain.heuristic(node, node) } -> std::convertible_to<Cost>;
};

/// A domain whose successor function also takes the expanded node's parent (invalid_node for
/// the start): jump point search prunes by the direction of travel. Preferred over the plain
/// successor function when a domain has both.
template <class D>
concept ParentAwareDomain = requires(const D& domain, NodeId node, SuccessorSink sink) {
  { domain.node_count() } -> std::convertible_to<std::size_t>;
  domain.for_each_successor(node, node, sink);
  { domain.heuristic(node, node) } -> std::convertible_to<Cost>;
};

// ---- Hooks a domain may use on the engine's successor sink --------------------------------

/// `h(goal)` returns heuristic(next, goal) for the successor it was passed with, computed from
/// what the domain already knows about that successor (its coordinates, say) rather than from
/// its id. It must return exactly what heuristic() would.
template <class H>
concept HeuristicOfNext = requires(H& h, NodeId goal) {
  { h(goal) } -> std::convertible_to<Cost>;
};

/// A sink that takes a successor together with its HeuristicOfNext, `sink(next, cost, h)`; the
/// engine calls `h` only for successors that improve. The engine's sink takes any.
template <class Sink, class H>
concept SinkTakesHeuristic = HeuristicOfNext<H> && std::invocable<Sink&, NodeId, Cost, H>;

/// A sink that lets a domain leave out successors already closed (their cost is final, so
/// relaxing them changes nothing): `closed_words(node)` gives the closed flags of the page of
/// ids holding `node` (see PagedSearchContext::closed_words; null when none is closed), and the
/// domain reports how many successors it left out with `skipped(count)`, so that the count of
/// generated successors stays the same. The engine offers it when its context is a
/// ClosedFlagsContext.
template <class Sink>
concept ClosedFlagsSink = requires(Sink& sink, const Sink& const_sink, NodeId node, std::uint64_t count) {
  { const_sink.closed_words(node) } -> std::same_as<const std::uint16_t*>;
  sink.skipped(count);
};

/// `on_improve(node, g)`, called by a step whenever a node gets a cheaper cost g: how a search
/// built on the engine (bidirectional A* finds meeting points) or a domain that keeps per-query
/// state (the navigation mesh's crossing points) follows the search.
template <class F>
concept ImprovementObserver = std::invocable<F&, NodeId, Cost>;

// ---- Hooks of a search context ------------------------------------------------------------

/// A context that marks a node closed itself (`close(node)`), keeping more than the record's
/// state: PagedSearchContext also sets the node's closed flag.
template <class C>
concept ClosingContext = requires(C& context, NodeId node) { context.close(node); };

/// A context that keeps closed flags by id, 16 to a word (PagedSearchContext::closed_words): the
/// engine then hands its domain a ClosedFlagsSink.
template <class C>
concept ClosedFlagsContext = requires(const C& context, NodeId node) {
  { context.closed_words(node) } -> std::same_as<const std::uint16_t*>;
};

/// A context that offers a lighter handle for touching records during one expansion
/// (`touch_handle().touch(node)`, valid until the next query), such as a paged context holding
/// its page table in registers.
template <class C>
concept TouchHandleContext = requires(C& context, NodeId node) { context.touch_handle().touch(node); };

}  // namespace wayfinder
