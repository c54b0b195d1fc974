#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and fuzzes each for a while, starting from the seed
# corpus. New interesting inputs go to a scratch corpus, never into the repository's seeds;
# crashes are written to the build folder.
#
#   fuzz/run_fuzzers.sh [SECONDS_PER_TARGET]     (default 30)
#
# Without clang++-14 and libFuzzer this says so and exits 0, so CI can call it unconditionally.
set -euo pipefail

seconds=${1:-30}
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${WAYFINDER_FUZZ_BUILD_DIR:-$source_dir/build/fuzz}
compiler=${WAYFINDER_FUZZ_CXX:-clang++-14}

if ! command -v "$compiler" >/dev/null 2>&1; then
  echo "run_fuzzers: $compiler not found; skipping fuzzing"
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
  'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }' >"$probe/probe.cpp"
if ! "$compiler" -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" >/dev/null 2>&1; then
  echo "run_fuzzers: $compiler cannot link libFuzzer (-fsanitize=fuzzer); skipping fuzzing"
  exit 0
fi

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" \
  -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWAYFINDER_BUILD_FUZZERS=ON -DWAYFINDER_BUILD_TESTS=OFF -DWAYFINDER_BUILD_TOOLS=OFF \
  -DWAYFINDER_BUILD_BENCHMARKS=OFF -DWAYFINDER_INSTALL=OFF >/dev/null
# Each name has a fuzz/fuzz_NAME.cpp target and a fuzz/corpus/NAME/ seed folder.
targets=(movingai_map movingai_scenario obj_mesh polyanya_mesh vox_file voxel_3dmap off_mesh_links jump_table goal_bounds navmesh_file
  crowd_scenario goal_bounds_part obstacle_events accept_encoding steersuite_testcase)
cmake --build "$build_dir" --target "${targets[@]/#/fuzz_}"

status=0
for target in "${targets[@]}"; do
  scratch="$build_dir/corpus/$target"
  artifacts="$build_dir/crashes/$target/"
  mkdir -p "$scratch" "$artifacts"
  echo "== fuzzing $target for $seconds s"
  if ! "$build_dir/fuzz/fuzz_$target" "$scratch" "$source_dir/fuzz/corpus/$target" \
      -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$artifacts" -print_final_stats=1; then
    echo "run_fuzzers: fuzz_$target found a problem; see $artifacts"
    status=1
  fi
done
exit $status
