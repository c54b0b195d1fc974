// Fuzzes the Polyanya "mesh 2" reader: any bytes must either parse or throw LoadError, never
// crash, hang or trip a sanitizer. Geometry that parses is built into a NavMesh (which may
// reject it with LoadError too), and a built mesh answers a few point locations.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wayfinder::MeshGeometry geometry;
  try {
    geometry = wayfinder::parse_polyanya_mesh(text, "fuzz.mesh");
  } catch (const wayfinder::LoadError& error) {
    // An error must say where and why.
    if (error.cause().empty() || error.file() != "fuzz.mesh") std::abort();
    return 0;
  }
  // What the reader promises: finite vertices, in-range indices, faces of 3 or more, lines kept.
  if (geometry.polygons.empty() || geometry.polygon_lines.size() != geometry.polygons.size() ||
      geometry.vertex_lines.size() != geometry.vertices.size())
    std::abort();
  for (const wayfinder::Point& vertex : geometry.vertices)
    if (!std::isfinite(vertex.x) || vertex.y != 0.0 || !std::isfinite(vertex.z)) std::abort();
  for (const auto& polygon : geometry.polygons) {
    if (polygon.size() < 3) std::abort();
    for (const std::uint32_t index : polygon)
      if (index >= geometry.vertices.size()) std::abort();
  }

  try {
    const wayfinder::NavMesh mesh = wayfinder::NavMesh::build(geometry);
    // Locate a vertex, a polygon's centroid and a point far away.
    const wayfinder::MeshLocation on_vertex = mesh.locate(mesh.vertex(0));
    const wayfinder::MeshLocation at_centroid = mesh.locate(mesh.centroid(0));
    const wayfinder::MeshLocation far_away = mesh.locate({1e30, 0.0, -1e30});
    if (on_vertex.valid() && on_vertex.polygon >= mesh.polygon_count()) std::abort();
    if (at_centroid.valid() && at_centroid.polygon >= mesh.polygon_count()) std::abort();
    if (far_away.valid()) std::abort();
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty()) std::abort();
  }
  return 0;
}
