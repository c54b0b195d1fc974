#!/usr/bin/env bash
# Runs the `wayfinder` command the way a user would and checks exit codes and key output:
# the mesh and voxel commands on small inputs, and on the shared data when it is there.
#
#   tests/cli/run_cli_tests.sh WAYFINDER_BINARY DATA_DIR SCRATCH_DIR REPOSITORY_ROOT
set -uo pipefail
wayfinder=$1
data=${WAYFINDER_DATA_DIR:-$2}
scratch=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=${4:-$here/../..}
mkdir -p "$scratch"
failures=0

# expect CODE DESCRIPTION -- COMMAND...: runs the command, checks its exit code, keeps its output.
expect() {
  local code=$1 description=$2
  shift 3
  output=$("$@" 2>&1)
  local status=$?
  if [[ $status -ne $code ]]; then
    echo "FAIL ($description): exit $status, expected $code: $*"
    echo "$output" | head -n 20
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   ($description)"
}

# contains TEXT DESCRIPTION: the last command's output contains TEXT.
contains() {
  if [[ "$output" != *"$1"* ]]; then
    echo "FAIL ($2): output lacks '$1'"
    echo "$output" | head -n 20
    failures=$((failures + 1))
  fi
}

# lacks TEXT DESCRIPTION: the last command's output does not contain TEXT.
lacks() {
  if [[ "$output" == *"$1"* ]]; then
    echo "FAIL ($2): output has '$1'"
    echo "$output" | head -n 20
    failures=$((failures + 1))
  fi
}

# expect_split CODE DESCRIPTION -- COMMAND...: as expect, but keeps standard output in $output
# and standard error in $errors, for checks that each carries only what it should.
expect_split() {
  local code=$1 description=$2
  shift 3
  output=$("$@" 2>"$scratch/stderr")
  local status=$?
  errors=$(cat "$scratch/stderr")
  if [[ $status -ne $code ]]; then
    echo "FAIL ($description): exit $status, expected $code: $*"
    echo "$output" | head -n 20
    echo "$errors" | head -n 20
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   ($description)"
}

# json_error DESCRIPTION: the last expect_split printed exactly one JSON error object on standard
# output (with every key a script relies on) and nothing on standard error.
json_error() {
  if [[ "$output" != '{"error":"'*'","file":'*',"line":'*',"column":'*',"exit":2}' || "$output" == *$'\n'* ]]; then
    echo "FAIL ($1): standard output is not one JSON error object: $output"
    failures=$((failures + 1))
  fi
  if [[ -n "$errors" ]]; then
    echo "FAIL ($1): standard error is not empty: $errors"
    failures=$((failures + 1))
  fi
}

# keys_documented DESCRIPTION: every key of the JSON the last command printed is documented in
# docs/cli.md (as `key`), so that the page lists what scripts will find.
keys_documented() {
  local key missing=""
  for key in $(grep -oE '"[a-z_][a-z0-9_]*":' <<<"$output" | tr -d '":' | sort -u); do
    grep -qF "\`$key\`" "$root/docs/cli.md" || missing+=" $key"
  done
  if [[ -n $missing ]]; then
    echo "FAIL ($1): docs/cli.md does not document these JSON keys:$missing"
    failures=$((failures + 1))
  fi
}

# answers_only: the last command's output without its timings, which differ from run to run
# (times per query, throughput, expansions per wall or processor second, the jump table's build time) and without the
# thread count, leaving what every answer was and how the checks judged it.
answers_only() {
  sed -E 's/"(mean_us|median_us|throughput_qps|threads|expansions_per_second|cpu_expansions_per_second|locate_us|search_us|funnel_us|preprocess_ms)":[^,}]*,?//g' <<<"$output"
}

# same_answers_on_threads DESCRIPTION -- COMMAND...: the bench command gives the same answers,
# checks and exit status with --threads 2 (one batch on two threads) as with --threads 1 (one by
# one), and reports the thread count and a throughput.
same_answers_on_threads() {
  local description=$1
  shift 2
  "$@" --threads 1 --json >"$scratch/one_thread.json" 2>/dev/null
  local one_status=$?
  "$@" --threads 2 --json >"$scratch/two_threads.json" 2>/dev/null
  local two_status=$?
  output=$(cat "$scratch/one_thread.json")
  local one_thread
  one_thread=$(answers_only)
  contains '"threads":1,' "$description: JSON gives the thread count"
  output=$(cat "$scratch/two_threads.json")
  local two_threads
  two_threads=$(answers_only)
  contains '"threads":2,' "$description: JSON gives the thread count"
  contains '"throughput_qps":' "$description: JSON gives the throughput"
  keys_documented "$description JSON"
  if [[ $one_status -ne $two_status || "$one_thread" != "$two_threads" || -z "$one_thread" ]]; then
    echo "FAIL ($description): --threads 2 (exit $two_status) differs from --threads 1 (exit $one_status)"
    diff <(echo "$one_thread") <(echo "$two_threads") | head -n 10
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   ($description)"
}

# ---------------------------------------------------------------------------------------------
# Grids: a 7 x 6 map whose four queries have different optimal costs under each diagonal rule
# (corners.map.scen holds the MovingAI rule's lengths).

grid_map=$here/corners.map
grid_scenario=$here/corners.map.scen
expect 0 "grid path" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --json --smooth --svg "$scratch/corners.svg"
contains '"cost":9.828427' "grid path finds the optimal cost under the MovingAI rule"
contains '"diagonal":"only-if-no-obstacles"' "grid path names the diagonal rule as the command line spells it"
keys_documented "grid path JSON"
expect 0 "grid path cutting corners" -- "$wayfinder" grid path "$grid_map" --from 1,2 --to 3,2 --diagonal always --json
contains '"cost":2.828427' "grid path under --diagonal always passes between two walls"
expect 0 "grid path as text" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5
contains "path:         10 cells: 0,0 1,0 2,0 3,0 ... 6,2 6,3 6,4 6,5 (--full-path prints every cell)" \
  "a long path prints as its number of cells and its first and last cells"
expect 0 "grid path --full-path" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --full-path
contains "path:         10 cells: 0,0 1,0 2,0 3,0 4,1 5,1 6,2 6,3 6,4 6,5" "--full-path prints every cell"
lacks "..." "--full-path elides nothing"
expect 1 "grid path out of budget" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --max-expansions 2
contains "partial path" "a budget stop prints the partial path"
expect 0 "grid bench" -- "$wayfinder" grid bench "$grid_scenario" --algo all --json
contains '"reference":"scenario"' "grid bench checks against the scenario under the MovingAI rule"
contains '"algorithm":"jps"' "grid bench runs jps under the MovingAI rule"
keys_documented "grid bench JSON"
expect 0 "grid path --algo hpa" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --algo hpa --cluster-size 4 --json
contains '"status":"found"' "hpa finds a path"
contains '"hierarchy":{"cluster_size":4,' "grid path --algo hpa reports the hierarchy"
keys_documented "grid path --algo hpa JSON"
expect 0 "grid bench --algo hpa" -- "$wayfinder" grid bench "$grid_scenario" --algo hpa,astar --cluster-size 4 --json
contains '"mismatches":0,' "hpa's answers pass the bench's checks"
contains '"mean_cost_ratio":' "grid bench gives the cost ratio"
keys_documented "grid bench --algo hpa JSON"
expect 2 "grid path --algo hpa under another diagonal rule" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --algo hpa --diagonal always

# --threads N: one batch on N threads, the same answers as one by one, and a throughput.
same_answers_on_threads "grid bench --threads 2" -- "$wayfinder" grid bench "$grid_scenario" --algo all
same_answers_on_threads "grid bench --threads 2 --diagonal never" -- "$wayfinder" grid bench "$grid_scenario" --algo all --diagonal never
expect 0 "grid bench --threads 2 as text" -- "$wayfinder" grid bench "$grid_scenario" --threads 2
contains "throughput: " "the text gives the throughput"
contains "queries/s on 2 threads" "the text names the thread count"
for bad in 0 x -1 1.5; do
  expect 2 "grid bench --threads $bad" -- "$wayfinder" grid bench "$grid_scenario" --threads "$bad"
  contains "--threads must be a whole number from 1 to 256, got '$bad'" "--threads $bad is refused in words"
done

# Under other diagonal rules the scenario's lengths do not hold: the bench checks against
# Dijkstra's costs under the rule, and would report 4 mismatches per algorithm otherwise.
for mode in never at-least-one-walkable always; do
  expect_split 0 "grid bench --diagonal $mode" -- "$wayfinder" grid bench "$grid_scenario" --algo all --diagonal $mode --json
  contains '"reference":"dijkstra"' "grid bench --diagonal $mode uses Dijkstra's costs"
  contains '"mismatches":0' "grid bench --diagonal $mode agrees with them"
  lacks '"algorithm":"jps"' "grid bench --algo all leaves jps out under --diagonal $mode"
  [[ "$errors" == *"jps left out"* ]] || { echo "FAIL (grid bench --diagonal $mode): no warning that jps was left out"; failures=$((failures + 1)); }
done
expect 2 "grid bench --algo jps under another rule" -- "$wayfinder" grid bench "$grid_scenario" --algo jps --diagonal never
contains "jump point search supports only --diagonal only-if-no-obstacles" "the error says why"

# The reactive walkers run through grid path (never grid bench, which promises optimal answers):
# round a block they arrive; at a goal walled in they say why and exit 1, as for no path.
cat >"$scratch/walkers.map" <<'MAP'
type octile
height 8
width 14
map
..............
..............
.....@@@......
.....@@@...@@@
.....@@@...@.@
.....@@@...@@@
..............
..............
MAP
expect 0 "grid path --help lists the walkers" -- "$wayfinder" grid path --help
for walker in crash-right crash-left crash-auto crash-four-way divide; do
  contains "$walker" "grid path --help names $walker"
done
for walker in crash-right crash-left crash-auto crash-four-way divide; do
  expect 0 "grid path --algo $walker round a block" -- "$wayfinder" grid path "$scratch/walkers.map" --from 1,4 --to 9,4 --algo "$walker" --json
  contains '"status":"found"' "$walker arrives"
  contains "\"algorithm\":\"$walker\"" "the JSON names $walker"
  keys_documented "grid path --algo $walker JSON"
  expect 1 "grid path --algo $walker to a walled-in goal" -- "$wayfinder" grid path "$scratch/walkers.map" --from 1,4 --to 12,4 --algo "$walker"
  contains "why:" "$walker says why it failed"
  expect 2 "grid bench refuses $walker" -- "$wayfinder" grid bench "$grid_scenario" --algo "astar,$walker"
  contains "'$walker' is a reactive walker, not a search" "grid bench says why it refuses $walker"
done
expect 1 "a walker looping round a walled-in goal" -- "$wayfinder" grid path "$scratch/walkers.map" --from 1,4 --to 12,4 --algo crash-right --json
contains '"status":"no_path"' "the loop is no_path"
contains '"message":"the walker looped' "the JSON message says the walker looped"
keys_documented "grid path walker failure JSON"
expect 1 "a walker past its step limit" -- "$wayfinder" grid path "$scratch/walkers.map" --from 1,4 --to 9,4 --algo crash-left --step-limit 3
contains "budget_exhausted" "the step limit gives budget_exhausted"
contains "step limit reached" "and says so"
expect 2 "--step-limit 0" -- "$wayfinder" grid path "$scratch/walkers.map" --from 1,4 --to 9,4 --algo divide --step-limit 0
contains "--step-limit must be a whole number from 1 to" "--step-limit 0 is refused in words"

