#pragma once
// Splitting the crowd's per-agent work over threads: agents [0, count) in contiguous slices, one
// per thread, the calling thread taking the first. The threads are started once per update and
// go through the tick's phases together, meeting at a barrier after each (so a phase reads only
// what the phases before it wrote). Each agent's work writes only that agent's state, so the
// split changes nothing in the results.

#include <algorithm>
#include <barrier>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "wayfinder/core/joining_thread.hpp"

namespace wayfinder::crowd_detail {

/// The threads of one update, seen from one of them (its slice).
class SliceTeam {
 public:
  SliceTeam(std::size_t count, std::size_t slices, std::size_t slice, std::barrier<>* meeting,
            std::exception_ptr* failure)
      : first_(count * slice / slices), last_(count * (slice + 1) / slices), slice_(slice), meeting_(meeting),
        failure_(failure) {}

  [[nodiscard]] std::size_t slice() const { return slice_; }

  /// work(i) for every agent of this slice, then waits until every slice is done. An exception
  /// is kept (the first one) and the rest of the slice skipped, so that no thread is left
  /// waiting at the barrier; run_team rethrows it.
  template <class Work>
  void each(Work&& work) {
    if (!*failure_) {
      try {
        for (std::size_t i = first_; i < last_; ++i) work(i);
      } catch (...) {
        *failure_ = std::current_exception();
      }
    }
    wait();
  }

  /// work() on the first slice only (a step every agent's next phase reads), then waits.
  template <class Work>
  void serial(Work&& work) {
    if (slice_ == 0 && !*failure_) {
      try {
        work();
      } catch (...) {
        *failure_ = std::current_exception();
      }
    }
    wait();
  }

 private:
  void wait() {
    if (meeting_ != nullptr) meeting_->arrive_and_wait();
  }

  std::size_t first_, last_, slice_;
  std::barrier<>* meeting_;       ///< null with one slice
  std::exception_ptr* failure_;  ///< this slice's first failure
};

/// Runs body(team) on min(threads, count) threads (at least one), the caller being the first,
/// and returns when all are done; rethrows the first exception a slice threw.
template <class Body>
void run_team(std::size_t count, std::size_t threads, Body&& body) {
  const std::size_t slices = std::max<std::size_t>(1, std::min(threads, count));
  std::vector<std::exception_ptr> failures(slices);
  if (slices == 1) {
    SliceTeam team(count, 1, 0, nullptr, &failures[0]);
    body(team);
  } else {
    std::barrier<> meeting(static_cast<std::ptrdiff_t>(slices));
    auto run = [&](std::size_t slice) {
      SliceTeam team(count, slices, slice, &meeting, &failures[slice]);
      body(team);
    };
    std::vector<JoiningThread> helpers;
    helpers.reserve(slices - 1);
    for (std::size_t slice = 1; slice < slices; ++slice) helpers.emplace_back(run, slice);
    run(0);
  }
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace wayfinder::crowd_detail
