// Voxel worlds through C: building and loading worlds, reading and editing blocks, movement
// profiles, and the voxel query.

#include <memory>
#include <vector>

#include "handles.hpp"
#include "options.hpp"
#include "query_calls.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace wayfinder::c_api {

namespace {

// A movement profile's fields, listed once for both directions of the conversion. The C struct
// keeps the three switches as int: 0 is false, anything else true; true becomes 1.
template <class From, class To>
void copy_profile_fields(const From& from, To& to) {
  using Switch = decltype(to.swim);
  to.agent_height = from.agent_height;
  to.walk_directions = from.walk_directions;
  to.step_height = from.step_height;
  to.jump_height = from.jump_height;
  to.jump_distance = from.jump_distance;
  to.max_fall = from.max_fall;
  to.swim = static_cast<Switch>(from.swim != 0);
  to.climb = static_cast<Switch>(from.climb != 0);
  to.fly = static_cast<Switch>(from.fly != 0);
  to.agent_width = from.agent_width;
  to.walk_cost = from.walk_cost;
  to.diagonal_cost = from.diagonal_cost;
  to.step_up_cost = from.step_up_cost;
  to.jump_cost = from.jump_cost;
  to.fall_cost = from.fall_cost;
  to.swim_cost = from.swim_cost;
  to.climb_cost = from.climb_cost;
  to.fly_cost = from.fly_cost;
}

}  // namespace

MovementProfile movement_profile(const wf_movement_profile& profile) {
  MovementProfile converted;
  copy_profile_fields(profile, converted);
  return converted;
}

VoxelSearchOptions voxel_options(const wf_voxel_options* options) {
  VoxelSearchOptions converted;
  if (options == nullptr) return converted;
  apply_limits(options->limits, converted);
  check_enum("options.algorithm", raw_enum(options->algorithm), WF_VOXEL_HIERARCHICAL);
  converted.algorithm = static_cast<VoxelAlgorithm>(options->algorithm);
  converted.weight = options->weight;
  // A bad profile is the query's to report (invalid_input, profile_problem's reason).
  if (options->profile != nullptr) converted.profile = movement_profile(*options->profile);
  return converted;
}

}  // namespace wayfinder::c_api

namespace {

void fill_profile(const MovementProfile& from, wf_movement_profile* to) { copy_profile_fields(from, *to); }

BlockKind checked_kind(int kind, const char* what) {
  if (kind < WF_BLOCK_AIR || kind > WF_BLOCK_LADDER)
    throw std::invalid_argument(std::string(what) + " is " + std::to_string(kind) + ", not a wf_block_kind (0 to 3)");
  return static_cast<BlockKind>(kind);
}

// The sizes, checked before anything is called or read: a callback or array must not be asked
// about a world that cannot be built.
void check_size(int size_x, int size_y, int size_z) {
  if (const std::optional<std::string> problem = VoxelWorld::size_problem(size_x, size_y, size_z)) throw std::invalid_argument(*problem);
}

}  // namespace