# Agents larger than one cell: a wall with a gap two cells wide lets a 2x2 agent through, not a
# 3x3 one; a body that does not fit at an end, sizes out of range and unsupported algorithms are
# errors in words.
cat >"$scratch/gap.map" <<'MAP'
type octile
height 8
width 12
map
............
............
............
@@@@@..@@@@@
@@@@@..@@@@@
............
............
............
MAP
expect 0 "grid path --agent-size 2 through a gap" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2 --json
contains '"agent_size":2' "the JSON gives the agent's size"
contains '"status":"found"' "the 2x2 agent passes the gap"
keys_documented "grid path --agent-size JSON"
expect 0 "grid path --agent-size 2 as text" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2
contains "agent 2x2 by its top-left cell" "the text names the agent's size"
expect 1 "grid path --agent-size 3 cannot pass the gap" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 9,5 --agent-size 3
contains "status:       no_path" "the 3x3 agent finds no path"
expect 2 "grid path --agent-size 3 where the body does not fit" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,1 --to 9,5 --agent-size 3
contains "start (0,1): a 3x3 agent with its top-left cell there does not fit: its cell (0,3) is blocked" "the error names the end and the cell in the way"
for size in 0 256 -1 nan 1.5 abc 99999999999999999999; do
  expect 2 "--agent-size $size" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size "$size"
  contains "--agent-size must be a whole number from 1 to 255, got '$size'" "--agent-size $size is refused in words"
done
for algo in jps jps-plus hpa; do
  expect 0 "--agent-size 2 with $algo" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2 --algo "$algo"
  contains "status:       found" "$algo finds the 2x2 agent's way through the gap"
done
expect 2 "--agent-size with bfs" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2 --algo bfs
contains "bfs supports only --agent-size 1, not 2: the wave reads the map's cells directly" "bfs refuses large agents, naming the option"
expect 2 "--agent-size with --table" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2 --algo jps-plus --table "$scratch/gap.jump"
contains "--table holds a one-cell agent's jumps" "a saved table is refused for larger agents"
expect 2 "--agent-size with --smooth" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --agent-size 2 --smooth
contains "--smooth supports only --agent-size 1" "smoothing refuses large agents"

printf 'version 1\n0\tgap.map\t12\t8\t0\t0\t10\t6\t12.48528137\n0\tgap.map\t12\t8\t0\t1\t9\t5\t10.65685425\n0\tgap.map\t12\t8\t11\t0\t0\t7\t14\n' >"$scratch/gap.map.scen"
expect_split 0 "grid bench --agent-size 2" -- "$wayfinder" grid bench "$scratch/gap.map.scen" --agent-size 2 --algo all --json
contains '"agent_size":2' "the bench's JSON gives the agent's size"
contains '"reference":"dijkstra"' "a larger agent is checked against dijkstra"
contains '1 of the 3 queries left out: a 2x2 agent does not fit at their start or goal' "queries the body does not fit are left out"
contains '"mismatches":0' "no mismatch for the larger agent"
keys_documented "grid bench --agent-size JSON"
same_answers_on_threads "grid bench --agent-size 2 --threads 2" -- "$wayfinder" grid bench "$scratch/gap.map.scen" --agent-size 2 --algo all --json
expect_split 0 "grid bench --agent-size 2 --algo jps,jps-plus,hpa" -- "$wayfinder" grid bench "$scratch/gap.map.scen" --agent-size 2 --algo jps,jps-plus,hpa --json
contains '"mismatches":0' "jps, jps-plus and hpa answer the 2x2 agent's queries without a mismatch"
for algo in jps jps-plus hpa; do contains "\"algorithm\":\"$algo\"" "grid bench runs $algo for a larger agent"; done
expect 2 "grid bench --agent-size 2 --algo bfs" -- "$wayfinder" grid bench "$scratch/gap.map.scen" --agent-size 2 --algo bfs
contains "--algo bfs: the breadth-first wave supports only --agent-size 1" "bfs by name is refused for larger agents"
expect 2 "grid bench --agent-size 9" -- "$wayfinder" grid bench "$scratch/gap.map.scen" --agent-size 9
contains "a 9x9 agent fits at the start and goal of none of its 3 queries" "a body that fits nowhere is an error"

# JPS+: a saved jump table is loaded by path and bench, and refused for another map or when cut.
expect_split 0 "grid preprocess --json" -- "$wayfinder" grid preprocess "$scratch/gap.map" -o "$scratch/gap.jump" --json
contains '"file_bytes":' "grid preprocess reports the file's size"
keys_documented "grid preprocess JSON"
expect 0 "grid path --table" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo jps-plus --table "$scratch/gap.jump"
contains "status:       found" "jps-plus finds the path with a loaded table"
expect_split 0 "grid bench --algo jps-plus --json" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --json
contains '"mismatches":0' "jps-plus is optimal on the bench"
contains '"table_bytes":' "the bench gives the table's size"
keys_documented "grid bench jps-plus JSON"
expect 0 "grid preprocess" -- "$wayfinder" grid preprocess "$grid_map" -o "$scratch/corners.jump"
expect 0 "grid bench --table" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --table "$scratch/corners.jump"
contains "loaded from" "the bench says the table was loaded"
head -c 100 "$scratch/gap.jump" >"$scratch/cut.jump"
expect 2 "grid path --table without jps-plus" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo astar --table "$scratch/gap.jump"
contains "--table is read only by --algo jps-plus, not astar" "a table given to another search is refused in words"
expect 2 "grid bench --table without jps-plus" -- "$wayfinder" grid bench "$grid_scenario" --algo astar,jps --table "$scratch/corners.jump"
contains "--table is read only by jps-plus, which --algo does not include" "a table given to other searches is refused in words"
expect 2 "grid path --table truncated" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo jps-plus --table "$scratch/cut.jump"
contains "cut.jump: truncated" "a truncated table is refused, naming the file"
expect 2 "grid bench --table for another map" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --table "$scratch/gap.jump"
contains "gap.jump: the table was built for" "a table of another map is refused"
contains "(the jump table given for the map " "the refusal names the map as well as the table"
expect 2 "grid path --table missing" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo jps-plus --table "$scratch/missing.jump"
contains "$scratch/missing.jump: no such file (the jump table given for the map $scratch/gap.map; write one with \`wayfinder grid preprocess $scratch/gap.map -o $scratch/missing.jump\`)" \
  "a missing table is named with its map and the command that writes it"

# Goal bounds built in ranges of cells and merged, in any order, give the whole build's file;
# merges of parts that miss cells, overlap or belong to another map are refused in words.
expect 0 "grid preprocess --goal-bounds" -- "$wayfinder" grid preprocess "$scratch/gap.map" -o "$scratch/gap.jump" --goal-bounds "$scratch/gap.bounds"
for range in 0:30 30:61 61:96; do
  expect_split 0 "grid preprocess --goal-bounds-range $range" -- "$wayfinder" grid preprocess "$scratch/gap.map" -o "$scratch/gap.jump" --goal-bounds "$scratch/gap.$range.part" --goal-bounds-range "$range" --json
  contains "\"goal_bounds_range\":[${range/:/,}]" "grid preprocess reports the range it built"
  keys_documented "grid preprocess --goal-bounds-range JSON"
done
expect_split 0 "grid merge-goal-bounds --json" -- "$wayfinder" grid merge-goal-bounds "$scratch/gap.map" "$scratch/gap.61:96.part" "$scratch/gap.0:30.part" "$scratch/gap.30:61.part" -o "$scratch/gap.merged" --json
keys_documented "grid merge-goal-bounds JSON"
cmp -s "$scratch/gap.bounds" "$scratch/gap.merged" || { echo "FAIL (merged parts differ from the whole build's file)"; failures=$((failures + 1)); }
expect 2 "grid merge-goal-bounds with a part missing" -- "$wayfinder" grid merge-goal-bounds "$scratch/gap.map" "$scratch/gap.0:30.part" "$scratch/gap.61:96.part" -o "$scratch/gap.merged"
contains "cannot merge the parts: the cells [30, 61) are in no part" "a missing range is named"
expect 2 "grid merge-goal-bounds with a part twice" -- "$wayfinder" grid merge-goal-bounds "$scratch/gap.map" "$scratch/gap.0:30.part" "$scratch/gap.0:30.part" "$scratch/gap.30:61.part" "$scratch/gap.61:96.part" -o "$scratch/gap.merged"
contains "overlap (the cells [0, 30) are in both)" "overlapping parts are named"
expect 2 "grid merge-goal-bounds for another map" -- "$wayfinder" grid merge-goal-bounds "$grid_map" "$scratch/gap.0:30.part" "$scratch/gap.30:61.part" "$scratch/gap.61:96.part" -o "$scratch/gap.merged"
contains "the part of cells [0, 30) was built for a 12x8 map" "parts of another map are refused"
expect 2 "grid merge-goal-bounds of a whole bounds file" -- "$wayfinder" grid merge-goal-bounds "$scratch/gap.map" "$scratch/gap.bounds" -o "$scratch/gap.merged"
contains "not a goal bounds' part file" "a file that is not a part is refused"
expect 2 "grid preprocess --goal-bounds-range past the map" -- "$wayfinder" grid preprocess "$scratch/gap.map" -o "$scratch/gap.jump" --goal-bounds "$scratch/gap.x.part" --goal-bounds-range 10:97
contains "--goal-bounds-range must be FIRST:LAST, cell ids from 0 to 96" "a range past the map is refused in words"

# Memory: the tables' sizes are known before building, and a cap (--max-table-memory MiB)
# refuses them in words, naming both numbers; running out of memory anyway is reported in words
# with exit 3, not as a raw std::bad_alloc.
open_map() {  # open_map SIDE FILE: an open SIDE x SIDE MovingAI map
  local row
  row=$(printf '%*s' "$1" '' | tr ' ' '.')
  { printf 'type octile\nheight %d\nwidth %d\nmap\n' "$1" "$1"; yes "$row" | head -n "$1"; } >"$2"
}
open_map 1024 "$scratch/open1024.map"
rm -f "$scratch/open.jump"
expect 2 "grid preprocess over --max-table-memory" -- "$wayfinder" grid preprocess "$scratch/open1024.map" -o "$scratch/open.jump" --max-table-memory 8
contains "the jump table of this 1024x1024 map needs 17 MiB, above the cap of 8 MiB; raise it with --max-table-memory 17" "the cap refuses the table in words"
expect 2 "grid preprocess --goal-bounds over --max-table-memory" -- "$wayfinder" grid preprocess "$scratch/open1024.map" -o "$scratch/open.jump" --goal-bounds "$scratch/open.bounds" --max-table-memory 40
contains "building the goal bounds (on 2 threads) of this 1024x1024 map needs" "the cap refuses the bounds' build in words"
[[ ! -e "$scratch/open.jump" ]] || { echo "FAIL (a refused preprocess wrote nothing): $scratch/open.jump exists"; failures=$((failures + 1)); }
expect 2 "grid path --algo jps-plus over --max-table-memory" -- "$wayfinder" grid path "$scratch/open1024.map" --from 0,0 --to 1023,1023 --algo jps-plus --max-table-memory 8
contains "the jump table of this 1024x1024 map needs 17 MiB" "grid path refuses a table over the cap"
printf 'version 1\n0\topen1024.map\t1024\t1024\t0\t0\t1023\t1023\t1446.74089488\n' >"$scratch/open1024.map.scen"
expect 2 "grid bench --algo jps-plus over --max-table-memory" -- "$wayfinder" grid bench "$scratch/open1024.map.scen" --algo jps-plus --max-table-memory 8
contains "the jump table of this 1024x1024 map needs 17 MiB" "grid bench refuses a table over the cap"
expect 0 "grid preprocess within --max-table-memory" -- "$wayfinder" grid preprocess "$scratch/open1024.map" -o "$scratch/open.jump" --max-table-memory 17
# Out of memory: a 4096 x 4096 map loads in about 100 MB, its table needs 256 MiB more than a
# 250 MB address space leaves. (Skipped where the command cannot start in 250 MB: sanitizer builds.)
if (ulimit -v 250000 && "$wayfinder" --version >/dev/null 2>&1); then
  open_map 4096 "$scratch/open4096.map"
  expect 3 "grid preprocess out of memory" -- bash -c 'ulimit -v 250000 && exec "$0" grid preprocess "$1" -o "$2"' "$wayfinder" "$scratch/open4096.map" "$scratch/open4096.jump"
  contains "wayfinder: out of memory while running 'wayfinder grid preprocess'" "running out of memory is reported in words"
  lacks "bad_alloc" "no raw std::bad_alloc"
  expect_split 3 "grid preprocess out of memory --json" -- bash -c 'ulimit -v 250000 && exec "$0" grid preprocess "$1" -o "$2" --json' "$wayfinder" "$scratch/open4096.map" "$scratch/open4096.jump"
  contains '"exit":3' "the JSON error gives exit 3"
  rm -f "$scratch/open4096.map" "$scratch/open4096.jump"
