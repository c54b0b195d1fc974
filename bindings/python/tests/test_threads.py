"""Searches release the GIL: Python threads search in parallel."""

import os
import threading
import time

import pytest

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


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
def test_two_threads_answer_more_queries_per_second_than_one(data_file):
    grid = wf.read_movingai_map(str(data_file("movingai/dao/den520d.map")))
    queries = long_queries(grid, 400)

    def rate(threads):
        # Each Python thread runs a one-thread batch over its share of the queries.
        shares = [queries[i::threads] for i in range(threads)]
        workers = [threading.Thread(target=wf.solve_batch, args=(grid, share), kwargs={"threads": 1}) for share in shares]
        began = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return len(queries) / (time.perf_counter() - began)

    # Best of three each, so that a busy moment does not decide.
    one = max(rate(1) for _ in range(3))
    two = max(rate(2) for _ in range(3))
    assert two > 1.3 * one, f"one thread {one:.0f} queries/s, two threads {two:.0f}"
