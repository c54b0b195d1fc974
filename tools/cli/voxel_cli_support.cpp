#include "voxel_cli_support.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder::cli {

namespace {

std::string trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return std::string(text);
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string grey(double shade) {
  const int level = std::clamp(static_cast<int>(60.0 + 170.0 * shade), 0, 255);
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", level, level, level);
  return text;
}

}  // namespace

VoxelWorld load_voxel_world(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".vox") return read_vox_file(path);
  if (extension == ".3dmap") return read_voxel_benchmark_map(path);
  throw LoadError(path, 0, 0, "unknown voxel file type '" + extension + "' (expected .vox or .3dmap)");
}

std::optional<VoxelCoord> parse_voxel_coord(std::string_view text) {
  int values[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = text.find(',');
    if ((i < 2) != (comma != std::string_view::npos)) return std::nullopt;
    const std::string field = trimmed(text.substr(0, comma));
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), values[i]);
    if (field.empty() || error != std::errc{} || end != field.data() + field.size()) return std::nullopt;
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return VoxelCoord{values[0], values[1], values[2]};
}

std::string format_voxel_coord(VoxelCoord at) {
  return std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z);
}

CLI::Option* add_voxel_coord_option(CLI::App& command, const std::string& name, VoxelCoord& target,
                                    const std::string& description) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name](const std::string& text) {
            const std::optional<VoxelCoord> at = parse_voxel_coord(text);
            if (!at) throw CLI::ValidationError(name, "expected X,Y,Z integers, got '" + text + "'");
            target = *at;
          },
          description)
      ->type_name("X,Y,Z");
}

void write_voxel_svg(const std::string& path, const VoxelWorld& world, const PathResult& result,
                     const SearchTrace* trace, VoxelCoord start, VoxelCoord goal, const std::string& title) {
  const int width = world.size_x();
  const int depth = world.size_z();
  // Keep the picture around 1000 pixels across, whatever the world's size.
  const double cell = std::clamp(1000.0 / std::max(width, depth), 1.0, 24.0);
  const double title_height = 24.0;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << cell * width << "\" height=\""
      << cell * depth + title_height << "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#1b1b24\"/>\n";
  svg << "<text x=\"4\" y=\"17\" fill=\"#eeeeee\">" << xml_escaped(title) << "</text>\n";
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
  std::ofstream file(path, std::ios::binary);
  file << svg.str();
  if (!file) throw std::runtime_error("cannot write " + path);
}

}  // namespace wayfinder::cli
