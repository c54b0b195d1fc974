#!/usr/bin/env bash
# Proves that a game can use Wayfinder both ways: installs the built project to a temporary
# prefix and builds the consumer with find_package, then builds it again with add_subdirectory.
#
#   run_consumer_test.sh SOURCE_DIR BUILD_DIR [CXX_COMPILER] [EXTRA_CXX_FLAGS]
#
# EXTRA_CXX_FLAGS must carry the sanitizer flags when BUILD_DIR is a sanitizer build, so the
# consumer links against the instrumented library.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR [CXX_COMPILER] [EXTRA_CXX_FLAGS]" >&2
  exit 2
fi
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
compiler=${3:-c++}
extra_flags=${4:-}
consumer_dir="$source_dir/tests/consumer"

work=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
# Debug builds compile fastest, and the consumer only needs to prove that it links and runs.
common=("${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$compiler")
if [[ -n "$extra_flags" ]]; then
  common+=("-DCMAKE_CXX_FLAGS=$extra_flags" "-DCMAKE_EXE_LINKER_FLAGS=$extra_flags")
fi

echo "== installing $build_dir to $work/prefix"
cmake --install "$build_dir" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }

echo "== the installed headers are the public API only"
internal=$(cd "$work/prefix/include" && find . -name 'text_file.hpp' -o -name 'engine_run.hpp' \
             -o -name 'room_map_generator.hpp' -o -name 'mesh_query_file.hpp')
if [[ -n "$internal" ]]; then
  echo "internal headers were installed: $internal" >&2
  exit 1
fi
test -f "$work/prefix/include/wayfinder/wayfinder.hpp" || { echo "the umbrella header was not installed" >&2; exit 1; }

installed_example="$work/prefix/libexec/wayfinder/wayfinder_c_example"
if [[ -e "$installed_example" ]]; then
  echo "== the installed C example finds libwayfinder_c through its run path (no LD_LIBRARY_PATH)"
  if env -u LD_LIBRARY_PATH ldd "$installed_example" | grep -q 'libwayfinder_c.*not found'; then
    echo "$installed_example does not find libwayfinder_c:" >&2
    env -u LD_LIBRARY_PATH ldd "$installed_example" >&2
    exit 1
  fi
  if [[ -f "$source_dir/../shared/data/movingai/dao/arena2.map" ]]; then
    (cd "$source_dir" && env -u LD_LIBRARY_PATH "$installed_example")
  fi
fi

echo "== find_package(wayfinder)"
cmake -S "$consumer_dir" -B "$work/found" "${common[@]}" -DCMAKE_PREFIX_PATH="$work/prefix"
cmake --build "$work/found"
"$work/found/consumer"
"$work/found/consumer_with_pictures" "$work/found/picture.svg"
if [[ -d "$work/prefix/include/wayfinder/navmesh_build" ]]; then
  test -x "$work/found/consumer_navmesh_build" || { echo "navmesh_build is installed but the consumer did not find it" >&2; exit 1; }
  "$work/found/consumer_navmesh_build"
fi

echo "== add_subdirectory(wayfinder)"
cmake -S "$consumer_dir" -B "$work/subdirectory" "${common[@]}" \
  -DCONSUMER_USE_SUBDIRECTORY=ON -DWAYFINDER_SOURCE_DIR="$source_dir"
cmake --build "$work/subdirectory"
"$work/subdirectory/consumer"
"$work/subdirectory/consumer_with_pictures" "$work/subdirectory/picture.svg"
if [[ -x "$work/subdirectory/consumer_navmesh_build" ]]; then "$work/subdirectory/consumer_navmesh_build"; fi

echo "consumer test passed: find_package and add_subdirectory"
