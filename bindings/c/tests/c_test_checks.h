/*
 * The checks the C API's test programs count: CHECK(condition) and CHECK_STATUS(call, status)
 * report a failed check with its file and line and go on; main returns failures == 0.
 */
#ifndef WAYFINDER_C_TEST_CHECKS_H
#define WAYFINDER_C_TEST_CHECKS_H

#include <stdio.h>

#include "wayfinder.h"

static int failures = 0;
static int checks = 0;

#define CHECK(condition)                                                          \
  do {                                                                            \
    ++checks;                                                                     \
    if (!(condition)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                 \
    }                                                                             \
  } while (0)

#define CHECK_STATUS(call, expected)                                                              \
  do {                                                                                            \
    wf_status status_ = (call);                                                                   \
    ++checks;                                                                                     \
    if (status_ != (expected)) {                                                                  \
      fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call,              \
              wf_status_name(status_), wf_status_name(expected));                                 \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

#endif /* WAYFINDER_C_TEST_CHECKS_H */
