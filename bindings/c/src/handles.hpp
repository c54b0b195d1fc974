#pragma once
// What every entry point of the C API shares: the handles' layouts, the type tag and error slot
// each handle begins with, the one place exceptions are turned into status codes, and the
// size-query copy.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "wayfinder.h"
#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/core/query_options.hpp"

namespace wayfinder::c_api {

/// The text of a handle's last failure. A fixed array rather than a std::string: recording an
/// error must not allocate, since it also reports running out of memory.
struct ErrorSlot {
  char text[512] = {};
};

/// What a handle is, stored in its first bytes. A live handle holds its type's value; its
/// destroy function overwrites that with `destroyed` before freeing the memory. So a handle of
/// one type passed where another is expected is always refused, and a destroyed one is refused
/// as long as its freed memory still reads as it was left (best effort: reading freed memory is
/// undefined, docs/c-api.md says what is guaranteed). The values are unlikely bit patterns
/// ("WFG" and a number), not 0, 1, 2, so that memory which never was a handle rarely passes
/// for one.
enum class HandleType : std::uint32_t {
  grid = 0x57464701,
  grid_query,
  grid_derived,
  navmesh,
  navmesh_query,
  voxel_world,
  voxel_query,
  voxel_hierarchy,
  batch,
  crowd,
  navmesh_tile_cache,
  crowd_flow_field,
  voxel_footprint,
  destroyed = 0x5746DEAD,
};

/// The C name of a live handle type ("wf_grid", ...), null for any other value.
const char* handle_type_name(HandleType type) noexcept;

/// The first member of every handle, so that wf_last_error and the type checks can take any of
/// them: its type, then its error slot.
struct HandleHeader {
  HandleType type;
  ErrorSlot error;
};

/// The header of whatever handle `handle` (not null) points to. Every handle is standard-layout
/// and begins with its header, so the two are pointer-interconvertible.
inline const HandleHeader* header_of(const void* handle) noexcept { return static_cast<const HandleHeader*>(handle); }
inline HandleHeader* header_of(void* handle) noexcept { return static_cast<HandleHeader*>(handle); }

/// Why `handle` (not null) is not a live handle of type `expected`, written into `buffer` (at
/// most `capacity` bytes, terminated; may be null): a live handle of another type is named, anything else is
/// "not a live handle". Allocates nothing.
void describe_wrong_handle(char* buffer, std::size_t capacity, const void* handle, HandleType expected) noexcept;

/// Whether a failure text may be written into a handle found to be of the wrong type.
enum class OnWrongHandle { record, stay_silent };

/// Whether `handle` is a live handle of type Handle (a null one is not). A live handle of
/// another type gets the reason in its own error slot (unless `on_wrong` is stay_silent, for the
/// read functions that record nothing); memory that is no live handle is never written to.
template <class Handle>
bool is_live(const Handle* handle, OnWrongHandle on_wrong = OnWrongHandle::record) noexcept {
  if (handle == nullptr) return false;
  const HandleHeader* header = header_of(static_cast<const void*>(handle));
  if (header->type == Handle::type) return true;
  // Another handle's header is written only if it is a live handle, which its caller made
  // writable: the const in some signatures is the C API's promise, not the object's.
  if (on_wrong == OnWrongHandle::record && handle_type_name(header->type) != nullptr) {
    ErrorSlot& slot = const_cast<HandleHeader*>(header)->error;
    describe_wrong_handle(slot.text, sizeof slot.text, handle, Handle::type);
  }
  return false;
}

/// Whether `argument` (not null), a handle given to a constructor or to a call on another
/// handle, is a live Argument; if not, the reason goes into the constructor's `error` buffer
/// (which may be null), or into `slot`, the error slot of the handle the call is on.
template <class Argument>
bool is_live_argument(const Argument* argument, char* error, std::size_t error_capacity) noexcept {
  if (is_live(argument, OnWrongHandle::stay_silent)) return true;
  describe_wrong_handle(error, error_capacity, argument, Argument::type);
  return false;
}
template <class Argument>
bool is_live_argument(const Argument* argument, ErrorSlot& slot) noexcept {
  return is_live_argument(argument, slot.text, sizeof slot.text);
}

/// Marks a handle destroyed and frees it. The store is volatile: a plain store into memory that
/// is freed at once is dead to the optimiser, which may drop it.
template <class Handle>
void poison_and_delete(Handle* handle) noexcept {
  *static_cast<volatile HandleType*>(&handle->header.type) = HandleType::destroyed;
  delete handle;
}

void record(ErrorSlot& slot, std::string_view text) noexcept;
/// Copies text into a constructor's error buffer (which may be null), truncated to fit.
void write_error(char* buffer, std::size_t capacity, std::string_view text) noexcept;

/// The first checks of a constructor that makes a handle on another one, `owner` (a query on its
/// world, a crowd on its mesh or grid, ...): `out` is given, and is cleared at once; `owner` is
/// given and is a live handle of its type. A failed check writes why into the caller's `error`
/// buffer, as "<function>: the output pointer is NULL", "<function>: the <owner_name> handle is
/// NULL" or the wrong handle's description, and returns false. Runs inside guarded() (the texts
/// are built as strings).
template <class Out, class Owner>
bool check_constructor_arguments(std::string_view function, Out** out, const Owner* owner, std::string_view owner_name,
                                 char* error, std::size_t error_capacity) {
  if (out == nullptr) {
    write_error(error, error_capacity, std::string(function) + ": the output pointer is NULL");
    return false;
  }
  *out = nullptr;
  if (owner == nullptr) {
    write_error(error, error_capacity, std::string(function) + ": the " + std::string(owner_name) + " handle is NULL");
    return false;
  }
  return is_live_argument(owner, error, error_capacity);
}

/// Runs `body` (which returns a wf_status) and turns every exception into a status and a
/// recorded text, so that none crosses into C. `slot` may be null (constructors), then the text
/// goes to `error_buffer`.
template <class Body>
wf_status guarded(ErrorSlot* slot, char* error_buffer, std::size_t error_capacity, Body&& body) noexcept {
  auto fail = [&](wf_status status, std::string_view text) noexcept {
    if (slot != nullptr) record(*slot, text);
    write_error(error_buffer, error_capacity, text);
    return status;
  };
  try {
    return body();
  } catch (const LoadError& error) {
    return fail(WF_LOAD_ERROR, error.what());
  } catch (const std::bad_alloc&) {
    return fail(WF_OUT_OF_MEMORY, "out of memory");
  } catch (const std::invalid_argument& error) {
    return fail(WF_INVALID_ARGUMENT, error.what());
  } catch (const std::out_of_range& error) {
    return fail(WF_INVALID_ARGUMENT, error.what());
  } catch (const std::length_error& error) {
    return fail(WF_OUT_OF_MEMORY, error.what());
  } catch (const std::exception& error) {
    return fail(WF_INTERNAL_ERROR, error.what());
  } catch (...) {
    return fail(WF_INTERNAL_ERROR, "an unknown exception");
  }
}

template <class Body>
wf_status guarded(ErrorSlot& slot, Body&& body) noexcept {
  return guarded(&slot, nullptr, 0, std::forward<Body>(body));
}

/// A failure the binding itself finds (a null pointer, a value out of range): recorded like the
/// exceptions above.
wf_status fail(ErrorSlot& slot, wf_status status, std::string_view text) noexcept;

/// The size-query convention: `count` receives how many items there are; with buffer null and
/// capacity 0 that is all; otherwise the buffer must hold them all (WF_BUFFER_TOO_SMALL,
/// nothing copied, if not). `fill()` writes them. Call inside guarded (the texts allocate).
template <class Fill>
wf_status copy_out(ErrorSlot& slot, const char* what, void* buffer, std::size_t capacity, std::size_t* count,
                   std::size_t needed, Fill&& fill) {
  if (count == nullptr) return fail(slot, WF_INVALID_ARGUMENT, std::string(what) + ": count is NULL");
  *count = needed;
  if (buffer == nullptr && capacity == 0) return WF_OK;
  if (buffer == nullptr)
    return fail(slot, WF_INVALID_ARGUMENT, std::string(what) + ": the buffer is NULL but its capacity is not 0");
  if (capacity < needed)
    return fail(slot, WF_BUFFER_TOO_SMALL, std::string(what) + ": the buffer holds " + std::to_string(capacity) +
                                               " but " + std::to_string(needed) + " are needed");
  fill();
  return WF_OK;
}

/// A path's points into a caller's buffer of x, y, z triples (`capacity` and `count` in points),
/// the same way; `Coordinate` is double, or int32_t for the blocks of a voxel path, whose points
/// are the blocks' integer coordinates and so exact in a double.
template <class Coordinate>
wf_status copy_points_out(ErrorSlot& slot, const char* what, const std::vector<Point>& points, Coordinate* xyz,
                          std::size_t capacity, std::size_t* count) {
  return copy_out(slot, what, xyz, capacity, count, points.size(), [&] {
    for (std::size_t i = 0; i < points.size(); ++i) {
      xyz[3 * i] = static_cast<Coordinate>(points[i].x);
      xyz[3 * i + 1] = static_cast<Coordinate>(points[i].y);
      xyz[3 * i + 2] = static_cast<Coordinate>(points[i].z);
    }
  });
}

/// A message into a caller's text buffer, the same way; the capacity must hold the NUL too.
wf_status copy_text(ErrorSlot& slot, const char* what, const std::string& text, char* buffer, std::size_t capacity,
                    std::size_t* length);

/// The C result summary of a C++ result.
void summarise(const PathResult& result, wf_path_result* out) noexcept;

/// The shared option fields, checked: throws std::invalid_argument for values C++ cannot hold
/// (a NaN or negative time), which would otherwise be undefined to convert.
void apply_limits(const wf_query_limits& limits, QueryOptions& options);
void default_limits(wf_query_limits& limits) noexcept;

/// Throws std::invalid_argument naming `what` unless 0 <= value <= last.
void check_enum(const char* what, int value, int last);

/// The integer a C caller stored in an enumeration (a struct field or a parameter). C lets any
/// int be stored there, but in C++ reading a value outside the enumeration's range is undefined
/// (UndefinedBehaviorSanitizer's `enum` check stops on it), so the bytes are read as an int.
template <class Enum>
int raw_enum(const Enum& value) noexcept {
  static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(int), "C enumerations are int-sized here");
  int raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

/// Step limits from the C arguments (checked as above).
StepBudget step_budget(std::uint64_t max_expansions, double max_milliseconds);

/// Counts the query handles of a world, so that destroying a world under them is refused
/// instead of leaving them dangling.
using QueryCounter = std::atomic<std::size_t>;

}  // namespace wayfinder::c_api

