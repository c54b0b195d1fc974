// What every world shares: statuses, stop reasons, statistics, results, area filters and the
// LoadError exception (a Python ValueError subclass with file, line, column and cause).

#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "bindings.hpp"
#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder::python {

void apply_common_options(const CommonOptions& common, QueryOptions& options, SearchTrace* trace) {
  if (common.max_expansions) options.budget.max_expansions = *common.max_expansions;
  if (common.max_cost) {
    if (std::isnan(*common.max_cost) || *common.max_cost < 0) throw py::value_error("max_cost must be a number >= 0");
    options.budget.max_cost = *common.max_cost;
  }
  if (common.max_time) {
    if (!(*common.max_time > 0) || !std::isfinite(*common.max_time))
      throw py::value_error("max_time must be a finite number of seconds > 0");
    options.budget.max_time = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(*common.max_time));
  }
  options.return_partial = common.return_partial;
  options.partial_when_unreachable = common.partial_when_unreachable;
  options.trace = common.trace ? trace : nullptr;
}

bool numpy_loaded() {
  PyObject* numpy = PyImport_GetModule(py::str("numpy").ptr());  // new reference, or null
  if (numpy == nullptr) {
    PyErr_Clear();
    return false;
  }
  const bool loaded = numpy != Py_None;  // sys.modules["numpy"] = None blocks the import
  Py_DECREF(numpy);
  return loaded;
}

void require_numpy(const char* call) {
  if (numpy_loaded()) return;
  PyErr_SetString(PyExc_ImportError, (std::string(call) + " needs numpy (Debian: python3-numpy), which is not installed "
                                      "or cannot be imported; everything else works without it").c_str());
  throw py::error_already_set();
}

PyPathResult base_result(PathResult&& result) {
  PyPathResult out;
  out.status = result.status;
  out.reason = result.reason;
  out.cost = result.cost;
  out.message = std::move(result.message);
  out.stats = result.stats;
  out.nodes = std::move(result.nodes);
  out.links = std::move(result.links);
  return out;
}

namespace {

// A result pickles as its fields (so that results computed in other processes, as
// wayfinder.distributed's are, travel back); the leading 1 is the layout's version. The node
// ids and the numpy tables travel as their bytes: pickling them element by element would cost
// as much as the search that made them.
py::object pack_table(const py::object& table) {
  if (table.is_none() || py::isinstance<py::list>(table)) return table;  // no numpy: a list of tuples
  const py::tuple shape = table.attr("shape");
  return py::make_tuple(table.attr("dtype").attr("str"), shape[1], table.attr("tobytes")());
}

py::object unpack_table(const py::object& packed) {
  if (!py::isinstance<py::tuple>(packed)) return packed;
  const auto fields = packed.cast<py::tuple>();
  if (fields.size() != 3) throw py::value_error("a pickled PathResult's table is not one");
  require_numpy("unpickling a PathResult pickled with numpy");
  const py::module_ numpy = py::module_::import("numpy");
  return numpy.attr("frombuffer")(fields[2], py::arg("dtype") = fields[0])
      .attr("reshape")(-1, fields[1])
      .attr("copy")();
}

py::tuple result_state(const PyPathResult& result) {
  const SearchStats& stats = result.stats;
  const py::bytes nodes = as_bytes(result.nodes);
  return py::make_tuple(1, static_cast<int>(result.status), static_cast<int>(result.reason), result.cost,
                        result.message,
                        py::make_tuple(stats.expanded, stats.generated, stats.peak_open, stats.microseconds), nodes,
                        pack_table(result.path_array), pack_table(result.trace));
}

PyPathResult result_from_state(const py::tuple& state) {
  if (state.size() != 9 || !py::isinstance<py::int_>(state[0]) || state[0].cast<int>() != 1 ||
      !py::isinstance<py::bytes>(state[6]))
    throw py::value_error("not the pickled state of a PathResult (format version 1)");
  const int status = state[1].cast<int>();
  const int reason = state[2].cast<int>();
  if (status < 0 || status > static_cast<int>(SearchStatus::world_changed) || reason < 0 ||
      reason > static_cast<int>(StopReason::memory_limit))
    throw py::value_error("a pickled PathResult's status or reason is not one");
  PyPathResult result;
  result.status = static_cast<SearchStatus>(status);
  result.reason = static_cast<StopReason>(reason);
  result.cost = state[3].cast<double>();
  result.message = state[4].cast<std::string>();
  const auto stats = state[5].cast<py::tuple>();
  if (stats.size() != 4) throw py::value_error("a pickled PathResult's stats hold 4 numbers");
  result.stats = {stats[0].cast<std::uint64_t>(), stats[1].cast<std::uint64_t>(), stats[2].cast<std::uint64_t>(),
                  stats[3].cast<double>()};
  const std::string nodes = state[6].cast<py::bytes>();
  if (nodes.size() % sizeof(NodeId) != 0) throw py::value_error("a pickled PathResult's nodes are cut");
  result.nodes.resize(nodes.size() / sizeof(NodeId));
  if (!nodes.empty()) std::memcpy(result.nodes.data(), nodes.data(), nodes.size());
  result.path_array = unpack_table(state[7]);
  result.trace = unpack_table(state[8]);
  return result;
}

}  // namespace

