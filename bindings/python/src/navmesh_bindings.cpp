// Navigation meshes: reading OBJ and Polyanya meshes, building a NavMesh (also from numpy
// arrays), point location, and the NavMeshQuery (corridor A* and funnel).

#include <pybind11/stl.h>

#include <array>
#include <utility>

#include "bindings.hpp"
#include "world_state.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder::python {

namespace {

PyPathResult mesh_result(const NavMeshQuery& query, PathResult&& result, const SearchTrace* trace) {
  const std::vector<Point> points = std::move(result.points);
  PyPathResult out = base_result(std::move(result));
  out.path_array = make_table<double>(points.size(), 3, [&](std::size_t r, std::size_t c) {
    return c == 0 ? points[r].x : c == 1 ? points[r].y : points[r].z;
  });
  if (trace != nullptr) {
    out.trace = trace_table(*trace, 3, [&](NodeId node) { return query.corridor_node_position(node); });
  } else {
    out.trace = py::none();
  }
  return out;
}

// The mesh's own keyword options, shared by find_path and begin.
NavMeshSearchOptions mesh_options(CorridorNodes nodes, double weight, double height_tolerance, double snap_distance,
                                  std::optional<AreaFilter> filter) {
  NavMeshSearchOptions options;
  options.nodes = nodes;
  options.weight = weight;
  options.height_tolerance = height_tolerance;
  options.snap_distance = snap_distance;
  options.filter = std::move(filter);
  return options;
}

}  // namespace

