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
marker='<!-- csharp-example: run by bindings/csharp/tests/run_readme_example.sh -->'
grep -qF -- "$marker" "$source_dir/README.md" || { echo "README.md has no C# example marker: $marker" >&2; exit 1; }
awk -v marker="$marker" '
  index($0, marker) == 1 { armed = 1; next }
  armed && /^```csharp$/ { inside = 1; next }
  inside && /^```$/ { exit }
  inside { print }
' "$source_dir/README.md" > "$scratch/FirstProgram.cs"
[[ -s "$scratch/FirstProgram.cs" ]] || { echo "no fenced csharp block after the marker in README.md" >&2; exit 1; }
if ! cmp -s "$scratch/FirstProgram.cs" "$source_dir/bindings/csharp/samples/FirstProgram.cs"; then
  echo "README.md's C# example and bindings/csharp/samples/FirstProgram.cs differ: keep them the same" >&2
  diff "$scratch/FirstProgram.cs" "$source_dir/bindings/csharp/samples/FirstProgram.cs" >&2 || true
  exit 1
fi
echo "extracted $(wc -l < "$scratch/FirstProgram.cs") lines"
"$compiler" -langversion:7.2 -warnaserror+ -r:"$assembly_dir/Wayfinder.dll" -out:"$scratch/FirstProgram.exe" "$scratch/FirstProgram.cs"
cp "$assembly_dir/Wayfinder.dll" "$scratch/"
cd "$source_dir"
if [[ ! -f ../shared/data/movingai/dao/arena2.map ]]; then
  if [[ -n "${WAYFINDER_REQUIRE_DATA:-}" ]]; then echo "../shared/data is missing" >&2; exit 1; fi
  echo "../shared/data/movingai/dao/arena2.map not found: the example's run is skipped"
  exit 77
fi
output=$("$mono" "$scratch/FirstProgram.exe")
echo "$output"
expected='Found, cost 3.82843, 4 cells, from (100, 41) to (98, 44)'
[[ "$output" == "$expected" ]] || { echo "expected: $expected" >&2; exit 1; }
