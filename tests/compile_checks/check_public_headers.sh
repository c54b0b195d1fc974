#!/usr/bin/env bash
# Checks the installed API's headers the way a user's compiler meets them:
#  - no compiler-specific syntax outside core/force_inline.hpp (which spells it portably);
#  - the umbrella header <wayfinder/wayfinder.hpp> includes every core-library header;
#  - every header compiles on its own (includes what it uses), warnings as errors.
#
#   check_public_headers.sh SOURCE_DIR CXX_COMPILER
set -uo pipefail
source_dir=$1
compiler=$2
include_dir="$source_dir/include"
failures=0

cd "$include_dir" || exit 2
headers=$(find wayfinder -name '*.hpp' | sort)

specific=$(grep -nE '__attribute__|\[\[gnu::|\[\[clang::|__declspec|__forceinline|__builtin_|#pragma GCC|#pragma clang' \
             $headers | grep -v '^wayfinder/core/force_inline.hpp:')
if [[ -n "$specific" ]]; then
  echo "FAIL: compiler-specific syntax in public headers (use WAYFINDER_FORCE_INLINE and friends):"
  echo "$specific"
  failures=$((failures + 1))
fi

for header in $(find wayfinder/core wayfinder/grid wayfinder/navmesh wayfinder/voxel -name '*.hpp' | sort); do
  if ! grep -qF "#include \"$header\"" wayfinder/wayfinder.hpp; then
    echo "FAIL: wayfinder/wayfinder.hpp does not include $header"
    failures=$((failures + 1))
  fi
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-headers.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
for header in $headers; do
  printf '#include "%s"\n#include "%s"\n' "$header" "$header" >"$scratch/check.cpp"
  if ! output=$("$compiler" -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$include_dir" "$scratch/check.cpp" 2>&1); then
    echo "FAIL: $header does not compile on its own:"
    echo "$output" | head -n 15
    failures=$((failures + 1))
  fi
done

count=$(echo "$headers" | wc -l)
if [[ $failures -gt 0 ]]; then
  echo "$failures problem(s) in $count public headers"
  exit 1
fi
echo "all $count public headers are portable, self-contained and in the umbrella header"
