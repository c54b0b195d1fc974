/*
 * Every function of wayfinder.h called from C99, with its error paths: NULL handles and
 * pointers, values out of range, short buffers, bad and missing files. Answers are checked
 * against lengths known by hand on small worlds and against the benchmarks' optimal lengths
 * (a MovingAI grid scenario, Polyanya's mesh scenario, the voxel benchmark) when the shared
 * data folder (argv[1], or WAYFINDER_DATA_DIR) is present.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test_checks.h"
#include "wayfinder.h"

#define CHECK_NEAR(actual, expected, tolerance)                                                      \
  do {                                                                                               \
    double actual_ = (actual), expected_ = (expected);                                               \
    ++checks;                                                                                        \
    if (!(fabs(actual_ - expected_) <= (tolerance))) {                                               \
      fprintf(stderr, "%s:%d: %s is %.9g, expected %.9g\n", __FILE__, __LINE__, #actual, actual_, expected_); \
      ++failures;                                                                                    \
    }                                                                                                \
  } while (0)

/* A handle's error text contains `part`. */
#define CHECK_ERROR_MENTIONS(handle, part) CHECK(strstr(wf_last_error(handle), (part)) != NULL)

static const char* data_dir = NULL;

static int data_file(char* path, size_t capacity, const char* relative) {
  FILE* file;
  if (data_dir == NULL) return 0;
  sprintf(path, "%.*s/%s", (int)(capacity / 2), data_dir, relative);
  file = fopen(path, "rb");
  if (file == NULL) return 0;
  fclose(file);
  return 1;
}

static const char* scratch_file(const char* name, const char* contents) {
  static char path[256];
  FILE* file;
  sprintf(path, "c_api_%.100s", name);
  file = fopen(path, "wb");
  if (file == NULL) return path;
  fputs(contents, file);
  fclose(file);
  return path;
}

/* ---- common ---- */

static void test_common(void) {
  wf_area_filter filter;
  int area;
  CHECK(strcmp(wf_version(), "0.1.0") == 0);
  CHECK(strcmp(wf_status_name(WF_OK), "ok") == 0);
  CHECK(strcmp(wf_status_name(WF_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(wf_status_name(WF_LOAD_ERROR), "load_error") == 0);
  CHECK(strcmp(wf_status_name(WF_OUT_OF_MEMORY), "out_of_memory") == 0);
  CHECK(strcmp(wf_status_name(WF_BUFFER_TOO_SMALL), "buffer_too_small") == 0);
  CHECK(strcmp(wf_status_name(WF_IN_USE), "in_use") == 0);
  CHECK(strcmp(wf_status_name(WF_INTERNAL_ERROR), "internal_error") == 0);
  CHECK(strcmp(wf_status_name((wf_status)42), "unknown") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_IN_PROGRESS), "in_progress") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_FOUND), "found") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_PARTIAL), "partial") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_NO_PATH), "no_path") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_BUDGET_EXHAUSTED), "budget_exhausted") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_INVALID_INPUT), "invalid_input") == 0);
  CHECK(strcmp(wf_search_status_name(WF_SEARCH_WORLD_CHANGED), "world_changed") == 0);
  CHECK(strcmp(wf_search_status_name((wf_search_status)42), "unknown") == 0);
  CHECK(strlen(wf_last_error(NULL)) > 0);

  wf_area_filter_init(NULL); /* ignored */
  wf_area_filter_init(&filter);
  for (area = 0; area < WF_MAX_AREAS; ++area) CHECK(filter.area_costs[area] == 1.0f);
  CHECK(filter.include_flags == 0xffff);
  CHECK(filter.exclude_flags == 0);
}

/* ---- grids ---- */

/* A 5 x 5 grid with a wall down column 2 except a door at (2, 2). */
static wf_grid* make_walled_grid(void) {
  uint8_t passable[25];
  float costs[25];
  char error[128];
  wf_grid* grid = NULL;
  int i;
  for (i = 0; i < 25; ++i) {
    passable[i] = (uint8_t)(i % 5 != 2 || i / 5 == 2);
    costs[i] = 1.0f;
  }
  costs[0] = 3.0f; /* (0, 0) costs 3 */
  CHECK_STATUS(wf_grid_create_from_cells(5, 5, passable, costs, &grid, error, sizeof error), WF_OK);
  return grid;
}

