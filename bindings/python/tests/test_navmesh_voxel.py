"""Navigation meshes and voxel worlds from Python, against the benchmark data's answers."""

import csv
import math

import numpy as np
import pytest

import wayfinder as wf


def test_mesh_from_arrays_and_locate():
    vertices = np.array([[0, 0, 0], [10, 0, 0], [10, 0, 10], [0, 0, 10], [20, 0, 0], [20, 0, 10]], dtype=float)
    mesh = wf.NavMesh.from_arrays(vertices, [0, 3, 2, 1, 1, 2, 5, 4], [4, 4])
    assert mesh.polygon_count == 2 and mesh.region_count == 1
    polygon, point = mesh.locate((15.0, 0.5, 5.0))
    assert polygon == 1 and point[1] == pytest.approx(0.0)
    assert mesh.locate((50.0, 0.0, 5.0)) is None
    query = wf.NavMeshQuery(mesh)
    result = query.find_path((1, 0, 1), (19, 0, 9), trace=True)
    assert result.found and result.cost == pytest.approx(math.hypot(18, 8))
    assert result.nodes == [0, 1] and len(query.portals()) == 1
    assert result.path_array.shape == (2, 3) and result.trace.shape[1] == 4
    # Shut the second polygon to this query only: the goal on it is refused, with a reason.
    mesh.set_flags(1, 1)
    assert mesh.revision == 1
    blocker = wf.AreaFilter()
    blocker.exclude_flags = 1
    shut = query.find_path((1, 0, 1), (19, 0, 9), filter=blocker)
    assert shut.status == wf.SearchStatus.invalid_input and "filter" in shut.message
    assert query.find_path((1, 0, 1), (19, 0, 9)).found
    mesh.set_flags(1, 0)
    off = query.find_path((1, 0, 1), (90, 0, 9))
    assert off.status == wf.SearchStatus.invalid_input and off.message


def test_nav_test_reference_queries(data_file):
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(data_file("meshes/derived/nav_test_navmesh.obj"))))
    query = wf.NavMeshQuery(mesh)
    checked = 0
    with open(data_file("meshes/derived/nav_test_reference_queries.csv")) as lines:
        for row in csv.DictReader(lines):
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            result = query.find_path(start, goal)
            optimal = float(row["optimal_len2d"])
            if optimal < 0:
                assert result.status == wf.SearchStatus.no_path, row["id"]
                continue
            assert result.found, (row["id"], result.message)
            points = result.path_array
            length_2d = float(np.sum(np.hypot(np.diff(points[:, 0]), np.diff(points[:, 2]))))
            assert length_2d >= optimal - 1e-4
            checked += 1
    assert checked > 20


def _same_answers(first, second):
    assert first.status == second.status and first.cost == second.cost
    assert first.nodes == second.nodes and first.path == second.path


def test_navmesh_file_round_trip(tmp_path):
    vertices = np.array([[0, 0, 0], [10, 0, 0], [10, 0, 10], [0, 0, 10], [20, 0, 0], [20, 0, 10]], dtype=float)
    mesh = wf.NavMesh.from_arrays(vertices, [0, 3, 2, 1, 1, 2, 5, 4], [4, 4])
    mesh.set_area(1, 5)
    mesh.set_flags(1, 4)
    path = tmp_path / "two.wfnav"
    wf.write_navmesh_file(mesh, str(path))
    loaded = wf.read_navmesh_file(str(path))
    assert loaded.polygon_count == 2 and loaded.area(1) == 5 and loaded.flags(1) == 4
    _same_answers(wf.NavMeshQuery(mesh).find_path((1, 0, 1), (19, 0, 9)),
                  wf.NavMeshQuery(loaded).find_path((1, 0, 1), (19, 0, 9)))

    # Damaged, truncated, foreign and missing files raise LoadError with the reader's message.
    cut = tmp_path / "cut.wfnav"
    cut.write_bytes(path.read_bytes()[:60])
    with pytest.raises(wf.LoadError) as error:
        wf.read_navmesh_file(str(cut))
    assert "cut.wfnav" in str(error.value) and "truncated" in error.value.cause
    damaged = tmp_path / "damaged.wfnav"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(wf.LoadError, match="damaged.wfnav"):
        wf.read_navmesh_file(str(damaged))
    foreign = tmp_path / "foreign.wfnav"
    foreign.write_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n")
    with pytest.raises(wf.LoadError, match="not a Wayfinder navmesh file"):
        wf.read_navmesh_file(str(foreign))
    with pytest.raises(wf.LoadError):
        wf.read_navmesh_file(str(tmp_path / "missing.wfnav"))
    with pytest.raises(OSError, match="no_such_folder"):
        wf.write_navmesh_file(mesh, str(tmp_path / "no_such_folder" / "x.wfnav"))


