// Compiled (never run) by ctest: with WAYFINDER_DANGLING_CASE=0 every query object is built from a
// world held in a variable, which must compile; with cases 1-6 one query object (or replanner) is
// built from a temporary world, the form that would leave it reading freed memory, which must not compile.
#include <wayfinder/wayfinder.hpp>

#ifndef WAYFINDER_DANGLING_CASE
#error "define WAYFINDER_DANGLING_CASE"
#endif

int main() {
  using namespace wayfinder;
#if WAYFINDER_DANGLING_CASE == 0
  const GridMap map = read_movingai_map("arena2.map");
  GridQuery grid_pathfinder(map);
  const NavMesh mesh = NavMesh::build(read_polyanya_mesh("arena.mesh"));
  NavMeshQuery mesh_query(mesh);
  const RandomPointSampler sampler(mesh);
  const VoxelWorld world = read_voxel_benchmark_map("Simple.3dmap");
  VoxelQuery voxel_pathfinder(world);
  GridReplanner grid_replanner(map, Cell{1, 1}, Cell{2, 2});
  GridAdaptiveReplanner adaptive_replanner(map, Cell{1, 1}, Cell{2, 2});
#elif WAYFINDER_DANGLING_CASE == 1
  GridQuery grid_pathfinder(read_movingai_map("arena2.map"));
#elif WAYFINDER_DANGLING_CASE == 2
  NavMeshQuery mesh_query(NavMesh::build(read_polyanya_mesh("arena.mesh")));
#elif WAYFINDER_DANGLING_CASE == 3
  VoxelQuery voxel_pathfinder(read_voxel_benchmark_map("Simple.3dmap"));
#elif WAYFINDER_DANGLING_CASE == 4
  const RandomPointSampler sampler(NavMesh::build(read_polyanya_mesh("arena.mesh")));
#elif WAYFINDER_DANGLING_CASE == 5
  GridReplanner grid_replanner(read_movingai_map("arena2.map"), Cell{1, 1}, Cell{2, 2});
#elif WAYFINDER_DANGLING_CASE == 6
  GridAdaptiveReplanner adaptive_replanner(read_movingai_map("arena2.map"), Cell{1, 1}, Cell{2, 2});
#endif
  return 0;
}
