/*
 * Wayfinder's C API: grids, navigation meshes and voxel worlds, their query objects and
 * batches, for C99 and C++ programs and for other languages' foreign function interfaces.
 *
 * Conventions (docs/c-api.md has the details):
 *  - Every function that can fail returns a wf_status. WF_OK is 0.
 *  - Handles are opaque pointers, made by a create or load function and freed by the matching
 *    destroy function (which accepts NULL). Each carries a tag of its type, checked by every
 *    function: a handle of another type is refused (WF_INVALID_ARGUMENT, nothing changed or
 *    destroyed). A destroyed handle is refused only while its freed memory is unchanged: using
 *    a handle after its destroy is undefined (docs/c-api.md, "Misused handles").
 *  - The text of a failure lives in the handle the function was given: wf_last_error(handle).
 *    Constructors, which have no handle yet, write it into the caller's `error` buffer (may be
 *    NULL). A function given a NULL handle returns WF_INVALID_ARGUMENT and records nothing.
 *  - Arrays come out by copying into the caller's buffers: pass NULL and capacity 0 to learn
 *    the size, then a buffer at least that large. Nothing the library returns needs freeing
 *    except handles, with their destroy functions.
 *  - Threads: a world handle (wf_grid, wf_navmesh, wf_voxel_world) may be searched by any
 *    number of threads at once, each with its own query handle; a query or batch handle is
 *    used by one thread at a time. Edits need the world to themselves (no query running).
 *  - No C++ exception ever leaves a function of this header.
 */
#ifndef WAYFINDER_H
#define WAYFINDER_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  if defined(WF_BUILDING_SHARED)
#    define WF_API __declspec(dllexport)
#  elif defined(WF_SHARED)
#    define WF_API __declspec(dllimport)
#  else
#    define WF_API
#  endif
#elif defined(__GNUC__)
#  define WF_API __attribute__((visibility("default")))
#else
#  define WF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes and common values ---------------------------------------------------- */

/** What a function call did (not what a search found: see wf_search_status). */
typedef enum wf_status {
  WF_OK = 0,
  WF_INVALID_ARGUMENT = 1,  /**< a NULL or wrong-type handle, a NULL pointer, a value out of range, a bad option */
  WF_LOAD_ERROR = 2,        /**< a file could not be read (or written) or its contents are malformed */
  WF_OUT_OF_MEMORY = 3,
  WF_BUFFER_TOO_SMALL = 4,  /**< the caller's buffer is too small; the size needed was returned */
  WF_IN_USE = 5,            /**< a world cannot be destroyed while query handles (or crowds) on it exist */
  WF_INTERNAL_ERROR = 6     /**< anything else; the text says what */
} wf_status;

/** How a search ended. The values are those of C++ wayfinder::SearchStatus. */
typedef enum wf_search_status {
  WF_SEARCH_IN_PROGRESS = 0,       /**< a stepped search that has not finished yet */
  WF_SEARCH_FOUND = 1,             /**< a path from start to goal */
  WF_SEARCH_PARTIAL = 2,           /**< a path towards the reached node closest to the goal */
  WF_SEARCH_NO_PATH = 3,           /**< the goal is unreachable */
  WF_SEARCH_BUDGET_EXHAUSTED = 4,  /**< the budget ran out and partial paths were not requested */
  WF_SEARCH_INVALID_INPUT = 5,     /**< the query was malformed (see the query's message) */
  WF_SEARCH_WORLD_CHANGED = 6      /**< the world was edited during a stepped search */
} wf_search_status;

/** Why a search stopped. The values are those of C++ wayfinder::StopReason. */
typedef enum wf_stop_reason {
  WF_STOP_NONE = 0,
  WF_STOP_GOAL_REACHED = 1,
  WF_STOP_OPEN_LIST_EMPTY = 2,
  WF_STOP_EXPANSION_LIMIT = 3,
  WF_STOP_COST_LIMIT = 4,
  WF_STOP_TIME_LIMIT = 5,
  WF_STOP_INVALID_INPUT = 6,
  WF_STOP_WORLD_CHANGED = 7,
  WF_STOP_GAVE_UP = 8,
  WF_STOP_MEMORY_LIMIT = 9 /**< the search state grew past Budget::max_memory_bytes (a C++ option; the C API sets no memory budget) */
} wf_stop_reason;

/** "No limit" for expansion counts. */
#define WF_UNLIMITED_EXPANSIONS UINT64_MAX
/** Areas are 0 to WF_MAX_AREAS - 1. */
#define WF_MAX_AREAS 64
/** A polygon id meaning "none" (wf_navmesh_locate found no polygon). */
#define WF_NO_POLYGON UINT32_MAX

/** The library's version, "major.minor.patch". */
WF_API const char* wf_version(void);
/** The text of the last failure recorded in any handle of this API ("" if none, a note if
 *  the handle is NULL or holds no live handle's tag). Valid until the next call that fails on
 *  the same handle. */
WF_API const char* wf_last_error(const void* handle);
/** Names of the enumerations' values ("ok", "found", ...); "unknown" for other values. */
WF_API const char* wf_status_name(wf_status status);
WF_API const char* wf_search_status_name(wf_search_status status);

/* ---- Results and options shared by every world ----------------------------------------- */

typedef struct wf_search_stats {
  uint64_t expanded;    /**< nodes taken off the open list and expanded */
  uint64_t generated;   /**< successor edges looked at */
  uint64_t peak_open;   /**< largest open-list size */
  double microseconds;  /**< wall time spent searching */
} wf_search_stats;

/** A search's answer, owned by the caller. The path itself stays in the query (or batch)
 *  handle and is copied out with the path functions. */
typedef struct wf_path_result {
  wf_search_status status;
  wf_stop_reason reason;
  double cost;          /**< the path's cost (0 for no path) */
  size_t node_count;    /**< nodes of the path: cells, polygons of the corridor, blocks */
  size_t point_count;   /**< points of the path: cell centres, waypoints, block positions */
  wf_search_stats stats;
} wf_path_result;

/** Limits and fallbacks every query has (C++ QueryOptions). */
typedef struct wf_query_limits {
  uint64_t max_expansions;       /**< WF_UNLIMITED_EXPANSIONS by default */
  double max_cost;               /**< stop once no cheaper path can exist; HUGE_VAL by default */
  double max_milliseconds;       /**< total search time; 0: no limit */
  int return_partial;            /**< on budget exhaustion, a partial path (1, default) or none */
  int partial_when_unreachable;  /**< a partial path instead of no_path (default 0) */
} wf_query_limits;

/** Per-query area costs and flag masks (C++ AreaFilter): a cell in area a costs
 *  area_costs[a] times more (HUGE_VAL: never entered); a cell with flags is usable only if it
 *  shares one with include_flags, and never if it has one of exclude_flags. */
typedef struct wf_area_filter {
  float area_costs[WF_MAX_AREAS];
  uint16_t include_flags;
  uint16_t exclude_flags;
} wf_area_filter;

/** Costs 1 everywhere, every flag included, none excluded: a filter that changes nothing. */
WF_API void wf_area_filter_init(wf_area_filter* filter);

/* ---- Grids ------------------------------------------------------------------------------ */

typedef struct wf_grid wf_grid;
typedef struct wf_grid_query wf_grid_query;

