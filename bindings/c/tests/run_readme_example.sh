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
# shellcheck source=tests/lib/readme_example.sh
source "$source_dir/tests/lib/readme_example.sh"
marker='<!-- c-example: run by bindings/c/tests/run_readme_example.sh -->'
readme_example_extract "$source_dir" "$marker" c C "$scratch/readme_example.c" "$source_dir/bindings/c/examples/first_program.c"
# shellcheck disable=SC2086  # the extra flags are a list
"$c_compiler" -std=c99 -Wall -Wextra -Werror -pedantic $extra_flags -I"$source_dir/bindings/c/include" \
  "$scratch/readme_example.c" -o "$scratch/readme_example" -L"$library_dir" -lwayfinder_c -Wl,-rpath,"$library_dir"
cd "$source_dir"
readme_example_require_data
output=$("$scratch/readme_example")
echo "$output"
# The scenario's first query of arena2: optimal length 3.82843.
[[ "$output" == *"found, cost 3.82843"* ]] || { echo "unexpected output" >&2; exit 1; }
output=$(env -u LD_LIBRARY_PATH "$built_example")
echo "$output"
[[ "$output" == *"found, cost 3.82843"* ]] || { echo "unexpected output from $built_example" >&2; exit 1; }