void bind_navmesh(py::module_& module) {
  py::enum_<CorridorNodes>(module, "CorridorNodes")
      .value("edge_points", CorridorNodes::edge_points)
      .value("polygon_centroids", CorridorNodes::polygon_centroids)
      .value("optimal", CorridorNodes::optimal);
  py::enum_<UpAxis>(module, "UpAxis").value("y", UpAxis::y).value("z", UpAxis::z);

  py::class_<MeshGeometry>(module, "MeshGeometry", "vertices and polygons before NavMesh.build")
      .def_property_readonly("vertex_count", [](const MeshGeometry& g) { return g.vertices.size(); })
      .def_property_readonly("polygon_count", [](const MeshGeometry& g) { return g.polygons.size(); })
      .def_readonly("source", &MeshGeometry::source);
  module.def("read_obj_mesh", [](const std::string& path, UpAxis up) {
    ObjReadOptions options;
    options.up = up;
    return read_obj_mesh(path, options);
  }, py::arg("path"), py::arg("up") = UpAxis::y, "reads a Wavefront OBJ file; raises LoadError");
  module.def("parse_obj_mesh", [](const std::string& text, const std::string& source_name, UpAxis up) {
    ObjReadOptions options;
    options.up = up;
    return parse_obj_mesh(text, source_name, options);
  }, py::arg("text"), py::arg("source_name") = "<text>", py::arg("up") = UpAxis::y);
  module.def("read_polyanya_mesh", [](const std::string& path) { return read_polyanya_mesh(path); }, py::arg("path"));

  py::class_<NavMesh> mesh_class(module, "NavMesh",
                                 "A navigation mesh: convex polygons, their adjacency, regions and a locator.");
  mesh_class.def_static("build", [](const MeshGeometry& geometry) { return NavMesh::build(geometry); }, py::arg("geometry"),
                  "checks and builds; raises LoadError for fatal input (repairs are listed in problems)")
      .def_static("from_arrays",
                  [](const py::object& vertex_array, const std::vector<std::uint32_t>& indices,
                     const std::vector<std::uint32_t>& polygon_sizes) {
                    require_numpy("NavMesh.from_arrays");
                    const auto vertices = vertex_array.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
                    if (vertices.ndim() != 2 || vertices.shape(1) != 3)
                      throw py::value_error("vertices must be an (n, 3) array of x, y, z (y up)");
                    std::vector<Point> points;
                    const auto view = vertices.unchecked<2>();
                    for (py::ssize_t i = 0; i < vertices.shape(0); ++i) points.push_back({view(i, 0), view(i, 1), view(i, 2)});
                    return NavMesh::from_arrays(points, indices, polygon_sizes);
                  },
                  py::arg("vertices"), py::arg("indices"), py::arg("polygon_sizes"),
                  "polygon i is the next polygon_sizes[i] entries of indices. Raises ImportError without numpy.")
      .def_property_readonly("vertex_count", &NavMesh::vertex_count)
      .def_property_readonly("polygon_count", &NavMesh::polygon_count)
      .def_property_readonly("region_count", &NavMesh::region_count)
      .def("polygon_vertices", [](const NavMesh& mesh, PolygonId polygon) {
        if (polygon >= mesh.polygon_count()) throw py::index_error("no such polygon");
        const auto indices = mesh.polygon_vertices(polygon);
        return std::vector<std::uint32_t>(indices.begin(), indices.end());
      })
      .def("vertex", [](const NavMesh& mesh, std::uint32_t index) {
        if (index >= mesh.vertex_count()) throw py::index_error("no such vertex");
        return to_tuple(mesh.vertex(index));
      })
      .def("area", [](const NavMesh& mesh, PolygonId polygon) {
        if (polygon >= mesh.polygon_count()) throw py::index_error("no such polygon");
        return mesh.area(polygon);
      })
      .def("flags", [](const NavMesh& mesh, PolygonId polygon) {
        if (polygon >= mesh.polygon_count()) throw py::index_error("no such polygon");
        return mesh.flags(polygon);
      })
      .def("set_area", [](NavMesh& mesh, PolygonId polygon, int area) {
        if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
        mesh.set_area(polygon, static_cast<AreaId>(area));
      }, py::arg("polygon"), py::arg("area"))
      .def("set_flags", [](NavMesh& mesh, PolygonId polygon, AreaFlags flags) { mesh.set_flags(polygon, flags); },
           py::arg("polygon"), py::arg("flags"))
      .def_property_readonly("revision", &NavMesh::revision)
      .def_property_readonly("has_detail_heights", &NavMesh::has_detail_heights,
                             "True when the mesh keeps detail heights (a mesh built from level geometry does)")
      .def("height_at", [](const NavMesh& mesh, PolygonId polygon, double x, double z) {
        if (polygon >= mesh.polygon_count()) throw py::index_error("no such polygon");
        return mesh.height_at(polygon, x, z);
      }, py::arg("polygon"), py::arg("x"), py::arg("z"),
         "the ground height of the polygon at (x, z), which should lie inside it (over its detail triangles when it "
         "has them)")
      .def("locate", [](const NavMesh& mesh, const PointTuple& point, double height_tolerance) -> py::object {
        const MeshLocation location = mesh.locate(to_point(point), height_tolerance);
        if (!location.valid()) return py::none();
        return py::make_tuple(location.polygon, to_tuple(location.point));
      }, py::arg("point"), py::arg("height_tolerance") = NavMesh::default_height_tolerance,
         "(polygon, point on its surface) under or over the point, or None")
      .def(py::pickle(&navmesh_state, &navmesh_from_state))
      .def("__eq__", [](const NavMesh& mesh, const NavMesh& other) {
        return navmesh_state(mesh).equal(navmesh_state(other));
      }, "the same baked navmesh file: polygons, detail heights, areas, flags and links; revisions aside");
  bind_off_mesh_links(module, mesh_class);
  bind_navmesh_build(module, mesh_class);
  bind_navmesh_tiles(module, mesh_class);
  bind_navmesh_tile_cache(module);

  // Baked navmesh files (.wfnav), as C++'s read_navmesh_file and write_navmesh_file.
  module.def("read_navmesh_file", [](const std::string& path) { return read_navmesh_file(path); }, py::arg("path"),
             "reads a baked navmesh file (.wfnav): the mesh as written, detail heights, areas, flags and off-mesh "
             "links included; raises LoadError (naming the file and the byte of the problem) for a damaged, "
             "truncated or foreign file");
  module.def("write_navmesh_file", [](const NavMesh& mesh, const std::string& path) {
    try {
      write_navmesh_file(mesh, path);
    } catch (const std::runtime_error& error) {
      // The writer's one failure: the file cannot be written. Python calls that an OSError.
      PyErr_SetString(PyExc_OSError, error.what());
      throw py::error_already_set();
    }
  }, py::arg("mesh"), py::arg("path"),
     "writes the mesh as a baked navmesh file (replacing it); raises OSError when the file cannot be written");

  py::class_<NavMeshQuery>(module, "NavMeshQuery", "The mesh query object: one per thread. Keeps its mesh alive.")
      .def(py::init<const NavMesh&>(), py::arg("mesh"), py::keep_alive<1, 2>())
      .def("find_path",
           [](NavMeshQuery& query, const PointTuple& start, const PointTuple& goal, CorridorNodes nodes, double weight,
              double height_tolerance, double snap_distance, std::optional<AreaFilter> filter,
              std::optional<std::uint64_t> max_expansions,
              std::optional<double> max_cost, std::optional<double> max_time, bool return_partial,
              bool partial_when_unreachable, bool trace) {
             SearchTrace events;
             NavMeshSearchOptions options = mesh_options(nodes, weight, height_tolerance, snap_distance, std::move(filter));
             apply_common_options({max_expansions, max_cost, max_time, return_partial, partial_when_unreachable, trace},
                                  options, &events);
             return mesh_result(query, find_path_unlocked(query, NavMeshPathRequest{to_point(start), to_point(goal), options}),
                                trace ? &events : nullptr);
           },
           py::arg("start"), py::arg("goal"), py::kw_only(), py::arg("nodes") = CorridorNodes::edge_points,
           py::arg("weight") = NavMeshSearchOptions{}.weight, py::arg("height_tolerance") = NavMesh::default_height_tolerance,
           py::arg("snap_distance") = 0.0, py::arg("filter") = py::none(), WAYFINDER_COMMON_OPTION_ARGS,
           "locate, corridor A*, funnel. `nodes` are the corridor's polygon ids, `path` the waypoints and "
           "`cost` their 3D length.")
      .def("begin",
           [](NavMeshQuery& query, const PointTuple& start, const PointTuple& goal, CorridorNodes nodes, double weight,
              double height_tolerance, double snap_distance, std::optional<AreaFilter> filter) {
             return query.begin(to_point(start), to_point(goal),
                                mesh_options(nodes, weight, height_tolerance, snap_distance, std::move(filter)));
           },
           py::arg("start"), py::arg("goal"), py::kw_only(), py::arg("nodes") = CorridorNodes::edge_points,
           py::arg("weight") = NavMeshSearchOptions{}.weight, py::arg("height_tolerance") = NavMesh::default_height_tolerance,
           py::arg("snap_distance") = 0.0, py::arg("filter") = py::none(),
           "begins a query to advance with step() (locates the ends, starts the search); returns in_progress or a "
           "final status")
      .def("step", [](NavMeshQuery& query, std::uint64_t max_expansions) {
        py::gil_scoped_release unlocked;
        return query.step(max_expansions);
      }, py::arg("max_expansions"), "expands up to max_expansions nodes; in_progress until the search ends")
      .def("result", [](const NavMeshQuery& query) { return mesh_result(query, query.result(), nullptr); },
           "the current query's result (the final one once step() returned a final status)")
      .def("stats", &NavMeshQuery::stats)
      .def("portals", [](const NavMeshQuery& query) {
        py::list portals;
        for (const Portal& portal : query.portals()) portals.append(py::make_tuple(to_tuple(portal.left), to_tuple(portal.right)));
        return portals;
      }, "the last query's portals as (left, right) point pairs");
}

}  // namespace wayfinder::python
