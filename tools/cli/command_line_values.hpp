#pragma once
// Command-line text to Wayfinder values. Each option gets a CLI11 validator, so that a bad value
// is a usage error (exit code 2) that names the option and lists what is accepted.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/grid/grid_map.hpp"
#include "wayfinder/grid/grid_pathfinder.hpp"
#include "wayfinder/grid/grid_rules.hpp"

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

/// Accepts a finite number >= minimum (mention the bound in the option's description).
CLI::Validator at_least(double minimum);

/// "bfs, dijkstra, ..." for help texts and messages.
std::string algorithm_names();

}  // namespace wayfinder::cli
