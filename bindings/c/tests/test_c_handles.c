/*
 * Handles misused in the ways the C API promises to catch (docs/c-api.md, "Misused handles"):
 * a handle of one type passed where another is expected, to every kind of function (calls,
 * reads, destroy functions, handles given as arguments), and memory that never was a handle.
 * Each is refused with WF_INVALID_ARGUMENT and leaves both handles as they were. Passing a
 * handle again after its destroy function freed it is caught only on a best-effort basis (the
 * memory is freed: reading it is undefined), so it is not tested here.
 */
#include <stdio.h>
#include <string.h>

#include "c_test_checks.h"
#include "wayfinder.h"

/* The handle's error text is exactly `text`. */
#define CHECK_ERROR_IS(handle, text)                                                                   \
  do {                                                                                                 \
    ++checks;                                                                                          \
    if (strcmp(wf_last_error(handle), (text)) != 0) {                                                  \
      fprintf(stderr, "%s:%d: the error text is \"%s\", expected \"%s\"\n", __FILE__, __LINE__,        \
              wf_last_error(handle), (text));                                                          \
      ++failures;                                                                                      \
    }                                                                                                  \
  } while (0)

/* One of every handle type, on small worlds. */
typedef struct handles {
  wf_grid* grid;
  wf_grid_query* grid_query;
  wf_grid_derived* derived;
  wf_navmesh* mesh;
  wf_navmesh_query* mesh_query;
  wf_voxel_world* world;
  wf_voxel_query* voxel_query;
  wf_voxel_hierarchy* hierarchy;
  wf_batch* batch;
  wf_crowd* crowd;
} handles;

/* Two unit squares side by side (x, z), at y = 0. */
static const float square_vertices[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1};
static const uint32_t square_indices[] = {0, 1, 4, 3, 1, 2, 5, 4};
static const uint32_t square_sizes[] = {4, 4};

static int floor_world(void* user_data, int x, int y, int z) {
  (void)user_data;
  (void)x;
  (void)z;
  return y == 0 ? WF_BLOCK_SOLID : WF_BLOCK_AIR;
}

