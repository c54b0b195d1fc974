#include "command_line_values.hpp"

#include <algorithm>
#include <charconv>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

#include "text_table.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"

namespace wayfinder::cli {
namespace {

constexpr DiagonalMode all_diagonal_modes[] = {DiagonalMode::never, DiagonalMode::at_least_one_walkable,
                                               DiagonalMode::only_if_no_obstacles, DiagonalMode::always};
constexpr Heuristic all_heuristics[] = {Heuristic::automatic, Heuristic::octile, Heuristic::euclidean,
                                        Heuristic::manhattan, Heuristic::chebyshev};

template <class Value, std::size_t N>
std::string joined_names(const Value (&values)[N]) {
  std::string names;
  for (const Value value : values) {
    if (!names.empty()) names += ", ";
    names += command_line_name(to_string(value));
  }
  return names;
}

/// An option taking one name of an enumeration: validated first (CLI11 runs validators before
/// the callback), then converted into `target`.
template <class Value, std::size_t N>
CLI::Option* add_named_value_option(CLI::App& command, const std::string& name, Value& target,
                                    const std::string& description, const Value (&values)[N],
                                    std::optional<Value> (*parse)(std::string_view), const std::string& type_name) {
  const std::string names = joined_names(values);
  CLI::Validator validator(
      [parse, names](std::string& input) -> std::string {
        if (parse(input)) return {};
        return "unknown value '" + input + "'; expected one of: " + names;
      },
      "", type_name);
  CLI::Option* option = command.add_option_function<std::string>(
      name, [&target, parse](const std::string& input) { target = *parse(input); }, description + " (" + names + ")");
  option->check(validator)->type_name(type_name)->default_str(command_line_name(to_string(target)));
  return option;
}

}  // namespace

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "a,b,c" and parses every part (spaces around it and a leading '+' allowed) as Number.
template <class Number>
std::optional<std::vector<Number>> parse_list(std::string_view text) {
  std::vector<Number> values;
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view part = trim(text.substr(0, comma));
    if (part.size() > 1 && part.front() == '+') part.remove_prefix(1);
    Number value{};
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc{} || end != part.data() + part.size()) return std::nullopt;
    if constexpr (std::is_floating_point_v<Number>) {
      if (!std::isfinite(value)) return std::nullopt;
    }
    values.push_back(value);
    if (comma == std::string_view::npos) return values;
    text.remove_prefix(comma + 1);
  }
}

/// "--max-expansions" of "--max-expansions,-m": the name messages use.
std::string long_name(const std::string& names) {
  std::size_t begin = 0;
  while (begin <= names.size()) {
    const std::size_t comma = std::min(names.find(',', begin), names.size());
    const std::string name = names.substr(begin, comma - begin);
    if (name.starts_with("--")) return name;
    begin = comma + 1;
  }
  return names;
}

/// The shortest text that reads back as the same number: "1", "0.5", "1e+300".
std::string shortest_text(double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : format_fixed(value, 6);
}

}  // namespace

std::optional<std::vector<int>> parse_integer_list(std::string_view text) { return parse_list<int>(text); }
std::optional<std::vector<double>> parse_number_list(std::string_view text) { return parse_list<double>(text); }

std::optional<Cell> parse_cell(std::string_view text) {
  const auto values = parse_integer_list(text);
  if (!values || values->size() != 2) return std::nullopt;
  return Cell{(*values)[0], (*values)[1]};
}

std::string format_cell(Cell cell) { return std::to_string(cell.x) + "," + std::to_string(cell.y); }

CLI::Option* add_cell_option(CLI::App& command, const std::string& name, Cell& target, const std::string& description) {
  CLI::Validator validator(
      [](std::string& input) -> std::string {
        if (parse_cell(input)) return {};
        return "expected a cell as X,Y with integer column X and row Y, got '" + input + "'";
      },
      "", "cell");
  CLI::Option* option = command.add_option_function<std::string>(
      name, [&target](const std::string& input) { target = *parse_cell(input); }, description);
  option->check(validator)->type_name("X,Y");
  return option;
}

