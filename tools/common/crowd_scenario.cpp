#include "common/crowd_scenario.hpp"

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <stdexcept>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/surface_queries.hpp"

namespace wayfinder::tools {
namespace {

using nlohmann::json;

/// Reads the fields of one JSON object, naming the field in every error.
class Fields {
 public:
  Fields(const json& object, std::string path, const std::string& source) : object_(object), path_(std::move(path)), source_(source) {
    if (!object_.is_object()) fail("", "must be an object");
  }
  [[noreturn]] void fail(const std::string& field, const std::string& cause) const {
    throw LoadError(source_, 0, 0, name(field) + ": " + cause);
  }
  [[nodiscard]] std::string name(const std::string& field) const {
    return path_.empty() ? field : field.empty() ? path_ : path_ + "." + field;
  }
  [[nodiscard]] bool has(const char* field) const { return object_.contains(field); }
  [[nodiscard]] double number(const char* field, double fallback, double minimum, bool strictly) const {
    if (!object_.contains(field)) return fallback;
    const json& value = object_.at(field);
    if (!value.is_number()) fail(field, "must be a number");
    const double read = value.get<double>();
    if (!std::isfinite(read) || read < minimum || (strictly && read == minimum))
      fail(field, std::string("must be a finite number ") + (strictly ? "> " : ">= ") + std::to_string(minimum));
    return read;
  }
  /// A whole number in [minimum, maximum]: the upper bounds keep a malformed file from asking
  /// for billions of steps, threads or neighbours (a run that never ends, or a huge allocation).
  [[nodiscard]] std::size_t count(const char* field, std::size_t fallback, std::size_t minimum, std::size_t maximum) const {
    if (!object_.contains(field)) return fallback;
    const json& value = object_.at(field);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() < minimum || value.get<std::uint64_t>() > maximum)
      fail(field, "must be a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum));
    return static_cast<std::size_t>(value.get<std::uint64_t>());
  }
  [[nodiscard]] bool flag(const char* field, bool fallback) const {
    if (!object_.contains(field)) return fallback;
    if (!object_.at(field).is_boolean()) fail(field, "must be true or false");
    return object_.at(field).get<bool>();
  }
  [[nodiscard]] Point point(const char* field) const {
    if (!object_.contains(field)) fail(field, "is missing");
    return point_value(object_.at(field), field);
  }
  /// An optional array of at most `limit` points (none when the field is left out).
  [[nodiscard]] std::vector<Point> points(const char* field, std::size_t limit) const {
    std::vector<Point> read;
    if (!object_.contains(field)) return read;
    const json& value = object_.at(field);
    if (!value.is_array() || value.size() > limit)
      fail(field, "must be an array of at most " + std::to_string(limit) + " points");
    for (std::size_t i = 0; i < value.size(); ++i)
      read.push_back(point_value(value[i], std::string(field) + "[" + std::to_string(i) + "]"));
    return read;
  }
  [[nodiscard]] Point point_value(const json& value, const std::string& field) const {
    if (!value.is_array() || value.size() != 3) fail(field, "must be a point [x, y, z]");
    Point p;
    double* parts[] = {&p.x, &p.y, &p.z};
    for (std::size_t k = 0; k < 3; ++k) {
      if (!value[k].is_number() || !std::isfinite(value[k].get<double>())) fail(field, "must be a point of three finite numbers");
      *parts[k] = value[k].get<double>();
    }
    return p;
  }
  [[nodiscard]] const json& at(const char* field) const { return object_.at(field); }

