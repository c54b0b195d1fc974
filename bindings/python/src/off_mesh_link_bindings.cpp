// Off-mesh links (navmesh/off_mesh_link.hpp): jumps, ladders and teleporters between two points
// of a navigation mesh, read from a links file as the `wayfinder mesh path --links` command reads
// them, or made in Python, and added to a built NavMesh.

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "wayfinder/navmesh/off_mesh_link.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

namespace wayfinder::python {

void bind_off_mesh_links(py::module_& module, py::class_<NavMesh>& mesh) {
  py::class_<OffMeshLink>(module, "OffMeshLink",
                          "A link between two points of a mesh that agents take without walking between them "
                          "(docs/navmesh.md, \"Off-mesh links\").")
      .def(py::init([](const PointTuple& start, const PointTuple& end, double radius, bool bidirectional,
                       std::optional<double> cost, int area, AreaFlags flags, std::uint32_t user_id) {
             if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
             OffMeshLink link;
             link.start = to_point(start);
             link.end = to_point(end);
             link.radius = radius;
             link.bidirectional = bidirectional;
             link.cost = cost;
             link.area = static_cast<AreaId>(area);
             link.flags = flags;
             link.user_id = user_id;
             return link;
           }),
           py::arg("start"), py::arg("end"), py::kw_only(), py::arg("radius") = OffMeshLink{}.radius,
           py::arg("bidirectional") = true, py::arg("cost") = py::none(), py::arg("area") = 0, py::arg("flags") = 0,
           py::arg("user_id") = 0,
           "`radius`: how far an end may be moved onto the mesh; `cost`: before the area's multiplier (None: the "
           "link's length; less is raised to it). Checked when added to a mesh.")
      .def_property_readonly("start", [](const OffMeshLink& link) { return to_tuple(link.start); })
      .def_property_readonly("end", [](const OffMeshLink& link) { return to_tuple(link.end); })
      .def_readonly("radius", &OffMeshLink::radius)
      .def_readonly("bidirectional", &OffMeshLink::bidirectional)
      .def_readonly("cost", &OffMeshLink::cost)
      .def_readonly("area", &OffMeshLink::area)
      .def_readonly("flags", &OffMeshLink::flags)
      .def_readonly("user_id", &OffMeshLink::user_id)
      .def_readonly("line", &OffMeshLink::line, "the line of the links file it came from (0: not from a file)");

  py::class_<PlacedOffMeshLink>(module, "PlacedOffMeshLink", "A link as a mesh keeps it: its ends put on polygons.")
      .def_readonly("link", &PlacedOffMeshLink::input, "the link as it was given")
      .def_readonly("start_polygon", &PlacedOffMeshLink::start_polygon)
      .def_readonly("end_polygon", &PlacedOffMeshLink::end_polygon)
      .def_property_readonly("start", [](const PlacedOffMeshLink& link) { return to_tuple(link.start); })
      .def_property_readonly("end", [](const PlacedOffMeshLink& link) { return to_tuple(link.end); })
      .def_readonly("cost", &PlacedOffMeshLink::cost, "the cost of taking it, before its area's multiplier");

  module.def("read_off_mesh_links", [](const std::string& path) { return read_off_mesh_links(path); }, py::arg("path"),
             "reads a links file (one link a line: x1 y1 z1 x2 y2 z2 [both|oneway] [cost=C] [area=A] [flags=F] "
             "[radius=R] [id=N]); raises LoadError naming the line");
  module.def("parse_off_mesh_links", [](const std::string& text, const std::string& source_name) {
    return parse_off_mesh_links(text, source_name);
  }, py::arg("text"), py::arg("source_name") = "<text>");

  mesh.def("add_off_mesh_link", &NavMesh::add_off_mesh_link, py::arg("link"),
           "places the link's ends on the mesh and adds it; returns its id (0, 1, ... in the order added). Raises "
           "ValueError, changing nothing, for an end not on the mesh within the link's radius or a bad cost, radius "
           "or area. Counts as an edit (revision goes up); not while a query on another thread reads the mesh.")
      .def_property_readonly("off_mesh_link_count", &NavMesh::off_mesh_link_count)
      .def("off_mesh_link", [](const NavMesh& navmesh, OffMeshLinkId link) {
        if (link >= navmesh.off_mesh_link_count()) throw py::index_error("no such off-mesh link");
        return navmesh.off_mesh_link(link);
      }, py::arg("id"));
}

}  // namespace wayfinder::python