static void create_handles(handles* h) {
  char error[256];
  wf_grid_options options;
  wf_voxel_hierarchy_options hierarchy_options;
  wf_grid_options_init(&options);
  options.algorithm = WF_GRID_JUMP_POINT_PLUS;
  wf_voxel_hierarchy_options_init(&hierarchy_options);
  hierarchy_options.cluster_size = 4;
  CHECK_STATUS(wf_grid_create(8, 8, &h->grid, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_query_create(h->grid, &h->grid_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_derived_create(h->grid, &options, &h->derived, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_create(square_vertices, 6, 0, square_indices, 8, square_sizes, 2, &h->mesh, error,
                                 sizeof error),
               WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(h->mesh, &h->mesh_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 8, floor_world, NULL, &h->world, error, sizeof error),
               WF_OK);
  CHECK_STATUS(wf_voxel_query_create(h->world, NULL, &h->voxel_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_create(h->world, NULL, &hierarchy_options, &h->hierarchy, error, sizeof error),
               WF_OK);
  CHECK_STATUS(wf_batch_create(&h->batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_crowd_create(h->mesh, NULL, &h->crowd, error, sizeof error), WF_OK);
}

static void destroy_handles(handles* h) {
  wf_crowd_destroy(h->crowd);
  wf_batch_destroy(h->batch);
  wf_voxel_hierarchy_destroy(h->hierarchy);
  wf_voxel_query_destroy(h->voxel_query);
  CHECK_STATUS(wf_voxel_world_destroy(h->world), WF_OK);
  wf_navmesh_query_destroy(h->mesh_query);
  CHECK_STATUS(wf_navmesh_destroy(h->mesh), WF_OK);
  wf_grid_derived_destroy(h->derived);
  wf_grid_query_destroy(h->grid_query);
  CHECK_STATUS(wf_grid_destroy(h->grid), WF_OK);
}

/* Every handle still works: a search on each world, reads of the others. */
static void check_all_usable(const handles* h) {
  wf_path_result result;
  double start[3] = {0.5, 0.0, 0.5}, goal[3] = {1.5, 0.0, 0.5};
  int32_t voxel_start[3] = {1, 1, 1}, voxel_goal[3] = {6, 1, 6};
  size_t nodes = 0, count = 1;
  CHECK_STATUS(wf_grid_query_find_path(h->grid_query, 0, 0, 7, 7, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_grid_derived_update(h->derived, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(h->mesh_query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_voxel_query_find_path(h->voxel_query, voxel_start, voxel_goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_voxel_hierarchy_size(h->hierarchy, &nodes, NULL), WF_OK);
  CHECK(nodes > 0);
  CHECK_STATUS(wf_batch_count(h->batch, &count), WF_OK);
  CHECK(count == 0);
  CHECK_STATUS(wf_crowd_update(h->crowd, 0.1), WF_OK);
  CHECK_STATUS(wf_crowd_agent_count(h->crowd, &count), WF_OK);
  CHECK(count == 0);
}

/* A crowd given where another handle is needed, and other handles given as a crowd: refused,
   nothing destroyed; its mesh cannot be destroyed under it. */
static void test_crowd_handles(const handles* h) {
  double point[3] = {0.5, 0.0, 0.5};
  uint32_t id = 0;
  size_t count = 0;
  char error[256];
  wf_crowd* crowd = NULL;
  wf_path_result result;
  CHECK_STATUS(wf_crowd_update((wf_crowd*)h->batch, 0.1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_batch was given where a wf_crowd is needed");
  CHECK_STATUS(wf_crowd_add_agent((wf_crowd*)h->mesh_query, point, NULL, &id), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->mesh_query, "a wf_navmesh_query was given where a wf_crowd is needed");
  CHECK_STATUS(wf_crowd_agent_count((const wf_crowd*)h->grid, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_find_path((wf_navmesh_query*)h->crowd, point, point, NULL, &result),
               WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->crowd, "a wf_crowd was given where a wf_navmesh_query is needed");
  CHECK_STATUS(wf_crowd_create((wf_navmesh*)h->crowd, NULL, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(crowd == NULL && strcmp(error, "a wf_crowd was given where a wf_navmesh is needed") == 0);
  wf_crowd_destroy((wf_crowd*)h->mesh);
  CHECK_ERROR_IS(h->mesh, "a wf_navmesh was given where a wf_crowd is needed");
  CHECK_STATUS(wf_navmesh_destroy((wf_navmesh*)h->crowd), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_destroy(h->mesh), WF_IN_USE);
}

/* Calls on one handle given another's: refused, the reason recorded in the handle given (it
   is a live handle of this API), naming both types. */
static void test_wrong_type_calls(const handles* h) {
  wf_path_result result;
  wf_search_status status;
  size_t count = 0;
  char text[16];
  double point[3] = {0.5, 0.0, 0.5};
  int32_t block[3] = {1, 1, 1};
  int32_t cells[4];

  CHECK_STATUS(wf_grid_query_find_path((wf_grid_query*)h->grid, 0, 0, 1, 1, NULL, &result), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid, "a wf_grid was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_query_begin((wf_grid_query*)h->mesh_query, 0, 0, 1, 1, NULL, &status), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->mesh_query, "a wf_navmesh_query was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_query_step((wf_grid_query*)h->voxel_query, 10, 0.0, &status), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->voxel_query, "a wf_voxel_query was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_query_result((wf_grid_query*)h->batch, &result), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_batch was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_query_path_cells((wf_grid_query*)h->derived, cells, 2, &count), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->derived, "a wf_grid_derived was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_query_message((wf_grid_query*)h->hierarchy, text, sizeof text, &count), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->hierarchy, "a wf_voxel_hierarchy was given where a wf_grid_query is needed");
  CHECK_STATUS(wf_grid_set_passable((wf_grid*)h->grid_query, 0, 0, 1, 1, 0), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid_query, "a wf_grid_query was given where a wf_grid is needed");
  CHECK_STATUS(wf_grid_set_cost((wf_grid*)h->world, 0, 0, 1, 1, 2.0f), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->world, "a wf_voxel_world was given where a wf_grid is needed");
  CHECK_STATUS(wf_grid_derived_update((wf_grid_derived*)h->grid, NULL), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid, "a wf_grid was given where a wf_grid_derived is needed");

  CHECK_STATUS(wf_navmesh_query_find_path((wf_navmesh_query*)h->grid_query, point, point, NULL, &result),
               WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid_query, "a wf_grid_query was given where a wf_navmesh_query is needed");
  CHECK_STATUS(wf_navmesh_query_path_points((wf_navmesh_query*)h->mesh, NULL, 0, &count), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->mesh, "a wf_navmesh was given where a wf_navmesh_query is needed");
  CHECK_STATUS(wf_navmesh_set_area((wf_navmesh*)h->grid, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid, "a wf_grid was given where a wf_navmesh is needed");
  CHECK_STATUS(wf_navmesh_set_flags((wf_navmesh*)h->mesh_query, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->mesh_query, "a wf_navmesh_query was given where a wf_navmesh is needed");
  CHECK_STATUS(wf_navmesh_set_area_and_flags((wf_navmesh*)h->world, 0, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->world, "a wf_voxel_world was given where a wf_navmesh is needed");

  CHECK_STATUS(wf_voxel_query_find_path((wf_voxel_query*)h->world, block, block, NULL, &result), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->world, "a wf_voxel_world was given where a wf_voxel_query is needed");
  CHECK_STATUS(wf_voxel_world_set_block((wf_voxel_world*)h->voxel_query, 1, 1, 1, WF_BLOCK_SOLID),
               WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->voxel_query, "a wf_voxel_query was given where a wf_voxel_world is needed");

  CHECK_STATUS(wf_batch_result((wf_batch*)h->grid_query, 0, &result), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid_query, "a wf_grid_query was given where a wf_batch is needed");
  CHECK_STATUS(wf_batch_solve_grid((wf_batch*)h->grid, h->grid, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid, "a wf_grid was given where a wf_batch is needed");
}

/* The functions that only read a world record nothing (many threads may call them at once):
   they refuse a wrong handle with the status alone. */
static void test_wrong_type_reads(const handles* h) {
  int width = 0, passable = 0;
  uint64_t revision = 0;
  size_t vertices = 0;
  uint32_t polygon = 0;
  double point[3] = {0.5, 0.0, 0.5};
  wf_block_kind kind;
  CHECK_STATUS(wf_grid_size((const wf_grid*)h->mesh, &width, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_cell((const wf_grid*)h->grid_query, 0, 0, &passable, NULL, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_revision((const wf_grid*)h->world, &revision), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_counts((const wf_navmesh*)h->grid, &vertices, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_locate((const wf_navmesh*)h->grid, point, 1.0, &polygon, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_revision((const wf_navmesh*)h->mesh_query, &revision), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_polygon_area((const wf_navmesh*)h->world, 0, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_size((const wf_voxel_world*)h->mesh, &width, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_block((const wf_voxel_world*)h->grid, 0, 0, 0, &kind), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_revision((const wf_voxel_world*)h->voxel_query, &revision), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_hierarchy_size((const wf_voxel_hierarchy*)h->world, NULL, NULL), WF_INVALID_ARGUMENT);
  /* The texts recorded by test_wrong_type_calls are still there: nothing was written. */
  CHECK_ERROR_IS(h->mesh, "a wf_navmesh was given where a wf_navmesh_query is needed");
  CHECK_ERROR_IS(h->world, "a wf_voxel_world was given where a wf_voxel_query is needed");
}

/* Handles given as arguments to a call on another handle, or to a constructor. */
static void test_wrong_type_arguments(const handles* h) {
  char error[256];
  wf_grid_query* grid_query = (wf_grid_query*)&failures;
  wf_voxel_query* voxel_query = (wf_voxel_query*)&failures;
  wf_navmesh_query* mesh_query = (wf_navmesh_query*)&failures;
  wf_grid_derived* derived = (wf_grid_derived*)&failures;
  wf_voxel_hierarchy* hierarchy = (wf_voxel_hierarchy*)&failures;
  wf_grid_request grid_request = {0, 0, 7, 7, NULL};

  CHECK_STATUS(wf_grid_query_create((wf_grid*)h->mesh, &grid_query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(grid_query == NULL && strcmp(error, "a wf_navmesh was given where a wf_grid is needed") == 0);
  CHECK_STATUS(wf_navmesh_query_create((wf_navmesh*)h->grid, &mesh_query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(mesh_query == NULL && strcmp(error, "a wf_grid was given where a wf_navmesh is needed") == 0);
  CHECK_STATUS(wf_voxel_query_create((wf_voxel_world*)h->voxel_query, NULL, &voxel_query, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(voxel_query == NULL && strcmp(error, "a wf_voxel_query was given where a wf_voxel_world is needed") == 0);
  CHECK_STATUS(wf_grid_derived_create((wf_grid*)h->batch, NULL, &derived, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(derived == NULL && strcmp(error, "a wf_batch was given where a wf_grid is needed") == 0);
  CHECK_STATUS(wf_voxel_hierarchy_create((wf_voxel_world*)h->mesh, NULL, NULL, &hierarchy, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(hierarchy == NULL && strcmp(error, "a wf_navmesh was given where a wf_voxel_world is needed") == 0);

  CHECK_STATUS(wf_grid_query_set_derived(h->grid_query, (wf_grid_derived*)h->hierarchy), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->grid_query, "a wf_voxel_hierarchy was given where a wf_grid_derived is needed");
  CHECK_STATUS(wf_voxel_query_set_hierarchy(h->voxel_query, (wf_voxel_hierarchy*)h->derived), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->voxel_query, "a wf_grid_derived was given where a wf_voxel_hierarchy is needed");
  CHECK_STATUS(wf_voxel_hierarchy_update(h->hierarchy, (const wf_voxel_world*)h->mesh, NULL), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->hierarchy, "a wf_navmesh was given where a wf_voxel_world is needed");
  CHECK_STATUS(wf_voxel_hierarchy_update((wf_voxel_hierarchy*)h->voxel_query, h->world, NULL), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->voxel_query, "a wf_voxel_query was given where a wf_voxel_hierarchy is needed");
  CHECK_STATUS(wf_batch_solve_grid(h->batch, (const wf_grid*)h->world, &grid_request, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_voxel_world was given where a wf_grid is needed");
  CHECK_STATUS(wf_batch_solve_grid_derived(h->batch, h->grid, (const wf_grid_derived*)h->grid, &grid_request, 1, 1),
               WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_grid was given where a wf_grid_derived is needed");
  CHECK_STATUS(wf_batch_solve_navmesh(h->batch, (const wf_navmesh*)h->grid, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_grid was given where a wf_navmesh is needed");
  CHECK_STATUS(wf_batch_solve_voxel(h->batch, (const wf_voxel_world*)h->hierarchy, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_IS(h->batch, "a wf_voxel_hierarchy was given where a wf_voxel_world is needed");
}

/* Destroy functions given a handle of another type destroy nothing; those that return a status
   say so. A second, third... wrong call changes nothing either. A world whose destroy was refused
   (WF_IN_USE) is still live, and destroying it again is refused again, until its queries are
   gone. */
static void test_wrong_type_destroy(const handles* h) {
  int round;
  for (round = 0; round < 2; ++round) {
    CHECK_STATUS(wf_grid_destroy((wf_grid*)h->grid_query), WF_INVALID_ARGUMENT);
    CHECK_ERROR_IS(h->grid_query, "a wf_grid_query was given where a wf_grid is needed");
    CHECK_STATUS(wf_navmesh_destroy((wf_navmesh*)h->world), WF_INVALID_ARGUMENT);
    CHECK_ERROR_IS(h->world, "a wf_voxel_world was given where a wf_navmesh is needed");
    CHECK_STATUS(wf_voxel_world_destroy((wf_voxel_world*)h->mesh), WF_INVALID_ARGUMENT);
    CHECK_ERROR_IS(h->mesh, "a wf_navmesh was given where a wf_voxel_world is needed");
    wf_grid_query_destroy((wf_grid_query*)h->grid);
    CHECK_ERROR_IS(h->grid, "a wf_grid was given where a wf_grid_query is needed");
    wf_navmesh_query_destroy((wf_navmesh_query*)h->voxel_query);
    CHECK_ERROR_IS(h->voxel_query, "a wf_voxel_query was given where a wf_navmesh_query is needed");
    wf_voxel_query_destroy((wf_voxel_query*)h->mesh_query);
    CHECK_ERROR_IS(h->mesh_query, "a wf_navmesh_query was given where a wf_voxel_query is needed");
    wf_grid_derived_destroy((wf_grid_derived*)h->batch);
    CHECK_ERROR_IS(h->batch, "a wf_batch was given where a wf_grid_derived is needed");
    wf_voxel_hierarchy_destroy((wf_voxel_hierarchy*)h->derived);
    CHECK_ERROR_IS(h->derived, "a wf_grid_derived was given where a wf_voxel_hierarchy is needed");
    wf_batch_destroy((wf_batch*)h->hierarchy);
    CHECK_ERROR_IS(h->hierarchy, "a wf_voxel_hierarchy was given where a wf_batch is needed");
    CHECK_STATUS(wf_grid_destroy(h->grid), WF_IN_USE);
    CHECK_STATUS(wf_voxel_world_destroy(h->world), WF_IN_USE);
  }
}

/* Memory that never was a handle (zeroed, or any other bytes that are no handle's tag) is
   refused without being written to, and wf_last_error says what it is. */
static void test_not_a_handle(void) {
  union {
    unsigned char bytes[2048];
    double align_double;
    void* align_pointer;
    uint64_t align_integer;
  } memory;
  unsigned char copy[sizeof memory.bytes];
  wf_path_result result;
  int width = 0;
  size_t count = 0;
  int fill;
  for (fill = 0; fill < 2; ++fill) {
    memset(memory.bytes, fill == 0 ? 0 : 0xA5, sizeof memory.bytes);
    memcpy(copy, memory.bytes, sizeof copy);
    CHECK_STATUS(wf_grid_query_find_path((wf_grid_query*)memory.bytes, 0, 0, 1, 1, NULL, &result),
                 WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_grid_size((const wf_grid*)memory.bytes, &width, NULL), WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_grid_destroy((wf_grid*)memory.bytes), WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_batch_count((const wf_batch*)memory.bytes, &count), WF_INVALID_ARGUMENT);
    wf_grid_query_destroy((wf_grid_query*)memory.bytes);
    wf_batch_destroy((wf_batch*)memory.bytes);
    CHECK_STATUS(wf_crowd_update((wf_crowd*)memory.bytes, 0.1), WF_INVALID_ARGUMENT);
    wf_crowd_destroy((wf_crowd*)memory.bytes);
    CHECK(memcmp(copy, memory.bytes, sizeof copy) == 0);
    CHECK(strstr(wf_last_error(memory.bytes), "not a live handle") != NULL);
  }
}

int main(void) {
  handles h;
  memset(&h, 0, sizeof h); /* NULL handles, which every destroy function accepts, if a create fails */
  create_handles(&h);
  if (failures == 0) {
    test_wrong_type_calls(&h);
    test_wrong_type_reads(&h);
    test_wrong_type_arguments(&h);
    test_wrong_type_destroy(&h);
    test_crowd_handles(&h);
    check_all_usable(&h);
    test_not_a_handle();
  }
  destroy_handles(&h);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
