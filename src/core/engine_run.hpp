#pragma once
// A search on the generic engine together with the domain it reads. The engine keeps a
// reference to its domain, so the two live and die together, in place inside a world's query
// object (typically as one alternative of a std::variant of the searches it can run).

#include <cstdint>
#include <utility>

#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"

namespace wayfinder {

template <class D, class Context = SearchContext>
struct EngineRun {
  template <class... Args>
  explicit EngineRun(Context& context, Args&&... args) : domain(std::forward<Args>(args)...), search(domain, context) {}
  EngineRun(const EngineRun&) = delete;
  EngineRun& operator=(const EngineRun&) = delete;

  SearchStatus step(const StepBudget& budget) { return search.step(budget); }
  [[nodiscard]] PathResult result() const { return search.result(); }
  void result(PathResult& out) const { search.result(out); }
  [[nodiscard]] SearchStats stats() const { return search.stats(); }

  D domain;
  BestFirstSearch<D, Context> search;
};

}  // namespace wayfinder
