// Reading SteerSuite's XML test cases (see steersuite_testcase.hpp) with tinyxml2.

#include "common/steersuite_testcase.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <string>

#include "core/text_file.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder::tools {
namespace {

using tinyxml2::XMLElement;

/// Sides of the prism that stands for a circle obstacle, drawn round the circle so that it
/// covers it.
constexpr int circle_sides = 32;
/// How many random places are tried for one agent before the test case is refused.
constexpr int placement_attempts = 10'000;
/// How many overlap checks (a place against an obstacle or an agent) random placement may make
/// in all before the test case is refused: a bound on the time a file can ask for.
constexpr std::uint64_t placement_checks = 500'000'000;

class Reader {
 public:
  Reader(std::string source, std::uint64_t seed) : source_(std::move(source)), random_(seed) {}

  [[noreturn]] void fail(const XMLElement* element, const std::string& cause) const {
    throw LoadError(source_, element != nullptr ? element->GetLineNum() : 0, 0,
                    (element != nullptr ? "<" + std::string(element->Name()) + ">: " : std::string()) + cause);
  }

  const XMLElement& child(const XMLElement& parent, const char* name) const {
    const XMLElement* found = parent.FirstChildElement(name);
    if (found == nullptr) fail(&parent, std::string("has no <") + name + ">");
    return *found;
  }

  double number(const XMLElement& element) const {
    const char* text = element.GetText();
    std::string_view view = text != nullptr ? std::string_view(text) : std::string_view();
    while (!view.empty() && std::isspace(static_cast<unsigned char>(view.front()))) view.remove_prefix(1);
    while (!view.empty() && std::isspace(static_cast<unsigned char>(view.back()))) view.remove_suffix(1);
    if (!view.empty() && view.front() == '+') view.remove_prefix(1);
    double value = 0.0;
    const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (view.empty() || error != std::errc() || end != view.data() + view.size() || !std::isfinite(value))
      fail(&element, "must be a finite number, not \"" + std::string(text != nullptr ? text : "") + "\"");
    if (std::abs(value) > steersuite_limits::magnitude)
      fail(&element, "must be a number from -1e7 to 1e7 (a coordinate, size, speed or count within reason)");
    return value;
  }

  double number(const XMLElement& parent, const char* name) const { return number(child(parent, name)); }

  double positive(const XMLElement& parent, const char* name) const {
    const double value = number(parent, name);
    if (!(value > 0.0)) fail(&child(parent, name), "must be a number > 0");
    return value;
  }

  std::size_t count(const XMLElement& parent, const char* name, std::size_t limit) const {
    const double value = number(parent, name);
    if (value < 0.0 || value != std::floor(value) || value > static_cast<double>(limit))
      fail(&child(parent, name), "must be a whole number from 0 to " + std::to_string(limit));
    return static_cast<std::size_t>(value);
  }

  bool flag(const XMLElement& element) const {
    const char* text = element.GetText();
    const std::string value = text != nullptr ? text : "";
    if (value == "true" || value == "1") return true;
    if (value == "false" || value == "0" || value.empty()) return false;
    fail(&element, "must be true or false");
  }

  /// An <x> <y> <z> triple, or nullopt for <random>true</random> (both is refused, as SteerSuite does).
  std::optional<Point> point_or_random(const XMLElement& element) const {
    const XMLElement* random = element.FirstChildElement("random");
    const bool is_random = random != nullptr && flag(*random);
    const bool has_x = element.FirstChildElement("x") != nullptr;
    if (is_random && has_x) fail(&element, "has both <x> <y> <z> and <random>true</random>");
    if (is_random) return std::nullopt;
    return Point{number(element, "x"), number(element, "y"), number(element, "z")};
  }

  Point point(const XMLElement& element) const {
    const std::optional<Point> p = point_or_random(element);
    if (!p) fail(&element, "must be a point here, not random");
    return *p;
  }

  struct Box {
    double xmin, xmax, zmin, zmax;
  };

