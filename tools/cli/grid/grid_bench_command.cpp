#include "grid/grid_bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "batch_throughput.hpp"
#include "bench_summary.hpp"
#include "command_error.hpp"
#include "command_line_terms.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "grid/grid_derived_files.hpp"
#include "grid/grid_path_command.hpp"
#include "grid/grid_table_memory.hpp"
#include "progress_bar.hpp"
#include "grid/scenario_scoring.hpp"
#include "text_table.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/paths/compact_grid_path.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder::cli {
namespace {

constexpr std::size_t mismatches_shown_per_algorithm = 5;

/// Bytes per step of the found paths stored as CompactGridPath, in both forms: the codes only,
/// since the fixed 12-byte header (start cell, step count) is a cost per path, not per step.
class CompactPathTally {
 public:
  /// Encodes a found path both ways; false if a form does not decode to the same cells.
  bool add(const GridMap& map, const std::vector<NodeId>& nodes) {
    bool exact = true;
    for (const CompactGridPath::Form form : {CompactGridPath::Form::plain, CompactGridPath::Form::run_length}) {
      const CompactGridPath path(map, nodes, form);
      exact = exact && std::equal(path.begin(), path.end(), nodes.begin(), nodes.end(),
                                  [&](Cell cell, NodeId id) { return map.id_of(cell) == id; });
      // A path of one cell has no steps to share its bytes.
      if (path.steps() == 0) continue;
      const double per_step = static_cast<double>(path.code_bytes()) / static_cast<double>(path.steps());
      if (form == CompactGridPath::Form::plain) {
        plain_sum_ += per_step;
        ++paths_;
      } else {
        run_length_sum_ += per_step;
      }
    }
    return exact;
  }
  /// Means over the paths with at least one step; nullopt when there are none.
  [[nodiscard]] std::optional<double> plain_mean() const { return mean(plain_sum_); }
  [[nodiscard]] std::optional<double> run_length_mean() const { return mean(run_length_sum_); }

