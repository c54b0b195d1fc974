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