extern "C" {

void wf_movement_profile_walker(wf_movement_profile* profile) {
  if (profile != nullptr) fill_profile(MovementProfile::walker(), profile);
}

void wf_movement_profile_flyer(wf_movement_profile* profile) {
  if (profile != nullptr) fill_profile(MovementProfile::flyer(), profile);
}

void wf_voxel_options_init(wf_voxel_options* options) {
  if (options == nullptr) return;
  const VoxelSearchOptions defaults;
  default_limits(options->limits);
  options->algorithm = static_cast<wf_voxel_algorithm>(defaults.algorithm);
  options->weight = defaults.weight;
  options->profile = nullptr;
}

wf_status wf_voxel_world_create(int size_x, int size_y, int size_z, const uint8_t* blocks,
                                wf_voxel_world** out_world, char* error, size_t error_capacity) {
  return create_world(out_world, &wf_voxel_world::world, error, error_capacity, [&] {
    check_size(size_x, size_y, size_z);
    if (blocks == nullptr) return std::make_unique<VoxelWorld>(size_x, size_y, size_z);
    const std::size_t count = static_cast<std::size_t>(size_x) * static_cast<std::size_t>(size_y) *
                              static_cast<std::size_t>(size_z);
    std::vector<BlockKind> kinds(count);
    for (std::size_t i = 0; i < count; ++i) {
      if (blocks[i] > WF_BLOCK_LADDER)
        throw std::invalid_argument("blocks[" + std::to_string(i) + "] is " + std::to_string(blocks[i]) +
                                    ", not a wf_block_kind (0 to 3)");
      kinds[i] = static_cast<BlockKind>(blocks[i]);
    }
    return std::make_unique<VoxelWorld>(VoxelWorld::from_array(size_x, size_y, size_z, kinds));
  });
}

wf_status wf_voxel_world_create_from_callback(int size_x, int size_y, int size_z, wf_block_at block_at,
                                              void* user_data, wf_voxel_world** out_world, char* error,
                                              size_t error_capacity) {
  return create_world(out_world, &wf_voxel_world::world, error, error_capacity, [&]() -> std::unique_ptr<VoxelWorld> {
    if (block_at == nullptr) {
      write_error(error, error_capacity, "wf_voxel_world_create_from_callback: block_at is NULL");
      return nullptr;
    }
    check_size(size_x, size_y, size_z);
    return std::make_unique<VoxelWorld>(VoxelWorld::from_function(
        size_x, size_y, size_z,
        [&](int x, int y, int z) { return checked_kind(block_at(user_data, x, y, z), "block_at's answer"); }));
  });
}

wf_status wf_voxel_world_load_vox(const char* path, const uint8_t* colour_kinds, wf_voxel_world** out_world,
                                  char* error, size_t error_capacity) {
  return create_world(out_world, &wf_voxel_world::world, error, error_capacity, [&]() -> std::unique_ptr<VoxelWorld> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_voxel_world_load_vox: path is NULL");
      return nullptr;
    }
    VoxReadOptions options;
    if (colour_kinds != nullptr)
      for (int colour = 1; colour < 256; ++colour)
        options.set_kind(static_cast<std::uint8_t>(colour), checked_kind(colour_kinds[colour], "a colour's kind"));
    return std::make_unique<VoxelWorld>(read_vox_file(path, options));
  });
}

wf_status wf_voxel_world_load_3dmap(const char* path, wf_voxel_world** out_world, char* error,
                                    size_t error_capacity) {
  return create_world(out_world, &wf_voxel_world::world, error, error_capacity, [&]() -> std::unique_ptr<VoxelWorld> {
    if (path == nullptr) {
      write_error(error, error_capacity, "wf_voxel_world_load_3dmap: path is NULL");
      return nullptr;
    }
    return std::make_unique<VoxelWorld>(read_voxel_benchmark_map(path));
  });
}

wf_status wf_voxel_world_destroy(wf_voxel_world* world) { return destroy_world(world, &wf_voxel_world::world); }

wf_status wf_voxel_world_size(const wf_voxel_world* world, int* size_x, int* size_y, int* size_z) {
  if (!is_live(world, OnWrongHandle::stay_silent)) return WF_INVALID_ARGUMENT;
  if (size_x != nullptr) *size_x = world->world->size_x();
  if (size_y != nullptr) *size_y = world->world->size_y();
  if (size_z != nullptr) *size_z = world->world->size_z();
  return WF_OK;
}

wf_status wf_voxel_world_block(const wf_voxel_world* world, int x, int y, int z, wf_block_kind* kind) {
  if (!is_live(world, OnWrongHandle::stay_silent) || kind == nullptr) return WF_INVALID_ARGUMENT;
  *kind = static_cast<wf_block_kind>(world->world->block(x, y, z));
  return WF_OK;
}

wf_status wf_voxel_world_revision(const wf_voxel_world* world, uint64_t* revision) {
  if (!is_live(world, OnWrongHandle::stay_silent) || revision == nullptr) return WF_INVALID_ARGUMENT;
  *revision = world->world->revision();
  return WF_OK;
}

wf_status wf_voxel_world_set_block(wf_voxel_world* world, int x, int y, int z, wf_block_kind kind) {
  return edit_world(world, &wf_voxel_world::world,
                    [&](VoxelWorld& edited) { edited.set_block(x, y, z, checked_kind(raw_enum(kind), "kind")); });
}

