#pragma once
// What the search engine needs from a world: dense node ids, successors with step costs, and a
// heuristic. A domain may also offer a parent-aware successor function (jump point search prunes
// by the direction of travel); the engine uses it when present.

#include <concepts>
#include <cstddef>

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

template <class D>
concept ParentAwareDomain = requires(const D& domain, NodeId node, SuccessorSink sink) {
  { domain.node_count() } -> std::convertible_to<std::size_t>;
  domain.for_each_successor(node, node, sink);
  { domain.heuristic(node, node) } -> std::convertible_to<Cost>;
};

}  // namespace wayfinder
