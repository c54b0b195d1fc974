// Proof on real benchmark data: every query of every MovingAI scenario under
// <data>/movingai/ is solved by each grid algorithm and compared with the optimal length that
// the scenario file records (Sturtevant 2012). One test per (scenario file, algorithm), so ctest
// can run them in parallel and a failure names both.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

/// What each test checks; the optimal algorithms share one kind of check.
enum class Check { astar, dijkstra, bidirectional, jump_point, breadth_first, weighted_astar, greedy, ida_star };

struct DataCase {
  std::filesystem::path scenario;  ///< empty when no data was found
  std::string relative_name;       ///< e.g. "dao/arena2.map.scen"
  Check check = Check::astar;
};

constexpr Check all_checks[] = {Check::astar,         Check::dijkstra,       Check::bidirectional, Check::jump_point,
                                Check::breadth_first, Check::weighted_astar, Check::greedy,        Check::ida_star};

std::string check_name(Check check) {
  switch (check) {
    case Check::astar: return "astar";
    case Check::dijkstra: return "dijkstra";
    case Check::bidirectional: return "bidirectional";
    case Check::jump_point: return "jps";
    case Check::breadth_first: return "bfs";
    case Check::weighted_astar: return "weighted_astar";
    case Check::greedy: return "greedy";
    case Check::ida_star: return "ida";
  }
  return "unknown";
}

GridAlgorithm algorithm_of(Check check) {
  switch (check) {
    case Check::astar: return GridAlgorithm::astar;
    case Check::dijkstra: return GridAlgorithm::dijkstra;
    case Check::bidirectional: return GridAlgorithm::bidirectional_astar;
    case Check::jump_point: return GridAlgorithm::jump_point;
    case Check::breadth_first: return GridAlgorithm::breadth_first;
    case Check::weighted_astar: return GridAlgorithm::weighted_astar;
    case Check::greedy: return GridAlgorithm::greedy_best_first;
    case Check::ida_star: return GridAlgorithm::ida_star;
  }
  return GridAlgorithm::astar;
}

/// Names a case in test listings (instead of GoogleTest's byte dump).
void PrintTo(const DataCase& data, std::ostream* out) {
  if (data.scenario.empty()) {
    *out << "no data";
  } else {
    *out << data.relative_name << " " << check_name(data.check);
  }
}

std::filesystem::path movingai_directory() { return data_directory() / "movingai"; }

/// Every .scen file under the data folder, found when the test program starts, so new data
/// files are picked up without touching the tests.
std::vector<DataCase> discover_cases() {
  std::vector<std::filesystem::path> scenarios;
  std::error_code error;
  const std::filesystem::path root = movingai_directory();
  if (std::filesystem::is_directory(root, error)) {
    for (auto it = std::filesystem::recursive_directory_iterator(root, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file() && it->path().extension() == ".scen") scenarios.push_back(it->path());
    }
  }
  std::sort(scenarios.begin(), scenarios.end());
  std::vector<DataCase> cases;
  for (const auto& scenario : scenarios)
    for (const Check check : all_checks)
      cases.push_back({scenario, std::filesystem::relative(scenario, root).generic_string(), check});
  if (cases.empty()) cases.push_back({});  // one case that skips (or fails, in CI) with a clear message
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<DataCase>& info) {
  if (info.param.scenario.empty()) return "no_data";
  std::string name = info.param.relative_name;
  for (const std::string_view suffix : {".map.scen", ".scen"}) {
    if (name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  }
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + check_name(info.param.check);
}

/// How far a computed length may be from the one written in the file. The bg512 files round
/// to 2 decimals (the issue allows 0.011). The others print 6 significant digits ("%g"; the
/// cities print 8 decimals), so a length of 1000 or more is only known to within half a unit of
/// its second decimal: 1e-3 there would demand more than the file holds.
double length_tolerance(const std::string& relative_name, double optimal_length) {
  if (relative_name.starts_with("bg512/")) return 0.011;
  const double half_last_digit =
      optimal_length >= 1.0 ? 0.5 * std::pow(10.0, std::floor(std::log10(optimal_length)) - 5.0) : 0.0;
  return std::max(1e-3, half_last_digit + 1e-9);
}

/// Which queries a test runs. The release test runs every query; sanitizer builds run a sample
/// so the whole suite stays within CI's time.
std::vector<std::size_t> sampled_queries(std::size_t count, std::size_t stride, std::size_t cap) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < count && chosen.size() < cap; i += stride) chosen.push_back(i);
  return chosen;
}

