#include "voxel/voxel_generate_command.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "command_error.hpp"
#include "bench_summary.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "voxel/voxel_cli_support.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder::cli {

namespace {

/// splitmix64 (Steele, Lea and Flood 2014): the pairs are the same for a seed on every platform,
/// which a standard library distribution does not promise.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// A number in [low, high), high > low (the modulo bias is below 2^-40 for these ranges).
  int between(int low, int high) { return low + static_cast<int>(next() % static_cast<std::uint64_t>(high - low)); }

 private:
  std::uint64_t state_;
};

struct CrossPair {
  VoxelCoord start;
  VoxelCoord goal;
};

/// A place a walker can be near the top of a random column with x in [x_low, x_high): the
/// surface, the top of a lake, or the nearest place to it within 8 blocks.
std::optional<VoxelCoord> surface_place(const VoxelWorld& world, SplitMix64& random, int x_low, int x_high) {
  const MovementProfile walker = MovementProfile::walker();
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int x = random.between(x_low, x_high);
    const int z = random.between(0, world.size_z());
    const int top = world.top_block(x, z);
    if (const std::optional<VoxelCoord> place = nearest_voxel_place(world, walker, {x, top + 1, z}, 8)) return place;
  }
  return std::nullopt;
}

/// Pairs from the first eighth of the world's x range to the last eighth (at least 3/4 of the
/// world apart), at places a walker can be; a flyer can be there too.
std::vector<CrossPair> cross_world_pairs(const VoxelWorld& world, std::uint64_t count, std::uint64_t seed) {
  SplitMix64 random(seed ^ 0x5EEDC0FFEE123457ull);
  const int band = std::max(1, world.size_x() / 8);
  std::vector<CrossPair> pairs;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::optional<VoxelCoord> start = surface_place(world, random, 0, band);
    const std::optional<VoxelCoord> goal = surface_place(world, random, world.size_x() - band, world.size_x());
    if (!start || !goal) throw std::invalid_argument("found no place for a walker near the surface at the ends of the world");
    pairs.push_back({*start, *goal});
  }
  return pairs;
}

/// The process's peak resident memory (Linux reports ru_maxrss in KiB).
std::uint64_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024u;
}

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

struct Summary {
  std::size_t solved = 0;
  std::size_t no_path = 0;
  std::size_t exhausted = 0;
  std::size_t mismatches = 0;
  std::vector<double> microseconds;
  double expanded = 0.0;
  double max_expanded = 0.0;
  double memory = 0.0;
  double max_memory = 0.0;
  double peak_open = 0.0;
  double cost = 0.0;
  // Cost over the A* cost of the same pair (when A* ran first), for the algorithms that are not optimal.
  CostRatios ratios;
};

/// A profile's hierarchy for hpa, or why there is none.
struct BuiltHierarchy {
  std::shared_ptr<const VoxelHierarchy> hierarchy;
  std::string skipped;
  double seconds = 0.0;
};

BuiltHierarchy build_hierarchy(const VoxelWorld& world, const MovementProfile& profile,
                               const VoxelGenerateArguments& arguments) {
  VoxelHierarchyOptions options;
  options.cluster_size = static_cast<int>(arguments.cluster_size);
  options.build_threads = static_cast<int>(arguments.build_threads);
  options.max_places = arguments.hierarchy_max_places;
  BuiltHierarchy built;
  const auto started = std::chrono::steady_clock::now();
  try {
    built.hierarchy = std::make_shared<const VoxelHierarchy>(world, profile, options);
  } catch (const std::length_error& error) {
    built.skipped = error.what();
  }
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return built;
}

}  // namespace

