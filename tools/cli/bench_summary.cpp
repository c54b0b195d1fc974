#include "bench_summary.hpp"

#include <algorithm>
#include <numeric>

namespace wayfinder::cli {

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

void set_per_query_figures(BenchSummary& summary, const std::vector<double>& microseconds, double total_expanded,
                           double total_generated) {
  if (microseconds.empty()) return;
  const double count = static_cast<double>(microseconds.size());
  summary.mean_us = std::accumulate(microseconds.begin(), microseconds.end(), 0.0) / count;
  summary.median_us = median(microseconds);
  summary.mean_expanded = total_expanded / count;
  summary.mean_generated = total_generated / count;
}

std::vector<TableColumn> bench_summary_columns() {
  using Align = TableColumn::Align;
  return {{"algorithm", 14, Align::left},
          {"queries", 7, Align::right},
          {"solved", 7, Align::right},
          {"mismatches", 10, Align::right},
          {"max_abs_error", 13, Align::right},
          {"mean_us", 10, Align::right},
          {"median_us", 10, Align::right},
          {"mean_expanded", 13, Align::right}};
}

std::vector<std::string> bench_summary_cells(const BenchSummary& summary) {
  return {summary.algorithm,
          std::to_string(summary.queries),
          std::to_string(summary.solved),
          std::to_string(summary.mismatches),
          format_fixed(summary.max_abs_error, 6),
          format_fixed(summary.mean_us, 1),
          format_fixed(summary.median_us, 1),
          format_fixed(summary.mean_expanded, 1)};
}

nlohmann::ordered_json bench_summary_json(const BenchSummary& summary) {
  nlohmann::ordered_json json;
  json["algorithm"] = summary.algorithm;
  json["queries"] = summary.queries;
  json["solved"] = summary.solved;
  json["mismatches"] = summary.mismatches;
  json["budget_exhausted"] = summary.budget_exhausted;
  json["max_abs_error"] = summary.max_abs_error;
  json["mean_us"] = summary.mean_us;
  json["median_us"] = summary.median_us;
  json["mean_expanded"] = summary.mean_expanded;
  json["mean_generated"] = summary.mean_generated;
  return json;
}

}  // namespace wayfinder::cli
