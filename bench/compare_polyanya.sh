#!/usr/bin/env bash
# Times Wayfinder's exact navmesh search (`mesh bench --nodes optimal`) against Polyanya's own
# `scenariorunner` (Cui, Harabor & Grastien, IJCAI 2017) on the same mesh and scenarios, by turns
# in one run, so that both see the same machine load. Polyanya is not part of Wayfinder: build it
# yourself outside this repository (docs/benchmarks.md, "Exact paths", says how) and pass its
# scenariorunner binary.
#
#   bench/compare_polyanya.sh SCENARIORUNNER WAYFINDER MESH SCEN QUERIES_CSV [ROUNDS]
#
# SCENARIORUNNER  Polyanya's bin/scenariorunner
# WAYFINDER       the wayfinder command (e.g. build/release/tools/cli/wayfinder)
# MESH            a Polyanya .mesh file (e.g. ../shared/data/meshes/polyanya/meshes/aurora-merged.mesh)
# SCEN            the matching MovingAI .scen file Polyanya reads (e.g. .../scenarios/aurora.scen)
# QUERIES_CSV     the same queries for Wayfinder (e.g. ../shared/data/meshes/derived/aurora_polyanya_optimal.csv)
# ROUNDS          rounds of one pass each, the order alternating (default 5)
#
# Both times are per query and include locating start and goal (scenariorunner's timer covers
# point location and the search; Wayfinder's whole-query time is locate x2 + search + path).
# Prints each round and then the medians of the rounds' means and medians, and their ratios
# Wayfinder / Polyanya.
set -euo pipefail

if [[ $# -lt 5 ]]; then
  sed -n '8,16p' "$0" >&2
  exit 2
fi
runner=$1 wayfinder=$2 mesh=$3 scen=$4 queries=$5 rounds=${6:-5}
for file in "$runner" "$wayfinder"; do
  [[ -x $file ]] || { echo "compare_polyanya.sh: $file is not an executable" >&2; exit 2; }
done
for file in "$mesh" "$scen" "$queries"; do
  [[ -f $file ]] || { echo "compare_polyanya.sh: $file does not exist" >&2; exit 2; }
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compare_polyanya.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }

polyanya_pass() {
  # Mean and median of the `micro` column (one header line; ';'-separated).
  "$runner" "$mesh" "$scen" | python3 -c '
import statistics, sys
rows = [line.split(";") for line in sys.stdin.read().splitlines()[1:] if line]
micro = [float(row[1]) for row in rows]
unsolved = sum(1 for row in rows if float(row[7]) < 0)
print("%.3f %.3f %d %d" % (statistics.mean(micro), statistics.median(micro), len(micro), unsolved))'
}

wayfinder_pass() {
  "$wayfinder" mesh bench "$mesh" --queries "$queries" --nodes optimal --repeat 1 --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%.3f %.3f %d %d" % (d["mean_us"], d["median_us"], d["queries"], d["queries"] - d["found"]))'
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
printf '%-6s %-10s %12s %12s %8s %10s\n' round library mean_us median_us queries unsolved
for ((round = 1; round <= rounds; ++round)); do
  if ((round % 2 == 1)); then order="polyanya wayfinder"; else order="wayfinder polyanya"; fi
  for library in $order; do
    read -r mean median count unsolved < <("${library}_pass")
    printf '%-6s %-10s %12s %12s %8s %10s\n' "$round" "$library" "$mean" "$median" "$count" "$unsolved"
    echo "$library $mean $median" >> "$results"
  done
done
python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def medians(library):
    picked = [row for row in rows if row[0] == library]
    return statistics.median(float(r[1]) for r in picked), statistics.median(float(r[2]) for r in picked)
p_mean, p_median = medians("polyanya")
w_mean, w_median = medians("wayfinder")
print("median of rounds: Polyanya mean %.1f us, median %.1f us; Wayfinder mean %.1f us, median %.1f us" %
      (p_mean, p_median, w_mean, w_median))
print("ratio Wayfinder / Polyanya: mean %.3f, median %.3f" % (w_mean / p_mean, w_median / p_median))
EOF