  /// Bounds given the wrong way round (min above max, as some published test cases have them)
  /// are read as the same box.
  Box box(const XMLElement& element) const {
    const double x0 = number(element, "xmin"), x1 = number(element, "xmax");
    const double z0 = number(element, "zmin"), z1 = number(element, "zmax");
    number(element, "ymin");  // read for its checks: heights do not matter on the plane
    number(element, "ymax");
    return {std::min(x0, x1), std::max(x0, x1), std::min(z0, z1), std::max(z0, z1)};
  }

  double unit() { return static_cast<double>(random_() >> 11) * 0x1.0p-53; }  // [0, 1), 53 random bits
  double between(double low, double high) { return low + (high - low) * unit(); }

  SteerSuiteTestCase read(std::string_view text);

 private:
  void read_obstacle_region(const XMLElement& element);
  void read_agents(const XMLElement& element, std::size_t how_many, const std::optional<Box>& region);
  std::vector<Point> read_goals(const XMLElement& sequence, double radius, double& desired_speed);
  bool clear_of_obstacles(const XMLElement& element, const Point& at, double radius) {
    spend_checks(element, testcase_.obstacles.size());
    for (const SteerSuiteObstacle& obstacle : testcase_.obstacles)
      if (disc_overlaps_obstacle(at, radius, obstacle)) return false;
    return true;
  }
  void spend_checks(const XMLElement& element, std::size_t checks) {
    checks_ += checks;
    if (checks_ > placement_checks)
      fail(&element, "random placement would take more than " + std::to_string(placement_checks) +
                         " overlap checks (too many random agents among too many obstacles)");
  }
  Point random_clear_point(const XMLElement& element, const Box& within, double radius, bool clear_of_agents);
  void add_obstacle(const XMLElement& element, std::vector<Point> outline) {
    if (testcase_.obstacles.size() >= steersuite_limits::obstacles)
      fail(&element, "more than " + std::to_string(steersuite_limits::obstacles) + " obstacles");
    testcase_.obstacles.push_back({std::move(outline)});
  }
  void add_obstacles_pass(const XMLElement& root);
  void add_agents_pass(const XMLElement& root);

