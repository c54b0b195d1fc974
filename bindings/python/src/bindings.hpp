#pragma once
// The Python module's shared pieces: the result object every query returns, the options every
// world's queries share, and one function per world that adds its classes to the module.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder::python {

namespace py = pybind11;

/// The elements of `values` as a Python bytes object: their memory, in this machine's byte order
/// (pickled states and table files travel this way).
template <class T>
py::bytes as_bytes(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

/// A query's answer as Python sees it: the PathResult's fields, the path as a table (grid cells
/// (n, 2) int32, mesh points (n, 3) float64, voxel blocks (n, 3) int32) and, when asked, the
/// trace as an (m, 3) or (m, 4) float64 table of [event, x, y(, z)] rows. Tables are numpy
/// arrays when numpy is loaded and lists of tuples otherwise (make_table).
struct PyPathResult {
  SearchStatus status = SearchStatus::in_progress;
  StopReason reason = StopReason::none;
  double cost = 0.0;
  std::string message;
  SearchStats stats;
  std::vector<NodeId> nodes;
  std::vector<PathLinkStep> links;  ///< navigation meshes: the off-mesh links the path takes
  py::object path_array;
  py::object trace;
  [[nodiscard]] bool found() const { return status == SearchStatus::found; }
  [[nodiscard]] bool has_path() const {
    return status == SearchStatus::found || (status == SearchStatus::partial && nodes.size() > 1);
  }
};

/// The shared keyword options (QueryOptions), as passed from Python.
struct CommonOptions {
  std::optional<std::uint64_t> max_expansions;
  std::optional<double> max_cost;
  std::optional<double> max_time;  ///< seconds
  bool return_partial = true;
  bool partial_when_unreachable = false;
  bool trace = false;
};

/// Copies them into a world's options; throws py::value_error for a negative or NaN limit.
void apply_common_options(const CommonOptions& common, QueryOptions& options, SearchTrace* trace);

// CommonOptions' keywords and defaults, written once for every world's find_path.
#define WAYFINDER_COMMON_OPTION_ARGS                                                                              \
  py::arg("max_expansions") = py::none(), py::arg("max_cost") = py::none(), py::arg("max_time") = py::none(), \
      py::arg("return_partial") = true, py::arg("partial_when_unreachable") = false, py::arg("trace") = false

/// One whole query with the GIL released, so that other Python threads run while it searches.
template <class Query, class Request>
PathResult find_path_unlocked(Query& query, const Request& request) {
  PathResult result;
  py::gil_scoped_release unlocked;
  query.find_path(request, result);
  return result;
}

/// Whether numpy is loaded. numpy is optional: the module imports it, when it can, as it is
/// itself imported (module.cpp), so from then on numpy is in sys.modules exactly when it is
/// installed and importable, and this check costs a dictionary look-up.
[[nodiscard]] bool numpy_loaded();

/// Throws ImportError naming `call` unless numpy is loaded: the calls that take arrays need it.
void require_numpy(const char* call);

/// An (n, columns) table of `T` filled by `fill(row, column)`: a numpy array when numpy is
/// loaded, else a list of n tuples (what the array's tolist() would give, rows as tuples).
template <class T, class Fill>
py::object make_table(std::size_t rows, std::size_t columns, Fill&& fill) {
  if (!numpy_loaded()) {
    py::list table;
    for (std::size_t r = 0; r < rows; ++r) {
      py::tuple row(columns);
      for (std::size_t c = 0; c < columns; ++c) row[c] = py::cast(fill(r, c));
      table.append(std::move(row));
    }
    return table;
  }
  py::array_t<T> array({rows, columns});
  auto view = array.template mutable_unchecked<2>();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < columns; ++c) view(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(c)) = fill(r, c);
  return array;
}

/// The trace as a float64 table of [event, x, y(, z)] rows, positions from `position`.
template <class Position>
py::object trace_table(const SearchTrace& trace, std::size_t dimensions, Position&& position) {
  const auto& events = trace.events();
  std::vector<Point> places;
  places.reserve(events.size());
  for (const TraceRecord& event : events) places.push_back(position(event.node));
  return make_table<double>(events.size(), dimensions + 1, [&](std::size_t r, std::size_t c) {
    if (c == 0) return static_cast<double>(events[r].event);
    return c == 1 ? places[r].x : c == 2 ? places[r].y : places[r].z;
  });
}

/// A point of a mesh world as Python passes it, (x, y, z), y up, and back.
using PointTuple = std::array<double, 3>;
inline Point to_point(const PointTuple& p) { return {p[0], p[1], p[2]}; }
inline py::tuple to_tuple(const Point& p) { return py::make_tuple(p.x, p.y, p.z); }

/// The fields of a PathResult every world copies the same way.
PyPathResult base_result(PathResult&& result);

void bind_common(py::module_& module);
void bind_grid(py::module_& module);
/// GridJumpTable and GridGoalBounds; bind_grid calls it before GridDerivedData, which holds them.
void bind_grid_cell_tables(py::module_& module);
/// GridGoalBoundsPart: goal bounds built in ranges of cells, merged by GridGoalBounds.merge.
void bind_goal_bounds_parts(py::module_& module);
void bind_navmesh(py::module_& module);
/// OffMeshLink, PlacedOffMeshLink, the links file readers and NavMesh's link calls.
void bind_off_mesh_links(py::module_& module, py::class_<NavMesh>& mesh);
/// AgentSettings, NavMeshBuildReport, build_navmesh and NavMesh.build_from_level; without the
/// navmesh_build library the calls raise RuntimeError saying so.
void bind_navmesh_build(py::module_& module, py::class_<NavMesh>& mesh);
/// Throws RuntimeError naming `call` when the module was built without navmesh_build (Recast).
void require_navmesh_build(const char* call);
/// Tiled meshes: NavMeshTileGrid, NavMeshTile, PolygonRef, NavMeshTileInfo, MeshGeometry's
/// constructor and NavMesh's tile calls (nav_mesh_tiles.hpp).
void bind_navmesh_tiles(py::module_& module, py::class_<NavMesh>& mesh);
/// build_navmesh_tiles, the obstacles, AreaVolume, NavMeshTileCache and the .wfnav with its tile
/// cache; without navmesh_build the calls raise RuntimeError saying so.
void bind_navmesh_tile_cache(py::module_& module);
/// Crowd and its settings (crowd/crowd.hpp).
void bind_crowd(py::module_& module);
void bind_voxel(py::module_& module);

}  // namespace wayfinder::python
