#!/usr/bin/env python3
"""Throughput of grid batches on a Dask cluster against the local threaded batch.

    PYTHONPATH=build/release/python python3 bindings/python/bench/distributed_batch.py \
        [--scenario ../shared/data/movingai/dao/arena2.map.scen] [--queries 1000000] \
        [--algorithm jump_point] [--chunk-size 20000] [--scheduler tcp://host:8786]

Runs the scenario's queries, repeated up to --queries, three ways: wayfinder.solve_batch on
this machine's threads (--local-threads, default 2), then wayfinder.distributed.solve_batch on a
LocalCluster of 1 and of 2 single-threaded worker processes (or, with --scheduler, on that
cluster as it is). Prints, per run, the seconds, the queries per second and the ratio to the
local batch; and the cost of sending the map once to every worker (client.scatter with
broadcast), the map's pickled size. Results are checked against the local batch's costs.
"""

import argparse
import logging
import pickle
import time

import wayfinder as wf
import wayfinder.distributed as wd


def timed(call):
    began = time.perf_counter()
    value = call()
    return value, time.perf_counter() - began


def scatter_seconds(client, grid, repeats=5):
    """The median time of sending the map to every worker once."""
    times = []
    for _ in range(repeats):
        future, seconds = timed(lambda: client.scatter(grid, broadcast=True, hash=False))
        times.append(seconds)
        client.cancel([future])
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="../shared/data/movingai/dao/arena2.map.scen")
    parser.add_argument("--queries", type=int, default=1_000_000)
    parser.add_argument("--algorithm", default="jump_point")
    parser.add_argument("--chunk-size", type=int, default=20_000)
    parser.add_argument("--local-threads", type=int, default=2)
    parser.add_argument("--scheduler", help="a running cluster's scheduler address (tcp://host:8786)")
    arguments = parser.parse_args()

    import distributed  # here, so that --help works without Dask

    grid = wf.read_movingai_map(arguments.scenario[:-len(".scen")])
    scenario = [(q.start, q.goal) for q in wf.read_movingai_scenario(arguments.scenario)]
    requests = [scenario[i % len(scenario)] for i in range(arguments.queries)]
    algorithm = getattr(wf.GridAlgorithm, arguments.algorithm)
    derived = wf.build_grid_derived_data(grid, algorithm=algorithm)
    print(f"map {arguments.scenario[:-len('.scen')]} ({grid.width}x{grid.height}), {len(requests)} queries "
          f"({len(scenario)} distinct), {arguments.algorithm}, chunks of {arguments.chunk_size}")
    print(f"pickled map: {len(pickle.dumps(grid))} bytes")

    local, seconds = timed(lambda: wf.solve_batch(grid, requests, threads=arguments.local_threads,
                                                  algorithm=algorithm, derived=derived))
    base = len(requests) / seconds
    print(f"local solve_batch, {arguments.local_threads} threads: {seconds:.2f} s, {base:,.0f} queries/s, ratio 1.00")
    expected = [result.cost for result in local]
    del local

    def run(client, label):
        client.run(lambda: None)  # the workers are up
        scatter = scatter_seconds(client, grid)
        results, seconds = timed(lambda: wd.solve_batch(client, grid, requests, algorithm=algorithm,
                                                        chunk_size=arguments.chunk_size))
        assert [result.cost for result in results] == expected, "the cluster's costs differ from the local batch's"
        rate = len(requests) / seconds
        print(f"{label}: {seconds:.2f} s, {rate:,.0f} queries/s, ratio {rate / base:.2f}; "
              f"scatter of the map to every worker {scatter * 1000:.1f} ms")

    if arguments.scheduler:
        with distributed.Client(arguments.scheduler) as client:
            workers = len(client.scheduler_info()["workers"])
            run(client, f"cluster at {arguments.scheduler}, {workers} workers")
        return
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit="2GiB",
                                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
                distributed.Client(cluster) as client:
            run(client, f"Dask LocalCluster, {workers} worker process{'es' if workers > 1 else ''} x 1 thread")


if __name__ == "__main__":
    main()
