// The parts of JPS+'s goal bounds (GridGoalBoundsPart): the bounds of a range of cells, built
// apart, saved and loaded, and merged by GridGoalBounds.merge (grid_table_bindings.cpp). Parts
// pickle as their file's bytes, so that ranges built in other processes (wayfinder.distributed)
// travel back to be merged.

#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"

namespace wayfinder::python {

namespace {

GridGoalBoundsPart part_from_bytes(const py::bytes& data, const std::string& source_name) {
  const std::string text = data;
  return GridGoalBoundsPart::from_bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size(), source_name);
}

}  // namespace

void bind_goal_bounds_parts(py::module_& module) {
  py::class_<GridGoalBoundsPart>(module, "GridGoalBoundsPart",
                                 "The goal bounds of the cells [first, last) of a map (ids y * width + x), built "
                                 "apart and merged with GridGoalBounds.merge. Pickles as its file's bytes.")
      .def(py::init([](const GridMap& map, NodeId first, NodeId last, int threads) {
             py::gil_scoped_release unlocked;
             return GridGoalBoundsPart(map, first, last, {}, threads);
           }),
           py::arg("map"), py::arg("first"), py::arg("last"), py::kw_only(), py::arg("threads") = 1,
           "Builds the boxes of the cells [first, last) on `threads` threads (the GIL is released meanwhile); "
           "raises ValueError unless first <= last <= the map's cell count.")
      .def_static(
          "load", [](const std::string& path) { return GridGoalBoundsPart::load(path); }, py::arg("path"),
          "reads a part; raises LoadError naming the file and why")
      .def_static(
          "from_bytes",
          [](const py::bytes& data, const std::string& source_name) { return part_from_bytes(data, source_name); },
          py::arg("data"), py::arg("source_name") = "<bytes>", "a part from the bytes to_bytes() gives")
      .def("save", [](const GridGoalBoundsPart& part, const std::string& path) { part.save(path); }, py::arg("path"))
      .def("to_bytes", [](const GridGoalBoundsPart& part) { return as_bytes(part.to_bytes()); },
           "the bytes save() writes")
      .def_property_readonly("first", &GridGoalBoundsPart::first)
      .def_property_readonly("last", &GridGoalBoundsPart::last)
      .def_property_readonly("width", &GridGoalBoundsPart::width)
      .def_property_readonly("height", &GridGoalBoundsPart::height)
      .def_property_readonly("map_checksum", &GridGoalBoundsPart::map_checksum)
      .def_property_readonly("build_seconds", &GridGoalBoundsPart::build_seconds)
      .def(py::pickle([](const GridGoalBoundsPart& part) { return py::make_tuple(as_bytes(part.to_bytes())); },
                      [](const py::tuple& state) {
                        if (state.size() != 1 || !py::isinstance<py::bytes>(state[0]))
                          throw py::value_error("not the pickled state of a GridGoalBoundsPart");
                        return part_from_bytes(state[0].cast<py::bytes>(), "<pickled GridGoalBoundsPart>");
                      }))
      .def("__repr__", [](const GridGoalBoundsPart& part) {
        return "<GridGoalBoundsPart of cells [" + std::to_string(part.first()) + ", " + std::to_string(part.last()) +
               ") of a " + std::to_string(part.width()) + "x" + std::to_string(part.height()) + " map>";
      });
}

}  // namespace wayfinder::python