else
  echo "skip (out of memory: the command cannot start within a 250 MB address space here)"
fi

# Goal bounds: built beside the table, used by path and bench, refused for another map, when cut,
# and with a batch.
expect_split 0 "grid preprocess --goal-bounds --json" -- "$wayfinder" grid preprocess "$grid_map" -o "$scratch/corners.jump" --goal-bounds "$scratch/corners.bounds" --build-threads 3 --json
contains '"goal_bounds_threads":3' "grid preprocess reports the bounds' threads"
keys_documented "grid preprocess --goal-bounds JSON"
expect_split 0 "grid bench --bounds --json" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --table "$scratch/corners.jump" --bounds "$scratch/corners.bounds" --json
contains '"mismatches":0' "jps-plus with goal bounds is optimal on the bench"
contains '"goal_bounds":"' "the bench names the bounds"
keys_documented "grid bench --bounds JSON"
expect 0 "grid preprocess gap --goal-bounds" -- "$wayfinder" grid preprocess "$scratch/gap.map" -o "$scratch/gap.jump" --goal-bounds "$scratch/gap.bounds"
contains "goal bounds:" "grid preprocess reports the bounds"
expect 0 "grid path --bounds" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo jps-plus --bounds "$scratch/gap.bounds"
contains "status:       found" "jps-plus finds the path with goal bounds"
head -c 100 "$scratch/gap.bounds" >"$scratch/cut.bounds"
expect 2 "grid path --bounds truncated" -- "$wayfinder" grid path "$scratch/gap.map" --from 0,0 --to 10,6 --algo jps-plus --bounds "$scratch/cut.bounds"
contains "cut.bounds: truncated" "truncated goal bounds are refused, naming the file"
expect 2 "grid bench --bounds for another map" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --bounds "$scratch/gap.bounds"
contains "gap.bounds: the goal bounds were built for" "goal bounds of another map are refused"
expect 2 "grid bench --bounds missing" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --bounds "$scratch/missing.bounds"
contains "$scratch/missing.bounds: no such file (the goal bounds given for the map " "missing goal bounds are named with their map"
expect 2 "grid bench --bounds --threads 2" -- "$wayfinder" grid bench "$grid_scenario" --algo jps-plus --bounds "$scratch/corners.bounds" --threads 2
contains "--bounds supports only --threads 1" "goal bounds with a batch are refused"

# IDA* promises optimal paths: a scenario with a wrong optimal length is a mismatch for it too.
sed 's/9\.82842712/9.5/' "$grid_scenario" >"$scratch/corners.map.scen"
cp "$grid_map" "$scratch/corners.map"
expect 1 "grid bench checks ida against the optimum" -- "$wayfinder" grid bench "$scratch/corners.map.scen" --algo ida
contains "mismatch: $scratch/corners.map.scen:2: ida" "the mismatch names the query and ida"

# --limit N stops reading after N queries: a malformed line after them does not matter.
{ cat "$grid_scenario"; printf '0\tcorners.map\t7\t6\t0\t0\tsix\t5\t9.82842712\n'; } >"$scratch/truncated.map.scen"
expect 0 "grid bench --limit reads only what it runs" -- "$wayfinder" grid bench "$scratch/truncated.map.scen" --map "$grid_map" --limit 4
expect_split 2 "grid bench without --limit reads the malformed line" -- "$wayfinder" grid bench "$scratch/truncated.map.scen" --map "$grid_map" --json
json_error "a malformed scenario in JSON"
contains '"line":6,"column":' "the JSON error gives the line"
contains "non-numeric goal x 'six'" "the JSON error gives the cause"

# A scenario written for another map: a warning when the sizes agree, an error when they do not.
cp "$grid_map" "$scratch/renamed.map"
expect_split 0 "grid bench on a renamed map" -- "$wayfinder" grid bench "$grid_scenario" --map "$scratch/renamed.map" --json
contains '"warnings":["this scenario was written for corners.map, not renamed.map' "the JSON carries the warning"
[[ "$errors" == *"warning: this scenario was written for corners.map, not renamed.map"* ]] ||
  { echo "FAIL (grid bench on a renamed map): no warning on standard error"; failures=$((failures + 1)); }
printf 'type octile\nheight 2\nwidth 2\nmap\n..\n..\n' >"$scratch/small.map"
expect 2 "grid bench on a map of another size" -- "$wayfinder" grid bench "$grid_scenario" --map "$scratch/small.map"
contains "corners.map.scen:2: this scenario was written for corners.map, not small.map (7 x 6 cells, not 2 x 2)" "the error names both maps and sizes"
printf 'type octile\nheight 6\nwidth 7\nmap\n@......\n.......\n.......\n.......\n.......\n.......\n' >"$scratch/walled.map"
expect 2 "grid bench on another map of the same size" -- "$wayfinder" grid bench "$grid_scenario" --map "$scratch/walled.map"
contains "start (0, 0) is on a blocked cell (this scenario was written for corners.map, not walled.map" "a blocked start mentions the other map"

# Numbers are checked and explained in words.
expect 2 "--max-expansions 0" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --max-expansions 0
contains "--max-expansions must be a whole number from 1 to 18446744073709551615, got '0'" "the range in words"
expect 2 "--max-expansions beyond 2^64" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --max-expansions 18446744073709551616
contains "got '18446744073709551616'" "a value past 2^64 is refused"
expect 0 "demo" -- "$wayfinder" demo --out "$scratch/demo"
for picture in wayfinder-demo.svg wayfinder-demo-searches.svg wayfinder-demo-walkers.svg; do
  if [[ ! -s $scratch/demo/$picture ]]; then
    echo "FAIL (demo): no $picture written"
    failures=$((failures + 1))
  fi
done
touch "$scratch/demo_file"
expect 2 "demo --out a file" -- "$wayfinder" demo --out "$scratch/demo_file"
contains "--out $scratch/demo_file: cannot create the directory" "an --out that cannot be a directory is refused in words"
expect 2 "a misspelt command" -- "$wayfinder" frobnicate
contains "unknown command 'frobnicate' after 'wayfinder' (commands: grid, mesh, voxel, crowd, demo, serve)" \
  "a misspelt command is named, with the commands there are"
expect 2 "a misspelt grid command" -- "$wayfinder" grid pth
contains "unknown command 'pth' after 'wayfinder grid' (commands: path, bench, replan, preprocess, merge-goal-bounds)" \
  "a misspelt grid command is named, with the grid's commands"
expect 2 "--seed -1" -- "$wayfinder" demo --seed -1 --out "$scratch"
contains "--seed must be a whole number from 0 to 18446744073709551615, got '-1'" "a negative seed is refused"
expect 2 "--limit 1.5" -- "$wayfinder" grid bench "$grid_scenario" --limit 1.5
contains "--limit must be a whole number from 1" "a fraction is refused"
expect 2 "--weight 0.5" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --algo weighted-astar --weight 0.5
contains "--weight must be a finite number of at least 1, got '0.5'" "a weight below 1 is refused"
expect 2 "--weight inf" -- "$wayfinder" grid bench "$grid_scenario" --weight inf
contains "--weight must be a finite number of at least 1, got 'inf'" "an infinite weight is refused"
# Weights that would overflow the search's priorities on this map are refused by the library,
# in the command line's words.
expect_split 2 "--weight 1e308" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --algo weighted-astar --weight 1e308 --json
json_error "an overflowing weight in JSON"
contains '--weight 1e+308 is too large for this 7x6 map' "the weight error names the flag"
expect 2 "--weight 1e308 in grid bench" -- "$wayfinder" grid bench "$grid_scenario" --algo weighted-astar --weight 1e308
contains '--weight 1e+308 is too large' "grid bench reports the weight error"
expect 0 "--weight 1e300" -- "$wayfinder" grid path "$grid_map" --from 0,0 --to 6,5 --algo weighted-astar --weight 1e300

# With --json, every error is one JSON object on standard output: usage errors from parsing
# too, and the file, line and column of a load error.
expect_split 2 "usage error as JSON" -- "$wayfinder" grid path "$grid_map" --json --from 0,0
json_error "usage error as JSON"
contains '"error":"--to is required"' "the usage error is CLI11's message"
expect_split 2 "unknown option as JSON" -- "$wayfinder" mesh info "$here/two_rooms.obj" --json --frobnicate
json_error "unknown option as JSON"
expect_split 2 "invalid query as JSON" -- "$wayfinder" grid path "$grid_map" --from 1,1 --to 6,5 --json
json_error "invalid query as JSON"
contains '"error":"'"$grid_map"': start (1,1) is blocked","file":"'"$grid_map"'","line":null' "the JSON error names the map"
expect_split 2 "missing file as JSON" -- "$wayfinder" grid path "$scratch/missing.map" --from 0,0 --to 1,1 --json
json_error "missing file as JSON"
printf 'type octile\nheight 2\nwidth 2\nmap\n..\n.x\n' >"$scratch/bad.map"
expect_split 2 "malformed map as JSON" -- "$wayfinder" grid path "$scratch/bad.map" --from 0,0 --to 1,1 --json
json_error "malformed map as JSON"
contains '"file":"'"$scratch/bad.map"'","line":6,"column":2,"exit":2' "the JSON error gives file, line and column"
expect_split 2 "text errors stay on standard error" -- "$wayfinder" grid path "$scratch/bad.map" --from 0,0 --to 1,1
[[ -z "$output" && "$errors" == "wayfinder: $scratch/bad.map:6:2: unexpected character 'x'" ]] ||
  { echo "FAIL (text errors): output '$output', errors '$errors'"; failures=$((failures + 1)); }
expect 0 "--help with --json is still help" -- "$wayfinder" grid path --help --json
contains "Usage: wayfinder grid path" "help is printed as text"

# One vocabulary: the diagonal rules are spelled with dashes in help and output, and the old
# spellings of renamed options still work but are not shown.
expect 0 "grid path help" -- "$wayfinder" grid path --help
contains "never, at-least-one-walkable, only-if-no-obstacles, always" "help spells the diagonal rules with dashes"
lacks "only_if_no_obstacles" "help has no underscore spelling"

mesh=$here/two_rooms.obj
expect 0 "mesh info" -- "$wayfinder" mesh info "$mesh" --json
contains '"polygons":4' "mesh info counts the polygons"
contains '"regions":2' "mesh info finds the ledge as its own region"

expect 0 "mesh path through the door" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --json --svg "$scratch/two_rooms.svg"
contains '"status":"found"' "mesh path is found"
contains '[4.0,0.0,1.5]' "mesh path turns at the door's corner"
[[ -s "$scratch/two_rooms.svg" ]] || { echo "FAIL (mesh path --svg): no picture"; failures=$((failures + 1)); }

expect 1 "mesh path to another region" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7
contains "message:      start and goal are in different connected regions" "mesh path says why there is no path"
expect 1 "mesh path to another region, JSON" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --json
contains '"message":"start and goal are in different connected regions' "mesh path --json says why there is no path"
# Pictures of one height range: the ledge (y 3) alone, by --y-range or as height band 1.
expect 0 "mesh path --svg --y-range" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/ledge.svg" --y-range 2,4
if [[ $(grep -o '<polygon ' "$scratch/ledge.svg" | wc -l) -ne 1 ]] || ! grep -q 'showing y 2 to 4' "$scratch/ledge.svg"; then
  echo "FAIL (mesh path --y-range): the picture should hold the ledge alone"; failures=$((failures + 1))
