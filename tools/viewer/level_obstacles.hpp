#pragma once
// Levels in the viewer: a navigation mesh built in tiles from a level's geometry (Recast, through
// wayfinder::navmesh_build), kept with a NavMeshTileCache so that temporary obstacles dropped on
// it rebuild only the tiles they touch. Without navmesh_build (no Recast) every call refuses with
// 501. The requests and answers are documented in docs/viewer.md ("Obstacles").

#include <string>

#include "common/world_json.hpp"
#include "viewer/viewer_api.hpp"
#include "viewer/world_catalog.hpp"

namespace wayfinder::viewer {

/// Whether this build can build meshes from levels (Recast was found).
bool levels_available();

/// Builds a tiled mesh from the level OBJ `obj` with the settings in `request["level"]` (an
/// object: "cell_size", "cell_height", "agent_radius", "agent_height", "max_climb",
/// "max_slope_degrees", "tile_size"; each optional) and adds it to the catalog with its tile
/// cache. Returns the world's id. Refuses (400) a setting out of range or a level whose x-z
/// extent is more than limits.max_level_cells cells on a side.
int load_level_world(WorldCatalog& catalog, const std::string& name, const std::string& obj, const Json& request,
                     const ApiLimits& limits);

/// Adds the obstacle `request` describes ({"shape": "cylinder", "base": [x, y, z], "radius",
/// "height"} or {"shape": "box", "min": [x, y, z], "max": [x, y, z]}) to a level world, rebuilds
/// the tiles it touches and puts them in the mesh. Answers {"world", "obstacle" (its id),
/// "revision", "tiles" (rebuilt_tiles_json), "obstacles" (obstacles_json)}.
Json add_level_obstacle(CatalogWorld& world, const Json& request, const ApiLimits& limits);
/// Removes obstacle request["obstacle"] and rebuilds its tiles; the same answer's shape.
Json remove_level_obstacle(CatalogWorld& world, const Json& request);
/// The level's obstacles as added, each with its "id": [{"id", "shape", ...}, ...]. Called under
/// the world's shared lock.
Json obstacles_json(const CatalogWorld& world);
/// The level's own polygons as uploaded, for drawing under its mesh: {"vertices": [[x, y, z],
/// ...], "polygons": [[vertex indices], ...]}. Its size is bounded by the upload's. Called under
/// the world's shared lock.
Json level_geometry_json(const CatalogWorld& world);

}  // namespace wayfinder::viewer
