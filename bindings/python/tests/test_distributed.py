"""wayfinder.distributed on a LocalCluster of two worker processes: a MovingAI scenario's batch
gives the local solve_batch's results in request order, with progress; a bad request fails
alone; a worker killed mid-batch has its chunks run again; goal bounds built in ranges on the
workers equal the local build byte for byte. Without Dask, the module imports and its cluster
functions raise a clear error. Goal bounds' parts themselves: built, merged, saved, pickled."""

import logging
import os
import pickle
import signal
import subprocess
import sys
import textwrap

import pytest

import wayfinder as wf
import wayfinder.distributed as wd


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")  # Debian: python3-distributed (.ci/debian-packages.txt)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="1GiB",
                                       dashboard_address=None, silence_logs=logging.ERROR)
    with distributed.Client(cluster) as connected:
        yield connected
    cluster.close()


def answers(results):
    """What two runs of the same queries must agree on (times aside)."""
    return [(r.status, r.reason, r.cost, r.message, list(r.nodes), r.path) for r in results]


@pytest.fixture(scope="module")
def chantry(data_dir):
    scenario = data_dir / "movingai" / "da2" / "ht_chantry.map.scen"
    if not scenario.exists():
        pytest.skip(f"{scenario} not found")
    grid = wf.read_movingai_map(str(scenario.with_suffix("")))
    requests = [(q.start, q.goal) for q in wf.read_movingai_scenario(str(scenario), max_queries=2000)]
    return grid, requests


def test_a_scenario_gives_the_local_results_in_request_order_with_progress(client, chantry):
    grid, requests = chantry
    for algorithm in ("astar", wf.GridAlgorithm.jump_point_plus):
        seen = []
        results = wd.solve_batch(client, grid, requests, algorithm=algorithm, chunk_size=128,
                                 progress=lambda done, total: seen.append((done, total)))
        chosen = wf.GridAlgorithm.astar if algorithm == "astar" else algorithm
        derived = wf.build_grid_derived_data(grid, algorithm=chosen)
        local = wf.solve_batch(grid, requests, threads=2, algorithm=chosen, derived=derived)
        assert answers(results) == answers(local)
        assert all(r.found for r in results)
        chunks = (len(requests) + 127) // 128
        assert len(requests) > 400 and len(seen) == chunks and seen[-1] == (len(requests), len(requests))
        assert [done for done, _ in seen] == sorted(done for done, _ in seen)


class NotPickled:
    def __reduce__(self):
        raise TypeError("cannot pickle NotPickled")


def test_a_bad_request_fails_alone_and_says_why(client, chantry):
    grid, requests = chantry
    batch = requests[:5] + [((-1, 3), (5, 5)), "not a request", ((1, 2, 3), None)] + requests[5:10]
    results = wd.solve_batch(client, grid, batch, chunk_size=4)
    good = wf.solve_batch(grid, requests[:10], threads=1)
    assert answers(results[:5] + results[8:]) == answers(good)
    assert results[5].status == wf.SearchStatus.invalid_input and "(-1,3)" in results[5].message.replace(" ", "")
    for failed, request in zip(results[6:8], batch[6:8]):
        assert isinstance(failed, wd.RequestFailure) and failed.request == request
        assert failed.status == wf.SearchStatus.invalid_input and not failed.found and failed.path == []
        assert failed.message.startswith("not a request ((x, y), (x, y)) of cells")
    # Options every request would refuse are refused before anything is sent.
    with pytest.raises(ValueError):
        wd.solve_batch(client, grid, requests[:3], max_cost=-1.0)
    with pytest.raises(TypeError, match="the options travel to the workers, so they must pickle"):
        wd.solve_batch(client, grid, requests[:3], filter=NotPickled())
    with pytest.raises(ValueError, match="unknown grid algorithm 'teleport'"):
        wd.solve_batch(client, grid, requests[:3], algorithm="teleport")


def test_a_worker_killed_mid_batch_has_its_chunks_run_again(client, data_dir):
    scenario = data_dir / "movingai" / "dao" / "brc202d.map.scen"
    if not scenario.exists():
        pytest.skip(f"{scenario} not found")
    grid = wf.read_movingai_map(str(scenario.with_suffix("")))
    # The longest queries (the last buckets), so that chunks are still running when one worker dies.
    requests = [(q.start, q.goal) for q in wf.read_movingai_scenario(str(scenario))][-400:]
    pids = client.run(os.getpid)
    killed = []

    def kill_one_worker(done, total):
        if not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    results = wd.solve_batch(client, grid, requests, algorithm="jump_point", chunk_size=10, progress=kill_one_worker)
    assert killed and killed[0] < len(requests)  # killed while chunks were left to run
    assert answers(results) == answers(wf.solve_batch(grid, requests, threads=2, algorithm=wf.GridAlgorithm.jump_point))
    client.wait_for_workers(2, timeout=30)  # the nanny starts a new worker for the later tests


