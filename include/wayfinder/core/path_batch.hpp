#pragma once
// Many queries on one world, across threads: each thread answers its share on its own query
// object, so no query locks anything. results[i] answers requests[i] and equals what solving
// the requests one by one gives (status, cost, nodes, points, expansions); only the timing
// statistics differ. docs/threads.md says how the work is shared out.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "wayfinder/core/joining_thread.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// Answers requests[first, last) into results[first, last) with `query` (which must not be used
/// by another thread meanwhile). `results` must be as long as `requests`; its entries are
/// refilled in place, reusing their memory. Throws std::invalid_argument for mismatched sizes or
/// a range outside the requests.
template <class Query, class Request>
void solve_range(Query& query, std::span<const Request> requests, std::span<PathResult> results, std::size_t first,
                 std::size_t last) {
  if (results.size() != requests.size())
    throw std::invalid_argument("solve_range: " + std::to_string(requests.size()) + " requests but " +
                                std::to_string(results.size()) + " results");
  if (first > last || last > requests.size())
    throw std::invalid_argument("solve_range: range [" + std::to_string(first) + ", " + std::to_string(last) +
                                ") is outside the " + std::to_string(requests.size()) + " requests");
  for (std::size_t i = first; i < last; ++i) query.find_path(requests[i], results[i]);
}

/// Answers every request on `threads` threads (0: one per hardware thread; never more threads
/// than requests), the calling thread being one of them, each on a query object that
/// `make_query()` returns (called once per thread, possibly on several threads at once: it must
/// be safe to call concurrently, as a lambda that builds a query over shared, read-only data
/// is). `results` is resized to the number of requests. Bad queries do not throw (they answer
/// invalid_input); the first exception a worker or `make_query` throws (std::bad_alloc,
/// std::system_error when no thread can be started) is rethrown here after every thread has
/// stopped.
template <class Factory, class Request>
  requires QueryFactory<Factory, Request>
void solve_batch(const Factory& make_query, std::span<const Request> requests, std::vector<PathResult>& results,
                 unsigned threads = 0) {
  results.resize(requests.size());
  if (requests.empty()) return;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads, requests.size());
  const std::span<PathResult> out(results);
  if (workers == 1) {
    auto query = make_query();
    solve_range(query, requests, out, 0, requests.size());
    return;
  }
  // Guided slices: a quarter of each worker's share of what is left, at most 64 requests and
  // at least one. Early slices are large (the shared counter is touched rarely), the last ones
  // single requests, so that no worker is left with a long slice while the others idle: a
  // scenario file sorted by length ends with its longest queries.
  std::atomic<std::size_t> next{0};
  const std::size_t count = requests.size();
  auto take_slice = [&](std::size_t& first, std::size_t& last) {
    std::size_t claimed = next.load(std::memory_order_relaxed);
    std::size_t size = 0;
    do {
      if (claimed >= count) return false;
      size = std::clamp<std::size_t>((count - claimed) / (workers * 4), 1, 64);
    } while (!next.compare_exchange_weak(claimed, claimed + size, std::memory_order_relaxed));
    first = claimed;
    last = std::min(claimed + size, count);
    return true;
  };
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto work = [&] {
    try {
      auto query = make_query();
      std::size_t first = 0;
      std::size_t last = 0;
      while (take_slice(first, last)) solve_range(query, requests, out, first, last);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next.store(count, std::memory_order_relaxed);  // the others stop at their next slice
    }
  };
  {
    std::vector<JoiningThread> helpers;
    helpers.reserve(workers - 1);
    for (std::size_t i = 1; i < workers; ++i) helpers.emplace_back(work);
    work();
  }  // joins the helpers
  if (failure) std::rethrow_exception(failure);
}

/// The same with the world's default query objects (QueryFor<World>(world), default_query_factory).
template <class World>
  requires PathQuery<QueryFor<World>, World, RequestFor<World>>
void solve_batch(const World& world, std::span<const RequestFor<World>> requests, std::vector<PathResult>& results,
                 unsigned threads = 0) {
  solve_batch(default_query_factory(world), requests, results, threads);
}

/// The same, returning the results.
template <class Factory, class Request>
  requires QueryFactory<Factory, Request>
[[nodiscard]] std::vector<PathResult> solve_batch(const Factory& make_query, std::span<const Request> requests,
                                                  unsigned threads = 0) {
  std::vector<PathResult> results;
  solve_batch(make_query, requests, results, threads);
  return results;
}

/// The same, returning the results.
template <class World>
  requires PathQuery<QueryFor<World>, World, RequestFor<World>>
[[nodiscard]] std::vector<PathResult> solve_batch(const World& world, std::span<const RequestFor<World>> requests,
                                                  unsigned threads = 0) {
  std::vector<PathResult> results;
  solve_batch(world, requests, results, threads);
  return results;
}

}  // namespace wayfinder
