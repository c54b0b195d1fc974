#!/usr/bin/env bash
# Times Wayfinder's grid JPS and JPS+ against Warthog's `jps2` and `jps2+` (Harabor & Grastien,
# ICAPS 2014: JPS with intercardinal pruning, online and with an offline jump table) on the same
# MovingAI maps and scenarios, by turns in one run, so that both see the same machine load.
# Warthog is not part of Wayfinder: build ShortestPathLab's warthog-jps (with its warthog-core)
# yourself outside this repository (docs/benchmarks.md, "Against Warthog (jps2, jps2+)", says how)
# and pass its warthog-jps binary.
#
#   bench/compare_warthog.sh [BUILD_DIR [WARTHOG_JPS [ROUNDS]]]
#
# BUILD_DIR     a Wayfinder build directory holding tools/cli/wayfinder (or $WAYFINDER_BUILD)
# WARTHOG_JPS   Warthog's warthog-jps binary (or $WARTHOG_JPS)
# ROUNDS        rounds per pair, the order alternating (or $ROUNDS; default 5)
# $MOVINGAI_DIR the MovingAI folder (default: ../shared/data/movingai beside the repository)
# $SCENARIOS    scenarios under it (default: dao/den520d dao/brc202d rooms/32room_000 sc1/Aftershock)
# $BOUNDS_DIR   a folder of goal bounds, NAME.bounds for each scenario's map NAME.map, built by
#               `grid preprocess MAP -o T --goal-bounds NAME.bounds`: adds the pair jps-plus-bounded
# $PAIRS        the pairs to run (default: jps jps-plus, and jps-plus-bounded with $BOUNDS_DIR)
#
# The pairs are Wayfinder `grid bench S --algo jps` against `warthog-jps --alg jps2 --scen S
# --map M`, and Wayfinder `grid bench S --algo jps-plus --table T` against `--alg jps2+`.
# Both programs load the map and the scenario before their timers start. Warthog's per-query
# `nanos` column times its search (the open list, the expansions and the jumps) and not the walk
# along the parents that lists the path's jump points afterwards; Wayfinder's time is the whole
# `find_path` call, which also writes the path out cell by cell (nodes and points). The third
# pair, jps-plus-bounded, is Wayfinder `grid bench S --algo jps-plus --table T --bounds B` (JPS+
# with goal bounding, Rabin & Sturtevant, AAAI 2016; the bounds are built beforehand, as they take
# minutes) against the same `--alg jps2+`. Neither
# includes its JPS+ jump table: Wayfinder's is built once per map by `grid preprocess MAP -o T`
# and loaded by `--table T` before the timed queries; Warthog builds its table when it sets up
# the search, before its first query. Both tables' build times are printed separately
# (Warthog's as the difference between a one-query `jps2+` run and a one-query `jps2` run, the
# median of 5 each, so it also holds the rest of jps2+'s set-up).
#
# Every pass must solve every query at the scenario's optimal length: Wayfinder checks its own
# (`mismatches`), and Warthog's `pcost` is compared here with the scenario's length (within 0.011,
# or 1e-5 of the length if more); any miss or unsolved query stops the script.
# Prints each pass, then per scenario and pair the medians over the rounds of each program's
# mean and median µs per query, and the medians over the rounds of the ratios Wayfinder /
# Warthog of the two passes of a round (run back to back).
set -euo pipefail

usage() {
  sed -n '9,18p' "$0" >&2
  exit 2
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${WAYFINDER_BUILD:-}}
warthog=${2:-${WARTHOG_JPS:-}}
rounds=${3:-${ROUNDS:-5}}
data=${MOVINGAI_DIR:-$repo/../shared/data/movingai}
scenarios=${SCENARIOS:-dao/den520d dao/brc202d rooms/32room_000 sc1/Aftershock}
bounds_dir=${BOUNDS_DIR:-}
if [[ -n $bounds_dir ]]; then pairs=${PAIRS:-jps jps-plus jps-plus-bounded}; else pairs=${PAIRS:-jps jps-plus}; fi

