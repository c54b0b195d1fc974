#include "wayfinder/debug/voxel_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include "../core/xml_text.hpp"
#include "core/text_file.hpp"

namespace wayfinder {

namespace {

std::string grey(double shade) {
  const int level = std::clamp(static_cast<int>(60.0 + 170.0 * shade), 0, 255);
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", level, level, level);
  return text;
}

}  // namespace

std::string render_voxel_svg(const VoxelWorld& world, const PathResult& result, VoxelCoord start, VoxelCoord goal,
                             const VoxelSvgOptions& options) {
  const SearchTrace* trace = options.trace;
  const int width = world.size_x();
  const int depth = world.size_z();
  // Keep the picture around 1000 pixels across, whatever the world's size.
  const double cell = std::clamp(1000.0 / std::max(width, depth), 1.0, 24.0);
  const double title_height = 24.0;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << cell * width << "\" height=\""
      << cell * depth + title_height << "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#1b1b24\"/>\n";
  svg << "<text x=\"4\" y=\"17\" fill=\"#eeeeee\">" << xml::escaped(options.title) << "</text>\n";
  svg << "<g transform=\"translate(0," << title_height << ")\" shape-rendering=\"crispEdges\">\n";
  const double top = std::max(1, world.size_y() - 1);
  for (int z = 0; z < depth; ++z)
    for (int x = 0; x < width; ++x) {
      const int height = world.top_block(x, z);
      if (height < 0) continue;  // empty column: the background shows
      const BlockKind kind = world.block(x, height, z);
      const std::string fill = kind == BlockKind::water ? "#3a6ea5" : kind == BlockKind::ladder ? "#a5773a" : grey(height / top);
      svg << "<rect x=\"" << x * cell << "\" y=\"" << z * cell << "\" width=\"" << cell << "\" height=\"" << cell
          << "\" fill=\"" << fill << "\"/>\n";
    }
  if (trace != nullptr) {
    // One tint per explored column, however many blocks of it the search expanded.
    std::vector<bool> explored(static_cast<std::size_t>(width) * static_cast<std::size_t>(depth), false);
    for (const TraceRecord& event : trace->events()) {
      if (event.event != TraceEvent::closed) continue;
      const VoxelCoord at = world.coord_of(event.node);
      explored[static_cast<std::size_t>(at.z) * static_cast<std::size_t>(width) + static_cast<std::size_t>(at.x)] = true;
    }
    for (int z = 0; z < depth; ++z)
      for (int x = 0; x < width; ++x)
        if (explored[static_cast<std::size_t>(z) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)])
          svg << "<rect x=\"" << x * cell << "\" y=\"" << z * cell << "\" width=\"" << cell << "\" height=\"" << cell
              << "\" fill=\"#e0a030\" fill-opacity=\"0.35\"/>\n";
  }
  svg << "</g>\n<g transform=\"translate(0," << title_height << ")\">\n";
  if (result.nodes.size() >= 2) {
    svg << "<polyline fill=\"none\" stroke=\"#ff3060\" stroke-width=\"" << std::max(1.5, cell / 3)
        << "\" stroke-linejoin=\"round\" points=\"";
    for (const NodeId node : result.nodes) {
      const VoxelCoord at = world.coord_of(node);
      svg << (at.x + 0.5) * cell << "," << (at.z + 0.5) * cell << " ";
    }
    svg << "\"/>\n";
  }
  for (const auto& [at, colour] : {std::pair{start, "#40e040"}, std::pair{goal, "#4080ff"}})
    svg << "<circle cx=\"" << (at.x + 0.5) * cell << "\" cy=\"" << (at.z + 0.5) * cell << "\" r=\""
        << std::max(3.0, cell * 0.6) << "\" fill=\"" << colour << "\" stroke=\"white\"/>\n";
  svg << "</g>\n</svg>\n";
  return svg.str();
}

void write_voxel_svg(const std::filesystem::path& path, const VoxelWorld& world, const PathResult& result,
                     VoxelCoord start, VoxelCoord goal, const VoxelSvgOptions& options) {
  write_text_file(path, render_voxel_svg(world, result, start, goal, options));
}

}  // namespace wayfinder
