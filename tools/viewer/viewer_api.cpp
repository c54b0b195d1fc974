#include "viewer/viewer_api.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/room_map_generator.hpp"
#include "viewer/crowd_api.hpp"
#include "viewer/level_obstacles.hpp"
#include "viewer/request_fields.hpp"
#include "viewer/voxel_blocks.hpp"
#include "common/world_json.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/search_trace.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

namespace wayfinder::viewer {

namespace {

std::optional<int> world_id(std::string_view text) {
  int id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc{} || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

std::shared_ptr<CatalogWorld> find_world(const WorldCatalog& catalog, const Json& request) {
  const Json* id = member(request, "world");
  if (id == nullptr) refuse("\"world\" is missing: give the id of a loaded world (GET /api/worlds lists them)");
  const auto world = catalog.find(static_cast<int>(whole_number(*id, "\"world\"", 0, std::numeric_limits<int>::max())));
  if (!world) refuse("no world with id " + id->dump() + " (GET /api/worlds lists them)", 404);
  return world;
}

// The fields every query answer has.
Json result_json(int world, WorldKind kind, const PathResult& result, std::string_view algorithm) {
  Json json;
  json["world"] = world;
  json["kind"] = to_string(kind);
  json["status"] = to_string(result.status);
  json["reason"] = to_string(result.reason);
  json["message"] = result.message;
  json["cost"] = result.has_path() ? Json(result.cost) : Json(nullptr);
  json["algorithm"] = algorithm;
  return json;
}

void add_trace(Json& json, const SearchTrace& trace, const std::function<Point(NodeId)>& position, bool with_z,
               bool whole_numbers, std::size_t max_events) {
  json["trace"] = trace_json(trace, position, with_z, whole_numbers, max_events);
  json["trace_events"] = trace.recorded();
  json["trace_truncated"] = trace.recorded() > max_events;
}

[[noreturn]] void refuse_invalid_input(const PathResult& result) {
  refuse("the query was refused: " + result.message);
}

// The fields every query request has besides its world's own, read into the options: the
// heuristic "weight" (each world's options have one), the budget ("max_expansions") and the
// "trace" flag, with the trace the query records into when it is set. The trace keeps only the
// events the answer can carry (`max_trace_events`), so a long search's trace costs no more
// memory. Not copyable: the options point at its trace.
struct SharedQueryFields {
  template <class Options>
  SharedQueryFields(const Json& request, Options& options, std::size_t max_trace_events) {
    static_assert(std::is_base_of_v<QueryOptions, Options>);
    if (const auto weight = number_member(request, "weight")) options.weight = *weight;
    trace.set_max_events(max_trace_events);
    if (const Json* limit = member(request, "max_expansions"))
      options.budget.max_expansions = static_cast<std::uint64_t>(
          whole_number(*limit, "\"max_expansions\"", 0, std::numeric_limits<long long>::max()));
    trace_wanted = bool_member(request, "trace", false);
    options.trace = trace_wanted ? &trace : nullptr;
  }
  SharedQueryFields(const SharedQueryFields&) = delete;
  SharedQueryFields& operator=(const SharedQueryFields&) = delete;

  bool trace_wanted = false;
  SearchTrace trace;
};

// Hands a pooled grid query the world's shared derived data for these options (built there when
// missing or stale); the other worlds' queries read the world alone.
void prepare(const CatalogWorld& world, GridQuery& query, const GridSearchOptions& options) {
  query.set_derived_data(world.grid_derived.for_query(*world.grid, options));
}
template <class Query, class Options>
void prepare(const CatalogWorld&, Query&, const Options&) {}

// Runs one query on a query object borrowed from the world's pool, under the world's shared
// lock. `inspect(query, result)` reads what only the query object knows (portals, positions of
// trace nodes) before the object goes back to the pool. A query the library refuses is a 400.
template <class Query, class World, class Place, class Options, class Inspect>
PathResult answer(const CatalogWorld& world, QueryPool<Query, World>& pool, const World& searched, const Place& from,
                  const Place& to, const Options& options, Inspect&& inspect) {
  const std::shared_lock lock(world.access);
  auto query = pool.borrow(searched);
  prepare(world, *query, options);
  PathResult result;
  query->find_path(from, to, options, result);
  if (result.status == SearchStatus::invalid_input) refuse_invalid_input(result);
  inspect(*query, result);
  return result;
}

Json grid_query(const CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  const GridMap& map = *world.grid;
  const auto start = coordinates(request, "start", 2, true);
  const auto goal = coordinates(request, "goal", 2, true);
  const Cell from{static_cast<int>(start[0]), static_cast<int>(start[1])};
  const Cell to{static_cast<int>(goal[0]), static_cast<int>(goal[1])};
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  if (!map.contains(from)) refuse("start [" + std::to_string(from.x) + ", " + std::to_string(from.y) + "] is outside the " + size + " grid");
  if (!map.contains(to)) refuse("goal [" + std::to_string(to.x) + ", " + std::to_string(to.y) + "] is outside the " + size + " grid");

  GridSearchOptions options;
  const std::string algorithm = text_member(request, "algorithm", "astar");
  const auto parsed = parse_grid_algorithm(algorithm);
  if (!parsed) refuse("unknown grid algorithm \"" + algorithm + "\"");
  options.algorithm = *parsed;
  if (const Json* diagonal = member(request, "diagonal")) {
    const auto mode = diagonal->is_string() ? parse_diagonal_mode(diagonal->get<std::string>()) : std::nullopt;
    if (!mode) refuse("unknown diagonal mode " + diagonal->dump());
    options.diagonal = *mode;
  }
  if (const Json* heuristic = member(request, "heuristic")) {
    const auto parsed_heuristic = heuristic->is_string() ? parse_heuristic(heuristic->get<std::string>()) : std::nullopt;
    if (!parsed_heuristic) refuse("unknown heuristic " + heuristic->dump());
    options.heuristic = *parsed_heuristic;
  }
  SharedQueryFields shared(request, options, limits.max_trace_events);

  const PathResult result =
      answer(world, world.grid_queries, map, from, to, options, [](const GridQuery&, const PathResult&) {});
  Json json = result_json(world.id, world.kind, result, to_string(options.algorithm));
  json["path"] = cells_json(map, result.nodes);
  json["moves"] = result.nodes.empty() ? 0 : result.nodes.size() - 1;
  json["stats"] = stats_json(result.stats);
  if (shared.trace_wanted)
    add_trace(json, shared.trace, [&](NodeId node) {
      const Cell cell = map.cell_of(node);
      return Point{static_cast<double>(cell.x), static_cast<double>(cell.y), 0.0};
    }, false, true, limits.max_trace_events);
  return json;
}

Json mesh_query(const CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  const NavMesh& mesh = *world.mesh;
  const auto start = coordinates(request, "start", 3, false);
  const auto goal = coordinates(request, "goal", 3, false);
  NavMeshSearchOptions options;
  const std::string algorithm = text_member(request, "algorithm", "astar");
  if (algorithm != "astar") refuse("unknown navmesh algorithm \"" + algorithm + "\" (meshes use astar)");
  if (const Json* nodes = member(request, "nodes")) {
    const auto parsed = nodes->is_string() ? parse_corridor_nodes(nodes->get<std::string>()) : std::nullopt;
    if (!parsed) refuse("unknown corridor nodes " + nodes->dump() + " (edge-points or centroids)");
    options.nodes = *parsed;
  }
  SharedQueryFields shared(request, options, limits.max_trace_events);
  if (const auto snap = number_member(request, "snap_distance")) options.snap_distance = *snap;

  Json portals = Json::array();
  Json traced = nullptr;
  const PathResult result = answer(
      world, world.mesh_queries, mesh, Point{start[0], start[1], start[2]}, Point{goal[0], goal[1], goal[2]}, options,
      [&](const NavMeshQuery& query, const PathResult& found) {
        if (found.has_path())
          for (const Portal& portal : query.portals())
            portals.push_back(Json::array({point_json(portal.left, true), point_json(portal.right, true)}));
        if (shared.trace_wanted)
          add_trace(traced, shared.trace, [&](NodeId node) { return query.corridor_node_position(node); }, true, false,
                    limits.max_trace_events);
      });
  Json json = result_json(world.id, world.kind, result, "astar");
  json["path"] = points_json(result.points, true);
  json["corridor"] = result.nodes;
  json["portals"] = std::move(portals);
  json["stats"] = stats_json(result.stats);
  if (shared.trace_wanted) json.update(traced);
  return json;
}

Json voxel_query(const CatalogWorld& world, const Json& request, const ApiLimits& limits) {
  const VoxelWorld& voxels = *world.voxels;
  const auto start = coordinates(request, "start", 3, true);
  const auto goal = coordinates(request, "goal", 3, true);
  const VoxelCoord from{static_cast<int>(start[0]), static_cast<int>(start[1]), static_cast<int>(start[2])};
  const VoxelCoord to{static_cast<int>(goal[0]), static_cast<int>(goal[1]), static_cast<int>(goal[2])};
  const std::string size = std::to_string(voxels.size_x()) + "x" + std::to_string(voxels.size_y()) + "x" +
                           std::to_string(voxels.size_z());
  if (!voxels.contains(from)) refuse("start " + Json::array({from.x, from.y, from.z}).dump() + " is outside the " + size + " world");
  if (!voxels.contains(to)) refuse("goal " + Json::array({to.x, to.y, to.z}).dump() + " is outside the " + size + " world");
  VoxelSearchOptions options;
  const std::string algorithm = text_member(request, "algorithm", "astar");
  const auto parsed = parse_voxel_algorithm(algorithm);
  if (!parsed) refuse("unknown voxel algorithm \"" + algorithm + "\"");
  options.algorithm = *parsed;
  const std::string agent = text_member(request, "agent", "walker");
  if (agent == "walker") {
    options.profile = MovementProfile::walker();
  } else if (agent == "flyer") {
    options.profile = MovementProfile::flyer();
  } else {
    refuse("unknown agent \"" + agent + "\" (walker or flyer)");
  }
  SharedQueryFields shared(request, options, limits.max_trace_events);

  const PathResult result =
      answer(world, world.voxel_queries, voxels, from, to, options, [](const VoxelQuery&, const PathResult&) {});
  Json json = result_json(world.id, world.kind, result, to_string(options.algorithm));
  json["agent"] = agent;
  json["path"] = voxel_blocks_json(voxels, result.nodes);
  json["stats"] = stats_json(result.stats);
  if (shared.trace_wanted)
    add_trace(json, shared.trace, [&](NodeId node) {
      const VoxelCoord at = voxels.coord_of(node);
      return Point{static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z)};
    }, true, true, limits.max_trace_events);
  return json;
}

Json world_summary(const CatalogWorld& world) {
  Json json;
  json["id"] = world.id;
  json["kind"] = to_string(world.kind);
  json["name"] = world.name;
  return json;
}

}  // namespace

ApiResponse ViewerApi::handle(std::string_view method, std::string_view path, std::string_view body) {
  try {
    if (body.size() > limits_.max_body_bytes)
      refuse("the request body has " + std::to_string(body.size()) + " bytes; the limit is " +
                 std::to_string(limits_.max_body_bytes),
             413);
    constexpr std::string_view worlds_path = "/api/worlds";
    if (path == worlds_path) {
      if (method == "GET") return list_worlds();
      if (method == "POST") return load_world(body);
      refuse(std::string(method) + " is not allowed on " + std::string(path) + " (GET or POST)", 405);
    }
    if (path.starts_with(std::string(worlds_path) + "/")) {
      const std::string_view rest = path.substr(worlds_path.size() + 1);
      const std::size_t slash = rest.find('/');
      const auto id = world_id(rest.substr(0, slash));
      if (!id) refuse("no such path: " + std::string(path), 404);
      if (slash != std::string_view::npos) return world_action(*id, rest.substr(slash + 1), method, body);
      if (method != "GET") refuse(std::string(method) + " is not allowed on " + std::string(path) + " (GET)", 405);
      return describe_world(*id);
    }
    if (path == "/api/query") {
      if (method != "POST") refuse(std::string(method) + " is not allowed on /api/query (POST)", 405);
      return run_query(body);
    }
    refuse("no such path: " + std::string(path), 404);
  } catch (const Refusal& refusal) {
    return error_response(refusal.status, refusal.what());
  } catch (const LoadError& error) {
    return error_response(400, error.what());
  } catch (const std::bad_alloc&) {
    return error_response(500, "out of memory");
  } catch (const std::exception& error) {
    return error_response(500, error.what());
  }
}

ApiResponse ViewerApi::list_worlds() const {
  Json json = Json::array();
  for (const auto& world : catalog_.list()) json.push_back(world_summary(*world));
  return json_response(200, json);
}

ApiResponse ViewerApi::load_world(std::string_view body) {
  const Json request = parse_body(body, limits_);
  const std::string kind = text_member(request, "kind", "");
  const std::string name = text_member(request, "name", "uploaded");
  if (name.size() > 200) refuse("\"name\" is longer than 200 characters");
  int id = 0;
  try {
    if (kind == "grid") {
      if (const Json* generate = member(request, "generate")) {
        if (!generate->is_object()) refuse("\"generate\" must be an object");
        RoomMapOptions options;
        const auto side = [&](const char* key, int fallback) {
          const Json* value = member(*generate, key);
          return value == nullptr ? fallback
                                  : static_cast<int>(whole_number(*value, std::string("\"generate\".") + key, 8,
                                                                  limits_.max_generated_side));
        };
        options.width = side("width", options.width);
        options.height = side("height", options.height);
        if (const Json* seed = member(*generate, "seed"))
          options.seed = static_cast<std::uint64_t>(whole_number(*seed, "\"generate\".seed", 0, std::numeric_limits<long long>::max()));
        if (const Json* rooms = member(*generate, "rooms"))
          options.room_count = static_cast<int>(whole_number(*rooms, "\"generate\".rooms", 1, 10'000));
        id = catalog_.add(name, generate_room_map(options).map);
      } else {
        const Json* text = member(request, "movingai");
        if (text == nullptr || !text->is_string())
          refuse("a grid needs \"movingai\" (the text of a MovingAI .map) or \"generate\" ({\"width\", \"height\", \"seed\", \"rooms\"})");
        GridMap map = parse_movingai_map(text->get<std::string>(), name);
        map.forget_changes();
        id = catalog_.add(name, std::move(map));
      }
    } else if (kind == "navmesh") {
      const Json* text = member(request, "obj");
      if (text == nullptr || !text->is_string()) refuse("a navmesh needs \"obj\": the text of a Wavefront OBJ file");
      if (member(request, "level") != nullptr) {
        id = load_level_world(catalog_, name, text->get<std::string>(), request, limits_);
      } else {
        id = catalog_.add(name, NavMesh::build(parse_obj_mesh(text->get<std::string>(), name)));
      }
    } else {
      refuse("\"kind\" must be \"grid\" or \"navmesh\" (voxel worlds are loaded from files named on the command line)");
    }
  } catch (const CatalogFull& full) {
    refuse(full.what(), 507);
  } catch (const std::invalid_argument& bad) {
    refuse(bad.what());
  }
  return json_response(201, world_summary(*catalog_.find(id)));
}

ApiResponse ViewerApi::describe_world(int id) const {
  const auto world = catalog_.find(id);
  if (!world) refuse("no world with id " + std::to_string(id), 404);
  const std::shared_lock lock(world->access);
  Json json = world_summary(*world);
  Json description;
  switch (world->kind) {
    case WorldKind::grid: description = grid_description_json(*world->grid); break;
    case WorldKind::navmesh:
      description = mesh_description_json(*world->mesh);
      if (world->level) {
        description["level"] = true;
        description["obstacles"] = obstacles_json(*world);
        description["level_geometry"] = level_geometry_json(*world);
      }
      break;
    case WorldKind::voxel: description = voxel_description_json(*world->voxels); break;
  }
  json.update(description);
  return json_response(200, json);
}

ApiResponse ViewerApi::edit_world(int id, std::string_view body) {
  const auto world = catalog_.find(id);
  if (!world) refuse("no world with id " + std::to_string(id), 404);
  if (world->kind != WorldKind::grid) refuse("only grids can be edited; world " + std::to_string(id) + " is a " + std::string(to_string(world->kind)));
  const Json request = parse_body(body, limits_);
  GridMap& map = *world->grid;

  // What to paint: "wall", "floor" (passable at cost 1) or a terrain cost.
  const Json* set = member(request, "set");
  if (set == nullptr) refuse("\"set\" is missing: \"wall\", \"floor\" or a terrain cost");
  std::optional<float> cost;  // nullopt: wall
  if (set->is_string()) {
    if (*set == "floor") {
      cost = 1.0f;
    } else if (*set != "wall") {
      refuse("\"set\" must be \"wall\", \"floor\" or a terrain cost");
    }
  } else {
    const double value = finite_number(*set, "\"set\"");
    if (!(value > 0.0 && value <= 1e6)) refuse("a terrain cost must be in (0, 1e6]");
    cost = static_cast<float>(value);
  }

  // Which cells: every one is checked before any is changed.
  std::vector<Cell> cells;
  std::optional<GridRect> rect;
  if (const Json* list = member(request, "cells")) {
    if (!list->is_array()) refuse("\"cells\" must be an array of [x, y]");
    if (list->size() > limits_.max_edit_cells) refuse("an edit may paint at most " + std::to_string(limits_.max_edit_cells) + " cells");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Json& entry = (*list)[i];
      if (!entry.is_array() || entry.size() != 2) refuse("\"cells\"[" + std::to_string(i) + "] must be [x, y]");
      const Cell cell{static_cast<int>(whole_number(entry[0], "\"cells\"[" + std::to_string(i) + "][0]", -(1LL << 31), (1LL << 31) - 1)),
                      static_cast<int>(whole_number(entry[1], "\"cells\"[" + std::to_string(i) + "][1]", -(1LL << 31), (1LL << 31) - 1))};
      if (!map.contains(cell))
        refuse("\"cells\"[" + std::to_string(i) + "] [" + std::to_string(cell.x) + ", " + std::to_string(cell.y) + "] is outside the grid");
      cells.push_back(cell);
    }
  } else if (member(request, "rect") != nullptr) {
    const auto r = coordinates(request, "rect", 4, true);
    // In 64 bits: x + width of two ints may not fit an int.
    const auto x = static_cast<std::int64_t>(r[0]), y = static_cast<std::int64_t>(r[1]);
    const auto width = static_cast<std::int64_t>(r[2]), height = static_cast<std::int64_t>(r[3]);
    if (width < 1 || height < 1 || x < 0 || y < 0 || x + width > map.width() || y + height > map.height())
      refuse("\"rect\" [" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(width) + ", " +
             std::to_string(height) + "] must have a positive size and lie inside the " + std::to_string(map.width()) +
             "x" + std::to_string(map.height()) + " grid");
    rect = GridRect{static_cast<int>(x), static_cast<int>(y), static_cast<int>(width), static_cast<int>(height)};
  } else {
    refuse("an edit needs \"cells\" ([[x, y], ...]) or \"rect\" ([x, y, width, height])");
  }

  const std::unique_lock lock(world->access);
  const std::uint64_t before = map.revision();
  if (rect) {
    if (cost) {
      map.set_cost(*rect, *cost);
    } else {
      map.block_rect(*rect);
    }
  } else {
    for (const Cell cell : cells) {
      if (cost) {
        map.set_cost(cell.x, cell.y, *cost);
      } else {
        map.block(cell);
      }
    }
  }
  Json json;
  json["world"] = id;
  json["revision"] = map.revision();
  json["edits"] = map.revision() - before;
  return json_response(200, json);
}

// The requests on one world past /api/worlds/{id}/: its edits, a voxel world's blocks, a level's
// obstacles and a mesh's crowd. GET /crowd reads the crowd; everything else is a POST.
ApiResponse ViewerApi::world_action(int id, std::string_view action, std::string_view method, std::string_view body) {
  static constexpr std::string_view actions[] = {"edit",         "obstacles",    "obstacles/remove", "crowd",
                                                 "crowd/agents", "crowd/target", "crowd/step",       "blocks"};
  const std::string path = "/api/worlds/" + std::to_string(id) + "/" + std::string(action);
  if (std::find(std::begin(actions), std::end(actions), action) == std::end(actions))
    refuse("no such path: " + path, 404);
  const bool readable = action == "crowd";
  if (method != "POST" && !(readable && method == "GET"))
    refuse(std::string(method) + " is not allowed on " + path + (readable ? " (GET or POST)" : " (POST)"), 405);
  if (action == "edit") return edit_world(id, body);
  const auto world = catalog_.find(id);
  if (!world) refuse("no world with id " + std::to_string(id), 404);
  if (method == "GET") return json_response(200, crowd_state(*world));
  const Json request = parse_body(body, limits_);
  if (action == "blocks") return json_response(200, voxel_block_box_json(*world, request, limits_));
  if (action == "obstacles") return json_response(200, add_level_obstacle(*world, request, limits_));
  if (action == "obstacles/remove") return json_response(200, remove_level_obstacle(*world, request));
  if (action == "crowd") return json_response(201, create_crowd(*world, request));
  if (action == "crowd/agents") return json_response(200, add_crowd_agents(*world, request, limits_));
  if (action == "crowd/target") return json_response(200, set_crowd_target(*world, request));
  return json_response(200, step_crowd(*world, request, limits_));
}

ApiResponse ViewerApi::run_query(std::string_view body) const {
  const Json request = parse_body(body, limits_);
  const auto world = find_world(catalog_, request);
  switch (world->kind) {
    case WorldKind::grid: return json_response(200, grid_query(*world, request, limits_));
    case WorldKind::navmesh: return json_response(200, mesh_query(*world, request, limits_));
    case WorldKind::voxel: return json_response(200, voxel_query(*world, request, limits_));
  }
  refuse("unknown world kind", 500);
}

}  // namespace wayfinder::viewer
