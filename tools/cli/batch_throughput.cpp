#include "batch_throughput.hpp"

#include "command_line_values.hpp"
#include "text_table.hpp"

namespace wayfinder::cli {

std::string threaded_timing_help() {
  return "Times are of find_path alone. With --threads 1 each call is timed, and the throughput is the queries\n"
         "over the sum of those times. With --threads N > 1 the queries run as one batch (solve_batch) on N threads:\n"
         "the throughput is the queries over the batch's wall time, and the per-query times are each result's own\n"
         "(stats.microseconds). Either way every answer is checked in the same way.\n";
}

CLI::Option* add_threads_option(CLI::App& command, std::uint64_t& threads) {
  return add_whole_number_option(command, "--threads", threads, 1, max_bench_threads,
                                 "answer the queries as one batch on N threads and report the throughput; 1 answers "
                                 "and times them one by one")
      ->default_str("1");
}

double queries_per_second(std::size_t queries, double seconds) {
  return seconds > 0.0 ? static_cast<double>(queries) / seconds : 0.0;
}

std::string throughput_line(double queries_per_second, std::uint64_t threads) {
  return "throughput: " + format_fixed(queries_per_second, 1) + " queries/s on " + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads");
}

std::string timing_note(std::uint64_t threads) {
  if (threads == 1) return "times are microseconds per query, search only";
  return "one batch per algorithm on " + std::to_string(threads) +
         " threads; times are microseconds per query as each result's statistics give them";
}

}  // namespace wayfinder::cli
