#pragma once
// How a search run ends, said once for every search: its status and stop reason (RunOutcome),
// and the report result() gives besides the path (RunReport).

#include <string>
#include <utility>

#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// How a search run stands: in_progress / none while it goes on, else its final status and the
/// reason it stopped.
struct RunOutcome {
  SearchStatus status = SearchStatus::in_progress;
  StopReason reason = StopReason::none;

  [[nodiscard]] bool running() const { return status == SearchStatus::in_progress; }
  /// Whether the outcome comes with a path (to the goal, or partial to the closest node).
  [[nodiscard]] bool has_path() const { return status == SearchStatus::found || status == SearchStatus::partial; }

  [[nodiscard]] static constexpr RunOutcome goal_reached() { return {SearchStatus::found, StopReason::goal_reached}; }
  [[nodiscard]] static constexpr RunOutcome invalid_input() {
    return {SearchStatus::invalid_input, StopReason::invalid_input};
  }
  /// The query's Budget ran out for `reason`: `partial` (a path to the closest node) when
  /// `return_partial`, else `budget_exhausted`.
  [[nodiscard]] static constexpr RunOutcome budget_spent(StopReason reason, bool return_partial) {
    return {return_partial ? SearchStatus::partial : SearchStatus::budget_exhausted, reason};
  }
  /// Everything reachable was searched: `partial` when `partial_when_unreachable`, else `no_path`.
  [[nodiscard]] static constexpr RunOutcome unreachable(bool partial_when_unreachable) {
    return {partial_when_unreachable ? SearchStatus::partial : SearchStatus::no_path, StopReason::open_list_empty};
  }

  friend bool operator==(const RunOutcome&, const RunOutcome&) = default;
};

/// A search's outcome and, for invalid input or a stop that needs explaining, its message: the
/// part of every result() that is not the path.
class RunReport {
 public:
  [[nodiscard]] const RunOutcome& outcome() const { return outcome_; }
  [[nodiscard]] SearchStatus status() const { return outcome_.status; }
  [[nodiscard]] bool running() const { return outcome_.running(); }
  [[nodiscard]] const std::string& message() const { return message_; }

  /// A new run: in_progress, no message.
  void begin() {
    outcome_ = {};
    message_.clear();
  }
  /// Ends the run (or, with RunOutcome{}, resumes it) with `message` (empty: none).
  SearchStatus finish(RunOutcome outcome, std::string message = {}) {
    outcome_ = outcome;
    message_ = std::move(message);
    return outcome_.status;
  }

  /// Resets `out` (keeping its memory) and writes the status, reason, `stats` and message; the
  /// path is the caller's to fill.
  void write(PathResult& out, const SearchStats& stats) const {
    out.reset();
    out.status = outcome_.status;
    out.reason = outcome_.reason;
    out.stats = stats;
    out.message = message_;
  }

 private:
  RunOutcome outcome_;
  std::string message_;
};

}  // namespace wayfinder