fi
expect 0 "mesh path --svg --band" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/level1.svg" --band 1
if [[ $(grep -o '<polygon ' "$scratch/level1.svg" | wc -l) -ne 1 ]] || ! grep -q 'showing y 3 to 3' "$scratch/level1.svg"; then
  echo "FAIL (mesh path --band 1): the picture should hold the ledge alone"; failures=$((failures + 1))
fi
grep -q 'id="legend"' "$scratch/two_rooms.svg" || { echo "FAIL (mesh path --svg): no legend"; failures=$((failures + 1)); }
expect 2 "mesh path --band past the last band" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/none.svg" --band 2
contains "the mesh has 2 height bands" "the error lists the bands"
expect 2 "mesh path --y-range the wrong way round" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/none.svg" --y-range 4,2
contains "--y-range" "the error names the option"
expect 2 "mesh path --y-range without --svg" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --y-range 2,4
# mesh build: a 20 x 20 floor with a wall across most of it, built into a navmesh and searched.
cat >"$scratch/level.obj" <<'LEVEL'
v 0 0 0
v 0 0 20
v 20 0 20
v 20 0 0
v 10 0 0
v 10 3 0
v 10 3 14
v 10 0 14
f 1 2 3 4
f 5 6 7 8
LEVEL
if "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/level_nav.obj" 2>&1 | grep -q "cannot build navigation meshes"; then
  echo "skip (mesh build): this build has no Recast"
else
  expect 0 "mesh build" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/level_nav.obj" --json
  keys_documented "mesh build JSON"
  contains '"regions":1' "the floor around the wall is one region"
  expect 0 "mesh build as text" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/level_nav.obj" --agent-radius 0.3
  contains "polygons," "mesh build prints the polygon count"
  expect 0 "mesh path on the built mesh goes round the wall" -- "$wayfinder" mesh path "$scratch/level_nav.obj" --from 5,0,5 --to 15,0,5 --json
  contains '"status":"found"' "the built mesh answers"
  lacks "looks like a level" "a navmesh written by wayfinder is read as one"
  [[ $(head -n 1 "$scratch/level_nav.obj") == "# wayfinder navmesh"* ]] ||
    { echo "FAIL (mesh build -o .obj): the navmesh does not say what it is on its first line"; failures=$((failures + 1)); }
  # The level searched without --build is told from a navmesh and built first; --navmesh forces the raw reading.
  expect 0 "mesh path on the level builds it" -- "$wayfinder" mesh path "$scratch/level.obj" --from 5,0,5 --to 15,0,5 --json
  contains "looks like a level's geometry" "the command says it reads a level"
  contains '"build":{"polygons":' "the level is built before the search"
  expect 0 "mesh path --navmesh on the level" -- "$wayfinder" mesh path "$scratch/level.obj" --navmesh --from 5,0,5 --to 15,0,5 --json
  lacks "looks like a level" "--navmesh reads the file as it is"
  lacks '"build":' "--navmesh builds nothing"
  expect 2 "mesh path --navmesh --level" -- "$wayfinder" mesh path "$scratch/level.obj" --navmesh --level --from 5,0,5 --to 15,0,5
  contains "excludes" "the two readings exclude each other"
  # The baked file keeps the detail heights: its path is the one of the mesh built in memory.
  expect 0 "mesh build -o .wfnav" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/level_nav.wfnav" --json
  contains '"format":"wfnav"' "the baked format is chosen by the extension"
  expect 0 "mesh path on the baked mesh" -- "$wayfinder" mesh path "$scratch/level_nav.wfnav" --from 5,0,5 --to 15,0,5 --json
  contains '"status":"found"' "the baked mesh answers"
  baked_waypoints=$(grep -oE '"waypoints":\[[^a-z]*\]\]' <<<"$output")
  expect 0 "mesh path --build for the baked mesh's query" -- "$wayfinder" mesh path "$scratch/level.obj" --build --from 5,0,5 --to 15,0,5 --json
  [[ -n $baked_waypoints && $baked_waypoints == "$(grep -oE '"waypoints":\[[^a-z]*\]\]' <<<"$output")" ]] ||
    { echo "FAIL (mesh path on .wfnav): its waypoints are not those of the mesh built in memory"; failures=$((failures + 1)); }
  expect 0 "mesh info on the baked mesh" -- "$wayfinder" mesh info "$scratch/level_nav.wfnav" --json
  contains '"format":"wfnav"' "mesh info names the baked format"
  head -c 100 "$scratch/level_nav.wfnav" >"$scratch/cut.wfnav"
  expect 2 "mesh path on a truncated .wfnav" -- "$wayfinder" mesh path "$scratch/cut.wfnav" --from 5,0,5 --to 15,0,5
  contains "truncated" "the error says the file is cut short"
  expect 2 "mesh build -o .wfnav for an agent too big for the level" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/x.wfnav" --agent-radius 20
  contains "no navmesh to bake" "an empty navmesh is not baked"
  expect 2 "mesh build --max-slope 100" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/x.obj" --max-slope 100
  contains "--max-slope must be in [0, 90]" "the error names the option"
  expect 2 "mesh build of a missing level" -- "$wayfinder" mesh build "$scratch/missing.obj" -o "$scratch/x.obj"
  expect 2 "mesh build into a folder that does not exist" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/no/such/dir/x.obj"
  contains "cannot write" "the error says the file cannot be written"
  expect 0 "mesh build in tiles" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/level_tiles.obj" --tile-size 16 --json
  contains '"regions":1' "the tiles are stitched into one region"
  contains '"tiles":25' "a 20 x 20 level at cell size 0.3 is 67 cells across: 5 x 5 tiles of 16"
  expect 2 "mesh build --tile-size 3" -- "$wayfinder" mesh build "$scratch/level.obj" -o "$scratch/x.obj" --tile-size 3
  contains "--tile-size" "the error names the option"
  expect 0 "mesh path --build on the level" -- "$wayfinder" mesh path "$scratch/level.obj" --build --from 5,0,5 --to 15,0,5 --json --svg "$scratch/level_built.svg"
  keys_documented "mesh path --build JSON"
  contains '"status":"found"' "the level built in memory answers"
  contains '"build":{"polygons":' "the JSON reports the build"
  grep -q 'id="level"' "$scratch/level_built.svg" || { echo "FAIL (mesh path --build --svg): the level is not drawn"; failures=$((failures + 1)); }
  expect 2 "mesh path --agent-radius without --build" -- "$wayfinder" mesh path "$scratch/level.obj" --from 5,0,5 --to 15,0,5 --agent-radius 0.3
  contains "--build" "the error says the option needs --build"
  expect 2 "mesh path --build for an agent too big for the level" -- "$wayfinder" mesh path "$scratch/level.obj" --build --agent-radius 20 --from 5,0,5 --to 15,0,5
  contains "nothing in the level is walkable" "an empty navmesh is named"
  printf 'id,sx,sy,sz,ex,ey,ez\n0,5,0,5,15,0,5\n1,5,0,5,5,0,15\n' >"$scratch/level_queries.csv"
  expect 0 "mesh bench --build" -- "$wayfinder" mesh bench "$scratch/level.obj" --build --queries "$scratch/level_queries.csv" --repeat 1 --json
  keys_documented "mesh bench --build JSON"
  contains '"found":2' "both queries answered on the built mesh"
  printf '# a one-way jump over the wall\n5 0 5 15 0 5 oneway\n' >"$scratch/level_links.txt"
  expect 0 "mesh path --build --links takes the jump" -- "$wayfinder" mesh path "$scratch/level.obj" --build --links "$scratch/level_links.txt" --from 5,0,5 --to 15,0,5 --json --svg "$scratch/level_links.svg"
  contains '"links":[{' "the path takes the link on the built mesh"
  grep -q 'id="links"' "$scratch/level_links.svg" || { echo "FAIL (mesh path --links --svg): the link is not drawn"; failures=$((failures + 1)); }
fi
expect 0 "mesh info keys" -- "$wayfinder" mesh info "$mesh" --json
keys_documented "mesh info JSON"
expect 0 "mesh path keys" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --json
keys_documented "mesh path JSON"
# Off-mesh links: a ladder up to the ledge (another region without it), and a one-way jump down.
printf '# ladder and jump\n1 0 3.5  1 3 6.5  both id=7\n1.5 3 7.5  8 0 3  oneway cost=20 area=2\n' >"$scratch/links.txt"
expect 0 "mesh path up a ladder" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --links "$scratch/links.txt" --json
contains '"status":"found"' "mesh path --links reaches the ledge"
contains '"link":0,"user_id":7,"reverse":false' "mesh path --json says where the ladder is taken"
keys_documented "mesh path JSON with links"
expect 0 "mesh path up a ladder, text" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --links "$scratch/links.txt"
contains "-> off-mesh link 0" "mesh path's text marks the link's waypoint"
contains "1 off-mesh links taken" "mesh path's text counts the links"
printf 'sx,sy,sz,ex,ey,ez,reachable\n1,0,1,1,3,7,0\n1.5,3,7.5,8,0,3,0\n1,0,0.5,8,0,0.5,1\n' >"$scratch/links_queries.csv"
expect 0 "mesh bench --links" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/links_queries.csv" --links "$scratch/links.txt" --repeat 1 --json
contains '"found":3' "mesh bench --links finds the paths across links"
printf '1 0 3.5  1 3 x\n' >"$scratch/bad_links.txt"
expect 2 "mesh path with a malformed links file" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --links "$scratch/bad_links.txt"
contains "bad_links.txt:1:" "the error names the links file's line"
printf '1 0 3.5  30 0 30\n' >"$scratch/far_links.txt"
expect 2 "mesh path with a link off the mesh" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --links "$scratch/far_links.txt"
contains "off-mesh link 0" "the error names the link"
expect 2 "mesh path from off the mesh" -- "$wayfinder" mesh path "$mesh" --from 20,0,20 --to 1,0,1
contains "not on the mesh" "off-mesh start is named"
contains "the nearest polygon, 2, is 19.416 away" "the error says how far the mesh is"
contains "--snap D moves it onto the mesh" "the error names the flag, not the library's field"
lacks "snap_distance" "no C++ field names in messages"
expect 2 "mesh path --snap -1" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,0,1 --snap -1
contains "--snap must be a finite number of at least 0, got '-1'" "a negative snap distance is refused"
expect_split 2 "mesh path with a malformed point as JSON" -- "$wayfinder" mesh path "$mesh" --from 1,nan,1 --to 1,0,1 --json
json_error "mesh path with a malformed point as JSON"
expect 0 "mesh path snapped onto the mesh" -- "$wayfinder" mesh path "$mesh" --from 4.5,0,0.5 --to 1,0,1 --snap 1
contains "start moved:  4.500000,0.000000,0.500000 -> 4.000000,0.000000,0.500000 (0.500 away, onto polygon 0)" \
  "the text says where --snap moved the start, and how far"
lacks "goal moved:" "a goal on the mesh is not moved"
expect 0 "mesh path --nodes optimal, text" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 8,0,3 --nodes optimal
contains "(x-z length, the one the exact search minimises)" "the exact search's cost is named for what it measures"
lacks "3D length" "the exact search's x-z cost is not called a 3D length"
expect 2 "mesh path with a malformed point" -- "$wayfinder" mesh path "$mesh" --from 1,nan,1 --to 1,0,1
printf 'v 0 0 0\nv 1 0 0\nf 1 2\n' >"$scratch/bad.obj"
expect 2 "mesh info on a malformed OBJ" -- "$wayfinder" mesh info "$scratch/bad.obj"
contains "bad.obj:3" "the error names the file and line"