void configure_voxel_generate_command(CLI::App& command, VoxelGenerateArguments& arguments) {
  command
      .add_option_function<std::string>(
          "--size",
          [&arguments](const std::string& text) {
            const std::optional<std::vector<int>> sizes = parse_integer_list(text);
            if (!sizes || sizes->size() != 3) throw CLI::ValidationError("--size", "expected X,Y,Z, e.g. 1024,256,1024");
            arguments.world.size_x = (*sizes)[0];
            arguments.world.size_y = (*sizes)[1];
            arguments.world.size_z = (*sizes)[2];
          },
          "world size in blocks, X,Y,Z (y is up)")
      ->required()
      ->type_name("X,Y,Z");
  add_whole_number_option(command, "--seed", arguments.world.seed, 0, std::numeric_limits<std::uint64_t>::max(),
                          "seed of the world and of the query pairs")
      ->default_str(std::to_string(arguments.world.seed));
  add_number_option(command, "--feature-size", arguments.world.feature_size, 1.0,
                    "width in blocks of the largest hills and valleys")
      ->default_str("128");
  command.add_flag("--no-caves{false}", arguments.world.caves, "do not carve caves");
  command.add_flag_callback("--no-water", [&arguments] { arguments.world.water_level = -1.0; }, "no lakes");
  add_whole_number_option(command, "--max-memory", arguments.max_memory_mib, 1, std::uint64_t{1} << 20,
                          "refuse worlds whose memory estimate is above this many MiB")
      ->default_str(std::to_string(arguments.max_memory_mib));
  add_whole_number_option(command, "--queries", arguments.queries, 1, 100'000,
                          "run this many cross-world pairs, each walking and flying");
  add_voxel_algorithms_option(command, arguments.algorithms,
                              "comma-separated algorithms: dijkstra, astar, weighted-astar, greedy, jps (flyers "
                              "only), hpa (builds each profile's hierarchy first)")
      ->default_str("astar,weighted-astar");
  add_number_option(command, "--weight", arguments.weight, 1.0, "heuristic weight of weighted-astar, at least 1")
      ->type_name("W");
  add_whole_number_option(command, "--max-expansions", arguments.max_expansions, 1,
                          std::numeric_limits<std::uint64_t>::max(), "stop a query after this many expansions");
  command.add_flag("--reuse-pathfinder", arguments.reuse_pathfinder,
                   "one pathfinder per profile and algorithm for all its queries (warm pages) instead of a new one per query");
  add_whole_number_option(command, "--cluster-size", arguments.cluster_size, 4, 64,
                          "hpa: the side of a hierarchy's clusters in blocks")
      ->default_str(std::to_string(arguments.cluster_size));
  add_whole_number_option(command, "--build-threads", arguments.build_threads, 1, 64,
                          "hpa: threads that build a hierarchy")
      ->default_str(std::to_string(arguments.build_threads));
  add_whole_number_option(command, "--hierarchy-max-places", arguments.hierarchy_max_places, 1,
                          std::numeric_limits<std::uint64_t>::max(),
                          "hpa: skip a profile whose hierarchy would hold more places than this")
      ->default_str(std::to_string(arguments.hierarchy_max_places));
  command.add_flag("--json", arguments.json, "print one JSON object for the world, then one per profile and algorithm");
  command.footer(
      "The world: bedrock at y 0, ground up to a value-noise surface, noise caves below it, lakes in the\n"
      "valleys. The same --size and --seed always give the same world.\n"
      "Queries: pairs of places a walker can be at the surface, one in the first eighth of the x range and one\n"
      "in the last, so every pair crosses at least 3/4 of the world; each pair is run for a walker and a flyer.\n"
      "Each query runs on a new pathfinder and is timed alone (find_path only); search memory is the\n"
      "pathfinder's paged search state after the query (pages of node records and the page table).\n"
      "With --reuse-pathfinder one pathfinder serves all the queries of a profile and algorithm: the times\n"
      "are warm (no page is allocated twice) and the memory is what it holds after each query, so far.\n"
      "A weighted-astar cost above weight x the astar cost of the same query is a mismatch.\n"
      "hpa builds each profile's hierarchy (VoxelHierarchy) once, timed apart from the queries, and shares it\n"
      "between the pathfinders; a profile with more places than --hierarchy-max-places is skipped (a flyer's\n"
      "places are every block that is not solid). Its cost over the astar cost of the same query is reported.\n"
      "Exit status: 0 no mismatch; 1 some; 2 bad input.");
}

