// Tiled navigation meshes (navmesh/nav_mesh_tiles.hpp): the tile grid, a tile's geometry, stable
// polygon references, and NavMesh's tile calls (build_tiled, replace_tile, remove_tile, tiles).
// Part of the core: available with or without Recast.

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_tiles.hpp"

namespace wayfinder::python {

namespace {

// Geometry from Python lists: vertices (x, y, z), polygons as vertex index lists, and optionally
// one area and one flags value per polygon.
MeshGeometry geometry_of(const std::vector<PointTuple>& vertices, const std::vector<std::vector<std::uint32_t>>& polygons,
                         const std::optional<std::vector<int>>& areas, const std::optional<std::vector<AreaFlags>>& flags,
                         const std::string& source) {
  MeshGeometry geometry;
  geometry.source = source;
  for (const PointTuple& v : vertices) geometry.vertices.push_back(to_point(v));
  geometry.polygons = polygons;
  if (areas.has_value() != flags.has_value()) throw py::value_error("areas and flags go together: give both or neither");
  if (areas) {
    if (areas->size() != polygons.size() || flags->size() != polygons.size())
      throw py::value_error("areas and flags need one entry per polygon");
    for (const int area : *areas) {
      if (area < 0 || area >= max_areas) throw py::value_error("an area must be in [0, 64)");
      geometry.polygon_areas.push_back(static_cast<AreaId>(area));
    }
    geometry.polygon_flags = *flags;
  }
  return geometry;
}

}  // namespace

void bind_navmesh_tiles(py::module_& module, py::class_<NavMesh>& mesh) {
  auto geometry = py::reinterpret_borrow<py::class_<MeshGeometry>>(module.attr("MeshGeometry"));
  geometry
      .def(py::init(&geometry_of), py::arg("vertices"), py::arg("polygons"), py::kw_only(), py::arg("areas") = py::none(),
           py::arg("flags") = py::none(), py::arg("source") = "<python>",
           "geometry from lists: vertices (x, y, z; y up), polygons as lists of vertex indices, and optionally one "
           "area and one flags value per polygon; checked by NavMesh.build or build_tiled")
      .def_property_readonly("vertices", [](const MeshGeometry& g) {
        std::vector<py::tuple> out;
        for (const Point& p : g.vertices) out.push_back(to_tuple(p));
        return out;
      })
      .def_property_readonly("polygons", [](const MeshGeometry& g) { return g.polygons; })
      .def_property_readonly("polygon_areas", [](const MeshGeometry& g) {
        return std::vector<int>(g.polygon_areas.begin(), g.polygon_areas.end());
      })
      .def_property_readonly("polygon_flags", [](const MeshGeometry& g) { return g.polygon_flags; });

  py::class_<NavMeshTileGrid>(module, "NavMeshTileGrid",
                              "The grid of square tiles over x-z (C++ NavMeshTileGrid): tile (x, z) covers "
                              "[origin_x + x * tile_width, ...); each tile owns max_polygons_per_tile polygon ids")
      .def(py::init([](double origin_x, double origin_z, double tile_width, int tiles_x, int tiles_z,
                       std::uint32_t max_polygons_per_tile, double border_climb) {
             return NavMeshTileGrid{origin_x, origin_z, tile_width, tiles_x, tiles_z, max_polygons_per_tile, border_climb};
           }),
           py::kw_only(), py::arg("origin_x") = 0.0, py::arg("origin_z") = 0.0, py::arg("tile_width") = 1.0,
           py::arg("tiles_x") = 1, py::arg("tiles_z") = 1, py::arg("max_polygons_per_tile") = 256,
           py::arg("border_climb") = 0.0)
      .def_readwrite("origin_x", &NavMeshTileGrid::origin_x)
      .def_readwrite("origin_z", &NavMeshTileGrid::origin_z)
      .def_readwrite("tile_width", &NavMeshTileGrid::tile_width)
      .def_readwrite("tiles_x", &NavMeshTileGrid::tiles_x)
      .def_readwrite("tiles_z", &NavMeshTileGrid::tiles_z)
      .def_readwrite("max_polygons_per_tile", &NavMeshTileGrid::max_polygons_per_tile)
      .def_readwrite("border_climb", &NavMeshTileGrid::border_climb);

  py::class_<NavMeshTile>(module, "NavMeshTile", "one tile's geometry at (tile_x, tile_z) of a grid")
      .def(py::init([](int tile_x, int tile_z, const MeshGeometry& g) { return NavMeshTile{tile_x, tile_z, g}; }),
           py::arg("tile_x"), py::arg("tile_z"), py::arg("geometry"))
      .def_readwrite("tile_x", &NavMeshTile::tile_x)
      .def_readwrite("tile_z", &NavMeshTile::tile_z)
      .def_readwrite("geometry", &NavMeshTile::geometry);

  py::class_<PolygonRef>(module, "PolygonRef",
                         "a polygon of a tiled mesh that notices when its tile is replaced: tile, polygon, salt")
      .def(py::init([](std::uint32_t tile, std::uint32_t polygon, std::uint32_t salt) { return PolygonRef{tile, polygon, salt}; }),
           py::arg("tile") = 0, py::arg("polygon") = 0, py::arg("salt") = 0)
      .def_readonly("tile", &PolygonRef::tile)
      .def_readonly("polygon", &PolygonRef::polygon)
      .def_readonly("salt", &PolygonRef::salt)
      .def("__eq__", [](const PolygonRef& a, const PolygonRef& b) { return a == b; })
      .def("__hash__", [](const PolygonRef& r) { return py::hash(py::make_tuple(r.tile, r.polygon, r.salt)); })
      .def("__repr__", [](const PolygonRef& r) {
        return "PolygonRef(tile=" + std::to_string(r.tile) + ", polygon=" + std::to_string(r.polygon) +
               ", salt=" + std::to_string(r.salt) + ")";
      });

  py::class_<NavMeshTileInfo>(module, "NavMeshTileInfo", "a tile of the mesh as it is now (NavMesh.tiles())")
      .def_readonly("tile_x", &NavMeshTileInfo::tile_x)
      .def_readonly("tile_z", &NavMeshTileInfo::tile_z)
      .def_readonly("first_polygon", &NavMeshTileInfo::first_polygon)
      .def_readonly("polygon_count", &NavMeshTileInfo::polygon_count)
      .def_readonly("salt", &NavMeshTileInfo::salt);

  mesh.def_static("build_tiled",
                  [](const NavMeshTileGrid& grid, const std::vector<NavMeshTile>& tiles) {
                    return NavMesh::build_tiled(grid, tiles);
                  },
                  py::arg("grid"), py::arg("tiles"),
                  "a tiled mesh from one geometry per tile (build_navmesh_tiles gives a level's); raises ValueError "
                  "for a bad grid, a tile outside it or given twice, polygons outside their tile or too many, and "
                  "LoadError for fatal geometry")
      .def("replace_tile", [](NavMesh& m, int tile_x, int tile_z, const MeshGeometry& g) { m.replace_tile(tile_x, tile_z, g); },
           py::arg("tile_x"), py::arg("tile_z"), py::arg("geometry"),
           "puts the geometry in the tile (none: removes it); the other tiles keep their polygon ids. An edit: no "
           "query may run on the mesh meanwhile. IndexError outside the grid, RuntimeError on a mesh not tiled")
      .def("replace_tile", [](NavMesh& m, const NavMeshTile& tile) { m.replace_tile(tile); }, py::arg("tile"))
      .def("remove_tile", &NavMesh::remove_tile, py::arg("tile_x"), py::arg("tile_z"),
           "removes the tile (RuntimeError for the mesh's last tile)")
      .def_property_readonly("is_tiled", &NavMesh::is_tiled)
      .def_property_readonly("tile_grid", &NavMesh::tile_grid)
      .def("tiles", &NavMesh::tiles, "the tiles that hold polygons, in tile order (z, then x)")
      .def("tile_geometry", &NavMesh::tile_geometry, py::arg("tile_x"), py::arg("tile_z"),
           "the tile's geometry as last given (repaired), with its polygons' current areas and flags")
      .def_property_readonly("geometry_revision", &NavMesh::geometry_revision)
      .def("polygon_ref", &NavMesh::polygon_ref, py::arg("polygon"))
      .def("is_valid", &NavMesh::is_valid, py::arg("ref"), "False once the referenced polygon's tile has changed")
      .def("polygon_of", [](const NavMesh& m, const PolygonRef& ref) -> std::optional<PolygonId> {
        const PolygonId polygon = m.polygon_of(ref);
        if (polygon == invalid_polygon) return std::nullopt;
        return polygon;
      }, py::arg("ref"), "the polygon a valid reference names, or None");
}

}  // namespace wayfinder::python
