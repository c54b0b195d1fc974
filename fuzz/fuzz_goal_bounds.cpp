// Fuzzes the goal bounds reader: any bytes must either load as goal bounds of the fixed map below
// or throw LoadError naming the source and a cause, never crash, hang or trip a sanitizer.
// Bounds that load are searched with (JPS+ pruned by them), between every pair of a few cells;
// the answers need not be optimal (the bounds may be wrong yet well formed) but the searches must
// end. The seed corpus holds the bounds of this map as GridGoalBounds::save writes them.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "fuzz_grid_map.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const wayfinder::GridMap map = wayfinder::fuzz::fuzz_map();
  std::shared_ptr<const wayfinder::GridGoalBounds> bounds;
  try {
    bounds = std::make_shared<const wayfinder::GridGoalBounds>(
        wayfinder::GridGoalBounds::from_bytes(data, size, map, "fuzz.bounds"));
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.bounds") std::abort();
    return 0;
  }
  wayfinder::fuzz::search_with_goal_bounds(map, bounds);
  return 0;
}