int run_voxel_generate_command(const VoxelGenerateArguments& arguments, std::ostream& out, std::ostream& err) {
  VoxelWorldGeneratorOptions options = arguments.world;
  options.max_memory_bytes = static_cast<std::size_t>(arguments.max_memory_mib) << 20;
  if (const std::optional<std::string> problem = voxel_generator_problem(options)) throw std::invalid_argument(*problem);
  const std::size_t estimate = estimate_generated_world_bytes(options);

  const auto started = std::chrono::steady_clock::now();
  const VoxelWorld world = generate_voxel_world(options);
  const double generate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::array<std::uint64_t, 4> counts = world.block_counts();
  const std::uint64_t rss_after_world = peak_resident_bytes();
  const std::string size_text =
      std::to_string(world.size_x()) + "x" + std::to_string(world.size_y()) + "x" + std::to_string(world.size_z());

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["world"] = size_text;
    json["seed"] = options.seed;
    json["caves"] = options.caves;
    json["water"] = options.water_level >= 0.0;
    json["generate_seconds"] = generate_seconds;
    json["memory_bytes"] = world.memory_bytes();
    json["estimate_bytes"] = estimate;
    json["stored_chunks"] = world.stored_chunk_count();
    json["air"] = counts[0];
    json["solid"] = counts[1];
    json["water_blocks"] = counts[2];
    json["peak_rss_bytes"] = rss_after_world;
    out << json.dump() << '\n' << std::flush;
  } else {
    out << "world:    " << size_text << " seed " << options.seed << (options.caves ? ", caves" : ", no caves")
        << (options.water_level >= 0.0 ? ", lakes" : ", no water") << '\n';
    out << "built in: " << format_fixed(generate_seconds, 2) << " s\n";
    out << "memory:   " << format_fixed(mib(static_cast<double>(world.memory_bytes())), 1) << " MiB in "
        << world.stored_chunk_count() << " stored chunks (estimate before building "
        << format_fixed(mib(static_cast<double>(estimate)), 1) << " MiB; process peak "
        << format_fixed(mib(static_cast<double>(rss_after_world)), 1) << " MiB)\n";
    out << "blocks:   " << counts[1] << " solid, " << counts[2] << " water, " << counts[0] << " air\n" << std::flush;
  }
  if (arguments.queries == 0) return exit_ok;

  const std::vector<CrossPair> pairs = cross_world_pairs(world, arguments.queries, options.seed);
  auto options_for = [&](VoxelAlgorithm algorithm, const MovementProfile& profile) {
    VoxelSearchOptions search;
    search.algorithm = algorithm;
    search.weight = arguments.weight;
    search.return_partial = false;
    search.profile = profile;
    if (arguments.max_expansions > 0) search.budget.max_expansions = arguments.max_expansions;
    return search;
  };
  {
    // Options every profile must accept (the hierarchy and jps are checked per profile below).
    const VoxelQuery probe(world);
    for (const VoxelAlgorithm algorithm : arguments.algorithms)
      if (algorithm != VoxelAlgorithm::hierarchical && algorithm != VoxelAlgorithm::jump_point)
        if (const std::optional<std::string> problem = probe.options_problem(options_for(algorithm, MovementProfile::walker())))
          throw std::invalid_argument(*problem);
  }
  const bool wants_hierarchy =
      std::find(arguments.algorithms.begin(), arguments.algorithms.end(), VoxelAlgorithm::hierarchical) !=
      arguments.algorithms.end();

  using Align = TableColumn::Align;
  const TextTable table({{"profile", 7, Align::left},
                         {"algorithm", 14, Align::left},
                         {"solved", 7, Align::right},
                         {"no_path", 7, Align::right},
                         {"mean_us", 11, Align::right},
                         {"median_us", 11, Align::right},
                         {"max_us", 11, Align::right},
                         {"mean_expanded", 13, Align::right},
                         {"mean_MiB", 9, Align::right},
                         {"max_MiB", 9, Align::right}});
  if (!arguments.json) {
    out << "\n" << pairs.size() << " pairs from x < " << std::max(1, world.size_x() / 8) << " to x >= "
        << world.size_x() - std::max(1, world.size_x() / 8)
        << "; microseconds per query (search only, "
        << (arguments.reuse_pathfinder ? "one pathfinder reused" : "a new pathfinder each") << "); MiB of search state "
        << (arguments.reuse_pathfinder ? "held after each query" : "per query") << "\n\n";
    out << table.header_line() << '\n' << table.rule_line() << '\n' << std::flush;
  }

  ProgressBar progress(err, standard_error_is_terminal());
  bool any_mismatch = false;
  for (const MovementProfile& profile : {MovementProfile::walker(), MovementProfile::flyer()}) {
    const std::string profile_name = profile.fly ? "flyer" : "walker";
    // The A* cost of each pair, when A* runs first: weighted A* is checked against it.
    std::vector<double> optimal_costs(pairs.size(), -1.0);
    std::vector<int> found_by_first(pairs.size(), -1);
    BuiltHierarchy built;
    if (wants_hierarchy) {
      progress.clear();
      built = build_hierarchy(world, profile, arguments);
      if (built.hierarchy) {
        const VoxelHierarchyStats& stats = built.hierarchy->stats();
        if (arguments.json) {
          nlohmann::ordered_json json;
          json["profile"] = profile_name;
          json["hierarchy_build_seconds"] = built.seconds;
          json["cluster_size"] = built.hierarchy->cluster_size();
          json["cluster_height"] = built.hierarchy->cluster_height();
          json["clusters"] = stats.clusters;
          json["open_clusters"] = stats.open_clusters;
          json["places"] = stats.places;
          json["transitions"] = stats.transitions;
          json["entrances"] = stats.entrances;
          json["nodes"] = stats.nodes;
          json["inter_edges"] = stats.inter_edges;
          json["intra_edges"] = stats.intra_edges;
          json["build_expansions"] = stats.build_expansions;
          json["hierarchy_memory_bytes"] = stats.memory_bytes;
          out << json.dump() << '\n' << std::flush;
        } else {
          out << table.rule_line() << '\n'
              << profile_name << " hierarchy: built in " << format_fixed(built.seconds, 2) << " s on "
              << arguments.build_threads << " thread(s); clusters " << built.hierarchy->cluster_size() << "x"
              << built.hierarchy->cluster_height() << "x" << built.hierarchy->cluster_size() << " (" << stats.clusters
              << ", " << stats.open_clusters << " open), " << stats.places << " places, " << stats.nodes << " nodes, " << stats.intra_edges + stats.inter_edges
              << " edges, " << format_fixed(mib(static_cast<double>(stats.memory_bytes)), 1) << " MiB\n"
              << std::flush;
        }
      }
    }
    for (const VoxelAlgorithm algorithm : arguments.algorithms) {
      const VoxelSearchOptions search = options_for(algorithm, profile);
      std::string skipped;
      if (algorithm == VoxelAlgorithm::hierarchical && !built.hierarchy) skipped = built.skipped;
      if (algorithm == VoxelAlgorithm::jump_point && !profile.fly) skipped = "jump point search is for flyers only";
      if (!skipped.empty()) {
        if (arguments.json) {
          nlohmann::ordered_json json;
          json["profile"] = profile_name;
          json["algorithm"] = std::string(to_string(algorithm));
          json["skipped"] = skipped;
          out << json.dump() << '\n' << std::flush;
        } else {
          out << profile_name << " " << to_string(algorithm) << ": skipped: " << skipped << '\n' << std::flush;
        }
        continue;
      }
      Summary summary;
      std::optional<VoxelQuery> reused;
      if (arguments.reuse_pathfinder) {
        reused.emplace(world, profile);
        reused->set_hierarchy(built.hierarchy);
      }
      progress.start(profile_name + " " + std::string(to_string(algorithm)), pairs.size());
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        std::optional<VoxelQuery> fresh;
        if (!reused) {
          fresh.emplace(world, profile);
          fresh->set_hierarchy(built.hierarchy);
        }
        VoxelQuery& pathfinder = reused ? *reused : *fresh;
        const auto query_started = std::chrono::steady_clock::now();
        const PathResult result = pathfinder.find_path(pairs[i].start, pairs[i].goal, search);
        const double microseconds =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - query_started).count();
        const auto memory = static_cast<double>(pathfinder.search_memory_bytes());
        summary.microseconds.push_back(microseconds);
        summary.expanded += static_cast<double>(result.stats.expanded);
        summary.max_expanded = std::max(summary.max_expanded, static_cast<double>(result.stats.expanded));
        summary.memory += memory;
        summary.max_memory = std::max(summary.max_memory, memory);
        summary.peak_open = std::max(summary.peak_open, static_cast<double>(result.stats.peak_open));
        std::string problem;
        if (result.status == SearchStatus::budget_exhausted) {
          ++summary.exhausted;
        } else if (result.found()) {
          ++summary.solved;
          summary.cost += result.cost;
          if (algorithm == VoxelAlgorithm::astar || algorithm == VoxelAlgorithm::dijkstra) optimal_costs[i] = result.cost;
          if (algorithm != VoxelAlgorithm::astar && algorithm != VoxelAlgorithm::dijkstra && optimal_costs[i] > 0.0) {
            const double ratio = result.cost / optimal_costs[i];
            summary.ratios.add(ratio);
            if (ratio < 1.0 - 1e-9) problem = "cost " + format_fixed(result.cost, 3) + " below the astar cost";
          }
          if (algorithm == VoxelAlgorithm::weighted_astar && optimal_costs[i] >= 0.0 &&
              result.cost > arguments.weight * optimal_costs[i] * (1.0 + 1e-9))
            problem = "weighted-astar cost " + format_fixed(result.cost, 3) + " above weight x " +
                      format_fixed(optimal_costs[i], 3);
        } else if (result.status == SearchStatus::no_path) {
          ++summary.no_path;
        } else {
          problem = std::string(to_string(result.status)) + ": " + result.message;
        }
        // Whether a pair is connected does not depend on the algorithm (unless a budget cut one short).
        if (result.status == SearchStatus::found || result.status == SearchStatus::no_path) {
          const int found = result.found() ? 1 : 0;
          if (found_by_first[i] < 0) found_by_first[i] = found;
          else if (found_by_first[i] != found && problem.empty())
            problem = found ? "found a path another algorithm did not" : "no path where another algorithm found one";
        }
        if (!problem.empty()) {
          ++summary.mismatches;
          progress.clear();
          err << "mismatch: " << profile_name << " pair " << i << " " << format_voxel_coord(pairs[i].start) << " -> "
              << format_voxel_coord(pairs[i].goal) << ": " << problem << '\n';
        }
        progress.update(i + 1);
      }
      progress.clear();
      any_mismatch = any_mismatch || summary.mismatches > 0;
      const double count = static_cast<double>(pairs.size());
      double total_us = 0.0;
      for (const double us : summary.microseconds) total_us += us;
      const double max_us = *std::max_element(summary.microseconds.begin(), summary.microseconds.end());
      if (arguments.json) {
        nlohmann::ordered_json json;
        json["profile"] = profile_name;
        json["algorithm"] = std::string(to_string(algorithm));
        json["reuse_pathfinder"] = arguments.reuse_pathfinder;
        if (algorithm == VoxelAlgorithm::weighted_astar) json["weight"] = arguments.weight;
        json["queries"] = pairs.size();
        json["solved"] = summary.solved;
        json["no_path"] = summary.no_path;
        json["budget_exhausted"] = summary.exhausted;
        json["mismatches"] = summary.mismatches;
        json["mean_us"] = total_us / count;
        json["median_us"] = median(summary.microseconds);
        json["max_us"] = max_us;
        json["mean_expanded"] = summary.expanded / count;
        json["max_expanded"] = summary.max_expanded;
        json["max_peak_open"] = summary.peak_open;
        json["mean_cost"] = summary.solved > 0 ? summary.cost / static_cast<double>(summary.solved) : 0.0;
        json["mean_search_memory_bytes"] = summary.memory / count;
        json["max_search_memory_bytes"] = summary.max_memory;
        if (summary.ratios.count() > 0) {
          json["mean_cost_over_astar"] = *summary.ratios.mean();
          json["max_cost_over_astar"] = *summary.ratios.max();
        }
        out << json.dump() << '\n' << std::flush;
      } else {
        out << table.row_line({profile_name, std::string(to_string(algorithm)), std::to_string(summary.solved),
                               std::to_string(summary.no_path), format_fixed(total_us / count, 0),
                               format_fixed(median(summary.microseconds), 0), format_fixed(max_us, 0),
                               format_fixed(summary.expanded / count, 0), format_fixed(mib(summary.memory / count), 1),
                               format_fixed(mib(summary.max_memory), 1)})
            << '\n';
        if (summary.ratios.count() > 0)
          out << "  " << profile_name << " " << to_string(algorithm) << " cost / astar cost: mean "
              << format_fixed(*summary.ratios.mean(), 4) << ", max "
              << format_fixed(*summary.ratios.max(), 4) << " over " << summary.ratios.count() << " pairs\n";
        out << std::flush;
      }
    }
  }
  if (!arguments.json)
    out << "\nprocess peak memory: " << format_fixed(mib(static_cast<double>(peak_resident_bytes())), 1) << " MiB\n";
  return any_mismatch ? exit_no_path : exit_ok;
}

}  // namespace wayfinder::cli
