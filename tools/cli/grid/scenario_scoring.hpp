#pragma once
// Judging grid search results against a MovingAI scenario's optimal lengths, and summing them
// up per algorithm for `wayfinder grid bench`.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench_summary.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {

/// What an algorithm promises, and so what counts as a mismatch against the optimal length.
enum class PathPromise {
  optimal,                ///< cost within the tolerance of the optimal length
  optimal_within_budget,  ///< as optimal, except that running out of budget is not a mismatch (IDA*)
  bounded,                ///< cost <= weight x optimal (weighted A*)
  some_path,              ///< finds a path whenever one exists (breadth-first, greedy)
};

PathPromise promise_of(GridAlgorithm algorithm);

/// How far a cost may be from a scenario's optimal length and still count as equal. The files
/// give lengths with 5 to 8 decimals (1e-3 is safe) or, for the bg512 set, with 2 decimals
/// (rounded: up to 0.005 off, so 0.011 leaves room for the path's own rounding). The text is
/// gone once parsed, so 2-decimal files are recognised by every length being a whole number of
/// hundredths. This is the base tolerance; query_tolerance() widens it for long paths.
double scenario_tolerance(const Scenario& scenario);

/// Most files print lengths with 6 significant digits, so a length of 1000 or more has only 2
/// decimals (brc202d: 1000.36 for 1000.36248): allow 1e-5 of the length, twice that rounding.
double query_tolerance(double base_tolerance, double optimal_length);

/// Relative tolerance against a reference computed here (Dijkstra): both costs are sums of the
/// same move costs, and a search may return a path up to a relative 2^-32 above the optimum
/// (priorities are rounded to 32 significant bits), so 1e-9 of the length is room enough.
inline constexpr double computed_reference_tolerance = 1e-9;

/// What an answer is judged against: the optimal cost (nullopt when no path exists) and how far
/// from it a cost may be and still count as equal.
struct QueryReference {
  std::optional<double> optimal;
  double tolerance = 0.0;
};

struct QueryScore {
  bool solved = false;          ///< status found
  bool budget_stopped = false;  ///< the search ran out of budget
  bool mismatch = false;
  double abs_error = 0.0;  ///< |cost - optimal| when solved
  std::string problem;     ///< why it is a mismatch
};

/// Checks one result: the status against the promise, the path with find_path_problem under
/// `diagonal`, and the cost against the reference.
QueryScore score_query(const GridMap& map, Cell start, Cell goal, const QueryReference& reference,
                       const PathResult& result, GridAlgorithm algorithm, double weight, DiagonalMode diagonal);

/// Collects the scores and timings of one algorithm's run over a scenario.
class BenchTally {
 public:
  explicit BenchTally(GridAlgorithm algorithm) : algorithm_(algorithm) {}
  void add(const QueryScore& score, double microseconds, const SearchStats& stats);
  [[nodiscard]] BenchSummary summary() const;

 private:
  GridAlgorithm algorithm_;
  std::size_t solved_ = 0;
  std::size_t mismatches_ = 0;
  std::size_t budget_stopped_ = 0;
  double max_abs_error_ = 0.0;
  double total_expanded_ = 0.0;
  double total_generated_ = 0.0;
  std::vector<double> microseconds_;
};

}  // namespace wayfinder::cli
