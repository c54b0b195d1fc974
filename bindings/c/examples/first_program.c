#include <stdio.h>
#include <wayfinder.h>

int main(void) {
  wf_grid* map; wf_grid_query* query; wf_path_result path; char error[256];
  if (wf_grid_load_movingai("../shared/data/movingai/dao/arena2.map", &map, error, sizeof error) != WF_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  wf_grid_query_create(map, &query, error, sizeof error);       /* one per thread */
  wf_grid_query_find_path(query, 100, 41, 98, 44, NULL, &path); /* NULL: A*, MovingAI rules */
  printf("%s, cost %.5f, %zu cells\n", wf_search_status_name(path.status), path.cost, path.node_count);
  wf_grid_query_destroy(query);
  return wf_grid_destroy(map) == WF_OK && path.status == WF_SEARCH_FOUND ? 0 : 1;
}
