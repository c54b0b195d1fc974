// The `wayfinder` command: wires the subcommands together and turns errors into exit codes.

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "command_error.hpp"
#include "crowd/crowd_run_command.hpp"
#include "crowd/crowd_scenario_command.hpp"
#include "demo_command.hpp"
#include "exit_status.hpp"
#include "grid/grid_bench_command.hpp"
#include "grid/grid_path_command.hpp"
#include "grid/grid_merge_goal_bounds_command.hpp"
#include "grid/grid_preprocess_command.hpp"
#include "grid/grid_replan_command.hpp"
#include "voxel/voxel_bench_command.hpp"
#include "voxel/voxel_generate_command.hpp"
#include "voxel/voxel_info_command.hpp"
#include "voxel/voxel_path_command.hpp"
#include "mesh/mesh_bench_command.hpp"
#include "mesh/mesh_build_command.hpp"
#include "mesh/mesh_info_command.hpp"
#include "mesh/mesh_obstacles_command.hpp"
#include "mesh/mesh_path_command.hpp"
#include "serve_command.hpp"
#include "wayfinder/core/load_error.hpp"

namespace {

/// The last step of every run, whatever it ended with (help and usage errors too): what it printed on standard output
/// is flushed, and if any of it could not be written (a full disk, a closed descriptor), a
/// status that said success (or no path) becomes exit 2 with a message on standard error, so a
/// script never takes a cut-off answer for a whole one. Each subcommand checks the files it
/// writes itself; standard output is checked once, here.
int with_output_written(int status) {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return status;
  const int cause = errno;
  wayfinder::cli::report_error(std::cerr, "cannot write to standard output" +
                                              (cause != 0 ? ": " + std::string(std::strerror(cause)) : std::string()) +
                                              "; what was printed is incomplete");
  return status == wayfinder::cli::exit_ok || status == wayfinder::cli::exit_no_path ? wayfinder::cli::exit_bad_input
                                                                                    : status;
}

/// A subcommand and what runs it when the command line chose it.
struct Subcommand {
  CLI::App* app;
  std::function<int(std::ostream& out, std::ostream& err)> run;
};

/// Adds the subcommand `name` to `group`: `configure` declares its arguments, bound to storage
/// the returned runner hands to `run`.
template <class Arguments>
Subcommand add_subcommand(CLI::App& group, const std::string& name, const std::string& description,
                          void (*configure)(CLI::App&, Arguments&),
                          int (*run)(const Arguments&, std::ostream&, std::ostream&)) {
  auto arguments = std::make_shared<Arguments>();
  CLI::App* app = group.add_subcommand(name, description);
  configure(*app, *arguments);
  return {app, [arguments, run](std::ostream& out, std::ostream& err) { return run(*arguments, out, err); }};
}

// CLI11 answers a misspelt command word ("wayfinder frobnicate", "wayfinder grid pth") with "A
// subcommand is required"; this names the word and the commands that exist at that level instead.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* level = &app;
  std::string path = "wayfinder";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word.front() == '-') return std::nullopt;
    const std::vector<CLI::App*> commands = level->get_subcommands({});
    if (commands.empty()) return std::nullopt;  // a command's own arguments
    CLI::App* next = nullptr;
    std::string names;
    for (CLI::App* command : commands) {
      if (command->get_name() == word) next = command;
      names += (names.empty() ? "" : ", ") + command->get_name();
    }
    if (next == nullptr) return "unknown command '" + word + "' after '" + path + "' (commands: " + names + ")";
    level = next;
    path += " " + word;
  }
  return std::nullopt;
}

// "wayfinder grid preprocess": the command words that chose `command`.
std::string command_words(const CLI::App& command) {
  std::string words = command.get_name();
  for (const CLI::App* level = command.get_parent(); level != nullptr; level = level->get_parent())
    words = level->get_name() + " " + words;
  return words;
}