  std::string source_;
  std::mt19937_64 random_;
  std::uint64_t checks_ = 0;
  SteerSuiteTestCase testcase_;
};

std::vector<Point> rectangle(double xmin, double xmax, double zmin, double zmax) {
  // Counter-clockwise seen from above (+y), in x-z: x to the right, z towards the viewer.
  return {{xmin, 0.0, zmin}, {xmin, 0.0, zmax}, {xmax, 0.0, zmax}, {xmax, 0.0, zmin}};
}

/// The text with any XML declaration after the start blanked out (its characters turned to
/// spaces, so lines keep their numbers): SteerSuite's own files put theirs after a licence
/// comment, which XML does not allow but the benchmark's reader accepted.
std::string without_late_declarations(std::string_view text) {
  std::string kept(text);
  const std::size_t first = kept.find_first_not_of(" \t\r\n");
  for (std::size_t at = kept.find("<?xml", first == 0 ? 1 : 0); at != std::string::npos; at = kept.find("<?xml", at + 1)) {
    const std::size_t end = kept.find("?>", at);
    if (end == std::string::npos) break;
    for (std::size_t i = at; i < end + 2; ++i)
      if (kept[i] != '\n') kept[i] = ' ';
  }
  return kept;
}

SteerSuiteTestCase Reader::read(std::string_view raw_text) {
  const std::string text = without_late_declarations(raw_text);
  tinyxml2::XMLDocument document;
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    throw LoadError(source_, document.ErrorLineNum(), 0, std::string("not valid XML: ") + document.ErrorStr());
  const XMLElement* root = document.RootElement();
  if (root == nullptr || std::string_view(root->Name()) != "SteerBenchTestCase")
    fail(root, "is not a SteerSuite test case (its root element must be <SteerBenchTestCase>)");
  const XMLElement& header = child(*root, "header");
  if (const XMLElement* name = header.FirstChildElement("name"); name != nullptr && name->GetText() != nullptr)
    testcase_.name = name->GetText();
  const Box world = box(child(header, "worldBounds"));
  if (!(world.xmin < world.xmax) || !(world.zmin < world.zmax))
    fail(&child(header, "worldBounds"), "must enclose an area (xmin < xmax and zmin < zmax)");
  testcase_.xmin = world.xmin;
  testcase_.xmax = world.xmax;
  testcase_.zmin = world.zmin;
  testcase_.zmax = world.zmax;
  // Obstacles first, wherever they stand in the file: random agents are placed clear of them all.
  add_obstacles_pass(*root);
  add_agents_pass(*root);
  // Some published test cases place agents or goals outside their world's bounds (SteerSuite
  // does not confine agents to them): the ground then reaches them too, with room to stand.
  for (const SteerSuiteAgent& agent : testcase_.agents) {
    const double margin = 2.0 * agent.radius + 1.0;
    const auto cover = [&](const Point& p) {
      testcase_.xmin = std::min(testcase_.xmin, p.x - margin);
      testcase_.xmax = std::max(testcase_.xmax, p.x + margin);
      testcase_.zmin = std::min(testcase_.zmin, p.z - margin);
      testcase_.zmax = std::max(testcase_.zmax, p.z + margin);
    };
    cover(agent.start);
    for (const Point& goal : agent.goals) cover(goal);
  }
  return std::move(testcase_);
}

void Reader::add_obstacles_pass(const XMLElement& root) {
  for (const XMLElement* element = root.FirstChildElement(); element != nullptr; element = element->NextSiblingElement()) {
    const std::string_view name = element->Name();
    if (name == "obstacle") {
      const Box b = box(*element);
      add_obstacle(*element, rectangle(b.xmin, b.xmax, b.zmin, b.zmax));
    } else if (name == "orientedBoxObstacle") {
      // SteerSuite turns the box's corners by thetaY degrees with x' = x cos + z sin,
      // z' = z cos - x sin, about its centre.
      const double theta = number(*element, "thetaY") * std::numbers::pi / 180.0;
      const Point size = point(child(*element, "size"));
      const Point centre = point(child(*element, "position"));
      if (!(size.x > 0.0) || !(size.z > 0.0)) fail(&child(*element, "size"), "must have x and z > 0");
      std::vector<Point> outline = rectangle(-size.x / 2.0, size.x / 2.0, -size.z / 2.0, size.z / 2.0);
      const double c = std::cos(theta), s = std::sin(theta);
      for (Point& p : outline) p = {centre.x + p.x * c + p.z * s, 0.0, centre.z + p.z * c - p.x * s};
      add_obstacle(*element, std::move(outline));
    } else if (name == "circleObstacle") {
      const double radius = positive(*element, "radius");
      const Point centre = point(child(*element, "position"));
      // A regular polygon round the circle: its sides touch the circle, its corners lie
      // radius / cos(pi / sides) out.
      const double reach = radius / std::cos(std::numbers::pi / circle_sides);
      std::vector<Point> outline;
      for (int i = 0; i < circle_sides; ++i) {
        const double angle = -2.0 * std::numbers::pi * i / circle_sides;  // clockwise in x-z: counter-clockwise from +y
        outline.push_back({centre.x + reach * std::cos(angle), 0.0, centre.z + reach * std::sin(angle)});
      }
      add_obstacle(*element, std::move(outline));
    } else if (name == "obstacleRegion") {
      read_obstacle_region(*element);
    } else if (name == "polygonObstacle" || name == "orientedWallObstacle" || name == "agentEmitter") {
      fail(element, "is not supported (obstacles: obstacle, orientedBoxObstacle, circleObstacle, obstacleRegion; "
                    "agents: agent, agentRegion)");
    } else if (name != "header" && name != "suggestedCameraView" && name != "agent" && name != "agentRegion") {
      fail(element, "is not an element of a test case");
    }
  }
}

void Reader::read_obstacle_region(const XMLElement& element) {
  const std::size_t how_many = count(element, "numObstacles", steersuite_limits::obstacles);
  const double size = positive(element, "obstacleSize");
  const Box region = box(child(element, "regionBounds"));
  if (region.xmax - region.xmin < size || region.zmax - region.zmin < size)
    fail(&element, "obstacleSize is larger than the region");
  for (std::size_t i = 0; i < how_many; ++i) {
    const double x = between(region.xmin, region.xmax - size), z = between(region.zmin, region.zmax - size);
    add_obstacle(element, rectangle(x, x + size, z, z + size));
  }
}

void Reader::add_agents_pass(const XMLElement& root) {
  for (const XMLElement* element = root.FirstChildElement(); element != nullptr; element = element->NextSiblingElement()) {
    const std::string_view name = element->Name();
    if (name == "agent") {
      read_agents(*element, 1, std::nullopt);
    } else if (name == "agentRegion") {
      const std::size_t how_many = count(*element, "numAgents", steersuite_limits::agents);
      read_agents(*element, how_many, box(child(*element, "regionBounds")));
    }
  }
}

Point Reader::random_clear_point(const XMLElement& element, const Box& within, double radius, bool clear_of_agents) {
  for (int attempt = 0; attempt < placement_attempts; ++attempt) {
    const Point at{between(within.xmin, within.xmax), 0.0, between(within.zmin, within.zmax)};
    if (at.x - radius < testcase_.xmin || at.x + radius > testcase_.xmax || at.z - radius < testcase_.zmin ||
        at.z + radius > testcase_.zmax)
      continue;
    if (!clear_of_obstacles(element, at, radius)) continue;
    bool clear = true;
    if (clear_of_agents) spend_checks(element, testcase_.agents.size());
    if (clear_of_agents)
      for (const SteerSuiteAgent& other : testcase_.agents)
        if (geometry::distance_xz(other.start, at) < other.radius + radius) {
          clear = false;
          break;
        }
    if (clear) return at;
  }
  fail(&element, "found no place clear of the obstacles" + std::string(clear_of_agents ? " and the other agents" : "") +
                     " in " + std::to_string(placement_attempts) + " random tries");
}

std::vector<Point> Reader::read_goals(const XMLElement& sequence, double radius, double& desired_speed) {
  std::vector<Point> goals;
  const Box world{testcase_.xmin, testcase_.xmax, testcase_.zmin, testcase_.zmax};
  for (const XMLElement* goal = sequence.FirstChildElement(); goal != nullptr; goal = goal->NextSiblingElement()) {
    const std::string_view kind = goal->Name();
    if (kind == "seekStaticTarget") {
      const XMLElement* random = goal->FirstChildElement("random");
      std::optional<Point> target =
          random != nullptr && flag(*random) ? std::nullopt : point_or_random(child(*goal, "targetLocation"));
      goals.push_back(target ? Point{target->x, 0.0, target->z} : random_clear_point(*goal, world, radius, false));
    } else if (kind == "seekAxisAlignedBoxRegion") {
      const Box region = box(child(*goal, "goalRegionBounds"));
      goals.push_back({(region.xmin + region.xmax) / 2.0, 0.0, (region.zmin + region.zmax) / 2.0});
    } else {
      fail(goal, "is not supported (goals: seekStaticTarget, seekAxisAlignedBoxRegion)");
    }
    if (goals.size() == 1) {
      desired_speed = number(*goal, "desiredSpeed");
      if (!(desired_speed >= 0.0)) fail(&child(*goal, "desiredSpeed"), "must be a number >= 0");
    }
  }
  if (goals.empty()) fail(&sequence, "has no goal");
  return goals;
}

void Reader::read_agents(const XMLElement& element, std::size_t how_many, const std::optional<Box>& region) {
  const XMLElement& initial = child(element, "initialConditions");
  const double radius = positive(initial, "radius");
  std::optional<Point> position;
  if (!region) position = point_or_random(child(initial, "position"));
  const XMLElement& sequence = child(element, "goalSequence");
  const Box world{testcase_.xmin, testcase_.xmax, testcase_.zmin, testcase_.zmax};
  if (testcase_.agents.size() + how_many > steersuite_limits::agents)
    fail(&element, "more than " + std::to_string(steersuite_limits::agents) + " agents");
  for (std::size_t i = 0; i < how_many; ++i) {
    SteerSuiteAgent agent;
    if (const XMLElement* name = element.FirstChildElement("name"); name != nullptr && name->GetText() != nullptr)
      agent.name = name->GetText();
    agent.radius = radius;
    agent.start = position ? Point{position->x, 0.0, position->z} : random_clear_point(element, region ? *region : world, radius, true);
    agent.goals = read_goals(sequence, radius, agent.desired_speed);
    testcase_.agents.push_back(std::move(agent));
  }
}

}  // namespace

