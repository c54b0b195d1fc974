#pragma once
// The figures every checked benchmark (`grid bench`, `voxel bench`) prints first for each
// algorithm, in its table and in its JSON, so that the commands' outputs line up.

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "text_table.hpp"

namespace wayfinder::cli {

/// One algorithm's run over a benchmark's queries, each answer checked against its reference.
struct BenchSummary {
  std::string algorithm;
  std::size_t queries = 0;
  std::size_t solved = 0;
  std::size_t mismatches = 0;  ///< answers that broke the algorithm's promise
  std::size_t budget_exhausted = 0;  ///< queries stopped by an expansion budget
  double max_abs_error = 0.0;  ///< the largest |cost - reference| of the solved queries
  double mean_us = 0.0;  ///< microseconds per query
  double median_us = 0.0;
  double mean_expanded = 0.0;
  double mean_generated = 0.0;
};

/// How far the costs of the found paths stray above a reference cost (the optimum, or another
/// algorithm's cost): the ratios cost / reference, 1 for an optimal algorithm.
class CostRatios {
 public:
  void add(double ratio) {
    sum_ += ratio;
    max_ = std::max(max_, ratio);
    ++count_;
  }
  [[nodiscard]] std::size_t count() const { return count_; }
  /// nullopt when no ratio was added.
  [[nodiscard]] std::optional<double> mean() const {
    return count_ == 0 ? std::nullopt : std::optional<double>(sum_ / static_cast<double>(count_));
  }
  [[nodiscard]] std::optional<double> max() const { return count_ == 0 ? std::nullopt : std::optional<double>(max_); }

 private:
  double sum_ = 0.0;
  double max_ = 0.0;
  std::size_t count_ = 0;
};

/// Sets the summary's per-query figures from a run: the mean and the median of the queries'
/// times (`microseconds`, one a query) and the mean expansions and generations (the run's
/// totals over the number of times). All stay 0 for a run of no queries.
void set_per_query_figures(BenchSummary& summary, const std::vector<double>& microseconds, double total_expanded,
                           double total_generated);

/// The middle value (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

/// The table's columns for the summary: algorithm, queries, solved, mismatches, max_abs_error,
/// mean_us, median_us, mean_expanded. A command may append columns of its own.
std::vector<TableColumn> bench_summary_columns();
/// A row of those columns (append the cells of a command's own columns).
std::vector<std::string> bench_summary_cells(const BenchSummary& summary);
/// The summary as JSON members, from "algorithm" to "mean_generated" (a command adds its own).
nlohmann::ordered_json bench_summary_json(const BenchSummary& summary);

}  // namespace wayfinder::cli
