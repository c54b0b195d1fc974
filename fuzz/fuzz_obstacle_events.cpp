// Fuzzes the events file of `wayfinder mesh obstacles` (tools/cli/mesh/obstacle_events.cpp):
// any text must either parse or throw CommandError naming the file and the line ("FILE:LINE:
// why"), never crash, hang or trip a sanitizer. Events that parse are checked for what the
// command relies on: times finite, never negative and in order; every obstacle's numbers finite
// and its sizes not negative; removes naming an obstacle added before and not removed since.
// Built from the command's source with the target, since the fuzzer build leaves the tools out.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <variant>

#include "command_error.hpp"
#include "mesh/obstacle_events.hpp"

namespace {

bool finite(const wayfinder::Point& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

bool well_formed(const wayfinder::Obstacle& obstacle) {
  return std::visit(
      [](const auto& shape) {
        using Shape = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<Shape, wayfinder::CylinderObstacle>)
          return finite(shape.base) && shape.radius >= 0 && shape.height >= 0 && std::isfinite(shape.radius) &&
                 std::isfinite(shape.height);
        else if constexpr (std::is_same_v<Shape, wayfinder::BoxObstacle>)
          return finite(shape.min) && finite(shape.max) && shape.min.x <= shape.max.x && shape.min.y <= shape.max.y &&
                 shape.min.z <= shape.max.z;
        else
          return finite(shape.center) && finite(shape.half_extents) && shape.half_extents.x >= 0 &&
                 shape.half_extents.y >= 0 && shape.half_extents.z >= 0 && std::isfinite(shape.yaw_radians);
      },
      obstacle);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<wayfinder::cli::ObstacleEvent> events;
  try {
    events = wayfinder::cli::parse_obstacle_events(text, "fuzz.events");
  } catch (const wayfinder::cli::CommandError& error) {
    const std::string message = error.what();
    if (error.file() != "fuzz.events" || error.line() < 1 ||
        message.rfind("fuzz.events:" + std::to_string(error.line()) + ": ", 0) != 0)
      std::abort();
    return 0;
  }
  double previous = 0.0;
  std::set<std::string> present;
  for (const wayfinder::cli::ObstacleEvent& event : events) {
    if (!std::isfinite(event.seconds) || event.seconds < previous || event.line < 1) std::abort();
    previous = event.seconds;
    if (event.add) {
      if (!well_formed(event.obstacle) || !present.insert(event.name).second) std::abort();
    } else if (present.erase(event.name) != 1) {
      std::abort();
    }
    if (wayfinder::cli::describe_obstacle_event(event).empty()) std::abort();
  }
  return 0;
}