bool disc_overlaps_obstacle(const Point& centre, double radius, const SteerSuiteObstacle& obstacle) {
  const std::vector<Point>& outline = obstacle.outline;
  bool inside = true;
  for (std::size_t i = 0; i < outline.size(); ++i) {
    const Point& a = outline[i];
    const Point& b = outline[(i + 1) % outline.size()];
    // Counter-clockwise from +y is clockwise in the x-z plane's own orientation: inside is
    // where cross_xz is negative.
    if (geometry::cross_xz(a, b, centre) > 0.0) inside = false;
    const double t = geometry::closest_on_segment_xz(centre, a, b);
    if (geometry::distance_xz(centre, geometry::lerp(a, b, t)) < radius) return true;
  }
  return inside;
}

SteerSuiteTestCase steersuite_testcase_from_text(std::string_view text, const std::string& source, std::uint64_t seed) {
  return Reader(source, seed).read(text);
}

SteerSuiteTestCase read_steersuite_testcase(const std::filesystem::path& file, std::uint64_t seed) {
  return steersuite_testcase_from_text(read_text_file(file), file.string(), seed);
}

CrowdScenario steersuite_crowd_scenario(const SteerSuiteTestCase& testcase, MeshGeometry navmesh) {
  CrowdScenario scenario;
  scenario.geometry = std::move(navmesh);
  scenario.dt = 0.05;
  scenario.leave_on_arrival = true;
  double longest_seconds = 0.0;
  for (const SteerSuiteAgent& agent : testcase.agents) {
    CrowdScenarioAgent walker;
    walker.start = agent.start;
    walker.goal = agent.goals.back();
    walker.via.assign(agent.goals.begin(), agent.goals.end() - 1);
    walker.settings.radius = agent.radius;
    walker.settings.max_speed = agent.desired_speed;
    walker.settings.arrival_radius = agent.radius;
    if (agent.desired_speed > 0.0) {
      double route = 0.0;
      Point from = agent.start;
      for (const Point& to : agent.goals) {
        route += geometry::distance_xz(from, to);
        from = to;
      }
      longest_seconds = std::max(longest_seconds, route / agent.desired_speed);
    }
    scenario.agents.push_back(std::move(walker));
  }
  const double steps = std::ceil((3.0 * longest_seconds + 30.0) / scenario.dt);
  scenario.steps = static_cast<std::size_t>(std::min(steps, static_cast<double>(crowd_scenario_limits::steps)));
  return scenario;
}

