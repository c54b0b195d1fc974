#pragma once
// Process exit codes of the `wayfinder` command, and the one way it reports an error.

#include <ostream>
#include <string_view>

namespace wayfinder::cli {

enum ExitStatus : int {
  exit_ok = 0,
  /// No path was found (path), or a result disagreed with a check (bench, demo).
  exit_no_path = 1,
  /// Bad input or usage: unreadable or malformed files, bad options, an invalid query.
  exit_bad_input = 2,
  /// The machine could not give the memory the command asked for (std::bad_alloc).
  exit_out_of_memory = 3,
};

/// Writes "wayfinder: <message>" on its own line, the form every error takes.
inline void report_error(std::ostream& err, std::string_view message) { err << "wayfinder: " << message << '\n'; }

}  // namespace wayfinder::cli
