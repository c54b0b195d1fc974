#pragma once
// Reading navigation meshes from Wavefront OBJ files (parsed by tinyobjloader).
//
// Only `v` and `f` lines matter: faces may have any number of vertices, use negative
// (relative) indices and the `v/vt/vn` forms; `o`, `g`, `s`, `mtllib`, `usemtl`, `vt`, `vn` and
// other exporter lines are ignored. Every face of every object becomes one polygon.

#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

enum class UpAxis : std::uint8_t {
  y,  ///< the file's y is up (Recast, Unity, most game exporters); coordinates are kept
  z,  ///< the file's z is up (Blender's default, CAD); (x, y, z) becomes (x, z, -y)
};

struct ObjReadOptions {
  UpAxis up = UpAxis::y;
};

/// Reads an OBJ file. Throws LoadError (file, line, cause) for unreadable files, malformed
/// `v`/`f` lines, faces with fewer than 3 vertices, indices out of range and non-finite
/// coordinates. Polygon and vertex lines are recorded for later build messages.
MeshGeometry read_obj_mesh(const std::filesystem::path& file, const ObjReadOptions& options = {});

/// The same from OBJ text in memory; `source_name` names it in errors.
MeshGeometry parse_obj_mesh(std::string_view text, const std::string& source_name,
                            const ObjReadOptions& options = {});

}  // namespace wayfinder
