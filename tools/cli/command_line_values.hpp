#pragma once
// Command-line text to Wayfinder values. Each option gets a CLI11 validator, so that a bad value
// is a usage error (exit code 2) that names the option and lists what is accepted.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder::cli {

/// "A,B,..." (spaces and a '+' allowed before each) to integers or finite numbers; nullopt if
/// any part is not one.
std::optional<std::vector<int>> parse_integer_list(std::string_view text);
std::optional<std::vector<double>> parse_number_list(std::string_view text);

/// "X,Y" (spaces allowed around the numbers) to a cell; nullopt unless both are integers.
std::optional<Cell> parse_cell(std::string_view text);
/// "X,Y".
std::string format_cell(Cell cell);

/// `--name X,Y`, stored in `target`.
CLI::Option* add_cell_option(CLI::App& command, const std::string& name, Cell& target, const std::string& description);

/// `--name A` with one of the names of to_string(GridAlgorithm).
CLI::Option* add_algorithm_option(CLI::App& command, const std::string& name, GridAlgorithm& target,
                                  const std::string& description);
/// `--name all` or a comma-separated list of algorithm names.
CLI::Option* add_algorithm_list_option(CLI::App& command, const std::string& name, std::vector<GridAlgorithm>& target,
                                       const std::string& description);
CLI::Option* add_diagonal_option(CLI::App& command, const std::string& name, DiagonalMode& target,
                                 const std::string& description);
CLI::Option* add_heuristic_option(CLI::App& command, const std::string& name, Heuristic& target,
                                  const std::string& description);

/// `--name N`: a whole number from `minimum` to `maximum`, stored in `target`. Anything else
/// ("0", "-1", "1.5", a number past 2^64) is a usage error in words:
/// "--max-expansions must be a whole number from 1 to 18446744073709551615, got '0'".
CLI::Option* add_whole_number_option(CLI::App& command, const std::string& name, std::uint64_t& target,
                                     std::uint64_t minimum, std::uint64_t maximum, const std::string& description);
/// The same for a library setting held in an int (AgentSettings::tile_size, ...).
CLI::Option* add_whole_number_option(CLI::App& command, const std::string& name, int& target, int minimum, int maximum,
                                     const std::string& description);

/// A required positional file argument `name` (its value shown as FILE in --help), stored in
/// `target`: every command's input files are given this way.
CLI::Option* add_required_file_argument(CLI::App& command, const std::string& name, std::string& target,
                                        const std::string& description);

/// `-o,--output FILE`, the file a command writes (required), stored in `target`: every command
/// that writes one file names it this way; `description` says what is written there.
CLI::Option* add_required_output_option(CLI::App& command, std::string& target, const std::string& description);

/// The positional MAP of the grid commands that read one map (required), stored in `target`.
CLI::Option* add_grid_map_argument(CLI::App& command, std::string& target);

/// The positional SCEN of the grid commands that run a MovingAI scenario (required), and
/// `--map FILE`, the map it is on (empty: the scenario path minus .scen).
void add_grid_scenario_arguments(CLI::App& command, std::string& scenario_path, std::string& map_path);

/// `--limit N`: the bench commands read and run only the first N queries of their file.
CLI::Option* add_query_limit_option(CLI::App& command, std::uint64_t& target);

/// What `--json` prints in place of the text: one object for the whole run, or one object per
/// algorithm, one per line (the bench commands, which run several).
enum class JsonOutput : std::uint8_t { one_object, one_per_algorithm };
/// `--json`, the one spelling and help text of every command's JSON output, stored in `target`.
CLI::Option* add_json_flag(CLI::App& command, bool& target, JsonOutput output = JsonOutput::one_object);

/// `--cluster-size C`: hpa's cluster side in cells (GridSearchOptions::cluster_size), 4 to 256.
CLI::Option* add_grid_cluster_size_option(CLI::App& command, std::uint64_t& target);

/// `--agent-size K`: the agent's side in cells (GridSearchOptions::agent_size), 1 to
/// max_clearance; `description` says what the command does with it.
CLI::Option* add_grid_agent_size_option(CLI::App& command, std::uint64_t& target, const std::string& description);

/// `--name X`: a finite number of at least `minimum`, stored in `target`; otherwise a usage error
/// such as "--weight must be a finite number of at least 1, got 'nan'".
CLI::Option* add_number_option(CLI::App& command, const std::string& name, double& target, double minimum,
                               const std::string& description);

/// Gives `option` a second, older spelling that still works but is not shown in --help:
/// `old_name` sets the same value, and giving both spellings is a usage error.
void add_hidden_alias(CLI::App& command, CLI::Option& option, const std::string& old_name);

/// "bfs, dijkstra, ..." for help texts and messages.
std::string algorithm_names();

/// The one spelling of an option value on the command line: the library's names with dashes
/// for underscores ("only-if-no-obstacles").
std::string command_line_name(std::string_view library_name);
std::string command_line_name(DiagonalMode mode);

}  // namespace wayfinder::cli
