#pragma once
// The test environment, for every data-driven test: where the shared benchmark data lives,
// whether it must be there, and whether this is a sanitizer build.

#include <cstdlib>
#include <filesystem>
#include <string>

namespace wayfinder::testing {

inline bool environment_flag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}

/// Sanitizer builds run about 10x slower; data-driven tests sample their queries there. A second
/// build of the same code (the clang build) samples them too, with WAYFINDER_SAMPLE_DATA=1: the
/// release build already runs every query.
inline bool sanitized_build() {
  return environment_flag("WAYFINDER_SANITIZED") || environment_flag("WAYFINDER_SAMPLE_DATA");
}

/// CI sets this so that missing benchmark data fails the run instead of skipping tests.
inline bool data_required() { return environment_flag("WAYFINDER_REQUIRE_DATA"); }

/// The shared data folder: $WAYFINDER_DATA_DIR, or the folder configured at build time.
inline std::filesystem::path data_directory() {
  if (const char* from_environment = std::getenv("WAYFINDER_DATA_DIR");
      from_environment != nullptr && *from_environment != '\0')
    return from_environment;
#ifdef WAYFINDER_DATA_DIR
  return WAYFINDER_DATA_DIR;
#else
  return {};
#endif
}

}  // namespace wayfinder::testing

/// Skips the running test when a data file is missing, or fails it when WAYFINDER_REQUIRE_DATA=1.
#define WAYFINDER_SKIP_WITHOUT(path)                                                                                \
  do {                                                                                                             \
    if (!std::filesystem::exists(path)) {                                                                          \
      if (::wayfinder::testing::data_required()) FAIL() << (path) << " not found; WAYFINDER_REQUIRE_DATA=1 requires it"; \
      GTEST_SKIP() << (path) << " not found";                                                                      \
    }                                                                                                              \
  } while (false)
