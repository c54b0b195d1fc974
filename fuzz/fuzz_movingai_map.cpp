// Fuzzes the MovingAI map reader: any bytes must either parse or throw LoadError, never crash,
// hang or trip a sanitizer. A map that parses is searched once, to exercise the grid as built.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wayfinder::GridMap map;
  try {
    map = wayfinder::parse_movingai_map(text, "fuzz.map");
  } catch (const wayfinder::LoadError& error) {
    // An error must say where and why.
    if (error.cause().empty() || error.file() != "fuzz.map") std::abort();
    return 0;
  }
  if (map.width() < 1 || map.height() < 1) std::abort();

  // Search between the first and the last passable cell, with an algorithm and diagonal mode
  // picked from the input so that every combination gets exercised.
  wayfinder::Cell first{-1, -1};
  wayfinder::Cell last{-1, -1};
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (map.passable(x, y)) {
        if (first.x < 0) first = {x, y};
        last = {x, y};
      }
  if (first.x < 0) return 0;
  const std::size_t algorithm_count = std::size(wayfinder::all_grid_algorithms);
  wayfinder::GridSearchOptions options;
  options.algorithm = wayfinder::all_grid_algorithms[size % algorithm_count];
  options.diagonal = static_cast<wayfinder::DiagonalMode>((size / algorithm_count) % 4);
  options.budget.max_expansions = 100'000;  // IDA* on an open map could otherwise run for long
  wayfinder::GridQuery pathfinder(map, wayfinder::build_grid_derived_data(map, options));
  const wayfinder::PathResult result = pathfinder.find_path(first, last, options);
  if (result.found()) {
    const wayfinder::GridPathCheck check = wayfinder::check_grid_path(map, result.nodes, options.diagonal);
    if (!check.valid) std::abort();
  }
  return 0;
}
