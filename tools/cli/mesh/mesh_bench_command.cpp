#include "mesh/mesh_bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "batch_throughput.hpp"
#include "bench_summary.hpp"
#include "command_line_values.hpp"
#include "exit_status.hpp"
#include "mesh/mesh_command_support.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/level_geometry_check.hpp"
#include "progress_bar.hpp"
#include "text_table.hpp"
#include "wayfinder/navmesh/funnel.hpp"
#include "common/mesh_query_file.hpp"

namespace wayfinder::cli {
namespace {

/// A path may not be shorter than the optimum by more than rounding of the files' 6 decimals.
constexpr double shorter_tolerance = 1e-4;
/// A point this close (x-z) to the polygon the file names lies on it as well as on ours.
constexpr double location_tolerance = 1e-6;
constexpr std::size_t problems_shown = 5;

using Clock = std::chrono::steady_clock;

double microseconds_since(Clock::time_point started) {
  return std::chrono::duration<double, std::micro>(Clock::now() - started).count();
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  double sum = 0.0;
  for (const double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

/// Times of one piece of the work: per pass, the mean and the median time per query; the report
/// gives the median over passes of each, which shrugs off a pass disturbed by the machine.
struct PieceTimes {
  std::vector<double> pass_means;
  std::vector<double> pass_medians;
  void add_pass(const std::vector<double>& per_query) {
    pass_means.push_back(mean(per_query));
    pass_medians.push_back(median(per_query));
  }
  [[nodiscard]] double mean_us() const { return median(pass_means); }
  [[nodiscard]] double median_us() const { return median(pass_medians); }
};

struct Checks {
  std::size_t queries = 0;
  std::size_t found = 0;
  std::size_t reachable_known = 0;
  std::size_t reachable = 0;  ///< queries the file says are reachable
  std::size_t invalid = 0;    ///< find_path said invalid_input (e.g. a point off the mesh)
  std::size_t reachability_mismatches = 0;
  std::size_t location_checked = 0;
  std::size_t location_equally_valid = 0;
  std::size_t location_mismatches = 0;
  std::size_t shorter_than_optimal = 0;
  std::vector<double> ratios;
  std::size_t shown = 0;
};

/// For each input polygon index, the mesh polygons made from it (one, or several if it was split).
std::vector<std::vector<PolygonId>> polygons_by_source(const NavMesh& mesh, std::size_t input_polygons) {
  std::vector<std::vector<PolygonId>> by_source(input_polygons);
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    const std::uint32_t source = mesh.source_polygon(polygon);
    if (source < by_source.size()) by_source[source].push_back(polygon);
  }
  return by_source;
}

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

nlohmann::ordered_json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

}  // namespace

void configure_mesh_bench_command(CLI::App& command, MeshBenchArguments& arguments) {
  add_navmesh_file_argument(command, arguments.mesh_path);
  command
      .add_option("--queries", arguments.queries_path,
                  "queries: a reference-query CSV, a Polyanya optimal-length CSV or a MovingAI .scen")
      ->required()
      ->type_name("FILE");
  add_corridor_nodes_option(command, "--nodes", arguments.nodes);
  // More passes than this would take days on any query file; the bound keeps a typo from meaning forever.
  add_whole_number_option(command, "--repeat", arguments.repeat, 1, 1000,
                          "timing passes over all queries (the median pass counts)")
      ->default_str(std::to_string(arguments.repeat));
  add_query_limit_option(command, arguments.limit);
  add_threads_option(command, arguments.threads);
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  add_build_in_memory_options(command, arguments.reading, arguments.build_settings);
  add_links_option(command, arguments.links_path);
  add_json_flag(command, arguments.json);
  command.footer(
      "Checks: reachability against the file (queries of unknown reachability are not counted); no path\n"
      "shorter in x-z than the file's optimal length minus 1e-4; the polygon locate finds for the start and\n"
      "goal against the file's start_poly/end_poly (a different polygon counts only if the point is not on\n"
      "the file's polygon too, within 1e-6; not with --build, whose mesh has its own polygons); no query\n"
      "rejected as invalid (with --build, a point off the built mesh is such a query).\n"
      "Times: the whole query (find_path) first, then locate (two NavMesh::locate calls), the corridor search\n"
      "(find_corridor) and the funnel (corridor_portals + funnel_path), each in its own passes over all\n"
      "queries; each figure is the median over --repeat passes of that pass's mean (or median) per query.\n"
      "Throughput: queries per second of the median pass. With --threads 1 a pass is the find_path calls one\n"
      "after another (their times summed); with --threads N > 1 each whole-query pass is one batch of every\n"
      "query (solve_batch) on N threads, timed by the wall clock, and the per-query times are each result's own\n"
      "(stats.microseconds). The parts are always timed on one thread; the first pass's answers are checked.\n"
      "Exit status: 0 every check passed; 1 some check failed; 2 bad input or usage.");
}

int run_mesh_bench_command(const MeshBenchArguments& arguments, std::ostream& out, std::ostream& err) {
  const CommandNavMeshGeometry loaded =
      load_command_navmesh(arguments.mesh_path, arguments.z_up, arguments.links_path, arguments.reading,
                           arguments.build_settings, err, !arguments.json);
  const NavMesh mesh = NavMesh::build(loaded.navmesh);
  // The query file describes the mesh without links: links may reach what it calls unreachable
  // and make paths shorter than its optimum, so those two checks are left out with --links.
  const bool with_links = mesh.off_mesh_link_count() != 0;
  std::vector<MeshQueryCase> cases = read_mesh_queries(
      arguments.queries_path,
      arguments.limit > 0 ? static_cast<std::size_t>(arguments.limit) : std::numeric_limits<std::size_t>::max());
  const std::size_t count = cases.size();
  if (mesh_file_format(arguments.mesh_path) == MeshFileFormat::polyanya) {
    // A 2D mesh lies in the plane y = 0: heights that come with the queries (a reference CSV
    // made on the 3D mesh) are dropped, or no point would be within the height tolerance.
    for (MeshQueryCase& c : cases) c.start.y = c.goal.y = 0.0;
  }

  NavMeshSearchOptions options;
  options.nodes = arguments.nodes;
  options.return_partial = false;
  NavMeshQuery query(mesh);
  ProgressBar progress(err, standard_error_is_terminal());
  std::vector<double> per_query(count);
  std::size_t checksum = 0;  // uses every result, so that no timed call can be optimised away

  // ---- Whole queries; the first pass's answers are checked.
  std::vector<PathResult> answers(count);
  PieceTimes whole;
  std::vector<double> pass_seconds;  // the whole queries' time per pass, for the throughput
  if (arguments.threads == 1) {
    for (std::size_t pass = 0; pass < arguments.repeat; ++pass) {
      progress.start("find_path, pass " + std::to_string(pass + 1), count);
      double seconds = 0.0;
      for (std::size_t i = 0; i < count; ++i) {
        const auto started = Clock::now();
        PathResult result = query.find_path(cases[i].start, cases[i].goal, options);
        per_query[i] = microseconds_since(started);
        seconds += per_query[i] * 1e-6;
        checksum += result.points.size();
        if (pass == 0) answers[i] = std::move(result);
        progress.update(i + 1);
      }
      whole.add_pass(per_query);
      pass_seconds.push_back(seconds);
    }
  } else {
    std::vector<NavMeshPathRequest> requests;
    requests.reserve(count);
    for (const MeshQueryCase& c : cases) requests.push_back({c.start, c.goal, options});
    std::vector<PathResult> later_pass;  // the answers of passes after the first, reused
    progress.start("find_path on " + std::to_string(arguments.threads) + " threads", arguments.repeat);
    for (std::size_t pass = 0; pass < arguments.repeat; ++pass) {
      std::vector<PathResult>& results = pass == 0 ? answers : later_pass;
      pass_seconds.push_back(
          run_timed_batch(mesh, std::span<const NavMeshPathRequest>(requests), results, arguments.threads));
      for (std::size_t i = 0; i < count; ++i) {
        per_query[i] = results[i].stats.microseconds;
        checksum += results[i].points.size();
      }
      whole.add_pass(per_query);
      progress.update(pass + 1);
    }
  }
  progress.clear();
  const double throughput_qps = queries_per_second(count, median(pass_seconds));

  // ---- Locate.
  std::vector<MeshLocation> starts(count);
  std::vector<MeshLocation> goals(count);
  PieceTimes locate;
  for (std::size_t pass = 0; pass < arguments.repeat; ++pass) {
    for (std::size_t i = 0; i < count; ++i) {
      const auto started = Clock::now();
      const MeshLocation start = mesh.locate(cases[i].start, options.height_tolerance);
      const MeshLocation goal = mesh.locate(cases[i].goal, options.height_tolerance);
      per_query[i] = microseconds_since(started);
      checksum += start.polygon + goal.polygon;
      starts[i] = start;
      goals[i] = goal;
    }
    locate.add_pass(per_query);
  }

  // ---- Corridor search, between the located points.
  std::vector<std::size_t> searched;  // queries whose points were both located
  for (std::size_t i = 0; i < count; ++i)
    if (starts[i].valid() && goals[i].valid()) searched.push_back(i);
  std::vector<std::vector<PolygonId>> corridors(count);
  std::vector<double> timed;
  timed.reserve(searched.size());
  PieceTimes search;
  for (std::size_t pass = 0; pass < arguments.repeat; ++pass) {
    timed.clear();
    for (const std::size_t i : searched) {
      const auto started = Clock::now();
      PathResult corridor = query.find_corridor(starts[i], goals[i], options);
      timed.push_back(microseconds_since(started));
      checksum += corridor.nodes.size();
      // The funnel pass times corridors that walk all the way (a link's polygons share no portal).
      if (pass == 0 && corridor.found() && corridor.links.empty()) corridors[i].assign(corridor.nodes.begin(), corridor.nodes.end());
    }
    search.add_pass(timed);
  }

  // ---- Funnel, through the corridors just found.
  std::vector<Portal> portals;
  std::vector<Point> waypoints;
  PieceTimes funnel;
  for (std::size_t pass = 0; pass < arguments.repeat; ++pass) {
    timed.clear();
    for (const std::size_t i : searched) {
      if (corridors[i].empty()) continue;
      const auto started = Clock::now();
      corridor_portals(mesh, corridors[i], portals);
      funnel_path(starts[i].point, goals[i].point, portals, waypoints);
      timed.push_back(microseconds_since(started));
      checksum += waypoints.size();
    }
    funnel.add_pass(timed);
  }

  // ---- Checks.
  Checks checks;
  checks.queries = count;
  const std::vector<std::vector<PolygonId>> by_source = polygons_by_source(mesh, loaded.navmesh.polygons.size());
  auto report = [&](const MeshQueryCase& c, const std::string& what) {
    if (checks.shown++ < problems_shown)
      err << "mismatch: " << arguments.queries_path << ":" << c.line << ": " << what << '\n';
  };
  auto check_location = [&](const MeshQueryCase& c, const Point& point, const MeshLocation& found,
                            std::int64_t expected, const char* which) {
    // The file's polygon ids name polygons of the mesh it was made for, not of one built here.
    if (expected < 0 || loaded.built) return;
    ++checks.location_checked;
    if (found.valid() && mesh.source_polygon(found.polygon) == static_cast<std::uint64_t>(expected)) return;
    // Another polygon is as good an answer when the point lies on the expected one too (on a
    // shared edge or corner, or where levels overlap).
    if (found.valid() && static_cast<std::uint64_t>(expected) < by_source.size()) {
      for (const PolygonId candidate : by_source[static_cast<std::size_t>(expected)]) {
        if (distance_xz_to_polygon(mesh, candidate, point.x, point.z) <= location_tolerance &&
            std::abs(mesh.height_at(candidate, point.x, point.z) - point.y) <= options.height_tolerance) {
          ++checks.location_equally_valid;
          return;
        }
      }
    }
    ++checks.location_mismatches;
    report(c, std::string(which) + " located in polygon " +
                  (found.valid() ? std::to_string(mesh.source_polygon(found.polygon)) : std::string("none")) +
                  ", the file says " + std::to_string(expected));
  };
  for (std::size_t i = 0; i < count; ++i) {
    const MeshQueryCase& c = cases[i];
    const PathResult& answer = answers[i];
    const bool found = answer.found();
    if (found) ++checks.found;
    if (answer.status == SearchStatus::invalid_input) {
      ++checks.invalid;
      report(c, "invalid query: " + answer.message);
    }
    if (c.reachable.has_value()) {
      ++checks.reachable_known;
      if (*c.reachable) ++checks.reachable;
      if (found != *c.reachable && !(with_links && found)) {
        ++checks.reachability_mismatches;
        report(c, std::string("the file says ") + (*c.reachable ? "reachable" : "unreachable") + ", the query says " +
                      std::string(to_string(answer.status)));
      }
    }
    if (found && std::isfinite(c.optimal_length)) {
      const double length = geometry::polyline_length_xz(answer.points);
      if (length < c.optimal_length - shorter_tolerance && !with_links) {
        ++checks.shorter_than_optimal;
        report(c, "path length " + format_fixed(length, 6) + " is shorter than the optimum " +
                      format_fixed(c.optimal_length, 6));
      }
      if (c.optimal_length > 0.0) checks.ratios.push_back(length / c.optimal_length);
    }
    check_location(c, c.start, starts[i], c.start_polygon, "start");
    check_location(c, c.goal, goals[i], c.goal_polygon, "goal");
  }
  const double mean_ratio = checks.ratios.empty() ? std::nan("") : mean(checks.ratios);
  const double p99_ratio = percentile(checks.ratios, 0.99);
  const double max_ratio =
      checks.ratios.empty() ? std::nan("") : *std::max_element(checks.ratios.begin(), checks.ratios.end());
  const double min_ratio =
      checks.ratios.empty() ? std::nan("") : *std::min_element(checks.ratios.begin(), checks.ratios.end());
  const bool failed = checks.reachability_mismatches > 0 || checks.location_mismatches > 0 ||
                      checks.shorter_than_optimal > 0 || checks.invalid > 0;

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["mesh"] = arguments.mesh_path;
    json["queries_file"] = arguments.queries_path;
    json["nodes"] = to_string(arguments.nodes);
    json["repeat"] = arguments.repeat;
    json["queries"] = checks.queries;
    json["found"] = checks.found;
    json["reachable"] = checks.reachable;
    json["reachable_known"] = checks.reachable_known;
    json["invalid"] = checks.invalid;
    json["reachability_mismatches"] = checks.reachability_mismatches;
    json["location_checked"] = checks.location_checked;
    json["location_equally_valid"] = checks.location_equally_valid;
    json["location_mismatches"] = checks.location_mismatches;
    json["shorter_than_optimal"] = checks.shorter_than_optimal;
    json["mean_us"] = whole.mean_us();
    json["median_us"] = whole.median_us();
    json["threads"] = arguments.threads;
    json["throughput_qps"] = throughput_qps;
    json["locate_us"] = locate.mean_us();
    json["search_us"] = search.mean_us();
    json["funnel_us"] = funnel.mean_us();
    json["ratio_count"] = checks.ratios.size();
    json["mean_ratio"] = number_or_null(mean_ratio);
    json["p99_ratio"] = number_or_null(p99_ratio);
    json["max_ratio"] = number_or_null(max_ratio);
    json["min_ratio"] = number_or_null(min_ratio);
    json["checksum"] = checksum;
    if (loaded.built) json["build"] = nlohmann::ordered_json::parse(level_build_summary_json(loaded.report));
    out << json.dump() << '\n';
    return failed ? exit_no_path : exit_ok;
  }

