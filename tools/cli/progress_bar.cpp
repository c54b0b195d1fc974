#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>

namespace wayfinder::cli {

namespace {
constexpr int bar_width = 30;
constexpr auto redraw_interval = std::chrono::milliseconds(100);
}  // namespace

void ProgressBar::start(std::string label, std::size_t total) {
  label_ = std::move(label);
  total_ = total;
  last_draw_ = {};
  if (enabled_) draw(0);
}

void ProgressBar::update(std::size_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < total_ && now - last_draw_ < redraw_interval) return;
  draw(done);
}

void ProgressBar::draw(std::size_t done) {
  last_draw_ = std::chrono::steady_clock::now();
  const double fraction = total_ == 0 ? 1.0 : std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  const int filled = static_cast<int>(fraction * bar_width);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(bar_width - filled), '.');
  // "\r\033[K": back to the start of the line and erase it, then redraw.
  out_ << "\r\033[K" << label_ << " [" << bar << "] " << static_cast<int>(fraction * 100.0) << "% " << done << '/'
       << total_ << std::flush;
  visible_ = true;
}

void ProgressBar::clear() {
  if (!visible_) return;
  out_ << "\r\033[K" << std::flush;
  visible_ = false;
}

bool standard_error_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace wayfinder::cli