CLI::Option* add_algorithm_option(CLI::App& command, const std::string& name, GridAlgorithm& target,
                                  const std::string& description) {
  // Every algorithm, the reactive walkers included: a single query shows what each does.
  return add_named_value_option(command, name, target, description, every_grid_algorithm, &parse_grid_algorithm,
                                "ALGORITHM");
}

CLI::Option* add_algorithm_list_option(CLI::App& command, const std::string& name, std::vector<GridAlgorithm>& target,
                                       const std::string& description) {
  // Splits "astar,jps" (or "all") into algorithms; nullopt names the first unknown word.
  auto parse_list = [](std::string_view text, std::vector<GridAlgorithm>& algorithms) -> std::optional<std::string> {
    algorithms.clear();
    if (trim(text) == "all") {
      algorithms.assign(std::begin(all_grid_algorithms), std::end(all_grid_algorithms));
      return std::nullopt;
    }
    while (true) {
      const std::size_t comma = text.find(',');
      const std::string_view word = trim(text.substr(0, comma));
      // Only the searches: the bench checks every answer against the optimum, which the
      // reactive walkers do not promise (they may not arrive at all).
      const std::optional<GridAlgorithm> algorithm = parse_grid_algorithm(word);
      if (!algorithm || is_reactive_walker(*algorithm)) return std::string(word);
      algorithms.push_back(*algorithm);
      if (comma == std::string_view::npos) return std::nullopt;
      text.remove_prefix(comma + 1);
    }
  };
  CLI::Validator validator(
      [parse_list](std::string& input) -> std::string {
        std::vector<GridAlgorithm> ignored;
        if (const std::optional<std::string> unknown = parse_list(input, ignored)) {
          const std::optional<GridAlgorithm> walker = parse_grid_algorithm(*unknown);
          if (walker && is_reactive_walker(*walker))
            return "'" + *unknown + "' is a reactive walker, not a search: the bench checks answers against the "
                   "optimum, which walkers do not promise (run it with grid path); expected all or a "
                   "comma-separated list of: " + algorithm_names();
          return "unknown algorithm '" + *unknown +
                 "'; expected all or a comma-separated list of: " + algorithm_names();
        }
        return {};
      },
      "", "ALGORITHMS");
  CLI::Option* option = command.add_option_function<std::string>(
      name, [&target, parse_list](const std::string& input) { parse_list(input, target); },
      description + " (all, or a comma-separated list of: " + algorithm_names() + ")");
  option->check(validator)->type_name("A[,A...]|all");
  return option;
}

CLI::Option* add_diagonal_option(CLI::App& command, const std::string& name, DiagonalMode& target,
                                 const std::string& description) {
  return add_named_value_option(command, name, target, description, all_diagonal_modes, &parse_diagonal_mode, "MODE");
}

CLI::Option* add_heuristic_option(CLI::App& command, const std::string& name, Heuristic& target,
                                  const std::string& description) {
  return add_named_value_option(command, name, target, description, all_heuristics, &parse_heuristic, "HEURISTIC");
}

namespace {

// Parsed here rather than by CLI11, whose conversion accepts "-1" for an unsigned value (as
// 2^64 - 1) and whose range messages print bounds like 1797...(309 digits).
std::uint64_t parse_whole_number(const std::string& flag, std::uint64_t minimum, std::uint64_t maximum,
                                 const std::string& input) {
  std::string_view text = trim(input);
  if (text.size() > 1 && text.front() == '+') text.remove_prefix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < minimum || value > maximum)
    throw CLI::ValidationError(flag + " must be a whole number from " + std::to_string(minimum) + " to " +
                               std::to_string(maximum) + ", got '" + input + "'");
  return value;
}

}  // namespace

CLI::Option* add_whole_number_option(CLI::App& command, const std::string& name, std::uint64_t& target,
                                     std::uint64_t minimum, std::uint64_t maximum, const std::string& description) {
  const std::string flag = long_name(name);
  return command
      .add_option_function<std::string>(
          name,
          [&target, flag, minimum, maximum](const std::string& input) {
            target = parse_whole_number(flag, minimum, maximum, input);
          },
          description)
      ->type_name("N");
}