  out << "mesh:     " << arguments.mesh_path << " (" << mesh.polygon_count() << " polygons, " << mesh.region_count()
      << " regions)\n";
  if (loaded.built) out << "navmesh:  " << level_build_summary_text(loaded.report) << '\n';
  out << "queries:  " << arguments.queries_path << " (" << count << " queries; nodes " << to_string(arguments.nodes)
      << ", " << arguments.repeat << " passes)\n\n";
  using Align = TableColumn::Align;
  const TextTable times({{"piece", 22, Align::left}, {"mean_us", 10, Align::right}, {"median_us", 10, Align::right}});
  out << times.header_line() << '\n' << times.rule_line() << '\n';
  out << times.row_line({"whole query", format_fixed(whole.mean_us(), 2), format_fixed(whole.median_us(), 2)}) << '\n';
  out << times.row_line({"  locate (x2)", format_fixed(locate.mean_us(), 2), format_fixed(locate.median_us(), 2)})
      << '\n';
  out << times.row_line({"  corridor search", format_fixed(search.mean_us(), 2), format_fixed(search.median_us(), 2)})
      << '\n';
  out << times.row_line({"  funnel", format_fixed(funnel.mean_us(), 2), format_fixed(funnel.median_us(), 2)}) << '\n';
  out << throughput_line(throughput_qps, arguments.threads) << " (whole queries)\n\n";

