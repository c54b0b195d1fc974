#include "mesh/mesh_obstacles_command.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

#include "command_error.hpp"
#include "command_line_terms.hpp"
#include "command_line_values.hpp"
#include "common/mesh_query_file.hpp"
#include "exit_status.hpp"
#include "mesh/level_build_options.hpp"
#include "mesh/mesh_command_support.hpp"
#include "mesh/obstacle_events.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#ifdef WAYFINDER_HAVE_RECAST
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"
#endif

namespace wayfinder::cli {
namespace {

/// The tile size when --tile-size is not given: RecastDemo's tiled default.
constexpr int default_tile_size = 48;

#ifdef WAYFINDER_HAVE_RECAST
using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point started) {
  return std::chrono::duration<double, std::milli>(Clock::now() - started).count();
}

/// What one step of the replay reports: the state before any event (step 0) or after one event.
struct StepReport {
  std::string action;  ///< "start" for the state before any event
  double seconds = 0.0;
  std::size_t tiles_rebuilt = 0;
  double rebuild_milliseconds = 0.0;  ///< the cache's update
  double replace_milliseconds = 0.0;  ///< NavMesh::replace_tile of every rebuilt tile
  std::size_t obstacles = 0;
  std::size_t reachable = 0;
  double mean_length = 0.0;  ///< of the found paths, 3D; 0 when none is found
  std::size_t changed = 0;   ///< queries whose answer (status and waypoints) differs from step 0's
};

/// Every query's answer, and the step's figures from them.
struct QueryAnswers {
  std::vector<PathResult> results;
};

QueryAnswers run_queries(const NavMesh& mesh, const std::vector<MeshQueryCase>& cases) {
  NavMeshQuery query(mesh);
  NavMeshSearchOptions options;
  options.return_partial = false;
  QueryAnswers answers;
  answers.results.reserve(cases.size());
  for (const MeshQueryCase& c : cases) answers.results.push_back(query.find_path(c.start, c.goal, options));
  return answers;
}

void summarise(const QueryAnswers& answers, const QueryAnswers& first, StepReport& step) {
  double total = 0.0;
  for (std::size_t i = 0; i < answers.results.size(); ++i) {
    const PathResult& result = answers.results[i];
    if (result.status == SearchStatus::found) {
      ++step.reachable;
      total += geometry::polyline_length(result.points);
    }
    const PathResult& before = first.results[i];
    if (result.status != before.status || result.points != before.points) ++step.changed;
  }
  step.mean_length = step.reachable == 0 ? 0.0 : total / static_cast<double>(step.reachable);
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}
#endif

}  // namespace

void configure_mesh_obstacles_command(CLI::App& command, MeshObstaclesArguments& arguments) {
  add_level_argument(command, arguments.level_path);
  add_required_file_argument(command, "EVENTS", arguments.events_path,
                             "the obstacle events, one a line: 'T add cylinder NAME X Y Z RADIUS HEIGHT', 'T add box "
                             "NAME MINX MINY MINZ MAXX MAXY MAXZ', 'T add turned-box NAME CX CY CZ HX HY HZ YAW', 'T "
                             "remove NAME'; # starts a comment");
  command
      .add_option("--queries", arguments.queries_path,
                  "queries run before the first event and after each: a reference-query CSV (or start/goal pairs "
                  "as sx,sy,sz,ex,ey,ez), a Polyanya optimal-length CSV or a MovingAI .scen")
      ->type_name("FILE");
  arguments.build.tile_size = default_tile_size;
  add_level_build_options(command, arguments.build);
  command.add_flag("--z-up", arguments.z_up, "the OBJ file has z up (Blender's default); it is turned to y up");
  add_json_flag(command, arguments.json);
  command.footer(
      "Builds LEVEL's navmesh in tiles with a tile cache, then replays EVENTS in order: each event adds or removes\n"
      "an obstacle, the tiles it touches are rebuilt from the cache and put into the mesh, and the queries run again.\n"
      "Per step (the start, then each event): tiles rebuilt, rebuild time, obstacles present, reachable queries,\n"
      "their mean 3D path length, and queries whose answer differs from the start's.\n"
      "Exit status: 0 done; 2 bad input or usage (a bad events line is named with its line number).");
}

int run_mesh_obstacles_command(const MeshObstaclesArguments& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.build.tile_size == 0)
    throw CommandError("--tile-size must be from 8 to 4096 here: the tile cache rebuilds the mesh tile by tile");
  // The events and queries are checked before the (slower) build.
  const std::vector<ObstacleEvent> events = read_obstacle_events(arguments.events_path);
  std::vector<MeshQueryCase> cases;
  if (!arguments.queries_path.empty()) cases = read_mesh_queries(arguments.queries_path);