 private:
  const json& object_;
  std::string path_;
  const std::string& source_;
};

json point_json(const Point& p) { return json::array({p.x, p.y, p.z}); }

MeshGeometry geometry_from_json(const json& mesh, const std::string& source) {
  const Fields fields(mesh, "mesh", source);
  MeshGeometry geometry;
  if (!fields.has("vertices") || !mesh.at("vertices").is_array()) fields.fail("vertices", "must be an array of points");
  if (!fields.has("polygons") || !mesh.at("polygons").is_array()) fields.fail("polygons", "must be an array of index lists");
  const json& vertices = mesh.at("vertices");
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const json holder = {{"v", vertices[i]}};
    geometry.vertices.push_back(Fields(holder, "mesh.vertices[" + std::to_string(i) + "]", source).point("v"));
  }
  const json& polygons = mesh.at("polygons");
  for (std::size_t i = 0; i < polygons.size(); ++i) {
    const std::string where = "polygons[" + std::to_string(i) + "]";
    if (!polygons[i].is_array() || polygons[i].size() < 3) fields.fail(where, "must list at least 3 vertex indices");
    std::vector<std::uint32_t> polygon;
    for (const json& index : polygons[i]) {
      if (!index.is_number_unsigned() || index.get<std::size_t>() >= geometry.vertices.size())
        fields.fail(where, "vertex indices must be whole numbers below the vertex count " + std::to_string(geometry.vertices.size()));
      polygon.push_back(index.get<std::uint32_t>());
    }
    geometry.polygons.push_back(std::move(polygon));
  }
  if (fields.has("flags")) {
    const json& flags = mesh.at("flags");
    if (!flags.is_array() || flags.size() != geometry.polygons.size())
      fields.fail("flags", "must hold one number per polygon");
    for (const json& flag : flags) {
      if (!flag.is_number_unsigned() || flag.get<std::size_t>() > 0xffff) fields.fail("flags", "must be whole numbers below 65536");
      geometry.polygon_flags.push_back(flag.get<AreaFlags>());
    }
  }
  return geometry;
}

void read_settings(const Fields& fields, CrowdSettings& settings) {
  settings.threads = fields.count("threads", settings.threads, 1, crowd_scenario_limits::threads);
  settings.time_horizon = fields.number("time_horizon", settings.time_horizon, 0.0, true);
  settings.wall_time_horizon = fields.number("wall_time_horizon", settings.wall_time_horizon, 0.0, true);
  settings.neighbour_distance = fields.number("neighbour_distance", settings.neighbour_distance, 0.0, true);
  settings.max_neighbours = fields.count("max_neighbours", settings.max_neighbours, 1, crowd_scenario_limits::max_neighbours);
  settings.collision_iterations = fields.count("collision_iterations", settings.collision_iterations, 0,
                                               crowd_scenario_limits::collision_iterations);
  settings.stuck_time = fields.number("stuck_time", settings.stuck_time, 0.0, true);
  settings.wall_clearance = fields.number("wall_clearance", settings.wall_clearance, 0.0, false);
}

CrowdScenarioAgent agent_from_json(const json& object, std::size_t index, const std::string& source) {
  const Fields fields(object, "agents[" + std::to_string(index) + "]", source);
  CrowdScenarioAgent agent;
  agent.start = fields.point("start");
  agent.goal = fields.point("goal");
  agent.via = fields.points("via", crowd_scenario_limits::via_points);
  CrowdAgentSettings& body = agent.settings;
  body.radius = fields.number("radius", body.radius, 0.0, true);
  body.height = fields.number("height", body.height, 0.0, true);
  body.max_speed = fields.number("max_speed", body.max_speed, 0.0, false);
  body.max_acceleration = fields.number("max_acceleration", body.max_acceleration, 0.0, true);
  body.avoidance_priority = fields.number("priority", body.avoidance_priority, 0.0, false);
  body.arrival_radius = fields.number("arrival_radius", body.arrival_radius, 0.0, false);
  agent.start_time = fields.number("start_time", 0.0, 0.0, false);
  return agent;
}

}  // namespace

