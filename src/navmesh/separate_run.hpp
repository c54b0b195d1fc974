#pragma once
// The body of SeparateRun (corridor_search.hpp), a run of the query's SteppedQuery whose
// searches are compiled in a file of their own: the filtered searches
// (corridor_search_filtered.cpp) and the searches on meshes with off-mesh links
// (corridor_search_linked.cpp). Each of those files defines its Searches (a variant of the
// CorridorRuns it holds, `run`), includes this, and instantiates SeparateRun for it.

#include <type_traits>
#include <utility>
#include <variant>

#include "navmesh/corridor_search.hpp"

namespace wayfinder::corridor_search {

template <class Searches>
template <class D>
SearchStatus SeparateRun<Searches>::start(SearchContext& context, CorridorOutput& output, D&& domain, NodeId from,
                                          NodeId to, const SearchOptions& search) {
  auto& run = searches_->run.template emplace<CorridorRun<D>>(context, output, std::move(domain));
  const SearchStatus status = run.engine.search.start(from, to, search);
  if (status != SearchStatus::in_progress) run.finish();
  return status;
}

template <class Searches>
SearchStatus SeparateRun<Searches>::step(const StepBudget& budget) {
  return std::visit(
      [&](auto& run) -> SearchStatus {
        if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
          return SearchStatus::invalid_input;
        else
          return run.step(budget);
      },
      searches_->run);
}

template <class Searches>
SearchStats SeparateRun<Searches>::stats() const {
  return std::visit(
      [&](const auto& run) -> SearchStats {
        if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
          return {};
        else
          return run.stats();
      },
      searches_->run);
}

template <class Searches>
void SeparateRun<Searches>::result(PathResult& out) const {
  std::visit(
      [&](const auto& run) {
        if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
          out.reset();
        else
          run.result(out);
      },
      searches_->run);
}

template <class Searches>
Point SeparateRun<Searches>::position(NodeId node) const {
  return std::visit(
      [&](const auto& run) -> Point {
        if constexpr (std::is_same_v<std::decay_t<decltype(run)>, std::monostate>)
          return Point{};
        else
          return node < run.engine.domain.node_count() ? run.engine.domain.position(node) : Point{};
      },
      searches_->run);
}

}  // namespace wayfinder::corridor_search
