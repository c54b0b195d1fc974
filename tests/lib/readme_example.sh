# shellcheck shell=bash
# Functions for the tests that run README.md's examples as printed (sourced by
# bindings/*/tests/run_readme_example.sh): the fenced block after a marker comment, extracted
# and checked to be the text of the example file CMake builds, and the data the examples read.

# readme_example_extract SOURCE_DIR MARKER FENCE LABEL OUTPUT EXAMPLE_FILE
# Writes the ```FENCE block after the line starting with MARKER in SOURCE_DIR/README.md to
# OUTPUT; fails unless there is one and it is EXAMPLE_FILE's text (LABEL names the language in
# the messages).
readme_example_extract() {
  local source_dir=$1 marker=$2 fence=$3 label=$4 output=$5 example_file=$6
  grep -qF -- "$marker" "$source_dir/README.md" || { echo "README.md has no $label example marker: $marker" >&2; exit 1; }
  awk -v marker="$marker" -v opening="\`\`\`$fence" '
    index($0, marker) == 1 { armed = 1; next }
    armed && $0 == opening { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }
  ' "$source_dir/README.md" > "$output"
  [[ -s "$output" ]] || { echo "no fenced $fence block after the marker in README.md" >&2; exit 1; }
  if ! cmp -s "$output" "$example_file"; then
    echo "README.md's $label example and ${example_file#"$source_dir"/} differ: keep them the same" >&2
    diff "$output" "$example_file" >&2 || true
    exit 1
  fi
  echo "extracted $(wc -l < "$output") lines"
}

# readme_example_require_data: run from the repository root, where the examples' relative data
# path leads. Exits 77 (skipped) when that data is missing, or fails when WAYFINDER_REQUIRE_DATA
# is set.
readme_example_require_data() {
  if [[ ! -f ../shared/data/movingai/dao/arena2.map ]]; then
    if [[ -n "${WAYFINDER_REQUIRE_DATA:-}" ]]; then echo "../shared/data is missing" >&2; exit 1; fi
    echo "../shared/data/movingai/dao/arena2.map not found: the example's run is skipped"
    exit 77
  fi
}
