#include "voxel_cli_support.hpp"

#include <filesystem>
#include <stdexcept>

#include "command_line_values.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder::cli {

VoxelWorld load_voxel_world(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".vox") return read_vox_file(path);
  if (extension == ".3dmap") return read_voxel_benchmark_map(path);
  throw LoadError(path, 0, 0, "unknown voxel file type '" + extension + "' (expected .vox or .3dmap)");
}

std::optional<VoxelCoord> parse_voxel_coord(std::string_view text) {
  const auto values = parse_integer_list(text);
  if (!values || values->size() != 3) return std::nullopt;
  return VoxelCoord{(*values)[0], (*values)[1], (*values)[2]};
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

}  // namespace wayfinder::cli
