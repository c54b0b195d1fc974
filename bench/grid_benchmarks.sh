#!/usr/bin/env bash
# Runs `wayfinder grid bench` for A* and jump point search on the MovingAI scenarios that
# docs/benchmarks.md reports, and prints one markdown table row per (scenario, algorithm):
#
#   bench/grid_benchmarks.sh [WAYFINDER_BINARY] [DATA_DIR]
#
# Times are the command's own: mean and median microseconds per query, search only.
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wayfinder=${1:-$source_dir/build/release/tools/cli/wayfinder}
data=${2:-$source_dir/../shared/data}/movingai

echo "| scenario | algorithm | queries | mismatches | mean µs | median µs | mean expanded |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for scenario in "$data"/dao/*.scen "$data"/sc1/*.scen "$data"/rooms/*.scen "$data"/mazes/*.scen; do
  "$wayfinder" grid bench "$scenario" --algo astar,jps --json |
    python3 -c '
import json, sys, os
for line in sys.stdin:
    r = json.loads(line)
    name = "/".join(r["scenario"].split(os.sep)[-2:])
    print("| {} | {} | {} | {} | {:.1f} | {:.1f} | {:.0f} |".format(name, r["algorithm"], r["queries"],
          r["mismatches"], r["mean_us"], r["median_us"], r["mean_expanded"]))
'
done
