#pragma once
// Reads a baked navmesh file (.wfnav, written by write_navmesh_file; layout in
// docs/navmesh-file.md). Everything is checked before it is used: the magic, the writer and
// content names, the format version (a newer file is refused, naming both versions), the
// file's size and checksum, each section's tag and size, every count against the bytes left
// (nothing is allocated for a count the file cannot hold), every index against what it
// indexes, every coordinate for being finite; then NavMesh::build checks the mesh itself as it
// checks any input. A bad file throws LoadError naming the file, with the byte offset of the
// problem in the cause ("... (at byte 1234)"); nothing else is thrown for bad bytes, and no
// input crashes the reader (fuzz/fuzz_navmesh_file.cpp).

#include <filesystem>
#include <string>
#include <string_view>

#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

/// The geometry the bytes hold (what NavMesh::to_geometry gave the writer), `source` naming
/// them in errors and in MeshGeometry::source. Throws LoadError as described above, except for
/// the checks only NavMesh::build makes.
[[nodiscard]] MeshGeometry parse_navmesh_file(std::string_view bytes, const std::string& source);

/// The geometry in `file` (read whole; a file over 256 MiB is refused). Throws LoadError.
[[nodiscard]] MeshGeometry read_navmesh_geometry(const std::filesystem::path& file);

/// The mesh in `file`: NavMesh::build of read_navmesh_geometry, the off-mesh links placed again.
/// Throws LoadError.
[[nodiscard]] NavMesh read_navmesh_file(const std::filesystem::path& file);

}  // namespace wayfinder
