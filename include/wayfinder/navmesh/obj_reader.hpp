#pragma once
// Reading navigation meshes from Wavefront OBJ files (parsed by tinyobjloader).
//
// Only `v` and `f` lines make the mesh: faces may have any number of vertices, use negative
// (relative) indices and the `v/vt/vn` forms; `s`, `mtllib`, `vt`, `vn` and other exporter
// lines are ignored. Every face of every object becomes one polygon. The names of `usemtl`,
// `g` and `o` lines can give faces an area and flags (ObjReadOptions::areas); no material file
// is ever opened.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"

namespace wayfinder {

enum class UpAxis : std::uint8_t {
  y,  ///< the file's y is up (Recast, Unity, most game exporters); coordinates are kept
  z,  ///< the file's z is up (Blender's default, CAD); (x, y, z) becomes (x, z, -y)
};

/// The area and flags a named part of an OBJ file gives its faces.
struct AreaAssignment {
  AreaId area = 0;
  AreaFlags flags = 0;
};

struct ObjReadOptions {
  UpAxis up = UpAxis::y;
  /// Areas and flags by name, as level editors mark surfaces: a face takes the entry of its
  /// material (the name on the last `usemtl` line above it) if there is one, else of its
  /// groups (the names on the last `g` line, which may list several; the first with an entry
  /// wins), else of its object (the last `o` line's name), else area 0 and no flags. A
  /// `usemtl` or `o` name is the rest of its line (spaces inside kept, ends trimmed); `g`
  /// names are separated by spaces. Names match exactly (case too). Materials are known by
  /// name alone, so no `.mtl` file is needed. With an empty table (the default) the names are
  /// not read and MeshGeometry::polygon_areas stays empty. An entry with an area of
  /// max_areas or more throws std::invalid_argument before the file is read.
  std::map<std::string, AreaAssignment, std::less<>> areas{};
};

/// The first line of an OBJ file that Wayfinder wrote as a navigation mesh (write_obj_mesh of a
/// MeshGeometry with declared_navmesh) starts with this comment; the reader then sets
/// MeshGeometry::declared_navmesh, and the tools read the file as a navmesh without measuring it.
inline constexpr std::string_view obj_navmesh_marker = "# wayfinder navmesh";

/// Reads an OBJ file. Throws LoadError (file, line, cause) for unreadable files, malformed
/// `v`/`f` lines, faces with fewer than 3 vertices, indices out of range and non-finite
/// coordinates. Polygon and vertex lines are recorded for later build messages, and with
/// ObjReadOptions::areas each face's area and flags.
MeshGeometry read_obj_mesh(const std::filesystem::path& file, const ObjReadOptions& options = {});

/// The same from OBJ text in memory; `source_name` names it in errors.
MeshGeometry parse_obj_mesh(std::string_view text, const std::string& source_name,
                            const ObjReadOptions& options = {});

}  // namespace wayfinder
