// The `wayfinder` Python module's native part (`wayfinder._wayfinder`); wayfinder/__init__.py
// re-exports it. Names mirror the C++ API, so docs/python.md and the C++ docs describe one API.

#include "bindings.hpp"

PYBIND11_MODULE(_wayfinder, module) {
  module.doc() = "Wayfinder: pathfinding for games on grids, navigation meshes and voxel worlds.";
  wayfinder::python::bind_common(module);
  wayfinder::python::bind_grid(module);
  wayfinder::python::bind_goal_bounds_parts(module);
  wayfinder::python::bind_navmesh(module);
  wayfinder::python::bind_voxel(module);
  wayfinder::python::bind_crowd(module);

  // numpy is optional (bindings.hpp, numpy_loaded): imported here when it can be, so that whether
  // it is loaded is settled once, as the module is imported.
  // pybind11 looks numpy's C API up on first use behind a function-local static whose initializer
  // imports numpy. Two threads making their first arrays at once (their first query results)
  // could deadlock: one inside that import, waiting for the GIL the import gave up, the other
  // holding the GIL and waiting at the static's guard. Making one array of each element type here,
  // while the module is imported, settles those statics before any thread can race for them.
  try {
    (void)pybind11::module_::import("numpy");
    (void)pybind11::array_t<double>(0);
    (void)pybind11::array_t<float>(0);
    (void)pybind11::array_t<std::int32_t>(0);
    (void)pybind11::array_t<std::uint32_t>(0);
    (void)pybind11::array_t<std::uint8_t>(0);
  } catch (const pybind11::error_already_set&) {
    // No numpy: the module still imports; results hold lists of tuples instead of arrays, and
    // the calls that take arrays raise ImportError (require_numpy).
  }
}
