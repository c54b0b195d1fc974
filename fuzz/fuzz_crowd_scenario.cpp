// Fuzzes the crowd scenario reader (tools/common/crowd_scenario.*): any bytes must either parse
// or throw LoadError naming the field at fault, a scenario that parses must keep within the
// reader's limits, and writing it back must read again.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/crowd_scenario.hpp"
#include "wayfinder/core/load_error.hpp"

namespace {

namespace limits = wayfinder::tools::crowd_scenario_limits;

wayfinder::tools::CrowdScenario read_or_abort_on_silence(const nlohmann::json& document) {
  try {
    return wayfinder::tools::crowd_scenario_from_json(document, "fuzz.json");
  } catch (const wayfinder::LoadError& error) {
    // Every refusal names the file and says why (the field first: "agents[0].radius: ...").
    if (error.cause().empty() || error.file() != "fuzz.json") std::abort();
    throw;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return 0;  // not JSON: read_crowd_scenario reports the parser's text
  }
  wayfinder::tools::CrowdScenario scenario;
  try {
    scenario = read_or_abort_on_silence(document);
  } catch (const wayfinder::LoadError&) {
    return 0;
  }
  if (scenario.steps < 1 || scenario.steps > limits::steps || scenario.agents.size() > limits::agents) std::abort();
  if (scenario.settings.threads < 1 || scenario.settings.threads > limits::threads) std::abort();
  if (scenario.settings.max_neighbours > limits::max_neighbours) std::abort();
  if (scenario.settings.collision_iterations > limits::collision_iterations) std::abort();
  if (!(scenario.dt > 0.0)) std::abort();
  for (const auto& polygon : scenario.geometry.polygons)
    for (const std::uint32_t index : polygon)
      if (index >= scenario.geometry.vertices.size()) std::abort();
  for (const wayfinder::tools::CrowdScenarioAgent& agent : scenario.agents)
    if (agent.settings.problem() || !(agent.start_time >= 0.0)) std::abort();
  if (scenario.settings.problem()) std::abort();
  // What the writer makes of a scenario the reader accepted, the reader accepts again.
  try {
    const wayfinder::tools::CrowdScenario again =
        wayfinder::tools::crowd_scenario_from_json(wayfinder::tools::crowd_scenario_to_json(scenario), "fuzz.json");
    if (again.agents.size() != scenario.agents.size() || again.steps != scenario.steps) std::abort();
  } catch (const wayfinder::LoadError&) {
    std::abort();
  }
  return 0;
}