CrowdScenario crowd_scenario_from_json(const json& document, const std::string& source) {
  const Fields fields(document, "", source);
  CrowdScenario scenario;
  if (fields.has("grid")) {
    if (fields.has("mesh")) fields.fail("grid", "a scenario has a mesh or a grid, not both");
    if (!document.at("grid").is_string() || document.at("grid").get<std::string>().empty())
      fields.fail("grid", "must be the name of a MovingAI .map file");
    scenario.grid_file = document.at("grid").get<std::string>();
    if (fields.has("grid_algorithm")) {
      const json& algorithm = document.at("grid_algorithm");
      const std::string name = algorithm.is_string() ? algorithm.get<std::string>() : "";
      if (name == "jps")
        scenario.grid_options.algorithm = GridAlgorithm::jump_point;
      else if (name != "astar")
        fields.fail("grid_algorithm", "must be \"astar\" or \"jps\"");
    }
  } else {
    if (!fields.has("mesh"))
      fields.fail("mesh", "is missing (a file name, or {\"vertices\": ..., \"polygons\": ...}; or a \"grid\")");
    const json& mesh = document.at("mesh");
    if (mesh.is_string())
      scenario.mesh_file = mesh.get<std::string>();
    else
      scenario.geometry = geometry_from_json(mesh, source);
  }
  scenario.dt = fields.number("dt", scenario.dt, 0.0, true);
  scenario.steps = fields.count("steps", scenario.steps, 1, crowd_scenario_limits::steps);
  scenario.leave_on_arrival = fields.flag("leave_on_arrival", false);
  if (fields.has("settings")) read_settings(Fields(document.at("settings"), "settings", source), scenario.settings);
  if (!fields.has("agents") || !document.at("agents").is_array()) fields.fail("agents", "must be an array of agents");
  const json& agents = document.at("agents");
  if (agents.size() > crowd_scenario_limits::agents)
    fields.fail("agents", "must hold at most " + std::to_string(crowd_scenario_limits::agents) + " agents");
  for (std::size_t i = 0; i < agents.size(); ++i) scenario.agents.push_back(agent_from_json(agents[i], i, source));
  return scenario;
}

CrowdScenario read_crowd_scenario(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw LoadError(file.string(), 0, 0, "cannot open the scenario file");
  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error& error) {
    throw LoadError(file.string(), 0, 0, std::string("not valid JSON: ") + error.what());
  }
  CrowdScenario scenario = crowd_scenario_from_json(document, file.string());
  if (!scenario.mesh_file.empty() && scenario.mesh_file.is_relative())
    scenario.mesh_file = file.parent_path() / scenario.mesh_file;
  if (!scenario.grid_file.empty() && scenario.grid_file.is_relative())
    scenario.grid_file = file.parent_path() / scenario.grid_file;
  return scenario;
}

json crowd_scenario_to_json(const CrowdScenario& scenario) {
  json document;
  if (!scenario.grid_file.empty()) {
    document["grid"] = scenario.grid_file.string();
    document["grid_algorithm"] = scenario.grid_options.algorithm == GridAlgorithm::jump_point ? "jps" : "astar";
  } else if (!scenario.mesh_file.empty()) {
    document["mesh"] = scenario.mesh_file.string();
  } else {
    json vertices = json::array(), polygons = json::array();
    for (const Point& v : scenario.geometry.vertices) vertices.push_back(point_json(v));
    for (const auto& polygon : scenario.geometry.polygons) polygons.push_back(polygon);
    document["mesh"] = {{"vertices", vertices}, {"polygons", polygons}};
    if (!scenario.geometry.polygon_flags.empty()) document["mesh"]["flags"] = scenario.geometry.polygon_flags;
  }
  document["dt"] = scenario.dt;
  document["steps"] = scenario.steps;
  if (scenario.leave_on_arrival) document["leave_on_arrival"] = true;
  const CrowdSettings& s = scenario.settings;
  document["settings"] = {{"time_horizon", s.time_horizon},          {"wall_time_horizon", s.wall_time_horizon},
                          {"neighbour_distance", s.neighbour_distance}, {"max_neighbours", s.max_neighbours},
                          {"collision_iterations", s.collision_iterations}, {"stuck_time", s.stuck_time},
                          {"wall_clearance", s.wall_clearance}};
  json agents = json::array();
  for (const CrowdScenarioAgent& agent : scenario.agents) {
    const CrowdAgentSettings& b = agent.settings;
    agents.push_back({{"start", point_json(agent.start)}, {"goal", point_json(agent.goal)}, {"radius", b.radius},
                      {"height", b.height}, {"max_speed", b.max_speed}, {"max_acceleration", b.max_acceleration},
                      {"priority", b.avoidance_priority}, {"arrival_radius", b.arrival_radius},
                      {"start_time", agent.start_time}});
    if (!agent.via.empty()) {
      json via = json::array();
      for (const Point& p : agent.via) via.push_back(point_json(p));
      agents.back()["via"] = via;
    }
  }
  document["agents"] = agents;
  return document;
}