double steersuite_largest_radius(const SteerSuiteTestCase& testcase) {
  double largest = 0.0;
  for (const SteerSuiteAgent& agent : testcase.agents) largest = std::max(largest, agent.radius);
  return largest;
}

MeshGeometry steersuite_level(const SteerSuiteTestCase& testcase) {
  MeshGeometry level;
  const auto add = [&](const Point& p) {
    level.vertices.push_back(p);
    return static_cast<std::uint32_t>(level.vertices.size() - 1);
  };
  // The ground, facing up.
  std::vector<std::uint32_t> ground;
  for (const Point& corner : rectangle(testcase.xmin, testcase.xmax, testcase.zmin, testcase.zmax)) ground.push_back(add(corner));
  level.polygons.push_back(ground);
  for (const SteerSuiteObstacle& obstacle : testcase.obstacles) {
    const std::size_t n = obstacle.outline.size();
    std::vector<std::uint32_t> bottom, top;
    for (const Point& p : obstacle.outline) {
      bottom.push_back(add({p.x, 0.0, p.z}));
      top.push_back(add({p.x, steersuite_obstacle_height, p.z}));
    }
    // The top faces down (the outline's order reversed), so a build never walks on it.
    level.polygons.emplace_back(top.rbegin(), top.rend());
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = (i + 1) % n;
      level.polygons.push_back({bottom[i], bottom[j], top[j], top[i]});
    }
  }
  return level;
}

}  // namespace wayfinder::tools