typedef enum wf_grid_algorithm {
  WF_GRID_BREADTH_FIRST = 0,
  WF_GRID_DIJKSTRA = 1,
  WF_GRID_ASTAR = 2,
  WF_GRID_WEIGHTED_ASTAR = 3,
  WF_GRID_GREEDY_BEST_FIRST = 4,
  WF_GRID_BIDIRECTIONAL_ASTAR = 5,
  WF_GRID_IDA_STAR = 6,
  WF_GRID_JUMP_POINT = 7,
  WF_GRID_CRASH_RIGHT = 8,
  WF_GRID_CRASH_LEFT = 9,
  WF_GRID_CRASH_AUTO = 10,
  WF_GRID_CRASH_FOUR_WAY = 11,
  WF_GRID_DIVIDE = 12,
  WF_GRID_JUMP_POINT_PLUS = 13, /**< JPS+: over a jump table of the grid (wf_grid_derived_create) */
  WF_GRID_HIERARCHICAL = 14     /**< HPA*: near-optimal, over the grid's hierarchy of 16x16 clusters (wf_grid_derived_create) */
} wf_grid_algorithm;

typedef enum wf_diagonal_mode {
  WF_DIAGONAL_NEVER = 0,
  WF_DIAGONAL_AT_LEAST_ONE_WALKABLE = 1,
  WF_DIAGONAL_ONLY_IF_NO_OBSTACLES = 2,  /**< the MovingAI rule, the default */
  WF_DIAGONAL_ALWAYS = 3
} wf_diagonal_mode;

typedef enum wf_heuristic {
  WF_HEURISTIC_AUTOMATIC = 0,
  WF_HEURISTIC_OCTILE = 1,
  WF_HEURISTIC_EUCLIDEAN = 2,
  WF_HEURISTIC_MANHATTAN = 3,
  WF_HEURISTIC_CHEBYSHEV = 4
} wf_heuristic;

typedef struct wf_grid_options {
  wf_query_limits limits;
  wf_grid_algorithm algorithm;   /**< WF_GRID_ASTAR by default */
  wf_diagonal_mode diagonal;
  wf_heuristic heuristic;
  double weight;                 /**< weighted A*'s heuristic weight (>= 1; default 2) */
  uint64_t walker_step_limit;    /**< the reactive walkers' move limit; 0: 4 x the cells */
  const wf_area_filter* filter;  /**< NULL: no filter; read during the call only */
} wf_grid_options;

/** The defaults of C++ GridSearchOptions. Every function taking options accepts NULL for them. */
WF_API void wf_grid_options_init(wf_grid_options* options);

/** A width x height grid, every cell passable at cost 1. */
WF_API wf_status wf_grid_create(int width, int height, wf_grid** out_grid, char* error, size_t error_capacity);
/** A grid from row-major arrays of width * height cells (index y * width + x): passable[i]
 *  non-zero for a passable cell; costs[i] its cost multiplier (> 0; HUGE_VAL blocks the cell),
 *  or costs NULL for cost 1 everywhere. The cells are checked as C++ GridMap::from_costs does. */
WF_API wf_status wf_grid_create_from_cells(int width, int height, const uint8_t* passable, const float* costs,
                                           wf_grid** out_grid, char* error, size_t error_capacity);
/** Reads a MovingAI `.map` file. */
WF_API wf_status wf_grid_load_movingai(const char* path, wf_grid** out_grid, char* error, size_t error_capacity);
/** Fails with WF_IN_USE (and destroys nothing) while query handles on the grid exist. */
WF_API wf_status wf_grid_destroy(wf_grid* grid);

/* Reading a grid (any number of threads at once; these record no error text). */
WF_API wf_status wf_grid_size(const wf_grid* grid, int* width, int* height);
/** One cell: passable (0 or 1), cost (0 when blocked), area and flags; any output may be NULL.
 *  WF_INVALID_ARGUMENT for a cell outside the grid. */
WF_API wf_status wf_grid_cell(const wf_grid* grid, int x, int y, int* passable, float* cost, uint8_t* area,
                              uint16_t* flags);
/** Incremented by every edit that changes a cell. */
WF_API wf_status wf_grid_revision(const wf_grid* grid, uint64_t* revision);

/* Editing a grid: the rectangle [x, x + width) x [y, y + height) must lie inside it, and no
 * query may be running (a stepped one notices and ends with WF_SEARCH_WORLD_CHANGED). */
WF_API wf_status wf_grid_set_passable(wf_grid* grid, int x, int y, int width, int height, int passable);
/** Makes the cells passable with this cost (finite, > 0). */
WF_API wf_status wf_grid_set_cost(wf_grid* grid, int x, int y, int width, int height, float cost);
WF_API wf_status wf_grid_set_area(wf_grid* grid, int x, int y, int width, int height, uint8_t area);
WF_API wf_status wf_grid_set_flags(wf_grid* grid, int x, int y, int width, int height, uint16_t flags);

/** A query object on the grid, which must outlive it. One per thread. */
WF_API wf_status wf_grid_query_create(wf_grid* grid, wf_grid_query** out_query, char* error, size_t error_capacity);
WF_API void wf_grid_query_destroy(wf_grid_query* query);
/** A whole search. A bad query (a blocked start, weight < 1, ...) is WF_OK with status
 *  WF_SEARCH_INVALID_INPUT and the reason in wf_grid_query_message. */
WF_API wf_status wf_grid_query_find_path(wf_grid_query* query, int start_x, int start_y, int goal_x, int goal_y,
                                         const wf_grid_options* options, wf_path_result* result);
/** A search in steps: begin, then step until the status is no longer WF_SEARCH_IN_PROGRESS,
 *  then result. A step stops after max_expansions (WF_UNLIMITED_EXPANSIONS: no limit) or about
 *  max_milliseconds (0: no limit). */
WF_API wf_status wf_grid_query_begin(wf_grid_query* query, int start_x, int start_y, int goal_x, int goal_y,
                                     const wf_grid_options* options, wf_search_status* status);
WF_API wf_status wf_grid_query_step(wf_grid_query* query, uint64_t max_expansions, double max_milliseconds,
                                    wf_search_status* status);
/** The stepped search's result so far; the path functions then read it. */
WF_API wf_status wf_grid_query_result(wf_grid_query* query, wf_path_result* result);
/** The latest result's cells as x, y pairs: capacity and *count are in cells. */
WF_API wf_status wf_grid_query_path_cells(wf_grid_query* query, int32_t* xy, size_t capacity, size_t* count);
/** The latest result's message (why a query was invalid or a walker failed; usually empty):
 *  *length excludes the terminating NUL, which the capacity must include. */
WF_API wf_status wf_grid_query_message(wf_grid_query* query, char* text, size_t capacity, size_t* length);

/* Search traces (C++ SearchTrace): a query handle records what its searches do when asked, for
 * drawing a search step by step. Each event is four doubles: the event (0 opened, 1 reached
 * again more cheaply, 2 closed, i.e. expanded) and the node's position: a grid cell (x, y, 0),
 * a navmesh corridor node (x, y, z; C++ corridor_node_position) or a voxel block (x, y, z). */
/** Records the events of this handle's later searches (each search replaces the last one's),
 *  keeping at most max_events of them (the rest are counted); 0 stops recording. */
WF_API wf_status wf_grid_query_set_trace(wf_grid_query* query, size_t max_events);
/** The events kept of the latest search, by the size-query convention: capacity and *count in
 *  events (4 doubles each); *recorded (may be NULL) counts them all, kept or not. */
WF_API wf_status wf_grid_query_trace(wf_grid_query* query, double* events, size_t capacity, size_t* count,
                                     size_t* recorded);

/** What grid queries read besides the grid: JPS+'s jump table, HPA*'s hierarchy. */
typedef struct wf_grid_derived wf_grid_derived;
/** Builds what queries with `options` (NULL: the defaults) read besides the grid, for the grid
 *  as it is now. It reads the grid, which cannot be destroyed while it exists. Read-only
 *  afterwards and shared by any number of queries on any threads. After the grid is edited,
 *  queries that need it answer WF_SEARCH_INVALID_INPUT until it is brought up to date with
 *  wf_grid_derived_update. */
