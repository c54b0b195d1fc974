#pragma once
// `--threads N` for the bench commands. With one thread a bench command answers its queries one
// after another, timing each find_path call. With more, it answers them all as one batch
// (solve_batch: one query object per thread, the world shared), times the batch by the wall
// clock, and takes each query's own time from its result's statistics. Either way it reports
// the throughput: queries answered per second of wall time.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/path_batch.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder::cli {

/// More threads than cores only queue up, but are allowed (to see what that costs); the bound
/// keeps a typo from starting thousands of threads.
inline constexpr std::uint64_t max_bench_threads = 256;

/// `--threads N`: a whole number from 1 to max_bench_threads, stored in `threads`.
CLI::Option* add_threads_option(CLI::App& command, std::uint64_t& threads);

/// The lines of a bench command's help that say how --threads changes what is timed (the header's
/// first paragraph), for commands that time find_path alone.
std::string threaded_timing_help();

/// Answers every request on `threads` threads with solve_batch, on the world's default query
/// objects or on those a query factory makes (`queries` is either), and returns the wall time of
/// the whole batch in seconds (thread start and join included).
template <class Queries, class Request>
double run_timed_batch(const Queries& queries, std::span<const Request> requests, std::vector<PathResult>& results,
                       std::uint64_t threads) {
  const auto started = std::chrono::steady_clock::now();
  solve_batch(queries, requests, results, static_cast<unsigned>(threads));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

/// Queries per second over `seconds` of wall time; 0 when no time was measured.
double queries_per_second(std::size_t queries, double seconds);

/// The text form's note on what the times are: per find_path call with one thread, each
/// result's own with a batch on more ("one batch per algorithm on 2 threads; times are ...").
std::string timing_note(std::uint64_t threads);

/// The text form's line: "throughput: 2843.2 queries/s on 2 threads".
std::string throughput_line(double queries_per_second, std::uint64_t threads);

}  // namespace wayfinder::cli
