#pragma once
// Splitting the crowd's per-agent work over threads: agents [0, count) in contiguous slices, one
// per thread, the calling thread taking the first. The helper threads are started once, with the
// crowd, and sleep between updates; in an update every thread goes through the tick's phases
// together, meeting at a barrier after each (so a phase reads only what the phases before it
// wrote). Each agent's work writes only that agent's state, so the split changes nothing in the
// results.

#include <algorithm>
#include <barrier>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>
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
  /// waiting at the barrier; SliceWorkers::run rethrows it.
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

  /// Waits until every slice gets here.
  void wait() {
    if (meeting_ != nullptr) meeting_->arrive_and_wait();
  }

 private:
  std::size_t first_, last_, slice_;
  std::barrier<>* meeting_;      ///< null with one slice
  std::exception_ptr* failure_;  ///< this slice's first failure
};

/// A team of `threads` slices (>= 1) kept for the life of its owner: threads - 1 helper threads
/// that sleep until run() hands them a body. Driven by one thread at a time.
class SliceWorkers {
 public:
  explicit SliceWorkers(std::size_t threads)
      : slices_(std::max<std::size_t>(1, threads)), failures_(slices_),
        meeting_(std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(slices_))) {
    helpers_.reserve(slices_ - 1);
    for (std::size_t slice = 1; slice < slices_; ++slice) helpers_.emplace_back([this, slice] { serve(slice); });
  }
  ~SliceWorkers() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    helpers_.clear();  // joins
  }
  SliceWorkers(const SliceWorkers&) = delete;
  SliceWorkers& operator=(const SliceWorkers&) = delete;

  [[nodiscard]] std::size_t slices() const { return slices_; }

  /// Runs body(team) on every slice over agents [0, count), the caller being slice 0, and
  /// returns when all are done; rethrows the first exception a slice threw. Every slice must
  /// make the same calls of the team's each/serial/wait (the barrier counts them). Fewer than
  /// `min_per_slice` agents a slice run on the caller alone (the results are the same either way).
  template <class Body>
  void run(std::size_t count, std::size_t min_per_slice, Body&& body) {
    std::fill(failures_.begin(), failures_.end(), std::exception_ptr{});
    if (slices_ == 1 || count < slices_ * min_per_slice) {
      SliceTeam team(count, 1, 0, nullptr, &failures_[0]);
      body(team);
    } else {
      {
        const std::lock_guard lock(mutex_);
        count_ = count;
        job_ = &body;
        invoke_ = [](void* job, SliceTeam& team) { (*static_cast<std::remove_reference_t<Body>*>(job))(team); };
        ++generation_;
      }
      wake_.notify_all();
      run_slice(0, count, &body, invoke_);
    }
    for (const std::exception_ptr& failure : failures_)
      if (failure) std::rethrow_exception(failure);
  }

 private:
  using Invoke = void (*)(void*, SliceTeam&);

  /// One slice's share of a job; the last meeting keeps the job alive until every slice is out.
  void run_slice(std::size_t slice, std::size_t count, void* job, Invoke invoke) {
    SliceTeam team(count, slices_, slice, meeting_.get(), &failures_[slice]);
    try {
      invoke(job, team);
    } catch (...) {
      failures_[slice] = std::current_exception();
    }
    team.wait();
  }

  void serve(std::size_t slice) {
    std::uint64_t seen = 0;
    for (;;) {
      std::size_t count = 0;
      void* job = nullptr;
      Invoke invoke = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        count = count_;
        job = job_;
        invoke = invoke_;
      }
      run_slice(slice, count, job, invoke);
    }
  }

  std::size_t slices_;
  std::vector<std::exception_ptr> failures_;  ///< per slice, its first failure in the current run
  std::unique_ptr<std::barrier<>> meeting_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint64_t generation_ = 0;  ///< bumped by every run with helpers
  std::size_t count_ = 0;
  void* job_ = nullptr;
  Invoke invoke_ = nullptr;
  std::vector<JoiningThread> helpers_;  ///< last: joined first when destroyed
};

}  // namespace wayfinder::crowd_detail
