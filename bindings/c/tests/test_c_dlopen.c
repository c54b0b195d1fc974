/*
 * Loads libwayfinder_c at run time, as another language's foreign function interface would,
 * finds every function the header declares (their names are read from the header itself, so
 * a function added to it and not exported fails here), and runs a small search through the
 * pointers it found.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wayfinder.h"

/* ISO C has no conversion from an object pointer to a function pointer; dlsym's result is
   copied into one instead, as POSIX allows. */
#define LOOK_UP(library, variable, name)                     \
  do {                                                       \
    void* symbol_ = dlsym((library), (name));                \
    if (symbol_ == NULL) {                                   \
      fprintf(stderr, "dlsym(%s) failed: %s\n", (name), dlerror()); \
      return 1;                                              \
    }                                                        \
    memcpy(&(variable), &symbol_, sizeof(variable));         \
  } while (0)

/* Every "wf_name(" that follows "WF_API <type> " in the header. */
static int check_every_declared_symbol(void* library, const char* header_path, int* found) {
  char line[512];
  int missing = 0;
  FILE* header = fopen(header_path, "r");
  if (header == NULL) {
    fprintf(stderr, "cannot open %s\n", header_path);
    return 1;
  }
  *found = 0;
  while (fgets(line, sizeof line, header) != NULL) {
    const char* name;
    char symbol[128];
    size_t length = 0;
    if (strncmp(line, "WF_API ", 7) != 0) continue;
    name = strstr(line, "wf_");
    while (name != NULL && strchr(name, '(') != NULL && name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_")] != '(')
      name = strstr(name + 1, "wf_");
    if (name == NULL) continue;
    length = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (length == 0 || length >= sizeof symbol) continue;
    memcpy(symbol, name, length);
    symbol[length] = '\0';
    if (dlsym(library, symbol) == NULL) {
      fprintf(stderr, "the library does not export %s\n", symbol);
      ++missing;
    }
    ++*found;
  }
  fclose(header);
  return missing;
}

int main(int argc, char** argv) {
  void* library;
  int declared = 0;
  const char* (*version)(void);
  wf_status (*grid_create)(int, int, wf_grid**, char*, size_t);
  wf_status (*query_create)(wf_grid*, wf_grid_query**, char*, size_t);
  wf_status (*find_path)(wf_grid_query*, int, int, int, int, const wf_grid_options*, wf_path_result*);
  void (*query_destroy)(wf_grid_query*);
  wf_status (*grid_destroy)(wf_grid*);
  wf_grid* grid = NULL;
  wf_grid_query* query = NULL;
  wf_path_result path;
  char error[128];

  if (argc != 3) {
    fprintf(stderr, "usage: test_c_dlopen LIBRARY HEADER\n");
    return 2;
  }
  library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "dlopen(%s) failed: %s\n", argv[1], dlerror());
    return 1;
  }
  if (check_every_declared_symbol(library, argv[2], &declared) != 0) return 1;
  if (declared < 60) {
    fprintf(stderr, "only %d functions found in %s: is the header read correctly?\n", declared, argv[2]);
    return 1;
  }

  LOOK_UP(library, version, "wf_version");
  LOOK_UP(library, grid_create, "wf_grid_create");
  LOOK_UP(library, query_create, "wf_grid_query_create");
  LOOK_UP(library, find_path, "wf_grid_query_find_path");
  LOOK_UP(library, query_destroy, "wf_grid_query_destroy");
  LOOK_UP(library, grid_destroy, "wf_grid_destroy");
  if (grid_create(10, 10, &grid, error, sizeof error) != WF_OK || query_create(grid, &query, error, sizeof error) != WF_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  if (find_path(query, 0, 0, 9, 0, NULL, &path) != WF_OK || path.status != WF_SEARCH_FOUND || path.cost != 9.0) {
    fprintf(stderr, "the search through dlsym'd functions went wrong\n");
    return 1;
  }
  query_destroy(query);
  if (grid_destroy(grid) != WF_OK) return 1;
  printf("libwayfinder_c %s: %d declared functions found\n", version(), declared);
  dlclose(library);
  return 0;
}
