#pragma once
// What every benchmark program shares: where the data lives and the per-query counters.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

namespace wayfinder::bench {

/// The shared data folder: $WAYFINDER_DATA_DIR, or ../shared/data beside the checkout.
inline std::filesystem::path data_dir() {
  if (const char* from_environment = std::getenv("WAYFINDER_DATA_DIR")) return from_environment;
  return WAYFINDER_DATA_DIR;
}

/// Counters for a benchmark whose every iteration runs `query_count` queries that expanded
/// `expanded` nodes in all: time per query (printed with an SI prefix, 345.6u = 345.6 µs),
/// expansions per query and per second.
inline void report_queries(benchmark::State& state, std::size_t query_count, double expanded) {
  const double queries = static_cast<double>(query_count) * static_cast<double>(state.iterations());
  state.counters["time_per_query"] = benchmark::Counter(
      static_cast<double>(query_count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["expanded_per_query"] = benchmark::Counter(expanded / queries);
  state.counters["expansions_per_second"] = benchmark::Counter(expanded, benchmark::Counter::kIsRate);
}

}  // namespace wayfinder::bench
