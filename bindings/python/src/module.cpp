// The `wayfinder` Python module's native part (`wayfinder._wayfinder`); wayfinder/__init__.py
// re-exports it. Names mirror the C++ API, so docs/python.md and the C++ docs describe one API.

#include "bindings.hpp"

PYBIND11_MODULE(_wayfinder, module) {
  module.doc() = "Wayfinder: pathfinding for games on grids, navigation meshes and voxel worlds.";
  wayfinder::python::bind_common(module);
  wayfinder::python::bind_grid(module);
  wayfinder::python::bind_navmesh(module);
  wayfinder::python::bind_voxel(module);
}
