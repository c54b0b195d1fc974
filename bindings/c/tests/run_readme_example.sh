#!/usr/bin/env bash
# README.md's C example, exactly as printed: the fenced block after the marker comment is
# extracted, checked to be the text of bindings/c/examples/first_program.c (which CMake builds
# as wayfinder_c_example), compiled as strict C99 against libwayfinder_c as the README says and
# run from the repository root (where its relative data path leads); then the example CMake
# built runs there too, without LD_LIBRARY_PATH (its RUNPATH finds the library). Exits 77
# (skipped) when that data is missing, unless WAYFINDER_REQUIRE_DATA is set.
set -euo pipefail
source_dir=$1
c_compiler=$2
extra_flags=$3
library_dir=$4
scratch=$5
built_example=$6
mkdir -p "$scratch"
marker='<!-- c-example: run by bindings/c/tests/run_readme_example.sh -->'
grep -qF -- "$marker" "$source_dir/README.md" || { echo "README.md has no C example marker: $marker" >&2; exit 1; }
awk -v marker="$marker" '
  index($0, marker) == 1 { armed = 1; next }
  armed && /^```c$/ { inside = 1; next }
  inside && /^```$/ { exit }
  inside { print }
' "$source_dir/README.md" > "$scratch/readme_example.c"
[[ -s "$scratch/readme_example.c" ]] || { echo "no fenced C block after the marker in README.md" >&2; exit 1; }
if ! cmp -s "$scratch/readme_example.c" "$source_dir/bindings/c/examples/first_program.c"; then
  echo "README.md's C example and bindings/c/examples/first_program.c differ: keep them the same" >&2
  diff "$scratch/readme_example.c" "$source_dir/bindings/c/examples/first_program.c" >&2 || true
  exit 1
fi
echo "extracted $(wc -l < "$scratch/readme_example.c") lines"
# shellcheck disable=SC2086  # the extra flags are a list
"$c_compiler" -std=c99 -Wall -Wextra -Werror -pedantic $extra_flags -I"$source_dir/bindings/c/include" \
  "$scratch/readme_example.c" -o "$scratch/readme_example" -L"$library_dir" -lwayfinder_c -Wl,-rpath,"$library_dir"
cd "$source_dir"
if [[ ! -f ../shared/data/movingai/dao/arena2.map ]]; then
  if [[ -n "${WAYFINDER_REQUIRE_DATA:-}" ]]; then echo "../shared/data is missing" >&2; exit 1; fi
  echo "../shared/data/movingai/dao/arena2.map not found: the example's run is skipped"
  exit 77
fi
output=$("$scratch/readme_example")
echo "$output"
# The scenario's first query of arena2: optimal length 3.82843.
[[ "$output" == *"found, cost 3.82843"* ]] || { echo "unexpected output" >&2; exit 1; }
output=$(env -u LD_LIBRARY_PATH "$built_example")
echo "$output"
[[ "$output" == *"found, cost 3.82843"* ]] || { echo "unexpected output from $built_example" >&2; exit 1; }
