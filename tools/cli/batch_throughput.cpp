#include "batch_throughput.hpp"

#include "command_line_values.hpp"
#include "text_table.hpp"

namespace wayfinder::cli {

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