static void test_grid_building(void) {
  wf_grid* grid = (wf_grid*)&failures; /* must be overwritten with NULL on failure */
  char error[128];
  char small[8];
  uint8_t passable[4] = {1, 1, 1, 0};
  float costs[4] = {1.0f, 2.0f, 1.0f, 1.0f};
  int width = 0, height = 0, open = -1;
  float cost = -1.0f;
  uint8_t area = 99;
  uint16_t flags = 99;
  uint64_t revision = 99;
  const char* bad_map;

  CHECK_STATUS(wf_grid_create(0, 5, &grid, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(grid == NULL);
  CHECK(strlen(error) > 0);
  CHECK_STATUS(wf_grid_create(0, 5, &grid, small, sizeof small), WF_INVALID_ARGUMENT);
  CHECK(strlen(small) == sizeof small - 1); /* truncated, still terminated */
  CHECK_STATUS(wf_grid_create(0, 5, &grid, NULL, 0), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_create(3, 3, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_create_from_cells(2, 2, NULL, NULL, &grid, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "passable") != NULL);
  costs[1] = -2.0f;
  CHECK_STATUS(wf_grid_create_from_cells(2, 2, passable, costs, &grid, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "cost") != NULL);
  costs[1] = (float)NAN;
  CHECK_STATUS(wf_grid_create_from_cells(2, 2, passable, costs, &grid, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_create_from_cells(2, 2, passable, costs, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  costs[1] = 2.0f;

  CHECK_STATUS(wf_grid_load_movingai("no/such/file.map", &grid, error, sizeof error), WF_LOAD_ERROR);
  CHECK(grid == NULL);
  CHECK(strstr(error, "no/such/file.map") != NULL);
  bad_map = scratch_file("bad.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.x\n");
  CHECK_STATUS(wf_grid_load_movingai(bad_map, &grid, error, sizeof error), WF_LOAD_ERROR);
  CHECK(strstr(error, ":6:") != NULL); /* names the line */
  CHECK_STATUS(wf_grid_load_movingai(NULL, &grid, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_load_movingai(bad_map, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  remove(bad_map);

  CHECK_STATUS(wf_grid_create(3, 2, &grid, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_size(grid, &width, &height), WF_OK);
  CHECK(width == 3 && height == 2);
  CHECK_STATUS(wf_grid_size(grid, NULL, NULL), WF_OK);
  CHECK_STATUS(wf_grid_size(NULL, &width, &height), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);

  CHECK_STATUS(wf_grid_create_from_cells(2, 2, passable, costs, &grid, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_cell(grid, 1, 0, &open, &cost, &area, &flags), WF_OK);
  CHECK(open == 1 && cost == 2.0f && area == 0 && flags == 0);
  CHECK_STATUS(wf_grid_cell(grid, 1, 1, &open, &cost, NULL, NULL), WF_OK);
  CHECK(open == 0 && cost == 0.0f);
  CHECK_STATUS(wf_grid_cell(grid, 2, 0, &open, NULL, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_cell(grid, -1, 0, NULL, NULL, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_cell(NULL, 0, 0, NULL, NULL, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_revision(grid, &revision), WF_OK);
  CHECK(revision == 0); /* building is not history */
  CHECK_STATUS(wf_grid_revision(grid, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_revision(NULL, &revision), WF_INVALID_ARGUMENT);

  /* Edits: each one that changes something moves the revision once. */
  CHECK_STATUS(wf_grid_set_passable(grid, 0, 0, 2, 1, 0), WF_OK);
  CHECK_STATUS(wf_grid_cell(grid, 1, 0, &open, NULL, NULL, NULL), WF_OK);
  CHECK(open == 0);
  CHECK_STATUS(wf_grid_set_cost(grid, 0, 0, 1, 1, 4.0f), WF_OK);
  CHECK_STATUS(wf_grid_cell(grid, 0, 0, &open, &cost, NULL, NULL), WF_OK);
  CHECK(open == 1 && cost == 4.0f);
  CHECK_STATUS(wf_grid_set_area(grid, 0, 0, 2, 2, 7), WF_OK);
  CHECK_STATUS(wf_grid_set_flags(grid, 1, 1, 1, 1, 0x8), WF_OK);
  CHECK_STATUS(wf_grid_cell(grid, 1, 1, NULL, NULL, &area, &flags), WF_OK);
  CHECK(area == 7 && flags == 0x8);
  CHECK_STATUS(wf_grid_revision(grid, &revision), WF_OK);
  CHECK(revision == 4);
  CHECK_STATUS(wf_grid_set_passable(grid, 1, 1, 2, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(grid, "not inside");
  CHECK_STATUS(wf_grid_set_passable(grid, 2147483647, 0, 2, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_cost(grid, 0, 0, 1, 1, 0.0f), WF_INVALID_ARGUMENT);
  CHECK(strlen(wf_last_error(grid)) > 0);
  CHECK_STATUS(wf_grid_set_cost(grid, 0, 0, -1, 1, 2.0f), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_area(grid, 0, 0, 1, 1, WF_MAX_AREAS), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_flags(grid, 0, 5, 1, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_passable(NULL, 0, 0, 1, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_cost(NULL, 0, 0, 1, 1, 1.0f), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_area(NULL, 0, 0, 1, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_set_flags(NULL, 0, 0, 1, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_revision(grid, &revision), WF_OK);
  CHECK(revision == 4); /* failed edits change nothing */
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
  CHECK_STATUS(wf_grid_destroy(NULL), WF_OK);
}

static void test_grid_queries(void) {
  wf_grid* grid = make_walled_grid();
  wf_grid_query* query = NULL;
  wf_grid_options options;
  wf_area_filter filter;
  wf_path_result path, stepped;
  wf_search_status status;
  int32_t cells[64];
  size_t count = 0, length = 0;
  char error[128], text[256], tiny[4];
  int steps = 0;
  const double sqrt2 = 1.4142135623730951;
  /* (0, 4) to (4, 4) through the door at (2, 2): two diagonals each way plus two straight
     moves is the best the MovingAI corner rule allows here: 4 straight + 2 diagonal moves. */
  const double door_route = 4.0 + 2.0 * sqrt2;

  CHECK_STATUS(wf_grid_query_create(NULL, &query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(query == NULL && strstr(error, "NULL") != NULL);
  CHECK_STATUS(wf_grid_query_create(grid, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_create(grid, &query, error, sizeof error), WF_OK);
  /* A step before any begin is answered, not failed. */
  CHECK_STATUS(wf_grid_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_INVALID_INPUT);

  /* Before any query, the latest result is empty. */
  CHECK_STATUS(wf_grid_query_path_cells(query, NULL, 0, &count), WF_OK);
  CHECK(count == 0);

  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.reason == WF_STOP_GOAL_REACHED);
  CHECK_NEAR(path.cost, door_route, 1e-9);
  CHECK(path.node_count == 7 && path.point_count == 7);
  CHECK(path.stats.expanded > 0 && path.stats.generated > 0 && path.stats.peak_open > 0);
  CHECK(path.stats.microseconds >= 0.0);

  /* The size query, then short, NULL and sufficient buffers. */
  CHECK_STATUS(wf_grid_query_path_cells(query, NULL, 0, &count), WF_OK);
  CHECK(count == 7);
  CHECK_STATUS(wf_grid_query_path_cells(query, cells, 6, &count), WF_BUFFER_TOO_SMALL);
  CHECK(count == 7);
  CHECK_ERROR_MENTIONS(query, "7");
  CHECK_STATUS(wf_grid_query_path_cells(query, NULL, 7, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_path_cells(query, cells, 7, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_path_cells(NULL, cells, 7, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_path_cells(query, cells, 32, &count), WF_OK);
  CHECK(count == 7);
  CHECK(cells[0] == 0 && cells[1] == 4 && cells[12] == 4 && cells[13] == 4);
  CHECK(cells[6] == 2 && cells[7] == 2); /* through the door */

  CHECK_STATUS(wf_grid_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(length == 0 && text[0] == '\0');

  /* A bad query is answered, not failed: invalid_input and a message. */
  CHECK_STATUS(wf_grid_query_find_path(query, 2, 0, 4, 4, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT && path.reason == WF_STOP_INVALID_INPUT);
  CHECK_STATUS(wf_grid_query_message(query, NULL, 0, &length), WF_OK);
  CHECK(length > 0);
  CHECK_STATUS(wf_grid_query_message(query, tiny, sizeof tiny, &length), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_grid_query_message(query, text, sizeof text, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_message(query, NULL, 5, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_message(NULL, text, sizeof text, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(strlen(text) == length && strstr(text, "blocked") != NULL);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_find_path(NULL, 0, 4, 4, 4, NULL, &path), WF_INVALID_ARGUMENT);

  /* Options: every algorithm answers; the optimal ones give the optimum. */
  wf_grid_options_init(NULL);
  wf_grid_options_init(&options);
  CHECK(options.algorithm == WF_GRID_ASTAR && options.diagonal == WF_DIAGONAL_ONLY_IF_NO_OBSTACLES);
  CHECK(options.heuristic == WF_HEURISTIC_AUTOMATIC && options.weight == 2.0 && options.filter == NULL);
  CHECK(options.limits.max_expansions == WF_UNLIMITED_EXPANSIONS && options.limits.return_partial == 1);
  {
    /* JPS+ and HPA* read derived data of the grid, built first and shared. */
    int algorithm;
    wf_grid_derived* derived = NULL;
    options.algorithm = WF_GRID_HIERARCHICAL;
    CHECK_STATUS(wf_grid_derived_create(grid, &options, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_grid_derived_create(NULL, &options, &derived, error, sizeof error), WF_INVALID_ARGUMENT);
    CHECK(derived == NULL);
    CHECK_STATUS(wf_grid_derived_create(grid, &options, &derived, error, sizeof error), WF_OK);
    options.algorithm = WF_GRID_JUMP_POINT_PLUS;
    CHECK_STATUS(wf_grid_derived_update(derived, &options), WF_OK);
    CHECK_STATUS(wf_grid_derived_update(NULL, &options), WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_grid_query_set_derived(NULL, derived), WF_INVALID_ARGUMENT);
    CHECK_STATUS(wf_grid_query_set_derived(query, derived), WF_OK);
    wf_grid_derived_destroy(derived); /* the query keeps what it was given */
    wf_grid_derived_destroy(NULL);
    for (algorithm = WF_GRID_BREADTH_FIRST; algorithm <= WF_GRID_HIERARCHICAL; ++algorithm) {
      options.algorithm = (wf_grid_algorithm)algorithm;
      CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
      /* (0, 0) costs 3: jump points need uniform costs */
      if (algorithm == WF_GRID_JUMP_POINT || algorithm == WF_GRID_JUMP_POINT_PLUS)
        CHECK(path.status == WF_SEARCH_INVALID_INPUT);
      else /* walkers may fail */
        CHECK(path.status == WF_SEARCH_FOUND || path.status == WF_SEARCH_NO_PATH ||
              path.status == WF_SEARCH_BUDGET_EXHAUSTED);
      if (algorithm == WF_GRID_DIJKSTRA || algorithm == WF_GRID_ASTAR || algorithm == WF_GRID_BIDIRECTIONAL_ASTAR ||
          algorithm == WF_GRID_IDA_STAR)
        CHECK_NEAR(path.cost, door_route, 1e-9);
    }
  }
  wf_grid_options_init(&options);
  options.diagonal = WF_DIAGONAL_NEVER;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK_NEAR(path.cost, 8.0, 1e-9);
  options.heuristic = WF_HEURISTIC_MANHATTAN;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK_NEAR(path.cost, 8.0, 1e-9);

  /* Option values C cannot be trusted with: refused with a text naming the field. */
  wf_grid_options_init(&options);
  options.algorithm = (wf_grid_algorithm)99;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "options.algorithm");
  wf_grid_options_init(&options);
  options.diagonal = (wf_diagonal_mode)-1;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "options.diagonal");
  wf_grid_options_init(&options);
  options.heuristic = (wf_heuristic)5;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  wf_grid_options_init(&options);
  options.limits.max_milliseconds = NAN;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "max_milliseconds");
  options.limits.max_milliseconds = -1.0;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  wf_grid_options_init(&options);
  options.limits.max_cost = NAN;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_INVALID_ARGUMENT);
  /* ...while values the search judges are answered with invalid_input. */
  wf_grid_options_init(&options);
  options.algorithm = WF_GRID_WEIGHTED_ASTAR;
  options.weight = 0.5;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);

  /* Budgets and partial paths. */
  wf_grid_options_init(&options);
  options.limits.max_expansions = 2;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_PARTIAL && path.reason == WF_STOP_EXPANSION_LIMIT);
  options.limits.return_partial = 0;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_BUDGET_EXHAUSTED && path.node_count == 0);
  wf_grid_options_init(&options);
  options.limits.max_cost = 1.0;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.reason == WF_STOP_COST_LIMIT);

  /* Filters: the door's flag excluded shuts it; its area made dear costs more. */
  CHECK_STATUS(wf_grid_set_flags(grid, 2, 2, 1, 1, 0x1), WF_OK);
  CHECK_STATUS(wf_grid_set_area(grid, 2, 2, 1, 1, 5), WF_OK);
  wf_grid_options_init(&options);
  wf_area_filter_init(&filter);
  options.filter = &filter;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK_NEAR(path.cost, door_route, 1e-9); /* neutral */
  filter.exclude_flags = 0x1;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  filter.exclude_flags = 0;
  filter.include_flags = 0x2; /* the door has flags, none of them included */
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  filter.include_flags = 0xffff;
  filter.area_costs[5] = 3.0f;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.cost > door_route + 1.0);
  filter.area_costs[5] = (float)HUGE_VAL;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  filter.area_costs[5] = -1.0f;
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_grid_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(strstr(text, "area 5") != NULL);

  /* Stepping gives find_path's answer. */
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK_STATUS(wf_grid_query_begin(query, 0, 4, 4, 4, NULL, &status), WF_OK);
  CHECK(status == WF_SEARCH_IN_PROGRESS);
  CHECK_STATUS(wf_grid_query_result(query, &stepped), WF_OK);
  CHECK(stepped.status == WF_SEARCH_IN_PROGRESS && stepped.node_count == 0);
  while (status == WF_SEARCH_IN_PROGRESS && steps < 1000) {
    CHECK_STATUS(wf_grid_query_step(query, 1, 0.0, &status), WF_OK);
    ++steps;
  }
  CHECK(status == WF_SEARCH_FOUND && steps > 1);
  CHECK_STATUS(wf_grid_query_result(query, &stepped), WF_OK);
  CHECK(stepped.status == WF_SEARCH_FOUND && stepped.cost == path.cost && stepped.node_count == path.node_count);
  CHECK(stepped.stats.expanded == path.stats.expanded);
  CHECK_STATUS(wf_grid_query_path_cells(query, cells, 32, &count), WF_OK);
  CHECK(count == 7 && cells[12] == 4 && cells[13] == 4);
  CHECK_STATUS(wf_grid_query_begin(query, 0, 4, 4, 4, NULL, &status), WF_OK);
  CHECK_STATUS(wf_grid_query_step(query, WF_UNLIMITED_EXPANSIONS, 50.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_grid_query_step(query, 1, NAN, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_step(query, 1, 0.0, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_step(NULL, 1, 0.0, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_begin(query, 0, 4, 4, 4, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_begin(NULL, 0, 4, 4, 4, NULL, &status), WF_INVALID_ARGUMENT);
  wf_grid_options_init(&options);
  options.algorithm = (wf_grid_algorithm)15;
  CHECK_STATUS(wf_grid_query_begin(query, 0, 4, 4, 4, &options, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_result(query, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_result(NULL, &stepped), WF_INVALID_ARGUMENT);

  /* An edit between steps ends the search with world_changed. */
  CHECK_STATUS(wf_grid_query_begin(query, 0, 4, 4, 4, NULL, &status), WF_OK);
  CHECK_STATUS(wf_grid_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK_STATUS(wf_grid_set_cost(grid, 4, 0, 1, 1, 2.0f), WF_OK);
  CHECK_STATUS(wf_grid_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_WORLD_CHANGED);

  /* A world with queries on it is not destroyed. */
  CHECK_STATUS(wf_grid_destroy(grid), WF_IN_USE);
  CHECK_ERROR_MENTIONS(grid, "query handles");
  wf_grid_query_destroy(query);
  wf_grid_query_destroy(NULL);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

/* The first queries of every tenth bucket of arena2's scenario, with A* and jump points, against
   the scenario's optimal lengths; then the same queries as one batch on two threads. */
static void test_grid_benchmark(void) {
  char path[1024], line[512], error[256];
  FILE* scenario;
  wf_grid* grid = NULL;
  wf_grid_query* query = NULL;
  wf_grid_options jps;
  wf_grid_request requests[64];
  double optimal[64];
  size_t count = 0, i, results = 0;
  wf_batch* batch = NULL;
  wf_path_result answer;
  int last_bucket = -1;

  if (!data_file(path, sizeof path, "movingai/dao/arena2.map")) {
    printf("arena2.map not found: grid benchmark skipped\n");
    return;
  }
  CHECK_STATUS(wf_grid_load_movingai(path, &grid, error, sizeof error), WF_OK);
  if (grid == NULL) return;
  CHECK_STATUS(wf_grid_query_create(grid, &query, error, sizeof error), WF_OK);
  wf_grid_options_init(&jps);
  jps.algorithm = WF_GRID_JUMP_POINT;
  CHECK(data_file(path, sizeof path, "movingai/dao/arena2.map.scen"));
  scenario = fopen(path, "r");
  CHECK(scenario != NULL);
  if (scenario == NULL) return;
  while (fgets(line, sizeof line, scenario) != NULL && count < 64) {
    int bucket, width, height, sx, sy, gx, gy;
    char map_name[256];
    double length;
    if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, map_name, &width, &height, &sx, &sy, &gx, &gy,
               &length) != 9)
      continue;
    if (bucket % 10 != 0 || bucket == last_bucket) continue;
    last_bucket = bucket;
    requests[count].start_x = sx;
    requests[count].start_y = sy;
    requests[count].goal_x = gx;
    requests[count].goal_y = gy;
    requests[count].options = (count % 2 == 0) ? NULL : &jps;
    optimal[count] = length;
    ++count;
  }
  fclose(scenario);
  CHECK(count >= 5);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_grid_query_find_path(query, requests[i].start_x, requests[i].start_y, requests[i].goal_x,
                                         requests[i].goal_y, NULL, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_FOUND);
    CHECK_NEAR(answer.cost, optimal[i], 1e-3);
    CHECK_STATUS(wf_grid_query_find_path(query, requests[i].start_x, requests[i].start_y, requests[i].goal_x,
                                         requests[i].goal_y, &jps, &answer), WF_OK);
    CHECK_NEAR(answer.cost, optimal[i], 1e-3);
  }
  CHECK_STATUS(wf_batch_create(&batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_batch_solve_grid(batch, grid, requests, count, 2), WF_OK);
  CHECK_STATUS(wf_batch_count(batch, &results), WF_OK);
  CHECK(results == count);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_batch_result(batch, i, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_FOUND);
    CHECK_NEAR(answer.cost, optimal[i], 1e-3);
  }
  {
    /* JPS+ in a batch: every thread's query reads the one table built beforehand. */
    wf_grid_derived* derived = NULL;
    wf_grid_options plus;
    wf_grid_options_init(&plus);
    plus.algorithm = WF_GRID_JUMP_POINT_PLUS;
    CHECK_STATUS(wf_grid_derived_create(grid, &plus, &derived, error, sizeof error), WF_OK);
    for (i = 0; i < count; ++i) requests[i].options = &plus;
    CHECK_STATUS(wf_batch_solve_grid_derived(batch, grid, derived, requests, count, 2), WF_OK);
    for (i = 0; i < count; ++i) {
      CHECK_STATUS(wf_batch_result(batch, i, &answer), WF_OK);
      CHECK(answer.status == WF_SEARCH_FOUND);
      CHECK_NEAR(answer.cost, optimal[i], 1e-3);
    }
    /* Without the derived data every JPS+ request is refused. */
    CHECK_STATUS(wf_batch_solve_grid_derived(batch, grid, NULL, requests, count, 1), WF_OK);
    CHECK_STATUS(wf_batch_result(batch, 0, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_INVALID_INPUT);
    CHECK_STATUS(wf_batch_solve_grid_derived(NULL, grid, derived, requests, count, 1), WF_INVALID_ARGUMENT);
    wf_grid_derived_destroy(derived);
  }
  wf_batch_destroy(batch);
  wf_grid_query_destroy(query);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

/* ---- navigation meshes ---- */

/* An L of three unit squares seen from above: A = [0,1] x [0,1], B = [1,2] x [0,1],
   C = [1,2] x [1,2] (x, z), at y = 0; floats padded to a 16-byte stride. */
static const float l_vertices[] = {
    0, 0, 0, -1, 1, 0, 0, -1, 2, 0, 0, -1, 0, 0, 1, -1,
    1, 0, 1, -1, 2, 0, 1, -1, 1, 0, 2, -1, 2, 0, 2, -1,
};
static const uint32_t l_indices[] = {0, 1, 4, 3, 1, 2, 5, 4, 4, 5, 7, 6};
static const uint32_t l_sizes[] = {4, 4, 4};

static void test_navmesh_building(void) {
  wf_navmesh* mesh = NULL;
  char error[256], path[1024];
  size_t vertices = 0, polygons = 0, regions = 0;
  double on[3] = {0.5, 0.2, 0.5}, off[3] = {5.0, 0.0, 5.0}, located[3] = {0, 0, 0};
  uint32_t polygon = 0;
  const uint32_t short_sizes[] = {4, 4, 5};
  const char* bad_mesh;

  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_counts(mesh, &vertices, &polygons, &regions), WF_OK);
  CHECK(vertices == 8 && polygons == 3 && regions == 1);
  CHECK_STATUS(wf_navmesh_counts(mesh, NULL, NULL, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_counts(NULL, &vertices, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_locate(mesh, on, 4.0, &polygon, located), WF_OK);
  CHECK(polygon == 0 && located[1] == 0.0 && located[0] == 0.5);
  CHECK_STATUS(wf_navmesh_locate(mesh, on, 4.0, &polygon, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_locate(mesh, off, 4.0, &polygon, located), WF_OK);
  CHECK(polygon == WF_NO_POLYGON);
  CHECK_STATUS(wf_navmesh_locate(mesh, on, NAN, &polygon, located), WF_OK);
  CHECK(polygon == WF_NO_POLYGON);
  CHECK_STATUS(wf_navmesh_locate(mesh, NULL, 4.0, &polygon, located), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_locate(mesh, on, 4.0, NULL, located), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_locate(NULL, on, 4.0, &polygon, located), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(NULL), WF_OK);

  /* Bad arrays: the sizes ask for more indices than there are; a stride below 12 bytes;
     NULL arrays with counts; no output pointer. */
  mesh = (wf_navmesh*)&failures;
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, short_sizes, 3, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK(mesh == NULL && strlen(error) > 0);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 4, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK(strstr(error, "stride") != NULL);
  /* A stride and count that span more than any buffer can: refused before i * stride could
     wrap around or point far outside the array. */
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, SIZE_MAX / 2, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK(mesh == NULL && strstr(error, "span more memory") != NULL);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, SIZE_MAX, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK(strstr(error, "span more memory") != NULL);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 2, (SIZE_MAX >> 1) - 8, l_indices, 0, NULL, 0, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK(strstr(error, "span more memory") != NULL);
  CHECK_STATUS(wf_navmesh_create(NULL, 8, 0, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_LOAD_ERROR);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, NULL, 12, l_sizes, 3, &mesh, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, NULL, 3, &mesh, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, NULL, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_create(l_vertices, 0, 16, NULL, 0, NULL, 0, &mesh, error, sizeof error), WF_LOAD_ERROR);

  /* Files: missing, malformed, NULL. */
  CHECK_STATUS(wf_navmesh_load_obj("no/such/mesh.obj", 0, &mesh, error, sizeof error), WF_LOAD_ERROR);
  CHECK(mesh == NULL && strlen(error) > 0);
  CHECK_STATUS(wf_navmesh_load_polyanya("no/such/mesh.mesh", &mesh, error, sizeof error), WF_LOAD_ERROR);
  bad_mesh = scratch_file("bad.mesh", "mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n");
  CHECK_STATUS(wf_navmesh_load_polyanya(bad_mesh, &mesh, error, sizeof error), WF_LOAD_ERROR);
  CHECK(strstr(error, "bad.mesh") != NULL);
  remove(bad_mesh);
  CHECK_STATUS(wf_navmesh_load_obj(NULL, 0, &mesh, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_load_polyanya(NULL, &mesh, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_load_obj("x.obj", 0, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_load_polyanya("x.mesh", NULL, error, sizeof error), WF_INVALID_ARGUMENT);

  if (data_file(path, sizeof path, "meshes/derived/nav_test_navmesh.obj")) {
    CHECK_STATUS(wf_navmesh_load_obj(path, 0, &mesh, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_navmesh_counts(mesh, NULL, &polygons, NULL), WF_OK);
    CHECK(polygons > 100);
    CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
    CHECK_STATUS(wf_navmesh_load_obj(path, 1, &mesh, error, sizeof error), WF_OK); /* z up: another mesh, still valid */
    CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  } else {
    printf("nav_test_navmesh.obj not found: OBJ loading skipped\n");
  }
}

/* A small level: a 20 x 20 floor with a 4 x 4 box 2 high in the middle, as an OBJ file and as
   the arrays a game holds (the same vertices and faces, indices from 0). */
static const float box_level_vertices[] = {0, 0, 0, 20, 0, 0, 20, 0, 20, 0, 0, 20, 8, 0, 8, 12, 0, 8,
                                           12, 0, 12, 8, 0, 12, 8, 2, 8, 12, 2, 8, 12, 2, 12, 8, 2, 12};
static const int32_t box_level_triangles[] = {0, 2, 1, 0, 3, 2, 8, 10, 9, 8, 11, 10, 4, 5, 9, 4, 9, 8,
                                              5, 6, 10, 5, 10, 9, 6, 7, 11, 6, 11, 10, 7, 4, 8, 7, 8, 11};
static const char box_level_obj[] =
    "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\n"
    "v 8 0 8\nv 12 0 8\nv 12 0 12\nv 8 0 12\nv 8 2 8\nv 12 2 8\nv 12 2 12\nv 8 2 12\n"
    "f 1 3 2\nf 1 4 3\n"
    "f 9 11 10\nf 9 12 11\nf 5 6 10\nf 5 10 9\nf 6 7 11\nf 6 11 10\nf 7 8 12\nf 7 12 11\nf 8 5 9\nf 8 9 12\n";

/* A level's geometry built into a navigation mesh (Recast): a 20 x 20 floor with a 2-unit-high
   box in the middle, which the mesh goes around. */
static void test_navmesh_from_level(void) {
  wf_agent_settings settings;
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* query = NULL;
  wf_path_result result;
  char error[512];
  const double start[3] = {1, 0, 10}, goal[3] = {19, 0, 10};
  size_t polygons = 0;
  wf_status status;
  const char* level = scratch_file("level.obj", box_level_obj);
  wf_agent_settings_init(NULL); /* accepted, does nothing */
  wf_agent_settings_init(&settings);
  CHECK(settings.cell_size == 0.3 && settings.agent_radius == 0.6 && settings.vertices_per_polygon == 6 &&
        settings.tile_size == 0);
  status = wf_navmesh_build_obj(level, 0, &settings, &mesh, error, sizeof error);
  if (status == WF_INTERNAL_ERROR && strstr(error, "Recast") != NULL) {
    printf("built without Recast: navmesh building skipped (%s)\n", error);
    remove(level);
    return;
  }
  CHECK_STATUS(status, WF_OK);
  CHECK_STATUS(wf_navmesh_counts(mesh, NULL, &polygons, NULL), WF_OK);
  CHECK(polygons >= 2);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK(result.cost > 18.0 && result.cost < 24.0); /* around the box, not through it */
  CHECK(result.point_count >= 3);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  /* Settings NULL: the defaults. */
  CHECK_STATUS(wf_navmesh_build_obj(level, 0, NULL, &mesh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  /* Bad settings, files and arguments. */
  settings.cell_size = -1.0;
  CHECK_STATUS(wf_navmesh_build_obj(level, 0, &settings, &mesh, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(mesh == NULL && strstr(error, "cell_size") != NULL);
  CHECK_STATUS(wf_navmesh_build_obj("no/such/level.obj", 0, NULL, &mesh, error, sizeof error), WF_LOAD_ERROR);
  CHECK(mesh == NULL && strstr(error, "no/such/level.obj") != NULL);
  CHECK_STATUS(wf_navmesh_build_obj(NULL, 0, NULL, &mesh, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_build_obj(level, 0, NULL, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  remove(level);
}

/* Temporary obstacles on a tiled mesh: the level of test_navmesh_from_level, a wall across the
   floor that cuts the path and, once removed, gives every answer back as it was. */
static void test_navmesh_tile_cache(void) {
  wf_agent_settings settings;
  wf_navmesh_tile_cache* cache = NULL;
  wf_navmesh* mesh = NULL;
  wf_navmesh* whole = NULL;
  wf_navmesh_query* query = NULL;
  wf_path_result result;
  char error[512];
  const double start[3] = {1, 0, 10}, goal[3] = {19, 0, 10};
  const double wall_min[3] = {14, -1, -1}, wall_max[3] = {15, 3, 21}, pillar[3] = {16, 0, 10};
  double free_cost = 0.0, free_points[30], points[30];
  size_t free_count = 0, count = 0, rebuilt = 0, pending = 99;
  uint32_t wall = 0, post = 0, unused = 0;
  wf_status status;
  const char* level = scratch_file("cache_level.obj", box_level_obj);
  wf_agent_settings_init(&settings);
  settings.tile_size = 16;
  status = wf_navmesh_tile_cache_create_obj(level, 0, &settings, &cache, &mesh, error, sizeof error);
  if (status == WF_INTERNAL_ERROR && strstr(error, "Recast") != NULL) {
    printf("built without Recast: tile cache skipped (%s)\n", error);
    remove(level);
    return;
  }
  CHECK_STATUS(status, WF_OK);
  CHECK(cache != NULL && mesh != NULL);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  free_cost = result.cost;
  CHECK_STATUS(wf_navmesh_query_path_points(query, free_points, 30, &free_count), WF_OK);

  /* The wall cuts the floor in two: no path until it goes. */
  CHECK_STATUS(wf_navmesh_tile_cache_add_box(cache, wall_min, wall_max, &wall), WF_OK);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, mesh, 0, &rebuilt, &pending), WF_OK);
  CHECK(rebuilt >= 1 && pending == 0);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status != WF_SEARCH_FOUND);
  /* A budget of one tile leaves the rest queued. */
  CHECK_STATUS(wf_navmesh_tile_cache_remove(cache, wall), WF_OK);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, mesh, 1, &rebuilt, &pending), WF_OK);
  CHECK(rebuilt == 1);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, mesh, 0, NULL, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND && result.cost == free_cost);
  CHECK_STATUS(wf_navmesh_query_path_points(query, points, 30, &count), WF_OK);
  CHECK(count == free_count && memcmp(points, free_points, count * 3 * sizeof(double)) == 0);

  /* A pillar in the way: the path goes round it. */
  CHECK_STATUS(wf_navmesh_tile_cache_add_cylinder(cache, pillar, 1.5, 2.0, &post), WF_OK);
  CHECK(post != wall);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, mesh, 0, &rebuilt, NULL), WF_OK);
  CHECK(rebuilt >= 1);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND && result.cost > free_cost);

  /* Saved with its cache before the pillar and loaded back, the mesh and cache go on as the ones
     in memory: the pillar added to both gives the same path. */
  {
    const char* baked = "c_api_cache_level.wfnav"; /* scratch_file's buffer still holds the level's path */
    wf_navmesh_tile_cache* loaded_cache = NULL;
    wf_navmesh* loaded_mesh = NULL;
    wf_navmesh_query* loaded_query = NULL;
    const double other_pillar[3] = {5, 0, 10};
    double cost_here = 0.0;
    CHECK_STATUS(wf_navmesh_tile_cache_save_wfnav(cache, mesh, baked), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_load_wfnav(baked, &loaded_cache, &loaded_mesh, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_add_cylinder(cache, other_pillar, 1.0, 2.0, &unused), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_add_cylinder(loaded_cache, other_pillar, 1.0, 2.0, &unused), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_update(cache, mesh, 0, NULL, NULL), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_update(loaded_cache, loaded_mesh, 0, &rebuilt, NULL), WF_OK);
    CHECK(rebuilt >= 1);
    CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
    cost_here = result.cost;
    CHECK_STATUS(wf_navmesh_query_create(loaded_mesh, &loaded_query, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_navmesh_query_find_path(loaded_query, start, goal, NULL, &result), WF_OK);
    CHECK(result.status == WF_SEARCH_FOUND && result.cost == cost_here);
    wf_navmesh_query_destroy(loaded_query);
    CHECK_STATUS(wf_navmesh_tile_cache_destroy(loaded_cache), WF_OK);
    CHECK_STATUS(wf_navmesh_destroy(loaded_mesh), WF_OK);
    /* A file with the mesh alone has no cache to load. */
    CHECK_STATUS(wf_navmesh_save_wfnav(mesh, baked), WF_OK);
    CHECK_STATUS(wf_navmesh_tile_cache_load_wfnav(baked, &loaded_cache, &loaded_mesh, error, sizeof error), WF_LOAD_ERROR);
    CHECK(strstr(error, "no tile cache section") != NULL && loaded_cache == NULL && loaded_mesh == NULL);
    CHECK_STATUS(wf_navmesh_tile_cache_save_wfnav(cache, mesh, NULL), WF_INVALID_ARGUMENT);
    remove(baked);
  }

  /* Errors: bad sizes, unknown ids, a mesh that is not the cache's, NULLs. */
  CHECK_STATUS(wf_navmesh_tile_cache_add_cylinder(cache, pillar, -1.0, 2.0, &unused), WF_INVALID_ARGUMENT);
  CHECK(strstr(wf_last_error(cache), "radius") != NULL);
  CHECK_STATUS(wf_navmesh_tile_cache_add_box(cache, wall_max, wall_min, &unused), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_add_box(cache, NULL, wall_max, &unused), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_add_cylinder(cache, NULL, 1.0, 1.0, &unused), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_remove(cache, wall), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_remove(cache, 12345), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_build_obj(level, 0, NULL, &whole, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, whole, 0, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK(strstr(wf_last_error(cache), "not the tiled mesh") != NULL);
  CHECK_STATUS(wf_navmesh_tile_cache_update(cache, NULL, 0, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_update(NULL, mesh, 0, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_destroy(whole), WF_OK);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_tile_cache_destroy(cache), WF_OK);
  CHECK_STATUS(wf_navmesh_tile_cache_destroy(NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);

  settings.tile_size = 0; /* the cache is tiled */
  CHECK_STATUS(wf_navmesh_tile_cache_create_obj(level, 0, &settings, &cache, &mesh, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(cache == NULL && mesh == NULL);
  CHECK_STATUS(wf_navmesh_tile_cache_create_obj("no/such/level.obj", 0, NULL, &cache, &mesh, error, sizeof error),
               WF_LOAD_ERROR);
  CHECK_STATUS(wf_navmesh_tile_cache_create_obj(NULL, 0, NULL, &cache, &mesh, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_tile_cache_create_obj(level, 0, NULL, NULL, &mesh, error, sizeof error),
               WF_INVALID_ARGUMENT);
  /* Settings NULL: the defaults, in tiles. */
  CHECK_STATUS(wf_navmesh_tile_cache_create_obj(level, 0, NULL, &cache, &mesh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_tile_cache_destroy(cache), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  remove(level);
}

/* Four unit squares, two by two (x, z): P0 = [0,1] x [0,1], P1 = [1,2] x [0,1],
   P2 = [0,1] x [1,2], P3 = [1,2] x [1,2]. From P0 to P3 through P1 or through P2. */
static const float quads_vertices[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1,
                                        2, 0, 1, 0, 0, 2, 1, 0, 2, 2, 0, 2};
static const uint32_t quads_indices[] = {0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7};
static const uint32_t quads_sizes[] = {4, 4, 4, 4};

/* The corridor of the query's latest path as the digits of its polygons ("023"), "" for none. */
static void corridor_of(wf_navmesh_query* query, char* digits) {
  uint32_t polygons[8];
  size_t count = 0, i;
  digits[0] = '\0';
  if (wf_navmesh_query_path_polygons(query, polygons, 8, &count) != WF_OK) return;
  for (i = 0; i < count; ++i) digits[i] = (char)('0' + polygons[i]);
  digits[count] = '\0';
}

static void test_navmesh_areas_and_filters(void) {
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* query = NULL;
  wf_batch* batch = NULL;
  wf_navmesh_options options;
  wf_area_filter filter;
  wf_navmesh_request requests[2];
  wf_path_result path;
  wf_search_status status;
  char error[256], corridor[16];
  const double start[3] = {0.2, 0.0, 0.6}, goal[3] = {1.5, 0.0, 1.8};
  const double around = sqrt(0.8 * 0.8 + 0.4 * 0.4) + sqrt(0.5 * 0.5 + 0.8 * 0.8); /* by the vertex (1, 1) */
  uint64_t revision = 0, before = 0;
  uint8_t area = 99;
  uint16_t flags = 99;
  uint32_t nodes[8];
  size_t count = 0;

  CHECK_STATUS(wf_navmesh_create(quads_vertices, 9, 0, quads_indices, 16, quads_sizes, 4, &mesh, error, sizeof error),
               WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  wf_navmesh_options_init(&options);
  CHECK(options.filter == NULL);

  /* Reading areas and flags: every polygon starts in area 0 without flags. */
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 2, &area, &flags), WF_OK);
  CHECK(area == 0 && flags == 0);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 2, NULL, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 4, &area, &flags), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, WF_NO_POLYGON, &area, &flags), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_polygon_area(NULL, 0, &area, &flags), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_revision(mesh, &before), WF_OK);
  CHECK_STATUS(wf_navmesh_revision(mesh, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_revision(NULL, &revision), WF_INVALID_ARGUMENT);

  /* Unfiltered, the straight line crosses P2. */
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.point_count == 2);
  corridor_of(query, corridor);
  CHECK(strcmp(corridor, "023") == 0);

  /* P2 in area 3, priced 10 times: the corridor goes through P1 and bends at (1, 1). */
  CHECK_STATUS(wf_navmesh_set_area(mesh, 2, 3), WF_OK);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 2, &area, &flags), WF_OK);
  CHECK(area == 3 && flags == 0);
  CHECK_STATUS(wf_navmesh_revision(mesh, &revision), WF_OK);
  CHECK(revision == before + 1);
  CHECK_STATUS(wf_navmesh_set_area(mesh, 2, 3), WF_OK); /* no change, no revision */
  CHECK_STATUS(wf_navmesh_revision(mesh, &revision), WF_OK);
  CHECK(revision == before + 1);
  wf_area_filter_init(&filter);
  filter.area_costs[3] = 10.0f;
  options.filter = &filter;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.point_count == 3);
  corridor_of(query, corridor);
  CHECK(strcmp(corridor, "013") == 0);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, nodes, 8, &count), WF_OK);
  /* A filter whose costs are all 1 on this mesh changes nothing. */
  filter.area_costs[3] = 1.0f;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  corridor_of(query, corridor);
  CHECK(strcmp(corridor, "023") == 0);
  /* The area excluded: the same detour. */
  filter.area_costs[3] = (float)HUGE_VAL;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  corridor_of(query, corridor);
  CHECK(strcmp(corridor, "013") == 0);
  {
    double points[9];
    CHECK_STATUS(wf_navmesh_query_path_points(query, points, 3, &count), WF_OK);
    CHECK(points[3] == 1.0 && points[5] == 1.0);
    CHECK_NEAR(path.cost, around, 1e-9);
  }
  /* The exact search refuses area costs other than 1 but honours excluded areas. */
  options.nodes = WF_CORRIDOR_OPTIMAL;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(path.cost, around, 1e-9);
  filter.area_costs[3] = 10.0f;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  options.nodes = WF_CORRIDOR_EDGE_POINTS;
  /* A cost that is not > 0 is the query's to refuse, with the reason. */
  filter.area_costs[3] = 0.0f;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  {
    char text[256];
    size_t length = 0;
    CHECK_STATUS(wf_navmesh_query_message(query, text, sizeof text, &length), WF_OK);
    CHECK(strstr(text, "area 3") != NULL);
  }

  /* Flags: P1 a door (flag 1) that this agent may not pass, P2 back to area 0. */
  CHECK_STATUS(wf_navmesh_set_area_and_flags(mesh, 2, 0, 0), WF_OK);
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 1, 1), WF_OK);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 1, &area, &flags), WF_OK);
  CHECK(area == 0 && flags == 1);
  CHECK_STATUS(wf_navmesh_revision(mesh, &revision), WF_OK);
  CHECK(revision == before + 3);
  wf_area_filter_init(&filter);
  filter.exclude_flags = 1;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  corridor_of(query, corridor);
  CHECK(strcmp(corridor, "023") == 0);
  /* P2 a door too: the goal is cut off. */
  CHECK_STATUS(wf_navmesh_set_area_and_flags(mesh, 2, 5, 1), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  /* include_flags: flagged polygons need one of them; unflagged ones are always in. */
  filter.exclude_flags = 0;
  filter.include_flags = 2;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  filter.include_flags = 1;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  /* A start on an excluded polygon. */
  filter.exclude_flags = 1;
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 0, 1), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 0, 0), WF_OK);

  /* A stepped search notices an edit between its steps. */
  CHECK_STATUS(wf_navmesh_query_begin(query, start, goal, NULL, &status), WF_OK);
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 3, 4), WF_OK);
  if (status == WF_SEARCH_IN_PROGRESS) {
    CHECK_STATUS(wf_navmesh_query_step(query, WF_UNLIMITED_EXPANSIONS, 0.0, &status), WF_OK);
    CHECK(status == WF_SEARCH_WORLD_CHANGED);
  }

  /* Batches take the filter with each request's options. */
  CHECK_STATUS(wf_navmesh_set_area_and_flags(mesh, 2, 0, 0), WF_OK);
  wf_area_filter_init(&filter);
  filter.exclude_flags = 1;
  memcpy(requests[0].start, start, sizeof start);
  memcpy(requests[0].goal, goal, sizeof goal);
  requests[0].options = &options;
  requests[1] = requests[0];
  requests[1].options = NULL;
  CHECK_STATUS(wf_batch_create(&batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 2, 1), WF_OK);
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 1, 0), WF_OK);
  CHECK_STATUS(wf_batch_solve_navmesh(batch, mesh, requests, 2, 2), WF_OK);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, nodes, 8, &count), WF_OK);
  CHECK(count == 3 && nodes[1] == 1);
  CHECK_STATUS(wf_batch_path_nodes(batch, 1, nodes, 8, &count), WF_OK);
  CHECK(count == 3 && nodes[1] == 2);
  wf_batch_destroy(batch);

  /* Bad edits change nothing and say why. */
  CHECK_STATUS(wf_navmesh_revision(mesh, &before), WF_OK);
  CHECK_STATUS(wf_navmesh_set_area(mesh, 0, WF_MAX_AREAS), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(mesh, "area 64");
  CHECK_STATUS(wf_navmesh_set_area_and_flags(mesh, 0, WF_MAX_AREAS, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_set_area(mesh, 4, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(mesh, "polygon 4");
  CHECK_STATUS(wf_navmesh_set_flags(mesh, 4, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_set_area_and_flags(mesh, 4, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_set_area(NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_set_flags(NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_set_area_and_flags(NULL, 0, 1, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_polygon_area(mesh, 0, &area, &flags), WF_OK);
  CHECK(area == 0 && flags == 0);
  CHECK_STATUS(wf_navmesh_revision(mesh, &revision), WF_OK);
  CHECK(revision == before);

  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

static void test_navmesh_queries(void) {
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* query = NULL;
  wf_navmesh_options options;
  wf_path_result path, stepped;
  wf_search_status status;
  char error[256], text[256];
  double start[3] = {0.2, 0.0, 0.8}, goal[3] = {1.5, 0.0, 1.8}, off[3] = {-0.5, 0.0, 0.5};
  double points[30];
  uint32_t polygons[10];
  size_t count = 0, length = 0;
  /* Around the inner corner (1, 1). */
  const double shortest = sqrt(0.8 * 0.8 + 0.2 * 0.2) + sqrt(0.5 * 0.5 + 0.8 * 0.8);
  int steps = 0;

  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(NULL, &query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_create(mesh, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);

  /* A step before any begin is answered, not failed. */
  CHECK_STATUS(wf_navmesh_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(path.cost, shortest, 1e-9);
  CHECK(path.point_count == 3 && path.node_count == 3);
  CHECK_STATUS(wf_navmesh_query_path_points(query, NULL, 0, &count), WF_OK);
  CHECK(count == 3);
  CHECK_STATUS(wf_navmesh_query_path_points(query, points, 2, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_navmesh_query_path_points(query, NULL, 2, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_points(query, points, 10, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_points(NULL, points, 10, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_points(query, points, 10, &count), WF_OK);
  CHECK(points[3] == 1.0 && points[5] == 1.0); /* the turn at the corner */
  CHECK(points[6] == 1.5 && points[8] == 1.8);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, NULL, 0, &count), WF_OK);
  CHECK(count == 3);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, polygons, 1, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, NULL, 1, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, polygons, 10, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_polygons(NULL, polygons, 10, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_path_polygons(query, polygons, 10, &count), WF_OK);
  CHECK(polygons[0] == 0 && polygons[1] == 1 && polygons[2] == 2);

  /* Off the mesh: invalid_input, unless snapped. */
  CHECK_STATUS(wf_navmesh_query_find_path(query, off, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_navmesh_query_message(query, NULL, 0, &length), WF_OK);
  CHECK(length > 0);
  CHECK_STATUS(wf_navmesh_query_message(query, text, 3, &length), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_navmesh_query_message(query, text, sizeof text, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_message(NULL, text, sizeof text, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(strstr(text, "start") != NULL);
  wf_navmesh_options_init(NULL);
  wf_navmesh_options_init(&options);
  CHECK(options.nodes == WF_CORRIDOR_EDGE_POINTS && options.weight == 1.0 && options.height_tolerance == 4.0);
  CHECK(options.snap_distance == 0.0);
  options.snap_distance = 1.0;
  CHECK_STATUS(wf_navmesh_query_find_path(query, off, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  options.nodes = WF_CORRIDOR_POLYGON_CENTROIDS;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK_NEAR(path.cost, shortest, 1e-9);
  options.nodes = (wf_corridor_nodes)3;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "options.nodes");
  wf_navmesh_options_init(&options);
  options.weight = -1.0;
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_navmesh_query_find_path(query, NULL, goal, NULL, &path), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_find_path(NULL, start, goal, NULL, &path), WF_INVALID_ARGUMENT);

  /* Stepping. */
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &path), WF_OK);
  CHECK_STATUS(wf_navmesh_query_begin(query, start, goal, NULL, &status), WF_OK);
  while (status == WF_SEARCH_IN_PROGRESS && steps < 1000) {
    CHECK_STATUS(wf_navmesh_query_step(query, 1, 0.0, &status), WF_OK);
    ++steps;
  }
  CHECK(status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_navmesh_query_result(query, &stepped), WF_OK);
  CHECK(stepped.status == WF_SEARCH_FOUND && stepped.cost == path.cost && stepped.point_count == 3);
  CHECK_STATUS(wf_navmesh_query_begin(query, NULL, goal, NULL, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_begin(query, start, goal, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_begin(NULL, start, goal, NULL, &status), WF_INVALID_ARGUMENT);
  options.weight = 1.0;
  options.limits.max_milliseconds = -5.0;
  CHECK_STATUS(wf_navmesh_query_begin(query, start, goal, &options, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_step(query, 1, -1.0, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_step(query, 1, 0.0, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_step(NULL, 1, 0.0, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_result(query, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_result(NULL, &stepped), WF_INVALID_ARGUMENT);

  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_IN_USE);
  wf_navmesh_query_destroy(query);
  wf_navmesh_query_destroy(NULL);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

/* Polyanya's arena mesh against its scenario's optimal lengths: corridors found by a search
   over edge points are never shorter than the optimum, and close to it. */
static void test_navmesh_benchmark(void) {
  char path[1024], line[256], error[256];
  FILE* queries;
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* query = NULL;
  wf_navmesh_request requests[40];
  double optimal[40];
  wf_batch* batch = NULL;
  wf_path_result answer;
  size_t count = 0, i;
  int row = 0;

  if (!data_file(path, sizeof path, "meshes/polyanya/meshes/arena.mesh")) {
    printf("arena.mesh not found: mesh benchmark skipped\n");
    return;
  }
  CHECK_STATUS(wf_navmesh_load_polyanya(path, &mesh, error, sizeof error), WF_OK);
  if (mesh == NULL) return;
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  CHECK(data_file(path, sizeof path, "meshes/derived/arena_polyanya_optimal.csv"));
  queries = fopen(path, "r");
  if (queries == NULL) return;
  while (fgets(line, sizeof line, queries) != NULL && count < 40) {
    int id;
    double sx, sy, gx, gy, grid_cost, length;
    if (sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf", &id, &sx, &sy, &gx, &gy, &grid_cost, &length) != 7) continue;
    if (row++ % 37 != 0 || length < 0.0) continue;
    requests[count].start[0] = sx;
    requests[count].start[1] = 0.0;
    requests[count].start[2] = sy;
    requests[count].goal[0] = gx;
    requests[count].goal[1] = 0.0;
    requests[count].goal[2] = gy;
    requests[count].options = NULL;
    optimal[count] = length;
    ++count;
  }
  fclose(queries);
  CHECK(count >= 5);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_navmesh_query_find_path(query, requests[i].start, requests[i].goal, NULL, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_FOUND);
    CHECK(answer.cost >= optimal[i] - 1e-4 && answer.cost <= optimal[i] * 1.2 + 1e-4);
  }
  CHECK_STATUS(wf_batch_create(&batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_batch_solve_navmesh(batch, mesh, requests, count, 2), WF_OK);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_batch_result(batch, i, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_FOUND && answer.cost >= optimal[i] - 1e-4);
  }
  wf_batch_destroy(batch);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

/* The same answers from two meshes: status, cost and every waypoint, exactly. */
static int same_answers(wf_navmesh_query* a, wf_navmesh_query* b, const double start[3], const double goal[3]) {
  wf_path_result first, second;
  double first_points[3 * 256], second_points[3 * 256];
  size_t first_count = 0, second_count = 0, i;
  if (wf_navmesh_query_find_path(a, start, goal, NULL, &first) != WF_OK) return 0;
  if (wf_navmesh_query_find_path(b, start, goal, NULL, &second) != WF_OK) return 0;
  if (first.status != second.status || first.cost != second.cost || first.point_count != second.point_count ||
      first.point_count > 256)
    return 0;
  if (wf_navmesh_query_path_points(a, first_points, 3 * 256, &first_count) != WF_OK) return 0;
  if (wf_navmesh_query_path_points(b, second_points, 3 * 256, &second_count) != WF_OK) return 0;
  if (first_count != second_count) return 0;
  for (i = 0; i < 3 * first_count; ++i)
    if (first_points[i] != second_points[i]) return 0;
  return 1;
}

static void test_navmesh_files(void) {
  char path[1024], line[512], error[256];
  const char* saved;
  const char* foreign;
  wf_navmesh* mesh = NULL;
  wf_navmesh* loaded = NULL;
  wf_navmesh_query* original_query = NULL;
  wf_navmesh_query* loaded_query = NULL;
  size_t polygons = 0, loaded_polygons = 0, compared = 0, differing = 0;
  double start[3] = {0.2, 0.0, 0.8}, goal[3] = {1.5, 0.0, 1.8};
  FILE* file;
  char bytes[100];
  size_t length;

  /* Saved and loaded back, a mesh answers as before. */
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_OK);
  saved = "c_api_l_shape.wfnav";
  CHECK_STATUS(wf_navmesh_save_wfnav(mesh, saved), WF_OK);
  CHECK_STATUS(wf_navmesh_load_wfnav(saved, &loaded, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_counts(loaded, NULL, &loaded_polygons, NULL), WF_OK);
  CHECK(loaded_polygons == 3);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &original_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(loaded, &loaded_query, error, sizeof error), WF_OK);
  CHECK(same_answers(original_query, loaded_query, start, goal));

  /* A truncated file, a foreign one, a missing one: WF_LOAD_ERROR naming the file. */
  file = fopen(saved, "rb");
  CHECK(file != NULL);
  if (file != NULL) {
    length = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    CHECK(length == sizeof bytes);
    file = fopen("c_api_cut.wfnav", "wb");
    if (file != NULL) {
      fwrite(bytes, 1, length / 2, file);
      fclose(file);
    }
  }
  wf_navmesh_query_destroy(loaded_query);
  CHECK_STATUS(wf_navmesh_destroy(loaded), WF_OK);
  loaded = (wf_navmesh*)&failures;
  CHECK_STATUS(wf_navmesh_load_wfnav("c_api_cut.wfnav", &loaded, error, sizeof error), WF_LOAD_ERROR);
  CHECK(loaded == NULL && strstr(error, "c_api_cut.wfnav") != NULL && strstr(error, "truncated") != NULL);
  remove("c_api_cut.wfnav");
  foreign = scratch_file("foreign.wfnav", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  CHECK_STATUS(wf_navmesh_load_wfnav(foreign, &loaded, error, sizeof error), WF_LOAD_ERROR);
  CHECK(strstr(error, "foreign.wfnav") != NULL && strstr(error, "not a Wayfinder navmesh file") != NULL);
  remove(foreign);
  CHECK_STATUS(wf_navmesh_load_wfnav("no/such/mesh.wfnav", &loaded, error, sizeof error), WF_LOAD_ERROR);
  CHECK(strstr(error, "no/such/mesh.wfnav") != NULL);
  CHECK_STATUS(wf_navmesh_load_wfnav(NULL, &loaded, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_load_wfnav(saved, NULL, error, sizeof error), WF_INVALID_ARGUMENT);

  /* Saving: a file that cannot be written, NULL arguments, a handle of another type. */
  CHECK_STATUS(wf_navmesh_save_wfnav(mesh, "no/such/folder/mesh.wfnav"), WF_LOAD_ERROR);
  CHECK_ERROR_MENTIONS(mesh, "no/such/folder/mesh.wfnav");
  CHECK_STATUS(wf_navmesh_save_wfnav(mesh, NULL), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(mesh, "path is NULL");
  CHECK_STATUS(wf_navmesh_save_wfnav(NULL, saved), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_save_wfnav((wf_navmesh*)original_query, saved), WF_INVALID_ARGUMENT);
  remove(saved);
  wf_navmesh_query_destroy(original_query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);

  /* A real mesh: nav_test's Detour polygons, saved, loaded back and asked the 10,000 reference
     queries: every answer the same, to the last bit. */
  if (!data_file(path, sizeof path, "meshes/derived/nav_test_navmesh.obj")) {
    printf("nav_test_navmesh.obj not found: navmesh file round trip skipped\n");
    return;
  }
  CHECK_STATUS(wf_navmesh_load_obj(path, 0, &mesh, error, sizeof error), WF_OK);
  if (mesh == NULL) return;
  saved = "c_api_nav_test.wfnav";
  CHECK_STATUS(wf_navmesh_save_wfnav(mesh, saved), WF_OK);
  CHECK_STATUS(wf_navmesh_load_wfnav(saved, &loaded, error, sizeof error), WF_OK);
  remove(saved);
  if (loaded == NULL) return;
  CHECK_STATUS(wf_navmesh_counts(mesh, NULL, &polygons, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_counts(loaded, NULL, &loaded_polygons, NULL), WF_OK);
  CHECK(polygons == loaded_polygons && polygons > 100);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &original_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(loaded, &loaded_query, error, sizeof error), WF_OK);
  CHECK(data_file(path, sizeof path, "meshes/derived/nav_test_reference_queries.csv"));
  file = fopen(path, "r");
  if (file != NULL) {
    while (fgets(line, sizeof line, file) != NULL) {
      int id;
      if (sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf", &id, &start[0], &start[1], &start[2], &goal[0], &goal[1],
                 &goal[2]) != 7)
        continue;
      ++compared;
      if (!same_answers(original_query, loaded_query, start, goal)) ++differing;
    }
    fclose(file);
  }
  CHECK(compared == 10000);
  CHECK(differing == 0);
  wf_navmesh_query_destroy(original_query);
  wf_navmesh_query_destroy(loaded_query);
  CHECK_STATUS(wf_navmesh_destroy(loaded), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

/* ---- voxel worlds ---- */

/* 8 x 4 x 8 blocks: a solid floor at y = 0, a pillar at (3, 1..2, 3). */
static int floor_world(void* user_data, int x, int y, int z) {
  int* calls = (int*)user_data;
  ++*calls;
  if (y == 0) return WF_BLOCK_SOLID;
  return (x == 3 && z == 3 && y <= 2) ? WF_BLOCK_SOLID : WF_BLOCK_AIR;
}

static int bad_kind(void* user_data, int x, int y, int z) {
  (void)user_data;
  return (x == 1 && y == 1 && z == 1) ? 9 : WF_BLOCK_AIR;
}

static void test_voxel_worlds(void) {
  wf_voxel_world *from_callback = NULL, *from_array = NULL, *world = (wf_voxel_world*)&failures;
  uint8_t blocks[8 * 4 * 8];
  uint8_t colour_kinds[256];
  char error[256], path[1024];
  int calls = 0, x, y, z, sx = 0, sy = 0, sz = 0;
  wf_block_kind kind = WF_BLOCK_WATER;
  uint64_t revision = 5;

  for (y = 0; y < 4; ++y)
    for (z = 0; z < 8; ++z)
      for (x = 0; x < 8; ++x) blocks[(y * 8 + z) * 8 + x] = (uint8_t)floor_world(&calls, x, y, z);
  calls = 0;
  CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 8, floor_world, &calls, &from_callback, error, sizeof error),
               WF_OK);
  CHECK(calls == 8 * 4 * 8);
  CHECK_STATUS(wf_voxel_world_create(8, 4, 8, blocks, &from_array, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_world_size(from_array, &sx, &sy, &sz), WF_OK);
  CHECK(sx == 8 && sy == 4 && sz == 8);
  CHECK_STATUS(wf_voxel_world_size(from_array, NULL, NULL, NULL), WF_OK);
  CHECK_STATUS(wf_voxel_world_size(NULL, &sx, &sy, &sz), WF_INVALID_ARGUMENT);
  for (y = 0; y < 4; ++y)
    for (z = 0; z < 8; ++z)
      for (x = 0; x < 8; ++x) {
        wf_block_kind a = WF_BLOCK_LADDER, b = WF_BLOCK_LADDER;
        CHECK_STATUS(wf_voxel_world_block(from_callback, x, y, z, &a), WF_OK);
        CHECK_STATUS(wf_voxel_world_block(from_array, x, y, z, &b), WF_OK);
        if (a != b || (int)a != blocks[(y * 8 + z) * 8 + x]) {
          CHECK(a == b);
          x = y = z = 99; /* one report is enough */
        }
      }
  CHECK_STATUS(wf_voxel_world_block(from_array, -1, 0, 0, &kind), WF_OK);
  CHECK(kind == WF_BLOCK_AIR); /* outside is air */
  CHECK_STATUS(wf_voxel_world_block(from_array, 0, 0, 0, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_block(NULL, 0, 0, 0, &kind), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_revision(from_array, &revision), WF_OK);
  CHECK(revision == 0);
  CHECK_STATUS(wf_voxel_world_set_block(from_array, 5, 1, 5, WF_BLOCK_WATER), WF_OK);
  CHECK_STATUS(wf_voxel_world_block(from_array, 5, 1, 5, &kind), WF_OK);
  CHECK(kind == WF_BLOCK_WATER);
  CHECK_STATUS(wf_voxel_world_revision(from_array, &revision), WF_OK);
  CHECK(revision == 1);
  CHECK_STATUS(wf_voxel_world_set_block(from_array, 8, 1, 5, WF_BLOCK_SOLID), WF_INVALID_ARGUMENT);
  CHECK(strlen(wf_last_error(from_array)) > 0);
  CHECK_STATUS(wf_voxel_world_set_block(from_array, 1, 1, 1, (wf_block_kind)4), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(from_array, "wf_block_kind");
  CHECK_STATUS(wf_voxel_world_set_block(NULL, 1, 1, 1, WF_BLOCK_AIR), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_revision(from_array, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_revision(NULL, &revision), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_destroy(from_callback), WF_OK);
  CHECK_STATUS(wf_voxel_world_destroy(from_array), WF_OK);
  CHECK_STATUS(wf_voxel_world_destroy(NULL), WF_OK);

  /* Bad sizes, kinds, callbacks, files. */
  CHECK_STATUS(wf_voxel_world_create(0, 4, 8, NULL, &world, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(world == NULL && strlen(error) > 0);
  CHECK_STATUS(wf_voxel_world_create(1 << 20, 1 << 20, 1 << 20, NULL, &world, error, sizeof error),
               WF_INVALID_ARGUMENT);
  blocks[17] = 4;
  CHECK_STATUS(wf_voxel_world_create(8, 4, 8, blocks, &world, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "blocks[17]") != NULL);
  CHECK_STATUS(wf_voxel_world_create(8, 4, 8, NULL, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_create_from_callback(4, 4, 4, bad_kind, NULL, &world, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "9") != NULL);
  CHECK_STATUS(wf_voxel_world_create_from_callback(4, 4, 4, NULL, NULL, &world, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_create_from_callback(0, 4, 4, bad_kind, NULL, &world, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_create_from_callback(4, 4, 4, bad_kind, NULL, NULL, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_load_vox("no/such/world.vox", NULL, &world, error, sizeof error), WF_LOAD_ERROR);
  CHECK(world == NULL && strstr(error, "world.vox") != NULL);
  memset(colour_kinds, WF_BLOCK_SOLID, sizeof colour_kinds);
  colour_kinds[200] = 7;
  CHECK_STATUS(wf_voxel_world_load_vox("no/such/world.vox", colour_kinds, &world, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_load_vox(NULL, NULL, &world, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_load_vox("x.vox", NULL, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_load_3dmap("no/such/world.3dmap", &world, error, sizeof error), WF_LOAD_ERROR);
  {
    const char* bad = scratch_file("bad.3dmap", "voxel 4 4 4\n1 2\n");
    CHECK_STATUS(wf_voxel_world_load_3dmap(bad, &world, error, sizeof error), WF_LOAD_ERROR);
    CHECK(strstr(error, ":2") != NULL);
    remove(bad);
  }
  CHECK_STATUS(wf_voxel_world_load_3dmap(NULL, &world, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_load_3dmap("x.3dmap", NULL, error, sizeof error), WF_INVALID_ARGUMENT);

  if (data_file(path, sizeof path, "voxel/vox/scene_house4.vox")) {
    colour_kinds[200] = WF_BLOCK_WATER;
    CHECK_STATUS(wf_voxel_world_load_vox(path, colour_kinds, &world, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_voxel_world_size(world, &sx, &sy, &sz), WF_OK);
    CHECK(sx > 0 && sy > 0 && sz > 0);
    CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
    CHECK_STATUS(wf_voxel_world_load_vox(path, NULL, &world, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
  } else {
    printf("scene_house4.vox not found: .vox loading skipped\n");
  }
}

static void test_voxel_queries(void) {
  wf_voxel_world* world = NULL;
  wf_voxel_world* other = NULL;
  wf_voxel_query* query = NULL;
  wf_voxel_hierarchy* hierarchy = NULL;
  wf_voxel_hierarchy_options hierarchy_options;
  size_t nodes = 0, bytes = 0;
  wf_movement_profile walker, flyer, bad;
  wf_voxel_options options;
  wf_path_result path, stepped;
  wf_search_status status;
  char error[256], text[256];
  int calls = 0, steps = 0;
  int32_t start[3] = {1, 1, 1}, goal[3] = {6, 1, 6}, in_air[3] = {1, 3, 1}, blocks[64];
  size_t count = 0, length = 0;
  const double sqrt2 = 1.4142135623730951;
  double flyer_cost = 0.0;

  wf_movement_profile_walker(NULL);
  wf_movement_profile_flyer(NULL);
  wf_movement_profile_walker(&walker);
  wf_movement_profile_flyer(&flyer);
  CHECK(walker.agent_height == 2 && walker.walk_directions == 8 && walker.fly == 0 && walker.walk_cost == 1.0);
  CHECK(flyer.agent_height == 1 && flyer.fly == 1);
  bad = walker;
  bad.agent_height = 0;

  CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 8, floor_world, &calls, &world, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_create(NULL, NULL, &query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_create(world, NULL, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_create(world, &bad, &query, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(query == NULL && strstr(error, "agent_height") != NULL);
  CHECK_STATUS(wf_voxel_query_create(world, NULL, &query, error, sizeof error), WF_OK);
  /* A step before any begin is answered, not failed. */
  CHECK_STATUS(wf_voxel_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_INVALID_INPUT);

  /* Five diagonal steps would cross the pillar at (3, 3), and no diagonal may cut its corners:
     three diagonals and four straight steps. */
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(path.cost, 3.0 * sqrt2 + 4.0, 1e-9);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, NULL, 0, &count), WF_OK);
  CHECK(count == path.node_count && count == 8);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, blocks, 6, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, NULL, 6, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, blocks, 20, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_path_blocks(NULL, blocks, 20, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, blocks, 20, &count), WF_OK);
  CHECK(blocks[0] == 1 && blocks[1] == 1 && blocks[2] == 1 && blocks[21] == 6 && blocks[22] == 1 && blocks[23] == 6);

  /* A flyer (per query) goes over the pillar or around it: at most the walker's cost. */
  wf_voxel_options_init(NULL);
  wf_voxel_options_init(&options);
  CHECK(options.algorithm == WF_VOXEL_ASTAR && options.weight == 2.0 && options.profile == NULL);
  options.profile = &flyer;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.cost <= 3.0 * sqrt2 + 4.0 + 1e-9);
  options.profile = &bad;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  wf_voxel_options_init(&options);
  options.algorithm = WF_VOXEL_DIJKSTRA;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK_NEAR(path.cost, 3.0 * sqrt2 + 4.0, 1e-9);
  /* Jump point search: the flyer's A* cost; refused for the walker. */
  options.algorithm = WF_VOXEL_ASTAR;
  options.profile = &flyer;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  flyer_cost = path.cost;
  options.algorithm = WF_VOXEL_JUMP_POINT;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(path.cost, flyer_cost, 1e-9);
  options.profile = NULL;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_voxel_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(strstr(text, "flying agents only") != NULL);
  options.algorithm = (wf_voxel_algorithm)6;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "options.algorithm");

  /* Hierarchical search, over a hierarchy of the query's world for its agent. */
  wf_voxel_hierarchy_options_init(NULL);
  wf_voxel_hierarchy_options_init(&hierarchy_options);
  CHECK(hierarchy_options.cluster_size == 16 && hierarchy_options.cluster_height == 0 &&
        hierarchy_options.long_entrance == 6 && hierarchy_options.build_threads == 1 && hierarchy_options.max_places == 0);
  hierarchy_options.cluster_size = 4;
  CHECK_STATUS(wf_voxel_hierarchy_create(NULL, NULL, &hierarchy_options, &hierarchy, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  hierarchy_options.cluster_size = 2;
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, &hierarchy, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(hierarchy == NULL && strstr(error, "cluster_size") != NULL);
  CHECK_STATUS(wf_voxel_hierarchy_create(world, &bad, NULL, &hierarchy, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(hierarchy == NULL && strstr(error, "agent_height") != NULL);
  hierarchy_options.cluster_size = 4;
  hierarchy_options.max_places = 3;
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, &hierarchy, error, sizeof error),
               WF_OUT_OF_MEMORY);
  CHECK(hierarchy == NULL && strstr(error, "max_places") != NULL);
  hierarchy_options.max_places = 0;
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, &hierarchy, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_size(hierarchy, &nodes, &bytes), WF_OK);
  CHECK(nodes > 0 && bytes > 0);
  CHECK_STATUS(wf_voxel_hierarchy_size(NULL, &nodes, &bytes), WF_INVALID_ARGUMENT);
  wf_voxel_options_init(&options);
  options.algorithm = WF_VOXEL_HIERARCHICAL;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT); /* no hierarchy given yet */
  CHECK_STATUS(wf_voxel_query_set_hierarchy(query, hierarchy), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.cost >= 3.0 * sqrt2 + 4.0 - 1e-9);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_IN_USE);
  wf_voxel_hierarchy_destroy(hierarchy); /* the query keeps its own reference */
  wf_voxel_hierarchy_destroy(NULL);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_voxel_query_set_hierarchy(query, NULL), WF_OK);
  CHECK_STATUS(wf_voxel_query_set_hierarchy(NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_create(8, 4, 8, NULL, &other, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_create(other, NULL, &hierarchy_options, &hierarchy, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_world_destroy(other), WF_IN_USE);
  CHECK_STATUS(wf_voxel_query_set_hierarchy(query, hierarchy), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "another world");
  wf_voxel_hierarchy_destroy(hierarchy);
  CHECK_STATUS(wf_voxel_world_destroy(other), WF_OK);

  /* Where the agent cannot be: invalid_input and why. */
  CHECK_STATUS(wf_voxel_query_find_path(query, in_air, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_voxel_query_message(query, NULL, 0, &length), WF_OK);
  CHECK(length > 0);
  CHECK_STATUS(wf_voxel_query_message(query, text, 2, &length), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_voxel_query_message(query, text, sizeof text, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_message(NULL, text, sizeof text, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_message(query, text, sizeof text, &length), WF_OK);
  CHECK(strstr(text, "start") != NULL);
  CHECK_STATUS(wf_voxel_query_find_path(query, NULL, goal, NULL, &path), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_find_path(NULL, start, goal, NULL, &path), WF_INVALID_ARGUMENT);

  /* Stepping, and an edit between steps. */
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, NULL, &path), WF_OK);
  CHECK_STATUS(wf_voxel_query_begin(query, start, goal, NULL, &status), WF_OK);
  while (status == WF_SEARCH_IN_PROGRESS && steps < 10000) {
    CHECK_STATUS(wf_voxel_query_step(query, 2, 0.0, &status), WF_OK);
    ++steps;
  }
  CHECK(status == WF_SEARCH_FOUND && steps > 1);
  CHECK_STATUS(wf_voxel_query_result(query, &stepped), WF_OK);
  CHECK(stepped.cost == path.cost && stepped.node_count == path.node_count);
  CHECK_STATUS(wf_voxel_query_begin(query, start, goal, NULL, &status), WF_OK);
  CHECK_STATUS(wf_voxel_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK_STATUS(wf_voxel_world_set_block(world, 7, 2, 7, WF_BLOCK_SOLID), WF_OK);
  CHECK_STATUS(wf_voxel_query_step(query, 1, 0.0, &status), WF_OK);
  CHECK(status == WF_SEARCH_WORLD_CHANGED);
  CHECK_STATUS(wf_voxel_query_begin(query, NULL, goal, NULL, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_begin(query, start, goal, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_begin(NULL, start, goal, NULL, &status), WF_INVALID_ARGUMENT);
  options.algorithm = (wf_voxel_algorithm)-3;
  CHECK_STATUS(wf_voxel_query_begin(query, start, goal, &options, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_step(query, 1, HUGE_VAL, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_step(query, 1, 0.0, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_step(NULL, 1, 0.0, &status), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_result(query, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_result(NULL, &stepped), WF_INVALID_ARGUMENT);

  CHECK_STATUS(wf_voxel_world_destroy(world), WF_IN_USE);
  wf_voxel_query_destroy(query);
  wf_voxel_query_destroy(NULL);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
}

/* The voxel benchmark's Simple map: flyers, against the scenario's optimal lengths. */
static void test_voxel_benchmark(void) {
  char path[1024], line[256], error[256];
  FILE* scenario;
  wf_voxel_world* world = NULL;
  wf_voxel_query* query = NULL;
  wf_movement_profile flyer;
  wf_voxel_options options;
  wf_voxel_request requests[8];
  double optimal[8];
  wf_batch* batch = NULL;
  wf_path_result answer;
  size_t count = 0, i;

  if (!data_file(path, sizeof path, "voxel/warframe/Simple.3dmap")) {
    printf("Simple.3dmap not found: voxel benchmark skipped\n");
    return;
  }
  CHECK_STATUS(wf_voxel_world_load_3dmap(path, &world, error, sizeof error), WF_OK);
  if (world == NULL) return;
  wf_movement_profile_flyer(&flyer);
  CHECK_STATUS(wf_voxel_query_create(world, &flyer, &query, error, sizeof error), WF_OK);
  wf_voxel_options_init(&options);
  options.profile = &flyer;
  CHECK(data_file(path, sizeof path, "voxel/warframe/Simple.3dmap.3dscen"));
  scenario = fopen(path, "r");
  if (scenario == NULL) return;
  while (fgets(line, sizeof line, scenario) != NULL && count < 8) {
    int s[3], g[3];
    double length, ratio;
    if (sscanf(line, "%d %d %d %d %d %d %lf %lf", &s[0], &s[1], &s[2], &g[0], &g[1], &g[2], &length, &ratio) != 8)
      continue;
    for (i = 0; i < 3; ++i) {
      requests[count].start[i] = s[i];
      requests[count].goal[i] = g[i];
    }
    requests[count].options = &options;
    optimal[count] = length;
    ++count;
  }
  fclose(scenario);
  CHECK(count == 8);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_voxel_query_find_path(query, requests[i].start, requests[i].goal, NULL, &answer), WF_OK);
    CHECK(answer.status == WF_SEARCH_FOUND);
    CHECK_NEAR(answer.cost, optimal[i], 1e-4);
  }
  CHECK_STATUS(wf_batch_create(&batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_batch_solve_voxel(batch, world, requests, count, 2), WF_OK);
  for (i = 0; i < count; ++i) {
    CHECK_STATUS(wf_batch_result(batch, i, &answer), WF_OK);
    CHECK_NEAR(answer.cost, optimal[i], 1e-4);
  }
  wf_batch_destroy(batch);
  wf_voxel_query_destroy(query);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
}

/* ---- batches ---- */

static void test_batches(void) {
  wf_grid* grid = make_walled_grid();
  wf_batch* batch = (wf_batch*)&failures;
  wf_grid_options bad;
  wf_grid_request requests[3] = {{0, 4, 4, 4, NULL}, {2, 0, 4, 4, NULL}, {0, 0, 1, 1, NULL}};
  wf_path_result answer;
  uint32_t nodes[16];
  double points[48];
  char error[128], text[256];
  size_t count = 0, length = 0;

  CHECK_STATUS(wf_batch_create(NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_create(&batch, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_batch_count(batch, &count), WF_OK);
  CHECK(count == 0);
  CHECK_STATUS(wf_batch_solve_grid(batch, grid, requests, 3, 0), WF_OK);
  CHECK_STATUS(wf_batch_count(batch, &count), WF_OK);
  CHECK(count == 3);
  CHECK_STATUS(wf_batch_count(batch, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_count(NULL, &count), WF_INVALID_ARGUMENT);

  CHECK_STATUS(wf_batch_result(batch, 0, &answer), WF_OK);
  CHECK(answer.status == WF_SEARCH_FOUND && answer.node_count == 7);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, NULL, 0, &count), WF_OK);
  CHECK(count == 7);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, nodes, 3, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, NULL, 3, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, nodes, 16, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_nodes(batch, 0, nodes, 16, &count), WF_OK);
  CHECK(nodes[0] == 20 && nodes[6] == 24); /* y * width + x */
  CHECK_STATUS(wf_batch_path_points(batch, 0, NULL, 0, &count), WF_OK);
  CHECK(count == 7);
  CHECK_STATUS(wf_batch_path_points(batch, 0, points, 6, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_batch_path_points(batch, 0, NULL, 6, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_points(batch, 0, points, 16, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_points(batch, 0, points, 16, &count), WF_OK);
  CHECK(points[0] == 0.5 && points[1] == 4.5 && points[2] == 0.0); /* cell centres */

  CHECK_STATUS(wf_batch_result(batch, 1, &answer), WF_OK);
  CHECK(answer.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_batch_message(batch, 1, NULL, 0, &length), WF_OK);
  CHECK(length > 0);
  CHECK_STATUS(wf_batch_message(batch, 1, text, 1, &length), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_batch_message(batch, 1, NULL, 1, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_message(batch, 1, text, sizeof text, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_message(batch, 1, text, sizeof text, &length), WF_OK);
  CHECK(strstr(text, "blocked") != NULL);
  CHECK_STATUS(wf_batch_result(batch, 2, &answer), WF_OK);
  CHECK_NEAR(answer.cost, 1.4142135623730951 * 2.0, 1e-9); /* (0, 0) costs 3: the move costs sqrt 2 x mean 2 */

  /* Indices past the end, NULL arguments. */
  CHECK_STATUS(wf_batch_result(batch, 3, &answer), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(batch, "index 3");
  CHECK_STATUS(wf_batch_path_nodes(batch, 3, nodes, 16, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_points(batch, 3, points, 16, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_message(batch, 3, text, sizeof text, &length), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_result(batch, 0, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_result(NULL, 0, &answer), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_nodes(NULL, 0, nodes, 16, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_path_points(NULL, 0, points, 16, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_message(NULL, 0, text, sizeof text, &length), WF_INVALID_ARGUMENT);

  /* A bad option fails the whole call, naming the request; NULL worlds and requests. */
  wf_grid_options_init(&bad);
  bad.heuristic = (wf_heuristic)77;
  requests[1].options = &bad;
  CHECK_STATUS(wf_batch_solve_grid(batch, grid, requests, 3, 1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(batch, "request 1");
  CHECK_STATUS(wf_batch_solve_grid(batch, NULL, requests, 3, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_grid(batch, grid, NULL, 3, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_grid(NULL, grid, requests, 3, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_navmesh(batch, NULL, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_navmesh(NULL, NULL, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_voxel(batch, NULL, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_voxel(NULL, NULL, NULL, 0, 1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_batch_solve_grid(batch, grid, NULL, 0, 1), WF_OK); /* an empty batch */
  CHECK_STATUS(wf_batch_count(batch, &count), WF_OK);
  CHECK(count == 0);

  {
    wf_navmesh* mesh = NULL;
    wf_navmesh_options options;
    wf_navmesh_request mesh_requests[2] = {{{0.2, 0.0, 0.8}, {1.5, 0.0, 1.8}, NULL}, {{0.2, 0.0, 0.8}, {1.5, 0.0, 1.8}, NULL}};
    CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_OK);
    wf_navmesh_options_init(&options);
    options.nodes = (wf_corridor_nodes)5;
    mesh_requests[1].options = &options;
    CHECK_STATUS(wf_batch_solve_navmesh(batch, mesh, mesh_requests, 2, 2), WF_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(batch, "request 1");
    options.nodes = WF_CORRIDOR_POLYGON_CENTROIDS;
    CHECK_STATUS(wf_batch_solve_navmesh(batch, mesh, mesh_requests, 2, 2), WF_OK);
    CHECK_STATUS(wf_batch_path_nodes(batch, 1, nodes, 16, &count), WF_OK);
    CHECK(count == 3 && nodes[2] == 2);
    CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  }
  {
    wf_voxel_world* world = NULL;
    int calls = 0;
    wf_voxel_options options;
    wf_voxel_request voxel_requests[1] = {{{1, 1, 1}, {6, 1, 6}, NULL}};
    CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 8, floor_world, &calls, &world, error, sizeof error),
                 WF_OK);
    wf_voxel_options_init(&options);
    options.limits.max_milliseconds = NAN;
    voxel_requests[0].options = &options;
    CHECK_STATUS(wf_batch_solve_voxel(batch, world, voxel_requests, 1, 1), WF_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(batch, "request 0");
    voxel_requests[0].options = NULL;
    CHECK_STATUS(wf_batch_solve_voxel(batch, world, voxel_requests, 1, 1), WF_OK);
    CHECK_STATUS(wf_batch_path_points(batch, 0, points, 16, &count), WF_OK);
    CHECK(count == 8 && points[21] == 6.0 && points[22] == 1.0 && points[23] == 6.0);
    CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
  }

  wf_batch_destroy(batch);
  wf_batch_destroy(NULL);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

/* Advances `crowd` by one tick of 0.1 s and reads its first `agents` agents (ids and velocities
 * may be NULL); returns whether every one of them has arrived. */
static int crowd_tick_all_arrived(wf_crowd* crowd, size_t agents, uint32_t* ids, double* positions, double* velocities,
                                  wf_crowd_agent_state* states) {
  size_t count = 0, i;
  CHECK_STATUS(wf_crowd_update(crowd, 0.1), WF_OK);
  CHECK_STATUS(wf_crowd_read_agents(crowd, ids, positions, velocities, states, agents, &count), WF_OK);
  for (i = 0; i < agents; ++i)
    if (states[i] != WF_CROWD_ARRIVED) return 0;
  return 1;
}

/* A flat square floor from -10 to 10 in x and z, in one polygon. */
static const float square_vertices[] = {-10.0f, 0.0f, -10.0f, 10.0f, 0.0f, -10.0f, 10.0f, 0.0f, 10.0f, -10.0f, 0.0f, 10.0f};
static const uint32_t square_indices[] = {0, 1, 2, 3};
static const uint32_t square_sizes[] = {4};

/* Eight agents on a circle of radius 5 each walk to the point opposite: every one arrives, and
 * no two ever overlap by more than 1 % of a radius. */
static void test_crowd_circle_swap(wf_navmesh* mesh) {
  enum { agents = 8 };
  /* The unit vectors at multiples of 45 degrees (no libm: the test links only the library). */
  const double h = 0.70710678118654752;
  const double unit[agents][2] = {{1, 0}, {h, h}, {0, 1}, {-h, h}, {-1, 0}, {-h, -h}, {0, -1}, {h, -h}};
  const double radius = 0.4;
  wf_crowd* crowd = NULL;
  wf_crowd_agent_settings body;
  uint32_t ids[agents], read_ids[agents];
  double positions[3 * agents], velocities[2 * agents];
  wf_crowd_agent_state states[agents];
  size_t count = 0, i, j;
  int tick, all_arrived = 0;
  double closest_squared = 1e300;
  char error[128];

  CHECK_STATUS(wf_crowd_create(mesh, NULL, &crowd, error, sizeof error), WF_OK);
  wf_crowd_agent_settings_init(&body);
  body.radius = radius;
  body.max_speed = 1.5;
  for (i = 0; i < agents; ++i) {
    const double start[3] = {5.0 * unit[i][0], 0.0, 5.0 * unit[i][1]};
    const double goal[3] = {-start[0], 0.0, -start[2]};
    body.user_id = 100 + i;
    CHECK_STATUS(wf_crowd_add_agent(crowd, start, &body, &ids[i]), WF_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, ids[i], goal), WF_OK);
  }
  CHECK_STATUS(wf_crowd_agent_count(crowd, &count), WF_OK);
  CHECK(count == agents);
  for (tick = 0; tick < 600 && !all_arrived; ++tick) {
    all_arrived = crowd_tick_all_arrived(crowd, agents, read_ids, positions, velocities, states);
    for (i = 0; i < agents; ++i) {
      for (j = i + 1; j < agents; ++j) {
        const double dx = positions[3 * i] - positions[3 * j], dz = positions[3 * i + 2] - positions[3 * j + 2];
        if (dx * dx + dz * dz < closest_squared) closest_squared = dx * dx + dz * dz;
      }
    }
  }
  CHECK(all_arrived);
  /* Centres at least two radii less 1 % of a radius apart. */
  CHECK(closest_squared >= (1.99 * radius) * (1.99 * radius));
  /* Arrived agents stand still. */
  CHECK_STATUS(wf_crowd_update(crowd, 0.1), WF_OK);
  CHECK_STATUS(wf_crowd_read_agents(crowd, read_ids, positions, velocities, states, agents, &count), WF_OK);
  for (i = 0; i < agents; ++i) {
    CHECK(read_ids[i] == ids[i]);
    CHECK_NEAR(positions[3 * i], -5.0 * unit[i][0], 0.2);
    CHECK_NEAR(positions[3 * i + 2], -5.0 * unit[i][1], 0.2);
    CHECK(states[i] == WF_CROWD_ARRIVED && velocities[2 * i] == 0.0 && velocities[2 * i + 1] == 0.0);
  }
  wf_crowd_destroy(crowd);
}

/* Two floors that do not touch (y = 0 and y = 3), joined by a ladder link: an agent climbs it as
 * a timed crossing (WF_CROWD_ON_LINK, progress growing from 0 to 1) and arrives upstairs. */
static void test_crowd_link_crossing(void) {
  static const float vertices[] = {0.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.0f, 4.0f, 0.0f, 2.0f, 0.0f, 0.0f, 2.0f,
                                   6.0f, 3.0f, 0.0f, 10.0f, 3.0f, 0.0f, 10.0f, 3.0f, 2.0f, 6.0f, 3.0f, 2.0f};
  static const uint32_t indices[] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const uint32_t sizes[] = {4, 4};
  wf_navmesh* mesh = NULL;
  wf_crowd* crowd = NULL;
  wf_crowd_settings settings;
  wf_off_mesh_link link;
  wf_crowd_link_crossing crossing;
  wf_crowd_link_event event = WF_CROWD_LINK_NONE;
  wf_crowd_agent_state state = WF_CROWD_IDLE;
  const double start[3] = {0.5, 0.0, 1.0}, goal[3] = {9.5, 3.0, 1.0};
  double position[3];
  uint32_t id = 0, read_id = 0;
  int32_t on_link = 0;
  size_t count = 0;
  int tick, started = 0, finished = 0;
  double last_progress = 0.0;
  char error[256];

  CHECK_STATUS(wf_navmesh_create(vertices, 8, 0, indices, 8, sizes, 2, &mesh, error, sizeof error), WF_OK);
  wf_off_mesh_link_init(&link);
  link.start[0] = 3.8; link.start[1] = 0.0; link.start[2] = 1.0;
  link.end[0] = 6.2; link.end[1] = 3.0; link.end[2] = 1.0;
  link.radius = 0.5;
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, &link, NULL), WF_OK);
  wf_crowd_settings_init(&settings);
  CHECK(settings.min_agents_per_thread == 256);
  settings.min_agents_per_thread = 1;
  CHECK_STATUS(wf_crowd_create(mesh, &settings, &crowd, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_crowd_add_agent(crowd, start, NULL, &id), WF_OK);
  CHECK_STATUS(wf_crowd_set_target(crowd, id, goal), WF_OK);
  for (tick = 0; tick < 200; ++tick) {
    CHECK_STATUS(wf_crowd_update(crowd, 0.1), WF_OK);
    CHECK_STATUS(wf_crowd_read_agents(crowd, &read_id, position, NULL, &state, 1, &count), WF_OK);
    CHECK_STATUS(wf_crowd_agent_link(crowd, id, &on_link, &crossing, &event), WF_OK);
    if (event == WF_CROWD_LINK_STARTED) {
      ++started;
      CHECK(on_link == 1 && crossing.progress == 0.0 && crossing.link == 0 && crossing.reverse == 0);
      CHECK_NEAR(crossing.end[1], 3.0, 1e-9);
    }
    if (on_link) {
      CHECK(state == WF_CROWD_ON_LINK);
      CHECK(crossing.progress >= last_progress && crossing.progress <= 1.0);
      last_progress = crossing.progress;
    }
    if (event == WF_CROWD_LINK_FINISHED) {
      ++finished;
      CHECK(on_link == 0);
    }
  }
  CHECK(started == 1 && finished == 1);
  CHECK(state == WF_CROWD_ARRIVED);
  CHECK_NEAR(position[1], 3.0, 1e-9);
  CHECK_STATUS(wf_crowd_agent_link(crowd, id + 1, NULL, NULL, NULL), WF_INVALID_ARGUMENT);
  wf_crowd_destroy(crowd);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

/* A crowd on a grid: a wall at column 8 with a door two cells wide (rows 3 and 4); two agents
 * each way cross it (jump point search), every one arrives, no centre is ever in a blocked cell,
 * and the grid cannot be destroyed while the crowd lives. */
static void test_crowd_on_grid(void) {
  enum { agents = 4 };
  const double starts[agents][3] = {{2.5, 0, 1.5}, {2.5, 0, 4.5}, {13.5, 0, 1.5}, {13.5, 0, 3.5}};
  const double goals[agents][3] = {{13.5, 0, 6.5}, {13.5, 0, 4.5}, {2.5, 0, 6.5}, {2.5, 0, 3.5}};
  wf_grid* grid = NULL;
  wf_crowd* crowd = (wf_crowd*)&failures;
  wf_crowd_agent_settings body;
  uint32_t ids[agents], read_ids[agents];
  double positions[3 * agents], velocities[2 * agents];
  wf_crowd_agent_state states[agents];
  size_t i;
  int tick, all_arrived = 0, in_wall = 0;
  char error[128];

  CHECK_STATUS(wf_grid_create(16, 8, &grid, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_set_passable(grid, 8, 0, 1, 3, 0), WF_OK);
  CHECK_STATUS(wf_grid_set_passable(grid, 8, 5, 1, 3, 0), WF_OK);
  CHECK_STATUS(wf_crowd_create_grid(NULL, NULL, 1, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(crowd == NULL && strstr(error, "grid handle is NULL") != NULL);
  CHECK_STATUS(wf_crowd_create_grid(grid, NULL, 1, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_create_grid((wf_grid*)&failures, NULL, 1, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_create_grid(grid, NULL, 1, &crowd, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_destroy(grid), WF_IN_USE);
  wf_crowd_agent_settings_init(&body);
  body.radius = 0.4;
  body.max_speed = 1.5;
  for (i = 0; i < agents; ++i) {
    CHECK_STATUS(wf_crowd_add_agent(crowd, starts[i], &body, &ids[i]), WF_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, ids[i], goals[i]), WF_OK);
  }
  for (tick = 0; tick < 600 && !all_arrived; ++tick) {
    all_arrived = crowd_tick_all_arrived(crowd, agents, read_ids, positions, velocities, states);
    for (i = 0; i < agents; ++i) {
      /* Column 8 is blocked but for rows 3 and 4. */
      if (positions[3 * i] >= 8.0 && positions[3 * i] < 9.0 && (positions[3 * i + 2] < 3.0 || positions[3 * i + 2] >= 5.0))
        in_wall = 1;
    }
  }
  CHECK(all_arrived);
  CHECK(!in_wall);
  for (i = 0; i < agents; ++i) {
    CHECK_NEAR(positions[3 * i], goals[i][0], 0.2);
    CHECK_NEAR(positions[3 * i + 2], goals[i][2], 0.2);
  }
  wf_crowd_destroy(crowd);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

/* Flow targets on a 24 x 12 grid walled at column 12 but for a door (rows 5 and 6): ten agents
 * on the left share one field towards the band of columns 20 to 22, all arrive through the door
 * with no path search, and no centre is ever in a blocked cell. Then the refusals. */
static void test_crowd_flow_targets(void) {
  enum { agents = 10, goal_count = 36 };
  wf_grid* grid = NULL;
  wf_navmesh* mesh = NULL;
  wf_crowd* crowd = NULL;
  wf_crowd* mesh_crowd = NULL;
  wf_crowd_flow_field* field = (wf_crowd_flow_field*)&failures;
  wf_crowd_flow_field* shut_field = NULL;
  wf_crowd_agent_settings body;
  int32_t goals[2 * goal_count], outside[2] = {24, 3}, blocked[2] = {12, 0};
  uint32_t ids[agents], requests = 99, mesh_agent = 0, shut_in = 0;
  double positions[3 * agents];
  const double origin[3] = {1.0, 0.0, 1.0}, corner[3] = {0.5, 0.0, 0.5};
  wf_crowd_agent_state states[agents];
  size_t i;
  int tick, all_arrived = 0, in_wall = 0;
  char error[160];

  CHECK_STATUS(wf_grid_create(24, 12, &grid, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_set_passable(grid, 12, 0, 1, 5, 0), WF_OK);
  CHECK_STATUS(wf_grid_set_passable(grid, 12, 7, 1, 5, 0), WF_OK);
  for (i = 0; i < goal_count; ++i) {
    goals[2 * i] = 20 + (int32_t)(i % 3);
    goals[2 * i + 1] = (int32_t)(i / 3);
  }
  CHECK_STATUS(wf_crowd_create_grid(grid, NULL, 0, &crowd, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, goals, goal_count, &field, error, sizeof error), WF_OK);
  wf_crowd_agent_settings_init(&body);
  body.radius = 0.4;
  body.max_speed = 1.5;
  for (i = 0; i < agents; ++i) {
    const double start[3] = {2.5 + (double)(i / 5) * 2.0, 0.0, 1.5 + (double)(i % 5) * 2.0};
    CHECK_STATUS(wf_crowd_add_agent(crowd, start, &body, &ids[i]), WF_OK);
    CHECK_STATUS(wf_crowd_set_flow_target(crowd, ids[i], field), WF_OK);
  }
  /* The agents keep the field: the handle may go at once, and the grid is free again. */
  wf_crowd_flow_field_destroy(field);
  for (tick = 0; tick < 1500 && !all_arrived; ++tick) {
    all_arrived = crowd_tick_all_arrived(crowd, agents, NULL, positions, NULL, states);
    for (i = 0; i < agents; ++i) {
      const double x = positions[3 * i], z = positions[3 * i + 2];
      if (x >= 12.0 && x < 13.0 && (z < 5.0 || z >= 7.0)) in_wall = 1;
    }
  }
  CHECK(all_arrived);
  CHECK(!in_wall);
  for (i = 0; i < agents; ++i) {
    CHECK(positions[3 * i] >= 20.0 && positions[3 * i] < 23.0);
    CHECK_STATUS(wf_crowd_agent_path_requests(crowd, ids[i], &requests), WF_OK);
    CHECK(requests == 0);
  }

  /* Bad goals, a mesh crowd, a field of another grid, an agent cut off from every goal. */
  field = (wf_crowd_flow_field*)&failures;
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, outside, 1, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(field == NULL && strstr(error, "wf_crowd_flow_field_create") != NULL && strstr(error, "outside") != NULL);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, blocked, 1, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "blocked") != NULL);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, goals, 0, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "no goals") != NULL);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, NULL, 3, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, goals, 1, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_flow_field_create(NULL, goals, 1, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_flow_field_create((wf_crowd*)grid, goals, 1, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "wf_grid") != NULL);
  CHECK_STATUS(wf_navmesh_create(square_vertices, 4, 0, square_indices, 4, square_sizes, 1, &mesh, error, sizeof error),
               WF_OK);
  CHECK_STATUS(wf_crowd_create(mesh, NULL, &mesh_crowd, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_crowd_flow_field_create(mesh_crowd, goals, 1, &field, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "navigation mesh") != NULL);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, goals, 1, &field, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_destroy(grid), WF_IN_USE);
  CHECK_STATUS(wf_crowd_add_agent(mesh_crowd, origin, NULL, &mesh_agent), WF_OK);
  CHECK_STATUS(wf_crowd_set_flow_target(mesh_crowd, mesh_agent, field), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(mesh_crowd, "navigation mesh");
  CHECK_STATUS(wf_crowd_agent_path_requests(mesh_crowd, mesh_agent, &requests), WF_OK);
  CHECK(requests == 0);
  CHECK_STATUS(wf_crowd_set_flow_target(crowd, 999, field), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "no agent has the id 999");
  CHECK_STATUS(wf_crowd_set_flow_target(crowd, ids[0], NULL), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "field is NULL");
  CHECK_STATUS(wf_crowd_set_flow_target(crowd, ids[0], (const wf_crowd_flow_field*)grid), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "wf_crowd_flow_field");
  CHECK_STATUS(wf_crowd_set_flow_target(NULL, ids[0], field), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_agent_path_requests(crowd, 999, &requests), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_agent_path_requests(crowd, ids[0], NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_agent_path_requests(NULL, ids[0], &requests), WF_INVALID_ARGUMENT);
  wf_crowd_destroy(mesh_crowd);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  {
    /* A second grid of the same size: its field is refused for this crowd. */
    wf_grid* other = NULL;
    wf_crowd* other_crowd = NULL;
    wf_crowd_flow_field* other_field = NULL;
    CHECK_STATUS(wf_grid_create(24, 12, &other, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_crowd_create_grid(other, NULL, 0, &other_crowd, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_crowd_flow_field_create(other_crowd, goals, 1, &other_field, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_crowd_set_flow_target(crowd, ids[0], other_field), WF_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(crowd, "another grid");
    wf_crowd_flow_field_destroy(other_field);
    wf_crowd_destroy(other_crowd);
    CHECK_STATUS(wf_grid_destroy(other), WF_OK);
  }
  /* Cell (0, 0) walled in: no goal can be reached from it. */
  CHECK_STATUS(wf_grid_set_passable(grid, 1, 0, 1, 2, 0), WF_OK);
  CHECK_STATUS(wf_grid_set_passable(grid, 0, 1, 1, 1, 0), WF_OK);
  CHECK_STATUS(wf_crowd_flow_field_create(crowd, goals, goal_count, &shut_field, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_crowd_add_agent(crowd, corner, &body, &shut_in), WF_OK);
  CHECK_STATUS(wf_crowd_set_flow_target(crowd, shut_in, shut_field), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "no goal of the field can be reached");
  wf_crowd_flow_field_destroy(shut_field);
  wf_crowd_flow_field_destroy(field);
  wf_crowd_flow_field_destroy(NULL);
  wf_crowd_destroy(crowd);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

static void test_crowds(void) {
  wf_navmesh* mesh = NULL;
  wf_crowd* crowd = (wf_crowd*)&failures;
  wf_crowd_settings settings;
  wf_crowd_agent_settings body;
  const double origin[3] = {0.0, 0.0, 0.0}, east[3] = {8.0, 0.0, 0.0}, far_away[3] = {100.0, 0.0, 100.0};
  const double nan_point[3] = {0.0, NAN, 0.0}, walk[2] = {1.0, 0.0}, nan_walk[2] = {NAN, 0.0};
  uint32_t id = 0, other = 0, ids[2];
  double positions[6];
  wf_crowd_agent_state states[2];
  size_t count = 99;
  char error[128];

  CHECK_STATUS(wf_navmesh_create(square_vertices, 4, 0, square_indices, 4, square_sizes, 1, &mesh, error, sizeof error),
               WF_OK);
  wf_crowd_settings_init(&settings);
  CHECK(settings.threads == 1 && settings.max_neighbours == 10 && settings.time_horizon == 2.0);
  wf_crowd_settings_init(NULL);
  wf_crowd_agent_settings_init(&body);
  CHECK(body.radius == 0.5 && body.height == 2.0 && body.max_speed == 3.5 && body.user_id == 0);
  wf_crowd_agent_settings_init(NULL);

  /* Creation: bad settings name the field; NULL arguments are refused. */
  settings.time_horizon = -1.0;
  CHECK_STATUS(wf_crowd_create(mesh, &settings, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(crowd == NULL && strstr(error, "time_horizon") != NULL);
  CHECK_STATUS(wf_crowd_create(NULL, NULL, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_create(mesh, NULL, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_create((wf_navmesh*)&failures, NULL, &crowd, error, sizeof error), WF_INVALID_ARGUMENT);
  wf_crowd_settings_init(&settings);
  settings.threads = 2;
  CHECK_STATUS(wf_crowd_create(mesh, &settings, &crowd, error, sizeof error), WF_OK);

  /* The crowd keeps its mesh: destroying the mesh is refused while the crowd lives. */
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_IN_USE);
  CHECK_ERROR_MENTIONS(mesh, "crowds");

  /* Agents: bad bodies and positions are refused with the field's name. */
  body.radius = -0.5;
  CHECK_STATUS(wf_crowd_add_agent(crowd, origin, &body, &id), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "radius");
  CHECK_STATUS(wf_crowd_add_agent(crowd, far_away, NULL, &id), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_add_agent(crowd, nan_point, NULL, &id), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "not finite");
  CHECK_STATUS(wf_crowd_add_agent(crowd, NULL, NULL, &id), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_add_agent(crowd, origin, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_add_agent(NULL, origin, NULL, &id), WF_INVALID_ARGUMENT);
  wf_crowd_agent_settings_init(&body);
  body.user_id = 7;
  CHECK_STATUS(wf_crowd_add_agent(crowd, origin, &body, &id), WF_OK);
  CHECK_STATUS(wf_crowd_add_agent(crowd, east, NULL, &other), WF_OK);
  CHECK(other > id);

  /* Targets: NaN, off the mesh, unknown ids and NULL points are refused. */
  CHECK_STATUS(wf_crowd_set_target(crowd, id, nan_point), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "not finite");
  CHECK_STATUS(wf_crowd_set_target(crowd, id, far_away), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "snap distance");
  CHECK_STATUS(wf_crowd_set_target(crowd, 999, east), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "no agent has the id 999");
  CHECK_STATUS(wf_crowd_set_target(crowd, id, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_set_velocity_target(crowd, 999, walk), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "no agent has the id 999");
  CHECK_STATUS(wf_crowd_set_velocity_target(crowd, id, nan_walk), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_set_velocity_target(crowd, id, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_remove_agent(crowd, 999), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "no agent has the id 999");
  CHECK_STATUS(wf_crowd_set_target(crowd, id, east), WF_OK);
  CHECK_STATUS(wf_crowd_set_velocity_target(crowd, other, walk), WF_OK);

  /* Updates: dt must be finite and > 0. */
  CHECK_STATUS(wf_crowd_update(crowd, 0.0), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_update(crowd, NAN), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_update(NULL, 0.1), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_update(crowd, 0.1), WF_OK);

  /* Reading: the size query, NULL buffers with a capacity, a short buffer, then the agents. */
  CHECK_STATUS(wf_crowd_read_agents(crowd, NULL, NULL, NULL, NULL, 0, &count), WF_OK);
  CHECK(count == 2);
  CHECK_STATUS(wf_crowd_read_agents(crowd, NULL, NULL, NULL, NULL, 2, &count), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(crowd, "NULL");
  CHECK_STATUS(wf_crowd_read_agents(crowd, ids, NULL, NULL, NULL, 1, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_crowd_read_agents(crowd, ids, NULL, NULL, NULL, 2, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_read_agents(NULL, ids, NULL, NULL, NULL, 2, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_read_agents(crowd, ids, positions, NULL, states, 2, &count), WF_OK);
  CHECK(ids[0] == id && ids[1] == other);
  CHECK(states[0] == WF_CROWD_MOVING && states[1] == WF_CROWD_MOVING);
  CHECK(positions[0] > 0.0 && positions[3] > 8.0);  /* both walked east */
  CHECK_STATUS(wf_crowd_agent_count(NULL, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_agent_count(crowd, NULL), WF_INVALID_ARGUMENT);

  /* A removed agent is gone and its id unknown. */
  CHECK_STATUS(wf_crowd_remove_agent(crowd, id), WF_OK);
  CHECK_STATUS(wf_crowd_remove_agent(crowd, id), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_remove_agent(NULL, id), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_crowd_agent_count(crowd, &count), WF_OK);
  CHECK(count == 1);

  /* A crowd handle is not a mesh handle and the other way round. */
  CHECK_STATUS(wf_crowd_update((wf_crowd*)mesh, 0.1), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(mesh, "a wf_navmesh was given where a wf_crowd is needed");
  wf_crowd_destroy((wf_crowd*)mesh);
  wf_crowd_destroy(crowd);
  wf_crowd_destroy(NULL);

  test_crowd_circle_swap(mesh);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
  test_crowd_link_crossing();
}

/* ---- agents larger than one cell, off-mesh links, exact mesh paths ---- */

static void test_grid_agent_sizes(void) {
  char error[256], path[1024], line[512];
  wf_grid* grid = NULL;
  wf_grid_query* query = NULL;
  wf_grid_derived* derived = NULL;
  wf_grid_options options;
  wf_path_result result, plain;
  int32_t cells[2 * 64];
  size_t count = 0, i;
  FILE* scenario;
  int row = 0, compared = 0;

  /* 6 x 4, a wall at (2, 1): a 2 x 2 agent, whose body covers its top-left cell (x, y) to (x + 1, y + 1),
   * cannot stand with x in 1..2 and y in 0..1, so it goes round below, along rows 2-3. */
  CHECK_STATUS(wf_grid_create(6, 4, &grid, error, sizeof error), WF_OK);
  if (grid == NULL) return;
  CHECK_STATUS(wf_grid_set_passable(grid, 2, 1, 1, 1, 0), WF_OK);
  CHECK_STATUS(wf_grid_query_create(grid, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_query_set_agent_size(query, 0), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(query, "agent_size");
  CHECK_STATUS(wf_grid_query_set_agent_size(query, 256), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_set_agent_size(NULL, 2), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_set_agent_size(query, 2), WF_OK);
  /* Without the clearance the query says what to build. */
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 2, 4, 2, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_INVALID_INPUT);
  wf_grid_options_init(&options);
  CHECK_STATUS(wf_grid_derived_create(grid, &options, &derived, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_derived_add_agent_size(derived, &options, 300), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_derived_add_agent_size(NULL, &options, 2), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_derived_add_agent_size(derived, &options, 2), WF_OK);
  CHECK_STATUS(wf_grid_query_set_derived(query, derived), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 2, 4, 2, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_grid_query_path_cells(query, cells, 64, &count), WF_OK);
  CHECK(count >= 2 && cells[0] == 0 && cells[1] == 2 && cells[2 * count - 2] == 4 && cells[2 * count - 1] == 2);
  for (i = 0; i < count; ++i) CHECK(!(cells[2 * i] >= 1 && cells[2 * i] <= 2 && cells[2 * i + 1] <= 1));
  /* A body that does not fit at the goal (its cell (2, 1) is the wall) is refused. */
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 2, 1, 0, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_grid_query_set_agent_size(query, 1), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 2, 1, 0, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  wf_grid_query_destroy(query);
  wf_grid_derived_destroy(derived);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);

  /* arena2: a 2 x 2 agent's JPS+ paths are A*'s optimum, never shorter than a one-cell agent's. */
  if (!data_file(path, sizeof path, "movingai/dao/arena2.map")) return;
  grid = NULL;
  query = NULL;
  derived = NULL;
  CHECK_STATUS(wf_grid_load_movingai(path, &grid, error, sizeof error), WF_OK);
  if (grid == NULL) return;
  CHECK_STATUS(wf_grid_query_create(grid, &query, error, sizeof error), WF_OK);
  wf_grid_options_init(&options);
  options.algorithm = WF_GRID_JUMP_POINT_PLUS;
  CHECK_STATUS(wf_grid_derived_create(grid, &options, &derived, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_derived_add_agent_size(derived, &options, 2), WF_OK);
  CHECK_STATUS(wf_grid_query_set_derived(query, derived), WF_OK);
  CHECK(data_file(path, sizeof path, "movingai/dao/arena2.map.scen"));
  scenario = fopen(path, "r");
  if (scenario != NULL) {
    while (fgets(line, sizeof line, scenario) != NULL && row < 400) {
      int bucket, width, height, sx, sy, gx, gy;
      double optimal;
      char map[128];
      wf_grid_options astar;
      if (sscanf(line, "%d %127s %d %d %d %d %d %d %lf", &bucket, map, &width, &height, &sx, &sy, &gx, &gy,
                 &optimal) != 9)
        continue;
      if (row++ % 4 != 0) continue;
      wf_grid_options_init(&astar);
      CHECK_STATUS(wf_grid_query_set_agent_size(query, 1), WF_OK);
      CHECK_STATUS(wf_grid_query_find_path(query, sx, sy, gx, gy, &astar, &plain), WF_OK);
      CHECK(plain.status == WF_SEARCH_FOUND);
      CHECK_NEAR(plain.cost, optimal, 1e-4 + 1e-5 * optimal);
      CHECK_STATUS(wf_grid_query_set_agent_size(query, 2), WF_OK);
      CHECK_STATUS(wf_grid_query_find_path(query, sx, sy, gx, gy, &options, &result), WF_OK);
      if (result.status != WF_SEARCH_FOUND) {
        CHECK(result.status == WF_SEARCH_INVALID_INPUT || result.status == WF_SEARCH_NO_PATH);
        continue;
      }
      ++compared;
      CHECK(result.cost >= plain.cost - 1e-9);
      CHECK_STATUS(wf_grid_query_find_path(query, sx, sy, gx, gy, &astar, &plain), WF_OK);
      CHECK(plain.status == WF_SEARCH_FOUND);
      CHECK_NEAR(result.cost, plain.cost, 1e-9 * (1.0 + plain.cost));
    }
    fclose(scenario);
  }
  CHECK(compared > 50);
  wf_grid_query_destroy(query);
  wf_grid_derived_destroy(derived);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);
}

/* Two 10 x 10 floors sharing no edge: the upper one 4 above, over x in [20, 30]. */
static wf_navmesh* two_floors(void) {
  static const float vertices[] = {0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10, 20, 4, 0, 30, 4, 0, 30, 4, 10, 20, 4, 10};
  static const uint32_t indices[] = {0, 3, 2, 1, 4, 7, 6, 5};
  static const uint32_t sizes[] = {4, 4};
  char error[256];
  wf_navmesh* mesh = NULL;
  CHECK_STATUS(wf_navmesh_create(vertices, 8, 0, indices, 8, sizes, 2, &mesh, error, sizeof error), WF_OK);
  return mesh;
}

static void test_off_mesh_links(void) {
  char error[256];
  wf_navmesh* mesh = two_floors();
  wf_navmesh* other = two_floors();
  wf_navmesh_query* query = NULL;
  wf_off_mesh_link link;
  wf_path_link taken[4];
  wf_path_result result;
  wf_navmesh_options options;
  double points[3 * 16];
  double low[3] = {1, 0, 5}, high[3] = {29, 4, 5};
  uint32_t id = 99;
  size_t count = 0, added = 0;
  const char* file;

  if (mesh == NULL || other == NULL) return;
  wf_off_mesh_link_init(&link);
  CHECK(link.bidirectional == 1 && link.radius == 1.0 && link.cost < 0.0 && link.area == 0 && link.user_id == 0);
  wf_off_mesh_link_init(NULL);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, high, low, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_NO_PATH);

  /* A one-way jump down from the upper floor. */
  link.start[0] = 21, link.start[1] = 4, link.start[2] = 5;
  link.end[0] = 9, link.end[1] = 0, link.end[2] = 5;
  link.bidirectional = 0;
  link.user_id = 17;
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, &link, &id), WF_OK);
  CHECK(id == 0);
  CHECK_STATUS(wf_navmesh_off_mesh_link_count(mesh, &count), WF_OK);
  CHECK(count == 1);
  CHECK_STATUS(wf_navmesh_query_find_path(query, high, low, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_NEAR(result.cost, 8.0 + sqrt(12.0 * 12.0 + 4.0 * 4.0) + 8.0, 1e-9);
  CHECK_STATUS(wf_navmesh_query_path_links(query, taken, 4, &count), WF_OK);
  CHECK(count == 1 && taken[0].link == 0 && taken[0].reverse == 0 && taken[0].polygon == 0);
  CHECK_STATUS(wf_navmesh_query_path_points(query, points, 16, &count), WF_OK);
  CHECK(points[3 * taken[0].waypoint] == 21.0 && points[3 * (taken[0].waypoint + 1)] == 9.0);
  CHECK_STATUS(wf_navmesh_query_path_links(query, taken, 0, &count), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_navmesh_query_path_links(query, NULL, 0, &count), WF_OK);
  CHECK_STATUS(wf_navmesh_query_path_links(NULL, taken, 4, &count), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_query_find_path(query, low, high, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_NO_PATH);
  /* The exact search follows shared edges only: a mesh with links is refused. */
  wf_navmesh_options_init(&options);
  options.nodes = WF_CORRIDOR_OPTIMAL;
  CHECK_STATUS(wf_navmesh_query_find_path(query, high, low, &options, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_INVALID_INPUT);

  /* An end with no mesh near, a negative radius, a bad area: refused, nothing added. */
  link.start[0] = 50;
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, &link, &id), WF_INVALID_ARGUMENT);
  link.start[0] = 21, link.radius = -1;
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, &link, NULL), WF_INVALID_ARGUMENT);
  link.radius = 1, link.area = WF_MAX_AREAS;
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, &link, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(mesh, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_add_off_mesh_link(NULL, &link, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_navmesh_off_mesh_link_count(mesh, &count), WF_OK);
  CHECK(count == 1);
  CHECK_STATUS(wf_navmesh_off_mesh_link_count(mesh, NULL), WF_INVALID_ARGUMENT);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);

  /* A links file: a ladder both ways. A bad line, or a link that cannot be placed, adds nothing. */
  file = scratch_file("bad.links", "9 0 5 21 4 5 both\n9 0 5 21 4 sideways\n");
  CHECK_STATUS(wf_navmesh_add_off_mesh_links_file(other, file, &added), WF_LOAD_ERROR);
  CHECK_ERROR_MENTIONS(other, ":2");
  file = scratch_file("far.links", "9 0 5 21 4 5 both\n9 0 5 80 4 5\n");
  CHECK_STATUS(wf_navmesh_add_off_mesh_links_file(other, file, &added), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(other, "far.links:2");
  CHECK_STATUS(wf_navmesh_off_mesh_link_count(other, &count), WF_OK);
  CHECK(count == 0);
  CHECK_STATUS(wf_navmesh_add_off_mesh_links_file(other, "no/such.links", &added), WF_LOAD_ERROR);
  CHECK_STATUS(wf_navmesh_add_off_mesh_links_file(other, NULL, &added), WF_INVALID_ARGUMENT);
  file = scratch_file("ladder.links", "# a ladder\n9 0 5   21 4 5   both radius=0.5 id=3\n");
  CHECK_STATUS(wf_navmesh_add_off_mesh_links_file(other, file, &added), WF_OK);
  CHECK(added == 1);
  CHECK_STATUS(wf_navmesh_query_create(other, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, low, high, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_navmesh_query_find_path(query, high, low, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_navmesh_query_path_links(query, taken, 4, &count), WF_OK);
  CHECK(count == 1 && taken[0].reverse != 0);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(other), WF_OK);
}

static void test_navmesh_exact_paths(void) {
  char path[1024], line[512], error[256];
  FILE* queries;
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* query = NULL;
  wf_navmesh_options options;
  wf_path_result result;
  uint32_t polygons[512], start_polygon = 0;
  size_t count = 0;
  int row = 0, checked = 0;

  if (!data_file(path, sizeof path, "meshes/derived/dungeon_navmesh.obj")) {
    printf("dungeon_navmesh.obj not found: exact paths skipped\n");
    return;
  }
  CHECK_STATUS(wf_navmesh_load_obj(path, 0, &mesh, error, sizeof error), WF_OK);
  if (mesh == NULL) return;
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  wf_navmesh_options_init(&options);
  options.nodes = WF_CORRIDOR_OPTIMAL;
  CHECK(data_file(path, sizeof path, "meshes/derived/dungeon_reference_queries.csv"));
  queries = fopen(path, "r");
  if (queries != NULL) {
    while (fgets(line, sizeof line, queries) != NULL) {
      int id, sp, ep, reachable, npolys, nstraight;
      double start[3], goal[3], len3d, len2d, optimal;
      if (sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%d,%d,%d,%d,%d,%lf,%lf,%lf", &id, &start[0], &start[1], &start[2],
                 &goal[0], &goal[1], &goal[2], &sp, &ep, &reachable, &npolys, &nstraight, &len3d, &len2d,
                 &optimal) != 15)
        continue;
      if (row++ % 50 != 0) continue;
      CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, &options, &result), WF_OK);
      CHECK((result.status == WF_SEARCH_FOUND) == (reachable == 1));
      if (result.status != WF_SEARCH_FOUND) continue;
      ++checked;
      CHECK_NEAR(result.cost, optimal, 1e-6 * (optimal > 1.0 ? optimal : 1.0));
      CHECK(result.cost <= len2d * (1.0 + 1e-6) + 5e-7);
      CHECK_STATUS(wf_navmesh_query_path_polygons(query, polygons, 512, &count), WF_OK);
      CHECK_STATUS(wf_navmesh_locate(mesh, start, 4.0, &start_polygon, NULL), WF_OK);
      CHECK(count == result.node_count && count >= 1 && polygons[0] == start_polygon);
    }
    fclose(queries);
  }
  CHECK(checked > 50);
  wf_navmesh_query_destroy(query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);
}

/* Search traces: recorded only when asked, one closed event per expansion, the start opened
   first; a limit keeps the first events and counts them all; each search replaces the last. */
static void test_search_traces(void) {
  wf_grid* grid = make_walled_grid();
  wf_grid_query* query = NULL;
  wf_navmesh* mesh = NULL;
  wf_navmesh_query* mesh_query = NULL;
  wf_voxel_world* world = NULL;
  wf_voxel_query* voxel_query = NULL;
  wf_path_result path;
  double events[4 * 512], first[4 * 3];
  size_t count = 0, recorded = 0, all = 0, closed = 0, i;
  char error[256];
  uint8_t blocks[8 * 4 * 8] = {0};
  int32_t from[3] = {0, 1, 0}, to[3] = {7, 1, 7};
  double start[3] = {0.2, 0.0, 0.8}, goal[3] = {1.5, 0.0, 1.8};

  CHECK_STATUS(wf_grid_query_create(grid, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK_STATUS(wf_grid_query_trace(query, NULL, 0, &count, &recorded), WF_OK);
  CHECK(count == 0 && recorded == 0);
  CHECK_STATUS(wf_grid_query_set_trace(NULL, 100), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_set_trace(query, 512), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_grid_query_trace(query, NULL, 0, &count, &recorded), WF_OK);
  CHECK(count > 0 && count == recorded && count <= 512);
  all = count;
  CHECK_STATUS(wf_grid_query_trace(query, events, count - 1, &count, NULL), WF_BUFFER_TOO_SMALL);
  CHECK_STATUS(wf_grid_query_trace(query, events, 512, NULL, NULL), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_grid_query_trace(query, events, 512, &count, NULL), WF_OK);
  CHECK(events[0] == 0.0 && events[1] == 0.0 && events[2] == 4.0 && events[3] == 0.0); /* the start, opened */
  for (i = 0; i < count; ++i) {
    CHECK(events[4 * i] >= 0.0 && events[4 * i] <= 2.0);
    CHECK(events[4 * i + 1] >= 0.0 && events[4 * i + 1] < 5.0 && events[4 * i + 2] >= 0.0 && events[4 * i + 2] < 5.0);
    if (events[4 * i] == 2.0) ++closed;
  }
  CHECK(closed == path.stats.expanded);
  /* A limit of 3 keeps the same first three events and counts them all. */
  CHECK_STATUS(wf_grid_query_set_trace(query, 3), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK_STATUS(wf_grid_query_trace(query, first, 3, &count, &recorded), WF_OK);
  CHECK(count == 3 && recorded == all && memcmp(first, events, sizeof first) == 0);
  CHECK_STATUS(wf_grid_query_set_trace(query, 0), WF_OK);
  CHECK_STATUS(wf_grid_query_find_path(query, 0, 4, 4, 4, NULL, &path), WF_OK);
  CHECK_STATUS(wf_grid_query_trace(query, NULL, 0, &count, &recorded), WF_OK);
  CHECK(count == 0 && recorded == 0);
  wf_grid_query_destroy(query);
  CHECK_STATUS(wf_grid_destroy(grid), WF_OK);

  /* The mesh's corridor nodes lie on the L-shaped mesh. */
  CHECK_STATUS(wf_navmesh_create(l_vertices, 8, 16, l_indices, 12, l_sizes, 3, &mesh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &mesh_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_set_trace(mesh_query, 512), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(mesh_query, start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_STATUS(wf_navmesh_query_trace(mesh_query, events, 512, &count, &recorded), WF_OK);
  CHECK(count > 0 && count == recorded);
  for (i = 0; i < count; ++i)
    CHECK(events[4 * i + 1] >= 0.0 && events[4 * i + 1] <= 2.0 && events[4 * i + 3] >= 0.0 && events[4 * i + 3] <= 2.0);
  CHECK_STATUS(wf_navmesh_query_trace(NULL, events, 512, &count, &recorded), WF_INVALID_ARGUMENT);
  wf_navmesh_query_destroy(mesh_query);
  CHECK_STATUS(wf_navmesh_destroy(mesh), WF_OK);

  /* A flyer over a floor: blocks, stepped. */
  for (i = 0; i < 64; ++i) blocks[i] = WF_BLOCK_SOLID;
  CHECK_STATUS(wf_voxel_world_create(8, 4, 8, blocks, &world, error, sizeof error), WF_OK);
  {
    wf_movement_profile flyer;
    wf_search_status status;
    wf_movement_profile_flyer(&flyer);
    CHECK_STATUS(wf_voxel_query_create(world, &flyer, &voxel_query, error, sizeof error), WF_OK);
    CHECK_STATUS(wf_voxel_query_set_trace(voxel_query, 512), WF_OK);
    CHECK_STATUS(wf_voxel_query_begin(voxel_query, from, to, NULL, &status), WF_OK);
    while (status == WF_SEARCH_IN_PROGRESS) CHECK_STATUS(wf_voxel_query_step(voxel_query, 2, 0.0, &status), WF_OK);
    CHECK_STATUS(wf_voxel_query_result(voxel_query, &path), WF_OK);
    CHECK(path.status == WF_SEARCH_FOUND);
  }
  CHECK_STATUS(wf_voxel_query_trace(voxel_query, events, 512, &count, &recorded), WF_OK);
  CHECK(count > 0 && events[0] == 0.0 && events[1] == 0.0 && events[2] == 1.0 && events[3] == 0.0);
  for (closed = 0, i = 0; i < count; ++i) if (events[4 * i] == 2.0) ++closed;
  CHECK(closed == path.stats.expanded);
  CHECK_STATUS(wf_voxel_query_set_trace(NULL, 1), WF_INVALID_ARGUMENT);
  wf_voxel_query_destroy(voxel_query);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
}

/* ---- level geometry from arrays, and voxel hierarchies brought up to date ---- */

/* A mesh's answer to one query: its cost and waypoints (at most 32). */
typedef struct mesh_answer {
  size_t vertices, polygons, point_count;
  double cost, points[96];
} mesh_answer;

static mesh_answer answer_of(wf_navmesh* mesh) {
  const double start[3] = {1, 0, 10}, goal[3] = {19, 0, 10};
  mesh_answer answer;
  wf_navmesh_query* query = NULL;
  wf_path_result result;
  char error[256];
  memset(&answer, 0, sizeof answer);
  CHECK_STATUS(wf_navmesh_counts(mesh, &answer.vertices, &answer.polygons, NULL), WF_OK);
  CHECK_STATUS(wf_navmesh_query_create(mesh, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_navmesh_query_find_path(query, start, goal, NULL, &result), WF_OK);
  CHECK(result.status == WF_SEARCH_FOUND);
  answer.cost = result.cost;
  CHECK_STATUS(wf_navmesh_query_path_points(query, answer.points, 32, &answer.point_count), WF_OK);
  wf_navmesh_query_destroy(query);
  return answer;
}

/* Arrays that the build refuses, each with the words the reason must contain; mesh and report
   are cleared. Run with and without Recast: the arrays are checked before the build. */
static void check_refused_arrays(const wf_agent_settings* settings) {
  static const int32_t out_of_range[] = {0, 2, 1, 0, 3, 12};
  static const int32_t negative[] = {0, 2, 1, -1, 3, 2};
  float with_nan[36], with_infinity[36];
  wf_navmesh* mesh = (wf_navmesh*)&failures;
  wf_navmesh_build_report report;
  char error[256];
  memcpy(with_nan, box_level_vertices, sizeof with_nan);
  memcpy(with_infinity, box_level_vertices, sizeof with_infinity);
  with_nan[3 * 4 + 1] = (float)NAN;
  with_infinity[3 * 7 + 2] = (float)-HUGE_VAL;
  report.polygons = 99;

#define CHECK_REFUSED(vertices, vertex_count, triangles, triangle_count, words)                              \
  do {                                                                                                     \
    CHECK_STATUS(wf_navmesh_build_geometry(vertices, vertex_count, triangles, triangle_count, settings,     \
                                           &report, &mesh, error, sizeof error),                            \
                 WF_INVALID_ARGUMENT);                                                                      \
    CHECK(mesh == NULL && report.polygons == 0);                                                            \
    if (strstr(error, words) == NULL) {                                                                     \
      fprintf(stderr, "%s:%d: the reason \"%s\" does not say \"%s\"\n", __FILE__, __LINE__, error, words);  \
      ++failures;                                                                                           \
    }                                                                                                       \
  } while (0)

  CHECK_REFUSED(NULL, 12, box_level_triangles, 12, "vertices is NULL");
  CHECK_REFUSED(box_level_vertices, 12, NULL, 12, "triangles is NULL");
  CHECK_REFUSED(box_level_vertices, 0, box_level_triangles, 12, "vertex_count is 0");
  CHECK_REFUSED(box_level_vertices, 12, box_level_triangles, 0, "triangle_count is 0");
  CHECK_REFUSED(box_level_vertices, 12, box_level_triangles, (size_t)-1 / 2, "more than Recast takes");
  CHECK_REFUSED(with_nan, 12, box_level_triangles, 12, "vertex 4 has y = NaN");
  CHECK_REFUSED(with_infinity, 12, box_level_triangles, 12, "vertex 7 has z = -inf");
  CHECK_REFUSED(box_level_vertices, 12, out_of_range, 2, "triangle 1 has corner 12 (triangles[5])");
  CHECK_REFUSED(box_level_vertices, 12, out_of_range, 2, "from 0 to 11");
  CHECK_REFUSED(box_level_vertices, 12, negative, 2, "triangle 1 has corner -1 (triangles[3])");
#undef CHECK_REFUSED
  /* No output pointer; no error buffer (the status alone). */
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, settings, NULL, NULL, error,
                                         sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(strstr(error, "output pointer is NULL") != NULL);
  CHECK_STATUS(wf_navmesh_build_geometry(NULL, 12, box_level_triangles, 12, settings, NULL, &mesh, NULL, 0),
               WF_INVALID_ARGUMENT);
}

/* A mesh built from the level's arrays is the one built from its OBJ file: the same counts, and
   the same path around the box; the build's report says what it did. */
static void test_navmesh_from_level_arrays(void) {
  wf_agent_settings settings;
  wf_navmesh* from_file = NULL;
  wf_navmesh* from_arrays = NULL;
  wf_navmesh_build_report report;
  mesh_answer file_answer, arrays_answer;
  char error[512];
  wf_status status;
  const char* level = scratch_file("box_level.obj", box_level_obj);
  wf_agent_settings_init(&settings);
  check_refused_arrays(&settings);
  check_refused_arrays(NULL);
  memset(&report, 0xff, sizeof report);
  status = wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, &settings, &report, &from_arrays,
                                     error, sizeof error);
  if (status == WF_INTERNAL_ERROR && strstr(error, "Recast") != NULL) {
    printf("built without Recast: navmesh building from arrays skipped (%s)\n", error);
    CHECK(from_arrays == NULL && report.polygons == 0);
    remove(level);
    return;
  }
  CHECK_STATUS(status, WF_OK);
  CHECK_STATUS(wf_navmesh_build_obj(level, 0, &settings, &from_file, error, sizeof error), WF_OK);
  remove(level);
  file_answer = answer_of(from_file);
  arrays_answer = answer_of(from_arrays);
  CHECK(arrays_answer.polygons >= 2 && arrays_answer.polygons == file_answer.polygons);
  CHECK(arrays_answer.vertices == file_answer.vertices);
  CHECK(arrays_answer.cost > 18.0 && arrays_answer.cost < 24.0); /* around the box, not through it */
  CHECK(arrays_answer.cost == file_answer.cost);
  CHECK(arrays_answer.point_count >= 3 && arrays_answer.point_count == file_answer.point_count);
  CHECK(memcmp(arrays_answer.points, file_answer.points, 3 * file_answer.point_count * sizeof(double)) == 0);
  /* The report: every triangle read, the floor and the box's top walkable, one piece. */
  CHECK(report.input_triangles == 12);
  CHECK(report.walkable_triangles == 4);
  CHECK(report.tiles == 1);
  CHECK(report.grid_width >= 66 && report.grid_width <= 68 && report.grid_depth == report.grid_width);
  CHECK(report.polygons >= 2 && report.vertices >= 3 && report.detail_triangles >= report.polygons);
  CHECK(report.border_vertices_added == 0);
  CHECK(report.milliseconds >= 0.0 && report.milliseconds < 60000.0);
  CHECK_STATUS(wf_navmesh_destroy(from_arrays), WF_OK);

  /* Settings NULL are the defaults; the report may be NULL. */
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, NULL, NULL, &from_arrays,
                                         error, sizeof error),
               WF_OK);
  arrays_answer = answer_of(from_arrays);
  CHECK(arrays_answer.polygons == file_answer.polygons && arrays_answer.cost == file_answer.cost);
  CHECK_STATUS(wf_navmesh_destroy(from_arrays), WF_OK);
  CHECK_STATUS(wf_navmesh_destroy(from_file), WF_OK);

  /* Tiles: the report counts them and the vertices welded along their borders. */
  settings.tile_size = 16;
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, &settings, &report,
                                         &from_arrays, error, sizeof error),
               WF_OK);
  CHECK(report.tiles >= 16);
  arrays_answer = answer_of(from_arrays);
  CHECK(arrays_answer.cost > 18.0 && arrays_answer.cost < 24.0);
  CHECK_STATUS(wf_navmesh_destroy(from_arrays), WF_OK);

  /* Degenerate settings: refused naming the field, nothing made. */
  wf_agent_settings_init(&settings);
  settings.cell_size = 0.0;
  report.polygons = 99;
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, &settings, &report,
                                         &from_arrays, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(from_arrays == NULL && report.polygons == 0 && strstr(error, "cell_size") != NULL);
  wf_agent_settings_init(&settings);
  settings.agent_height = NAN;
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, &settings, NULL,
                                         &from_arrays, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(from_arrays == NULL && strstr(error, "agent_height") != NULL);
  wf_agent_settings_init(&settings);
  settings.vertices_per_polygon = 2;
  CHECK_STATUS(wf_navmesh_build_geometry(box_level_vertices, 12, box_level_triangles, 12, &settings, NULL,
                                         &from_arrays, error, sizeof error),
               WF_INVALID_ARGUMENT);
  CHECK(from_arrays == NULL && strstr(error, "vertices_per_polygon") != NULL);
}

/* A 16 x 4 x 16 world: a floor at y = 0, air above. */
static int open_floor(void* user_data, int x, int y, int z) {
  (void)user_data;
  (void)x;
  (void)z;
  return y == 0 ? WF_BLOCK_SOLID : WF_BLOCK_AIR;
}

/* A floor and a wall across x = 4 with a one-column gap at z = 2 and a two-column gap at
   z = 7 and 8: a narrow walker takes the near gap, a two-wide one only fits the far one. */
static int wall_with_gaps(void* user_data, int x, int y, int z) {
  (void)user_data;
  if (y == 0) return WF_BLOCK_SOLID;
  return x == 4 && z != 2 && z != 7 && z != 8 ? WF_BLOCK_SOLID : WF_BLOCK_AIR;
}

/* One footprint world shared by two queries of wide walkers (on wall_with_gaps, 4 high): their
   own footprint's path, refused by name once the world is edited until it is brought up to date,
   then the edit's effect; refusals of a width of 1, no profile and another world's footprint. */
static void test_voxel_shared_footprint(wf_voxel_world* world, const wf_movement_profile* narrow,
                                        const wf_movement_profile* wide, double wide_cost) {
  wf_voxel_footprint* footprint = NULL;
  wf_voxel_footprint* refused = NULL;
  wf_voxel_footprint* elsewhere = NULL;
  wf_voxel_world* other = NULL;
  wf_voxel_query* queries[2] = {NULL, NULL};
  wf_path_result path;
  int32_t start[3] = {1, 1, 1}, goal[3] = {6, 1, 1};
  size_t changed = 99, length = 0;
  char error[256], message[512];
  int k;

  CHECK_STATUS(wf_voxel_footprint_create(world, wide, &footprint, error, sizeof error), WF_OK);
  for (k = 0; k < 2; ++k) {
    CHECK_STATUS(wf_voxel_query_create(world, wide, &queries[k], error, sizeof error), WF_OK);
    CHECK_STATUS(wf_voxel_query_set_footprint(queries[k], footprint), WF_OK);
    CHECK_STATUS(wf_voxel_query_find_path(queries[k], start, goal, NULL, &path), WF_OK);
    CHECK(path.status == WF_SEARCH_FOUND);
    CHECK_NEAR(path.cost, wide_cost, 1e-9);
  }
  CHECK_STATUS(wf_voxel_footprint_update(footprint, &changed), WF_OK);
  CHECK(changed == 0);
  /* Close the two-column gap to the top (one block would be a step up): the wide walker has
     no way left. */
  for (k = 1; k < 4; ++k) CHECK_STATUS(wf_voxel_world_set_block(world, 4, k, 7, WF_BLOCK_SOLID), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(queries[0], start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT);
  CHECK_STATUS(wf_voxel_query_message(queries[0], message, sizeof message, &length), WF_OK);
  CHECK(strstr(message, "is behind its world") != NULL);
  CHECK_STATUS(wf_voxel_footprint_update(footprint, &changed), WF_OK);
  CHECK(changed > 0);
  for (k = 0; k < 2; ++k) {
    CHECK_STATUS(wf_voxel_query_find_path(queries[k], start, goal, NULL, &path), WF_OK);
    CHECK(path.status == WF_SEARCH_NO_PATH);
  }
  /* Without the shared one, a query makes its own again: the same answer. */
  CHECK_STATUS(wf_voxel_query_set_footprint(queries[1], NULL), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(queries[1], start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_NO_PATH);
  for (k = 1; k < 4; ++k) CHECK_STATUS(wf_voxel_world_set_block(world, 4, k, 7, WF_BLOCK_AIR), WF_OK);
  CHECK_STATUS(wf_voxel_footprint_update(footprint, NULL), WF_OK);

  error[0] = '\0';
  CHECK_STATUS(wf_voxel_footprint_create(world, narrow, &refused, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(refused == NULL && strstr(error, "agent_width must be 2 to 3") != NULL);
  error[0] = '\0';
  CHECK_STATUS(wf_voxel_footprint_create(world, NULL, &refused, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK(refused == NULL && strstr(error, "the profile is NULL") != NULL);
  CHECK_STATUS(wf_voxel_footprint_create(NULL, wide, &refused, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_footprint_create(world, wide, NULL, error, sizeof error), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 10, wall_with_gaps, NULL, &other, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_footprint_create(other, wide, &elsewhere, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_set_footprint(queries[0], elsewhere), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(queries[0], "another world");
  CHECK_STATUS(wf_voxel_query_set_footprint(queries[0], (wf_voxel_footprint*)other), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_set_footprint(NULL, footprint), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_footprint_update(NULL, &changed), WF_INVALID_ARGUMENT);
  /* A footprint keeps its world in use; the queries keep the footprint after its handle goes. */
  CHECK_STATUS(wf_voxel_world_destroy(other), WF_IN_USE);
  wf_voxel_footprint_destroy(elsewhere);
  wf_voxel_footprint_destroy(NULL);
  CHECK_STATUS(wf_voxel_world_destroy(other), WF_OK);
  wf_voxel_footprint_destroy(footprint);
  CHECK_STATUS(wf_voxel_query_find_path(queries[0], start, goal, NULL, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(path.cost, wide_cost, 1e-9);
  for (k = 0; k < 2; ++k) wf_voxel_query_destroy(queries[k]);
}

/* agent_width: a wide walker's longer way round, and widths outside 1 to 3 refused. */
static void test_voxel_wide_agents(void) {
  wf_voxel_world* world = NULL;
  wf_voxel_query* query = NULL;
  wf_movement_profile narrow, wide, flyer, bad;
  wf_voxel_options options;
  wf_path_result narrow_path, wide_path;
  int32_t start[3] = {1, 1, 1}, goal[3] = {6, 1, 1};
  char error[256];
  int width;

  wf_movement_profile_walker(&narrow);
  wf_movement_profile_flyer(&flyer);
  CHECK(narrow.agent_width == 1 && flyer.agent_width == 1);
  wide = narrow;
  wide.agent_width = 2;
  CHECK_STATUS(wf_voxel_world_create_from_callback(8, 4, 10, wall_with_gaps, NULL, &world, error, sizeof error),
               WF_OK);
  CHECK_STATUS(wf_voxel_query_create(world, &narrow, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, NULL, &narrow_path), WF_OK);
  CHECK(narrow_path.status == WF_SEARCH_FOUND);
  wf_voxel_options_init(&options);
  options.profile = &wide;
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &wide_path), WF_OK);
  CHECK(wide_path.status == WF_SEARCH_FOUND && wide_path.cost > narrow_path.cost + 1.0);
  wf_voxel_query_destroy(query);
  query = NULL;
  /* The same wide profile given to the query itself. */
  CHECK_STATUS(wf_voxel_query_create(world, &wide, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, NULL, &narrow_path), WF_OK);
  CHECK(narrow_path.status == WF_SEARCH_FOUND);
  CHECK_NEAR(narrow_path.cost, wide_path.cost, 1e-9);
  wf_voxel_query_destroy(query);

  for (width = 0; width <= 4; width += 4) {
    bad = narrow;
    bad.agent_width = width;
    query = NULL;
    error[0] = '\0';
    CHECK_STATUS(wf_voxel_query_create(world, &bad, &query, error, sizeof error), WF_INVALID_ARGUMENT);
    CHECK(query == NULL && strstr(error, "agent_width must be 1 to 3") != NULL);
  }
  test_voxel_shared_footprint(world, &narrow, &wide, wide_path.cost);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
}

/* A hierarchy brought up to date after edits answers as one built afresh on the edited world. */
static void test_voxel_hierarchy_update(void) {
  wf_voxel_world* world = NULL;
  wf_voxel_world* other = NULL;
  wf_voxel_hierarchy* hierarchy = NULL;
  wf_voxel_hierarchy* fresh = NULL;
  wf_voxel_query* query = NULL;
  wf_voxel_query* fresh_query = NULL;
  wf_voxel_hierarchy_options hierarchy_options;
  wf_voxel_options options;
  wf_path_result path, fresh_path;
  int32_t start[3] = {1, 1, 1}, goal[3] = {14, 1, 1}, blocks[3 * 64], fresh_blocks[3 * 64];
  size_t count = 0, fresh_count = 0, rebuilt = 99, nodes = 0, fresh_nodes = 0, bytes = 0;
  double open_cost = 0.0;
  char error[256];
  int y, z;

  wf_voxel_hierarchy_options_init(&hierarchy_options);
  hierarchy_options.cluster_size = 4;
  wf_voxel_options_init(&options);
  options.algorithm = WF_VOXEL_HIERARCHICAL;
  CHECK_STATUS(wf_voxel_world_create_from_callback(16, 4, 16, open_floor, NULL, &world, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, &hierarchy, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_create(world, NULL, &query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_set_hierarchy(query, hierarchy), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND);
  open_cost = path.cost;
  /* Nothing edited: nothing to redo. */
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, world, &rebuilt), WF_OK);
  CHECK(rebuilt == 0);

  /* A wall across x = 8, too high to climb, open only at z = 14 and 15: the path goes round. */
  for (z = 0; z < 14; ++z)
    for (y = 1; y < 4; ++y) CHECK_STATUS(wf_voxel_world_set_block(world, 8, y, z, WF_BLOCK_SOLID), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT); /* the hierarchy is stale until updated */
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, world, &rebuilt), WF_OK);
  CHECK(rebuilt > 0 && rebuilt <= 16);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_FOUND && path.cost > open_cost + 10.0);
  CHECK_STATUS(wf_voxel_query_path_blocks(query, blocks, 64, &count), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, world, NULL), WF_OK); /* current: nothing to do */

  /* A hierarchy built afresh on the edited world: the same nodes, the same path. */
  CHECK_STATUS(wf_voxel_hierarchy_create(world, NULL, &hierarchy_options, &fresh, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_create(world, NULL, &fresh_query, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_query_set_hierarchy(fresh_query, fresh), WF_OK);
  CHECK_STATUS(wf_voxel_query_find_path(fresh_query, start, goal, &options, &fresh_path), WF_OK);
  CHECK(fresh_path.status == WF_SEARCH_FOUND && fresh_path.cost == path.cost);
  CHECK_STATUS(wf_voxel_query_path_blocks(fresh_query, fresh_blocks, 64, &fresh_count), WF_OK);
  CHECK(fresh_count == count && memcmp(fresh_blocks, blocks, 3 * count * sizeof(int32_t)) == 0);
  CHECK_STATUS(wf_voxel_hierarchy_size(hierarchy, &nodes, &bytes), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_size(fresh, &fresh_nodes, NULL), WF_OK);
  CHECK(nodes == fresh_nodes);

  /* Misuse: refused with the reason, nothing changed. */
  CHECK_STATUS(wf_voxel_hierarchy_update(NULL, world, &rebuilt), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, NULL, &rebuilt), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(hierarchy, "wf_voxel_hierarchy_update: the world handle is NULL");
  CHECK_STATUS(wf_voxel_world_create_from_callback(16, 4, 16, open_floor, NULL, &other, error, sizeof error), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, other, &rebuilt), WF_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(hierarchy, "built for another world");
  CHECK_STATUS(wf_voxel_world_set_block(world, 8, 1, 14, WF_BLOCK_SOLID), WF_OK);
  CHECK_STATUS(wf_voxel_hierarchy_update(hierarchy, other, &rebuilt), WF_INVALID_ARGUMENT);
  CHECK_STATUS(wf_voxel_query_find_path(query, start, goal, &options, &path), WF_OK);
  CHECK(path.status == WF_SEARCH_INVALID_INPUT); /* still stale: the refused call changed nothing */
  CHECK_STATUS(wf_voxel_world_destroy(other), WF_OK);

  wf_voxel_query_destroy(fresh_query);
  wf_voxel_hierarchy_destroy(fresh);
  wf_voxel_query_destroy(query);
  wf_voxel_hierarchy_destroy(hierarchy);
  CHECK_STATUS(wf_voxel_world_destroy(world), WF_OK);
}

int main(int argc, char** argv) {
  data_dir = getenv("WAYFINDER_DATA_DIR");
  if (data_dir == NULL && argc > 1) data_dir = argv[1];
  test_common();
  test_grid_building();
  test_grid_queries();
  test_grid_benchmark();
  test_navmesh_building();
  test_navmesh_from_level();
  test_navmesh_tile_cache();
  test_navmesh_queries();
  test_navmesh_areas_and_filters();
  test_navmesh_benchmark();
  test_navmesh_files();
  test_voxel_worlds();
  test_voxel_queries();
  test_voxel_benchmark();
  test_batches();
  test_crowds();
  test_crowd_on_grid();
  test_crowd_flow_targets();
  test_grid_agent_sizes();
  test_off_mesh_links();
  test_navmesh_exact_paths();
  test_search_traces();
  test_navmesh_from_level_arrays();
  test_voxel_hierarchy_update();
  test_voxel_wide_agents();
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
