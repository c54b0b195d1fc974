// Grids through C: building and loading maps, reading and editing cells, and the grid query.

#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "options.hpp"
#include "handles.hpp"
#include "query_calls.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace wayfinder::c_api {

GridSearchOptions grid_options(const wf_grid_options* options) {
  GridSearchOptions converted;
  if (options == nullptr) return converted;
  apply_limits(options->limits, converted);
  check_enum("options.algorithm", raw_enum(options->algorithm), WF_GRID_HIERARCHICAL);
  check_enum("options.diagonal", raw_enum(options->diagonal), WF_DIAGONAL_ALWAYS);
  check_enum("options.heuristic", raw_enum(options->heuristic), WF_HEURISTIC_CHEBYSHEV);
  converted.algorithm = static_cast<GridAlgorithm>(options->algorithm);
  converted.diagonal = static_cast<DiagonalMode>(options->diagonal);
  converted.heuristic = static_cast<Heuristic>(options->heuristic);
  converted.weight = options->weight;
  converted.walker_step_limit = options->walker_step_limit;
  if (options->filter != nullptr) converted.filter = area_filter(*options->filter);
  return converted;
}

}  // namespace wayfinder::c_api

namespace {

/// The options of a query for k x k agents (agent_size; grid_options checks the rest). Throws
/// std::invalid_argument for a size outside 1..max_clearance.
GridSearchOptions sized_options(const wf_grid_options* options, int agent_size) {
  if (agent_size < 1 || agent_size > max_clearance)
    throw std::invalid_argument("agent_size must be 1 to " + std::to_string(max_clearance) + ", not " +
                                std::to_string(agent_size));
  GridSearchOptions converted = grid_options(options);
  converted.agent_size = agent_size;
  return converted;
}

GridRect checked_rect(const GridMap& map, int x, int y, int width, int height) {
  // GridMap checks that the rectangle lies inside, but x + width could overflow an int first.
  if (width < 0 || height < 0 || x < 0 || y < 0 || width > map.width() - x || height > map.height() - y)
    throw std::out_of_range("the rectangle x " + std::to_string(x) + ", y " + std::to_string(y) + ", width " +
                            std::to_string(width) + ", height " + std::to_string(height) + " is not inside the " +
                            std::to_string(map.width()) + " x " + std::to_string(map.height()) + " grid");
  return {x, y, width, height};
}

}  // namespace

extern "C" {

void wf_grid_options_init(wf_grid_options* options) {
  if (options == nullptr) return;
  const GridSearchOptions defaults;
  default_limits(options->limits);
  options->algorithm = static_cast<wf_grid_algorithm>(defaults.algorithm);
  options->diagonal = static_cast<wf_diagonal_mode>(defaults.diagonal);
  options->heuristic = static_cast<wf_heuristic>(defaults.heuristic);
  options->weight = defaults.weight;
  options->walker_step_limit = defaults.walker_step_limit;
  options->filter = nullptr;
}

wf_status wf_grid_create(int width, int height, wf_grid** out_grid, char* error, size_t error_capacity) {
  return create_world(out_grid, &wf_grid::map, error, error_capacity,
                      [&] { return std::make_unique<GridMap>(width, height); });
}

wf_status wf_grid_create_from_cells(int width, int height, const uint8_t* passable, const float* costs,
                                    wf_grid** out_grid, char* error, size_t error_capacity) {
  return create_world(out_grid, &wf_grid::map, error, error_capacity, [&]() -> std::unique_ptr<GridMap> {
    if (passable == nullptr) {
      write_error(error, error_capacity, "wf_grid_create_from_cells: passable is NULL");
      return nullptr;
    }
    // Sides out of range leave the arrays unread: from_costs then refuses the sides in words.
    const bool sides_fit = width >= 1 && height >= 1 && width <= max_grid_side && height <= max_grid_side &&
                           static_cast<std::int64_t>(width) * height <= max_grid_cells;
    const std::size_t cells = sides_fit ? static_cast<std::size_t>(width) * static_cast<std::size_t>(height) : 0;
    std::vector<std::uint8_t> blocked(cells);
    for (std::size_t cell = 0; cell < cells; ++cell) blocked[cell] = passable[cell] == 0 ? 1 : 0;
    const std::span<const float> cell_costs = costs == nullptr ? std::span<const float>{} : std::span(costs, cells);
    return std::make_unique<GridMap>(GridMap::from_costs(width, height, cell_costs, blocked));
  });
}

wf_status wf_grid_load_movingai(const char* path, wf_grid** out_grid, char* error, size_t error_capacity) {
  return create_world(out_grid, &wf_grid::map, error, error_capacity, [&]() -> std::unique_ptr<GridMap> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_grid_load_movingai: path is NULL");
      return nullptr;
    }
    return std::make_unique<GridMap>(read_movingai_map(path));
  });
}