void bind_common(py::module_& module) {
  py::enum_<SearchStatus>(module, "SearchStatus", "How a query ended (or that it is still running).")
      .value("in_progress", SearchStatus::in_progress)
      .value("found", SearchStatus::found)
      .value("partial", SearchStatus::partial)
      .value("no_path", SearchStatus::no_path)
      .value("budget_exhausted", SearchStatus::budget_exhausted)
      .value("invalid_input", SearchStatus::invalid_input)
      .value("world_changed", SearchStatus::world_changed);
  py::enum_<StopReason>(module, "StopReason", "Why a search stopped.")
      .value("none", StopReason::none)
      .value("goal_reached", StopReason::goal_reached)
      .value("open_list_empty", StopReason::open_list_empty)
      .value("expansion_limit", StopReason::expansion_limit)
      .value("cost_limit", StopReason::cost_limit)
      .value("time_limit", StopReason::time_limit)
      .value("invalid_input", StopReason::invalid_input)
      .value("world_changed", StopReason::world_changed)
      .value("gave_up", StopReason::gave_up)
      .value("memory_limit", StopReason::memory_limit);

  py::class_<SearchStats>(module, "SearchStats", "What a search did.")
      .def_readonly("expanded", &SearchStats::expanded, "nodes taken off the open list and expanded")
      .def_readonly("generated", &SearchStats::generated, "successor edges looked at")
      .def_readonly("peak_open", &SearchStats::peak_open, "largest open-list size")
      .def_readonly("microseconds", &SearchStats::microseconds, "wall time spent searching")
      .def("__repr__", [](const SearchStats& s) {
        return "SearchStats(expanded=" + std::to_string(s.expanded) + ", generated=" + std::to_string(s.generated) +
               ", peak_open=" + std::to_string(s.peak_open) + ", microseconds=" + std::to_string(s.microseconds) + ")";
      });

  py::class_<PathLinkStep>(module, "PathLinkStep", "an off-mesh link a mesh path takes")
      .def_readonly("waypoint", &PathLinkStep::waypoint, "index in path of the link's start; its end is the next point")
      .def_readonly("node", &PathLinkStep::node, "index in nodes of the polygon it leaves; the next is where it lands")
      .def_readonly("link", &PathLinkStep::link, "the link's id (NavMesh.off_mesh_link)")
      .def_readonly("reverse", &PathLinkStep::reverse, "a two-way link taken from its end to its start")
      .def("__repr__", [](const PathLinkStep& step) {
        return "PathLinkStep(waypoint=" + std::to_string(step.waypoint) + ", link=" + std::to_string(step.link) +
               (step.reverse ? ", reverse" : "") + ")";
      });

  py::class_<PyPathResult>(module, "PathResult",
                           "A query's answer. `path` lists the path's cells (grids), points (meshes) or blocks "
                           "(voxel worlds) as tuples; `path_array` is the same as a numpy array (without numpy: "
                           "the list of tuples).")
      .def_readonly("status", &PyPathResult::status)
      .def_readonly("reason", &PyPathResult::reason)
      .def_readonly("cost", &PyPathResult::cost, "cost of the returned path (0 without one)")
      .def_readonly("message", &PyPathResult::message, "for invalid_input: what was wrong")
      .def_readonly("stats", &PyPathResult::stats)
      .def_readonly("nodes", &PyPathResult::nodes, "node ids from start to the path's end")
      .def_readonly("links", &PyPathResult::links, "mesh paths: the off-mesh links taken, in order (else empty)")
      .def_readonly("path_array", &PyPathResult::path_array)
      .def_readonly("trace", &PyPathResult::trace,
                    "with trace=True: an (m, 3) or (m, 4) array of [event, x, y(, z)] (without numpy: a "
                    "list of such tuples); event 0 opened, 1 reached more cheaply, 2 closed. None otherwise.")
      .def_property_readonly("found", &PyPathResult::found)
      .def_property_readonly("has_path", &PyPathResult::has_path,
                             "found, or partial with at least one move: worth following")
      .def_property_readonly("path", [](const PyPathResult& result) {
        py::list path;
        if (py::isinstance<py::list>(result.path_array)) {  // no numpy: a copy of the table
          for (const py::handle row : result.path_array) path.append(row);
          return path;
        }
        const py::list rows = result.path_array.attr("tolist")();
        for (const py::handle row : rows) path.append(py::tuple(row.cast<py::list>()));
        return path;
      })
      .def(py::pickle(&result_state, &result_from_state))
      .def("__repr__", [](const PyPathResult& result) {
        return "PathResult(status=" + std::string(to_string(result.status)) + ", cost=" + std::to_string(result.cost) +
               ", nodes=" + std::to_string(result.nodes.size()) + ")";
      });

  py::class_<AreaFilter>(module, "AreaFilter",
                         "Per-query area cost multipliers and include/exclude flag masks (see "
                         "docs/changing-worlds.md). Places with no flags are always included.")
      .def(py::init<>())
      .def("set_area_cost", &AreaFilter::set_area_cost, py::arg("area"), py::arg("cost"),
           py::return_value_policy::reference_internal,
           "cost multiplier of an area (0..63): > 0, or float('inf') to exclude it")
      .def("exclude_area", &AreaFilter::exclude_area, py::arg("area"), py::return_value_policy::reference_internal)
      .def("area_cost", [](const AreaFilter& filter, int area) {
        if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
        return filter.cost(static_cast<AreaId>(area));
      })
      .def_readwrite("include_flags", &AreaFilter::include_flags)
      .def_readwrite("exclude_flags", &AreaFilter::exclude_flags)
      .def("passes", &AreaFilter::passes, py::arg("area"), py::arg("flags"));
  module.attr("max_areas") = max_areas;

  // LoadError: raised with the message, and file, line, column and cause as attributes.
  // The type lives in the module (no static object); the translator finds it there.
  py::exception<LoadError>(module, "LoadError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) std::rethrow_exception(pointer);
    } catch (const LoadError& error) {
      const py::object load_error = py::module_::import("wayfinder._wayfinder").attr("LoadError");
      py::object instance = load_error(error.what());
      instance.attr("file") = error.file();
      instance.attr("line") = error.line();
      instance.attr("column") = error.column();
      instance.attr("cause") = error.cause();
      PyErr_SetObject(load_error.ptr(), instance.ptr());
    }
  });
}

}  // namespace wayfinder::python
