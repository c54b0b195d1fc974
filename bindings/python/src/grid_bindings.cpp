// Grids: GridMap (MovingAI files, numpy arrays of costs, edits, areas and flags), the grid
// query object GridQuery (whole and stepped searches) and batches over threads.

#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <span>
#include <utility>

#include "bindings.hpp"
#include "world_state.hpp"
#include "wayfinder/core/path_batch.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"

namespace wayfinder::python {

namespace {

using CellTuple = std::pair<int, int>;

Cell to_cell(const CellTuple& cell) { return {cell.first, cell.second}; }

// A grid query's keyword arguments: the grid's own options, and the shared ones, which
// apply_common_options turns into QueryOptions once the trace is known.
struct GridQueryArguments {
  GridSearchOptions options;
  CommonOptions common;
};

GridSearchOptions grid_options(const GridQueryArguments& arguments, SearchTrace* trace) {
  GridSearchOptions options = arguments.options;
  apply_common_options(arguments.common, options, trace);
  return options;
}

PyPathResult grid_result(const GridMap& map, PathResult&& result, const SearchTrace* trace) {
  PyPathResult out = base_result(std::move(result));
  out.path_array = make_table<std::int32_t>(out.nodes.size(), 2, [&](std::size_t r, std::size_t c) {
    const Cell cell = map.cell_of(out.nodes[r]);
    return c == 0 ? cell.x : cell.y;
  });
  if (trace != nullptr) {
    out.trace = trace_table(*trace, 2, [&](NodeId node) {
      const Cell cell = map.cell_of(node);
      return Point{static_cast<double>(cell.x), static_cast<double>(cell.y), 0.0};
    });
  } else {
    out.trace = py::none();
  }
  return out;
}

// The keyword options of every grid query, in one place.
#define WAYFINDER_GRID_QUERY_ARGS                                                                              \
  py::kw_only(), py::arg("algorithm") = GridAlgorithm::astar,                                                  \
      py::arg("diagonal") = DiagonalMode::only_if_no_obstacles, py::arg("heuristic") = Heuristic::automatic,   \
      py::arg("weight") = GridSearchOptions{}.weight, py::arg("walker_step_limit") = 0,                       \
      py::arg("filter") = py::none(), py::arg("agent_size") = 1, WAYFINDER_COMMON_OPTION_ARGS

GridQueryArguments collect(GridAlgorithm algorithm, DiagonalMode diagonal, Heuristic heuristic, double weight,
                           std::uint64_t walker_step_limit, std::optional<AreaFilter> filter, int agent_size,
                           std::optional<std::uint64_t> max_expansions, std::optional<double> max_cost,
                           std::optional<double> max_time, bool return_partial, bool partial_when_unreachable,
                           bool trace) {
  GridQueryArguments arguments;
  arguments.options.algorithm = algorithm;
  arguments.options.diagonal = diagonal;
  arguments.options.heuristic = heuristic;
  arguments.options.weight = weight;
  arguments.options.walker_step_limit = walker_step_limit;
  arguments.options.filter = std::move(filter);
  arguments.options.agent_size = agent_size;
  arguments.common = {max_expansions, max_cost, max_time, return_partial, partial_when_unreachable, trace};
  return arguments;
}

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using MaskArray = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

// The shape checks are Python's (numpy arrays have shapes); the cells' rules are GridMap's.
GridMap grid_from_costs(const py::object& cost_array, const py::object& blocked_array) {
  require_numpy("GridMap.from_costs");
  const auto costs = cost_array.is_none() ? std::nullopt : std::optional(cost_array.cast<FloatArray>());
  const auto blocked = blocked_array.is_none() ? std::nullopt : std::optional(blocked_array.cast<MaskArray>());
  if (!costs && !blocked) throw py::value_error("from_costs needs costs, blocked or both");
  if (costs && costs->ndim() != 2) throw py::value_error("costs must be a 2-D array (height, width)");
  if (blocked && blocked->ndim() != 2) throw py::value_error("blocked must be a 2-D boolean array (height, width)");
  const py::ssize_t height = costs ? costs->shape(0) : blocked->shape(0);
  const py::ssize_t width = costs ? costs->shape(1) : blocked->shape(1);
  if (costs && blocked && (blocked->shape(0) != height || blocked->shape(1) != width))
    throw py::value_error("blocked must be a boolean array of the same shape as costs");
  if (height < 1 || width < 1 || height > max_grid_side || width > max_grid_side)
    throw py::value_error("a grid must be 1 to " + std::to_string(max_grid_side) + " cells on each side");
  const auto cells = static_cast<std::size_t>(height * width);
  const std::span<const float> cost_span = costs ? std::span(costs->data(), cells) : std::span<const float>{};
  const std::span<const std::uint8_t> mask_span =
      blocked ? std::span(blocked->data(), cells) : std::span<const std::uint8_t>{};
  return GridMap::from_costs(static_cast<int>(width), static_cast<int>(height), cost_span, mask_span);
}

py::object grid_to_costs(const GridMap& map) {
  return make_table<float>(static_cast<std::size_t>(map.height()), static_cast<std::size_t>(map.width()),
                           [&](std::size_t y, std::size_t x) {
                             const int cx = static_cast<int>(x);
                             const int cy = static_cast<int>(y);
                             return map.passable(cx, cy) ? map.cost(cx, cy) : std::numeric_limits<float>::infinity();
                           });
}

}  // namespace

void bind_grid(py::module_& module) {
  py::enum_<GridAlgorithm>(module, "GridAlgorithm")
      .value("breadth_first", GridAlgorithm::breadth_first)
      .value("dijkstra", GridAlgorithm::dijkstra)
      .value("astar", GridAlgorithm::astar)
      .value("weighted_astar", GridAlgorithm::weighted_astar)
      .value("greedy_best_first", GridAlgorithm::greedy_best_first)
      .value("bidirectional_astar", GridAlgorithm::bidirectional_astar)
      .value("ida_star", GridAlgorithm::ida_star)
      .value("jump_point", GridAlgorithm::jump_point)
      .value("crash_right", GridAlgorithm::crash_right)
      .value("crash_left", GridAlgorithm::crash_left)
      .value("crash_auto", GridAlgorithm::crash_auto)
      .value("crash_four_way", GridAlgorithm::crash_four_way)
      .value("divide", GridAlgorithm::divide)
      .value("jump_point_plus", GridAlgorithm::jump_point_plus)
      .value("hierarchical", GridAlgorithm::hierarchical);
  module.def("parse_grid_algorithm", [](const std::string& name) {
    const auto algorithm = parse_grid_algorithm(name);
    if (!algorithm) throw py::value_error("unknown grid algorithm '" + name + "'");
    return *algorithm;
  }, py::arg("name"), "the algorithm of a command-line name: bfs, dijkstra, astar, weighted-astar, greedy, "
                      "bidirectional, ida, jps, crash-right, crash-left, crash-auto, crash-four-way, divide, hpa");
  py::enum_<DiagonalMode>(module, "DiagonalMode")
      .value("never", DiagonalMode::never)
      .value("at_least_one_walkable", DiagonalMode::at_least_one_walkable)
      .value("only_if_no_obstacles", DiagonalMode::only_if_no_obstacles)
      .value("always", DiagonalMode::always);
  py::enum_<Heuristic>(module, "Heuristic")
      .value("automatic", Heuristic::automatic)
      .value("octile", Heuristic::octile)
      .value("euclidean", Heuristic::euclidean)
      .value("manhattan", Heuristic::manhattan)
      .value("chebyshev", Heuristic::chebyshev);

  py::class_<GridRect>(module, "GridRect", "cells [x, x + width) x [y, y + height)")
      .def(py::init<int, int, int, int>(), py::arg("x"), py::arg("y"), py::arg("width"), py::arg("height"))
      .def_readwrite("x", &GridRect::x)
      .def_readwrite("y", &GridRect::y)
      .def_readwrite("width", &GridRect::width)
      .def_readwrite("height", &GridRect::height);

  py::class_<GridMap>(module, "GridMap",
                      "A 2D tile map: width x height cells, each blocked or passable with a terrain cost. Cells "
                      "are (x, y) tuples, x the column and y the row (0 at the top), as in MovingAI.")
      .def(py::init<int, int>(), py::arg("width"), py::arg("height"), "every cell passable at cost 1")
      .def_static("from_costs", &grid_from_costs, py::arg("costs") = py::none(), py::arg("blocked") = py::none(),
                  "a map from a 2-D array of costs (rows are y) and/or a boolean mask `blocked` of the same shape: "
                  "inf (or True in `blocked`) is a wall, other costs must be > 0; without costs every cell costs "
                  "1. float32 arrays are read in place; others are converted once. Raises ImportError without numpy.")
      .def("to_costs", &grid_to_costs,
           "the costs as a (height, width) float32 array, inf for walls (without numpy: a list of row tuples)")
      .def_property_readonly("width", &GridMap::width)
      .def_property_readonly("height", &GridMap::height)
      .def("contains", [](const GridMap& map, const CellTuple& cell) { return map.contains(to_cell(cell)); })
      .def("passable", [](const GridMap& map, const CellTuple& cell) { return map.passable(to_cell(cell)); })
      .def("cost", [](const GridMap& map, const CellTuple& cell) {
        if (!map.contains(to_cell(cell))) throw py::index_error("cell outside the map");
        return map.cost(cell.first, cell.second);
      })
      .def("set_passable", [](GridMap& map, const CellTuple& cell, bool passable) {
        map.set_passable(cell.first, cell.second, passable);
      }, py::arg("cell"), py::arg("passable"))
      .def("set_cost", [](GridMap& map, const CellTuple& cell, float cost) { map.set_cost(cell.first, cell.second, cost); },
           py::arg("cell"), py::arg("cost"))
      .def("block", [](GridMap& map, const CellTuple& cell) { map.block(to_cell(cell)); }, py::arg("cell"))
      .def("unblock", [](GridMap& map, const CellTuple& cell) { map.unblock(to_cell(cell)); }, py::arg("cell"))
      .def("block_rect", &GridMap::block_rect, py::arg("rect"))
      .def("unblock_rect", &GridMap::unblock_rect, py::arg("rect"))
      .def("set_area", [](GridMap& map, const CellTuple& cell, int area) {
        if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
        map.set_area(to_cell(cell), static_cast<AreaId>(area));
      }, py::arg("cell"), py::arg("area"))
      .def("set_area_rect", [](GridMap& map, const GridRect& rect, int area) {
        if (area < 0 || area >= max_areas) throw py::value_error("area must be in [0, 64)");
        map.set_area(rect, static_cast<AreaId>(area));
      }, py::arg("rect"), py::arg("area"))
      .def("set_flags", [](GridMap& map, const CellTuple& cell, AreaFlags flags) { map.set_flags(to_cell(cell), flags); },
           py::arg("cell"), py::arg("flags"))
      .def("set_flags_rect", [](GridMap& map, const GridRect& rect, AreaFlags flags) { map.set_flags(rect, flags); },
           py::arg("rect"), py::arg("flags"))
      .def("area", [](const GridMap& map, const CellTuple& cell) { return map.area(to_cell(cell)); })
      .def("flags", [](const GridMap& map, const CellTuple& cell) { return map.flags(to_cell(cell)); })
      .def_property_readonly("revision", &GridMap::revision, "the number of edits that changed something")
      .def_property_readonly("uniform_cost", &GridMap::uniform_cost)
      .def("passable_count", &GridMap::passable_count)
      .def(py::pickle(&grid_state, &grid_from_state))
      .def("__eq__", [](const GridMap& map, const GridMap& other) { return grid_state(map).equal(grid_state(other)); },
           "same size, walls, costs (a wall's included), areas and flags; revisions aside");

  module.def("read_movingai_map", [](const std::string& path) { return read_movingai_map(path); }, py::arg("path"),
             "reads a MovingAI .map file; raises LoadError with the file and line");
  module.def("parse_movingai_map", [](const std::string& text, const std::string& source_name) {
    return parse_movingai_map(text, source_name);
  }, py::arg("text"), py::arg("source_name") = "<text>");

  py::class_<ScenarioQuery>(module, "ScenarioQuery")
      .def_readonly("bucket", &ScenarioQuery::bucket)
      .def_property_readonly("start", [](const ScenarioQuery& q) { return CellTuple{q.start.x, q.start.y}; })
      .def_property_readonly("goal", [](const ScenarioQuery& q) { return CellTuple{q.goal.x, q.goal.y}; })
      .def_readonly("optimal_length", &ScenarioQuery::optimal_length)
      .def_readonly("map_width", &ScenarioQuery::map_width)
      .def_readonly("map_height", &ScenarioQuery::map_height);
  module.def("read_movingai_scenario", [](const std::string& path, std::optional<std::size_t> max_queries) {
    return read_movingai_scenario(path, max_queries.value_or(std::numeric_limits<std::size_t>::max())).queries;
  }, py::arg("path"), py::arg("max_queries") = py::none(), "the queries of a MovingAI .scen file");

  bind_grid_cell_tables(module);

  py::class_<GridDerivedData>(module, "GridDerivedData",
                              "What grid queries read besides the map (JPS+'s jump table and goal bounds, the "
                              "hierarchy of hpa, larger agents' clearance and body maps): built once for a version "
                              "of the map, read-only, shared by any number of pathfinders. Keeps its map alive.")
      .def(py::init<>(), "empty: set jump_table and goal_bounds, or use build_grid_derived_data")
      .def_property_readonly("has_jump_table", [](const GridDerivedData& data) { return data.jump_table != nullptr; })
      .def_property_readonly("has_hierarchy", [](const GridDerivedData& data) { return data.hierarchy != nullptr; })
      .def_property(
          "jump_table",
          [](const GridDerivedData& data) { return std::const_pointer_cast<GridJumpTable>(data.jump_table); },
          [](GridDerivedData& data, std::shared_ptr<GridJumpTable> table) { data.jump_table = std::move(table); },
          "JPS+'s jump table for agent_size 1 (None: none); a table of another map version is refused by the queries")
      .def_property(
          "goal_bounds",
          [](const GridDerivedData& data) { return std::const_pointer_cast<GridGoalBounds>(data.goal_bounds); },
          [](GridDerivedData& data, std::shared_ptr<GridGoalBounds> bounds) { data.goal_bounds = std::move(bounds); },
          "optional goal bounds pruning JPS+ for agent_size 1 (None: none)");

  module.def(
      "build_grid_derived_data",
      [](const GridMap& map, GridAlgorithm algorithm, const GridDerivedData* derived, int agent_size) {
        GridDerivedData built = derived != nullptr ? *derived : GridDerivedData{};
        GridSearchOptions options;
        options.algorithm = algorithm;
        options.agent_size = agent_size;
        py::gil_scoped_release unlocked;
        build_grid_derived_data(map, options, built);
        return built;
      },
      py::arg("map"), py::kw_only(), py::arg("algorithm"), py::arg("derived") = py::none(), py::arg("agent_size") = 1,
      py::keep_alive<0, 1>(),
      "What queries with `algorithm` (and `agent_size`) read besides the map, for the map as it is now: `derived` "
      "(if given) with the missing or stale pieces built (after an edit, build it again and hand it over again). "
      "Goal bounds are never built here (GridGoalBounds).");

  py::class_<GridQuery>(module, "GridQuery",
                             "The grid query object: one per thread, reused across queries. Keeps its map alive.")
      .def(py::init([](const GridMap& map, const GridDerivedData* derived) {
             return GridQuery(map, derived != nullptr ? *derived : GridDerivedData{});
           }),
           py::arg("map"), py::arg("derived") = py::none(), py::keep_alive<1, 2>(),
           "`derived` (build_grid_derived_data): what jump_point_plus and hierarchical queries read")
      .def("set_derived_data", &GridQuery::set_derived_data, py::arg("derived"),
           "the derived data queries read from now on (build_grid_derived_data)")
      .def("set_jump_table",
           [](GridQuery& finder, std::shared_ptr<GridJumpTable> table) { finder.set_jump_table(std::move(table)); },
           py::arg("table"), "the jump table JPS+ queries read (agent_size 1); raises ValueError when it does not "
                             "fit the map's current version")
      .def("set_goal_bounds",
           [](GridQuery& finder, std::shared_ptr<GridGoalBounds> bounds) { finder.set_goal_bounds(std::move(bounds)); },
           py::arg("bounds"), "the goal bounds JPS+ queries prune with (None: none); raises ValueError when they do "
                              "not fit the map's current version")
      .def("find_path",
           [](GridQuery& finder, const CellTuple& start, const CellTuple& goal, GridAlgorithm algorithm,
              DiagonalMode diagonal, Heuristic heuristic, double weight, std::uint64_t walker_step_limit,
              std::optional<AreaFilter> filter, int agent_size, std::optional<std::uint64_t> max_expansions,
              std::optional<double> max_cost, std::optional<double> max_time, bool return_partial,
              bool partial_when_unreachable, bool trace) {
             const GridQueryArguments arguments = collect(algorithm, diagonal, heuristic, weight, walker_step_limit,
                                                          std::move(filter), agent_size, max_expansions, max_cost, max_time,
                                                          return_partial, partial_when_unreachable, trace);
             SearchTrace events;
             const GridSearchOptions options = grid_options(arguments, &events);
             return grid_result(finder.map(), find_path_unlocked(finder, GridPathRequest{to_cell(start), to_cell(goal), options}),
                                trace ? &events : nullptr);
           },
           py::arg("start"), py::arg("goal"), WAYFINDER_GRID_QUERY_ARGS,
           "A whole query (the GIL is released while it searches). Never raises for a bad query: the "
           "result's status is invalid_input with a message.")
      .def("begin",
           [](GridQuery& finder, const CellTuple& start, const CellTuple& goal, GridAlgorithm algorithm,
              DiagonalMode diagonal, Heuristic heuristic, double weight, std::uint64_t walker_step_limit,
              std::optional<AreaFilter> filter, int agent_size) {
             GridSearchOptions options;
             options.algorithm = algorithm;
             options.diagonal = diagonal;
             options.heuristic = heuristic;
             options.weight = weight;
             options.walker_step_limit = walker_step_limit;
             options.filter = std::move(filter);
             options.agent_size = agent_size;
             return finder.begin(to_cell(start), to_cell(goal), options);
           },
           py::arg("start"), py::arg("goal"), py::kw_only(), py::arg("algorithm") = GridAlgorithm::astar,
           py::arg("diagonal") = DiagonalMode::only_if_no_obstacles, py::arg("heuristic") = Heuristic::automatic,
           py::arg("weight") = GridSearchOptions{}.weight, py::arg("walker_step_limit") = 0, py::arg("filter") = py::none(),
           py::arg("agent_size") = 1,
           "begins a query to advance with step(); returns in_progress or a final status")
      .def("step", [](GridQuery& finder, std::uint64_t max_expansions) {
        py::gil_scoped_release unlocked;
        return finder.step(max_expansions);
      }, py::arg("max_expansions"))
      .def("result", [](const GridQuery& finder) {
        return grid_result(finder.map(), finder.result(), nullptr);
      })
      .def("stats", &GridQuery::stats);

  module.def(
      "solve_batch",
      [](const GridMap& map, const std::vector<std::pair<CellTuple, CellTuple>>& pairs, unsigned threads,
         GridAlgorithm algorithm, DiagonalMode diagonal, Heuristic heuristic, double weight,
         std::uint64_t walker_step_limit, std::optional<AreaFilter> filter, int agent_size,
         std::optional<std::uint64_t> max_expansions, std::optional<double> max_cost, std::optional<double> max_time,
         bool return_partial, bool partial_when_unreachable, bool trace, const GridDerivedData* derived) {
        if (trace) throw py::value_error("batches do not record traces; use GridQuery.find_path(trace=True)");
        const GridQueryArguments arguments = collect(algorithm, diagonal, heuristic, weight, walker_step_limit,
                                                     std::move(filter), agent_size, max_expansions, max_cost, max_time,
                                                     return_partial, partial_when_unreachable, false);
        std::vector<GridPathRequest> requests;
        requests.reserve(pairs.size());
        for (const auto& [start, goal] : pairs) requests.push_back({to_cell(start), to_cell(goal), grid_options(arguments, nullptr)});
        std::vector<PathResult> results;
        {
          py::gil_scoped_release unlocked;
          const GridDerivedData shared = derived != nullptr ? *derived : GridDerivedData{};
          solve_batch([&] { return GridQuery(map, shared); }, std::span<const GridPathRequest>(requests), results,
                      threads);
        }
        py::list out;
        for (PathResult& result : results) out.append(grid_result(map, std::move(result), nullptr));
        return out;
      },
      py::arg("map"), py::arg("queries"), py::arg("threads") = 0, WAYFINDER_GRID_QUERY_ARGS,
      py::arg("derived") = py::none(),
      "Answers a list of (start, goal) pairs on `threads` threads (0: one per core), each with its own "
      "GridQuery given `derived`; the GIL is released meanwhile. Results in the order of the queries.");
}

}  // namespace wayfinder::python