fail() {
  echo "compare_warthog.sh: $*" >&2
  exit 2
}
[[ -n $build ]] || fail "no Wayfinder build directory: pass BUILD_DIR or set WAYFINDER_BUILD (e.g. build/release)"
[[ -n $warthog ]] || fail "no Warthog binary: pass WARTHOG_JPS or set WARTHOG_JPS (warthog-jps's build/warthog-jps)"
wayfinder=$build/tools/cli/wayfinder
[[ -x $wayfinder ]] || fail "$wayfinder is not an executable (build the release preset first)"
[[ -x $warthog ]] || fail "$warthog is not an executable"
[[ $("$warthog" --help 2>/dev/null || true) == *'jps2+'* ]] || fail "$warthog does not list jps2+ in its --help: is it warthog-jps?"
[[ -d $data ]] || fail "$data is not a folder: set MOVINGAI_DIR to the MovingAI maps and scenarios"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS must be a positive integer, not '$rounds'"
for name in $scenarios; do
  for file in "$data/$name.map" "$data/$name.map.scen"; do
    [[ -f $file ]] || fail "$file does not exist"
  done
done
for pair in $pairs; do
  case $pair in
    jps | jps-plus) ;;
    jps-plus-bounded)
      [[ -n $bounds_dir ]] || fail "the pair jps-plus-bounded needs BOUNDS_DIR"
      for name in $scenarios; do
        [[ -f $bounds_dir/$(basename "$name").bounds ]] || fail "$bounds_dir/$(basename "$name").bounds does not exist"
      done
      ;;
    *) fail "unknown pair '$pair' in PAIRS (jps, jps-plus, jps-plus-bounded)" ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One pass: "mean_us median_us queries solved expanded" on stdout. A pass that leaves a query
# unsolved or off the optimal length stops the script.
wayfinder_pass() { # ALGO SCEN [--table T]
  local algo=$1 scen=$2
  shift 2
  local status=0
  "$wayfinder" grid bench "$scen" --algo "$algo" --json "$@" > "$work/out" || status=$?
  python3 - "$work/out" "$status" "$algo" "$scen" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
if int(sys.argv[2]) != 0 or d["mismatches"] or d["solved"] != d["queries"]:
    sys.exit("compare_warthog.sh: wayfinder %s on %s: %d of %d solved, %d mismatches (exit %s)" %
             (sys.argv[3], sys.argv[4], d["solved"], d["queries"], d["mismatches"], sys.argv[2]))
print("%.3f %.3f %d %d %.1f" % (d["mean_us"], d["median_us"], d["queries"], d["solved"], d["mean_expanded"]))
EOF
}

warthog_pass() { # ALG SCEN MAP
  local alg=$1 scen=$2 map=$3
  "$warthog" --alg "$alg" --scen "$scen" --map "$map" > "$work/out" 2> "$work/err" ||
    { cat "$work/err" >&2; fail "warthog-jps --alg $alg on $scen failed"; }
  python3 - "$work/out" "$alg" "$scen" <<'EOF'
import statistics, sys
lines = open(sys.argv[1]).read().splitlines()
head = lines[0].split("\t")
col = {name: i for i, name in enumerate(head)}
rows = [line.split("\t") for line in lines[1:] if line]
micro = [int(row[col["nanos"]]) / 1000.0 for row in rows]
solved = off = 0
for row in rows:
    got, want = float(row[col["pcost"]]), float(row[col["scost"]])
    if got < 1e300:
        solved += 1
    if abs(got - want) > max(0.011, 1e-5 * want):
        off += 1
if off:
    sys.exit("compare_warthog.sh: warthog %s on %s: %d of %d queries unsolved or off the scenario's length" %
             (sys.argv[2], sys.argv[3], off, len(rows)))
expanded = statistics.mean(int(row[col["expanded"]]) for row in rows)
print("%.3f %.3f %d %d %.1f" % (statistics.mean(micro), statistics.median(micro), len(rows), solved, expanded))
EOF
}

# Seconds of wall time of a command, the median of 5 runs.
wall_median() {
  python3 - "$@" <<'EOF'
import statistics, subprocess, sys, time
times = []
for _ in range(5):
    started = time.perf_counter()
    subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append(time.perf_counter() - started)
print("%.6f" % statistics.median(times))
EOF
}

