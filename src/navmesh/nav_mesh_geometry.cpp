// NavMesh::to_geometry: a built mesh as the input that builds it again (what a baked navmesh
// file keeps).

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

MeshGeometry NavMesh::to_geometry() const {
  MeshGeometry geometry;
  geometry.source = source_;
  geometry.declared_navmesh = true;
  geometry.vertices = vertices_;
  geometry.polygons.reserve(polygon_count());
  geometry.polygon_areas.reserve(polygon_count());
  geometry.polygon_flags.reserve(polygon_count());
  // A tiled mesh's unused ids (empty polygons) are left out: the geometry is the mesh flattened.
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    if (is_empty_polygon(polygon)) continue;
    const auto indices = polygon_vertices(polygon);
    geometry.polygons.emplace_back(indices.begin(), indices.end());
    geometry.polygon_areas.push_back(tags_[polygon].area);
    geometry.polygon_flags.push_back(tags_[polygon].flags);
  }
  // Detail triangles are kept per input polygon; a built polygon reads its input's, so each gets
  // a copy of them (one polygon, one copy, unless a concave input was split).
  if (has_detail_heights()) {
    geometry.detail_vertices = detail_vertices_;
    geometry.detail_starts.reserve(polygon_count() + 1);
    geometry.detail_starts.push_back(0);
    for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
      if (is_empty_polygon(polygon)) continue;
      const std::uint32_t input = source_polygons_[polygon];
      geometry.detail_triangles.insert(geometry.detail_triangles.end(),
                                       detail_triangles_.begin() + detail_starts_[input],
                                       detail_triangles_.begin() + detail_starts_[input + 1]);
      geometry.detail_starts.push_back(static_cast<std::uint32_t>(geometry.detail_triangles.size()));
    }
  }
  geometry.off_mesh_links.reserve(links_.size());
  // A detached link (its end on a removed tile) could not be placed again: it is left out.
  for (OffMeshLinkId link = 0; link < links_.size(); ++link)
    if (off_mesh_link_attached(link)) geometry.off_mesh_links.push_back(links_[link].input);
  return geometry;
}

}  // namespace wayfinder