namespace {

constexpr std::string_view kind_names[] = {"circle", "doorway", "hallway", "bottleneck", "random", "crossing", "overtaking", "floors"};

}  // namespace

std::string crowd_scenario_kind_list() {
  std::string list;
  for (std::size_t k = 0; k < std::size(kind_names); ++k)
    list += std::string(k == 0 ? "" : k + 1 == std::size(kind_names) ? " or " : ", ") + std::string(kind_names[k]);
  return list;
}

std::size_t minimum_crowd_scenario_agents(CrowdScenarioKind kind) {
  switch (kind) {
    case CrowdScenarioKind::crossing: return 4;
    case CrowdScenarioKind::overtaking:
    case CrowdScenarioKind::floors: return 2;
    default: return 1;
  }
}

std::optional<CrowdScenarioKind> parse_crowd_scenario_kind(std::string_view name) {
  for (std::size_t k = 0; k < std::size(kind_names); ++k)
    if (kind_names[k] == name) return static_cast<CrowdScenarioKind>(k);
  return std::nullopt;
}
std::string_view to_string(CrowdScenarioKind kind) { return kind_names[static_cast<std::size_t>(kind)]; }

namespace {

CrowdScenarioAgent make_agent(const CrowdScenarioRequest& request, Point start, Point goal) {
  CrowdScenarioAgent agent;
  agent.start = start;
  agent.goal = goal;
  agent.settings.radius = request.radius;
  agent.settings.max_speed = request.max_speed;
  return agent;
}

/// Places `count` agents `spacing` apart in a block: columns across z from z0 up to z1 (as many
/// rows as fit), starting at x and going `direction` (+1 or -1) along x for as many columns as
/// the count needs.
std::vector<Point> block_of(std::size_t count, double x, double direction, double z0, double z1, double spacing) {
  std::vector<Point> points;
  const std::size_t rows = std::max<std::size_t>(1, static_cast<std::size_t>((z1 - z0) / spacing));
  for (std::size_t i = 0; i < count; ++i) {
    const double column = static_cast<double>(i / rows), row = static_cast<double>(i % rows);
    points.push_back({x + direction * spacing * (0.5 + column), 0.0, z0 + spacing * (0.5 + row)});
  }
  return points;
}

/// How far a block of block_of reaches along x from its start.
double block_length(std::size_t count, double z0, double z1, double spacing) {
  const std::size_t rows = std::max<std::size_t>(1, static_cast<std::size_t>((z1 - z0) / spacing));
  return spacing * static_cast<double>((count + rows - 1) / rows);
}

}  // namespace

