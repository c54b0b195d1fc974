#pragma once
// `wayfinder mesh build LEVEL.obj -o NAVMESH.obj [agent, voxel and tile options] [--z-up] [--json]`:
// builds the navigation mesh of a level's geometry with Recast (wayfinder::navmesh_build) and
// writes it as OBJ, readable back by `mesh path`, `mesh bench` and `mesh info`. Built only with
// Recast (librecast-dev); without it the command says so and exits with 2.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "mesh/level_build_options.hpp"

namespace wayfinder::cli {

struct MeshBuildArguments {
  std::string level_path;
  std::string output_path;
  AgentSettings build;
  bool z_up = false;
  bool json = false;
};

void configure_mesh_build_command(CLI::App& command, MeshBuildArguments& arguments);

/// Returns 0; throws LoadError for an unreadable level and CommandError for bad settings or a
/// file that cannot be written.
int run_mesh_build_command(const MeshBuildArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
