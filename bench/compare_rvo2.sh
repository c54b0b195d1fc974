#!/usr/bin/env bash
# Runs Wayfinder's crowd and RVO2 (the ORCA reference library by its authors: van den Berg, Guy,
# Lin & Manocha, "Reciprocal n-Body Collision Avoidance", 2011) on the same open-ground crowd
# scenarios, by turns, and prints their update times and quality metrics side by side.
# RVO2 is not part of Wayfinder: fetch its source (github.com/snape/RVO2) outside this repository
# and pass the folder; this script compiles its src/*.cc with bench/rvo2_crowd.cpp (which reads a
# Wayfinder scenario file and measures what `wayfinder crowd run --json` measures) into a
# temporary folder, with -O3 and no OpenMP (one thread, as `crowd run --threads 1`).
#
#   bench/compare_rvo2.sh [BUILD_DIR [RVO2_SOURCE [ROUNDS]]]
#
# BUILD_DIR     a Wayfinder build directory holding tools/cli/wayfinder (or $WAYFINDER_BUILD)
# RVO2_SOURCE   the RVO2 source tree, holding src/RVO.h (or $RVO2_SOURCE)
# ROUNDS        rounds per scenario, the order alternating (or $ROUNDS; default 3)
# $SCENARIOS    the scenarios, KIND:AGENTS (default: circle:8 circle:40 circle:200 random:1000)
# $NUDGES       RVO2's random nudges in m/s (default: 1e-4, the one RVO2's Blocks example adds,
#               and 1e-2)
#
# Both run the scenario file `wayfinder crowd scenario KIND --agents N` writes (the same agents,
# radii, speeds, neighbour distance, neighbour count, time horizons, tick and tick count). RVO2
# has no ground, so the mesh of the scenario is ignored and only open-ground kinds compare. Prints
# per scenario the medians over the rounds of µs per agent per tick, and each program's arrived
# agents, overlapping pair-ticks (closer than the sum of radii by more than 1 % of a radius), worst
# penetration and settled agents' top speed (last second) from its first round; the metrics do
# not change between rounds (both are deterministic).
set -euo pipefail

usage() {
  sed -n '10,17p' "$0" >&2
  exit 2
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage

build=${1:-${WAYFINDER_BUILD:-}}
rvo2=${2:-${RVO2_SOURCE:-}}
rounds=${3:-${ROUNDS:-3}}
scenarios=${SCENARIOS:-circle:8 circle:40 circle:200 random:1000}
nudges=${NUDGES:-1e-4 1e-2}
repo=$(cd "$(dirname "$0")/.." && pwd)

fail() {
  echo "compare_rvo2.sh: $*" >&2
  exit 2
}
[[ -n $build && -x $build/tools/cli/wayfinder ]] || fail "no wayfinder under BUILD_DIR '$build' (tools/cli/wayfinder)"
[[ -n $rvo2 && -f $rvo2/src/RVO.h ]] || fail "no RVO2 source tree at '$rvo2' (src/RVO.h)"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS must be a positive whole number, not '$rounds'"
wayfinder=$build/tools/cli/wayfinder

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "compiling RVO2 from $rvo2 with bench/rvo2_crowd.cpp" >&2
g++ -O3 -DNDEBUG -std=c++17 -I"$rvo2/src" "$rvo2"/src/*.cc "$repo/bench/rvo2_crowd.cpp" -o "$work/rvo2_crowd"

# field FILE DOTTED.PATH: one number from a metrics JSON file.
field() {
  python3 -c 'import json, sys
value = json.load(open(sys.argv[1]))["metrics"]
for key in sys.argv[2].split("."):
    value = value[key]
print(value)' "$1" "$2"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-12s %-16s %12s %9s %12s %12s %14s\n' scenario program us/agent/tick arrived overlap-ticks worst-penetr settled-top
for entry in $scenarios; do
  kind=${entry%%:*}
  agents=${entry##*:}
  scenario=$work/$kind-$agents.json
  "$wayfinder" crowd scenario "$kind" --agents "$agents" -o "$scenario" > /dev/null
  declare -A per_agent=()
  for ((round = 0; round < rounds; ++round)); do
    order=(wayfinder $nudges)
    if ((round % 2 == 1)); then order=($nudges wayfinder); fi
    for program in "${order[@]}"; do
      out=$work/$kind-$agents-$program-$round.json
      if [[ $program == wayfinder ]]; then
        "$wayfinder" crowd run "$scenario" --threads 1 --json > "$out"
      else
        "$work/rvo2_crowd" "$scenario" --nudge "$program" > "$out"
      fi
      per_agent[$program]+="$(field "$out" update_us.per_agent) "
    done
  done
  for program in wayfinder $nudges; do
    first=$work/$kind-$agents-$program-0.json
    name=$program
    [[ $program != wayfinder ]] && name="rvo2 nudge $program"
    # shellcheck disable=SC2086
    printf '%-12s %-16s %12.3f %5s/%-3s %12s %11.1f%% %13.2f%%\n' "$kind:$agents" "$name" \
      "$(median ${per_agent[$program]})" "$(field "$first" arrived)" "$agents" \
      "$(field "$first" overlaps.pair_ticks)" \
      "$(python3 -c "print(100 * $(field "$first" overlaps.worst_penetration_of_radius))")" \
      "$(python3 -c "print(100 * $(field "$first" settled.speed_max_of_max_speed))")"
  done
  unset per_agent
done