meshes=$data/meshes/derived
if [[ -f $meshes/nav_test_navmesh.obj ]]; then
  expect 0 "mesh bench on nav_test" -- "$wayfinder" mesh bench "$meshes/nav_test_navmesh.obj" \
    --queries "$meshes/nav_test_reference_queries.csv" --repeat 1 --json
  contains '"queries":10000' "mesh bench runs every query"
  contains '"reachability_mismatches":0' "mesh bench agrees on reachability"
  contains '"shorter_than_optimal":0' "no path is shorter than the optimum"
  keys_documented "mesh bench JSON"
  expect 0 "mesh bench --limit" -- "$wayfinder" mesh bench "$meshes/nav_test_navmesh.obj" \
    --queries "$meshes/nav_test_reference_queries.csv" --repeat 1 --limit 25 --json
  contains '"queries":25' "mesh bench --limit runs that many queries"
fi
if [[ -f $meshes/dungeon_navmesh.obj ]]; then
  same_answers_on_threads "mesh bench on dungeon, --threads 2" -- "$wayfinder" mesh bench "$meshes/dungeon_navmesh.obj" \
    --queries "$meshes/dungeon_reference_queries.csv" --repeat 2 --limit 2000
  contains '"reachability_mismatches":0' "the batch agrees with the file on reachability"
fi
# mesh obstacles: a pillar put in a path's way on dungeon's tiled mesh changes the path; removing
# it gives back every answer as it was (the cache rebuilds the tile as it was built).
dungeon=$data/meshes/recastnavigation/dungeon.obj
if [[ -f $dungeon ]] && ! "$wayfinder" mesh build "$dungeon" -o "$scratch/x.obj" 2>&1 | grep -q "cannot build navigation meshes"; then
  printf 'sx,sy,sz,ex,ey,ez\n2.110594,10.197294,-36.658184,17.509924,10.197294,-46.858128\n-16.842123,2.728998,-2.421936,36.300270,10.197294,2.982742\n' \
    >"$scratch/dungeon_pairs.csv"
  printf '# a pillar in the first path'"'"'s way\n1.0 add cylinder pillar 10 10 -41 1 2\n\n2.0 remove pillar  # gone again\n' \
    >"$scratch/dungeon_events.txt"
  expect 0 "mesh obstacles on dungeon" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/dungeon_events.txt" \
    --queries "$scratch/dungeon_pairs.csv" --json
  keys_documented "mesh obstacles JSON"
  contains '"action":"add cylinder pillar","seconds":1.0,"tiles_rebuilt":1' "the pillar rebuilds one tile"
  contains '"obstacles":1,"reachable":2' "both queries stay reachable round the pillar"
  contains '"changed":1}' "the pillar changes the first path"
  start_length=$(grep -oE '"action":"start"[^}]*"mean_length":[^,]*' <<<"$output" | grep -oE '[^:]*$')
  removed_length=$(grep -oE '"action":"remove pillar"[^}]*"mean_length":[^,]*' <<<"$output" | grep -oE '[^:]*$')
  pillar_length=$(grep -oE '"action":"add cylinder pillar"[^}]*"mean_length":[^,]*' <<<"$output" | grep -oE '[^:]*$')
  if [[ -z $start_length || $start_length != "$removed_length" || $start_length == "$pillar_length" ]]; then
    echo "FAIL (mesh obstacles): mean lengths start $start_length, with the pillar $pillar_length, after $removed_length"
    failures=$((failures + 1))
  fi
  contains '"action":"remove pillar","seconds":2.0,"tiles_rebuilt":1' "removing the pillar rebuilds its tile"
  [[ $output == *'"action":"remove pillar"'*'"changed":0}]}' ]] ||
    { echo "FAIL (mesh obstacles): removing the pillar does not give back every answer"; failures=$((failures + 1)); }
  expect 0 "mesh obstacles as text" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/dungeon_events.txt" \
    --queries "$scratch/dungeon_pairs.csv" --tile-size 32
  contains "remove pillar:" "the text names each event"
  contains "2/2 reachable" "the text counts the reachable queries"
  printf '1.0 add cylinder pillar 10 10 -41 1 2\n0.5 remove pillar\n' >"$scratch/bad_events.txt"
  expect 2 "mesh obstacles with events out of time order" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/bad_events.txt"
  contains "bad_events.txt:2: the time 0.5 is before the previous event's" "the error names the line and why"
  printf '1.0 add cylinder pillar 10 10 -41 -1 2\n' >"$scratch/bad_events.txt"
  expect_split 2 "mesh obstacles with a negative radius as JSON" -- "$wayfinder" mesh obstacles "$dungeon" \
    "$scratch/bad_events.txt" --json
  json_error "mesh obstacles with a negative radius as JSON"
  contains "bad_events.txt:1: RADIUS must be at least 0, got '-1'" "the JSON error names the line and why"
  printf '1 add cone pillar 1 2 3\n' >"$scratch/bad_events.txt"
  expect 2 "mesh obstacles with an unknown shape" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/bad_events.txt"
  contains "unknown shape 'cone'" "the unknown shape is named"
  printf '1 add box crate 0 0 0 1 1\n' >"$scratch/bad_events.txt"
  expect 2 "mesh obstacles with a field missing" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/bad_events.txt"
  contains "bad_events.txt:1: expected 'T add box NAME MINX MINY MINZ MAXX MAXY MAXZ'" "the expected form is given"
  printf '1 remove ghost\n' >"$scratch/bad_events.txt"
  expect 2 "mesh obstacles removing what is not there" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/bad_events.txt"
  contains "no obstacle named 'ghost' is present" "the unknown name is named"
  expect 2 "mesh obstacles --tile-size 0" -- "$wayfinder" mesh obstacles "$dungeon" "$scratch/dungeon_events.txt" --tile-size 0
  contains "the tile cache rebuilds the mesh tile by tile" "a whole-level build is refused with the reason"
fi

# ---- voxel worlds, hand-made ----------------------------------------------------------------