WF_API wf_status wf_grid_derived_create(wf_grid* grid, const wf_grid_options* options, wf_grid_derived** out_derived,
                                        char* error, size_t error_capacity);
/** Adds what queries with `options` read and `derived` lacks, and builds again what the grid's
 *  edits made stale. Queries given `derived` before keep what it held then: give it to them
 *  again (wf_grid_query_set_derived). */
WF_API wf_status wf_grid_derived_update(wf_grid_derived* derived, const wf_grid_options* options);
/** Queries given the derived data keep it until they are destroyed or given another one. */
WF_API void wf_grid_derived_destroy(wf_grid_derived* derived);
/** The derived data the query's JPS+ and HPA* searches read (NULL: none). It must be of the
 *  query's grid. */
WF_API wf_status wf_grid_query_set_derived(wf_grid_query* query, wf_grid_derived* derived);

/** Agents larger than one cell (C++ GridSearchOptions::agent_size, docs/grid.md): the queries of
 *  this handle from now on are for a k x k agent (1 to 255; 1, the default, is one cell) whose
 *  position is its top-left cell: start, goal and path cells are top-left cells, and every cell
 *  of the body must be passable. Sizes above 1 read the grid's clearance (and with JPS, JPS+ and
 *  HPA* its body map) from derived data built by wf_grid_derived_add_agent_size; without it a
 *  query answers WF_SEARCH_INVALID_INPUT saying what to build. Breadth-first and the walkers
 *  refuse sizes above 1. A size outside 1..255 is WF_INVALID_ARGUMENT, nothing changed. */
WF_API wf_status wf_grid_query_set_agent_size(wf_grid_query* query, int agent_size);
/** Adds to the derived data what queries with `options` for k x k agents read (the clearance,
 *  and for JPS, JPS+ and HPA* the body map and its jump table or hierarchy), for the grid as it
 *  is now; give it to the queries again (wf_grid_query_set_derived). A size outside 1..255 is
 *  WF_INVALID_ARGUMENT. */
WF_API wf_status wf_grid_derived_add_agent_size(wf_grid_derived* derived, const wf_grid_options* options,
                                                int agent_size);

/* ---- Navigation meshes ------------------------------------------------------------------ */

typedef struct wf_navmesh wf_navmesh;
typedef struct wf_navmesh_query wf_navmesh_query;

typedef enum wf_corridor_nodes {
  WF_CORRIDOR_POLYGON_CENTROIDS = 0,
  WF_CORRIDOR_EDGE_POINTS = 1,  /**< the default: corridors close to the shortest */
  /** No corridor search: the exact shortest path (its x-z length is the cost; C++
   *  CorridorNodes::optimal, after Polyanya); path_polygons are the polygons it crosses. A mesh
   *  with off-mesh links or a filter with area costs other than 1 is WF_SEARCH_INVALID_INPUT. */
  WF_CORRIDOR_OPTIMAL = 2
} wf_corridor_nodes;

typedef struct wf_navmesh_options {
  wf_query_limits limits;
  wf_corridor_nodes nodes;
  double weight;            /**< heuristic weight (1: A*) */
  double height_tolerance;  /**< how far above or below a polygon a point still lies on it (4) */
  double snap_distance;     /**< move an off-mesh start or goal this far onto the mesh (0: refuse) */
  /** NULL: no filter; read during the call only. The corridor never enters a polygon (nor
   *  takes an off-mesh link) the filter refuses, and a polygon's steps cost its area's
   *  multiplier times more; a start or goal only on refused polygons, or a cost that is not
   *  > 0, is WF_SEARCH_INVALID_INPUT (C++ NavMeshSearchOptions::filter). */
  const wf_area_filter* filter;
} wf_navmesh_options;

WF_API void wf_navmesh_options_init(wf_navmesh_options* options);

/** Reads a Wavefront OBJ file (y up, or z up when z_up is non-zero). */
WF_API wf_status wf_navmesh_load_obj(const char* path, int z_up, wf_navmesh** out_mesh, char* error,
                                     size_t error_capacity);
/** Reads a Polyanya "mesh 2" file. */
WF_API wf_status wf_navmesh_load_polyanya(const char* path, wf_navmesh** out_mesh, char* error, size_t error_capacity);
/** Reads a baked navmesh file (.wfnav, written by wf_navmesh_save_wfnav or `wayfinder mesh
 *  build -o LEVEL.wfnav`): the mesh as it was saved, detail heights, areas, flags and off-mesh
 *  links included, answering every query as it did. A damaged, truncated or foreign file is
 *  WF_LOAD_ERROR, the text naming the file and the byte where the problem is. */
WF_API wf_status wf_navmesh_load_wfnav(const char* path, wf_navmesh** out_mesh, char* error, size_t error_capacity);
/** Writes the mesh as a baked navmesh file (replacing `path`), with its areas and flags as they
 *  are now. A file that cannot be written is WF_LOAD_ERROR, the text (wf_last_error(mesh))
 *  naming it. The mesh is only read: queries may run on other threads meanwhile; one thread at
 *  a time saves a given mesh handle (a failure is recorded in it). */
WF_API wf_status wf_navmesh_save_wfnav(wf_navmesh* mesh, const char* path);
/** A mesh from arrays: vertex i is the floats x, y, z (y up) at byte offset i * stride_bytes
 *  (0: 12, packed); polygon i is the next polygon_sizes[i] entries of indices. A stride below
 *  12, or a count and stride that span more memory than a buffer can, is WF_LOAD_ERROR. */
WF_API wf_status wf_navmesh_create(const float* vertices, size_t vertex_count, size_t stride_bytes,
                                   const uint32_t* indices, size_t index_count, const uint32_t* polygon_sizes,
                                   size_t polygon_count, wf_navmesh** out_mesh, char* error, size_t error_capacity);
/** Fails with WF_IN_USE while query handles or crowds on the mesh exist. */
WF_API wf_status wf_navmesh_destroy(wf_navmesh* mesh);
/** Counts after building (concave polygons are split, degenerate ones dropped); any output may be NULL. */
WF_API wf_status wf_navmesh_counts(const wf_navmesh* mesh, size_t* vertices, size_t* polygons, size_t* regions);
/** The polygon under or over a point within height_tolerance, and the point moved onto it;
 *  *polygon is WF_NO_POLYGON when there is none. located may be NULL. */
WF_API wf_status wf_navmesh_locate(const wf_navmesh* mesh, const double point[3], double height_tolerance,
                                   uint32_t* polygon, double located[3]);
/** Incremented by every edit that changes the mesh (areas, flags, off-mesh links, tiles). */
WF_API wf_status wf_navmesh_revision(const wf_navmesh* mesh, uint64_t* revision);
/** A polygon's area and flags (either output may be NULL; an unused id of a tiled mesh's tile
 *  reads area 0, no flags). A read: records no text; a polygon id that is not below the
 *  polygon count (wf_navmesh_counts) is WF_INVALID_ARGUMENT. */
WF_API wf_status wf_navmesh_polygon_area(const wf_navmesh* mesh, uint32_t polygon, uint8_t* area, uint16_t* flags);

/* Editing a mesh's areas and flags (C++ NavMesh::set_area, set_flags, set_area_and_flags; the
 * geometry never changes). An edit that changes the polygon increments the revision once; no
 * query or crowd update on the mesh may be running meanwhile (a stepped search notices and ends
 * with WF_SEARCH_WORLD_CHANGED). A polygon id that is not in the mesh, or an area >=
 * WF_MAX_AREAS, is WF_INVALID_ARGUMENT, nothing changed, the text in wf_last_error(mesh). */
