/*
 * The C API's threading rule, under ThreadSanitizer in the tsan preset: one world handle shared
 * by several threads, each searching it with its own query handle (created and destroyed in
 * that thread), and a batch solved on several threads while other threads read the world.
 * Every thread must get the answers one thread gets.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "wayfinder.h"

#define THREADS 4
#define SIDE 64

typedef struct worker {
  wf_grid* grid;
  int index;
  double costs[SIDE];
  int failed;
} worker;

static void* search(void* argument) {
  worker* self = (worker*)argument;
  wf_grid_query* query = NULL;
  wf_path_result path;
  int goal;
  if (wf_grid_query_create(self->grid, &query, NULL, 0) != WF_OK) {
    self->failed = 1;
    return NULL;
  }
  for (goal = 0; goal < SIDE; ++goal) {
    int passable = 0;
    /* Reads of the shared world, at the same time as the other threads' searches. */
    if (wf_grid_cell(self->grid, goal, SIDE - 1, &passable, NULL, NULL, NULL) != WF_OK) self->failed = 1;
    if (wf_grid_query_find_path(query, 0, 0, goal, SIDE - 1, NULL, &path) != WF_OK) self->failed = 1;
    self->costs[goal] = path.status == WF_SEARCH_FOUND ? path.cost : -1.0;
  }
  wf_grid_query_destroy(query);
  return NULL;
}

int main(void) {
  uint8_t passable[SIDE * SIDE];
  char error[256];
  wf_grid* grid = NULL;
  wf_batch* batch = NULL;
  wf_grid_request requests[SIDE];
  pthread_t threads[THREADS];
  worker workers[THREADS];
  int i, goal, failures = 0;
  size_t count = 0;

  /* Walls with gaps, so that the searches have some work. */
  for (i = 0; i < SIDE * SIDE; ++i) {
    const int x = i % SIDE, y = i / SIDE;
    passable[i] = (uint8_t)!(y % 8 == 4 && x % 16 != (y / 8) % 16);
  }
  if (wf_grid_create_from_cells(SIDE, SIDE, passable, NULL, &grid, error, sizeof error) != WF_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  for (i = 0; i < THREADS; ++i) {
    memset(&workers[i], 0, sizeof workers[i]);
    workers[i].grid = grid;
    workers[i].index = i;
    if (pthread_create(&threads[i], NULL, search, &workers[i]) != 0) return 1;
  }
  for (goal = 0; goal < SIDE; ++goal) {
    requests[goal].start_x = 0;
    requests[goal].start_y = 0;
    requests[goal].goal_x = goal;
    requests[goal].goal_y = SIDE - 1;
    requests[goal].options = NULL;
  }
  if (wf_batch_create(&batch, error, sizeof error) != WF_OK ||
      wf_batch_solve_grid(batch, grid, requests, SIDE, 3) != WF_OK || wf_batch_count(batch, &count) != WF_OK ||
      count != SIDE) {
    fprintf(stderr, "batch: %s\n", batch != NULL ? wf_last_error(batch) : error);
    ++failures;
  }
  for (i = 0; i < THREADS; ++i) pthread_join(threads[i], NULL);

  for (i = 0; i < THREADS; ++i) {
    if (workers[i].failed) ++failures;
    for (goal = 0; goal < SIDE; ++goal)
      if (workers[i].costs[goal] != workers[0].costs[goal]) {
        fprintf(stderr, "thread %d: cost to %d is %g, thread 0 found %g\n", i, goal, workers[i].costs[goal],
                workers[0].costs[goal]);
        ++failures;
      }
  }
  for (goal = 0; goal < SIDE && failures == 0; ++goal) {
    wf_path_result path;
    wf_batch_result(batch, (size_t)goal, &path);
    if ((path.status == WF_SEARCH_FOUND ? path.cost : -1.0) != workers[0].costs[goal]) {
      fprintf(stderr, "batch: cost to %d is %g, a thread found %g\n", goal, path.cost, workers[0].costs[goal]);
      ++failures;
    }
  }
  wf_batch_destroy(batch);
  if (wf_grid_destroy(grid) != WF_OK) ++failures;
  printf("%d threads and a batch of %d on one grid: %s\n", THREADS, SIDE, failures == 0 ? "same answers" : "FAILED");
  return failures == 0 ? 0 : 1;
}
