#include "voxel/voxel_bench_command.hpp"

#include <algorithm>
#include <memory>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "batch_throughput.hpp"
#include "bench_summary.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "voxel/voxel_cli_support.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_connected_parts.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder::cli {

namespace {

constexpr std::size_t mismatches_shown_per_algorithm = 5;

struct BenchQuery {
  VoxelCoord start;
  VoxelCoord goal;
  double reference = -1.0;  ///< optimal cost, or negative when unreachable
  std::string where;
};

struct Summary {
  /// The figures every checked benchmark prints; its per-query means are set when the run ends.
  BenchSummary checked;
  std::vector<double> microseconds;
  double expanded = 0.0;
  double generated = 0.0;
  double search_seconds = 0.0;
  /// Processor time of the searches (std::clock, all threads of the process). On a machine
  /// with other work the searches' wall time also counts the time the scheduler gave to
  /// others, which the processor time leaves out; Google Benchmark's rates are per processor
  /// second, so this is the figure to compare with bench/wayfinder_bench_voxel.
  double cpu_seconds = 0.0;
  /// Cost over the reference cost, for the algorithms that are not optimal.
  CostRatios ratios;
};

bool optimal(VoxelAlgorithm algorithm) {
  return algorithm == VoxelAlgorithm::astar || algorithm == VoxelAlgorithm::dijkstra ||
         algorithm == VoxelAlgorithm::jump_point;
}

}  // namespace