WF_API wf_status wf_navmesh_set_area(wf_navmesh* mesh, uint32_t polygon, uint8_t area);
WF_API wf_status wf_navmesh_set_flags(wf_navmesh* mesh, uint32_t polygon, uint16_t flags);
/** Both at once, as one edit. */
WF_API wf_status wf_navmesh_set_area_and_flags(wf_navmesh* mesh, uint32_t polygon, uint8_t area, uint16_t flags);

/** An off-mesh link (C++ OffMeshLink, docs/navmesh.md "Off-mesh links"): a jump, a ladder or a
 *  teleporter between two points of the mesh, taken without walking between them. */
typedef struct wf_off_mesh_link {
  double start[3], end[3];  /**< y up */
  double radius;            /**< how far (3D) an end may be moved onto the mesh (1) */
  double cost;              /**< before its area's multiplier; below 0: its length (-1); less than its length is raised to it */
  int bidirectional;        /**< non-zero: both ways (1); 0: start to end only */
  uint8_t area;             /**< < WF_MAX_AREAS (0) */
  uint16_t flags;           /**< read by filters as a polygon's (0) */
  uint32_t user_id;         /**< the caller's own number (0) */
} wf_off_mesh_link;

/** The defaults of C++ OffMeshLink: both ways, radius 1, cost its length. */
WF_API void wf_off_mesh_link_init(wf_off_mesh_link* link);
/** Places the link's ends on the mesh and adds it; *link_id (may be NULL) is its id (0, 1, ...
 *  in the order links are added, after a baked file's own). An end with no mesh within the
 *  radius, a non-finite point, a bad cost, radius or area is WF_INVALID_ARGUMENT, nothing
 *  changed. An edit: no query or crowd update on the mesh may be running (a stepped search
 *  notices and ends with WF_SEARCH_WORLD_CHANGED). */
WF_API wf_status wf_navmesh_add_off_mesh_link(wf_navmesh* mesh, const wf_off_mesh_link* link, uint32_t* link_id);
/** Adds every link of a links file (one a line: `x1 y1 z1 x2 y2 z2 [both|oneway] [cost=C]
 *  [area=A] [flags=F] [radius=R] [id=N]`, as `wayfinder mesh path --links` reads it); *added
 *  (may be NULL) is how many. A malformed file is WF_LOAD_ERROR and a link that cannot be placed
 *  WF_INVALID_ARGUMENT, both naming the line; then no link of the file is added. */
WF_API wf_status wf_navmesh_add_off_mesh_links_file(wf_navmesh* mesh, const char* path, size_t* added);
WF_API wf_status wf_navmesh_off_mesh_link_count(const wf_navmesh* mesh, size_t* count);

/** An off-mesh link a path takes (C++ PathLinkStep). */
typedef struct wf_path_link {
  uint32_t waypoint;  /**< index in the path's points of the link's start; its end is the next point */
  uint32_t polygon;   /**< index in the path's polygons of the one it leaves; the next is where it lands */
  uint32_t link;      /**< the link's id */
  int reverse;        /**< non-zero: a two-way link taken from its end to its start */
} wf_path_link;

/** How a navigation mesh is built from level geometry (C++ AgentSettings, docs/navmesh.md):
 *  Recast's voxel sizes and the agent's size and reach, in world units (y up). */
typedef struct wf_agent_settings {
  double cell_size, cell_height;                 /**< voxel size across and up (0.3, 0.2) */
  double agent_height, agent_radius, max_climb;  /**< 2, 0.6, 0.9 */
  double max_slope_degrees;                      /**< steepest walkable slope (45) */
  int region_min_size, region_merge_size;        /**< in cells (8, 20) */
  double edge_max_length, edge_max_error;        /**< polygon edges (12, 1.3) */
  int vertices_per_polygon;                      /**< 3 to 12 (6) */
  double detail_sample_distance, detail_sample_max_error; /**< the ground under polygons (6, 1) */
  int tile_size;                                 /**< cells per tile side; 0: the level in one piece */
} wf_agent_settings;

/** The defaults of C++ AgentSettings. */
WF_API void wf_agent_settings_init(wf_agent_settings* settings);
/** Builds a navigation mesh from a level's geometry in a Wavefront OBJ file (y up, or z up when
 *  z_up is non-zero) for an agent (settings NULL: the defaults), as C++ build_navmesh_geometry
 *  with Recast. Bad settings are WF_INVALID_ARGUMENT with the reason; a library built without
 *  Recast (WAYFINDER_WITH_RECAST off) answers WF_INTERNAL_ERROR saying so. Takes from
 *  milliseconds to seconds, by the level's size. */
WF_API wf_status wf_navmesh_build_obj(const char* path, int z_up, const wf_agent_settings* settings,
                                      wf_navmesh** out_mesh, char* error, size_t error_capacity);

/** What a build from level geometry did (C++ NavMeshBuildReport), for tools and logs. */
typedef struct wf_navmesh_build_report {
  size_t input_triangles;
  size_t walkable_triangles;     /**< triangles no steeper than max_slope_degrees */
  int grid_width, grid_depth;    /**< voxels along x and z */
  int tiles;                     /**< tiles built (1 for a level built in one piece) */
  size_t polygons, vertices, detail_triangles;  /**< of the built mesh, before NavMesh::build */
  size_t border_vertices_added;  /**< vertices added to polygon edges along tile borders */
  double milliseconds;           /**< wall time of the build */
} wf_navmesh_build_report;

/** Builds a navigation mesh from a level's geometry given as arrays, as wf_navmesh_build_obj does
 *  from a file (C++ build_navmesh_geometry with Recast): vertex i is the floats
 *  vertices[3 * i .. 3 * i + 2], x, y, z in world units, y up; triangle t is the vertex indices
 *  triangles[3 * t .. 3 * t + 2] (either winding; signed, as game engines and Recast keep them).
 *  settings NULL: the defaults. report (may be NULL) is filled when the build succeeds, zeroed
 *  when it fails. The arrays are read during the call only. WF_INVALID_ARGUMENT, the reason in
 *  `error` naming the argument, the vertex or the triangle: a NULL array, a count of 0 (or one
 *  too large for Recast), a coordinate that is NaN or infinite, an index that is negative or not
 *  below vertex_count, bad settings (naming the field). A level with nothing walkable gives a
 *  mesh without polygons. A library built without Recast (WAYFINDER_WITH_RECAST off) answers
 *  WF_INTERNAL_ERROR saying so, after the same checks of the arrays. Takes from milliseconds to
 *  seconds, by the level's size. */
WF_API wf_status wf_navmesh_build_geometry(const float* vertices, size_t vertex_count, const int32_t* triangles,
                                           size_t triangle_count, const wf_agent_settings* settings,
                                           wf_navmesh_build_report* report, wf_navmesh** out_mesh, char* error,
                                           size_t error_capacity);

/** Temporary obstacles on a tiled navigation mesh (C++ NavMeshTileCache, docs/navmesh.md,
 *  "Temporary obstacles and area volumes"): the cache keeps each tile's voxels and rebuilds the
 *  tiles an obstacle touches. Not thread-safe: one thread at a time uses a cache. */
typedef struct wf_navmesh_tile_cache wf_navmesh_tile_cache;
/** Builds a level's navigation mesh in tiles (settings->tile_size cells a side, 8 to 4096; settings
 *  NULL: the defaults with tiles of 48) as C++ build_navmesh_tiles and NavMesh::build_tiled, and
 *  its tile cache: *out_mesh is the tiled mesh (a wf_navmesh like any other, destroyed with
 *  wf_navmesh_destroy), *out_cache the cache that rebuilds its tiles. Errors as
 *  wf_navmesh_build_obj (a tile_size of 0 is WF_INVALID_ARGUMENT); on failure both outputs are NULL. */
