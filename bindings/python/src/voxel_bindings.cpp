// Voxel worlds: MagicaVoxel and MovingAI voxel files, worlds from numpy arrays, movement
// profiles, and the VoxelQuery.

#include <pybind11/stl.h>

#include <array>
#include <limits>
#include <optional>
#include <utility>

#include "bindings.hpp"
#include "world_state.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_connected_parts.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::python {

namespace {

using BlockTuple = std::array<int, 3>;
VoxelCoord to_coord(const BlockTuple& b) { return {b[0], b[1], b[2]}; }
py::tuple block_tuple(VoxelCoord at) { return py::make_tuple(at.x, at.y, at.z); }

PyPathResult voxel_result(const VoxelWorld& world, PathResult&& result, const SearchTrace* trace) {
  PyPathResult out = base_result(std::move(result));
  out.path_array = make_table<std::int32_t>(out.nodes.size(), 3, [&](std::size_t r, std::size_t c) {
    const VoxelCoord at = world.coord_of(out.nodes[r]);
    return c == 0 ? at.x : c == 1 ? at.y : at.z;
  });
  if (trace != nullptr) {
    out.trace = trace_table(*trace, 3, [&](NodeId node) {
      const VoxelCoord at = world.coord_of(node);
      return Point{static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z)};
    });
  } else {
    out.trace = py::none();
  }
  return out;
}

}  // namespace

