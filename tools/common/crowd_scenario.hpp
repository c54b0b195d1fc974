#pragma once
// Crowd scenarios: a navigation mesh (a file, or polygons given in the scenario) or a grid (a
// MovingAI .map file), the crowd's
// settings and the agents (start, goal, body, start time), read from and written to JSON
// (docs/crowds.md, "Scenario files"), and the generator of the standard scenarios.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wayfinder/core/types.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder::tools {

struct CrowdScenarioAgent {
  Point start;
  Point goal;
  /// Points the agent walks to in turn before `goal` (each counts as reached when the agent
  /// arrives there); empty for most scenarios.
  std::vector<Point> via;
  CrowdAgentSettings settings;
  double start_time = 0.0;  ///< seconds; the agent stands at its start until then
};

struct CrowdScenario {
  /// The mesh file (relative paths are taken from the scenario file's folder), or empty when the
  /// mesh is given in the scenario (`geometry`).
  std::filesystem::path mesh_file;
  MeshGeometry geometry;
  /// The grid (a MovingAI .map; relative paths as the mesh's), or empty for a mesh. On a grid,
  /// points are (column, 0, row) in cell units.
  std::filesystem::path grid_file;
  /// How a crowd on the grid searches its paths ("grid_algorithm": "astar" or "jps").
  GridCrowdOptions grid_options;
  double dt = 0.1;
  std::size_t steps = 600;
  /// Agents leave the crowd once they arrive at their goal (as in SteerSuite, where an agent
  /// that has met its last goal is removed), and the run ends when every agent has left.
  bool leave_on_arrival = false;
  CrowdSettings settings;
  std::vector<CrowdScenarioAgent> agents;
};

/// The most a scenario file may ask for; larger values are refused as malformed.
namespace crowd_scenario_limits {
inline constexpr std::size_t agents = 1'000'000;
inline constexpr std::size_t steps = 10'000'000;
inline constexpr std::size_t threads = 256;
inline constexpr std::size_t max_neighbours = 1'000;
inline constexpr std::size_t collision_iterations = 1'000;
inline constexpr std::size_t via_points = 1'000;  ///< per agent
}  // namespace crowd_scenario_limits

/// Reads a scenario file. Throws LoadError naming the file and the field at fault
/// ("agents[3].radius: must be a number > 0").
CrowdScenario read_crowd_scenario(const std::filesystem::path& file);
/// The same from JSON already parsed; `source` names it in errors.
CrowdScenario crowd_scenario_from_json(const nlohmann::json& document, const std::string& source);
nlohmann::json crowd_scenario_to_json(const CrowdScenario& scenario);

/// The standard scenarios: circle, doorway, hallway, bottleneck, random, crossing, overtaking,
/// floors (docs/crowds.md, "Scenario files and the command").
enum class CrowdScenarioKind { circle, doorway, hallway, bottleneck, random, crossing, overtaking, floors };
std::optional<CrowdScenarioKind> parse_crowd_scenario_kind(std::string_view name);
std::string_view to_string(CrowdScenarioKind kind);
/// The kinds' names, comma-separated, the last after "or" ("circle, doorway, ... or floors").
std::string crowd_scenario_kind_list();
/// The fewest agents a kind can be made with: one a side for crossing, a slow and a fast agent
/// for overtaking, one a floor for floors; 1 for the others.
std::size_t minimum_crowd_scenario_agents(CrowdScenarioKind kind);

/// In `overtaking`, the slow agents' max speed as a fraction of the request's.
inline constexpr double overtaking_slow_speed_fraction = 0.5;
/// In `floors`, how far the upper floor lies above the lower one (agents 2 tall by default).
inline constexpr double floors_spacing = 4.0;

struct CrowdScenarioRequest {
  CrowdScenarioKind kind = CrowdScenarioKind::circle;
  std::size_t agents = 40;
  std::uint64_t seed = 1;
  double radius = 0.4;
  double max_speed = 1.5;
  /// For `random`: the mesh the agents walk on (its file, kept in the scenario); empty: a flat
  /// square sized for the agents.
  std::filesystem::path mesh_file;
  /// For `random` on a mesh file: the mesh itself (the caller loads it).
  const MeshGeometry* mesh = nullptr;
};

/// Builds a standard scenario. The open-ground ones lie on flat meshes of square cells made
/// here: a square (circle, random, crossing), two rooms joined by a doorway, a hallway, a room
/// with a narrow exit (bottleneck), a long corridor (overtaking), a hallway on each of two
/// floors stacked over the same ground (floors). Starts and goals are at least a diameter
/// apart. Throws std::invalid_argument when request.agents is below
/// minimum_crowd_scenario_agents(request.kind).
CrowdScenario generate_crowd_scenario(const CrowdScenarioRequest& request);

/// A flat floor at height y of `columns` x `rows` square cells of side `cell` from (x0, z0),
/// with the cells for which walkable(column, row) is true (shared corners, so shared edges).
template <class Walkable>
MeshGeometry cell_floor(std::size_t columns, std::size_t rows, double cell, double x0, double z0, double y,
                        Walkable&& walkable) {
  MeshGeometry geometry;
  for (std::size_t r = 0; r <= rows; ++r)
    for (std::size_t c = 0; c <= columns; ++c)
      geometry.vertices.push_back({x0 + static_cast<double>(c) * cell, y, z0 + static_cast<double>(r) * cell});
  const auto corner = [&](std::size_t c, std::size_t r) { return static_cast<std::uint32_t>(r * (columns + 1) + c); };
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < columns; ++c)
      if (walkable(c, r)) geometry.polygons.push_back({corner(c, r), corner(c + 1, r), corner(c + 1, r + 1), corner(c, r + 1)});
  return geometry;
}

/// Adds `more`'s vertices, polygons and flags to `into`, unjoined (e.g. a floor stacked over
/// another); when only one of them has flags, the other's polygons get flag 0.
inline void append_geometry(MeshGeometry& into, const MeshGeometry& more) {
  const auto offset = static_cast<std::uint32_t>(into.vertices.size());
  into.vertices.insert(into.vertices.end(), more.vertices.begin(), more.vertices.end());
  for (std::vector<std::uint32_t> polygon : more.polygons) {
    for (std::uint32_t& index : polygon) index += offset;
    into.polygons.push_back(std::move(polygon));
  }
  if (!into.polygon_flags.empty() || !more.polygon_flags.empty()) {
    into.polygon_flags.resize(into.polygons.size() - more.polygons.size(), 0);
    into.polygon_flags.insert(into.polygon_flags.end(), more.polygon_flags.begin(), more.polygon_flags.end());
    into.polygon_flags.resize(into.polygons.size(), 0);
  }
}

}  // namespace wayfinder::tools
