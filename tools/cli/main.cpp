// The `wayfinder` command: wires the subcommands together and turns errors into exit codes.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "command_error.hpp"
#include "demo_command.hpp"
#include "exit_status.hpp"
#include "grid/grid_bench_command.hpp"
#include "grid/grid_path_command.hpp"
#include "grid/grid_preprocess_command.hpp"
#include "grid/grid_replan_command.hpp"
#include "voxel/voxel_bench_command.hpp"
#include "voxel/voxel_generate_command.hpp"
#include "voxel/voxel_info_command.hpp"
#include "voxel/voxel_path_command.hpp"
#include "mesh/mesh_bench_command.hpp"
#include "mesh/mesh_build_command.hpp"
#include "mesh/mesh_info_command.hpp"
#include "mesh/mesh_path_command.hpp"
#include "serve_command.hpp"
#include "wayfinder/core/load_error.hpp"

int main(int argc, char** argv) {
  using namespace wayfinder::cli;

  CLI::App app{"Wayfinder: pathfinding for games.", "wayfinder"};
  // Set before the subcommands are added: they copy it.
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "wayfinder: " + std::string(error.what()) + "\nRun with --help for more information.\n";
  });
  app.set_version_flag("--version", std::string("wayfinder ") + WAYFINDER_VERSION);
  app.require_subcommand(1);
  app.footer("Exit status: 0 success; 1 no path found (or a result failed its check); 2 bad input or usage.");

  CLI::App* grid = app.add_subcommand("grid", "2D tile grids: queries and benchmarks on MovingAI maps");
  grid->require_subcommand(1);

  GridPathArguments path_arguments;
  CLI::App* path = grid->add_subcommand("path", "find a path on a MovingAI .map");
  configure_grid_path_command(*path, path_arguments);

  GridBenchArguments bench_arguments;
  CLI::App* bench =
      grid->add_subcommand("bench", "run a MovingAI .scen scenario, check every answer and time the searches");
  configure_grid_bench_command(*bench, bench_arguments);

  GridReplanArguments replan_arguments;
  CLI::App* replan = grid->add_subcommand(
      "replan", "agents walk a scenario's paths while doors close ahead: D* Lite and MPAA* replans against A* and JPS from scratch");
  configure_grid_replan_command(*replan, replan_arguments);

  GridPreprocessArguments preprocess_arguments;
  CLI::App* preprocess =
      grid->add_subcommand("preprocess", "build the JPS+ jump table of a MovingAI map and save it (for --table)");
  configure_grid_preprocess_command(*preprocess, preprocess_arguments);

  CLI::App* mesh_group =
      app.add_subcommand("mesh", "navigation meshes: inspect, query and benchmark .obj and .mesh files");
  mesh_group->require_subcommand(1);

  MeshInfoArguments mesh_info_arguments;
  CLI::App* mesh_info =
      mesh_group->add_subcommand("info", "load and build a mesh; print its counts, regions and problems");
  configure_mesh_info_command(*mesh_info, mesh_info_arguments);

  MeshPathArguments mesh_path_arguments;
  CLI::App* mesh_path = mesh_group->add_subcommand("path", "find a path on a navigation mesh");
  configure_mesh_path_command(*mesh_path, mesh_path_arguments);

  MeshBenchArguments mesh_bench_arguments;
  CLI::App* mesh_bench =
      mesh_group->add_subcommand("bench", "run a query file on a mesh, check every answer and time the parts");
  configure_mesh_bench_command(*mesh_bench, mesh_bench_arguments);

  MeshBuildArguments mesh_build_arguments;
  CLI::App* mesh_build = mesh_group->add_subcommand(
      "build", "build the navigation mesh of a level's geometry for an agent of a size (Recast); write it as OBJ");
  configure_mesh_build_command(*mesh_build, mesh_build_arguments);

  CLI::App* voxel_group = app.add_subcommand("voxel", "3D voxel worlds: walking and flying queries on .vox and .3dmap files");
  voxel_group->require_subcommand(1);

  VoxelInfoArguments voxel_info_arguments;
  CLI::App* voxel_info = voxel_group->add_subcommand(
      "info", "describe a voxel world: size, block kinds, palette colours and places where an agent can be");
  configure_voxel_info_command(*voxel_info, voxel_info_arguments);

  VoxelPathArguments voxel_path_arguments;
  CLI::App* voxel_path = voxel_group->add_subcommand("path", "find a path for a walking or flying agent in a voxel world");
  configure_voxel_path_command(*voxel_path, voxel_path_arguments);

  VoxelBenchArguments voxel_bench_arguments;
  CLI::App* voxel_bench = voxel_group->add_subcommand(
      "bench", "run a .3dscen scenario (flying) or random pairs on a world (walking); check and time every answer");
  configure_voxel_bench_command(*voxel_bench, voxel_bench_arguments);

  VoxelGenerateArguments voxel_generate_arguments;
  CLI::App* voxel_generate = voxel_group->add_subcommand(
      "generate", "build a seeded world of terrain, caves and lakes in memory; time walking and flying queries across it");
  configure_voxel_generate_command(*voxel_generate, voxel_generate_arguments);

  DemoArguments demo_arguments;
  CLI::App* demo = app.add_subcommand(
      "demo", "compare every grid algorithm on a generated map of rooms, corridors and terrain; draw it as SVG");
  configure_demo_command(*demo, demo_arguments);

  ServeArguments serve_arguments;
  CLI::App* serve = app.add_subcommand(
      "serve", "the web viewer: open worlds in a browser, click a start and a goal, watch searches, compare algorithms");
  configure_serve_command(*serve, serve_arguments);

  const bool json = asks_for_json(argc, argv);
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

  try {
    if (*path) return run_grid_path_command(path_arguments, std::cout, std::cerr);
    if (*bench) return run_grid_bench_command(bench_arguments, std::cout, std::cerr);
    if (*replan) return run_grid_replan_command(replan_arguments, std::cout, std::cerr);
    if (*preprocess) return run_grid_preprocess_command(preprocess_arguments, std::cout, std::cerr);
    if (*demo) return run_demo_command(demo_arguments, std::cout, std::cerr);
    if (*serve) return run_serve_command(serve_arguments, std::cout, std::cerr);
    if (*voxel_info) return run_voxel_info_command(voxel_info_arguments, std::cout, std::cerr);
    if (*voxel_path) return run_voxel_path_command(voxel_path_arguments, std::cout, std::cerr);
    if (*voxel_bench) return run_voxel_bench_command(voxel_bench_arguments, std::cout, std::cerr);
    if (*voxel_generate) return run_voxel_generate_command(voxel_generate_arguments, std::cout, std::cerr);
    if (*mesh_info) return run_mesh_info_command(mesh_info_arguments, std::cout, std::cerr);
    if (*mesh_path) return run_mesh_path_command(mesh_path_arguments, std::cout, std::cerr);
    if (*mesh_bench) return run_mesh_bench_command(mesh_bench_arguments, std::cout, std::cerr);
    if (*mesh_build) return run_mesh_build_command(mesh_build_arguments, std::cout, std::cerr);
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
  return exit_bad_input;  // not reached: a subcommand is required
}
