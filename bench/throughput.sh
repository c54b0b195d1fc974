#!/usr/bin/env bash
# Throughput of the bench commands on 1 and 2 threads (--threads), for the pairs that
# docs/benchmarks.md reports: grid A* on den520d, the dungeon mesh's reference queries and the
# flying queries of the Simple voxel map. Prints one markdown table row per pair: the median
# throughput of ROUNDS runs with --threads 1, with --threads 2, their ratio, and the same batch
# on 2 threads pinned to one core (taskset -c 0).
#
#   bench/throughput.sh [WAYFINDER_BINARY] [DATA_DIR] [ROUNDS]
#
# Throughput is the commands' own `throughput_qps`: queries per second over the sum of the timed
# find_path calls with 1 thread, over the wall time of the batch (solve_batch) with 2. The pinned
# run uses the same batch code as the 2-core run, so "2 threads / pinned" is the gain from the
# second core alone, while "2 threads / 1 thread" also holds the difference between answering
# one by one (a new result per call, a clock read around each) and as a batch (results reused).
#
# On a shared machine a run means little if something else used a core meanwhile. Each run
# waits until the machine has been idle for a second, and is repeated (up to 5 times) while
# other processes took more than 5% of a core during it; the last column gives the largest
# share other processes took in the runs kept.
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wayfinder=${1:-$source_dir/build/release/tools/cli/wayfinder}
data=${2:-$source_dir/../shared/data}
rounds=${3:-3}

exec python3 - "$wayfinder" "$data" "$rounds" <<'PYTHON'
import json, os, resource, statistics, subprocess, sys, time

wayfinder, data, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
ticks = os.sysconf("SC_CLK_TCK")
quiet_share = 0.05  # of one core, taken by other processes during a run

def cpu_seconds():
    """Busy and idle seconds of the whole machine so far (all cores)."""
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / ticks, idle / ticks

def children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

def wait_for_idle(limit_seconds=600):
    waited = 0.0
    while waited < limit_seconds:
        busy0, idle0 = cpu_seconds()
        time.sleep(1.0)
        busy1, idle1 = cpu_seconds()
        if busy1 - busy0 <= 0.05 * ((busy1 - busy0) + (idle1 - idle0)):
            return
        waited += 1.0

def measured(command):
    """throughput_qps of the command's first JSON line, and the share of a core others took."""
    for attempt in range(5):
        wait_for_idle()
        busy0, _ = cpu_seconds()
        own0 = children_seconds()
        started = time.monotonic()
        output = subprocess.run(command + ["--json"], check=False, capture_output=True, text=True).stdout
        wall = time.monotonic() - started
        others = max(0.0, (cpu_seconds()[0] - busy0) - (children_seconds() - own0)) / wall
        if others <= quiet_share or attempt == 4:
            return json.loads(output.splitlines()[0])["throughput_qps"], others

pairs = [
    ("grid A*, dao/den520d (888 queries)",
     [wayfinder, "grid", "bench", f"{data}/movingai/dao/den520d.map.scen", "--algo", "astar"]),
    ("mesh, dungeon reference queries (10,000; median of 5 passes)",
     [wayfinder, "mesh", "bench", f"{data}/meshes/derived/dungeon_navmesh.obj",
      "--queries", f"{data}/meshes/derived/dungeon_reference_queries.csv", "--repeat", "5"]),
    ("voxel A* flying, warframe/Simple (10,000 queries)",
     [wayfinder, "voxel", "bench", f"{data}/voxel/warframe/Simple.3dmap.3dscen", "--algo", "astar"]),
]
print(f"{rounds} rounds; medians")
print()
print("| run | queries/s, 1 thread | queries/s, 2 threads | ratio | 2 threads on 1 core | 2 threads / 1 core | others' CPU |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for name, command in pairs:
    runs = {"one": [], "two": [], "pinned": []}
    worst = 0.0
    for _ in range(rounds):  # by turns, so that a slow minute hits every setting alike
        for key, full in (("one", command + ["--threads", "1"]), ("two", command + ["--threads", "2"]),
                          ("pinned", ["taskset", "-c", "0"] + command + ["--threads", "2"])):
            qps, others = measured(full)
            runs[key].append(qps)
            worst = max(worst, others)
    one, two, pinned = (statistics.median(runs[key]) for key in ("one", "two", "pinned"))
    print(f"| {name} | {one:,.0f} | {two:,.0f} | {two / one:.2f} | {pinned:,.0f} | {two / pinned:.2f} | "
          f"{100 * worst:.0f}% |", flush=True)
PYTHON
