#include "grid/scenario_scoring.hpp"

#include <algorithm>
#include <cmath>

#include "path_audit.hpp"
#include "text_table.hpp"

namespace wayfinder::cli {

PathPromise promise_of(GridAlgorithm algorithm) {
  switch (algorithm) {
    case GridAlgorithm::dijkstra:
    case GridAlgorithm::astar:
    case GridAlgorithm::bidirectional_astar:
    case GridAlgorithm::jump_point:
    case GridAlgorithm::jump_point_plus: return PathPromise::optimal;
    case GridAlgorithm::ida_star: return PathPromise::optimal_within_budget;
    case GridAlgorithm::weighted_astar: return PathPromise::bounded;
    case GridAlgorithm::breadth_first:
    case GridAlgorithm::greedy_best_first:
    case GridAlgorithm::hierarchical: return PathPromise::some_path;
    // The bench does not run the walkers (they may fail where a path exists); were they
    // scored, a path they find is still some path.
    case GridAlgorithm::crash_right:
    case GridAlgorithm::crash_left:
    case GridAlgorithm::crash_auto:
    case GridAlgorithm::crash_four_way:
    case GridAlgorithm::divide: return PathPromise::some_path;
  }
  return PathPromise::some_path;
}

double scenario_tolerance(const Scenario& scenario) {
  const bool whole_hundredths = std::all_of(scenario.queries.begin(), scenario.queries.end(), [](const auto& query) {
    const double hundredths = query.optimal_length * 100.0;
    return std::abs(hundredths - std::round(hundredths)) <= 1e-9 * std::max(1.0, std::abs(hundredths));
  });
  return whole_hundredths && !scenario.queries.empty() ? 0.011 : 1e-3;
}

double query_tolerance(double base_tolerance, double optimal_length) {
  return std::max(base_tolerance, 1e-5 * std::abs(optimal_length));
}

QueryScore score_query(const GridMap& map, Cell start, Cell goal, const QueryReference& reference,
                       const PathResult& result, GridAlgorithm algorithm, double weight, DiagonalMode diagonal) {
  QueryScore score;
  const PathPromise promise = promise_of(algorithm);
  score.solved = result.status == SearchStatus::found;
  score.budget_stopped = result.reason == StopReason::expansion_limit || result.reason == StopReason::time_limit ||
                         result.reason == StopReason::cost_limit;
  auto mismatch = [&](std::string why) {
    score.mismatch = true;
    score.problem = std::move(why);
    return score;
  };

  if (!score.solved) {
    if (promise == PathPromise::optimal_within_budget && score.budget_stopped) return score;
    if (!reference.optimal && result.status == SearchStatus::no_path) return score;  // rightly none
    std::string why = "no path (status " + std::string(to_string(result.status));
    if (!result.message.empty()) why += ": " + result.message;
    return mismatch(why + ")" +
                    (reference.optimal ? ", optimal length " + format_fixed(*reference.optimal, 5) : std::string()));
  }
  if (!reference.optimal) return mismatch("found a path where the reference found none");

  if (const std::optional<std::string> problem = find_path_problem(map, start, goal, result, diagonal))
    return mismatch(*problem);

  const double optimal = *reference.optimal;
  score.abs_error = std::abs(result.cost - optimal);
  const bool promises_optimal = promise == PathPromise::optimal || promise == PathPromise::optimal_within_budget;
  if (promises_optimal && score.abs_error > reference.tolerance)
    return mismatch("cost " + format_fixed(result.cost, 5) + ", optimal length " + format_fixed(optimal, 5));
  if (promise == PathPromise::bounded && result.cost > weight * optimal + reference.tolerance)
    return mismatch("cost " + format_fixed(result.cost, 5) + " exceeds " + format_fixed(weight, 3) +
                    " x optimal length " + format_fixed(optimal, 5));
  return score;
}

void BenchTally::add(const QueryScore& score, double microseconds, const SearchStats& stats) {
  if (score.solved) {
    ++solved_;
    max_abs_error_ = std::max(max_abs_error_, score.abs_error);
  }
  if (score.mismatch) ++mismatches_;
  if (score.budget_stopped) ++budget_stopped_;
  total_expanded_ += static_cast<double>(stats.expanded);
  total_generated_ += static_cast<double>(stats.generated);
  microseconds_.push_back(microseconds);
}

BenchSummary BenchTally::summary() const {
  BenchSummary summary;
  summary.algorithm = std::string(to_string(algorithm_));
  summary.queries = microseconds_.size();
  summary.solved = solved_;
  summary.mismatches = mismatches_;
  summary.budget_exhausted = budget_stopped_;
  summary.max_abs_error = max_abs_error_;
  set_per_query_figures(summary, microseconds_, total_expanded_, total_generated_);
  return summary;
}

}  // namespace wayfinder::cli
