#pragma once
// A one-line progress bar for long runs. It draws only on an interactive terminal, so that
// piped or redirected output (and CI logs) never fill with carriage returns.

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace wayfinder::cli {

class ProgressBar {
 public:
  /// `enabled` is usually standard_error_is_terminal(); a disabled bar does nothing.
  ProgressBar(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}
  ~ProgressBar() { clear(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Starts a new task of `total` steps, shown with `label`.
  void start(std::string label, std::size_t total);
  /// Reports `done` steps finished; redraws at most a few times per second.
  void update(std::size_t done);
  /// Erases the bar so that normal output continues on a clean line.
  void clear();

 private:
  void draw(std::size_t done);

  std::ostream& out_;
  bool enabled_;
  bool visible_ = false;
  std::string label_;
  std::size_t total_ = 0;
  std::chrono::steady_clock::time_point last_draw_{};
};

/// True when file descriptor 2 is a terminal.
bool standard_error_is_terminal();

}  // namespace wayfinder::cli
