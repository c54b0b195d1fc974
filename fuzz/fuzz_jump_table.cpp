// Fuzzes the JPS+ jump table reader: any bytes must either load as a table of the fixed map
// below or throw LoadError naming the source and a cause, never crash, hang or trip a sanitizer.
// A table that loads is searched with, between every pair of a few cells. The seed corpus holds
// the table of this map as GridJumpTable::save writes it.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "fuzz_grid_map.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/grid_query.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const wayfinder::GridMap map = wayfinder::fuzz::fuzz_map();
  std::shared_ptr<const wayfinder::GridJumpTable> table;
  try {
    table = std::make_shared<const wayfinder::GridJumpTable>(
        wayfinder::GridJumpTable::from_bytes(data, size, map, "fuzz.jump"));
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.jump") std::abort();
    return 0;
  }
  wayfinder::GridQuery pathfinder(map);
  pathfinder.set_jump_table(table);
  wayfinder::GridSearchOptions options;
  options.algorithm = wayfinder::GridAlgorithm::jump_point_plus;
  const wayfinder::Cell cells[] = {{0, 0}, {11, 9}, {5, 5}, {0, 9}, {11, 0}, {7, 3}};
  for (const wayfinder::Cell start : cells)
    for (const wayfinder::Cell goal : cells) {
      const wayfinder::PathResult result = pathfinder.find_path(start, goal, options);
      if (result.status == wayfinder::SearchStatus::invalid_input) std::abort();
    }
  return 0;
}