  const TextTable results({{"check", 26, Align::left}, {"count", 8, Align::right}});
  out << results.header_line() << '\n' << results.rule_line() << '\n';
  out << results.row_line({"found", std::to_string(checks.found)}) << '\n';
  out << results.row_line(
             {"reachable (file)", std::to_string(checks.reachable) + "/" + std::to_string(checks.reachable_known)})
      << '\n';
  out << results.row_line({"reachability_mismatches", std::to_string(checks.reachability_mismatches)}) << '\n';
  out << results.row_line({"invalid", std::to_string(checks.invalid)}) << '\n';
  out << results.row_line({"location_mismatches", std::to_string(checks.location_mismatches)}) << '\n';
  out << results.row_line({"  equally valid", std::to_string(checks.location_equally_valid)}) << '\n';
  out << results.row_line({"shorter_than_optimal", std::to_string(checks.shorter_than_optimal)}) << '\n';
  if (!checks.ratios.empty())
    out << "length / optimal over " << checks.ratios.size() << " queries: mean " << format_fixed(mean_ratio, 6)
        << ", p99 " << format_fixed(p99_ratio, 6) << ", max " << format_fixed(max_ratio, 6) << ", min "
        << format_fixed(min_ratio, 6) << '\n';
  out << (failed ? "FAILED: some answers disagree with the file\n" : "all checks passed\n");
  return failed ? exit_no_path : exit_ok;
}

}  // namespace wayfinder::cli