results=$work/results
: > "$results"
echo "Wayfinder: $wayfinder"
echo "Warthog:   $warthog"
echo "rounds:    $rounds"
printf '%-18s %-5s %-4s %-9s %10s %10s %8s %8s %10s\n' scenario pair round program mean_us median_us queries solved expanded
for name in $scenarios; do
  map=$data/$name.map scen=$data/$name.map.scen
  table=$work/$(basename "$name").jpt

  # The jump tables, built outside the timed passes.
  build_ms=$("$wayfinder" grid preprocess "$map" -o "$table" --json |
    python3 -c 'import json, sys; print("%.2f" % json.load(sys.stdin)["preprocess_ms"])')
  head -n 2 "$scen" > "$work/one.scen"
  plus=$(wall_median "$warthog" --alg jps2+ --scen "$work/one.scen" --map "$map")
  plain=$(wall_median "$warthog" --alg jps2 --scen "$work/one.scen" --map "$map")
  echo "table $name wayfinder $build_ms warthog $(python3 -c "print('%.2f' % (1000 * ($plus - $plain)))")" >> "$results"

  for pair in $pairs; do
    algo=$pair
    case $pair in
      jps) alg=jps2 extra=() ;;
      jps-plus) alg=jps2+ extra=(--table "$table") ;;
      jps-plus-bounded) alg=jps2+ algo=jps-plus extra=(--table "$table" --bounds "$bounds_dir/$(basename "$name").bounds") ;;
    esac
    for ((round = 1; round <= rounds; ++round)); do
      if ((round % 2 == 1)); then order="warthog wayfinder"; else order="wayfinder warthog"; fi
      for program in $order; do
        if [[ $program == wayfinder ]]; then
          line=$(wayfinder_pass "$algo" "$scen" "${extra[@]}")
        else
          line=$(warthog_pass "$alg" "$scen" "$map")
        fi
        read -r mean median count solved expanded <<< "$line"
        printf '%-18s %-5s %-4s %-9s %10s %10s %8s %8s %10s\n' \
          "$name" "$alg" "$round" "$program" "$mean" "$median" "$count" "$solved" "$expanded"
        echo "pass $name $pair $round $program $mean $median $count $expanded" >> "$results"
      done
    done
  done
done

python3 - "$results" <<'EOF'
import statistics, sys
passes, tables, names = {}, {}, []
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "table":
        tables[f[1]] = (float(f[3]), float(f[5]))
        names.append(f[1])
    else:
        _, name, pair, rnd, program, mean, median, count, expanded = f
        passes.setdefault((name, pair), {}).setdefault(int(rnd), {})[program] = (
            float(mean), float(median), int(count), float(expanded))
med = statistics.median
print()
print("Medians over the rounds (us per query); ratios are Wayfinder / Warthog, per round, then their median.")
print("%-18s %-14s %8s %8s %8s %8s %8s %8s %7s %14s" % ("scenario", "pair", "W mean", "Wh mean", "ratio",
      "W med", "Wh med", "ratio", "rounds", "expanded W/Wh"))
for name in names:
    for pair, label in (("jps", "jps/jps2"), ("jps-plus", "jps+/jps2+"), ("jps-plus-bounded", "jps+gb/jps2+")):
        if (name, pair) not in passes:
            continue
        rounds = passes[(name, pair)]
        w = [r["wayfinder"] for r in rounds.values()]
        h = [r["warthog"] for r in rounds.values()]
        assert all(a[2] == b[2] for a, b in zip(w, h)), "query counts differ"
        print("%-18s %-14s %8.2f %8.2f %8.3f %8.2f %8.2f %8.3f %7d %6.1f/%-7.1f" % (
            name, label, med(x[0] for x in w), med(x[0] for x in h),
            med(a[0] / b[0] for a, b in zip(w, h)),
            med(x[1] for x in w), med(x[1] for x in h),
            med(a[1] / b[1] for a, b in zip(w, h)), len(rounds), w[0][3], h[0][3]))
print()
print("Jump tables (not in the times above): build ms, Wayfinder (grid preprocess) / Warthog (jps2+ set-up)")
for name in names:
    print("%-18s %8.2f %8.2f" % (name, tables[name][0], tables[name][1]))
EOF
