// Fuzzes the MovingAI scenario reader: any bytes must either parse or throw LoadError, and
// every query that parses must keep the reader's promises.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wayfinder::Scenario scenario;
  try {
    scenario = wayfinder::parse_movingai_scenario(text, "fuzz.scen");
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.scen" || error.line() < 0 || error.column() < 0) std::abort();
    return 0;
  }
  for (const wayfinder::ScenarioQuery& query : scenario.queries) {
    if (query.map_width < 1 || query.map_height < 1 || query.bucket < 0) std::abort();
    if (query.start.x < 0 || query.start.y < 0 || query.goal.x < 0 || query.goal.y < 0) std::abort();
    if (query.start.x >= query.map_width || query.goal.x >= query.map_width) std::abort();
    if (query.start.y >= query.map_height || query.goal.y >= query.map_height) std::abort();
    if (!std::isfinite(query.optimal_length) || query.optimal_length < 0.0) std::abort();
    if (query.map_name.empty() || query.line < 2) std::abort();
  }
  // A scenario checked against a small map must either fit or say why not.
  try {
    wayfinder::GridMap map(4, 4);
    map.set_passable(1, 1, false);
    wayfinder::check_scenario_fits_map(scenario, map);
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty()) std::abort();
  }
  return 0;
}
