// Fuzzes the off-mesh links reader: any bytes must either parse or throw LoadError, never
// crash, hang or trip a sanitizer. Links that parse are put onto a small fixed mesh (which may
// reject them with LoadError, for an end off the mesh), and a built mesh answers a query.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<wayfinder::OffMeshLink> links;
  try {
    links = wayfinder::parse_off_mesh_links(text, "fuzz.links");
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty() || error.file() != "fuzz.links" || error.line() < 1) std::abort();
    return 0;
  }
  // What the reader promises: finite points, usable costs and radii, areas in range, lines kept.
  for (const wayfinder::OffMeshLink& link : links) {
    for (const wayfinder::Point& p : {link.start, link.end})
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) std::abort();
    if (!(link.radius >= 0.0) || !std::isfinite(link.radius) || link.area >= wayfinder::max_areas || link.line < 1)
      std::abort();
    if (link.cost && (!(*link.cost >= 0.0) || !std::isfinite(*link.cost))) std::abort();
  }

  // Two 4 x 4 squares side by side, not joined: a link may join them.
  wayfinder::MeshGeometry geometry;
  geometry.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {6, 0, 0}, {10, 0, 0}, {10, 0, 4}, {6, 0, 4}};
  geometry.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  geometry.off_mesh_links = links;
  try {
    const wayfinder::NavMesh mesh = wayfinder::NavMesh::build(geometry);
    if (mesh.off_mesh_link_count() != links.size()) std::abort();
    wayfinder::NavMeshQuery query(mesh);
    for (const auto nodes : {wayfinder::CorridorNodes::edge_points, wayfinder::CorridorNodes::polygon_centroids}) {
      wayfinder::NavMeshSearchOptions options;
      options.nodes = nodes;
      const wayfinder::PathResult path = query.find_path({1, 0, 1}, {9, 0, 3}, options);
      for (const wayfinder::PathLinkStep& step : path.links)
        if (step.waypoint + 1 >= path.points.size() || step.node + 1 >= path.nodes.size()) std::abort();
    }
  } catch (const wayfinder::LoadError& error) {
    if (error.cause().empty()) std::abort();
  }
  return 0;
}