def test_navmesh_file_answers_the_reference_queries_as_before(data_file, tmp_path):
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(data_file("meshes/derived/nav_test_navmesh.obj"))))
    path = tmp_path / "nav_test.wfnav"
    wf.write_navmesh_file(mesh, str(path))
    loaded = wf.read_navmesh_file(str(path))
    assert loaded.polygon_count == mesh.polygon_count and loaded.vertex_count == mesh.vertex_count
    before, after = wf.NavMeshQuery(mesh), wf.NavMeshQuery(loaded)
    compared = 0
    with open(data_file("meshes/derived/nav_test_reference_queries.csv")) as lines:
        for row in csv.DictReader(lines):
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            _same_answers(before.find_path(start, goal), after.find_path(start, goal))
            compared += 1
    assert compared == 10000


def test_voxel_flyer_optimal_lengths(simple_voxel_benchmark):
    scenario, world = simple_voxel_benchmark
    finder = wf.VoxelQuery(world, wf.MovementProfile.flyer())
    for query in wf.read_voxel_scenario(str(scenario), max_queries=100):
        result = finder.find_path(query.start, query.goal)
        assert result.found, result.message
        assert result.cost == pytest.approx(query.optimal_length, abs=1e-6)
        assert result.path[0] == query.start and result.path[-1] == query.goal


def test_voxel_flyer_jump_point_search(simple_voxel_benchmark):
    scenario, world = simple_voxel_benchmark
    finder = wf.VoxelQuery(world, wf.MovementProfile.flyer())
    assert int(wf.VoxelAlgorithm.jump_point) == 4  # appended: the older values keep their numbers
    for query in wf.read_voxel_scenario(str(scenario), max_queries=100):
        result = finder.find_path(query.start, query.goal, algorithm=wf.VoxelAlgorithm.jump_point)
        assert result.found, result.message
        assert result.cost == pytest.approx(query.optimal_length, abs=1e-6)
        assert result.path[0] == query.start and result.path[-1] == query.goal
    walker = wf.VoxelQuery(world)
    refused = walker.find_path((1, 1, 1), (2, 1, 1), algorithm=wf.VoxelAlgorithm.jump_point)
    assert not refused.found and "flying agents only" in refused.message


def test_voxel_hierarchy_against_astar(simple_voxel_benchmark):
    scenario, world = simple_voxel_benchmark
    flyer = wf.MovementProfile.flyer()
    assert int(wf.VoxelAlgorithm.hierarchical) == 5  # appended after jump_point
    hierarchy = wf.VoxelHierarchy(world, flyer, cluster_size=16, build_threads=2)
    assert hierarchy.current and hierarchy.node_count == hierarchy.stats["nodes"] > 0
    finder = wf.VoxelQuery(world, flyer)
    refused = finder.find_path((0, 0, 0), (1, 1, 1), algorithm=wf.VoxelAlgorithm.hierarchical)
    assert not refused.found and "needs a hierarchy" in refused.message
    finder.set_hierarchy(hierarchy)
    for query in wf.read_voxel_scenario(str(scenario), max_queries=50):
        result = finder.find_path(query.start, query.goal, algorithm=wf.VoxelAlgorithm.hierarchical)
        assert result.found, result.message
        assert result.cost >= query.optimal_length - 1e-6  # near-optimal, never below
        assert result.path[0] == query.start and result.path[-1] == query.goal
    with pytest.raises(ValueError, match="cluster_size must be 4 to 64"):
        wf.VoxelHierarchy(world, flyer, cluster_size=2)
    with pytest.raises(ValueError, match="max_places"):
        wf.VoxelHierarchy(world, flyer, max_places=10)


def test_voxel_hierarchy_update_after_edits():
    world = wf.VoxelWorld(48, 6, 48)
    for x in range(48):
        for z in range(48):
            world.set_block((x, 0, z), wf.BlockKind.solid)
    walker = wf.MovementProfile.walker()
    hierarchy = wf.VoxelHierarchy(world, walker, cluster_size=8)
    finder = wf.VoxelQuery(world, walker)
    finder.set_hierarchy(hierarchy)
    assert hierarchy.update() == 0  # current: nothing to do
    for z in range(48):  # a wall across the world, on a cluster border
        for y in range(1, 6):
            world.set_block((24, y, z), wf.BlockKind.solid)
    assert not hierarchy.current
    redone = hierarchy.update()
    assert 0 < redone == hierarchy.stats["clusters_rebuilt"] < hierarchy.stats["clusters"]
    assert hierarchy.current and hierarchy.revision == world.revision
    blocked = finder.find_path((2, 1, 2), (45, 1, 45), algorithm=wf.VoxelAlgorithm.hierarchical)
    assert not blocked.found and blocked.status == wf.SearchStatus.no_path
    assert finder.find_path((2, 1, 2), (20, 1, 45), algorithm=wf.VoxelAlgorithm.hierarchical).found


