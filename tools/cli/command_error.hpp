#pragma once
// How the `wayfinder` command reports an error: one line "wayfinder: <message>" on standard
// error, or, when --json was asked for, one JSON object on standard output, so that a script
// reads one format whatever happens:
//
//   {"error": "arena.map:7:12: unexpected character 'x'", "file": "arena.map", "line": 7, "column": 12, "exit": 2}
//
// "file", "line" and "column" are null when the error has none (a usage error, a line 0).

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "exit_status.hpp"

namespace wayfinder::cli {

/// An error a command finds after its arguments were parsed (an invalid query, a scenario made
/// for another map); main() reports it and exits with `exit_code`.
class CommandError : public std::runtime_error {
 public:
  explicit CommandError(const std::string& message, std::string file = {}, int line = 0,
                        int exit_code = exit_bad_input)
      : std::runtime_error(message), file_(std::move(file)), line_(line), exit_code_(exit_code) {}

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] int exit_code() const { return exit_code_; }

 private:
  std::string file_;
  int line_;
  int exit_code_;
};

struct ErrorReport {
  std::string message;
  std::string file;  ///< empty: none
  int line = 0;      ///< 0: none
  int column = 0;    ///< 0: none
  int exit_code = exit_bad_input;
};

/// Writes the error as text on `err` or, with `json`, as one JSON object on `out`.
void report(const ErrorReport& error, bool json, std::ostream& out, std::ostream& err);

/// Whether the command line asks for JSON output: a `--json` flag before any `--`. Looked at
/// before parsing, so that even a usage error can be reported as JSON.
bool asks_for_json(int argc, const char* const* argv);

}  // namespace wayfinder::cli
