#pragma once
// `wayfinder mesh info FILE`: what a navigation mesh file holds once built: counts, regions,
// bounds, polygon sizes and the problems the build step repaired.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct MeshInfoArguments {
  std::string mesh_path;
  bool z_up = false;
  bool json = false;
};

void configure_mesh_info_command(CLI::App& command, MeshInfoArguments& arguments);

/// Returns 0; throws LoadError for unreadable or malformed files.
int run_mesh_info_command(const MeshInfoArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
