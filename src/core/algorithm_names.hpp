#pragma once
// The command-line names of a world's algorithms: one table per world, read both ways here
// (the grid's and the voxel world's to_string and parse functions).

#include <cstddef>
#include <optional>
#include <string_view>

namespace wayfinder {

template <class Algorithm>
struct AlgorithmName {
  Algorithm algorithm;
  std::string_view name;
};

/// The name of `algorithm` in `table`, or "unknown" for a value the table does not list.
template <class Algorithm, std::size_t N>
constexpr std::string_view algorithm_name(const AlgorithmName<Algorithm> (&table)[N], Algorithm algorithm) {
  for (const auto& entry : table)
    if (entry.algorithm == algorithm) return entry.name;
  return "unknown";
}

/// The algorithm `name` stands for in `table`, or nullopt.
template <class Algorithm, std::size_t N>
constexpr std::optional<Algorithm> parse_algorithm_name(const AlgorithmName<Algorithm> (&table)[N],
                                                        std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return entry.algorithm;
  return std::nullopt;
}

}  // namespace wayfinder
