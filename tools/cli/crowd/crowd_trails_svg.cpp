#include "crowd/crowd_trails_svg.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "command_error.hpp"

namespace wayfinder::cli {
namespace {

/// Discs drawn along a trail: every this many trail points.
constexpr std::size_t disc_every = 4;

}  // namespace

void write_crowd_trails_svg(const std::string& path, const NavMesh& mesh, const tools::CrowdScenario& scenario,
                            const std::vector<std::vector<Point>>& trails) {
  const Bounds& bounds = mesh.bounds();
  const double margin = 1.0;
  const double min_x = bounds.min.x - margin, min_z = bounds.min.z - margin;
  const double width = bounds.max.x - bounds.min.x + 2.0 * margin, depth = bounds.max.z - bounds.min.z + 2.0 * margin;
  const double scale = 1000.0 / std::max(width, depth);  // pixels per world unit
  // z grows downwards in the picture, as the mesh's other pictures have it.
  auto x_of = [&](double x) { return (x - min_x) * scale; };
  auto y_of = [&](double z) { return (z - min_z) * scale; };

  std::ostringstream svg;
  svg.precision(6);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width * scale << "\" height=\"" << depth * scale
      << "\" viewBox=\"0 0 " << width * scale << " " << depth * scale << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<g fill=\"#e4e4e4\" stroke=\"#c8c8c8\" stroke-width=\"0.5\">\n";
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    svg << "<polygon points=\"";
    for (std::uint32_t vertex : mesh.polygon_vertices(polygon))
      svg << x_of(mesh.vertex(vertex).x) << "," << y_of(mesh.vertex(vertex).z) << " ";
    svg << "\"/>\n";
  }
  svg << "</g>\n";
  for (std::size_t agent = 0; agent < trails.size(); ++agent) {
    const std::vector<Point>& trail = trails[agent];
    if (trail.empty()) continue;
    // Hues spread by the golden angle, so that neighbours in the list differ.
    const std::string colour = "hsl(" + std::to_string(static_cast<int>(std::fmod(static_cast<double>(agent) * 137.508, 360.0))) + ",70%,45%)";
    const double radius = (agent < scenario.agents.size() ? scenario.agents[agent].settings.radius : 0.5) * scale;
    svg << "<g stroke=\"" << colour << "\" fill=\"none\">\n<polyline stroke-width=\"1.5\" points=\"";
    for (const Point& p : trail) svg << x_of(p.x) << "," << y_of(p.z) << " ";
    svg << "\"/>\n";
    for (std::size_t k = 0; k < trail.size(); k += disc_every)
      svg << "<circle cx=\"" << x_of(trail[k].x) << "\" cy=\"" << y_of(trail[k].z) << "\" r=\"" << radius
          << "\" stroke-width=\"0.7\" stroke-opacity=\"0.6\"/>\n";
    svg << "<circle cx=\"" << x_of(trail.back().x) << "\" cy=\"" << y_of(trail.back().z) << "\" r=\"" << radius
        << "\" fill=\"" << colour << "\" fill-opacity=\"0.7\"/>\n</g>\n";
  }
  svg << "</svg>\n";
  std::ofstream file(path, std::ios::binary);
  file << svg.str();
  file.close();
  if (!file) throw CommandError("cannot write the picture to '" + path + "'", path);
}

}  // namespace wayfinder::cli
