// A level tool: builds the navigation mesh of a small level (a floor with a wall across most of
// it) with wayfinder::navmesh_build, then finds a path around the wall on it.
#include <cstdio>
#include <wayfinder/navmesh/nav_mesh_query.hpp>
#include <wayfinder/navmesh_build/navmesh_builder.hpp>

int main() {
  wayfinder::MeshGeometry level;
  level.vertices = {{0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0}, {10, 0, 0}, {10, 3, 0}, {10, 3, 14}, {10, 0, 14}};
  level.polygons = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  const wayfinder::NavMesh mesh = wayfinder::NavMesh::build(wayfinder::build_navmesh_geometry(level));
  wayfinder::NavMeshQuery query(mesh);
  const wayfinder::PathResult path = query.find_path({5, 0, 5}, {15, 0, 5});
  if (!path.found() || path.cost < 10.0) {
    std::printf("navmesh_build consumer: expected a path around the wall, got %s\n", path.message.c_str());
    return 1;
  }
  std::printf("navmesh_build consumer: %zu polygons, path of %.2f around the wall\n", mesh.polygon_count(), path.cost);
  return 0;
}
