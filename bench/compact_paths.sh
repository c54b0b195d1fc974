#!/usr/bin/env bash
# Runs `wayfinder grid bench` (A*) on every scenario of every MovingAI folder and prints one
# markdown table row per folder: the bytes per step of the found paths stored as
# CompactGridPath, plain and run-length (the command's compact_bytes_per_step and
# compact_rle_bytes_per_step, averaged over the folder's paths), and what the run-length form saves:
#
#   bench/compact_paths.sh [WAYFINDER_BINARY] [DATA_DIR]
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wayfinder=${1:-$source_dir/build/release/tools/cli/wayfinder}
data=${2:-$source_dir/../shared/data}/movingai

echo "| folder | scenarios | queries | paths found | mismatches | plain bytes / step | run-length bytes / step | run-length saves |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for folder in "$data"/*/; do
  for scenario in "$folder"*.scen; do
    "$wayfinder" grid bench "$scenario" --algo astar --json
  done | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
found = sum(r["solved"] for r in rows)
# Each scenario gives means over its own paths; weighting them by paths found gives the folder mean
# (paths of one cell, which have no step, are the only ones a scenario leaves out of its mean).
def mean(key):
    return sum(r[key] * r["solved"] for r in rows if r[key] is not None) / found
plain, run_length = mean("compact_bytes_per_step"), mean("compact_rle_bytes_per_step")
print("| {} | {} | {} | {} | {} | {:.4f} | {:.4f} | {:.0%} |".format(sys.argv[1], len(rows),
      sum(r["queries"] for r in rows), found, sum(r["mismatches"] for r in rows), plain, run_length,
      1 - run_length / plain))
' "$(basename "$folder")"
done