WF_API wf_status wf_navmesh_tile_cache_create_obj(const char* path, int z_up, const wf_agent_settings* settings,
                                                  wf_navmesh_tile_cache** out_cache, wf_navmesh** out_mesh,
                                                  char* error, size_t error_capacity);
/** NULL is accepted; the mesh is not touched. */
WF_API wf_status wf_navmesh_tile_cache_destroy(wf_navmesh_tile_cache* cache);
/** Adds a vertical cylinder standing on base (its bottom centre), radius and height in world units
 *  (>= 0); its tiles are rebuilt by the next wf_navmesh_tile_cache_update. A NaN or infinite
 *  value or a negative size is WF_INVALID_ARGUMENT naming the field. obstacle_id may be NULL. */
WF_API wf_status wf_navmesh_tile_cache_add_cylinder(wf_navmesh_tile_cache* cache, const double base[3], double radius,
                                                    double height, uint32_t* obstacle_id);
/** Adds an axis-aligned box from min to max (each of min's coordinates at most max's). */
WF_API wf_status wf_navmesh_tile_cache_add_box(wf_navmesh_tile_cache* cache, const double min[3], const double max[3],
                                               uint32_t* obstacle_id);
/** Removes an obstacle; an id this cache did not give, or already removed, is WF_INVALID_ARGUMENT. */
WF_API wf_status wf_navmesh_tile_cache_remove(wf_navmesh_tile_cache* cache, uint32_t obstacle_id);
/** Rebuilds queued tiles (at most max_tiles; 0: all of them), oldest change first, and puts them
 *  into mesh, which must be the mesh wf_navmesh_tile_cache_create_obj made with this cache (another
 *  is WF_INVALID_ARGUMENT). An edit of the mesh: no query or crowd update on it may run meanwhile.
 *  tiles_rebuilt and tiles_pending (still queued) may be NULL. */
WF_API wf_status wf_navmesh_tile_cache_update(wf_navmesh_tile_cache* cache, wf_navmesh* mesh, size_t max_tiles,
                                              size_t* tiles_rebuilt, size_t* tiles_pending);
/** Writes mesh and the cache's data (settings, packed heightfields; not its obstacles) as one
 *  baked navmesh file (.wfnav with its tile cache section, docs/navmesh-file.md), replacing
 *  `path`, so that a game ships one file and adds obstacles at run time without the level. Save
 *  before adding obstacles. A mesh that is not the cache's tiled mesh is WF_INVALID_ARGUMENT; a
 *  file that cannot be written is WF_LOAD_ERROR, the text (wf_last_error(cache)) naming it. */
WF_API wf_status wf_navmesh_tile_cache_save_wfnav(wf_navmesh_tile_cache* cache, wf_navmesh* mesh, const char* path);
/** Reads a file wf_navmesh_tile_cache_save_wfnav wrote: *out_mesh the tiled mesh (destroyed with
 *  wf_navmesh_destroy), *out_cache its cache, which rebuilds tiles as the one saved did, without
 *  the level. A damaged, truncated or foreign file, or one without the tile cache section, is
 *  WF_LOAD_ERROR, the text naming the file and the byte where the problem is; on failure both
 *  outputs are NULL. Built without Recast: WF_INTERNAL_ERROR saying so. */
WF_API wf_status wf_navmesh_tile_cache_load_wfnav(const char* path, wf_navmesh_tile_cache** out_cache,
                                                  wf_navmesh** out_mesh, char* error, size_t error_capacity);

WF_API wf_status wf_navmesh_query_create(wf_navmesh* mesh, wf_navmesh_query** out_query, char* error,
                                         size_t error_capacity);
WF_API void wf_navmesh_query_destroy(wf_navmesh_query* query);
WF_API wf_status wf_navmesh_query_find_path(wf_navmesh_query* query, const double start[3], const double goal[3],
                                            const wf_navmesh_options* options, wf_path_result* result);
WF_API wf_status wf_navmesh_query_begin(wf_navmesh_query* query, const double start[3], const double goal[3],
                                        const wf_navmesh_options* options, wf_search_status* status);
WF_API wf_status wf_navmesh_query_step(wf_navmesh_query* query, uint64_t max_expansions, double max_milliseconds,
                                       wf_search_status* status);
WF_API wf_status wf_navmesh_query_result(wf_navmesh_query* query, wf_path_result* result);
/** The waypoints (start, turns, goal) as x, y, z triples: capacity and *count in points. */
WF_API wf_status wf_navmesh_query_path_points(wf_navmesh_query* query, double* xyz, size_t capacity, size_t* count);
/** The corridor: polygon ids from start to goal. */
WF_API wf_status wf_navmesh_query_path_polygons(wf_navmesh_query* query, uint32_t* polygons, size_t capacity,
                                                size_t* count);
/** The off-mesh links the path takes, in order: capacity and *count in links. */
WF_API wf_status wf_navmesh_query_path_links(wf_navmesh_query* query, wf_path_link* links, size_t capacity,
                                             size_t* count);
WF_API wf_status wf_navmesh_query_message(wf_navmesh_query* query, char* text, size_t capacity, size_t* length);
/** As wf_grid_query_set_trace and wf_grid_query_trace, for the corridor search's nodes. */
WF_API wf_status wf_navmesh_query_set_trace(wf_navmesh_query* query, size_t max_events);
WF_API wf_status wf_navmesh_query_trace(wf_navmesh_query* query, double* events, size_t capacity, size_t* count,
                                        size_t* recorded);

/* ---- Crowds ----------------------------------------------------------------------------- */

/** Agents walking their paths together on a navigation mesh, avoiding each other and the walls
 *  (C++ wayfinder::Crowd, docs/crowds.md). A crowd counts as a query handle of its mesh: the
 *  mesh cannot be destroyed (WF_IN_USE) until the crowd is. One thread at a time drives a crowd;
 *  its update may use more (settings.threads) and gives the same result for every count. */
typedef struct wf_crowd wf_crowd;

/** C++ CrowdSettings; lengths in world units, times in seconds. */
typedef struct wf_crowd_settings {
  size_t threads;                /**< threads an update splits the agents over, >= 1 (1) */
  double time_horizon;           /**< avoid other agents this far ahead, > 0 (2) */
  double wall_time_horizon;      /**< avoid walls this far ahead, > 0 (0.5) */
  double neighbour_distance;     /**< agents closer than this (centres, x-z) are neighbours, > 0 (5) */
  size_t max_neighbours;         /**< the nearest this many are avoided, >= 1 (10) */
  size_t collision_iterations;   /**< rounds of pushing overlapping agents apart (32; 0: none) */
  double stuck_time;             /**< no progress for this long: stuck, > 0 (3) */
  double stuck_progress;         /**< ... progress meaning coming this much closer, >= 0 (0.05) */
  double settle_speed_fraction;  /**< below this fraction of its max speed an agent stops, 0..1 (0.05) */
  size_t max_move_polygons;      /**< polygons one move along the surface looks at, >= 1 (64) */
  double wall_clearance;         /**< how far centres keep from the mesh's edge, >= 0 (0.02) */
  double target_snap_distance;   /**< a point off the mesh moves this far onto it, >= 0 (2) */
  size_t min_agents_per_thread;  /**< under threads x this many agents an update runs on the calling thread, >= 1 (256) */
} wf_crowd_settings;

