// Fuzzes the goal bounds' part reader (WFGOALP, GridGoalBoundsPart::from_bytes): any bytes must
// either load or throw LoadError naming the source, a cause and the byte it concerns, never crash,
// hang or trip a sanitizer. A part that loads is written again (the same bytes) and merged with
// the fixed map below; a merge either refuses it in words (another map, cells missing) or gives
// bounds that JPS+ searches with, between every pair of a few cells. The seed corpus holds parts
// of this map as GridGoalBoundsPart::save writes them, the whole range and a slice.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_grid_map.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const wayfinder::GridMap map = wayfinder::fuzz::fuzz_map();
  std::vector<wayfinder::GridGoalBoundsPart> parts;
  try {
    parts.push_back(wayfinder::GridGoalBoundsPart::from_bytes(data, size, "fuzz.part"));
  } catch (const wayfinder::LoadError& error) {
    if (error.file() != "fuzz.part" || error.cause().find("(at byte ") == std::string::npos) std::abort();
    return 0;
  }
  // What loads is written back as it was read.
  const std::vector<unsigned char> again = parts.front().to_bytes();
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  std::shared_ptr<const wayfinder::GridGoalBounds> bounds;
  try {
    bounds = std::make_shared<const wayfinder::GridGoalBounds>(wayfinder::GridGoalBounds::merge(parts, map));
  } catch (const std::invalid_argument& error) {
    if (std::string(error.what()).empty()) std::abort();
    return 0;
  }
  wayfinder::fuzz::search_with_goal_bounds(map, bounds);
  return 0;
}
