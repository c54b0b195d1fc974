#pragma once
// Splitting the crowd's per-agent work over threads: agents [0, count) in contiguous slices,
// one per thread, the calling thread taking the first. Each agent's work writes only that
// agent's state, so the split changes nothing in the results.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace wayfinder::crowd_detail {

/// Calls work(first, last, slice) for `threads` slices covering [0, count) (fewer when there are
/// fewer agents than threads) and returns when all are done. An exception thrown by a slice is
/// rethrown here, after every thread has finished.
template <class Work>
void run_slices(std::size_t count, std::size_t threads, Work&& work) {
  const std::size_t slices = std::max<std::size_t>(1, std::min(threads, count));
  if (slices == 1) {
    work(std::size_t{0}, count, std::size_t{0});
    return;
  }
  std::vector<std::exception_ptr> failures(slices);
  auto run = [&](std::size_t slice) {
    try {
      work(count * slice / slices, count * (slice + 1) / slices, slice);
    } catch (...) {
      failures[slice] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> helpers;
    helpers.reserve(slices - 1);
    for (std::size_t slice = 1; slice < slices; ++slice) helpers.emplace_back(run, slice);
    run(0);
  }
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace wayfinder::crowd_detail