/** One agent's body and manners (C++ CrowdAgentSettings). */
typedef struct wf_crowd_agent_settings {
  double radius;              /**< > 0 (0.5) */
  double height;              /**< > 0 (2) */
  double max_speed;           /**< >= 0, units per second (3.5) */
  double max_acceleration;    /**< > 0, units per second squared (8) */
  double avoidance_priority;  /**< >= 0: of two agents with p and q, the first takes q / (p + q) of the avoidance (1) */
  double arrival_radius;      /**< within this of its target point it has arrived, >= 0 (0.1) */
  uint64_t user_id;           /**< the caller's own number; never read by the crowd (0) */
} wf_crowd_agent_settings;

/** What an agent is doing. The values are those of C++ wayfinder::CrowdAgentStatus. */
typedef enum wf_crowd_agent_state {
  WF_CROWD_IDLE = 0,              /**< no target */
  WF_CROWD_WAITING_FOR_PATH = 1,  /**< its path has not come yet: it stands still */
  WF_CROWD_MOVING = 2,            /**< following its path, or its target velocity */
  WF_CROWD_ARRIVED = 3,           /**< within its arrival radius of its target point */
  WF_CROWD_UNREACHABLE = 4,       /**< its target cannot be reached: it stands as close as it got */
  WF_CROWD_ON_LINK = 5            /**< crossing an off-mesh link (wf_crowd_agent_link) */
} wf_crowd_agent_state;

/** What happened to an agent's link crossing in the last update (C++ CrowdLinkEvent). */
typedef enum wf_crowd_link_event {
  WF_CROWD_LINK_NONE = 0,
  WF_CROWD_LINK_STARTED = 1,  /**< it took a link (progress 0, not moved yet) */
  WF_CROWD_LINK_FINISHED = 2  /**< it landed on the link's far end */
} wf_crowd_link_event;

/** An agent's crossing of an off-mesh link (C++ CrowdLinkTraversal, docs/crowds.md): a straight
 *  line from start to end at the agent's max speed, to be animated by the caller. */
typedef struct wf_crowd_link_crossing {
  double start[3];    /**< where it stood when it took the link */
  double end[3];      /**< where it lands, on the mesh */
  double duration;    /**< seconds from taking the link to landing */
  double elapsed;     /**< seconds since it took the link */
  double progress;    /**< elapsed / duration, 0..1 */
  uint32_t link;      /**< the link's id (its index among the mesh's links) */
  int32_t reverse;    /**< 1: a two-way link taken from its end to its start */
} wf_crowd_link_crossing;

/** The defaults of C++ CrowdSettings and CrowdAgentSettings. */
WF_API void wf_crowd_settings_init(wf_crowd_settings* settings);
WF_API void wf_crowd_agent_settings_init(wf_crowd_agent_settings* settings);

/** A crowd on `mesh` (settings NULL: the defaults); bad settings are WF_INVALID_ARGUMENT naming
 *  the field. */
WF_API wf_status wf_crowd_create(wf_navmesh* mesh, const wf_crowd_settings* settings, wf_crowd** out_crowd,
                                 char* error, size_t error_capacity);
/** A crowd on `grid` (C++ Crowd on a GridMap, docs/crowds.md "Crowds on grids"): positions and
 *  targets are {column, 0, row} in cell units (a cell's centre is {x + 0.5, 0, y + 0.5}); paths
 *  by A*, or by jump point search when `jump_point` is non-zero, smoothed to any-angle waypoints;
 *  walls are the blocked cells' edges and no centre ever enters a blocked cell. The crowd counts
 *  as a query handle of the grid (which cannot be destroyed until the crowd is); the grid may be
 *  edited between updates. Every wf_crowd_ function below serves both kinds of crowd. */
WF_API wf_status wf_crowd_create_grid(wf_grid* grid, const wf_crowd_settings* settings, int jump_point,
                                      wf_crowd** out_crowd, char* error, size_t error_capacity);
WF_API void wf_crowd_destroy(wf_crowd* crowd);
/** Adds an agent standing at the mesh point nearest to `position` (within the target snap
 *  distance), with no target (settings NULL: the defaults). Ids grow and are never reused. Bad
 *  settings or a position with no mesh near are WF_INVALID_ARGUMENT. */
WF_API wf_status wf_crowd_add_agent(wf_crowd* crowd, const double position[3], const wf_crowd_agent_settings* settings,
                                    uint32_t* agent_id);
/** An id no agent has is WF_INVALID_ARGUMENT (here and below), nothing changed. */
WF_API wf_status wf_crowd_remove_agent(wf_crowd* crowd, uint32_t agent_id);
/** Sends the agent to the mesh point nearest to `target`; its path is asked for in the next
 *  update. A target that is not finite, or has no mesh near, is WF_INVALID_ARGUMENT. */
WF_API wf_status wf_crowd_set_target(wf_crowd* crowd, uint32_t agent_id, const double target[3]);
/** Makes the agent walk at `velocity_xz` (x, z; clamped to its max speed) with no path, still
 *  avoiding others and the walls: a player's character. */
WF_API wf_status wf_crowd_set_velocity_target(wf_crowd* crowd, uint32_t agent_id, const double velocity_xz[2]);
/** Advances every agent by dt seconds (finite, > 0): paths, avoidance, moves. */
WF_API wf_status wf_crowd_update(wf_crowd* crowd, double dt);
/** A read: records no text. */
WF_API wf_status wf_crowd_agent_count(const wf_crowd* crowd, size_t* count);
/** Every agent, in the order of their ids, into the caller's arrays (each may be NULL when not
 *  wanted; capacity and *count in agents): ids, positions (x, y, z triples, on the mesh),
 *  velocities during the last update (x, z pairs, units per second) and states. With every
 *  array NULL and capacity 0 only *count is set; a capacity below the count is
 *  WF_BUFFER_TOO_SMALL, nothing copied. */
WF_API wf_status wf_crowd_read_agents(wf_crowd* crowd, uint32_t* ids, double* positions_xyz, double* velocities_xz,
                                      wf_crowd_agent_state* states, size_t capacity, size_t* count);
/** One agent's off-mesh link crossing: *on_link 1 and *crossing filled while it crosses one,
 *  else *on_link 0 (crossing untouched); *event what happened to it in the last update. Any
 *  output may be NULL. An id no agent has is WF_INVALID_ARGUMENT. */
WF_API wf_status wf_crowd_agent_link(wf_crowd* crowd, uint32_t agent_id, int32_t* on_link,
                                     wf_crowd_link_crossing* crossing, wf_crowd_link_event* event);
/** How many path searches the agent has asked for: its first and every replan (C++
 *  CrowdAgent::path_requests); 0 for an agent that only followed flow fields or velocities. A
 *  read: records no text; an id no agent has is WF_INVALID_ARGUMENT. */
WF_API wf_status wf_crowd_agent_path_requests(const wf_crowd* crowd, uint32_t agent_id, uint32_t* count);

/* Flow targets (crowds on grids only; C++ Crowd::set_target_flow over a shared GridFlowField,
 * docs/crowds.md "Flow targets"): one field, built once towards one or more goal cells, leads
 * any number of agents to the nearest goal with no path search for any of them. */
typedef struct wf_crowd_flow_field wf_crowd_flow_field;
/** Builds a flow field on the grid of `crowd` (a crowd made by wf_crowd_create_grid), as the
 *  grid is now, towards the nearest of goal_count goal cells (goals_xy: goal_count x, y pairs),
 *  with the crowd's diagonal rule (no corner cutting). It counts as a query handle of the grid,
 *  which cannot be destroyed until the field is; once built it is read-only and may be given to
 *  any agents of any crowd on that grid. It describes the grid as it was when built: after edits,
 *  build another. A crowd on a mesh, no goals (goals_xy NULL or goal_count 0), or a goal outside
 *  the grid or on a blocked cell is WF_INVALID_ARGUMENT, the reason in `error`. Takes
 *  O(N log N) for the N cells that reach a goal and keeps 9 bytes per cell (13 with several goals). */
