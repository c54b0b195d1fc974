"""wayfinder.distributed on a LocalCluster of two worker processes: a MovingAI scenario's batch
gives the local solve_batch's results in request order, with progress; mesh batches (with areas,
flags and filters) and voxel batches give the local queries' results; a grid's filter travels; a
bad request fails alone; a worker killed mid-batch has its chunks run again; goal bounds built in
ranges on the workers equal the local build byte for byte. Without Dask, the module imports and
its cluster functions raise a clear error. Goal bounds' parts themselves: built, merged, saved,
pickled."""

import csv
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


def mesh_answers(results):
    """answers() for results whose nodes and points are a mesh's or a voxel world's."""
    return [(r.status, r.reason, r.cost, r.message, list(r.nodes), list(r.path)) for r in results]


@pytest.fixture(scope="module")
def nav_test(data_dir):
    mesh_file = data_dir / "meshes" / "derived" / "nav_test_navmesh.obj"
    queries_file = data_dir / "meshes" / "derived" / "nav_test_reference_queries.csv"
    if not (mesh_file.exists() and queries_file.exists()):
        pytest.skip(f"{mesh_file} or {queries_file} not found")
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(mesh_file)))
    with open(queries_file) as lines:
        requests = [((float(row["sx"]), float(row["sy"]), float(row["sz"])),
                     (float(row["ex"]), float(row["ey"]), float(row["ez"]))) for row in csv.DictReader(lines)]
    return mesh, requests


def test_mesh_batches_give_the_local_results_with_areas_flags_and_filters(client, nav_test):
    mesh, requests = nav_test
    # Areas and flags set after the build travel with the mesh (its .wfnav bytes): every third
    # polygon in area 5, every seventh a door.
    for polygon in range(0, mesh.polygon_count, 3):
        mesh.set_area(polygon, 5)
    for polygon in range(0, mesh.polygon_count, 7):
        mesh.set_flags(polygon, 0x1)
    doors = wf.AreaFilter()
    doors.set_area_cost(5, 3.0)
    doors.exclude_flags = 0x1
    query = wf.NavMeshQuery(mesh)
    for options in ({}, {"filter": doors}, {"filter": doors, "nodes": wf.CorridorNodes.polygon_centroids}):
        seen = []
        results = wd.solve_batch(client, mesh, requests, chunk_size=64, threads_per_task=2,
                                 progress=lambda done, total: seen.append((done, total)), **options)
        local = [query.find_path(start, goal, **options) for start, goal in requests]
        assert mesh_answers(results) == mesh_answers(local)
        assert seen[-1] == (len(requests), len(requests))
    filtered = [r.status for r in wd.solve_batch(client, mesh, requests, filter=doors)]
    plain = [r.status for r in wd.solve_batch(client, mesh, requests)]
    assert filtered != plain, "the doors change some answers"
    assert any(status == wf.SearchStatus.found for status in filtered)


def test_voxel_batches_give_the_local_results(client, data_dir):
    scenario = data_dir / "voxel" / "warframe" / "Simple.3dmap.3dscen"
    if not scenario.exists():
        pytest.skip(f"{scenario} not found")
    world = wf.read_voxel_benchmark_map(str(scenario)[: -len(".3dscen")])
    requests = [(q.start, q.goal) for q in wf.read_voxel_scenario(str(scenario), max_queries=200)]
    flyer = wf.MovementProfile.flyer()
    query = wf.VoxelQuery(world, flyer)
    for algorithm in ("astar", wf.VoxelAlgorithm.jump_point):
        results = wd.solve_batch(client, world, requests, algorithm=algorithm, profile=flyer, chunk_size=50)
        chosen = getattr(wf.VoxelAlgorithm, algorithm) if isinstance(algorithm, str) else algorithm
        local = [query.find_path(start, goal, algorithm=chosen, profile=flyer) for start, goal in requests]
        assert mesh_answers(results) == mesh_answers(local)
        assert all(r.found for r in results)
    # A walker by default, with its own answers.
    walker = wd.solve_batch(client, world, requests[:20])
    assert mesh_answers(walker) == mesh_answers([wf.VoxelQuery(world).find_path(s, g) for s, g in requests[:20]])


def test_bad_mesh_and_voxel_requests_fail_alone_and_bad_options_early(client):
    mesh = wf.NavMesh.from_arrays([(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 0.0, 4.0), (0.0, 0.0, 4.0)],
                                  [0, 1, 2, 3], [4])
    batch = [((0.5, 0.0, 0.5), (3.5, 0.0, 3.5)), "not a request", ((9.0, 0.0, 9.0), (1.0, 0.0, 1.0))]
    results = wd.solve_batch(client, mesh, batch, chunk_size=2)
    assert results[0].found
    assert isinstance(results[1], wd.RequestFailure) and results[1].request == "not a request"
    assert results[1].message.startswith("not a request ((x, y, z) points)")
    assert results[2].status == wf.SearchStatus.invalid_input
    world = wf.VoxelWorld(4, 3, 4)
    for x in range(4):
        for z in range(4):
            world.set_block((x, 0, z), wf.BlockKind.solid)
    results = wd.solve_batch(client, world, [((0, 1, 0), (3, 1, 3)), ((0, 1), (3, 1, 3))])
    assert results[0].found and isinstance(results[1], wd.RequestFailure)
    assert results[1].message.startswith("not a request ((x, y, z) blocks)")
    with pytest.raises(TypeError):
        wd.solve_batch(client, mesh, batch, no_such_option=1)
    with pytest.raises(TypeError, match="mesh batches take no algorithm"):
        wd.solve_batch(client, mesh, batch, algorithm="astar")
    with pytest.raises(ValueError, match="unknown voxel algorithm 'teleport'"):
        wd.solve_batch(client, world, [], algorithm="teleport")
    with pytest.raises(ValueError, match="traces"):
        wd.solve_batch(client, mesh, batch, trace=True)
    with pytest.raises(TypeError, match="the options travel to the workers, so they must pickle"):
        wd.solve_batch(client, mesh, batch, filter=NotPickled())
    with pytest.raises(TypeError, match="takes a GridMap, a NavMesh or a VoxelWorld"):
        wd.solve_batch(client, "a map", batch)


def test_a_grid_filter_travels_to_the_workers(client):
    grid = wf.GridMap(10, 3)
    grid.set_area_rect(wf.GridRect(1, 0, 8, 2), 3)
    closed = wf.AreaFilter().exclude_area(3)
    requests = [((0, 0), (9, 0)), ((0, 1), (9, 1))]
    results = wd.solve_batch(client, grid, requests, filter=closed, diagonal=wf.DiagonalMode.never)
    local = wf.solve_batch(grid, requests, threads=1, filter=closed, diagonal=wf.DiagonalMode.never)
    assert answers(results) == answers(local)
    assert results[0].cost == pytest.approx(13.0)


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