wf_status wf_voxel_query_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                wf_voxel_query** out_query, char* error, size_t error_capacity) {
  return create_query(world, &wf_voxel_query::world, &wf_voxel_query::pathfinder, out_query, error, error_capacity,
                      [&] {
                        const MovementProfile agent =
                            profile != nullptr ? movement_profile(*profile) : MovementProfile::walker();
                        return std::make_unique<VoxelQuery>(*world->world, agent);
                      });
}

void wf_voxel_query_destroy(wf_voxel_query* query) {
  destroy_query(query, &wf_voxel_query::pathfinder, &wf_voxel_query::world);
}

wf_status wf_voxel_query_find_path(wf_voxel_query* query, const int32_t start[3], const int32_t goal[3],
                                   const wf_voxel_options* options, wf_path_result* result) {
  return query_find_path(query, &wf_voxel_query::pathfinder, start != nullptr && goal != nullptr,
                         "wf_voxel_query_find_path: start, goal or result is NULL", result, [&] {
                           return VoxelPathRequest{voxel_of(start), voxel_of(goal), voxel_options(options)};
                         });
}

wf_status wf_voxel_query_begin(wf_voxel_query* query, const int32_t start[3], const int32_t goal[3],
                               const wf_voxel_options* options, wf_search_status* status) {
  return query_begin(query, &wf_voxel_query::pathfinder, start != nullptr && goal != nullptr,
                     "wf_voxel_query_begin: start, goal or status is NULL", status, [&] {
                       return VoxelPathRequest{voxel_of(start), voxel_of(goal), voxel_options(options)};
                     });
}

wf_status wf_voxel_query_step(wf_voxel_query* query, uint64_t max_expansions, double max_milliseconds,
                              wf_search_status* status) {
  return query_step(query, &wf_voxel_query::pathfinder, max_expansions, max_milliseconds, status);
}

wf_status wf_voxel_query_result(wf_voxel_query* query, wf_path_result* result) {
  return query_result(query, &wf_voxel_query::pathfinder, result);
}

void wf_voxel_hierarchy_options_init(wf_voxel_hierarchy_options* options) {
  if (options == nullptr) return;
  const VoxelHierarchyOptions defaults;
  options->cluster_size = defaults.cluster_size;
  options->cluster_height = defaults.cluster_height;
  options->long_entrance = defaults.long_entrance;
  options->build_threads = defaults.build_threads;
  options->max_places = defaults.max_places;
}

wf_status wf_voxel_hierarchy_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                    const wf_voxel_hierarchy_options* options, wf_voxel_hierarchy** out_hierarchy,
                                    char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("wf_voxel_hierarchy_create", out_hierarchy, world, "world", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    VoxelHierarchyOptions built;
    if (options != nullptr) {
      built.cluster_size = options->cluster_size;
      built.cluster_height = options->cluster_height;
      built.long_entrance = options->long_entrance;
      built.build_threads = options->build_threads;
      built.max_places = options->max_places;
    }
    const MovementProfile agent = profile != nullptr ? movement_profile(*profile) : MovementProfile::walker();
    auto shared = std::make_unique<std::shared_ptr<VoxelHierarchy>>(
        std::make_shared<VoxelHierarchy>(*world->world, agent, std::move(built)));
    auto handle = std::make_unique<wf_voxel_hierarchy>();
    handle->world = world;
    handle->hierarchy = shared.release();
    world->queries.fetch_add(1, std::memory_order_relaxed);
    *out_hierarchy = handle.release();
    return WF_OK;
  });
}

void wf_voxel_hierarchy_destroy(wf_voxel_hierarchy* hierarchy) {
  if (!is_live(hierarchy)) return;
  delete hierarchy->hierarchy;
  hierarchy->world->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(hierarchy);
}

wf_status wf_voxel_hierarchy_size(const wf_voxel_hierarchy* hierarchy, size_t* nodes, size_t* memory_bytes) {
  if (!is_live(hierarchy, OnWrongHandle::stay_silent)) return WF_INVALID_ARGUMENT;
  const VoxelHierarchyStats& stats = (*hierarchy->hierarchy)->stats();
  if (nodes != nullptr) *nodes = stats.nodes;
  if (memory_bytes != nullptr) *memory_bytes = stats.memory_bytes;
  return WF_OK;
}