WF_API wf_status wf_crowd_flow_field_create(wf_crowd* crowd, const int32_t* goals_xy, size_t goal_count,
                                            wf_crowd_flow_field** out_field, char* error, size_t error_capacity);
/** Agents sent along the field keep it until they get another target: the handle may be
 *  destroyed while they still follow it. */
WF_API void wf_crowd_flow_field_destroy(wf_crowd_flow_field* field);
/** Sends the agent along `field`, with no path search: each update it heads for the furthest
 *  cell down the field it can walk to in a straight line, and it has arrived (WF_CROWD_ARRIVED)
 *  while it stands in a goal cell. A crowd on a mesh, a NULL field, a field built on another
 *  grid, an id no agent has, or an agent whose cell reaches no goal is WF_INVALID_ARGUMENT,
 *  nothing changed, the reason in wf_last_error(crowd). */
WF_API wf_status wf_crowd_set_flow_target(wf_crowd* crowd, uint32_t agent_id, const wf_crowd_flow_field* field);

/* ---- Voxel worlds ----------------------------------------------------------------------- */

typedef struct wf_voxel_world wf_voxel_world;
typedef struct wf_voxel_query wf_voxel_query;
typedef struct wf_voxel_hierarchy wf_voxel_hierarchy;
typedef struct wf_voxel_footprint wf_voxel_footprint;

typedef enum wf_block_kind {
  WF_BLOCK_AIR = 0,
  WF_BLOCK_SOLID = 1,
  WF_BLOCK_WATER = 2,
  WF_BLOCK_LADDER = 3
} wf_block_kind;

typedef enum wf_voxel_algorithm {
  WF_VOXEL_DIJKSTRA = 0,
  WF_VOXEL_ASTAR = 1,
  WF_VOXEL_WEIGHTED_ASTAR = 2,
  WF_VOXEL_GREEDY_BEST_FIRST = 3,
  WF_VOXEL_JUMP_POINT = 4, /**< optimal; flying profiles only (others: WF_SEARCH_INVALID_INPUT) */
  WF_VOXEL_HIERARCHICAL = 5 /**< near-optimal, over the hierarchy given to wf_voxel_query_set_hierarchy */
} wf_voxel_algorithm;

/** What an agent can do (C++ MovementProfile; docs/voxel.md). agent_width (1 to 3) is the
 *  columns across the agent's square footprint: a walker's body is agent_width x agent_width
 *  columns of agent_height blocks, a flyer's a cube of agent_width blocks ("Wide agents" in
 *  docs/voxel.md). It comes after fly, in what was the padding before the costs, so the struct's
 *  size and the other fields' offsets are as they were. */
typedef struct wf_movement_profile {
  int agent_height, walk_directions, step_height, jump_height, jump_distance, max_fall;
  int swim, climb, fly;
  int agent_width;
  double walk_cost, diagonal_cost, step_up_cost, jump_cost, fall_cost, swim_cost, climb_cost, fly_cost;
} wf_movement_profile;

/** A person-sized walker (the default agent). */
WF_API void wf_movement_profile_walker(wf_movement_profile* profile);
/** A one-block flyer, as in the MovingAI voxel benchmark. */
WF_API void wf_movement_profile_flyer(wf_movement_profile* profile);

typedef struct wf_voxel_options {
  wf_query_limits limits;
  wf_voxel_algorithm algorithm;         /**< WF_VOXEL_ASTAR by default */
  double weight;                        /**< weighted A*'s heuristic weight (default 2) */
  const wf_movement_profile* profile;   /**< NULL: the query's own; read during the call only */
} wf_voxel_options;

WF_API void wf_voxel_options_init(wf_voxel_options* options);

/** Called once per position by wf_voxel_world_create_from_callback; returns a wf_block_kind. */
typedef int (*wf_block_at)(void* user_data, int x, int y, int z);

/** A world of size_x * size_y * size_z blocks (y up); blocks NULL for all air, else one
 *  wf_block_kind per position at index (y * size_z + z) * size_x + x. */
WF_API wf_status wf_voxel_world_create(int size_x, int size_y, int size_z, const uint8_t* blocks,
                                       wf_voxel_world** out_world, char* error, size_t error_capacity);
WF_API wf_status wf_voxel_world_create_from_callback(int size_x, int size_y, int size_z, wf_block_at block_at,
                                                     void* user_data, wf_voxel_world** out_world, char* error,
                                                     size_t error_capacity);
/** Reads a MagicaVoxel `.vox` file; colour_kinds (NULL: every colour solid) gives the
 *  wf_block_kind of each of the 256 colour indices (index 0 is always air). */
WF_API wf_status wf_voxel_world_load_vox(const char* path, const uint8_t* colour_kinds, wf_voxel_world** out_world,
                                         char* error, size_t error_capacity);
/** Reads a MovingAI `.3dmap` file. */
WF_API wf_status wf_voxel_world_load_3dmap(const char* path, wf_voxel_world** out_world, char* error,
                                           size_t error_capacity);
/** Fails with WF_IN_USE while query handles on the world exist. */
WF_API wf_status wf_voxel_world_destroy(wf_voxel_world* world);
WF_API wf_status wf_voxel_world_size(const wf_voxel_world* world, int* size_x, int* size_y, int* size_z);
/** The block at a position (air outside the world). */
WF_API wf_status wf_voxel_world_block(const wf_voxel_world* world, int x, int y, int z, wf_block_kind* kind);
WF_API wf_status wf_voxel_world_revision(const wf_voxel_world* world, uint64_t* revision);
/** An edit: needs the world to itself. */
WF_API wf_status wf_voxel_world_set_block(wf_voxel_world* world, int x, int y, int z, wf_block_kind kind);

/** A query object for an agent (profile NULL: a walker). */
WF_API wf_status wf_voxel_query_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                       wf_voxel_query** out_query, char* error, size_t error_capacity);
WF_API void wf_voxel_query_destroy(wf_voxel_query* query);
WF_API wf_status wf_voxel_query_find_path(wf_voxel_query* query, const int32_t start[3], const int32_t goal[3],
                                          const wf_voxel_options* options, wf_path_result* result);
WF_API wf_status wf_voxel_query_begin(wf_voxel_query* query, const int32_t start[3], const int32_t goal[3],
                                      const wf_voxel_options* options, wf_search_status* status);
WF_API wf_status wf_voxel_query_step(wf_voxel_query* query, uint64_t max_expansions, double max_milliseconds,
                                     wf_search_status* status);
WF_API wf_status wf_voxel_query_result(wf_voxel_query* query, wf_path_result* result);
/** Hierarchical search for large worlds (C++ VoxelHierarchy, docs/voxel.md): clusters of
 *  cluster_size blocks across (4 to 64), cluster_height blocks high (0: the world's height for
 *  walkers, cluster_size for flyers; else 4 to 256), built on build_threads threads (1 to 64);
 *  max_places (0: none) refuses, with WF_OUT_OF_MEMORY, a build that would store more places. */
typedef struct wf_voxel_hierarchy_options {
  int cluster_size;      /**< 16 by default */
  int cluster_height;    /**< 0 by default */
  int long_entrance;     /**< 6 by default */
  int build_threads;     /**< 1 by default */
  uint64_t max_places;   /**< 0 by default */
} wf_voxel_hierarchy_options;