# le32 N: N as 4 little-endian bytes.
le32() {
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"
}
# A MagicaVoxel file with one model, 8 x 1 x 5 (z up): a floor of colour 1 along x; a pool of
# colour 2 over x = 2..3; a column of colour 3 at x = 6 beside a wall of colour 1 at x = 7, three
# blocks high. In the world (y up) the walker starts at 0,1,0; the pool ends at 4,1,0 and the top
# of the wall is 7,4,0. Colour 2 read as water is swum through; colour 3 read as a ladder is
# climbed.
voxels_list=(0,0,0,1 1,0,0,1 2,0,0,1 3,0,0,1 4,0,0,1 5,0,0,1 6,0,0,1 7,0,0,1 2,0,1,2 3,0,1,2
             6,0,1,3 6,0,2,3 6,0,3,3 7,0,1,1 7,0,2,1 7,0,3,1)
{
  printf 'VOX '; le32 150
  printf 'MAIN'; le32 0; le32 $((24 + 12 + 4 + 4 * ${#voxels_list[@]}))
  printf 'SIZE'; le32 12; le32 0; le32 8; le32 1; le32 5
  printf 'XYZI'; le32 $((4 + 4 * ${#voxels_list[@]})); le32 0; le32 ${#voxels_list[@]}
  for voxel in "${voxels_list[@]}"; do
    IFS=, read -r x y z colour <<<"$voxel"
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' "$x" "$y" "$z" "$colour")"
  done
} >"$scratch/pool_and_ladder.vox"
vox=$scratch/pool_and_ladder.vox

expect 0 "voxel info" -- "$wayfinder" voxel info "$vox" --water-colours 2 --ladder-colours 3
contains "size:     8 x 5 x 1" "voxel info gives the size, y up"
contains "blocks:   air 24, solid 11, water 2, ladder 3" "voxel info counts each kind of block"
contains "MagicaVoxel's default palette" "voxel info says where the colours come from"
contains "where the walker (the default for .vox worlds) can be" "voxel info names the agent"
contains "try:      wayfinder voxel path" "voxel info suggests a query"
contains "--water-colours 2 --ladder-colours 3" "the suggested query keeps the colour mapping"
expect 0 "voxel info as JSON" -- "$wayfinder" voxel info "$vox" --water-colours 2 --ladder-colours 3 --places 3 --json
contains '"size":[8,5,1]' "voxel info JSON size"
contains '"blocks":{"air":24,"solid":11,"water":2,"ladder":3}' "voxel info JSON block counts"
contains '"palette_source":"default"' "voxel info JSON palette source"
contains '{"index":2,"rgba":[255,255,204,255],"hex":"#ffffccff","voxels":2,"block":"water"}' "voxel info JSON colours"
contains '"profile":"walker"' "voxel info JSON profile"
contains '"place_count":11' "voxel info JSON counts the walker's places"
contains '"places":[[' "voxel info JSON lists places"
contains '"place_parts":[0,0,0],"part_count":1,"largest_parts":[11]' "voxel info JSON gives the connected parts"
expect 0 "voxel info without the ladder" -- "$wayfinder" voxel info "$vox" --water-colours 2
contains "parts:    2 connected (a path joins two places of one part only); largest 6, 2 places" \
  "voxel info counts the parts the wall keeps apart"
expect 0 "voxel info warns of an unused colour" -- "$wayfinder" voxel info "$vox" --ladder-colours 9
contains "warning: colour 9 (--ladder-colours) is not used" "the unused colour is named"
expect 2 "a colour both water and ladder" -- "$wayfinder" voxel info "$vox" --water-colours 2,3 --ladder-colours 3
contains "colour 3 is in both --water-colours and --ladder-colours" "the clash is named"
expect 2 "a colour index out of range" -- "$wayfinder" voxel info "$vox" --water-colours 0
contains "--water-colours: expected colour indices from 1 to 255" "the colour range is given in words"

# Swimming and climbing from the command line.
expect 0 "voxel path swims through the pool" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --json
contains '"swim"' "the path swims"
expect 0 "voxel path jumps the pool without swimming" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --no-swim --json
contains '"jump"' "the path jumps"
[[ "$output" != *'"swim"'* ]] || { echo "FAIL (--no-swim): the path swims"; failures=$((failures + 1)); }
expect 1 "no path over the pool with a short jump" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --no-swim --jump-gap 1
expect 0 "voxel path climbs the ladder" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --json
contains '"climb"' "the path climbs"
expect 1 "no path up the wall without the ladder" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2
expect 1 "no path up the wall without climbing" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --no-climb
expect 0 "a tall step up the wall" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 6,4,0 --step-height 3
expect 2 "an agent height of 0" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --agent-height 0
contains "--agent-height: must be a whole number of blocks from 1 to 64, got '0'" "the height range is given in words"
expect 2 "a fall too deep to allow" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --max-fall 257
contains "--max-fall: must be a whole number of blocks from 0 to 256" "the fall range is given in words"
expect 2 "walking options for a flyer" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --profile flyer --jump-height 2
contains "--jump-height describes a walking agent, but the agent is a flyer; add --profile walker" "the clash is explained"

# Why a start or goal is refused, and snapping it to the nearest place.
expect 2 "a start inside the floor" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 5,1,0
contains "start (1,0,0) is inside a solid block" "the refused start says why"
contains "--snap D" "the message points to --snap"
expect 2 "a goal in the air" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,3,0
contains "goal (5,3,0): the block below (5,2,0) is air, so nothing holds the agent" "the refused goal says why"
expect 2 "a goal outside the world" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 9,1,0
contains "goal (9,1,0) is outside the world (size 8x5x1)" "the outside goal names the size"
expect 0 "voxel path --snap moves start and goal" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 0,3,0 --snap 2
contains "start moved:  1,0,0 -> 1,1,0 (1.00 blocks; (1,0,0) is inside a solid block)" "the moved start is reported"
contains "goal moved:   0,3,0 -> 0,1,0 (2.00 blocks; (0,3,0): the block below (0,2,0) is air" "the moved goal is reported"
expect 0 "voxel path --snap in JSON" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 5,1,0 --snap 1 --json
contains '"from":[1,1,0]' "JSON gives the start used"
contains '"snapped_from":{"requested":[1,0,0],"distance":1.0,"reason":"(1,0,0) is inside a solid block"}' "JSON says where the start was moved from"
contains '"snapped_to":null' "JSON says the goal was not moved"
expect 2 "--snap too short" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 3,4,0 --snap 1
contains "no place within 1 block where the agent can be" "the failed snap says so"

# Pictures: a legend with the markers, and a height range.
expect 0 "voxel path --svg" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --svg "$scratch/pool.svg"
svg=$(cat "$scratch/pool.svg")
for label in ">start 0,1,0<" ">goal 7,4,0<" ">path<" ">explored column<" ">water on top<" ">ladder on top<"; do
  [[ "$svg" == *"$label"* ]] || { echo "FAIL (voxel svg legend): no '$label'"; failures=$((failures + 1)); }
done
expect 0 "voxel path --svg --y-range" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --svg "$scratch/pool_top.svg" --y-range 3,4
svg=$(cat "$scratch/pool_top.svg")
for label in ">no block at y 3..4<" ">path outside y 3..4<" ">path at y 3..4<"; do
  [[ "$svg" == *"$label"* ]] || { echo "FAIL (voxel svg --y-range): no '$label'"; failures=$((failures + 1)); }
done
[[ "$svg" != *">water on top<"* ]] || { echo "FAIL (voxel svg --y-range): the pool below the range is drawn"; failures=$((failures + 1)); }
expect 2 "--y-range without --svg" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --y-range 0,2
expect 2 "--y-range above the world" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --svg "$scratch/x.svg" --y-range 9,12
contains "holds no block" "the empty range is named"

# .3dmap worlds: the flyer by default, the walker on request; weights that would overflow.
printf 'voxel 4 4 4\n1 1 1\n' >"$scratch/tiny.3dmap"
expect 0 "a .3dmap defaults to the flyer" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 --json
contains '"profile":"flyer"' "the flyer is chosen"
expect 0 "a .3dmap with --profile walker" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 1,2,1 --to 1,2,1 --profile walker --json
contains '"profile":"walker"' "the walker is kept"
expect 0 "a 2-wide flyer" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 2,2,2 --to 0,2,0 --agent-width 2 --json
contains '"agent_width":2' "the width is reported"
expect 0 "a 2-wide flyer by hpa" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 2,2,2 --to 0,2,0 --agent-width 2 -a hpa
contains "2 blocks wide (positions are the footprint's corner)" "the text names the width"
expect 2 "a 2-wide flyer's body over the solid block" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 2,2,2 --agent-width 2
contains "start (0,0,0): a solid block in the agent's body (2x2x2) at (1,1,1)" "the block in the body is named"
expect 2 "an agent width of 4" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 2,2,2 --agent-width 4
contains "--agent-width: must be a whole number of blocks from 1 to 3, got '4'" "the width range is given in words"
expect 0 "voxel info on a .3dmap" -- "$wayfinder" voxel info "$scratch/tiny.3dmap" --json
contains '"palette_source":null' "a .3dmap has no palette"
contains '"place_count":63' "the flyer can be in every free block"
expect 2 "colours on a .3dmap" -- "$wayfinder" voxel info "$scratch/tiny.3dmap" --water-colours 2
contains "--water-colours and --ladder-colours apply to .vox files" "colours on a .3dmap are refused"
expect 2 "a weight that overflows" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a weighted-astar --weight 1e308
contains "weight 1e+308 is too large for this world" "the weight is refused"
# Jump point search: the flyer's, optimal; refused for a walker and with a weight.
expect 0 "voxel path --algo jps" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a jps --json
contains '"algorithm":"jps"' "jump point search ran"
expect 2 "jps for a walker" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 1,2,1 --to 1,2,1 --profile walker -a jps
contains "jump point search is for flying agents only" "the walker is refused in words"
expect 2 "jps with a weight" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a jps --weight 3
contains "--weight applies to weighted-astar" "the weight is refused"

# Scenarios written for another map.
printf 'version 1\ntiny.3dmap\n0 0 0 3 0 0 3 1\n' >"$scratch/tiny.3dmap.3dscen"
expect 0 "voxel bench on its own map" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --json
contains '"mismatches":0' "the scenario agrees with its map"
expect 0 "voxel bench --algo astar,jps" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --algo astar,jps --json
contains '"algorithm":"jps"' "jump point search is benchmarked"
lacks '"mismatches":1' "jump point search is optimal on the scenario"
cp "$scratch/tiny.3dmap" "$scratch/other.3dmap"
cp "$scratch/tiny.3dmap.3dscen" "$scratch/other.3dmap.3dscen"
expect 2 "voxel bench on a map the scenario was not written for" -- "$wayfinder" voxel bench "$scratch/other.3dmap.3dscen"
contains "this scenario was written for tiny.3dmap, not other.3dmap" "the mismatch is named"
expect 0 "voxel bench --map another map, with a warning" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --map "$scratch/other.3dmap" --json
contains "warning: $scratch/tiny.3dmap.3dscen: this scenario was written for tiny.3dmap, not other.3dmap" "the warning names both maps"
expect 2 "voxel bench with a weight that overflows" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --algo weighted-astar --weight 1e308
contains "too large for this world" "the bench refuses the weight before running"

# Generated worlds: built in memory, queried across, bad sizes refused in words.
expect 0 "voxel generate with queries" -- "$wayfinder" voxel generate --size 96,48,96 --seed 3 --queries 2 --algo astar,weighted-astar,greedy --json
contains '"world":"96x48x96"' "the world's size"
contains '"profile":"walker","algorithm":"astar"' "walking A*"
contains '"profile":"flyer","algorithm":"weighted-astar"' "flying weighted A*"
contains '"mismatches":0' "weighted A* within its bound"
keys_documented "voxel generate JSON"
first_world=$(head -n 1 <<<"$output" | sed -E 's/"(generate_seconds|peak_rss_bytes)":[^,}]*,?//g')
expect 0 "voxel generate again with the same seed" -- "$wayfinder" voxel generate --size 96,48,96 --seed 3 --json
[[ $(sed -E 's/"(generate_seconds|peak_rss_bytes)":[^,}]*,?//g' <<<"$output") == "$first_world" ]] ||
  { echo "FAIL (voxel generate: the same seed gives another world)"; failures=$((failures + 1)); }
expect 0 "voxel generate --reuse-pathfinder as text" -- "$wayfinder" voxel generate --size 64,32,64 --queries 1 --reuse-pathfinder --no-caves --no-water
contains "one pathfinder reused" "the text says how it was timed"
expect 0 "voxel generate with a budget too small" -- "$wayfinder" voxel generate --size 64,32,64 --queries 1 --algo astar,weighted-astar --max-expansions 1 --json
contains '"budget_exhausted":1' "the query out of budget is counted"
expect 0 "voxel generate --algo astar,hpa" -- "$wayfinder" voxel generate --size 96,48,96 --seed 3 --queries 2 --algo astar,hpa --cluster-size 8 --json
contains '"profile":"walker","hierarchy_build_seconds"' "the walker's hierarchy is built and reported"
contains '"profile":"flyer","algorithm":"hpa"' "the flyer runs hpa"
contains '"mean_cost_over_astar"' "hpa's cost is compared with A*'s"
contains '"mismatches":0' "hpa connects what A* connects, never below its cost"
keys_documented "voxel generate hpa JSON"
expect 0 "voxel generate skips a hierarchy over its place limit" -- "$wayfinder" voxel generate --size 64,32,64 --queries 1 --algo hpa --hierarchy-max-places 10
contains "walker hpa: skipped: voxel hierarchy: the agent has more than 10 places to store" "the skip is named"
expect 1 "voxel path --algo hpa out of budget" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a hpa --cluster-size 4 --max-expansions 2 --json
contains '"status":"partial","reason":"expansion_limit"' "the hierarchy's search stops at the budget as every search does"
expect 0 "voxel generate --algo hpa with a budget too small" -- "$wayfinder" voxel generate --size 64,32,64 --queries 1 --algo hpa --max-expansions 1 --json
contains '"budget_exhausted":1' "hpa's query out of budget is counted"
expect 0 "voxel path --algo hpa" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a hpa --cluster-size 4 --json
contains '"algorithm":"hpa"' "the hierarchical search ran"
expect 2 "hpa with a weight" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a hpa --weight 3
contains "hpa takes no weight" "the weight is refused"
expect 0 "voxel bench --algo astar,hpa" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --algo astar,hpa --cluster-size 4 --json
contains '"algorithm":"hpa"' "hpa is benchmarked"
lacks '"mismatches":1' "hpa is never below the optimum and finds what is reachable"
keys_documented "voxel bench hpa JSON"
expect 2 "voxel bench hpa on threads" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --algo hpa --threads 2
contains "hpa runs here with --threads 1" "the batch is refused in words"
expect 2 "voxel generate of size zero" -- "$wayfinder" voxel generate --size 0,32,64
contains "world size 0 x 32 x 64 must be at least 1 in every direction" "the zero size is named"
expect 2 "voxel generate of a size the storage cannot hold" -- "$wayfinder" voxel generate --size 4096,4096,4096
contains "is too large" "the size is refused"
expect 2 "voxel generate above its memory limit" -- "$wayfinder" voxel generate --size 2048,256,2048 --max-memory 100
contains "could take 766.0 MiB, more than the limit of 100.0 MiB" "the estimate and the limit are given"
expect 2 "voxel generate with a malformed size" -- "$wayfinder" voxel generate --size 64,32
contains "expected X,Y,Z" "the form is given"
expect 2 "voxel generate with a NaN feature size" -- "$wayfinder" voxel generate --size 64,32,64 --feature-size nan
contains "--feature-size must be a finite number" "NaN is refused"

# The mesh query reader stops after --limit queries too.
{ printf 'sx,sy,sz,ex,ey,ez\n1,0,0.5,8,0,0.5\n'; printf '1,0,0.5,eight,0,0.5\n'; } >"$scratch/queries.csv"
expect 0 "mesh bench --limit reads only what it runs" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --repeat 1 --limit 1
expect 2 "mesh bench without --limit reads the malformed line" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --repeat 1
contains "queries.csv:3:" "the error names the line"
expect 2 "mesh bench --repeat 0" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --repeat 0
contains "--repeat must be a whole number from 1 to 1000, got '0'" "--repeat in words"
same_answers_on_threads "mesh bench --threads 2" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --repeat 2 --limit 1
expect 0 "mesh bench --threads 2 as text" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --repeat 1 --limit 1 --threads 2
contains "queries/s on 2 threads (whole queries)" "the text gives the throughput"
for bad in 0 x; do
  expect 2 "mesh bench --threads $bad" -- "$wayfinder" mesh bench "$mesh" --queries "$scratch/queries.csv" --limit 1 --threads "$bad"
  contains "--threads must be a whole number from 1 to 256, got '$bad'" "--threads $bad is refused in words"
done

# Voxel commands on a small open .3dmap world (a flyer crosses it diagonally).
printf 'voxel 5 5 5\n4 0 0\n' >"$scratch/cube.3dmap"
expect 0 "voxel path" -- "$wayfinder" voxel path "$scratch/cube.3dmap" --from 0,0,0 --to 4,4,4 --profile flyer --algo dijkstra --json
contains '"algorithm":"dijkstra"' "voxel path --algo picks the algorithm"
keys_documented "voxel path JSON"
expect 0 "voxel path with the old --algorithm spelling" -- "$wayfinder" voxel path "$scratch/cube.3dmap" --from 0,0,0 --to 4,4,4 --profile flyer --algorithm dijkstra --json
contains '"algorithm":"dijkstra"' "--algorithm still works"
expect 1 "voxel path with the old --max-nodes spelling" -- "$wayfinder" voxel path "$scratch/cube.3dmap" --from 0,0,0 --to 4,4,4 --profile flyer --max-nodes 1 --json
contains '"status":"partial"' "--max-nodes still limits the search"
expect 2 "voxel path with both spellings" -- "$wayfinder" voxel path "$scratch/cube.3dmap" --from 0,0,0 --to 4,4,4 --profile flyer --max-nodes 1 --max-expansions 2
contains "--max-nodes is the old spelling of --max-expansions" "giving both spellings is refused"
expect 0 "voxel path help" -- "$wayfinder" voxel path --help
contains "--max-expansions" "help shows the current spelling"
lacks "--max-nodes" "help hides the old spelling"
lacks "--algorithm" "help hides the old algorithm spelling"
expect_split 2 "voxel path outside the world as JSON" -- "$wayfinder" voxel path "$scratch/cube.3dmap" --from 9,0,0 --to 4,4,4 --profile flyer --json
json_error "voxel path outside the world as JSON"
printf 'version 1\ncube.3dmap\n0 0 0 4 4 4 6.92820323 1\n0 0 0 nine 4 4 6.92820323 1\n' >"$scratch/cube.3dmap.3dscen"
expect 0 "voxel bench --limit reads only what it runs" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen" --limit 1 --json
contains '"mismatches":0' "voxel bench agrees with the scenario"
keys_documented "voxel bench JSON"
expect 2 "voxel bench without --limit reads the malformed line" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen"
contains "cube.3dmap.3dscen:4:" "the error names the line"
expect 2 "voxel bench --random 0" -- "$wayfinder" voxel bench "$scratch/cube.3dmap" --random 0
contains "--random must be a whole number from 1 to 1000000, got '0'" "--random in words"
same_answers_on_threads "voxel bench --threads 2" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen" --limit 1 --algo astar,dijkstra
same_answers_on_threads "voxel bench walking, --threads 2" -- "$wayfinder" voxel bench "$vox" --random 40 --seed 3 --algo astar,weighted-astar,greedy
expect 0 "voxel bench --threads 2 as text" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen" --limit 1 --threads 2
contains "queries/s on 2 threads" "the text gives the throughput"
for bad in 0 x; do
  expect 2 "voxel bench --threads $bad" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen" --limit 1 --threads "$bad"
  contains "--threads must be a whole number from 1 to 256, got '$bad'" "--threads $bad is refused in words"
done

scenes=$data/voxel/vox
if [[ -f $scenes/scene_house4.vox ]]; then
  # Places on the roof and in closed rooms are parts of their own: random pairs are drawn in the
  # largest part, where every pair has a path, unless --any-pairs asks for any two places.
  expect 0 "voxel info on a house counts its parts" -- "$wayfinder" voxel info "$scenes/scene_house4.vox"
  contains "parts:    15 connected" "voxel info gives the number of parts"
  contains "largest 13191, 2432, 527" "voxel info gives the largest parts' sizes"
  contains "  62,25,62  part 1" "voxel info gives each listed place's part"
  expect 0 "voxel bench --random within one part" -- "$wayfinder" voxel bench "$scenes/scene_house4.vox" --random 300 --seed 4 --json
  contains '"queries":300,"solved":300,' "every random pair has a path"
  contains '"pairs":"largest_part"' "the JSON says how the pairs were drawn"
  keys_documented "voxel bench --random JSON"
  expect 0 "voxel bench --random as text" -- "$wayfinder" voxel bench "$scenes/scene_house4.vox" --random 20
  contains "drawn:    both ends in the largest of 15 connected parts (13191 of 16448 places)" "the text says how the pairs were drawn"
  expect 0 "voxel bench --random --any-pairs" -- "$wayfinder" voxel bench "$scenes/scene_house4.vox" --random 300 --seed 4 --any-pairs --json
  contains '"pairs":"any_places"' "the JSON says the pairs cross parts"
  lacks '"solved":300,' "pairs across parts have no path"
  expect 0 "voxel bench --any-pairs as text" -- "$wayfinder" voxel bench "$scenes/scene_house4.vox" --random 20 --any-pairs
  contains "drawn:    any places, across 15 connected parts (pairs of two parts have no path)" "the text says the pairs cross parts"
fi
expect 2 "voxel bench --any-pairs on a scenario" -- "$wayfinder" voxel bench "$scratch/cube.3dmap.3dscen" --any-pairs
contains "--any-pairs applies to --random pairs" "--any-pairs without --random is refused in words"

voxels=$data/voxel/warframe
if [[ -f $voxels/Simple.3dmap ]]; then
  # The first query of Simple.3dmap.3dscen: optimal length 15.31710829.
  expect 0 "voxel path flying" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from 56,76,52 --to 48,85,45 --profile flyer --json
  contains '"status":"found"' "voxel path is found"
  contains '15.3171' "voxel path has the optimal length"
  expect 0 "voxel path flying, as text" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from 56,76,52 --to 48,85,45 --profile flyer
  contains "moves: 56,76,52 -fly-> " "voxel path prints its number of moves and its first moves"
  contains " ... -fly-> " "a long voxel path is elided in the middle"
  expect 0 "voxel path --full-path" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from 56,76,52 --to 48,85,45 --profile flyer --full-path
  lacks " ... " "--full-path prints every move"
  expect 2 "voxel path outside the world" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from -5,1,1 --to 48,85,45 --profile flyer
  same_answers_on_threads "voxel bench on Simple, --threads 2" -- "$wayfinder" voxel bench "$voxels/Simple.3dmap.3dscen" \
    --limit 500 --algo astar,weighted-astar
  contains '"mismatches":0' "the batch agrees with the scenario"
fi
grids=$data/movingai/dao
if [[ -f $grids/den520d.map.scen ]]; then
  same_answers_on_threads "grid bench on den520d, --threads 2" -- "$wayfinder" grid bench "$grids/den520d.map.scen" \
    --limit 300 --algo astar,jps,bidirectional
  contains '"mismatches":0' "the batch agrees with the scenario"
  expect 0 "grid replan on arena2" -- "$wayfinder" grid replan "$grids/arena2.map.scen" --queries 20 --changes 8 --json
  contains '"mismatches":0' "D* Lite agrees with A* after every change"
  contains '"mpaa_mismatches":0' "MPAA* agrees with A* after every change"
  keys_documented "grid replan JSON"
  expect 0 "grid replan as text" -- "$wayfinder" grid replan "$grids/arena2.map.scen" --queries 3 --changes 2
  contains "Lite (repair)" "the text names the planners"
  contains "MPAA* (replan)" "the text names MPAA*"
fi
expect 2 "grid replan --changes 0" -- "$wayfinder" grid replan "$grid_scenario" --changes 0

# `serve`: a port another program listens on, or one that is no TCP port, stops the command
# with exit 2 and a message in its own words (cpp-httplib's default socket options would let a
# second server share the port). Bounded: the first server is stopped by its process id, and
# every command here is under `timeout`.
timeout 60 "$wayfinder" serve --port 0 >"$scratch/serve_first.txt" 2>&1 &
first_server=$!
served_port=""
for _ in $(seq 1 100); do
  served_port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$scratch/serve_first.txt")
  [[ -n $served_port ]] && break
  grep -q "no web viewer" "$scratch/serve_first.txt" && break
  sleep 0.1
done
if ! grep -q "no web viewer" "$scratch/serve_first.txt"; then
  if [[ -n $served_port ]]; then
    expect 2 "serve on a port another server holds" -- timeout 30 "$wayfinder" serve --port "$served_port"
    contains "cannot listen on 127.0.0.1:$served_port" "the message names the address and port"
    contains "taken" "the message says the port is taken"
  else
    echo "FAIL (serve --port 0 printed no address)"
    failures=$((failures + 1))
  fi
  kill "$first_server" 2>/dev/null
  wait "$first_server" 2>/dev/null
else
  wait "$first_server" 2>/dev/null
fi

# The port is checked while the command line is read, with or without the viewer built.
for port in 65536 -1 x; do
  expect 2 "serve --port $port" -- timeout 10 "$wayfinder" serve --port "$port"
  contains "$port is not a TCP port (0 to 65535; 0 picks a free one)" "the port's range in the command's words"
  lacks "not in range" "no raw range text"
done
expect_split 2 "serve --port 65536 as JSON" -- timeout 10 "$wayfinder" serve --port 65536 --json
json_error "serve --port 65536 as JSON"
expect 2 "serve --threads 300" -- timeout 10 "$wayfinder" serve --threads 300
contains "--threads must be a whole number from 1 to 256, got '300'" "the thread count's range in the command's words"
lacks "not in range" "no raw range text"
expect 2 "mesh path --band -3" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 2,0,2 --band -3 --svg "$scratch/level.svg"
contains "--band: must be a whole number from 0 (the lowest height band) up, got '-3'" "the band's range in the command's words"
lacks "not in range" "no raw range text"

# Output that cannot be written: standard output on a full device, and files given with -o,
# fail the command (exit 2, a message on standard error) instead of reporting success.
expect 2 "grid path to a full standard output" -- bash -c '"$0" grid path "$1" --from 0,0 --to 6,5 >/dev/full' "$wayfinder" "$grid_map"
contains "cannot write to standard output: No space left on device" "the failed write is named"
expect 2 "grid path --json to a full standard output" -- bash -c '"$0" grid path "$1" --from 0,0 --to 6,5 --json >/dev/full' "$wayfinder" "$grid_map"
contains "cannot write to standard output" "the failed write is named"
expect 2 "voxel info to a full standard output" -- bash -c '"$0" voxel info "$1" >/dev/full' "$wayfinder" "$scratch/tiny.3dmap"
contains "cannot write to standard output" "the failed write is named"
expect 2 "help to a full standard output" -- bash -c '"$0" --help >/dev/full' "$wayfinder"
contains "cannot write to standard output" "the failed write is named"
expect 2 "grid preprocess -o a full device" -- "$wayfinder" grid preprocess "$grid_map" -o /dev/full
contains "/dev/full" "the file that could not be written is named"
if ! "$wayfinder" mesh build "$mesh" -o "$scratch/two_rooms_nav.obj" 2>&1 | grep -q "cannot build navigation meshes"; then
  expect 2 "mesh build -o a full device" -- "$wayfinder" mesh build "$mesh" -o /dev/full
  contains "/dev/full" "the file that could not be written is named"
fi

# An output that is the command's own input is refused before anything is written, whatever
# the spelling of the path.
cp "$grid_map" "$scratch/own.map"
ln -sf own.map "$scratch/own_link.map"
for spelling in "$scratch/own.map" "$scratch/./own.map" "$scratch/../$(basename "$scratch")/own.map" "$scratch/own_link.map"; do
  expect 2 "grid preprocess -o the map itself ($spelling)" -- "$wayfinder" grid preprocess "$scratch/own.map" -o "$spelling"
  contains "-o $spelling is the map ($scratch/own.map): writing there would overwrite it" "the refusal says why"
done
cmp -s "$grid_map" "$scratch/own.map" || { echo "FAIL (grid preprocess -o MAP): the map was overwritten"; failures=$((failures + 1)); }
expect 2 "grid preprocess --goal-bounds the map itself" -- "$wayfinder" grid preprocess "$scratch/own.map" -o "$scratch/own.jump" --goal-bounds "$scratch/own.map"
contains "--goal-bounds $scratch/own.map is the map" "the refusal names the flag"
expect 2 "grid preprocess --goal-bounds over the table" -- "$wayfinder" grid preprocess "$scratch/own.map" -o "$scratch/own.jump" --goal-bounds "$scratch/./own.jump"
contains "is the jump table's file" "bounds over the table are refused"
cp "$mesh" "$scratch/own_level.obj"
expect 2 "mesh build -o the level itself" -- "$wayfinder" mesh build "$scratch/own_level.obj" -o "$scratch/./own_level.obj"
contains "is the level ($scratch/own_level.obj): writing there would overwrite it" "the level is kept"
cmp -s "$mesh" "$scratch/own_level.obj" || { echo "FAIL (mesh build -o LEVEL): the level was overwritten"; failures=$((failures + 1)); }

# Crowds: a generated scenario runs with its metrics and its picture; a bad field is named.
expect 0 "crowd scenario" -- "$wayfinder" crowd scenario circle --agents 6 -o "$scratch/crowd_circle.json" --json
keys_documented "crowd scenario JSON"
expect 0 "crowd run" -- "$wayfinder" crowd run "$scratch/crowd_circle.json" --json --threads 2 --svg "$scratch/crowd_circle.svg"
contains '"arrived": 6' "crowd run: every agent of the circle arrives"
contains '"pair_ticks": 0' "crowd run: no overlaps"
keys_documented "crowd run JSON"
grep -q "<polyline" "$scratch/crowd_circle.svg" || { echo "FAIL (crowd run --svg): no trail drawn"; failures=$((failures + 1)); }
printf '{"mesh": "x.obj", "agents": [{"start": [0, 0], "goal": [1, 0, 1]}]}' >"$scratch/crowd_bad.json"
expect 2 "crowd run on a bad scenario" -- "$wayfinder" crowd run "$scratch/crowd_bad.json"
contains "agents[0].start: must be a point [x, y, z]" "the bad field is named"
expect 2 "crowd scenario of an unknown kind" -- "$wayfinder" crowd scenario spiral -o "$scratch/crowd_spiral.json"
contains "unknown scenario kind 'spiral'" "the kind is named"
contains "kinds: circle, doorway, hallway, bottleneck, random, crossing, overtaking or floors" "the kinds are listed"
# The four-way crossing, the overtaking corridor and the two floors: each written, read back and
# run on 8 agents; all arrive, none overlaps beyond 1 % of a radius, none leaves the mesh.
declare -A ratio_max
for kind in crossing overtaking floors hallway; do
  expect 0 "crowd scenario $kind" -- "$wayfinder" crowd scenario "$kind" --agents 8 -o "$scratch/crowd_$kind.json" --json
  contains "\"kind\":\"$kind\",\"agents\":8" "crowd scenario $kind: 8 agents written"
  expect 0 "crowd run $kind" -- "$wayfinder" crowd run "$scratch/crowd_$kind.json" --json
  contains '"arrived": 8' "crowd run $kind: every agent arrives"
  contains '"pair_ticks": 0' "crowd run $kind: no overlap beyond 1 % of a radius"
  contains '"agent_ticks": 0' "crowd run $kind: nobody off the mesh"
  ratio_max[$kind]=$(awk '/"path_length_ratio"/ { inside = 1 } inside && /"max"/ { gsub(/[^0-9.eE+-]/, ""); print; exit }' <<<"$output")
done
# Floors: the hallway's agents with the westbound group a floor up. Across floors nobody goes
# round anybody (walked / shortest near 1); in the hallway the same agents must.
awk -v floors="${ratio_max[floors]}" -v hallway="${ratio_max[hallway]}" 'BEGIN { exit !(floors < 1.01 && hallway > 1.02) }' ||
  { echo "FAIL (crowd run floors): path length ratio ${ratio_max[floors]} on two floors, ${ratio_max[hallway]} on one"; failures=$((failures + 1)); }
grep -q '"max_speed": 0.75' "$scratch/crowd_overtaking.json" ||
  { echo "FAIL (crowd scenario overtaking): no slow agent at half the speed"; failures=$((failures + 1)); }
expect 2 "crowd scenario crossing with too few agents" -- "$wayfinder" crowd scenario crossing --agents 3 -o "$scratch/crowd_few.json"
contains "--agents: the crossing scenario needs at least 4 agents" "the fewest agents are named"
expect 2 "crowd scenario floors with one agent" -- "$wayfinder" crowd scenario floors --agents 1 -o "$scratch/crowd_few.json"
contains "--agents: the floors scenario needs at least 2 agents" "the fewest agents are named"
expect 2 "crowd scenario overtaking on a mesh" -- "$wayfinder" crowd scenario overtaking --mesh "$scratch/crowd_circle.json" -o "$scratch/crowd_few.json"
contains "--mesh is only for the random scenario" "--mesh is refused"
# A crowd on a grid: two agents each way through a door in a MovingAI map, paths by JPS.
cp "$here/crowd_doorway.map" "$scratch/crowd_doorway.map"
printf '%s\n' '{"grid": "crowd_doorway.map", "grid_algorithm": "jps", "dt": 0.1, "steps": 600, "agents": [' \
  '{"start": [2.5, 0, 1.5], "goal": [13.5, 0, 6.5], "radius": 0.4, "max_speed": 1.5},' \
  '{"start": [2.5, 0, 4.5], "goal": [13.5, 0, 4.5], "radius": 0.4, "max_speed": 1.5},' \
  '{"start": [13.5, 0, 1.5], "goal": [2.5, 0, 6.5], "radius": 0.4, "max_speed": 1.5},' \
  '{"start": [13.5, 0, 3.5], "goal": [2.5, 0, 3.5], "radius": 0.4, "max_speed": 1.5}]}' >"$scratch/crowd_grid.json"
expect 0 "crowd run on a grid" -- "$wayfinder" crowd run "$scratch/crowd_grid.json" --json --threads 2 --svg "$scratch/crowd_grid.svg"
contains '"arrived": 4' "crowd run on a grid: every agent crosses the door"
contains '"pair_ticks": 0' "crowd run on a grid: no overlaps"
contains '"agent_ticks": 0' "crowd run on a grid: no centre in a blocked cell"
# A SteerSuite test case (XML, as the SteerBench benchmark writes them): a hallway with a pillar,
# three agents each way, one of them by a via point, a random group behind a licence comment's
# late XML declaration; the mesh is built with Recast, agents leave on arrival.
{
  printf '%s\n' '<!-- licence -->' '<?xml version="1.0"?>' '<SteerBenchTestCase xmlns="http://www.magix.ucla.edu/steerbench">' \
    '<header><version>1.0</version><name>pillar</name><worldBounds><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-10</zmin><zmax>10</zmax></worldBounds></header>' \
    '<obstacle><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>1</ymax><zmin>3</zmin><zmax>10</zmax></obstacle>' \
    '<obstacle><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-10</zmin><zmax>-3</zmax></obstacle>' \
    '<circleObstacle><radius>0.8</radius><height>1</height><position><x>0</x><y>0</y><z>0</z></position></circleObstacle>'
  for z in -1.5 0 1.5; do
    printf '<agent><initialConditions><radius>0.5</radius><position><x>-15</x><y>0</y><z>%s</z></position><speed>0</speed></initialConditions><goalSequence><seekStaticTarget><targetLocation><x>15</x><y>0</y><z>%s</z></targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>1000</timeDuration></seekStaticTarget></goalSequence></agent>\n' "$z" "$z"
    printf '<agent><initialConditions><radius>0.5</radius><position><x>15</x><y>0</y><z>%s</z></position><speed>0</speed></initialConditions><goalSequence><seekStaticTarget><targetLocation><x>5</x><y>0</y><z>2</z></targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>1000</timeDuration></seekStaticTarget><seekStaticTarget><targetLocation><x>-15</x><y>0</y><z>%s</z></targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>1000</timeDuration></seekStaticTarget></goalSequence></agent>\n' "$z" "$z"
  done
  printf '%s\n' '<agentRegion><numAgents>4</numAgents><regionBounds><xmin>-19</xmin><xmax>-17</xmax><ymin>0</ymin><ymax>0</ymax><zmin>2</zmin><zmax>-2</zmax></regionBounds><initialConditions><radius>0.5</radius><direction><random>true</random></direction><speed>0</speed></initialConditions><goalSequence><seekStaticTarget><targetLocation><x>18</x><y>0</y><z>0</z></targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>1000</timeDuration></seekStaticTarget></goalSequence></agentRegion>' \
    '</SteerBenchTestCase>'
} >"$scratch/steersuite_pillar.xml"
if "$wayfinder" crowd run "$scratch/steersuite_pillar.xml" 2>&1 | grep -q "cannot build navigation meshes\|need the tools built with tinyxml2"; then
  echo "skip (crowd run on a SteerSuite test case): this build has no Recast or no tinyxml2"
else
  expect 0 "crowd run on a SteerSuite test case" -- "$wayfinder" crowd run "$scratch/steersuite_pillar.xml" --json --threads 2 --seed 3
  contains '"agents": 10' "crowd run on a SteerSuite test case: six agents and a group of four"
  contains '"arrived": 10' "crowd run on a SteerSuite test case: every agent arrives (and leaves)"
  contains '"pair_ticks": 0' "crowd run on a SteerSuite test case: no overlaps"
  contains '"agent_ticks": 0' "crowd run on a SteerSuite test case: nobody off the mesh"
  keys_documented "crowd run JSON on a SteerSuite test case"
  # Saved as a JSON scenario, it runs again without the XML (or Recast), to the same metrics
  # (all but the update times).
  metrics_without_times() { python3 -c 'import json, sys; m = json.load(sys.stdin)["metrics"]; m.pop("update_us"); print(json.dumps(m, sort_keys=True))' <<<"$output"; }
  expect 0 "crowd run --save-scenario" -- "$wayfinder" crowd run "$scratch/steersuite_pillar.xml" --json --threads 2 --seed 3 \
    --save-scenario "$scratch/steersuite_pillar.json"
  steersuite_metrics=$(metrics_without_times)
  grep -q '"leave_on_arrival": true' "$scratch/steersuite_pillar.json" ||
    { echo "FAIL (crowd run --save-scenario): the saved scenario does not let agents leave"; failures=$((failures + 1)); }
  expect 0 "crowd run on the saved scenario" -- "$wayfinder" crowd run "$scratch/steersuite_pillar.json" --json --threads 2
  [[ $(metrics_without_times) == "$steersuite_metrics" ]] ||
    { echo "FAIL (crowd run on the saved scenario): other metrics than the test case's"; failures=$((failures + 1)); }
  expect 2 "crowd run --save-scenario of a JSON scenario" -- "$wayfinder" crowd run "$scratch/steersuite_pillar.json" --save-scenario "$scratch/x.json"
  contains "--save-scenario is for SteerSuite test cases (.xml)" "--save-scenario is refused for JSON"
  sed 's/<agentRegion>/<agentEmitter\/><agentRegion>/' "$scratch/steersuite_pillar.xml" >"$scratch/steersuite_emitter.xml"
  expect 2 "crowd run on a SteerSuite test case with an emitter" -- "$wayfinder" crowd run "$scratch/steersuite_emitter.xml"
  contains "steersuite_emitter.xml:14: <agentEmitter>: is not supported" "the element and its line are named"
fi
grep -q "<rect x=" "$scratch/crowd_grid.svg" || { echo "FAIL (crowd run --svg on a grid): no cells drawn"; failures=$((failures + 1)); }
printf '{"grid": "crowd_doorway.map", "mesh": "x.obj", "agents": []}' >"$scratch/crowd_both.json"
expect 2 "crowd run with a mesh and a grid" -- "$wayfinder" crowd run "$scratch/crowd_both.json"
contains "grid: a scenario has a mesh or a grid, not both" "the conflict is named"
printf '{"grid": "crowd_doorway.map", "grid_algorithm": "dijkstra", "agents": []}' >"$scratch/crowd_algorithm.json"
expect 2 "crowd run with an unknown grid algorithm" -- "$wayfinder" crowd run "$scratch/crowd_algorithm.json"
contains "grid_algorithm: must be" "the algorithm field is named"

if [[ $failures -ne 0 ]]; then
  echo "$failures command-line check(s) failed"
  exit 1
fi
echo "all command-line checks passed"
