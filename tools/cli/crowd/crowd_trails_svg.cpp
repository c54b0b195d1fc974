#include "crowd/crowd_trails_svg.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "command_error.hpp"

namespace wayfinder::cli {
namespace {

/// Discs drawn along a trail: every this many trail points.
constexpr std::size_t disc_every = 4;

/// Maps a world point's x and z to the picture's x and y.
struct PictureFrame {
  double min_x = 0.0, min_z = 0.0, scale = 1.0;
  [[nodiscard]] double x_of(double x) const { return (x - min_x) * scale; }
  [[nodiscard]] double y_of(double z) const { return (z - min_z) * scale; }
};

/// The picture of the walkable ground `draw_ground` draws (within `bounds`) and the trails.
void write_trails_svg(const std::string& path, const Bounds& bounds,
                      const std::function<void(std::ostream&, const PictureFrame&)>& draw_ground,
                      const tools::CrowdScenario& scenario, const std::vector<std::vector<Point>>& trails) {
  const double margin = 1.0;
  const double min_x = bounds.min.x - margin, min_z = bounds.min.z - margin;
  const double width = bounds.max.x - bounds.min.x + 2.0 * margin, depth = bounds.max.z - bounds.min.z + 2.0 * margin;
  const double scale = 1000.0 / std::max(width, depth);  // pixels per world unit
  // z grows downwards in the picture, as the mesh's other pictures have it.
  const PictureFrame frame{min_x, min_z, scale};
  auto x_of = [&](double x) { return frame.x_of(x); };
  auto y_of = [&](double z) { return frame.y_of(z); };

  std::ostringstream svg;
  svg.precision(6);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width * scale << "\" height=\"" << depth * scale
      << "\" viewBox=\"0 0 " << width * scale << " " << depth * scale << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<g fill=\"#e4e4e4\" stroke=\"#c8c8c8\" stroke-width=\"0.5\">\n";
  draw_ground(svg, frame);
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

}  // namespace

void write_crowd_trails_svg(const std::string& path, const NavMesh& mesh, const tools::CrowdScenario& scenario,
                            const std::vector<std::vector<Point>>& trails) {
  auto draw_polygons = [&](std::ostream& svg, const PictureFrame& frame) {
    for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
      svg << "<polygon points=\"";
      for (std::uint32_t vertex : mesh.polygon_vertices(polygon))
        svg << frame.x_of(mesh.vertex(vertex).x) << "," << frame.y_of(mesh.vertex(vertex).z) << " ";
      svg << "\"/>\n";
    }
  };
  write_trails_svg(path, mesh.bounds(), draw_polygons, scenario, trails);
}

void write_crowd_trails_svg(const std::string& path, const GridMap& map, const tools::CrowdScenario& scenario,
                            const std::vector<std::vector<Point>>& trails) {
  // Free cells as squares, a row's run of them as one rectangle.
  auto draw_cells = [&](std::ostream& svg, const PictureFrame& frame) {
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width();) {
        if (!map.passable(x, y)) {
          ++x;
          continue;
        }
        int end = x;
        while (end < map.width() && map.passable(end, y)) ++end;
        svg << "<rect x=\"" << frame.x_of(x) << "\" y=\"" << frame.y_of(y) << "\" width=\"" << (end - x) * frame.scale
            << "\" height=\"" << frame.scale << "\"/>\n";
        x = end;
      }
  };
  Bounds bounds;
  bounds.min = {0.0, 0.0, 0.0};
  bounds.max = {static_cast<double>(map.width()), 0.0, static_cast<double>(map.height())};
  write_trails_svg(path, bounds, draw_cells, scenario, trails);
}

}  // namespace wayfinder::cli
