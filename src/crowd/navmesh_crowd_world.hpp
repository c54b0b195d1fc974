#pragma once
// The crowd's world on a navigation mesh: paths by the corridor search and the funnel through a
// PathRequestQueue<NavMesh>, corridors of polygons kept by Detour's start fix-up
// (path_corridor.hpp), moves by move_along_surface, walls from the mesh's boundary edges
// (local_walls.hpp).

#include <memory>

#include "crowd_world.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::crowd_detail {

/// The crowd's world on `mesh`, which must outlive it.
std::unique_ptr<CrowdWorld> make_navmesh_world(const NavMesh& mesh, const PathRequestQueueSettings& queue);

}  // namespace wayfinder::crowd_detail