/// Collects failures, reporting the first few in full and the rest as a count, so a broken
/// algorithm does not print ten thousand lines.
class FailureLog {
 public:
  void add(const std::string& where, const std::string& what) {
    ++count_;
    if (count_ <= max_reported) ADD_FAILURE() << where << ": " << what;
  }
  [[nodiscard]] std::size_t count() const { return count_; }

 private:
  static constexpr std::size_t max_reported = 10;
  std::size_t count_ = 0;
};

class MovingAiDataTest : public ::testing::TestWithParam<DataCase> {};

TEST_P(MovingAiDataTest, SolvesEveryQuery) {
  const DataCase& data = GetParam();
  if (data.scenario.empty()) {
    const std::string message = "no MovingAI scenarios under " + movingai_directory().string() +
                                " (set WAYFINDER_DATA_DIR to the shared data folder)";
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires them";
    GTEST_SKIP() << message;
  }

  const Scenario scenario = read_movingai_scenario(data.scenario);
  const GridMap map = read_movingai_map(scenario_map_path(data.scenario));
  ASSERT_NO_THROW(check_scenario_fits_map(scenario, map));
  ASSERT_FALSE(scenario.queries.empty()) << data.relative_name << " has no queries";

  const bool sampled = sanitized_build();
  constexpr DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles;  // the MovingAI rule
  const Check check = data.check;

  std::vector<std::size_t> queries;
  if (check == Check::ida_star) {
    // IDA* re-expands nodes on every iteration, so it only gets the short queries and a budget.
    std::vector<std::size_t> short_queries;
    for (std::size_t i = 0; i < scenario.queries.size(); ++i)
      if (scenario.queries[i].optimal_length <= 20.0) short_queries.push_back(i);
    // Spread the sample over all of them, from the trivial to the longest.
    const std::size_t cap = sampled ? 8 : 40;
    const std::size_t stride = std::max<std::size_t>(1, short_queries.size() / cap);
    for (std::size_t i = 0; i < short_queries.size() && queries.size() < cap; i += stride)
      queries.push_back(short_queries[i]);
  } else if (sampled) {
    queries = sampled_queries(scenario.queries.size(), 20, 300);
  } else if (check == Check::weighted_astar || check == Check::greedy) {
    // These promise a bound, not an optimum, so a sample spread over every bucket proves as
    // much as all queries would; it keeps the 12,000-query maze file from dominating the run.
    constexpr std::size_t cap = 3000;
    const std::size_t count = scenario.queries.size();
    queries = sampled_queries(count, (count + cap - 1) / cap, cap);
  } else {
    queries = sampled_queries(scenario.queries.size(), 1, scenario.queries.size());
  }

  GridSearchOptions options;
  options.algorithm = algorithm_of(check);
  options.diagonal = diagonal;
  options.weight = 2.0;
  if (check == Check::ida_star) {
    options.budget.max_expansions = sampled ? 100'000 : 2'000'000;
    options.return_partial = true;
  }
  // For the breadth-first move-count bound: an optimal-cost path. On a uniform-cost grid every
  // optimal path has the same number of moves (cost = diagonals * sqrt 2 + straights, and sqrt 2
  // is irrational), so jump point search's path serves as well as A*'s and costs 1/50 the time.
  GridSearchOptions reference_options;
  reference_options.algorithm = map.uniform_cost() ? GridAlgorithm::jump_point : GridAlgorithm::astar;
  reference_options.diagonal = diagonal;

  GridQuery pathfinder(map);
  GridQuery reference_pathfinder(map);
  FailureLog failures;
  std::size_t solved = 0;
  std::size_t budget_stops = 0;
  std::size_t oracle_checked = 0;
  double max_error = 0.0;
  std::uint64_t expanded = 0;
  const auto began = std::chrono::steady_clock::now();

  for (std::size_t n = 0; n < queries.size(); ++n) {
    const ScenarioQuery& query = scenario.queries[queries[n]];
    std::ostringstream where_text;
    where_text << data.relative_name << ":" << query.line << " (" << query.start.x << "," << query.start.y << ") -> ("
               << query.goal.x << "," << query.goal.y << "), optimal " << query.optimal_length;
    const std::string where = where_text.str();

    const double tolerance = length_tolerance(data.relative_name, query.optimal_length);
    const PathResult result = pathfinder.find_path(query.start, query.goal, options);
    expanded += result.stats.expanded;

    if (check == Check::ida_star && !result.found()) {
      if (result.status == SearchStatus::partial || result.status == SearchStatus::budget_exhausted) {
        ++budget_stops;
        if (result.status == SearchStatus::partial && !result.nodes.empty() &&
            !(map.cell_of(result.nodes.front()) == query.start))
          failures.add(where, "partial IDA* path does not begin at the start");
        continue;
      }
      failures.add(where, "IDA* returned " + std::string(to_string(result.status)) + " " + result.message);
      continue;
    }
    if (!result.found()) {
      failures.add(where, "status " + std::string(to_string(result.status)) + " " + result.message);
      continue;
    }
    ++solved;

    // The path itself, checked twice: by the library's validator and by the test's own.
    const GridPathCheck library_check = check_grid_path(map, result.nodes, diagonal);
    const ReferencePathCheck own_check = reference_check_path(map, result.nodes, diagonal, query.start, query.goal);
    if (!library_check.valid) {
      failures.add(where, "check_grid_path: " + library_check.problem);
      continue;
    }
    if (!own_check.valid()) {
      failures.add(where, "path check: " + own_check.problem);
      continue;
    }
    if (std::abs(library_check.cost - result.cost) > 1e-6 || std::abs(own_check.cost - result.cost) > 1e-6) {
      failures.add(where, "reported cost " + std::to_string(result.cost) + " but the path costs " +
                              std::to_string(own_check.cost));
      continue;
    }
    if (result.points.size() != result.nodes.size())
      failures.add(where, "points and nodes differ in length");

    const double error = result.cost - query.optimal_length;
    // Nothing may beat the optimum: a shorter "path" means a broken move rule or cost.
    if (error < -tolerance) {
      failures.add(where, "cost " + std::to_string(result.cost) + " is below the optimal length");
      continue;
    }
    switch (check) {
      case Check::astar:
      case Check::dijkstra:
      case Check::bidirectional:
      case Check::jump_point:
      case Check::ida_star:
        max_error = std::max(max_error, std::abs(error));
        if (std::abs(error) > tolerance)
          failures.add(where, "cost " + std::to_string(result.cost) + " is not optimal");
        break;
      case Check::weighted_astar:
        max_error = std::max(max_error, error);
        if (result.cost > options.weight * query.optimal_length + tolerance)
          failures.add(where, "cost " + std::to_string(result.cost) + " exceeds weight x optimal");
        break;
      case Check::greedy:
        max_error = std::max(max_error, error);
        break;
      case Check::breadth_first: {
        // Fewest moves: never more moves than an optimal-cost path...
        const PathResult optimal = reference_pathfinder.find_path(query.start, query.goal, reference_options);
        if (!optimal.found()) {
          failures.add(where, "the reference search found no path");
          break;
        }
        if (result.nodes.size() > optimal.nodes.size())
          failures.add(where, "breadth-first path has " + std::to_string(result.nodes.size() - 1) +
                                  " moves, more than the optimal-cost path's " + std::to_string(optimal.nodes.size() - 1));
        // ... and exactly the fewest, by an independent breadth-first search on a sample.
        const std::size_t oracle_stride = sampled ? 5 : 25;
        if (n % oracle_stride == 0) {
          ++oracle_checked;
          const std::vector<int> fewest = reference_moves_from(map, diagonal, query.start);
          const int expected = fewest[map.id_of(query.goal)];
          if (static_cast<int>(own_check.moves) != expected)
            failures.add(where, "breadth-first path has " + std::to_string(own_check.moves) +
                                    " moves; the fewest is " + std::to_string(expected));
        }
        break;
      }
    }
  }

  const double milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  std::cout << "[ data     ] " << data.relative_name << " " << check_name(check) << ": " << queries.size() << " of "
            << scenario.queries.size() << " queries run, " << solved << " solved, " << budget_stops
            << " budget stops, " << oracle_checked << " oracle checks, max |cost - optimal| " << max_error
            << ", mean expanded " << (queries.empty() ? 0.0 : static_cast<double>(expanded) / static_cast<double>(queries.size())) << ", "
            << milliseconds << " ms\n";
  RecordProperty("queries_run", static_cast<int>(queries.size()));
  RecordProperty("solved", static_cast<int>(solved));
  RecordProperty("budget_stops", static_cast<int>(budget_stops));
  EXPECT_EQ(failures.count(), 0u) << failures.count() << " of " << queries.size() << " queries failed";
  if (check == Check::ida_star) {
    // IDA* must solve at least the trivial queries (start next to the goal) within the budget.
    EXPECT_GT(solved, 0u) << "IDA* solved none of the short queries";
  } else {
    EXPECT_EQ(solved, queries.size());
  }
}

INSTANTIATE_TEST_SUITE_P(MovingAi, MovingAiDataTest, ::testing::ValuesIn(discover_cases()), case_name);

}  // namespace
}  // namespace wayfinder