void configure_voxel_bench_command(CLI::App& command, VoxelBenchArguments& arguments) {
  add_required_file_argument(command, "FILE", arguments.path,
                             "a .3dscen scenario (flying), or a .vox / .3dmap world with --random (walking)");
  command
      .add_option("--map", arguments.map_path,
                  "the map of a .3dscen scenario (default: the scenario path minus .3dscen); its file name should be "
                  "the one the scenario names")
      ->type_name("FILE");
  add_voxel_algorithms_option(command, arguments.algorithms,
                              "comma-separated algorithms: dijkstra, astar, weighted-astar, greedy, jps (flying "
                              "scenarios only), hpa (hierarchical; its build is reported apart)")
      ->default_str("astar");
  add_whole_number_option(command, "--cluster-size", arguments.cluster_size, 4, 64,
                          "hpa: the side of the hierarchy's clusters in blocks")
      ->default_str(std::to_string(arguments.cluster_size));
  add_number_option(command, "--weight", arguments.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W");
  // Each pair is kept with its reference cost; a million is minutes of searching already.
  add_whole_number_option(command, "--random", arguments.random_pairs, 1, 1'000'000,
                          "walking: this many seeded random pairs of places, both ends in the largest connected part");
  command.add_flag("--any-pairs", arguments.any_pairs,
                   "walking: draw the --random pairs among all places, across connected parts (pairs of two parts "
                   "have no path)");
  add_whole_number_option(command, "--seed", arguments.seed, 0, std::numeric_limits<std::uint64_t>::max(),
                          "seed of the random pairs")
      ->default_str(std::to_string(arguments.seed));
  add_query_limit_option(command, arguments.limit);
  add_threads_option(command, arguments.threads);
  add_json_flag(command, arguments.json, JsonOutput::one_per_algorithm);
  command.footer(
      "Flying answers are checked against the scenario's optimal lengths (tolerance 1e-3); walking answers\n"
      "against Dijkstra's costs (untimed). A mismatch is an optimal algorithm off its reference, weighted-astar\n"
      "above weight x reference, or a missing path.\n" +
      threaded_timing_help() +
      "Exit status: 0 no mismatch; 1 some; 2 bad input.");
}

int run_voxel_bench_command(const VoxelBenchArguments& arguments, std::ostream& out, std::ostream& err) {
  const bool flying = arguments.path.ends_with(".3dscen");
  std::string map_path;
  std::string scenario_text;
  VoxelWorld world;
  std::vector<BenchQuery> queries;
  double tolerance = 1e-3;
  std::string pairs_drawn;  // random pairs: how they were drawn, in words and as a JSON value
  std::string pairs_key;
  if (flying) {
    if (arguments.any_pairs) throw std::invalid_argument("--any-pairs applies to --random pairs, not to a .3dscen scenario");
    const VoxelScenario scenario = read_voxel_scenario(
        arguments.path,
        arguments.limit > 0 ? static_cast<std::size_t>(arguments.limit) : std::numeric_limits<std::size_t>::max());
    const bool map_given = !arguments.map_path.empty();
    map_path = map_given ? arguments.map_path : voxel_scenario_map_path(arguments.path).string();
    // A scenario run on another map has other optimal lengths: every answer would count as a
    // mismatch, which reads as a broken search. Say what is wrong instead.
    if (const std::optional<std::string> mismatch = voxel_scenario_map_mismatch(scenario, map_path)) {
      if (!map_given)
        throw LoadError(arguments.path, 0, 0, *mismatch + " (the map beside it); give --map FILE to choose its map");
      report_error(err, "warning: " + arguments.path + ": " + *mismatch + "; its optimal lengths will not match");
    }
    world = read_voxel_benchmark_map(map_path);
    check_voxel_scenario_fits_world(scenario, world);
    for (const VoxelScenarioQuery& query : scenario.queries)
      queries.push_back({query.start, query.goal, query.optimal_length, scenario.source_name + ":" + std::to_string(query.line)});
    scenario_text = arguments.path;
  } else {
    if (arguments.random_pairs == 0)
      throw LoadError(arguments.path, 0, 0, "a world file needs --random N (or give a .3dscen scenario)");
    if (!arguments.map_path.empty()) throw std::invalid_argument("--map applies to .3dscen scenarios only");
    map_path = arguments.path;
    world = load_voxel_world(arguments.path);
    tolerance = 1e-9;
    VoxelQuery probe(world, MovementProfile::walker());
    // Pairs from two parts have no path and time only the proof of it: by default both ends come
    // from the largest part, so that every pair is solvable.
    const VoxelConnectedParts parts(world, MovementProfile::walker());
    if (parts.part_count() == 0) throw LoadError(arguments.path, 0, 0, "no place in this world where a walker can be");
    const std::vector<VoxelCoord> places = arguments.any_pairs ? all_voxel_places(world, MovementProfile::walker())
                                                               : parts.places_in(0);
    std::mt19937_64 random(arguments.seed);
    VoxelSearchOptions reference;
    reference.algorithm = VoxelAlgorithm::dijkstra;
    for (std::size_t i = 0; i < arguments.random_pairs; ++i) {
      BenchQuery query;
      query.start = places[random() % places.size()];
      query.goal = places[random() % places.size()];
      const PathResult result = probe.find_path(query.start, query.goal, reference);
      query.reference = result.found() ? result.cost : -1.0;
      query.where = "pair " + std::to_string(i) + " " + format_voxel_coord(query.start) + " -> " + format_voxel_coord(query.goal);
      queries.push_back(query);
    }
    const std::string part_count = std::to_string(parts.part_count()) + " connected part" + (parts.part_count() == 1 ? "" : "s");
    pairs_drawn = arguments.any_pairs
                      ? "any places, across " + part_count + " (pairs of two parts have no path)"
                      : "both ends in the largest of " + part_count + " (" + std::to_string(places.size()) + " of " +
                            std::to_string(parts.place_count()) + " places)";
    pairs_key = arguments.any_pairs ? "any_places" : "largest_part";
    scenario_text = "random " + std::to_string(arguments.random_pairs) + " seed " + std::to_string(arguments.seed);
  }
  if (arguments.limit > 0 && queries.size() > arguments.limit) queries.resize(arguments.limit);

  const MovementProfile profile = flying ? MovementProfile::flyer() : MovementProfile::walker();
  VoxelQuery pathfinder(world, profile);
  // Options the search would refuse are refused once, before any query, rather than reported as
  // a mismatch per query.
  auto options_for = [&](VoxelAlgorithm algorithm) {
    VoxelSearchOptions options;
    options.algorithm = algorithm;
    options.weight = arguments.weight;
    options.return_partial = false;
    return options;
  };
  std::string hierarchy_line;
  if (std::find(arguments.algorithms.begin(), arguments.algorithms.end(), VoxelAlgorithm::hierarchical) !=
      arguments.algorithms.end()) {
    if (arguments.threads > 1)
      throw std::invalid_argument("hpa runs here with --threads 1: a batch's pathfinders are its own, without the hierarchy");
    VoxelHierarchyOptions hierarchy_options;
    hierarchy_options.cluster_size = static_cast<int>(arguments.cluster_size);
    hierarchy_options.build_threads = 2;
    const auto hierarchy = std::make_shared<const VoxelHierarchy>(world, profile, hierarchy_options);
    pathfinder.set_hierarchy(hierarchy);
    const VoxelHierarchyStats& stats = hierarchy->stats();
    hierarchy_line = "hierarchy: built in " + format_fixed(stats.build_milliseconds / 1000.0, 2) + " s on 2 threads; " +
                     std::to_string(stats.clusters) + " clusters of " + std::to_string(hierarchy->cluster_size()) + "x" +
                     std::to_string(hierarchy->cluster_height()) + "x" + std::to_string(hierarchy->cluster_size()) + ", " +
                     std::to_string(stats.nodes) + " nodes, " + std::to_string(stats.inter_edges + stats.intra_edges) +
                     " edges, " + format_fixed(static_cast<double>(stats.memory_bytes) / (1024.0 * 1024.0), 1) + " MiB";
  }
  for (const VoxelAlgorithm algorithm : arguments.algorithms)
    if (const std::optional<std::string> problem = pathfinder.options_problem(options_for(algorithm)))
      throw std::invalid_argument(map_path + ": " + *problem);

  std::vector<TableColumn> columns = bench_summary_columns();
  columns.push_back({"Mexp_per_s", 10, TableColumn::Align::right});
  columns.push_back({"cpu_Mexp_s", 10, TableColumn::Align::right});
  const TextTable table(std::move(columns));
  if (!arguments.json) {
    out << (flying ? "scenario: " : "pairs:    ") << scenario_text << " (" << queries.size() << " queries, "
        << (flying ? "flyer" : "walker") << ")\n";
    if (!pairs_drawn.empty()) out << "drawn:    " << pairs_drawn << '\n';
    out << "world:    " << map_path << " (" << world.size_x() << "x" << world.size_y() << "x" << world.size_z() << ")\n";
    out << timing_note(arguments.threads) << "\n\n";
    out << table.header_line() << '\n' << table.rule_line() << '\n' << std::flush;
  }

  ProgressBar progress(err, standard_error_is_terminal());
  bool any_mismatch = false;
  // With --threads above 1: the answers of one algorithm's batch, all kept until they are checked.
  std::vector<PathResult> batch_results;
  for (const VoxelAlgorithm algorithm : arguments.algorithms) {
    const VoxelSearchOptions options = options_for(algorithm);
    Summary summary;
    summary.checked.algorithm = std::string(to_string(algorithm));
    summary.checked.queries = queries.size();
    std::size_t shown = 0;
    // Every answer is judged here, whether it came from a timed find_path call or from a batch.
    auto check = [&](std::size_t i, const PathResult& result, double microseconds) {
      const BenchQuery& query = queries[i];
      summary.microseconds.push_back(microseconds);
      summary.expanded += static_cast<double>(result.stats.expanded);
      summary.generated += static_cast<double>(result.stats.generated);
      summary.search_seconds += result.stats.microseconds * 1e-6;
      std::string problem;
      if (result.found()) {
        ++summary.checked.solved;
        if (query.reference < 0.0) {
          problem = "found a path where the reference found none";
        } else {
          const double error = std::abs(result.cost - query.reference);
          if (optimal(algorithm)) summary.checked.max_abs_error = std::max(summary.checked.max_abs_error, error);
          const double allowed = tolerance * std::max(1.0, flying ? 1.0 : query.reference);
          if (optimal(algorithm) && error > allowed)
            problem = "cost " + format_fixed(result.cost, 6) + ", reference " + format_fixed(query.reference, 6);
          if (algorithm == VoxelAlgorithm::weighted_astar && result.cost > arguments.weight * query.reference + allowed)
            problem = "cost " + format_fixed(result.cost, 6) + " above weight x " + format_fixed(query.reference, 6);
          if (!optimal(algorithm) && result.cost < query.reference - allowed)
            problem = "cost " + format_fixed(result.cost, 6) + " below the optimum " + format_fixed(query.reference, 6);
          if (!optimal(algorithm) && query.reference > 0.0) {
            const double ratio = result.cost / query.reference;
            summary.ratios.add(ratio);
          }
        }
      } else if (query.reference >= 0.0) {
        problem = std::string("no path (") + std::string(to_string(result.status)) + ")";
      }
      if (!problem.empty()) {
        ++summary.checked.mismatches;
        if (shown++ < mismatches_shown_per_algorithm) {
          progress.clear();
          err << "mismatch: " << query.where << ": " << summary.checked.algorithm << ": " << problem << '\n';
        }
      }
      progress.update(i + 1);
    };

    double batch_seconds = 0.0;
    if (arguments.threads == 1) {
      progress.start(summary.checked.algorithm, queries.size());
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const std::clock_t cpu_started = std::clock();
        const auto started = std::chrono::steady_clock::now();
        const PathResult result = pathfinder.find_path(queries[i].start, queries[i].goal, options);
        const double microseconds =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
        summary.cpu_seconds += static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
        // The throughput counts the searches, not the checks between them: a batch's wall time
        // does not include its checks either.
        batch_seconds += microseconds * 1e-6;
        check(i, result, microseconds);
      }
    } else {
      std::vector<VoxelPathRequest> requests;
      requests.reserve(queries.size());
      // A batch builds its own pathfinders, with the default profile: each request names its agent.
      VoxelSearchOptions batch_options = options;
      batch_options.profile = profile;
      for (const BenchQuery& query : queries) requests.push_back({query.start, query.goal, batch_options});
      progress.start(summary.checked.algorithm + " on " + std::to_string(arguments.threads) + " threads", queries.size());
      const std::clock_t cpu_started = std::clock();
      batch_seconds =
          run_timed_batch(world, std::span<const VoxelPathRequest>(requests), batch_results, arguments.threads);
      summary.cpu_seconds = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
      for (std::size_t i = 0; i < queries.size(); ++i)
        check(i, batch_results[i], batch_results[i].stats.microseconds);
    }
    progress.clear();
    any_mismatch = any_mismatch || summary.checked.mismatches > 0;
    set_per_query_figures(summary.checked, summary.microseconds, summary.expanded, summary.generated);
    const BenchSummary& checked = summary.checked;
    const double per_second = summary.search_seconds > 0.0 ? summary.expanded / summary.search_seconds : 0.0;
    const double cpu_per_second = summary.cpu_seconds > 0.0 ? summary.expanded / summary.cpu_seconds : 0.0;
    const double throughput_qps = queries_per_second(summary.checked.queries, batch_seconds);
    if (arguments.json) {
      nlohmann::ordered_json json = bench_summary_json(checked);
      json["tolerance"] = tolerance;
      json["scenario"] = scenario_text;
      if (!pairs_key.empty()) json["pairs"] = pairs_key;
      json["map"] = map_path;
      json["profile"] = flying ? "flyer" : "walker";
      json["expansions_per_second"] = per_second;
      json["cpu_expansions_per_second"] = cpu_per_second;
      json["threads"] = arguments.threads;
      json["throughput_qps"] = throughput_qps;
      if (summary.ratios.count() > 0) {
        json["mean_cost_over_optimal"] = *summary.ratios.mean();
        json["max_cost_over_optimal"] = *summary.ratios.max();
      }
      if (algorithm == VoxelAlgorithm::hierarchical) {
        const VoxelHierarchyStats& stats = pathfinder.hierarchy()->stats();
        json["hierarchy_build_seconds"] = stats.build_milliseconds / 1000.0;
        json["hierarchy_nodes"] = stats.nodes;
        json["hierarchy_memory_bytes"] = stats.memory_bytes;
      }
      out << json.dump() << '\n' << std::flush;
    } else {
      std::vector<std::string> cells = bench_summary_cells(checked);
      cells.push_back(format_fixed(per_second * 1e-6, 2));
      cells.push_back(format_fixed(cpu_per_second * 1e-6, 2));
      out << table.row_line(cells) << '\n';
      out << "  " << throughput_line(throughput_qps, arguments.threads) << '\n';
      if (summary.ratios.count() > 0)
        out << "  cost / optimal: mean " << format_fixed(*summary.ratios.mean(), 4)
            << ", max " << format_fixed(*summary.ratios.max(), 4) << '\n';
      if (algorithm == VoxelAlgorithm::hierarchical) out << "  " << hierarchy_line << '\n';
      out << std::flush;
    }
  }
  return any_mismatch ? exit_no_path : exit_ok;
}

}  // namespace wayfinder::cli