#ifdef WAYFINDER_HAVE_RECAST
  if (const auto problem = settings_problem(arguments.build)) throw CommandError(in_command_line_terms(*problem));
  const MeshGeometry level = read_mesh_geometry(arguments.level_path, arguments.z_up);
  const auto build_started = Clock::now();
  std::optional<NavMeshTileCache> cache;
  NavMeshTileSet tiles;
  try {
    tiles = build_navmesh_tiles(level, arguments.build);
    cache.emplace(level, arguments.build);
  } catch (const std::invalid_argument& error) {
    throw CommandError(arguments.level_path + ": " + error.what(), arguments.level_path);
  } catch (const std::runtime_error& error) {
    throw CommandError(arguments.level_path + ": " + error.what(), arguments.level_path);
  }
  if (tiles.tiles.empty())
    throw CommandError(arguments.level_path + ": nothing in the level is walkable for this agent (" +
                           describe_level_build(arguments.build) + "): the navmesh is empty",
                       arguments.level_path);
  NavMesh mesh = NavMesh::build_tiled(tiles.grid, tiles.tiles);
  const double build_milliseconds = milliseconds_since(build_started);

  std::vector<StepReport> steps;
  const QueryAnswers first = run_queries(mesh, cases);
  steps.push_back({.action = "start"});
  summarise(first, first, steps.back());

  std::map<std::string, ObstacleId> ids;
  for (const ObstacleEvent& event : events) {
    StepReport step;
    step.action = describe_obstacle_event(event);
    step.seconds = event.seconds;
    try {
      if (event.add) {
        ids[event.name] = cache->add_obstacle(event.obstacle);
      } else {
        cache->remove_obstacle(ids.at(event.name));
        ids.erase(event.name);
      }
    } catch (const std::invalid_argument& error) {
      throw CommandError(arguments.events_path + ":" + std::to_string(event.line) + ": " + error.what(),
                         arguments.events_path, event.line);
    }
    const auto rebuild_started = Clock::now();
    const std::vector<RebuiltTile> rebuilt = cache->update();
    step.rebuild_milliseconds = milliseconds_since(rebuild_started);
    const auto replace_started = Clock::now();
    for (const RebuiltTile& tile : rebuilt) mesh.replace_tile(tile);
    step.replace_milliseconds = milliseconds_since(replace_started);
    step.tiles_rebuilt = rebuilt.size();
    step.obstacles = cache->obstacle_count();
    summarise(run_queries(mesh, cases), first, step);
    steps.push_back(std::move(step));
  }

  if (arguments.json) {
    nlohmann::ordered_json json;
    json["level"] = arguments.level_path;
    json["events"] = arguments.events_path;
    json["queries"] = cases.size();
    json["tile_grid"] = {cache->tiles_x(), cache->tiles_z()};
    json["tile_size"] = arguments.build.tile_size;
    json["build_milliseconds"] = build_milliseconds;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const StepReport& step : steps) {
      rows.push_back({{"action", step.action},
                      {"seconds", step.seconds},
                      {"tiles_rebuilt", step.tiles_rebuilt},
                      {"rebuild_milliseconds", step.rebuild_milliseconds},
                      {"replace_milliseconds", step.replace_milliseconds},
                      {"obstacles", step.obstacles},
                      {"reachable", step.reachable},
                      {"mean_length", step.mean_length},
                      {"changed", step.changed}});
    }
    json["steps"] = std::move(rows);
    out << json.dump() << '\n';
  } else {
    out << "level:    " << arguments.level_path << ", " << cache->tiles_x() << " x " << cache->tiles_z()
        << " tiles of " << arguments.build.tile_size << " cells, built with its cache in "
        << fixed(build_milliseconds, 1) << " ms\n";
    out << "events:   " << events.size() << " from " << arguments.events_path << "; " << cases.size()
        << " queries after each\n";
    for (const StepReport& step : steps) {
      out << fixed(step.seconds, 3) << " s  " << step.action << ": ";
      if (step.action != "start")
        out << step.tiles_rebuilt << " tiles rebuilt in " << fixed(step.rebuild_milliseconds, 2) << " ms (+"
            << fixed(step.replace_milliseconds, 2) << " ms to replace), " << step.obstacles << " obstacles; ";
      out << step.reachable << "/" << cases.size() << " reachable, mean length " << fixed(step.mean_length, 6)
          << ", " << step.changed << " changed\n";
    }
  }
  (void)err;
  return exit_ok;
#else
  (void)out;
  (void)err;
  throw CommandError(arguments.level_path +
                     ": this build of wayfinder cannot build navigation meshes (Recast was not found when it was "
                     "configured; install librecast-dev and rebuild)");
#endif
}

}  // namespace wayfinder::cli