CrowdScenario generate_crowd_scenario(const CrowdScenarioRequest& request) {
  if (request.agents < minimum_crowd_scenario_agents(request.kind))
    throw std::invalid_argument("the " + std::string(to_string(request.kind)) + " scenario needs at least " +
                                std::to_string(minimum_crowd_scenario_agents(request.kind)) + " agents");
  CrowdScenario scenario;
  const double diameter = 2.0 * request.radius;
  const double spacing = 3.0 * request.radius;  // a diameter and a half between centres
  const std::size_t n = request.agents;
  switch (request.kind) {
    case CrowdScenarioKind::circle: {
      // Goals antipodal on a circle large enough that neighbours start 1.5 diameters apart.
      const double circle = std::max(5.0, 1.5 * diameter * static_cast<double>(n) / (2.0 * std::numbers::pi));
      const double half = circle + 3.0;
      const std::size_t cells = static_cast<std::size_t>(std::ceil(2.0 * half / 2.0));
      scenario.geometry = cell_floor(cells, cells, 2.0, -half, -half, 0.0, [](std::size_t, std::size_t) { return true; });
      for (std::size_t i = 0; i < n; ++i) {
        const double angle = 2.0 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
        const Point start{circle * std::cos(angle), 0.0, circle * std::sin(angle)};
        scenario.agents.push_back(make_agent(request, start, {-start.x, 0.0, -start.z}));
      }
      scenario.steps = static_cast<std::size_t>(std::ceil((4.0 * circle / request.max_speed + 20.0) / scenario.dt));
      break;
    }
    case CrowdScenarioKind::doorway:
    case CrowdScenarioKind::bottleneck: {
      // Two square rooms (cells of 1) on both sides of a wall one cell thick at x in [0, 1],
      // with a door of 2 cells (doorway) or 1 cell (bottleneck) in its middle. Each group
      // stands in a block against its room's far wall and walks to the same block against the
      // other room's far wall, turned round: the agents nearest the door go furthest, so that
      // those who arrive first stand out of the others' way.
      const std::size_t door = request.kind == CrowdScenarioKind::doorway ? 2 : 1;
      const std::size_t group = request.kind == CrowdScenarioKind::doorway ? (n + 1) / 2 : n;
      std::size_t room = 12;
      while (block_length(group, 1.0, static_cast<double>(room) - 1.0, spacing) > static_cast<double>(room) / 2.0 - 1.0) ++room;
      const std::size_t door_from = room / 2 - door / 2;
      scenario.geometry = cell_floor(2 * room + 1, room, 1.0, -static_cast<double>(room), 0.0, 0.0,
                                     [&](std::size_t c, std::size_t r) { return c != room || (r >= door_from && r < door_from + door); });
      const double far = static_cast<double>(room) - 0.5;  // the far walls are at -room and room + 1
      const double z1 = static_cast<double>(room) - 1.0;
      const double length = block_length(group, 1.0, z1, spacing);
      // A point of the left block at x goes to 1 - x + ... mirrored so that the block's front
      // (x = -far + length) lands at the right room's far end (x = far + 1).
      const auto turned = [&](const Point& p, double side) { return Point{p.x + side * (2.0 * far + 1.0 - length), 0.0, p.z}; };
      for (const Point& p : block_of(group, -far, 1.0, 1.0, z1, spacing)) scenario.agents.push_back(make_agent(request, p, turned(p, 1.0)));
      if (request.kind == CrowdScenarioKind::doorway)
        for (const Point& p : block_of(n - group, far + 1.0, -1.0, 1.0, z1, spacing))
          scenario.agents.push_back(make_agent(request, p, turned(p, -1.0)));
      scenario.steps = static_cast<std::size_t>(std::ceil((8.0 * static_cast<double>(room) / request.max_speed + static_cast<double>(n)) / scenario.dt));
      break;
    }
    case CrowdScenarioKind::hallway:
    case CrowdScenarioKind::floors: {
      // A hallway 4 wide, long enough for both groups and 14 between them; half the agents walk
      // each way, each to where the other group started. In `floors` the westbound group walks
      // the same lines in a second hallway floors_spacing above (not joined to the first), so
      // that in plan view the scenario is the hallway's.
      const double width = 4.0;
      const std::size_t east = (n + 1) / 2;
      const double block = block_length(east, 0.0, width, spacing);
      const double length = std::ceil(std::max(30.0, 2.0 * block + 14.0));
      const auto hallway_floor = [&](double y) {
        return cell_floor(static_cast<std::size_t>(length), 4, 1.0, 0.0, 0.0, y, [](std::size_t, std::size_t) { return true; });
      };
      scenario.geometry = hallway_floor(0.0);
      const double west_y = request.kind == CrowdScenarioKind::floors ? floors_spacing : 0.0;
      if (west_y != 0.0) append_geometry(scenario.geometry, hallway_floor(west_y));
      for (const Point& p : block_of(east, 0.0, 1.0, 0.0, width, spacing))
        scenario.agents.push_back(make_agent(request, p, {p.x + length - block, 0.0, p.z}));
      for (const Point& p : block_of(n - east, length, -1.0, 0.0, width, spacing))
        scenario.agents.push_back(make_agent(request, {p.x, west_y, p.z}, {p.x - length + block, west_y, p.z}));
      scenario.steps = static_cast<std::size_t>(std::ceil((3.0 * length / request.max_speed + static_cast<double>(n)) / scenario.dt));
      break;
    }
    case CrowdScenarioKind::crossing: {
      // A square open area; a group in the middle of each side, in a band 4 wide, walks to the
      // opposite side, to the same block turned round (as in the hallway): west-east and
      // east-west meet head on in one band, south-north and north-south cross them at right
      // angles in the middle. The square leaves 6 between a block's corner and the next band.
      const double band = 4.0;
      std::size_t groups[4];
      for (std::size_t k = 0; k < 4; ++k) groups[k] = n / 4 + (k < n % 4 ? 1 : 0);
      const double block = block_length(groups[0], -band / 2.0, band / 2.0, spacing);
      const double half = std::ceil(std::max(10.0, block + band / 2.0 + 6.0));
      const auto cells = static_cast<std::size_t>(half);  // cells of 2 across a side of 2 * half
      scenario.geometry = cell_floor(cells, cells, 2.0, -half, -half, 0.0, [](std::size_t, std::size_t) { return true; });
      const double travel = 2.0 * half - block;
      const auto transposed = [](const Point& p) { return Point{p.z, p.y, p.x}; };
      for (std::size_t k = 0; k < 4; ++k) {
        // k = 0: from the west, 1: from the east, 2: from the south, 3: from the north; the
        // last two are the first two with x and z swapped.
        const double direction = k % 2 == 0 ? 1.0 : -1.0;
        for (const Point& p : block_of(groups[k], -direction * half, direction, -band / 2.0, band / 2.0, spacing)) {
          const Point goal{p.x + direction * travel, 0.0, p.z};
          scenario.agents.push_back(k < 2 ? make_agent(request, p, goal) : make_agent(request, transposed(p), transposed(goal)));
        }
      }
      scenario.steps = static_cast<std::size_t>(std::ceil((6.0 * half / request.max_speed + static_cast<double>(n)) / scenario.dt));
      break;
    }
    case CrowdScenarioKind::overtaking: {
      // A corridor 4 wide along x. The slow half of the agents (half the max speed) walks in
      // one file along its middle; the fast half walks in one file right behind them, the same
      // way, and must pass them all. Each file goes to the same file further on, the fast one's
      // beyond the slow one's, and the corridor is long enough that every fast agent has passed
      // every slow one, and arrived, before the first slow agent arrives. Four diameters between
      // centres leave room for a fast agent to slip back in between two slow ones; with less
      // (2.5 diameters) fast agents were caught between slow ones and held up for long stretches.
      const double width = 4.0;
      const double gap = 8.0 * request.radius;  // centre to centre along a file
      const std::size_t slow = n / 2, fast = n - slow;
      const double fast_length = gap * static_cast<double>(fast), slow_length = gap * static_cast<double>(slow);
      const double slow_from = fast_length + gap;  // where the slow file starts
      const double goals_apart = 2.0 * gap;        // between the slow goals' file and the fast one's
      // The fast file's rear walks end - fast_length at full speed; the slow file's front walks
      // end - fast_length - goals_apart - slow_from - slow_length at half speed: the slow
      // front's time is margin / speed longer, for the passing. Passing one slow agent at a
      // time holds the fast file up for a while; three slow files' lengths of margin covered it
      // with 2 to 40 agents (one slow file's length did not, with 10 or 16).
      const double margin = 10.0 + 3.0 * slow_length;
      const double end = std::ceil(fast_length + 2.0 * (goals_apart + slow_from + slow_length) + margin);
      scenario.geometry = cell_floor(static_cast<std::size_t>(end), 4, 1.0, 0.0, 0.0, 0.0, [](std::size_t, std::size_t) { return true; });
      const double middle = width / 2.0;
      for (std::size_t j = 0; j < slow; ++j) {
        const double at = gap * (0.5 + static_cast<double>(j));
        CrowdScenarioAgent agent = make_agent(request, {slow_from + at, 0.0, middle},
                                              {end - fast_length - goals_apart - slow_length + at, 0.0, middle});
        agent.settings.max_speed = overtaking_slow_speed_fraction * request.max_speed;
        scenario.agents.push_back(agent);
      }
      for (std::size_t i = 0; i < fast; ++i) {
        const double at = gap * (0.5 + static_cast<double>(i));
        scenario.agents.push_back(make_agent(request, {at, 0.0, middle}, {end - fast_length + at, 0.0, middle}));
      }
      scenario.steps = static_cast<std::size_t>(
          std::ceil((2.0 * end / (overtaking_slow_speed_fraction * request.max_speed) + static_cast<double>(n)) / scenario.dt));
      break;
    }
    case CrowdScenarioKind::random: {
      std::mt19937_64 random(request.seed);
      std::vector<Point> vertices;
      if (request.mesh != nullptr) {
        scenario.mesh_file = request.mesh_file;
        scenario.geometry = {};
      } else {
        const double half = std::max(10.0, std::sqrt(static_cast<double>(n)) * spacing * 2.0);
        const std::size_t cells = static_cast<std::size_t>(std::ceil(half));
        scenario.geometry = cell_floor(cells, cells, 2.0, -half, -half, 0.0, [](std::size_t, std::size_t) { return true; });
      }
      const NavMesh mesh = NavMesh::build(request.mesh != nullptr ? *request.mesh : scenario.geometry);
      const RandomPointSampler sample(mesh);
      // Starts at least 1.2 diameters apart from every other start, goals from every other goal;
      // each goal in its start's connected region, so that every agent can arrive.
      auto draw = [&](std::vector<Point>& taken, std::optional<std::uint32_t> region) -> std::optional<PolygonId> {
        for (int attempt = 0; attempt < 1000; ++attempt) {
          const RandomPointResult drawn = sample(random);
          if (!drawn.ok()) break;
          if (region && mesh.region(drawn.polygon) != *region) continue;
          bool clear = true;
          for (const Point& other : taken)
            if (std::hypot(other.x - drawn.point.x, other.z - drawn.point.z) < 1.2 * diameter) {
              clear = false;
              break;
            }
          if (clear) {
            taken.push_back(drawn.point);
            return drawn.polygon;
          }
        }
        return std::nullopt;
      };
      std::vector<Point> starts, goals;
      for (std::size_t i = 0; i < n; ++i) {
        const std::optional<PolygonId> start = draw(starts, std::nullopt);
        if (!start) break;
        if (!draw(goals, mesh.region(*start))) {
          starts.pop_back();
          break;
        }
      }
      for (std::size_t i = 0; i < std::min(starts.size(), goals.size()); ++i)
        scenario.agents.push_back(make_agent(request, starts[i], goals[i]));
      const Bounds& bounds = mesh.bounds();
      const double extent = (bounds.max.x - bounds.min.x) + (bounds.max.z - bounds.min.z);
      scenario.steps = static_cast<std::size_t>(std::ceil((2.0 * extent / request.max_speed + 30.0) / scenario.dt));
      break;
    }
  }
  return scenario;
}

}  // namespace wayfinder::tools
