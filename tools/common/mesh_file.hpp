#pragma once
// Navigation mesh files told apart by their extension, and read: the one place the command, the
// viewer and the mesh build decide what a mesh file is.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

namespace wayfinder {

enum class MeshFileFormat : std::uint8_t { obj, polyanya, baked };

/// The format a file's extension names: .obj or .OBJ a Wavefront OBJ, .mesh a Polyanya "mesh 2"
/// file, .wfnav a baked navmesh file (navmesh_file_reader.hpp); nullopt for any other extension.
[[nodiscard]] std::optional<MeshFileFormat> mesh_file_format_of(const std::filesystem::path& file);
/// The same, throwing LoadError (naming the formats) for any other extension.
[[nodiscard]] MeshFileFormat mesh_file_format(const std::filesystem::path& file);
/// "obj", "mesh", "wfnav".
[[nodiscard]] std::string_view to_string(MeshFileFormat format);

/// The geometry in `file`, read as its extension says: an OBJ with `up` as its up axis, the other
/// formats always y up (a baked file with its detail heights, areas, flags and links). Throws
/// LoadError, also for an extension that names none of the formats.
[[nodiscard]] MeshGeometry read_mesh_file_geometry(const std::filesystem::path& file, UpAxis up = UpAxis::y);

}  // namespace wayfinder
