#pragma once
// Many queries on one world, across threads. The world is shared read-only by every thread;
// each thread has its own query object (its search state), so no query locks anything.
//
// Two levels, so that a game with its own job system is not tied to ours:
//  - solve_range(query, requests, results, first, last): the slice one worker runs, on the
//    query object that worker owns. A job system splits a batch into slices and calls this.
//  - solve_batch(world, requests, results, threads): the default runner. It makes one query
//    object per thread and hands out slices of the batch from a shared counter (so a thread that
//    drew short queries takes more), on std::jthreads plus the calling thread.
//
// Results are exactly what solving the requests one by one gives (status, cost, nodes, points,
// expansions); only the timing statistics differ. results[i] answers requests[i].

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
/// than requests), the calling thread being one of them. `results` is resized to the number of
/// requests. Bad queries do not throw (they answer invalid_input); the first exception a worker
/// throws (std::bad_alloc, std::system_error when no thread can be started) is rethrown here
/// after every thread has stopped.
template <class World>
  requires PathQuery<QueryFor<World>, World, RequestFor<World>>
void solve_batch(const World& world, std::span<const RequestFor<World>> requests, std::vector<PathResult>& results,
                 unsigned threads = 0) {
  using Query = QueryFor<World>;
  results.resize(requests.size());
  if (requests.empty()) return;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads, requests.size());
  const std::span<PathResult> out(results);
  if (workers == 1) {
    Query query(world);
    solve_range(query, requests, out, 0, requests.size());
    return;
  }
  // Slices small enough to balance uneven queries, large enough that the shared counter is
  // touched rarely: about 16 slices per worker, at most 64 queries each.
  const std::size_t slice = std::clamp<std::size_t>(requests.size() / (workers * 16), 1, 64);
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto work = [&] {
    try {
      Query query(world);
      while (true) {
        const std::size_t first = next.fetch_add(slice, std::memory_order_relaxed);
        if (first >= requests.size()) break;
        solve_range(query, requests, out, first, std::min(first + slice, requests.size()));
      }
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next.store(requests.size(), std::memory_order_relaxed);  // the others stop at their next slice
    }
  };
  {
    std::vector<std::jthread> helpers;
    helpers.reserve(workers - 1);
    for (std::size_t i = 1; i < workers; ++i) helpers.emplace_back(work);
    work();
  }  // joins the helpers
  if (failure) std::rethrow_exception(failure);
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