CLI::Option* add_whole_number_option(CLI::App& command, const std::string& name, int& target, int minimum, int maximum,
                                     const std::string& description) {
  assert(0 <= minimum && minimum <= maximum);
  const std::string flag = long_name(name);
  const auto low = static_cast<std::uint64_t>(minimum), high = static_cast<std::uint64_t>(maximum);
  return command
      .add_option_function<std::string>(
          name,
          [&target, flag, low, high](const std::string& input) {
            target = static_cast<int>(parse_whole_number(flag, low, high, input));
          },
          description)
      ->type_name("N");
}

CLI::Option* add_required_file_argument(CLI::App& command, const std::string& name, std::string& target,
                                        const std::string& description) {
  return command.add_option(name, target, description)->required()->type_name("FILE");
}

CLI::Option* add_required_output_option(CLI::App& command, std::string& target, const std::string& description) {
  return command.add_option("-o,--output", target, description)->required()->type_name("FILE");
}

CLI::Option* add_grid_map_argument(CLI::App& command, std::string& target) {
  return add_required_file_argument(command, "MAP", target, "MovingAI .map file");
}

void add_grid_scenario_arguments(CLI::App& command, std::string& scenario_path, std::string& map_path) {
  add_required_file_argument(command, "SCEN", scenario_path, "MovingAI .scen file");
  command.add_option("--map", map_path, "the map (default: the scenario path minus .scen)")->type_name("FILE");
}

CLI::Option* add_query_limit_option(CLI::App& command, std::uint64_t& target) {
  return add_whole_number_option(command, "--limit", target, 1, std::numeric_limits<std::uint64_t>::max(),
                                 "read and run only the first N queries");
}

CLI::Option* add_json_flag(CLI::App& command, bool& target, JsonOutput output) {
  return command.add_flag("--json", target,
                          output == JsonOutput::one_per_algorithm ? "print one JSON object per algorithm, one per line"
                                                                  : "print one JSON object instead of text");
}

CLI::Option* add_grid_cluster_size_option(CLI::App& command, std::uint64_t& target) {
  return add_whole_number_option(command, "--cluster-size", target, 4, 256,
                                 "hpa: the side of the hierarchy's clusters in cells")
      ->type_name("C")
      ->default_str("16");
}

CLI::Option* add_grid_agent_size_option(CLI::App& command, std::uint64_t& target, const std::string& description) {
  return add_whole_number_option(command, "--agent-size", target, 1, max_clearance, description)->type_name("K");
}

CLI::Option* add_number_option(CLI::App& command, const std::string& name, double& target, double minimum,
                               const std::string& description) {
  const std::string flag = long_name(name);
  auto parse = [flag, minimum](const std::string& input) -> double {
    std::string_view text = trim(input);
    if (text.size() > 1 && text.front() == '+') text.remove_prefix(1);
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) ||
        value < minimum)
      throw CLI::ValidationError(flag + " must be a finite number of at least " + shortest_text(minimum) +
                                 ", got '" + input + "'");
    return value;
  };
  return command
      .add_option_function<std::string>(
          name, [&target, parse](const std::string& input) { target = parse(input); }, description)
      ->type_name("X")
      ->default_str(shortest_text(target));
}

void add_hidden_alias(CLI::App& command, CLI::Option& option, const std::string& old_name) {
  // The alias hands its value to the real option, which validates and stores it as if it had
  // been given under its own name; options run in the order they were added, so the real one
  // has already been counted when this runs.
  const std::string current = option.get_name();
  command
      .add_option_function<std::string>(
          old_name,
          [&option, old_name, current](const std::string& input) {
            if (option.count() > 0)
              throw CLI::ValidationError(old_name + " is the old spelling of " + current + "; give only one of them");
            option.add_result(input);
            option.run_callback();
          },
          "")
      ->group("");  // not listed in --help
}

std::string algorithm_names() { return joined_names(all_grid_algorithms); }

std::string command_line_name(std::string_view library_name) {
  std::string name(library_name);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string command_line_name(DiagonalMode mode) { return command_line_name(to_string(mode)); }

}  // namespace wayfinder::cli