 private:
  [[nodiscard]] std::optional<double> mean(double sum) const {
    if (paths_ == 0) return std::nullopt;
    return sum / static_cast<double>(paths_);
  }
  double plain_sum_ = 0.0;
  double run_length_sum_ = 0.0;
  std::size_t paths_ = 0;
};

nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string optional_text(const std::optional<double>& value) { return value ? format_fixed(*value, 4) : "-"; }

/// How the answers are judged: the scenario's lengths (the MovingAI rule) or Dijkstra's costs.
struct ReferenceSource {
  bool from_scenario = true;
  double tolerance = 0.0;  ///< base tolerance (scenario) or relative tolerance (Dijkstra)
};

nlohmann::ordered_json summary_json(const BenchSummary& summary, const GridBenchArguments& arguments,
                                    const std::string& map_path, const ReferenceSource& reference,
                                    double throughput_qps, const CompactPathTally& compact,
                                    const std::shared_ptr<const GridJumpTable>& jump_table,
                                    const std::vector<std::string>& warnings, const CostRatios& ratios,
                                    const HierarchicalGrid* hierarchy) {
  nlohmann::ordered_json json = bench_summary_json(summary);
  json["compact_bytes_per_step"] = optional_number(compact.plain_mean());
  json["compact_rle_bytes_per_step"] = optional_number(compact.run_length_mean());
  json["mean_cost_ratio"] = optional_number(ratios.mean());
  json["max_cost_ratio"] = optional_number(ratios.max());
  json["hierarchy"] = hierarchy != nullptr ? hierarchy_json(*hierarchy) : nlohmann::ordered_json(nullptr);
  json["threads"] = arguments.threads;
  json["throughput_qps"] = throughput_qps;
  // JPS+'s preprocessing, outside the query times (null for the other algorithms).
  json["preprocess_ms"] = jump_table ? nlohmann::ordered_json(jump_table->build_seconds() * 1000.0) : nullptr;
  json["table_bytes"] = jump_table ? nlohmann::ordered_json(jump_table->memory_bytes()) : nullptr;
  json["goal_bounds"] =
      jump_table && !arguments.bounds_path.empty() ? nlohmann::ordered_json(arguments.bounds_path) : nullptr;
  json["tolerance"] = reference.tolerance;
  json["scenario"] = arguments.scenario_path;
  json["map"] = map_path;
  json["diagonal"] = command_line_name(arguments.diagonal);
  json["agent_size"] = arguments.agent_size;
  json["reference"] = reference.from_scenario ? "scenario" : "dijkstra";
  json["warnings"] = warnings;
  return json;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

/// A scenario names the map it was written for on every line. When that is not the map given,
/// the run is still meaningful if the sizes agree (a renamed copy, say), so it goes on with a
/// warning; when the sizes differ too, no query can be trusted and it stops. Returns the warning.
std::optional<std::string> check_scenario_is_for_map(const Scenario& scenario, const GridMap& map,
                                                     const std::string& map_path) {
  const std::string given = file_name(map_path);
  for (const ScenarioQuery& query : scenario.queries) {
    const std::string written_for = file_name(query.map_name);
    if (written_for == given) continue;
    const std::string note = "this scenario was written for " + written_for + ", not " + given;
    if (query.map_width != map.width() || query.map_height != map.height())
      throw CommandError(scenario.source_name + ":" + std::to_string(query.line) + ": " + note + " (" +
                             std::to_string(query.map_width) + " x " + std::to_string(query.map_height) + " cells, not " +
                             std::to_string(map.width()) + " x " + std::to_string(map.height()) + ")",
                         scenario.source_name, query.line);
    return note + ": its queries fit this map's size, so they run, but if the maps differ the optimal lengths "
                  "will not match";
  }
  return std::nullopt;
}

}  // namespace

void configure_grid_bench_command(CLI::App& command, GridBenchArguments& arguments) {
  add_grid_scenario_arguments(command, arguments.scenario_path, arguments.map_path);
  add_algorithm_list_option(command, "--algo,-a", arguments.algorithms, "algorithms to run")->default_str("astar");
  add_diagonal_option(command, "--diagonal", arguments.diagonal,
                      "the diagonal rule to search under; any but only-if-no-obstacles is checked against "
                      "Dijkstra's costs, not the scenario's lengths");
  add_number_option(command, "--weight", arguments.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W");
  add_whole_number_option(command, "--ida-budget", arguments.ida_max_expansions, 1, Budget::unlimited_expansions,
                          "expansions allowed per IDA* query; queries over budget count as unsolved, not mismatches")
      ->default_str(std::to_string(arguments.ida_max_expansions));
  add_query_limit_option(command, arguments.limit);
  add_threads_option(command, arguments.threads);
  add_grid_agent_size_option(command, arguments.agent_size,
                             "the agent's side in cells (a K x K agent by its top-left cell); above 1, queries whose "
                             "ends do not fit the body are left out and answers are checked against dijkstra's costs");
  add_grid_cluster_size_option(command, arguments.cluster_size);
  command.add_option("--table", arguments.table_path,
                     "jps-plus: a jump table saved by grid preprocess for this map, loaded instead of built")
      ->type_name("FILE");
  command.add_option("--bounds", arguments.bounds_path,
                     "jps-plus: goal bounds saved by grid preprocess --goal-bounds for this map, to prune by "
                     "(--threads 1 only)")
      ->type_name("FILE");
  add_table_memory_option(command, arguments.max_table_memory);
  add_json_flag(command, arguments.json, JsonOutput::one_per_algorithm);
  command.footer(
      "A mismatch is an answer that breaks the algorithm's promise: an optimal algorithm (astar, dijkstra,\n"
      "bidirectional, jps, and ida when it finishes within --ida-budget) off the optimal length by more than\n"
      "the tolerance, weighted-astar above weight x optimal, or any algorithm returning no path or an invalid one.\n"
      "The optimal lengths are the scenario's, which hold for the MovingAI rule (--diagonal only-if-no-obstacles,\n"
      "the default): tolerance 1e-3, or 0.011 for 2-decimal scenarios, or 1e-5 x the length if that is more\n"
      "(most lengths have 6 significant digits). Under any other --diagonal mode they do not apply: every query\n"
      "is first solved with dijkstra under that mode (untimed) and every answer compared with that cost, to a\n"
      "relative 1e-9. jps and jps-plus support only the MovingAI rule: --algo all leaves them out under other\n"
      "modes (jps-plus also on maps with terrain costs). jps-plus builds its jump table before its timed queries\n"
      "(preprocess_ms and table_bytes in --json), and every thread's pathfinder shares it.\n"
      "With --agent-size K above 1 the scenario's lengths do not apply either: queries whose start or goal the\n"
      "K x K body does not fit are left out (with a warning), the others are checked against dijkstra's costs for\n"
      "that agent, and every cell of the body is checked along each path; --algo all leaves out bfs (jps,\n"
      "jps-plus and hpa search the map as the agent sees it, built with its table or hierarchy before the timed\n"
      "queries).\n" +
      threaded_timing_help() +
      "hpa (hierarchical search) is near-optimal, not optimal: its answers are checked for validity and for a\n"
      "cost no lower than the optimum, and the cost / optimal line says how far they are. Its hierarchy is built\n"
      "once before the timed queries (reported on the hierarchy line) and shared by every thread's pathfinder.\n"
      "Exit status: 0 no mismatch; 1 some mismatch; 2 bad input or usage.");
}

int run_grid_bench_command(const GridBenchArguments& arguments, std::ostream& out, std::ostream& err) {
  const std::size_t max_queries =
      arguments.limit > 0 ? static_cast<std::size_t>(arguments.limit) : std::numeric_limits<std::size_t>::max();
  Scenario scenario = read_movingai_scenario(arguments.scenario_path, max_queries);
  const std::string map_path =
      arguments.map_path.empty() ? scenario_map_path(arguments.scenario_path).string() : arguments.map_path;
  const GridMap map = read_movingai_map(map_path);
  if (!arguments.bounds_path.empty() && arguments.threads > 1)
    throw CommandError("--bounds supports only --threads 1");
  // A saved table or saved bounds feed only JPS+: without it among the algorithms they would be
  // read for nothing.
  if ((!arguments.table_path.empty() || !arguments.bounds_path.empty()) &&
      std::find(arguments.algorithms.begin(), arguments.algorithms.end(), GridAlgorithm::jump_point_plus) ==
          arguments.algorithms.end())
    throw CommandError(std::string(arguments.table_path.empty() ? "--bounds" : "--table") +
                       " is read only by jps-plus, which --algo does not include");

  std::vector<std::string> warnings;
  const std::optional<std::string> other_map = check_scenario_is_for_map(scenario, map, map_path);
  if (other_map) warnings.push_back(*other_map);
  try {
    check_scenario_fits_map(scenario, map);
  } catch (const LoadError& error) {
    // A start on a wall says more once the user knows the scenario is for another map.
    if (!other_map) throw;
    throw LoadError(error.file(), error.line(), error.column(), error.cause() + " (" + *other_map + ")");
  }

  const int agent_size = static_cast<int>(arguments.agent_size);
  const bool sized = agent_size > 1;
  const bool movingai_rule = arguments.diagonal == DiagonalMode::only_if_no_obstacles && !sized;
  std::vector<GridAlgorithm> algorithms = arguments.algorithms;
  const bool every_algorithm = algorithms.size() == std::size(all_grid_algorithms);
  // An algorithm that cannot run these queries: left out of --algo all with a warning, an error
  // when asked for by name.
  auto leave_out = [&](GridAlgorithm algorithm, const std::string& why) {
    const auto found = std::find(algorithms.begin(), algorithms.end(), algorithm);
    if (found == algorithms.end()) return;
    if (!every_algorithm) throw CommandError("--algo " + std::string(to_string(algorithm)) + ": " + why);
    algorithms.erase(found);
    warnings.push_back(std::string(to_string(algorithm)) + " left out: " + why);
  };
  if (arguments.diagonal != DiagonalMode::only_if_no_obstacles) {
    leave_out(GridAlgorithm::jump_point,
              "jump point search supports only --diagonal only-if-no-obstacles (the MovingAI rule)");
    leave_out(GridAlgorithm::jump_point_plus, "JPS+ supports only --diagonal only-if-no-obstacles (the MovingAI rule)");
  }
  if (!map.uniform_cost()) leave_out(GridAlgorithm::jump_point_plus, "JPS+ needs a map where every cell costs 1");
  if (sized) {
    leave_out(GridAlgorithm::breadth_first, "the breadth-first wave supports only --agent-size 1");
    if (!arguments.table_path.empty())
      throw CommandError("--table holds a one-cell agent's jumps; with --agent-size " + std::to_string(agent_size) +
                         " jps-plus builds the table of the map as the agent sees it (leave --table out)");
  }

  // A larger agent runs the queries whose ends its body fits.
  std::optional<GridClearance> clearance;
  if (sized) {
    clearance.emplace(map);
    const std::size_t read = scenario.queries.size();
    std::erase_if(scenario.queries, [&](const ScenarioQuery& query) {
      return !clearance->fits(query.start, agent_size) || !clearance->fits(query.goal, agent_size);
    });
    if (scenario.queries.empty() && read > 0)
      throw CommandError(scenario.source_name + ": a " + std::to_string(agent_size) + "x" + std::to_string(agent_size) +
                             " agent fits at the start and goal of none of its " + std::to_string(read) + " queries",
                         scenario.source_name);
    if (scenario.queries.size() < read)
      warnings.push_back(std::to_string(read - scenario.queries.size()) + " of the " + std::to_string(read) +
                         " queries left out: a " + std::to_string(agent_size) + "x" + std::to_string(agent_size) +
                         " agent does not fit at their start or goal");
  }
  for (const std::string& warning : warnings) err << "wayfinder: warning: " << warning << '\n';

  const std::size_t query_count = scenario.queries.size();
  ReferenceSource source;
  source.from_scenario = movingai_rule;
  source.tolerance = movingai_rule ? scenario_tolerance(scenario) : computed_reference_tolerance;

  ProgressBar progress(err, standard_error_is_terminal());
  // One pathfinder for everything: its search state is reused from query to query, as a game
  // would use it.
  GridQuery pathfinder(map);
  std::vector<QueryReference> references(query_count);
  if (movingai_rule) {
    for (std::size_t i = 0; i < query_count; ++i) {
      const double optimal = scenario.queries[i].optimal_length;
      references[i] = {optimal, query_tolerance(source.tolerance, optimal)};
    }
  } else {
    GridSearchOptions dijkstra;
    dijkstra.algorithm = GridAlgorithm::dijkstra;
    dijkstra.diagonal = arguments.diagonal;
    dijkstra.agent_size = agent_size;
    dijkstra.return_partial = false;
    pathfinder.set_derived_data(build_grid_derived_data(map, dijkstra));
    progress.start("reference (dijkstra)", query_count);
    for (std::size_t i = 0; i < query_count; ++i) {
      const ScenarioQuery& query = scenario.queries[i];
      const PathResult result = pathfinder.find_path(query.start, query.goal, dijkstra);
      if (result.found())
        references[i] = {result.cost, computed_reference_tolerance * std::max(1.0, result.cost)};
      else if (result.status == SearchStatus::no_path)
        references[i] = {std::nullopt, 0.0};
      else
        throw CommandError(scenario.source_name + ":" + std::to_string(query.line) +
                               ": the reference search failed: " + in_command_line_terms(result.message),
                           scenario.source_name, query.line);
      progress.update(i + 1);
    }
    progress.clear();
  }

  const TextTable table(bench_summary_columns());
  if (!arguments.json) {
    out << "scenario: " << arguments.scenario_path << " (" << query_count << " queries)\n";
    out << "map:      " << map_path << " (" << map.width() << "x" << map.height() << ")\n";
    if (movingai_rule)
      out << "checked against the scenario's optimal lengths (diagonal only-if-no-obstacles, the MovingAI rule),\n"
          << "tolerance " << format_fixed(source.tolerance, 3) << " (or 1e-5 x the length if more); ";
    else if (sized)
      out << "agent " << agent_size << "x" << agent_size << " by its top-left cell, diagonal "
          << command_line_name(arguments.diagonal)
          << ": the scenario's lengths do not apply; checked against dijkstra's costs for this agent,\n"
          << "tolerance 1e-9 x the length; ";
    else
      out << "diagonal " << command_line_name(arguments.diagonal)
          << ": the scenario's lengths do not apply; checked against dijkstra's costs under this mode,\n"
          << "tolerance 1e-9 x the length; ";
    out << timing_note(arguments.threads) << "\n\n";
    out << table.header_line() << '\n' << table.rule_line() << '\n' << std::flush;
  }

  bool any_mismatch = false;
  // With --threads above 1: the answers of one algorithm's batch, all kept until they are checked.
  std::vector<PathResult> batch_results;
  for (const GridAlgorithm algorithm : algorithms) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.diagonal = arguments.diagonal;
    options.weight = arguments.weight;
    options.agent_size = agent_size;
    options.cluster_size = static_cast<int>(arguments.cluster_size);
    options.return_partial = false;
    CostRatios ratios;  // cost over the optimum of the found paths
    if (algorithm == GridAlgorithm::ida_star) options.budget.max_expansions = arguments.ida_max_expansions;

    // What the queries read besides the map (hpa's hierarchy, jps-plus's table, a larger
    // agent's clearance and body map) is built once, before the timed queries, as a game builds
    // it once per map, and shared by every thread's pathfinder. JPS+'s table of the map itself
    // is built (or loaded) here so that its time and size are reported.
    GridDerivedData derived;
    std::shared_ptr<const GridJumpTable> jump_table;
    if (algorithm == GridAlgorithm::jump_point_plus && !sized) {
      if (!arguments.table_path.empty()) {
        jump_table = load_jump_table_for(arguments.table_path, map, map_path);
      } else {
        refuse_table_over_cap("the jump table", GridJumpTable::memory_bytes_for(map), arguments.max_table_memory, map);
        progress.start("jps-plus table", map.height() * std::size_t{jump_direction_count});
        jump_table = std::make_shared<const GridJumpTable>(
            map, [&](std::size_t done, std::size_t) { progress.update(done); });
        progress.clear();
      }
      derived.jump_table = jump_table;
      if (!arguments.bounds_path.empty())
        derived.goal_bounds = load_goal_bounds_for(arguments.bounds_path, map, map_path);
    }
    build_grid_derived_data(map, options, derived);
    pathfinder.set_derived_data(derived);
    const HierarchicalGrid* hierarchy = algorithm != GridAlgorithm::hierarchical ? nullptr
                                        : sized ? derived.body(agent_size)->hierarchy.get()
                                                : derived.hierarchy.get();

    BenchTally tally(algorithm);
    CompactPathTally compact;
    std::size_t shown = 0;
    // Every answer is judged here, whether it came from a timed find_path call or from a batch.
    auto check = [&](std::size_t i, const PathResult& result, double microseconds) {
      const ScenarioQuery& query = scenario.queries[i];
      if (result.status == SearchStatus::invalid_input && algorithm == GridAlgorithm::weighted_astar)
        throw CommandError(map_path + ": " + in_command_line_terms(result.message), map_path);
      QueryScore score = score_query(map, query.start, query.goal, references[i], result, algorithm,
                                     arguments.weight, arguments.diagonal);
      // score_query checks the moves of the top-left cell; the rest of a larger body here.
      if (sized && result.found() && !score.mismatch)
        for (const NodeId node : result.nodes)
          if (!clearance->fits(map.cell_of(node), agent_size)) {
            score.mismatch = true;
            score.problem = "the " + std::to_string(agent_size) + "x" + std::to_string(agent_size) +
                            " body does not fit at " + format_cell(map.cell_of(node));
            break;
          }
      tally.add(score, microseconds, result.stats);
      if (result.found() && references[i].optimal && *references[i].optimal > 0.0)
        ratios.add(result.cost / *references[i].optimal);
      if (result.found() && !compact.add(map, result.nodes)) {
        any_mismatch = true;
        progress.clear();
        err << "mismatch: " << scenario.source_name << ":" << query.line << ": " << to_string(algorithm)
            << ": the compact form of the path does not decode to the same cells\n";
      }
      if (score.mismatch && shown++ < mismatches_shown_per_algorithm) {
        progress.clear();
        err << "mismatch: " << scenario.source_name << ":" << query.line << ": " << to_string(algorithm) << " from "
            << format_cell(query.start) << " to " << format_cell(query.goal) << ": " << score.problem << '\n';
      }
      progress.update(i + 1);
    };

    double batch_seconds = 0.0;
    if (arguments.threads == 1) {
      progress.start(std::string(to_string(algorithm)), query_count);
      for (std::size_t i = 0; i < query_count; ++i) {
        const ScenarioQuery& query = scenario.queries[i];
        const auto started = std::chrono::steady_clock::now();
        const PathResult result = pathfinder.find_path(query.start, query.goal, options);
        const double microseconds =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
        // The throughput counts the searches, not the checks between them: a batch's wall time
        // does not include its checks either.
        batch_seconds += microseconds * 1e-6;
        check(i, result, microseconds);
      }
    } else {
      std::vector<GridPathRequest> requests;
      requests.reserve(query_count);
      for (const ScenarioQuery& query : scenario.queries) requests.push_back({query.start, query.goal, options});
      progress.start(std::string(to_string(algorithm)) + " on " + std::to_string(arguments.threads) + " threads",
                     query_count);
      const auto make_query = [&map, &derived] { return GridQuery(map, derived); };
      batch_seconds =
          run_timed_batch(make_query, std::span<const GridPathRequest>(requests), batch_results, arguments.threads);
      for (std::size_t i = 0; i < query_count; ++i)
        check(i, batch_results[i], batch_results[i].stats.microseconds);
    }
    progress.clear();
    const double throughput_qps = queries_per_second(query_count, batch_seconds);

    const BenchSummary summary = tally.summary();
    any_mismatch = any_mismatch || summary.mismatches > 0;
    if (arguments.json) {
      out << summary_json(summary, arguments, map_path, source, throughput_qps, compact, jump_table, warnings, ratios,
                          hierarchy)
                 .dump()
          << '\n'
          << std::flush;
    } else {
      out << table.row_line(bench_summary_cells(summary))
          << '\n'
          << std::flush;
      if (summary.budget_exhausted > 0)
        out << "  (" << summary.budget_exhausted << " queries stopped by the budget of " << arguments.ida_max_expansions
            << " expansions)\n";
      out << "  " << throughput_line(throughput_qps, arguments.threads) << '\n';
      if (jump_table) {
        out << "  jump table: ";
        if (arguments.table_path.empty())
          out << "built in " << format_fixed(jump_table->build_seconds() * 1000.0, 1) << " ms (not in the times above), ";
        else
          out << "loaded from " << arguments.table_path << ", ";
        out << format_fixed(static_cast<double>(jump_table->memory_bytes()) / (1024.0 * 1024.0), 2) << " MiB\n";
        if (!arguments.bounds_path.empty()) out << "  goal bounds: loaded from " << arguments.bounds_path << '\n';
      }
      out << "  compact paths: " << optional_text(compact.plain_mean()) << " bytes per step, run-length form "
          << optional_text(compact.run_length_mean()) << " (mean over found paths, 12-byte header not counted)\n"
          << std::flush;
      if (algorithm == GridAlgorithm::hierarchical)
        out << "  cost / optimal: mean " << optional_text(ratios.mean()) << ", max " << optional_text(ratios.max())
            << '\n'
            << "  hierarchy: " << (hierarchy != nullptr ? hierarchy_text(*hierarchy) : std::string("-")) << '\n'
            << std::flush;
    }
  }
  return any_mismatch ? exit_no_path : exit_ok;
}

}  // namespace wayfinder::cli
