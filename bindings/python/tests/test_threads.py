"""Searches release the GIL: Python threads search in parallel."""

import threading
import time

import wayfinder as wf


def long_queries(grid, count):
    cells = [(x, y) for y in range(0, grid.height, 7) for x in range(0, grid.width, 7) if grid.passable((x, y))]
    return [(cells[i % len(cells)], cells[(i * 7919 + len(cells) // 2) % len(cells)]) for i in range(count)]


def test_a_search_lets_other_python_threads_run(data_file):
    grid = wf.read_movingai_map(str(data_file("movingai/dao/den520d.map")))
    queries = long_queries(grid, 200)
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        began = time.perf_counter()
        wf.solve_batch(grid, queries, threads=1, algorithm=wf.GridAlgorithm.dijkstra)
        elapsed = time.perf_counter() - began
    finally:
        done.set()
        counter.join()
    # Holding the GIL for the whole batch would leave the counter a few switch intervals' worth.
    assert elapsed > 0.05
    assert ticks > 10_000, f"only {ticks} ticks in {elapsed:.2f} s: the GIL was held"


def test_a_short_batch_finishes_while_a_long_one_runs_in_another_thread(data_file):
    # Two Python threads search one grid at once: a long batch and, once it is under way, a short
    # one. If a search held the GIL, or anything serialised the two calls, the short batch could
    # only finish after the long one. An ordering check, not a timing one: it holds on a busy
    # machine too (throughput on several threads is measured by bench/throughput.sh).
    grid = wf.read_movingai_map(str(data_file("movingai/dao/den520d.map")))
    long_batch = long_queries(grid, 600)
    short_batch = long_queries(grid, 3)
    long_started = threading.Event()
    finished = []

    def run_long():
        long_started.set()
        wf.solve_batch(grid, long_batch, threads=1, algorithm=wf.GridAlgorithm.dijkstra)
        finished.append("long")

    def run_short():
        long_started.wait()
        time.sleep(0.02)
        wf.solve_batch(grid, short_batch, threads=1, algorithm=wf.GridAlgorithm.astar)
        finished.append("short")

    workers = [threading.Thread(target=run_long), threading.Thread(target=run_short)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert finished == ["short", "long"], f"finishing order {finished}: the short batch waited for the long one"


# Each world's first query, run by two threads at once in a fresh interpreter: the result's first
# conversion to an array must not deadlock (a first-use guard inside the module taken by one
# thread while the other holds the GIL). A fresh process per round, since only first uses race;
# the worlds are made without numpy, so that the two queries' results make the first arrays.
FIRST_QUERIES_AT_ONCE = r"""
import sys, threading
import wayfinder as wf

kind = sys.argv[1]
if kind == "grid":
    world = wf.GridMap(64, 64)
    make = lambda: wf.GridQuery(world)
    ask = lambda query: query.find_path((1, 1), (60, 50))
elif kind == "voxel":
    world = wf.read_voxel_benchmark_map(sys.argv[3])
    width, height, depth = world.size
    row = [(x, height // 2, depth // 2) for x in range(width)]
    air = [place for place in row if world.block(place) == wf.BlockKind.air]
    make = lambda: wf.VoxelQuery(world, wf.MovementProfile.flyer())
    ask = lambda query: query.find_path(air[0], air[-1])
else:
    world = wf.NavMesh.build(wf.read_obj_mesh(sys.argv[2]))

    def centre(polygon):
        corners = [world.vertex(i) for i in world.polygon_vertices(polygon)]
        return tuple(sum(values) / len(corners) for values in zip(*corners))

    make = lambda: wf.NavMeshQuery(world)
    ask = lambda query: query.find_path(centre(0), centre(world.polygon_count - 1))
barrier = threading.Barrier(2)
results = []

def run():
    query = make()
    barrier.wait()
    results.append(str(ask(query).status))

threads = [threading.Thread(target=run) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(results)
assert len(results) == 2 and results[0] == results[1] and "invalid" not in results[0], results
"""


def test_first_queries_of_two_threads_at_once_do_not_deadlock(data_file):
    import os
    import subprocess
    import sys

    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    mesh = str(data_file("meshes/derived/dungeon_navmesh.obj"))
    voxels = str(data_file("voxel/warframe/Complex.3dmap"))
    for kind in ("grid", "voxel", "navmesh"):
        for round_number in range(8):
            try:
                done = subprocess.run([sys.executable, "-c", FIRST_QUERIES_AT_ONCE, kind, mesh, voxels], env=environment,
                                      capture_output=True, text=True, timeout=60)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{kind}, round {round_number}: two threads' first queries deadlocked")
            assert done.returncode == 0, f"{kind}, round {round_number}: {done.stderr}"
