#!/usr/bin/env bash
# README.md's C# example, exactly as printed: the fenced block after the marker comment is
# extracted, checked to be the text of bindings/csharp/samples/FirstProgram.cs (which CMake
# builds), compiled with Mono's compiler against Wayfinder.dll as the README says, and run from
# the repository root (where its relative data path leads). Exits 77 (skipped) when that data
# is missing, unless WAYFINDER_REQUIRE_DATA is set.
set -euo pipefail
source_dir=$1
compiler=$2
mono=$3
assembly_dir=$4
scratch=$5
mkdir -p "$scratch"
# shellcheck source=tests/lib/readme_example.sh
source "$source_dir/tests/lib/readme_example.sh"
marker='<!-- csharp-example: run by bindings/csharp/tests/run_readme_example.sh -->'
readme_example_extract "$source_dir" "$marker" csharp C# "$scratch/FirstProgram.cs" "$source_dir/bindings/csharp/samples/FirstProgram.cs"
"$compiler" -langversion:7.2 -warnaserror+ -r:"$assembly_dir/Wayfinder.dll" -out:"$scratch/FirstProgram.exe" "$scratch/FirstProgram.cs"
cp "$assembly_dir/Wayfinder.dll" "$scratch/"
cd "$source_dir"
readme_example_require_data
output=$("$mono" "$scratch/FirstProgram.exe")
echo "$output"
expected='Found, cost 3.82843, 4 cells, from (100, 41) to (98, 44)'
[[ "$output" == "$expected" ]] || { echo "expected: $expected" >&2; exit 1; }
