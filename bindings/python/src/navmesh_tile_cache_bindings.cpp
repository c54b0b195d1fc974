// Temporary obstacles and area volumes on a tiled mesh (navmesh_build/navmesh_tile_cache.hpp):
// a level's tiles (build_navmesh_tiles), the obstacles and volumes (plain values, there with or
// without Recast), NavMeshTileCache, and the .wfnav with the cache's data
// (navmesh_build/tile_cache_file.hpp). Without the navmesh_build library, the cache and the
// calls that build raise RuntimeError saying so.

#include <pybind11/chrono.h>
#include <pybind11/stl.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"
#ifdef WAYFINDER_PYTHON_WITH_RECAST
#include "wayfinder/navmesh_build/tile_cache_file.hpp"
#endif

namespace wayfinder::python {

namespace {

// The level: a MeshGeometry, or the path (str or os.PathLike) of a Wavefront OBJ file (y up).
MeshGeometry level_of(const py::object& level) {
  if (py::isinstance<MeshGeometry>(level)) return level.cast<MeshGeometry>();
  return read_obj_mesh(py::module_::import("os").attr("fspath")(level).cast<std::string>());
}

#ifdef WAYFINDER_PYTHON_WITH_RECAST
TileUpdateBudget budget_of(std::optional<std::size_t> max_tiles, std::optional<double> max_time) {
  TileUpdateBudget budget;
  if (max_tiles) budget.max_tiles = *max_tiles;
  if (max_time) {
    if (!(*max_time >= 0.0)) throw py::value_error("max_time must be a number of seconds >= 0");
    budget.max_time = std::chrono::microseconds(static_cast<std::int64_t>(*max_time * 1e6));
  }
  return budget;
}
#endif

}  // namespace

void bind_navmesh_tile_cache(py::module_& module) {
  py::class_<CylinderObstacle>(module, "CylinderObstacle", "a vertical cylinder standing on base (its bottom centre)")
      .def(py::init([](const PointTuple& base, double radius, double height) {
             return CylinderObstacle{to_point(base), radius, height};
           }),
           py::arg("base"), py::arg("radius"), py::arg("height"))
      .def_property_readonly("base", [](const CylinderObstacle& o) { return to_tuple(o.base); })
      .def_readonly("radius", &CylinderObstacle::radius)
      .def_readonly("height", &CylinderObstacle::height);
  py::class_<BoxObstacle>(module, "BoxObstacle", "an axis-aligned box from min to max")
      .def(py::init([](const PointTuple& min, const PointTuple& max) { return BoxObstacle{to_point(min), to_point(max)}; }),
           py::arg("min"), py::arg("max"))
      .def_property_readonly("min", [](const BoxObstacle& o) { return to_tuple(o.min); })
      .def_property_readonly("max", [](const BoxObstacle& o) { return to_tuple(o.max); });
  py::class_<OrientedBoxObstacle>(module, "OrientedBoxObstacle",
                                  "a box turned about the vertical axis: centre, half sizes along its own axes, yaw "
                                  "in radians from x towards z")
      .def(py::init([](const PointTuple& center, const PointTuple& half_extents, double yaw_radians) {
             return OrientedBoxObstacle{to_point(center), to_point(half_extents), yaw_radians};
           }),
           py::arg("center"), py::arg("half_extents"), py::arg("yaw_radians") = 0.0)
      .def_property_readonly("center", [](const OrientedBoxObstacle& o) { return to_tuple(o.center); })
      .def_property_readonly("half_extents", [](const OrientedBoxObstacle& o) { return to_tuple(o.half_extents); })
      .def_readonly("yaw_radians", &OrientedBoxObstacle::yaw_radians);
  py::class_<AreaVolume>(module, "AreaVolume",
                         "a convex prism (corners in x-z, min_y to max_y) giving the ground inside an area and flags")
      .def(py::init([](const std::vector<PointTuple>& corners, double min_y, double max_y, int area, AreaFlags flags) {
             if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
             AreaVolume volume;
             for (const PointTuple& c : corners) volume.corners.push_back(to_point(c));
             volume.min_y = min_y;
             volume.max_y = max_y;
             volume.area = static_cast<AreaId>(area);
             volume.flags = flags;
             return volume;
           }),
           py::arg("corners"), py::arg("min_y"), py::arg("max_y"), py::arg("area"), py::arg("flags") = 0)
      .def_readonly("min_y", &AreaVolume::min_y)
      .def_readonly("max_y", &AreaVolume::max_y)
      .def_property_readonly("area", [](const AreaVolume& v) { return static_cast<int>(v.area); })
      .def_readonly("flags", &AreaVolume::flags);

  py::class_<NavMeshTileSet>(module, "NavMeshTileSet", "a tiled build's grid and tiles, what NavMesh.build_tiled takes")
      .def_readonly("grid", &NavMeshTileSet::grid)
      .def_readonly("tiles", &NavMeshTileSet::tiles);
  module.def("build_navmesh_tiles", [](const py::object& level, const AgentSettings& settings) {
    require_navmesh_build("build_navmesh_tiles");
    const MeshGeometry geometry = level_of(level);
#ifdef WAYFINDER_PYTHON_WITH_RECAST
    py::gil_scoped_release unlocked;
    return build_navmesh_tiles(geometry, settings);
#else
    (void)geometry;
    (void)settings;
    return NavMeshTileSet{};
#endif
  }, py::arg("level"), py::arg("settings"),
     "a level (MeshGeometry or OBJ path) built in tiles (settings.tile_size > 0, else ValueError): its grid and each "
     "tile's geometry, for NavMesh.build_tiled. RuntimeError without navmesh_build");

#ifdef WAYFINDER_PYTHON_WITH_RECAST
  py::class_<NavMeshTileCache> cache(module, "NavMeshTileCache",
                                     "A tiled mesh's rebuildable tiles: temporary obstacles and area volumes rebuild "
                                     "only the tiles they touch, without the level (C++ NavMeshTileCache). One thread "
                                     "at a time uses it; its tiles go to the mesh with NavMesh.replace_tile.");
  cache.def(py::init([](const py::object& level, const AgentSettings& settings) {
              const MeshGeometry geometry = level_of(level);
              py::gil_scoped_release unlocked;
              return NavMeshTileCache(geometry, settings);
            }),
            py::arg("level"), py::arg("settings"),
            "rasterizes every tile of the level (settings.tile_size > 0) and keeps its packed heightfield")
      .def_property_readonly("tiles_x", &NavMeshTileCache::tiles_x)
      .def_property_readonly("tiles_z", &NavMeshTileCache::tiles_z)
      .def("add_obstacle", [](NavMeshTileCache& c, const CylinderObstacle& o) { return c.add_obstacle(o); }, py::arg("obstacle"))
      .def("add_obstacle", [](NavMeshTileCache& c, const BoxObstacle& o) { return c.add_obstacle(o); }, py::arg("obstacle"))
      .def("add_obstacle", [](NavMeshTileCache& c, const OrientedBoxObstacle& o) { return c.add_obstacle(o); },
           py::arg("obstacle"), "adds an obstacle and queues its tiles; returns its id. ValueError naming a bad field")
      .def("remove_obstacle", &NavMeshTileCache::remove_obstacle, py::arg("id"), "ValueError for an unknown id")
      .def_property_readonly("obstacle_count", &NavMeshTileCache::obstacle_count)
      .def("add_area_volume", &NavMeshTileCache::add_area_volume, py::arg("volume"))
      .def("remove_area_volume", &NavMeshTileCache::remove_area_volume, py::arg("id"))
      .def("update",
           [](NavMeshTileCache& c, std::optional<std::size_t> max_tiles, std::optional<double> max_time) {
             const TileUpdateBudget budget = budget_of(max_tiles, max_time);
             py::gil_scoped_release unlocked;
             return c.update(budget);
           },
           py::kw_only(), py::arg("max_tiles") = py::none(), py::arg("max_time") = py::none(),
           "rebuilds queued tiles (at most max_tiles, within max_time seconds; at least one) and returns them as "
           "NavMeshTile values for NavMesh.replace_tile. With the worker thread: the tiles it finished since the last "
           "call, after starting it on the next ones")
      .def_property_readonly("pending_tiles", &NavMeshTileCache::pending_tiles)
      .def("rebuild_tile", &NavMeshTileCache::rebuild_tile, py::arg("tile_x"), py::arg("tile_z"))
      .def("use_worker_thread", &NavMeshTileCache::use_worker_thread, py::arg("on"),
           "rebuild on a worker thread: update() then returns at once; queries may run on the mesh meanwhile, "
           "replace_tile runs on the caller's thread")
      .def_property_readonly("uses_worker_thread", &NavMeshTileCache::uses_worker_thread)
      .def_property_readonly("worker_busy", &NavMeshTileCache::worker_busy)
      .def("wait_for_worker", [](NavMeshTileCache& c) {
        py::gil_scoped_release unlocked;
        c.wait_for_worker();
      })
      .def("to_bytes", [](const NavMeshTileCache& c) { return py::bytes(c.to_bytes()); },
           "the kept data (settings, packed heightfields; not the obstacles) as the .wfnav's tile cache section")
      .def_static("from_bytes",
                  [](const py::bytes& bytes, const std::string& source) {
                    return NavMeshTileCache::from_bytes(bytes.cast<std::string>(), source);
                  },
                  py::arg("data"), py::arg("source") = "<bytes>", "a cache from to_bytes(); LoadError for bad bytes");
  module.def("write_navmesh_file_with_tile_cache", [](const NavMesh& mesh, const NavMeshTileCache& c, const std::string& path) {
    try {
      write_navmesh_file(mesh, c, path);
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::runtime_error& error) {
      PyErr_SetString(PyExc_OSError, error.what());
      throw py::error_already_set();
    }
  }, py::arg("mesh"), py::arg("cache"), py::arg("path"),
     "writes the tiled mesh and the cache's data as one .wfnav; ValueError when the mesh is not the cache's, OSError "
     "when the file cannot be written");
  module.def("read_navmesh_file_with_tile_cache", [](const std::string& path) {
    NavMeshWithTileCache loaded = read_navmesh_file_with_tile_cache(path);
    return std::make_pair(std::move(loaded.mesh), std::move(loaded.cache));
  }, py::arg("path"), "(mesh, cache) from such a file, without the level; LoadError for a bad file or one without the "
                      "cache");
#else
  // Without Recast the class exists, so that code naming it imports, and refuses to be made.
  struct TileCacheUnavailable {};
  py::class_<TileCacheUnavailable>(module, "NavMeshTileCache")
      .def(py::init([](const py::object&, const py::object&) -> TileCacheUnavailable {
             require_navmesh_build("NavMeshTileCache");
             return {};
           }),
           py::arg("level"), py::arg("settings"));
  module.def("write_navmesh_file_with_tile_cache", [](const py::object&, const py::object&, const std::string&) {
    require_navmesh_build("write_navmesh_file_with_tile_cache");
  }, py::arg("mesh"), py::arg("cache"), py::arg("path"));
  module.def("read_navmesh_file_with_tile_cache", [](const std::string&) {
    require_navmesh_build("read_navmesh_file_with_tile_cache");
  }, py::arg("path"));
#endif
}

}  // namespace wayfinder::python