/// Parses the command line and runs the chosen subcommand; returns the exit status.
int run_command(int argc, char** argv) {
  using namespace wayfinder::cli;

  CLI::App app{"Wayfinder: pathfinding for games.", "wayfinder"};
  // Set before the subcommands are added: they copy it.
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "wayfinder: " + std::string(error.what()) + "\nRun with --help for more information.\n";
  });
  app.set_version_flag("--version", std::string("wayfinder ") + WAYFINDER_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success; 1 no path found (or a result failed its check); 2 bad input or usage; 3 out of "
      "memory.");

  CLI::App* grid = app.add_subcommand("grid", "2D tile grids: queries and benchmarks on MovingAI maps");
  grid->require_subcommand(1);
  CLI::App* mesh =
      app.add_subcommand("mesh", "navigation meshes: build, inspect, query and benchmark .obj, .mesh and .wfnav files");
  mesh->require_subcommand(1);
  CLI::App* voxel = app.add_subcommand("voxel", "3D voxel worlds: walking and flying queries on .vox and .3dmap files");
  voxel->require_subcommand(1);
  CLI::App* crowd =
      app.add_subcommand("crowd", "crowds on navigation meshes: run scenarios and measure them, generate the standard ones");
  crowd->require_subcommand(1);

  const std::vector<Subcommand> subcommands = {
      add_subcommand(*grid, "path", "find a path on a MovingAI .map", configure_grid_path_command,
                     run_grid_path_command),
      add_subcommand(*grid, "bench", "run a MovingAI .scen scenario, check every answer and time the searches",
                     configure_grid_bench_command, run_grid_bench_command),
      add_subcommand(*grid, "replan",
                     "agents walk a scenario's paths while doors close ahead: D* Lite and MPAA* replans against A* "
                     "and JPS from scratch",
                     configure_grid_replan_command, run_grid_replan_command),
      add_subcommand(*grid, "preprocess", "build the JPS+ jump table of a MovingAI map and save it (for --table)",
                     configure_grid_preprocess_command, run_grid_preprocess_command),
      add_subcommand(*grid, "merge-goal-bounds",
                     "merge goal bounds built in ranges of cells (grid preprocess --goal-bounds-range) into one file",
                     configure_grid_merge_goal_bounds_command, run_grid_merge_goal_bounds_command),
      add_subcommand(*mesh, "info", "load and build a mesh; print its counts, regions and problems",
                     configure_mesh_info_command, run_mesh_info_command),
      add_subcommand(*mesh, "path", "find a path on a navigation mesh", configure_mesh_path_command,
                     run_mesh_path_command),
      add_subcommand(*mesh, "bench", "run a query file on a mesh, check every answer and time the parts",
                     configure_mesh_bench_command, run_mesh_bench_command),
      add_subcommand(*mesh, "build",
                     "build the navigation mesh of a level's geometry for an agent of a size (Recast); write it as OBJ",
                     configure_mesh_build_command, run_mesh_build_command),
      add_subcommand(*mesh, "obstacles",
                     "replay temporary obstacles on a level's tiled navmesh; rebuild tiles and rerun queries per event",
                     configure_mesh_obstacles_command, run_mesh_obstacles_command),
      add_subcommand(*voxel, "info",
                     "describe a voxel world: size, block kinds, palette colours and places where an agent can be",
                     configure_voxel_info_command, run_voxel_info_command),
      add_subcommand(*voxel, "path", "find a path for a walking or flying agent in a voxel world",
                     configure_voxel_path_command, run_voxel_path_command),
      add_subcommand(*voxel, "bench",
                     "run a .3dscen scenario (flying) or random pairs on a world (walking); check and time every "
                     "answer",
                     configure_voxel_bench_command, run_voxel_bench_command),
      add_subcommand(*voxel, "generate",
                     "build a seeded world of terrain, caves and lakes in memory; time walking and flying queries "
                     "across it",
                     configure_voxel_generate_command, run_voxel_generate_command),
      add_subcommand(*crowd, "run",
                     "run a crowd scenario: agents walk to their goals avoiding each other and the walls; print the "
                     "metrics",
                     configure_crowd_run_command, run_crowd_run_command),
      add_subcommand(*crowd, "scenario",
                     "write a standard crowd scenario (circle, doorway, hallway, bottleneck, random, crossing, "
                     "overtaking, floors) as a file",
                     configure_crowd_scenario_command, run_crowd_scenario_command),
      add_subcommand(app, "demo",
                     "compare every grid algorithm on a generated map of rooms, corridors and terrain; draw it as SVG",
                     configure_demo_command, run_demo_command),
      add_subcommand(app, "serve",
                     "the web viewer: open worlds in a browser, click a start and a goal, watch searches, compare "
                     "algorithms",
                     configure_serve_command, run_serve_command),
  };

  const bool json = asks_for_json(argc, argv);
  if (const std::optional<std::string> unknown = unknown_command(app, argc, argv)) {
    report({*unknown + "; run with --help for more information", {}, 0, 0, exit_bad_input}, json, std::cout,
           std::cerr);
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::ParseError& error) {
    if (!json) return app.exit(error) == 0 ? exit_ok : exit_bad_input;
    report({error.what(), {}, 0, 0, exit_bad_input}, json, std::cout, std::cerr);
    return exit_bad_input;
  }

  const Subcommand* chosen = nullptr;
  for (const Subcommand& subcommand : subcommands)
    if (*subcommand.app) chosen = &subcommand;
  if (chosen == nullptr) return exit_bad_input;  // not reached: a subcommand is required
  try {
    return chosen->run(std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    // Whatever asked for the memory has been unwound and freed, so there is room for the words.
    report({"out of memory while running '" + command_words(*chosen->app) +
                "': the machine could not give the memory this world and these options need (a smaller world, "
                "or options that build less, may fit)",
            {}, 0, 0, exit_out_of_memory},
           json, std::cout, std::cerr);
    return exit_out_of_memory;
  } catch (const CommandError& error) {
    report({error.what(), error.file(), error.line(), 0, error.exit_code()}, json, std::cout, std::cerr);
    return error.exit_code();
  } catch (const wayfinder::LoadError& error) {
    // what() is already "file:line:column: cause"; JSON also gives the parts.
    report({error.what(), error.file(), error.line(), error.column(), exit_bad_input}, json, std::cout, std::cerr);
    return exit_bad_input;
  } catch (const std::exception& error) {
    report({error.what(), {}, 0, 0, exit_bad_input}, json, std::cout, std::cerr);
    return exit_bad_input;
  }
}

}  // namespace

int main(int argc, char** argv) { return with_output_written(run_command(argc, argv)); }