wf_status wf_grid_destroy(wf_grid* grid) { return destroy_world(grid, &wf_grid::map); }

wf_status wf_grid_size(const wf_grid* grid, int* width, int* height) {
  if (!is_live(grid, OnWrongHandle::stay_silent)) return WF_INVALID_ARGUMENT;
  if (width != nullptr) *width = grid->map->width();
  if (height != nullptr) *height = grid->map->height();
  return WF_OK;
}

wf_status wf_grid_cell(const wf_grid* grid, int x, int y, int* passable, float* cost, uint8_t* area,
                       uint16_t* flags) {
  if (!is_live(grid, OnWrongHandle::stay_silent) || !grid->map->contains(x, y)) return WF_INVALID_ARGUMENT;
  const GridMap& map = *grid->map;
  const bool open = map.passable(x, y);
  if (passable != nullptr) *passable = open ? 1 : 0;
  if (cost != nullptr) *cost = open ? map.cost(x, y) : 0.0f;
  if (area != nullptr) *area = map.area(x, y);
  if (flags != nullptr) *flags = map.flags(x, y);
  return WF_OK;
}

wf_status wf_grid_revision(const wf_grid* grid, uint64_t* revision) {
  if (!is_live(grid, OnWrongHandle::stay_silent) || revision == nullptr) return WF_INVALID_ARGUMENT;
  *revision = grid->map->revision();
  return WF_OK;
}

wf_status wf_grid_set_passable(wf_grid* grid, int x, int y, int width, int height, int passable) {
  return edit_world(grid, &wf_grid::map,
                    [&](GridMap& map) { map.set_passable(checked_rect(map, x, y, width, height), passable != 0); });
}

wf_status wf_grid_set_cost(wf_grid* grid, int x, int y, int width, int height, float cost) {
  return edit_world(grid, &wf_grid::map,
                    [&](GridMap& map) { map.set_cost(checked_rect(map, x, y, width, height), cost); });
}

wf_status wf_grid_set_area(wf_grid* grid, int x, int y, int width, int height, uint8_t area) {
  return edit_world(grid, &wf_grid::map,
                    [&](GridMap& map) { map.set_area(checked_rect(map, x, y, width, height), area); });
}

wf_status wf_grid_set_flags(wf_grid* grid, int x, int y, int width, int height, uint16_t flags) {
  return edit_world(grid, &wf_grid::map,
                    [&](GridMap& map) { map.set_flags(checked_rect(map, x, y, width, height), flags); });
}

wf_status wf_grid_query_create(wf_grid* grid, wf_grid_query** out_query, char* error, size_t error_capacity) {
  return create_query(grid, &wf_grid_query::grid, &wf_grid_query::pathfinder, out_query, error, error_capacity,
                      [&] { return std::make_unique<GridQuery>(*grid->map); });
}

void wf_grid_query_destroy(wf_grid_query* query) {
  destroy_query(query, &wf_grid_query::pathfinder, &wf_grid_query::grid);
}

wf_status wf_grid_query_find_path(wf_grid_query* query, int start_x, int start_y, int goal_x, int goal_y,
                                  const wf_grid_options* options, wf_path_result* result) {
  return query_find_path(query, &wf_grid_query::pathfinder, true, "wf_grid_query_find_path: result is NULL", result,
                         [&] { return GridPathRequest{{start_x, start_y}, {goal_x, goal_y}, sized_options(options, query->agent_size)}; });
}

