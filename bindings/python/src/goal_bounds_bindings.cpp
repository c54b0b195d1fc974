// JPS+'s goal bounds (GridGoalBounds) and their parts (GridGoalBoundsPart): built whole or in
// ranges of cells, merged, saved and loaded. Parts pickle as their file's bytes, so that ranges
// built in other processes (wayfinder.distributed) travel back to be merged.

#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"

namespace wayfinder::python {

namespace {

py::bytes bytes_of(const std::vector<unsigned char>& data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

GridGoalBoundsPart part_from_bytes(const py::bytes& data, const std::string& source_name) {
  const std::string text = data;
  return GridGoalBoundsPart::from_bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size(), source_name);
}

}  // namespace

void bind_goal_bounds(py::module_& module) {
  py::class_<GridGoalBounds>(module, "GridGoalBounds",
                             "JPS+'s goal bounds of one map version (docs/grid.md, \"Goal bounding\"): for every cell "
                             "and direction, the box of the goals a move that way reaches optimally.")
      .def(py::init([](const GridMap& map, int threads) {
             py::gil_scoped_release unlocked;
             return GridGoalBounds(map, {}, threads);
           }),
           py::arg("map"), py::kw_only(), py::arg("threads") = 2,
           "Builds the bounds of `map` as it is now on `threads` threads (one Dijkstra search per passable cell: "
           "quadratic; the GIL is released meanwhile).")
      .def_static(
          "merge",
          [](const std::vector<GridGoalBoundsPart>& parts, const GridMap& map) {
            py::gil_scoped_release unlocked;
            return GridGoalBounds::merge(parts, map);
          },
          py::arg("parts"), py::arg("map"),
          "The bounds of `map` from parts (GridGoalBoundsPart) in any order, equal to the whole build's; raises "
          "ValueError saying why when a part belongs to another map, parts overlap or cells are in no part.")
      .def_static(
          "load", [](const std::string& path, const GridMap& map) { return GridGoalBounds::load(path, map); },
          py::arg("path"), py::arg("map"), "reads bounds saved for `map`; raises LoadError naming the file and why")
      .def("save", [](const GridGoalBounds& bounds, const std::string& path) { bounds.save(path); }, py::arg("path"))
      .def("to_bytes", [](const GridGoalBounds& bounds) { return bytes_of(bounds.to_bytes()); },
           "the bytes save() writes")
      .def("mismatch", &GridGoalBounds::mismatch, py::arg("map"),
           "why the bounds do not belong to `map` as it is now, or None")
      .def_property_readonly("width", &GridGoalBounds::width)
      .def_property_readonly("height", &GridGoalBounds::height)
      .def_property_readonly("map_checksum", &GridGoalBounds::map_checksum)
      .def_property_readonly("build_seconds", &GridGoalBounds::build_seconds,
                             "seconds spent building (for merged bounds, the parts' sum; 0 when loaded)")
      .def_property_readonly("build_threads", &GridGoalBounds::build_threads, "0 for merged or loaded bounds")
      .def_property_readonly("memory_bytes", &GridGoalBounds::memory_bytes);

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
      .def("to_bytes", [](const GridGoalBoundsPart& part) { return bytes_of(part.to_bytes()); },
           "the bytes save() writes")
      .def_property_readonly("first", &GridGoalBoundsPart::first)
      .def_property_readonly("last", &GridGoalBoundsPart::last)
      .def_property_readonly("width", &GridGoalBoundsPart::width)
      .def_property_readonly("height", &GridGoalBoundsPart::height)
      .def_property_readonly("map_checksum", &GridGoalBoundsPart::map_checksum)
      .def_property_readonly("build_seconds", &GridGoalBoundsPart::build_seconds)
      .def(py::pickle([](const GridGoalBoundsPart& part) { return py::make_tuple(bytes_of(part.to_bytes())); },
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
