#pragma once
// Limits on one search. A game gives a search a budget so that it never stalls a frame.

#include <chrono>
#include <cstdint>
#include <limits>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct Budget {
  static constexpr std::uint64_t unlimited_expansions = std::numeric_limits<std::uint64_t>::max();

  /// Stop after this many node expansions (over the whole search, across steps).
  std::uint64_t max_expansions = unlimited_expansions;
  /// Stop once no path cheaper than this can exist (the best f on the open list exceeds it).
  Cost max_cost = infinite_cost;
  /// Stop once the search has run this long in total (summed over steps); zero means no limit.
  /// Checked every 256 expansions, so a search may overrun by that much work.
  std::chrono::nanoseconds max_time{0};

  [[nodiscard]] bool unlimited() const {
    return max_expansions == unlimited_expansions && max_cost == infinite_cost && max_time.count() == 0;
  }
};

}  // namespace wayfinder
