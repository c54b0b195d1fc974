#include "wayfinder/grid/world/grid_rules.hpp"

#include <string>

namespace wayfinder {

namespace {
std::string normalised(std::string_view name) {
  std::string text(name);
  for (char& c : text) {
    if (c == '-') c = '_';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}
}  // namespace

std::string_view to_string(DiagonalMode mode) {
  switch (mode) {
    case DiagonalMode::never: return "never";
    case DiagonalMode::at_least_one_walkable: return "at_least_one_walkable";
    case DiagonalMode::only_if_no_obstacles: return "only_if_no_obstacles";
    case DiagonalMode::always: return "always";
  }
  return "unknown";
}

std::string_view to_string(Heuristic heuristic) {
  switch (heuristic) {
    case Heuristic::automatic: return "automatic";
    case Heuristic::octile: return "octile";
    case Heuristic::euclidean: return "euclidean";
    case Heuristic::manhattan: return "manhattan";
    case Heuristic::chebyshev: return "chebyshev";
  }
  return "unknown";
}

std::optional<DiagonalMode> parse_diagonal_mode(std::string_view name) {
  const std::string text = normalised(name);
  for (DiagonalMode mode : {DiagonalMode::never, DiagonalMode::at_least_one_walkable, DiagonalMode::only_if_no_obstacles,
                            DiagonalMode::always})
    if (text == to_string(mode)) return mode;
  return std::nullopt;
}

std::optional<Heuristic> parse_heuristic(std::string_view name) {
  const std::string text = normalised(name);
  for (Heuristic heuristic : {Heuristic::automatic, Heuristic::octile, Heuristic::euclidean, Heuristic::manhattan,
                              Heuristic::chebyshev})
    if (text == to_string(heuristic)) return heuristic;
  return std::nullopt;
}

}  // namespace wayfinder