wf_status wf_voxel_hierarchy_update(wf_voxel_hierarchy* hierarchy, const wf_voxel_world* world,
                                    size_t* clusters_rebuilt) {
  if (!is_live(hierarchy)) return WF_INVALID_ARGUMENT;
  return guarded(hierarchy->header.error, [&] {
    if (world == nullptr)
      return fail(hierarchy->header.error, WF_INVALID_ARGUMENT, "wf_voxel_hierarchy_update: the world handle is NULL");
    if (!is_live_argument(world, hierarchy->header.error)) return WF_INVALID_ARGUMENT;
    if (world != hierarchy->world)
      return fail(hierarchy->header.error, WF_INVALID_ARGUMENT,
                  "wf_voxel_hierarchy_update: the hierarchy was built for another world than the one given");
    const std::size_t rebuilt = (*hierarchy->hierarchy)->update();
    if (clusters_rebuilt != nullptr) *clusters_rebuilt = rebuilt;
    return WF_OK;
  });
}

wf_status wf_voxel_query_set_hierarchy(wf_voxel_query* query, wf_voxel_hierarchy* hierarchy) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    if (hierarchy != nullptr && !is_live_argument(hierarchy, query->header.error)) return WF_INVALID_ARGUMENT;
    if (hierarchy != nullptr && hierarchy->world != query->world)
      return fail(query->header.error, WF_INVALID_ARGUMENT,
                  "wf_voxel_query_set_hierarchy: the hierarchy was built for another world than the query's");
    query->pathfinder->set_hierarchy(hierarchy != nullptr ? *hierarchy->hierarchy : nullptr);
    return WF_OK;
  });
}

wf_status wf_voxel_footprint_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                    wf_voxel_footprint** out_footprint, char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    if (!check_constructor_arguments("wf_voxel_footprint_create", out_footprint, world, "world", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    if (profile == nullptr) {
      write_error(error, error_capacity,
                  "wf_voxel_footprint_create: the profile is NULL (a footprint is for agents 2 or 3 blocks wide)");
      return WF_INVALID_ARGUMENT;
    }
    // VoxelFootprint checks the width and the world's size (std::invalid_argument naming them).
    auto shared = std::make_unique<std::shared_ptr<VoxelFootprint>>(
        std::make_shared<VoxelFootprint>(*world->world, movement_profile(*profile)));
    auto handle = std::make_unique<wf_voxel_footprint>();
    handle->world = world;
    handle->footprint = shared.release();
    world->queries.fetch_add(1, std::memory_order_relaxed);
    *out_footprint = handle.release();
    return WF_OK;
  });
}

void wf_voxel_footprint_destroy(wf_voxel_footprint* footprint) {
  if (!is_live(footprint)) return;
  delete footprint->footprint;
  footprint->world->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(footprint);
}

wf_status wf_voxel_footprint_update(wf_voxel_footprint* footprint, size_t* blocks_changed) {
  if (!is_live(footprint)) return WF_INVALID_ARGUMENT;
  return guarded(footprint->header.error, [&] {
    const std::size_t changed = (*footprint->footprint)->update();
    if (blocks_changed != nullptr) *blocks_changed = changed;
    return WF_OK;
  });
}

wf_status wf_voxel_query_set_footprint(wf_voxel_query* query, wf_voxel_footprint* footprint) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    if (footprint != nullptr && !is_live_argument(footprint, query->header.error)) return WF_INVALID_ARGUMENT;
    if (footprint != nullptr && footprint->world != query->world)
      return fail(query->header.error, WF_INVALID_ARGUMENT,
                  "wf_voxel_query_set_footprint: the footprint was built for another world than the query's");
    query->pathfinder->set_footprint(footprint != nullptr ? *footprint->footprint : nullptr);
    return WF_OK;
  });
}

wf_status wf_voxel_query_path_blocks(wf_voxel_query* query, int32_t* xyz, size_t capacity, size_t* count) {
  if (!is_live(query)) return WF_INVALID_ARGUMENT;
  return guarded(query->header.error, [&] {
    // The points are the blocks' integer coordinates (fill_voxel_points).
    return copy_points_out(query->header.error, "wf_voxel_query_path_blocks", query->result->points, xyz, capacity, count);
  });
}

wf_status wf_voxel_query_message(wf_voxel_query* query, char* text, size_t capacity, size_t* length) {
  return query_message(query, text, capacity, length);
}

}  // extern "C"
