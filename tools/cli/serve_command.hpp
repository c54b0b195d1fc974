#pragma once
// `wayfinder serve [--port P] [--host H] [FILES...]`: the web viewer. Loads the world files
// named (MovingAI .map, .obj or .mesh navigation meshes, .vox or .3dmap voxel worlds; a
// generated grid of rooms when none is named), prints the page's address and serves until
// stopped. Built only with cpp-httplib; without it the command says so and exits with 2.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace wayfinder::cli {

struct ServeArguments {
  std::vector<std::string> files;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::uint64_t threads = 8;
};

void configure_serve_command(CLI::App& command, ServeArguments& arguments);

/// Serves until the process is stopped; returns 2 when the server cannot start (the port is
/// taken, a file does not load, or this build has no viewer).
int run_serve_command(const ServeArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
