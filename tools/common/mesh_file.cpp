#include "common/mesh_file.hpp"

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder {

std::optional<MeshFileFormat> mesh_file_format_of(const std::filesystem::path& file) {
  const std::filesystem::path extension = file.extension();
  if (extension == ".obj" || extension == ".OBJ") return MeshFileFormat::obj;
  if (extension == ".mesh") return MeshFileFormat::polyanya;
  if (extension == ".wfnav") return MeshFileFormat::baked;
  return std::nullopt;
}

MeshFileFormat mesh_file_format(const std::filesystem::path& file) {
  if (const auto format = mesh_file_format_of(file)) return *format;
  throw LoadError(file.string(), 0, 0,
                  "unknown mesh format: expected a Wavefront .obj, a Polyanya .mesh or a baked Wayfinder .wfnav file");
}

std::string_view to_string(MeshFileFormat format) {
  switch (format) {
    case MeshFileFormat::obj: return "obj";
    case MeshFileFormat::polyanya: return "mesh";
    case MeshFileFormat::baked: return "wfnav";
  }
  return "?";
}

MeshGeometry read_mesh_file_geometry(const std::filesystem::path& file, UpAxis up) {
  switch (mesh_file_format(file)) {
    case MeshFileFormat::polyanya: return read_polyanya_mesh(file);
    case MeshFileFormat::baked: return read_navmesh_geometry(file);
    case MeshFileFormat::obj: break;
  }
  ObjReadOptions options;
  options.up = up;
  return read_obj_mesh(file, options);
}

}  // namespace wayfinder