void bind_voxel(py::module_& module) {
  py::enum_<BlockKind>(module, "BlockKind")
      .value("air", BlockKind::air)
      .value("solid", BlockKind::solid)
      .value("water", BlockKind::water)
      .value("ladder", BlockKind::ladder);
  py::enum_<VoxelAlgorithm>(module, "VoxelAlgorithm")
      .value("dijkstra", VoxelAlgorithm::dijkstra)
      .value("astar", VoxelAlgorithm::astar)
      .value("weighted_astar", VoxelAlgorithm::weighted_astar)
      .value("greedy_best_first", VoxelAlgorithm::greedy_best_first)
      .value("jump_point", VoxelAlgorithm::jump_point)
      .value("hierarchical", VoxelAlgorithm::hierarchical);

  py::class_<MovementProfile>(module, "MovementProfile", "what a voxel agent can do: height, width, steps, jumps, falls, swim, climb, fly")
      .def(py::init<>())
      .def_static("walker", &MovementProfile::walker)
      .def_static("flyer", &MovementProfile::flyer)
      .def_readwrite("agent_height", &MovementProfile::agent_height)
      .def_readwrite("agent_width", &MovementProfile::agent_width,
                     "columns across the agent's square footprint, 1 to 3; positions name its corner of lowest x and z")
      .def_readwrite("walk_directions", &MovementProfile::walk_directions)
      .def_readwrite("step_height", &MovementProfile::step_height)
      .def_readwrite("jump_height", &MovementProfile::jump_height)
      .def_readwrite("jump_distance", &MovementProfile::jump_distance)
      .def_readwrite("max_fall", &MovementProfile::max_fall)
      .def_readwrite("swim", &MovementProfile::swim)
      .def_readwrite("climb", &MovementProfile::climb)
      .def_readwrite("fly", &MovementProfile::fly);

  py::class_<VoxelWorld>(module, "VoxelWorld", "A 3D block world, y up. Blocks are (x, y, z) tuples.")
      .def(py::init<int, int, int>(), py::arg("size_x"), py::arg("size_y"), py::arg("size_z"),
           "an all-air world (set_block fills it; no numpy needed); raises ValueError for a size below 1 or too large")
      .def_static("from_array",
                  [](const py::object& kind_array) {
                    require_numpy("VoxelWorld.from_array");
                    const auto kinds = kind_array.cast<py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>>();
                    if (kinds.ndim() != 3) throw py::value_error("kinds must be a 3-D array indexed [y, z, x]");
                    for (py::ssize_t i = 0; i < 3; ++i)
                      if (kinds.shape(i) < 1 || kinds.shape(i) > std::numeric_limits<int>::max())
                        throw py::value_error("every side must be at least 1");
                    const auto* data = kinds.data();
                    for (py::ssize_t i = 0; i < kinds.size(); ++i)
                      if (data[i] > static_cast<std::uint8_t>(BlockKind::ladder))
                        throw py::value_error("block kinds are 0 air, 1 solid, 2 water, 3 ladder; found " + std::to_string(data[i]));
                    const std::span<const BlockKind> blocks(reinterpret_cast<const BlockKind*>(data), static_cast<std::size_t>(kinds.size()));
                    return VoxelWorld::from_array(static_cast<int>(kinds.shape(2)), static_cast<int>(kinds.shape(0)),
                                                  static_cast<int>(kinds.shape(1)), blocks);
                  },
                  py::arg("kinds"),
                  "a world from a uint8 array indexed [y, z, x] (BlockKind values), as VoxelWorld::from_array lays it out. "
                  "Raises ImportError without numpy.")
      .def_property_readonly("size", [](const VoxelWorld& w) { return py::make_tuple(w.size_x(), w.size_y(), w.size_z()); })
      .def("block", [](const VoxelWorld& w, const BlockTuple& at) { return w.block(to_coord(at)); })
      .def("set_block", [](VoxelWorld& w, const BlockTuple& at, BlockKind kind) { w.set_block(to_coord(at), kind); },
           py::arg("block"), py::arg("kind"))
      .def_property_readonly("revision", &VoxelWorld::revision)
      .def(py::pickle(&voxel_state, &voxel_from_state))
      .def("__eq__", [](const VoxelWorld& world, const VoxelWorld& other) {
        return voxel_state(world).equal(voxel_state(other));
      }, "same size and blocks; revisions aside");
  module.def("read_vox_file", [](const std::string& path) { return read_vox_file(path); }, py::arg("path"),
             "reads a MagicaVoxel .vox file (every colour solid); raises LoadError");
  module.def("read_voxel_benchmark_map", [](const std::string& path) { return read_voxel_benchmark_map(path); },
             py::arg("path"), "reads a MovingAI .3dmap file; raises LoadError");

  py::class_<VoxelScenarioQuery>(module, "VoxelScenarioQuery")
      .def_property_readonly("start", [](const VoxelScenarioQuery& q) { return block_tuple(q.start); })
      .def_property_readonly("goal", [](const VoxelScenarioQuery& q) { return block_tuple(q.goal); })
      .def_readonly("optimal_length", &VoxelScenarioQuery::optimal_length);
  module.def("read_voxel_scenario", [](const std::string& path, std::optional<std::size_t> max_queries) {
    return read_voxel_scenario(path, max_queries.value_or(std::numeric_limits<std::size_t>::max())).queries;
  }, py::arg("path"), py::arg("max_queries") = py::none());

  py::class_<VoxelConnectedParts>(
      module, "VoxelConnectedParts",
      "the places of a world grouped into the parts an agent can cross (voxel_connected_parts.hpp): two places "
      "have a path between them both ways exactly when they share a part. A value: it does not keep the world.")
      .def(py::init([](const VoxelWorld& world, const MovementProfile& profile) {
             py::gil_scoped_release unlocked;  // reads every block of the world
             return VoxelConnectedParts(world, profile);
           }),
           py::arg("world"), py::arg("profile") = MovementProfile::walker(),
           "labels every place; raises ValueError for a bad profile")
      .def("part_of",
           [](const VoxelConnectedParts& parts, const BlockTuple& at) -> std::optional<std::uint32_t> {
             const std::uint32_t part = parts.part_of(to_coord(at));
             if (part == VoxelConnectedParts::no_part) return std::nullopt;
             return part;
           },
           py::arg("block"), "the part of a place (0: the largest), or None where the agent cannot be")
      .def_property_readonly("part_count", &VoxelConnectedParts::part_count)
      .def_property_readonly("part_sizes", &VoxelConnectedParts::part_sizes, "places per part, largest first")
      .def_property_readonly("place_count", &VoxelConnectedParts::place_count)
      .def(
          "places_in",
          [](const VoxelConnectedParts& parts, std::uint32_t part) {
            py::list places;
            for (const VoxelCoord at : parts.places_in(part)) places.append(block_tuple(at));
            return places;
          },
          py::arg("part"), "the places of a part, ordered by y, then z, then x");

  py::class_<VoxelHierarchy, std::shared_ptr<VoxelHierarchy>>(
      module, "VoxelHierarchy",
      "HPA* over a world for one movement profile (voxel_hierarchy.hpp): build once, share with any number of "
      "VoxelQuerys (set_hierarchy), search with algorithm=VoxelAlgorithm.hierarchical. Keeps its world alive.")
      .def(py::init([](const VoxelWorld& world, const MovementProfile& profile, int cluster_size, int cluster_height,
                       int long_entrance, int build_threads, std::uint64_t max_places) {
             VoxelHierarchyOptions options;
             options.cluster_size = cluster_size;
             options.cluster_height = cluster_height;
             options.long_entrance = long_entrance;
             options.build_threads = build_threads;
             options.max_places = max_places;
             py::gil_scoped_release unlocked;  // a large world's build takes seconds
             return std::make_shared<VoxelHierarchy>(world, profile, std::move(options));
           }),
           py::arg("world"), py::arg("profile") = MovementProfile::walker(), py::kw_only(), py::arg("cluster_size") = 16,
           py::arg("cluster_height") = 0, py::arg("long_entrance") = 6, py::arg("build_threads") = 1,
           py::arg("max_places") = 0, py::keep_alive<1, 2>(),
           "builds the hierarchy; raises ValueError for bad options or profile, or past max_places")
      .def("update", [](VoxelHierarchy& h) {
        py::gil_scoped_release unlocked;
        return h.update();
      }, "brings it up to date after the world was edited, redoing only the clusters near the edits (the same "
         "hierarchy as a fresh build); returns the clusters redone, 0 when current. No query may use it meanwhile")
      .def("rebuild", [](VoxelHierarchy& h) {
        py::gil_scoped_release unlocked;
        h.rebuild();
      }, "builds it again whole")
      .def_property_readonly("current", &VoxelHierarchy::current)
      .def_property_readonly("revision", &VoxelHierarchy::revision)
      .def_property_readonly("node_count", &VoxelHierarchy::node_count)
      .def_property_readonly("cluster_size", &VoxelHierarchy::cluster_size)
      .def_property_readonly("cluster_height", &VoxelHierarchy::cluster_height)
      .def_property_readonly("stats", [](const VoxelHierarchy& h) {
        const VoxelHierarchyStats& s = h.stats();
        py::dict stats;
        stats["clusters"] = s.clusters;
        stats["clusters_rebuilt"] = s.clusters_rebuilt;
        stats["open_clusters"] = s.open_clusters;
        stats["places"] = s.places;
        stats["transitions"] = s.transitions;
        stats["entrances"] = s.entrances;
        stats["nodes"] = s.nodes;
        stats["inter_edges"] = s.inter_edges;
        stats["intra_edges"] = s.intra_edges;
        stats["build_expansions"] = s.build_expansions;
        stats["memory_bytes"] = s.memory_bytes;
        stats["build_milliseconds"] = s.build_milliseconds;
        return stats;
      }, "what the build did and what the hierarchy holds (VoxelHierarchyStats) as a dict");

  py::class_<VoxelFootprint, std::shared_ptr<VoxelFootprint>>(
      module, "VoxelFootprint",
      "The footprint world of agents 2 or 3 blocks wide (voxel_footprint.hpp): build once per width and kind of "
      "agent, share with any number of VoxelQuerys (set_footprint), update() after the world's edits. Keeps its "
      "world alive.")
      .def(py::init([](const VoxelWorld& world, const MovementProfile& profile) {
             py::gil_scoped_release unlocked;  // reads every block of the world agent_width^2 (a flyer: ^3) times
             return std::make_shared<VoxelFootprint>(world, profile);
           }),
           py::arg("world"), py::arg("profile"), py::keep_alive<1, 2>(),
           "builds it for the profile's agent_width (2 or 3) and kind (fly); raises ValueError for width 1 or a world "
           "narrower than the agent")
      .def("update", [](VoxelFootprint& footprint) {
        py::gil_scoped_release unlocked;
        return footprint.update();
      }, "brings it up to date after the world was edited, recomputing only the footprint blocks under the edited "
         "blocks; returns how many footprint blocks changed, 0 when current. No query may use it meanwhile")
      .def_property_readonly("current", &VoxelFootprint::current)
      .def_property_readonly("revision", &VoxelFootprint::revision, "the world's revision it describes")
      .def_property_readonly("agent_width", &VoxelFootprint::agent_width)
      .def_property_readonly("fly", &VoxelFootprint::fly);

  py::class_<VoxelQuery>(module, "VoxelQuery", "The voxel query object: one per thread. Keeps its world alive.")
      .def(py::init([](const VoxelWorld& world, const MovementProfile& profile) {
             if (const std::optional<std::string> problem = profile_problem(profile)) throw py::value_error(*problem);
             return std::make_unique<VoxelQuery>(world, profile);
           }),
           py::arg("world"), py::arg("profile") = MovementProfile::walker(), py::keep_alive<1, 2>())
      .def("find_path",
           [](VoxelQuery& finder, const BlockTuple& start, const BlockTuple& goal, VoxelAlgorithm algorithm,
              double weight, std::optional<MovementProfile> profile, std::optional<std::uint64_t> max_expansions,
              std::optional<double> max_cost, std::optional<double> max_time, bool return_partial,
              bool partial_when_unreachable, bool trace, std::optional<std::size_t> max_memory) {
             SearchTrace events;
             VoxelSearchOptions options;
             options.algorithm = algorithm;
             options.weight = weight;
             options.profile = std::move(profile);
             apply_common_options({max_expansions, max_cost, max_time, return_partial, partial_when_unreachable, trace},
                                  options, &events);
             if (max_memory) {
               if (*max_memory == 0) throw py::value_error("max_memory must be at least 1 byte (None: no limit)");
               options.budget.max_memory_bytes = *max_memory;
             }
             return voxel_result(finder.world(),
                                 find_path_unlocked(finder, VoxelPathRequest{to_coord(start), to_coord(goal), options}),
                                 trace ? &events : nullptr);
           },
           py::arg("start"), py::arg("goal"), py::kw_only(), py::arg("algorithm") = VoxelAlgorithm::astar,
           py::arg("weight") = VoxelSearchOptions{}.weight, py::arg("profile") = py::none(), WAYFINDER_COMMON_OPTION_ARGS,
           py::arg("max_memory") = py::none(),
           "the blocks the agent occupies from start to goal; `profile` overrides the pathfinder's for this query; "
           "`max_memory` (bytes) stops the search once its state holds more (reason memory_limit)")
      .def("begin",
           [](VoxelQuery& finder, const BlockTuple& start, const BlockTuple& goal, VoxelAlgorithm algorithm,
              double weight, std::optional<MovementProfile> profile) {
             VoxelSearchOptions options;
             options.algorithm = algorithm;
             options.weight = weight;
             options.profile = std::move(profile);
             return finder.begin(to_coord(start), to_coord(goal), options);
           },
           py::arg("start"), py::arg("goal"), py::kw_only(), py::arg("algorithm") = VoxelAlgorithm::astar,
           py::arg("weight") = VoxelSearchOptions{}.weight, py::arg("profile") = py::none(),
           "begins a query to advance with step(); returns in_progress or a final status")
      .def("step", [](VoxelQuery& finder, std::uint64_t max_expansions) {
        py::gil_scoped_release unlocked;
        return finder.step(max_expansions);
      }, py::arg("max_expansions"), "expands up to max_expansions nodes; in_progress until the search ends")
      .def("result", [](const VoxelQuery& finder) { return voxel_result(finder.world(), finder.result(), nullptr); },
           "the current query's result (the final one once step() returned a final status)")
      .def("stats", &VoxelQuery::stats)
      .def("set_hierarchy",
           [](VoxelQuery& finder, std::shared_ptr<VoxelHierarchy> hierarchy) { finder.set_hierarchy(std::move(hierarchy)); },
           py::arg("hierarchy"), "the VoxelHierarchy that algorithm=VoxelAlgorithm.hierarchical searches (None: none)")
      .def("set_footprint",
           [](VoxelQuery& finder, std::shared_ptr<VoxelFootprint> footprint) { finder.set_footprint(std::move(footprint)); },
           py::arg("footprint"),
           "the VoxelFootprint that wide agents of its width and kind are searched on (None: the query makes its own)")
      .def_property_readonly("search_memory_bytes", &VoxelQuery::search_memory_bytes)
      .def("release_search_memory", &VoxelQuery::release_search_memory,
           "gives back the search state's pages kept from earlier queries");
}

}  // namespace wayfinder::python