def test_goal_bounds_built_in_ranges_on_the_workers_equal_the_local_build(client, tmp_path, data_dir):
    arena = data_dir / "meshes" / "polyanya" / "utils" / "maps" / "arena.map"
    if not arena.exists():
        pytest.skip(f"{arena} not found")
    grid = wf.read_movingai_map(str(arena))
    local = wf.GridGoalBounds(grid)
    seen = []
    bounds = wd.build_goal_bounds(client, grid, ranges=5, path=tmp_path / "arena.bounds",
                                  progress=lambda done, total: seen.append((done, total)))
    assert bounds.to_bytes() == local.to_bytes()
    local.save(str(tmp_path / "local.bounds"))
    assert (tmp_path / "arena.bounds").read_bytes() == (tmp_path / "local.bounds").read_bytes()
    assert seen[-1] == (5, 5)
    cells = grid.width * grid.height
    given = wd.build_goal_bounds(client, grid, ranges=[(1000, cells), (0, 1000)])
    assert given.to_bytes() == local.to_bytes()
    with pytest.raises(ValueError, match=r"the cells \[1000, 1200\) are in no range"):
        wd.build_goal_bounds(client, grid, ranges=[(0, 1000), (1200, cells)])
    with pytest.raises(ValueError, match="overlap"):
        wd.build_goal_bounds(client, grid, ranges=[(0, 1000), (900, cells)])


def test_goal_bounds_parts_merge_save_load_and_pickle(tmp_path):
    grid = wf.parse_movingai_map("type octile\nheight 5\nwidth 6\nmap\n......\n.@@...\n...@..\n......\n.@....\n", "small")
    whole = wf.GridGoalBounds(grid, threads=1)
    parts = [wf.GridGoalBoundsPart(grid, 12, 30), wf.GridGoalBoundsPart(grid, 0, 12)]
    assert wf.GridGoalBounds.merge(parts, grid).to_bytes() == whole.to_bytes()
    parts[0].save(str(tmp_path / "p.part"))
    loaded = wf.GridGoalBoundsPart.load(str(tmp_path / "p.part"))
    assert (loaded.first, loaded.last, loaded.width, loaded.height) == (12, 30, 6, 5)
    travelled = pickle.loads(pickle.dumps(parts[1]))
    assert travelled.to_bytes() == parts[1].to_bytes()
    assert wf.GridGoalBoundsPart.from_bytes(parts[1].to_bytes()).to_bytes() == parts[1].to_bytes()
    whole.save(str(tmp_path / "whole.bounds"))
    assert wf.GridGoalBounds.load(str(tmp_path / "whole.bounds"), grid).to_bytes() == whole.to_bytes()
    with pytest.raises(ValueError, match=r"the cells \[0, 12\) are in no part"):
        wf.GridGoalBounds.merge([loaded], grid)
    with pytest.raises(ValueError, match=r"overlap \(the cells \[12, 30\) are in both\)"):
        wf.GridGoalBounds.merge([parts[1], loaded, parts[0]], grid)
    with pytest.raises(ValueError, match="not a range"):
        wf.GridGoalBoundsPart(grid, 3, 31)
    with pytest.raises(wf.LoadError, match="not a goal bounds' part file"):
        wf.GridGoalBoundsPart.load(str(tmp_path / "whole.bounds"))
    results = wf.solve_batch(grid, [((0, 0), (5, 4)), ((0, 0), (9, 9))], threads=1)
    for result, travelled in zip(results, pickle.loads(pickle.dumps(results))):
        assert answers([travelled]) == answers([result]) and travelled.stats.expanded == result.stats.expanded


WITHOUT_DASK = textwrap.dedent("""
    import sys
    sys.modules["distributed"] = None  # makes `import distributed` raise ImportError
    import wayfinder as wf
    import wayfinder.distributed as wd

    grid = wf.GridMap(4, 3)
    assert wd.cell_ranges(grid, 2) == [(0, 6), (6, 12)]
    for call in (lambda: wd.solve_batch(None, grid, [((0, 0), (3, 2))]), lambda: wd.build_goal_bounds(None, grid)):
        try:
            call()
        except wd.DaskUnavailableError as error:
            assert isinstance(error, ImportError) and "python3-distributed" in str(error), error
        else:
            raise AssertionError("no error without Dask")
    print("ok")
""")


def test_the_module_imports_without_dask():
    finished = subprocess.run([sys.executable, "-c", WITHOUT_DASK], capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "ok"
