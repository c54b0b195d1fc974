#pragma once
// `wayfinder demo`: every grid algorithm on a generated map of rooms, corridors and terrain,
// compared in a table and drawn as an SVG picture. Needs no data files.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace wayfinder::cli {

struct DemoArguments {
  std::string out_directory;  ///< empty: the current directory
  std::uint64_t seed = 1;
};

void configure_demo_command(CLI::App& command, DemoArguments& arguments);

/// Returns 0, or 1 if some path failed its check; throws std::runtime_error if the picture
/// cannot be written.
int run_demo_command(const DemoArguments& arguments, std::ostream& out, std::ostream& err);

}  // namespace wayfinder::cli
