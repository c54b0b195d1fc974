// Navigation meshes from level geometry (navmesh_build/navmesh_builder.hpp, Recast): the agent's
// settings, the build and its report. The navmesh_build library is optional (it needs Recast);
// a module built without it keeps AgentSettings (plain values) and its build calls raise
// RuntimeError saying so, so that the module imports either way.

#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"

namespace wayfinder::python {

namespace {

#ifdef WAYFINDER_PYTHON_WITH_RECAST
constexpr bool with_navmesh_build = true;
#else
constexpr bool with_navmesh_build = false;
#endif

std::optional<std::string> problem_of(const AgentSettings& settings) {
  require_navmesh_build("AgentSettings.problem");
#ifdef WAYFINDER_PYTHON_WITH_RECAST
  return settings_problem(settings);
#else
  (void)settings;
  return std::nullopt;
#endif
}

// The level: a MeshGeometry, or the path (str or os.PathLike) of a Wavefront OBJ file.
MeshGeometry level_geometry(const py::object& level, UpAxis up) {
  if (py::isinstance<MeshGeometry>(level)) return level.cast<MeshGeometry>();
  const py::object path = py::module_::import("os").attr("fspath")(level);
  ObjReadOptions options;
  options.up = up;
  return read_obj_mesh(path.cast<std::string>(), options);
}

std::pair<NavMesh, NavMeshBuildReport> build_level(const py::object& level, const std::optional<AgentSettings>& given,
                                                   UpAxis up) {
  require_navmesh_build("build_navmesh");
  const AgentSettings settings = given.value_or(AgentSettings{});
  if (const std::optional<std::string> problem = problem_of(settings)) throw py::value_error(*problem);
  const MeshGeometry geometry = level_geometry(level, up);
  NavMeshBuildReport report;
#ifdef WAYFINDER_PYTHON_WITH_RECAST
  py::gil_scoped_release unlocked;  // seconds on a large level
  NavMesh mesh = NavMesh::build(build_navmesh_geometry(geometry, settings, &report));
  return {std::move(mesh), report};
#else
  (void)geometry;
  throw std::logic_error("unreachable: require_navmesh_build threw");
#endif
}

}  // namespace

void require_navmesh_build(const char* call) {
  if constexpr (!with_navmesh_build) {
    throw std::runtime_error(std::string(call) +
                             ": this wayfinder module was built without the navmesh_build library (Recast, Debian's "
                             "librecast-dev, was not found when it was built), so it cannot build navigation meshes "
                             "from level geometry");
  }
}

void bind_navmesh_build(py::module_& module, py::class_<NavMesh>& mesh) {
  module.attr("has_navmesh_build") = with_navmesh_build;

  py::class_<AgentSettings>(module, "AgentSettings",
                            "What a navigation mesh is built for, and how finely (C++ AgentSettings; docs/navmesh.md). "
                            "Lengths in the level's units, angles in degrees; the defaults are RecastDemo's.")
      .def(py::init([](double cell_size, double cell_height, double agent_height, double agent_radius,
                       double max_climb, double max_slope_degrees, int region_min_size, int region_merge_size,
                       double edge_max_length, double edge_max_error, int vertices_per_polygon,
                       double detail_sample_distance, double detail_sample_max_error, int tile_size) {
             AgentSettings settings{cell_size,       cell_height,          agent_height,         agent_radius,
                                    max_climb,       max_slope_degrees,    region_min_size,      region_merge_size,
                                    edge_max_length, edge_max_error,       vertices_per_polygon, detail_sample_distance,
                                    detail_sample_max_error, tile_size};
             if constexpr (with_navmesh_build) {
               if (const std::optional<std::string> problem = problem_of(settings)) throw py::value_error(*problem);
             }
             return settings;
           }),
           py::kw_only(), py::arg("cell_size") = AgentSettings{}.cell_size,
           py::arg("cell_height") = AgentSettings{}.cell_height, py::arg("agent_height") = AgentSettings{}.agent_height,
           py::arg("agent_radius") = AgentSettings{}.agent_radius, py::arg("max_climb") = AgentSettings{}.max_climb,
           py::arg("max_slope_degrees") = AgentSettings{}.max_slope_degrees,
           py::arg("region_min_size") = AgentSettings{}.region_min_size,
           py::arg("region_merge_size") = AgentSettings{}.region_merge_size,
           py::arg("edge_max_length") = AgentSettings{}.edge_max_length,
           py::arg("edge_max_error") = AgentSettings{}.edge_max_error,
           py::arg("vertices_per_polygon") = AgentSettings{}.vertices_per_polygon,
           py::arg("detail_sample_distance") = AgentSettings{}.detail_sample_distance,
           py::arg("detail_sample_max_error") = AgentSettings{}.detail_sample_max_error,
           py::arg("tile_size") = AgentSettings{}.tile_size,
           "raises ValueError with C++ settings_problem's reason for settings that cannot be used (with the "
           "navmesh_build library; without it they are checked by nothing, and nothing can use them)")
      .def_readwrite("cell_size", &AgentSettings::cell_size)
      .def_readwrite("cell_height", &AgentSettings::cell_height)
      .def_readwrite("agent_height", &AgentSettings::agent_height)
      .def_readwrite("agent_radius", &AgentSettings::agent_radius)
      .def_readwrite("max_climb", &AgentSettings::max_climb)
      .def_readwrite("max_slope_degrees", &AgentSettings::max_slope_degrees)
      .def_readwrite("region_min_size", &AgentSettings::region_min_size)
      .def_readwrite("region_merge_size", &AgentSettings::region_merge_size)
      .def_readwrite("edge_max_length", &AgentSettings::edge_max_length)
      .def_readwrite("edge_max_error", &AgentSettings::edge_max_error)
      .def_readwrite("vertices_per_polygon", &AgentSettings::vertices_per_polygon)
      .def_readwrite("detail_sample_distance", &AgentSettings::detail_sample_distance)
      .def_readwrite("detail_sample_max_error", &AgentSettings::detail_sample_max_error)
      .def_readwrite("tile_size", &AgentSettings::tile_size)
      .def("problem", &problem_of,
           "why the settings (as edited since) cannot be used, or None; RuntimeError without navmesh_build");

  py::class_<NavMeshBuildReport>(module, "NavMeshBuildReport", "what a build did")
      .def_readonly("input_triangles", &NavMeshBuildReport::input_triangles)
      .def_readonly("walkable_triangles", &NavMeshBuildReport::walkable_triangles)
      .def_readonly("grid_width", &NavMeshBuildReport::grid_width, "voxels along x")
      .def_readonly("grid_depth", &NavMeshBuildReport::grid_depth, "voxels along z")
      .def_readonly("tiles", &NavMeshBuildReport::tiles)
      .def_readonly("polygons", &NavMeshBuildReport::polygons)
      .def_readonly("vertices", &NavMeshBuildReport::vertices)
      .def_readonly("detail_triangles", &NavMeshBuildReport::detail_triangles)
      .def_readonly("border_vertices_added", &NavMeshBuildReport::border_vertices_added)
      .def_readonly("milliseconds", &NavMeshBuildReport::milliseconds);

  module.def("build_navmesh", &build_level, py::arg("level"), py::arg("settings") = py::none(), py::kw_only(),
             py::arg("up") = UpAxis::y,
             "(NavMesh, NavMeshBuildReport): the navigation mesh of a level (a MeshGeometry, or the path of a "
             "Wavefront OBJ file read with `up`) for an agent with `settings` (None: the defaults), with detail "
             "heights. Raises ValueError for bad settings or a level with no triangles, LoadError for a bad file, "
             "RuntimeError when Recast fails or the module was built without navmesh_build. The GIL is released "
             "while it builds.");
  mesh.def_static("build_from_level",
                  [](const py::object& level, const std::optional<AgentSettings>& settings, UpAxis up) {
                    return build_level(level, settings, up).first;
                  },
                  py::arg("level"), py::arg("settings") = py::none(), py::kw_only(), py::arg("up") = UpAxis::y,
                  "build_navmesh's mesh without the report");
}

}  // namespace wayfinder::python