wf_status wf_grid_query_begin(wf_grid_query* query, int start_x, int start_y, int goal_x, int goal_y,
                              const wf_grid_options* options, wf_search_status* status) {
  return query_begin(query, &wf_grid_query::pathfinder, true, "wf_grid_query_begin: status is NULL", status,
                     [&] { return GridPathRequest{{start_x, start_y}, {goal_x, goal_y}, sized_options(options, query->agent_size)}; });
}

wf_status wf_grid_query_step(wf_grid_query* query, uint64_t max_expansions, double max_milliseconds,
                             wf_search_status* status) {
  return query_step(query, &wf_grid_query::pathfinder, max_expansions, max_milliseconds, status);
}

wf_status wf_grid_query_result(wf_grid_query* query, wf_path_result* result) {
  return query_result(query, &wf_grid_query::pathfinder, result);
}

wf_status wf_grid_query_path_cells(wf_grid_query* query, int32_t* xy, size_t capacity, size_t* count) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    const PathResult& path = *query->result;
    return copy_out(query->header.error, "wf_grid_query_path_cells", xy, capacity, count, path.nodes.size(), [&] {
      const GridMap& map = *query->grid->map;
      for (std::size_t i = 0; i < path.nodes.size(); ++i) {
        const Cell cell = map.cell_of(path.nodes[i]);
        xy[2 * i] = cell.x;
        xy[2 * i + 1] = cell.y;
      }
    });
  });
}

wf_status wf_grid_query_message(wf_grid_query* query, char* text, size_t capacity, size_t* length) {
  return query_message(query, text, capacity, length);
}

wf_status wf_grid_derived_create(wf_grid* grid, const wf_grid_options* options, wf_grid_derived** out_derived,
                                 char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("wf_grid_derived_create", out_derived, grid, "grid", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    auto derived = std::make_unique<GridDerivedData>(build_grid_derived_data(*grid->map, grid_options(options)));
    auto handle = std::make_unique<wf_grid_derived>();
    handle->grid = grid;
    handle->derived = derived.release();
    grid->queries.fetch_add(1, std::memory_order_relaxed);
    *out_derived = handle.release();
    return WF_OK;
  });
}

wf_status wf_grid_derived_update(wf_grid_derived* derived, const wf_grid_options* options) {
  if (!is_live(derived)) return WF_INVALID_ARGUMENT;
  return guarded(derived->header.error, [&] {
    build_grid_derived_data(*derived->grid->map, grid_options(options), *derived->derived);
    return WF_OK;
  });
}

void wf_grid_derived_destroy(wf_grid_derived* derived) {
  if (!is_live(derived)) return;
  delete derived->derived;
  derived->grid->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(derived);
}

wf_status wf_grid_query_set_agent_size(wf_grid_query* query, int agent_size) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    (void)sized_options(nullptr, agent_size);  // checks the size
    query->agent_size = agent_size;
    return WF_OK;
  });
}

wf_status wf_grid_derived_add_agent_size(wf_grid_derived* derived, const wf_grid_options* options, int agent_size) {
  if (!is_live(derived)) return WF_INVALID_ARGUMENT;
  return guarded(derived->header.error, [&] {
    build_grid_derived_data(*derived->grid->map, sized_options(options, agent_size), *derived->derived);
    return WF_OK;
  });
}

wf_status wf_grid_query_set_derived(wf_grid_query* query, wf_grid_derived* derived) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    if (derived != nullptr && !is_live_argument(derived, query->header.error)) return WF_INVALID_ARGUMENT;
    if (derived != nullptr && derived->grid != query->grid)
      return fail(query->header.error, WF_INVALID_ARGUMENT,
                  "wf_grid_query_set_derived: the derived data was built for another grid than the query's");
    query->pathfinder->set_derived_data(derived != nullptr ? *derived->derived : GridDerivedData{});
    return WF_OK;
  });
}

}  // extern "C"
