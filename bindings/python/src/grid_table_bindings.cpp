// JPS+'s per-cell tables of a grid: the jump table (GridJumpTable) and the goal bounds
// (GridGoalBounds, also merged from parts built apart). Both are built once for a version of a map, saved to and loaded from files
// (GridCellTable), and handed to GridQuery or GridDerivedData; they hold no reference to the map.

#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"

namespace wayfinder::python {

namespace {

// What both tables share (GridCellTable): their map stamp, checks, build time and file.
template <class Table>
void bind_cell_table_calls(py::class_<Table, std::shared_ptr<Table>>& table) {
  table.def_property_readonly("width", &Table::width)
      .def_property_readonly("height", &Table::height)
      .def_property_readonly("revision", &Table::revision, "the map's revision when it was built or loaded")
      .def_property_readonly("build_seconds", &Table::build_seconds, "seconds spent building (0 when loaded)")
      .def_property_readonly("memory_bytes", &Table::memory_bytes)
      .def("mismatch", [](const Table& t, const GridMap& map) { return t.mismatch_thoroughly(map); }, py::arg("map"),
           "why the table does not belong to the map as it is now (size, revision or passability), or None")
      .def("save", [](const Table& t, const std::string& path) {
        try {
          t.save(path);
        } catch (const std::runtime_error& error) {
          // save()'s one failure: the file cannot be written. Python calls that an OSError.
          PyErr_SetString(PyExc_OSError, error.what());
          throw py::error_already_set();
        }
      }, py::arg("path"), "writes the table (replacing the file); raises OSError when it cannot be written")
      .def_static("load", [](const std::string& path, const GridMap& map) {
        return std::make_shared<Table>(Table::load(path, map));
      }, py::arg("path"), py::arg("map"),
         "reads a table saved for `map` and checks it; raises LoadError naming the file and the reason (another "
         "kind, version or map, truncated, damaged)");
}

}  // namespace

void bind_grid_cell_tables(py::module_& module) {
  py::class_<GridJumpTable, std::shared_ptr<GridJumpTable>> jump_table(
      module, "GridJumpTable",
      "JPS+'s jump distances of one version of a map (16 bytes per cell): build, save, load, then hand to "
      "GridQuery.set_jump_table or GridDerivedData.jump_table for algorithm=GridAlgorithm.jump_point_plus.");
  jump_table.def(py::init([](const GridMap& map) {
    py::gil_scoped_release unlocked;
    return std::make_shared<GridJumpTable>(map);
  }), py::arg("map"), "builds the table of the map as it is now (the GIL is released meanwhile)");
  bind_cell_table_calls(jump_table);

  py::class_<GridGoalBounds, std::shared_ptr<GridGoalBounds>> goal_bounds(
      module, "GridGoalBounds",
      "Goal bounds of one version of a map (docs/grid.md, \"Goal bounding\"): per cell and direction the box of "
      "goals an optimal path may start that way to. JPS+ skips jumps whose box excludes the goal, still optimal. "
      "The build is quadratic in the passable cells: build once, save, load.");
  goal_bounds.def(py::init([](const GridMap& map, int threads) {
    if (threads < 1) throw py::value_error("threads must be at least 1");
    py::gil_scoped_release unlocked;
    return std::make_shared<GridGoalBounds>(map, GridGoalBounds::Progress{}, threads);
  }), py::arg("map"), py::kw_only(), py::arg("threads") = 2,
     "builds the bounds of the map as it is now on `threads` threads (the GIL is released meanwhile)");
  goal_bounds.def_property_readonly("build_threads", &GridGoalBounds::build_threads, "0 for merged or loaded bounds")
      .def_property_readonly("map_checksum", &GridGoalBounds::map_checksum)
      .def_static(
          "merge",
          [](const std::vector<GridGoalBoundsPart>& parts, const GridMap& map) {
            py::gil_scoped_release unlocked;
            return std::make_shared<GridGoalBounds>(GridGoalBounds::merge(parts, map));
          },
          py::arg("parts"), py::arg("map"),
          "The bounds of `map` from parts (GridGoalBoundsPart) in any order, equal to the whole build's; raises "
          "ValueError saying why when a part belongs to another map, parts overlap or cells are in no part.")
      .def("to_bytes", [](const GridGoalBounds& bounds) { return as_bytes(bounds.to_bytes()); },
           "the bytes save() writes");
  bind_cell_table_calls(goal_bounds);
}

}  // namespace wayfinder::python