WF_API void wf_voxel_hierarchy_options_init(wf_voxel_hierarchy_options* options);
/** Builds the hierarchy of a world for an agent (profile NULL: a walker; options NULL: the
 *  defaults). It reads the world, which cannot be destroyed while the hierarchy exists
 *  (WF_IN_USE). Bad options or profile: WF_INVALID_ARGUMENT with the reason in `error`. A large
 *  world's build takes seconds; the hierarchy is read-only afterwards and shared by any number
 *  of queries on any threads. A world edited after the build makes hierarchical queries fail
 *  with WF_SEARCH_INVALID_INPUT until wf_voxel_hierarchy_update brings the hierarchy up to date
 *  (or a new one is built). */
WF_API wf_status wf_voxel_hierarchy_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                           const wf_voxel_hierarchy_options* options,
                                           wf_voxel_hierarchy** out_hierarchy, char* error, size_t error_capacity);
/** Queries given the hierarchy keep it until they are destroyed or given another one. */
WF_API void wf_voxel_hierarchy_destroy(wf_voxel_hierarchy* hierarchy);
/** Abstract nodes, and the bytes the hierarchy holds. */
WF_API wf_status wf_voxel_hierarchy_size(const wf_voxel_hierarchy* hierarchy, size_t* nodes, size_t* memory_bytes);
/** Brings the hierarchy up to date after edits of `world`, the world it was built on (C++
 *  VoxelHierarchy::update): only the clusters near the blocks edited since its last build or
 *  update are redone, and the result equals a fresh build on the world as it is now (the same
 *  paths). The queries it was given to (wf_voxel_query_set_hierarchy) see it current again. An
 *  edit of the hierarchy: no query may search it meanwhile, in any thread, and the world may
 *  not be edited meanwhile. *clusters_rebuilt (may be NULL) is the number of clusters redone, 0
 *  when nothing was edited. A NULL or dead world, or another world than the hierarchy's, is
 *  WF_INVALID_ARGUMENT, nothing changed, the reason in wf_last_error(hierarchy); more places
 *  than its options' max_places is WF_OUT_OF_MEMORY, the hierarchy left as it was. */
WF_API wf_status wf_voxel_hierarchy_update(wf_voxel_hierarchy* hierarchy, const wf_voxel_world* world,
                                           size_t* clusters_rebuilt);
/** The hierarchy WF_VOXEL_HIERARCHICAL searches (NULL: none). It must be a hierarchy of the
 *  query's world (WF_INVALID_ARGUMENT otherwise); its profile must be the query's agent's (a
 *  query with another agent is WF_SEARCH_INVALID_INPUT). */
WF_API wf_status wf_voxel_query_set_hierarchy(wf_voxel_query* query, wf_voxel_hierarchy* hierarchy);
/** The footprint world of a world for agents wider than one block (C++ VoxelFootprint): what
 *  their searches run on, built once for the profile's agent_width (2 or 3) and kind (fly) and
 *  shared read-only by any number of queries on any threads (wf_voxel_query_set_footprint), so
 *  that they hold one copy (about one byte per block of the world) instead of one each. It
 *  reads the world, which cannot be destroyed while it exists (WF_IN_USE). A NULL profile, an
 *  agent_width of 1 (such agents search the world itself) or a world too small for the agent:
 *  WF_INVALID_ARGUMENT with the reason in `error`. */
WF_API wf_status wf_voxel_footprint_create(wf_voxel_world* world, const wf_movement_profile* profile,
                                           wf_voxel_footprint** out_footprint, char* error, size_t error_capacity);
/** Queries given the footprint keep it until they are destroyed or given another one. */
WF_API void wf_voxel_footprint_destroy(wf_voxel_footprint* footprint);
/** Brings the footprint up to date after edits of its world (C++ VoxelFootprint::update): only
 *  the footprint blocks an edited block can reach are computed again. *blocks_changed (may be
 *  NULL) is how many footprint blocks changed, 0 when the world was not edited. An edit of the
 *  footprint: no query may search it meanwhile, in any thread. */
WF_API wf_status wf_voxel_footprint_update(wf_voxel_footprint* footprint, size_t* blocks_changed);
/** The footprint this query's wide agents are searched on (NULL: the query makes its own). It
 *  must be a footprint of the query's world (WF_INVALID_ARGUMENT otherwise); one of another
 *  agent_width or kind than a search's agent, or one behind its world's edits, makes that search
 *  WF_SEARCH_INVALID_INPUT with the reason in wf_voxel_query_message. */
WF_API wf_status wf_voxel_query_set_footprint(wf_voxel_query* query, wf_voxel_footprint* footprint);
/** The blocks of the path (the agent's feet) as x, y, z triples: capacity and *count in blocks. */
WF_API wf_status wf_voxel_query_path_blocks(wf_voxel_query* query, int32_t* xyz, size_t capacity, size_t* count);
WF_API wf_status wf_voxel_query_message(wf_voxel_query* query, char* text, size_t capacity, size_t* length);
/** As wf_grid_query_set_trace and wf_grid_query_trace, for blocks. */
WF_API wf_status wf_voxel_query_set_trace(wf_voxel_query* query, size_t max_events);
WF_API wf_status wf_voxel_query_trace(wf_voxel_query* query, double* events, size_t capacity, size_t* count,
                                      size_t* recorded);

/* ---- Batches: many requests on one world, on several threads ---------------------------- */

typedef struct wf_batch wf_batch;

typedef struct wf_grid_request {
  int32_t start_x, start_y, goal_x, goal_y;
  const wf_grid_options* options;  /**< NULL: defaults */
} wf_grid_request;

typedef struct wf_navmesh_request {
  double start[3], goal[3];
  const wf_navmesh_options* options;
} wf_navmesh_request;

typedef struct wf_voxel_request {
  int32_t start[3], goal[3];
  const wf_voxel_options* options;  /**< the agent is options->profile, else a walker */
} wf_voxel_request;

/** A batch holds the results of its latest solve; one per thread. */
WF_API wf_status wf_batch_create(wf_batch** out_batch, char* error, size_t error_capacity);
WF_API void wf_batch_destroy(wf_batch* batch);
/** Answers every request on `threads` threads (0: one per core); result i answers request i.
 *  A bad request answers WF_SEARCH_INVALID_INPUT; a bad option value fails the whole call. */
WF_API wf_status wf_batch_solve_grid(wf_batch* batch, const wf_grid* grid, const wf_grid_request* requests,
                                     size_t count, unsigned threads);
/** The same with every thread's query given `derived` (NULL: none), which JPS+ and HPA* requests read. */
WF_API wf_status wf_batch_solve_grid_derived(wf_batch* batch, const wf_grid* grid, const wf_grid_derived* derived,
                                             const wf_grid_request* requests, size_t count, unsigned threads);
WF_API wf_status wf_batch_solve_navmesh(wf_batch* batch, const wf_navmesh* mesh, const wf_navmesh_request* requests,
                                        size_t count, unsigned threads);
WF_API wf_status wf_batch_solve_voxel(wf_batch* batch, const wf_voxel_world* world,
                                      const wf_voxel_request* requests, size_t count, unsigned threads);
/** The number of results of the latest solve. */
WF_API wf_status wf_batch_count(const wf_batch* batch, size_t* count);
WF_API wf_status wf_batch_result(wf_batch* batch, size_t index, wf_path_result* result);
/** Result `index`'s nodes: grid cell ids y * width + x, corridor polygons, or packed voxel ids. */
WF_API wf_status wf_batch_path_nodes(wf_batch* batch, size_t index, uint32_t* nodes, size_t capacity, size_t* count);
/** Result `index`'s points as x, y, z triples (cell centres, waypoints, block positions). */
WF_API wf_status wf_batch_path_points(wf_batch* batch, size_t index, double* xyz, size_t capacity, size_t* count);
WF_API wf_status wf_batch_message(wf_batch* batch, size_t index, char* text, size_t capacity, size_t* length);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* WAYFINDER_H */