namespace wayfinder {
class GridMap;
class GridQuery;
struct GridDerivedData;
class NavMesh;
class NavMeshQuery;
class NavMeshTileCache;
class VoxelWorld;
class VoxelQuery;
class VoxelHierarchy;
class VoxelFootprint;
class Crowd;
class GridFlowField;
class SearchTrace;
}  // namespace wayfinder

// The handles. Each begins with its header (type tag and error slot) and holds only pointers
// and counters, so that it is standard-layout and a pointer to it is a pointer to the header
// (wf_last_error and is_live rely on it). `type` is the tag a live handle of the type carries.
struct wf_grid {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::grid;
  wayfinder::c_api::HandleHeader header{type, {}};
  wayfinder::GridMap* map;
  wayfinder::c_api::QueryCounter queries;
};
struct wf_grid_query {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::grid_query;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_grid* grid;
  wayfinder::GridQuery* pathfinder;
  wayfinder::PathResult* result;  ///< the latest result, which the path functions read
  int agent_size = 1;             ///< wf_grid_query_set_agent_size: every later query's
  /// The events of the latest search (wf_*_query_set_trace), null while not recorded.
  wayfinder::SearchTrace* trace = nullptr;
};
struct wf_grid_derived {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::grid_derived;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_grid* grid;
  /// Copied into the queries it is given to (a pointer, so that the handle stays standard-layout).
  wayfinder::GridDerivedData* derived;
};
struct wf_navmesh {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::navmesh;
  wayfinder::c_api::HandleHeader header{type, {}};
  wayfinder::NavMesh* mesh;
  wayfinder::c_api::QueryCounter queries;
};
/// A tiled navmesh's tile cache (C++ NavMeshTileCache, navmesh_build); `cache` is only ever set
/// in a library built with Recast.
struct wf_navmesh_tile_cache {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::navmesh_tile_cache;
  wayfinder::c_api::HandleHeader header{type, {}};
  wayfinder::NavMeshTileCache* cache;
};
struct wf_navmesh_query {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::navmesh_query;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_navmesh* mesh;
  wayfinder::NavMeshQuery* query;
  wayfinder::PathResult* result;
  /// The events of the latest search (wf_*_query_set_trace), null while not recorded.
  wayfinder::SearchTrace* trace = nullptr;
};
struct wf_voxel_world {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::voxel_world;
  wayfinder::c_api::HandleHeader header{type, {}};
  wayfinder::VoxelWorld* world;
  wayfinder::c_api::QueryCounter queries;
};
struct wf_voxel_query {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::voxel_query;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_voxel_world* world;
  wayfinder::VoxelQuery* pathfinder;
  wayfinder::PathResult* result;
  /// The events of the latest search (wf_*_query_set_trace), null while not recorded.
  wayfinder::SearchTrace* trace = nullptr;
};
struct wf_voxel_hierarchy {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::voxel_hierarchy;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_voxel_world* world;
  /// Shared with the queries it is given to, which read it as const (a pointer, so that the
  /// handle stays standard-layout); not const here, since wf_voxel_hierarchy_update changes it.
  std::shared_ptr<wayfinder::VoxelHierarchy>* hierarchy;
};
struct wf_voxel_footprint {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::voxel_footprint;
  wayfinder::c_api::HandleHeader header{type, {}};
  wf_voxel_world* world;
  /// Shared with the queries it is given to, as the hierarchy is (a pointer, so that the handle
  /// stays standard-layout); not const here, since wf_voxel_footprint_update changes it.
  std::shared_ptr<wayfinder::VoxelFootprint>* footprint;
};
struct wf_batch;  // batch.cpp
struct wf_crowd {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::crowd;
  wayfinder::c_api::HandleHeader header{type, {}};
  /// The crowd's world, mesh or grid (the other is null), counted among its query handles so
  /// that the world outlives the crowd.
  wf_navmesh* mesh;
  wayfinder::Crowd* crowd;
  wf_grid* grid;
};

struct wf_crowd_flow_field {
  static constexpr wayfinder::c_api::HandleType type = wayfinder::c_api::HandleType::crowd_flow_field;
  wayfinder::c_api::HandleHeader header{type, {}};
  /// The grid it was built on, counted among its query handles (so that the comparison of
  /// wf_crowd_set_flow_target names a live grid).
  wf_grid* grid;
  /// Shared with the agents that follow it (a pointer, so that the handle stays standard-layout).
  std::shared_ptr<const wayfinder::GridFlowField>* field;
};

static_assert(std::is_standard_layout_v<wf_grid> && std::is_standard_layout_v<wf_grid_query> &&
              std::is_standard_layout_v<wf_navmesh> && std::is_standard_layout_v<wf_navmesh_query> &&
              std::is_standard_layout_v<wf_voxel_world> && std::is_standard_layout_v<wf_voxel_query> &&
              std::is_standard_layout_v<wf_voxel_hierarchy> && std::is_standard_layout_v<wf_grid_derived> &&
              std::is_standard_layout_v<wf_crowd> && std::is_standard_layout_v<wf_crowd_flow_field>);
