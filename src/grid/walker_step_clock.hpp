#pragma once
// The budget check every reactive walker's step() makes before its next move: the step's own
// limits (StepBudget) pause the walk, the query's Budget ends it. Like the engine, the clock is
// read every Budget::time_check_interval moves and never before the first move of a step.

#include <chrono>
#include <cstdint>

#include "wayfinder/core/budget.hpp"

namespace wayfinder::walker_detail {

enum class WalkerTurn : std::uint8_t {
  move,          ///< go on
  pause,         ///< the step's limits are spent: return in_progress
  out_of_time,   ///< the query's Budget::max_time is spent (set-up and earlier steps included)
  out_of_moves,  ///< the query's Budget::max_expansions is spent
};

class WalkerStepClock {
 public:
  /// `microseconds_before`: the walk's time before this step.
  WalkerStepClock(const StepBudget& step, const Budget& budget, double microseconds_before)
      : step_(step), budget_(budget), before_(microseconds_before),
        time_limit_us_(std::chrono::duration<double, std::micro>(budget.max_time).count()) {}

  /// What to do before the next move, after `done` moves in this step and `moves` in all.
  [[nodiscard]] WalkerTurn next(std::uint64_t done, std::uint64_t moves) const {
    if (done >= step_.max_expansions || step_time_is_up(step_, done, started_)) return WalkerTurn::pause;
    if (time_limit_us_ > 0.0 && done != 0 && done % Budget::time_check_interval == 0 &&
        microseconds() >= time_limit_us_)
      return WalkerTurn::out_of_time;
    if (moves >= budget_.max_expansions) return WalkerTurn::out_of_moves;
    return WalkerTurn::move;
  }

  /// The walk's time so far: before this step plus this step's.
  [[nodiscard]] double microseconds() const {
    return before_ + std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started_).count();
  }

 private:
  const StepBudget& step_;
  const Budget& budget_;
  double before_;
  double time_limit_us_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace wayfinder::walker_detail