def test_voxel_memory_limit():
    kinds = np.zeros((24, 96, 96), dtype=np.uint8)  # [y, z, x]: open air over a floor
    kinds[0, :, :] = int(wf.BlockKind.solid)
    world = wf.VoxelWorld.from_array(kinds)
    finder = wf.VoxelQuery(world, wf.MovementProfile.flyer())
    free = finder.find_path((0, 1, 0), (95, 20, 95))
    assert free.found
    held = finder.search_memory_bytes
    finder.release_search_memory()
    assert finder.search_memory_bytes < held
    capped = finder.find_path((0, 1, 0), (95, 20, 95), max_memory=held // 4)
    assert capped.status == wf.SearchStatus.partial and capped.reason == wf.StopReason.memory_limit
    with pytest.raises(ValueError, match="max_memory"):
        finder.find_path((0, 1, 0), (95, 20, 95), max_memory=0)


def test_voxel_world_from_numpy_and_walkers():
    kinds = np.zeros((4, 8, 8), dtype=np.uint8)  # [y, z, x]
    kinds[0, :, :] = int(wf.BlockKind.solid)
    kinds[1:3, 4, 0:7] = int(wf.BlockKind.solid)  # a wall with a gap at x = 7
    world = wf.VoxelWorld.from_array(kinds)
    assert world.size == (8, 4, 8)
    walker = wf.VoxelQuery(world)
    result = walker.find_path((1, 1, 1), (1, 1, 6))
    assert result.found and any(block[0] == 7 for block in result.path)
    flyer = walker.find_path((1, 1, 1), (1, 1, 6), profile=wf.MovementProfile.flyer())
    assert flyer.found and flyer.cost <= result.cost
    with pytest.raises(ValueError, match="block kinds"):
        wf.VoxelWorld.from_array(np.full((2, 2, 2), 9, dtype=np.uint8))
    bad = wf.MovementProfile()
    bad.agent_height = 0
    with pytest.raises(ValueError):
        wf.VoxelQuery(world, bad)


def test_voxel_connected_parts():
    kinds = np.zeros((4, 3, 12), dtype=np.uint8)  # [y, z, x]: two floors four columns apart
    kinds[0, :, 0:4] = int(wf.BlockKind.solid)
    kinds[0, :, 8:12] = int(wf.BlockKind.solid)
    world = wf.VoxelWorld.from_array(kinds)
    parts = wf.VoxelConnectedParts(world, wf.MovementProfile.walker())
    assert parts.part_count == 2 and parts.part_sizes == [12, 12] and parts.place_count == 24
    assert parts.part_of((0, 1, 0)) == 0 and parts.part_of((8, 1, 0)) == 1
    assert parts.part_of((5, 1, 0)) is None
    assert parts.places_in(1)[0] == (8, 1, 0)
    walker = wf.VoxelQuery(world)
    assert not walker.find_path((0, 1, 0), (8, 1, 0)).found
    bad = wf.MovementProfile()
    bad.agent_height = 0
    with pytest.raises(ValueError):
        wf.VoxelConnectedParts(world, bad)


def test_voxel_wide_agent():
    kinds = np.zeros((4, 8, 8), dtype=np.uint8)  # [y, z, x]
    kinds[0] = int(wf.BlockKind.solid)
    kinds[1:4, 0:7, 4] = int(wf.BlockKind.solid)  # a wall with a one-column gap at z = 7
    world = wf.VoxelWorld.from_array(kinds)
    narrow = wf.MovementProfile.walker()
    wide = wf.MovementProfile.walker()
    wide.agent_width = 2
    assert wide.agent_width == 2 and narrow.agent_width == 1
    query = wf.VoxelQuery(world)
    assert query.find_path((1, 1, 1), (6, 1, 1), profile=narrow).found
    assert not query.find_path((1, 1, 1), (6, 1, 1), profile=wide).found  # the gap is too narrow
    bad = wf.MovementProfile.walker()
    bad.agent_width = 4
    with pytest.raises(ValueError, match="agent_width must be 1 to 3"):
        wf.VoxelQuery(world, bad)


def test_voxel_shared_footprint():
    kinds = np.zeros((4, 8, 8), dtype=np.uint8)  # [y, z, x]
    kinds[0] = int(wf.BlockKind.solid)
    kinds[1:4, 0:6, 4] = int(wf.BlockKind.solid)  # a wall with a two-column gap at z = 6 to 7
    world = wf.VoxelWorld.from_array(kinds)
    wide = wf.MovementProfile.walker()
    wide.agent_width = 2
    footprint = wf.VoxelFootprint(world, wide)
    assert footprint.current and footprint.agent_width == 2 and not footprint.fly
    own = wf.VoxelQuery(world, wide)
    shared = wf.VoxelQuery(world, wide)
    shared.set_footprint(footprint)
    expected = own.find_path((1, 1, 1), (6, 1, 1))
    got = shared.find_path((1, 1, 1), (6, 1, 1))
    assert expected.found and got.path == expected.path and got.cost == expected.cost
    for y in range(1, 4):
        world.set_block((4, y, 6), wf.BlockKind.solid)  # the gap is now one column wide
    stale = shared.find_path((1, 1, 1), (6, 1, 1))
    assert stale.status == wf.SearchStatus.invalid_input and "VoxelFootprint::update() first" in stale.message
    assert footprint.update() > 0 and footprint.current and footprint.revision == world.revision
    assert not shared.find_path((1, 1, 1), (6, 1, 1)).found
    narrow = wf.MovementProfile.walker()
    with pytest.raises(ValueError, match="agent_width must be 2 to 3, got 1"):
        wf.VoxelFootprint(world, narrow)
