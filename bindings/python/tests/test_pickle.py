"""Worlds pickle: a world made from its pickled state compares equal to the original and answers
the same queries identically, here and in the processes of a spawn pool."""

import multiprocessing
import pickle

import pytest

import wayfinder as wf

MAP = "type octile\nheight 6\nwidth 9\nmap\n.........\n...@@....\n...@.....\n...@..T..\n.........\n.........\n"
OBJ = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 20 0 0\nv 20 0 10\nv 20 0 20\nv 10 0 20\n" \
      "f 1 4 3 2\nf 2 3 6 5\nf 3 8 7 6\n"


def edited_grid():
    grid = wf.parse_movingai_map(MAP, "pickled")
    grid.set_cost((5, 4), 3.5)
    grid.set_cost((6, 2), 7.0)
    grid.block((6, 2))  # a wall that keeps its cost for when it is unblocked
    grid.set_area_rect(wf.GridRect(0, 4, 9, 2), 3)
    grid.set_flags((8, 0), 2)
    return grid


def edited_mesh():
    mesh = wf.NavMesh.build(wf.parse_obj_mesh(OBJ, "three"))
    mesh.set_area(1, 5)
    mesh.set_flags(2, 4)
    return mesh


def voxel_floor():
    world = wf.VoxelWorld(10, 5, 10)
    for x in range(10):
        for z in range(10):
            world.set_block((x, 0, z), wf.BlockKind.solid)
    for z in range(8):
        world.set_block((4, 1, z), wf.BlockKind.solid)  # a wall with a gap at the far end
    world.set_block((7, 1, 7), wf.BlockKind.water)
    return world


def answer(world, start, goal):
    """The parts of a query's answer that can cross a process boundary."""
    if isinstance(world, wf.GridMap):
        cheap_area = wf.AreaFilter().set_area_cost(3, 4.0)
        result = wf.GridQuery(world).find_path(start, goal, filter=cheap_area)
    elif isinstance(world, wf.NavMesh):
        result = wf.NavMeshQuery(world).find_path(start, goal)
    else:
        result = wf.VoxelQuery(world).find_path(start, goal)
    return int(result.status), result.cost, result.nodes, result.path


QUERIES = [(edited_grid, (0, 0), (8, 5)), (edited_grid, (2, 2), (8, 0)), (edited_mesh, (1, 0, 1), (15, 0, 19)),
           (voxel_floor, (0, 1, 0), (9, 1, 0)), (voxel_floor, (0, 1, 0), (7, 1, 7))]


def answer_pickled(job):
    """Runs in a pool's process: unpickles a world and answers one query."""
    pickled, start, goal = job
    return answer(pickle.loads(pickled), start, goal)


@pytest.mark.parametrize("make", [edited_grid, edited_mesh, voxel_floor])
def test_unpickled_world_is_equal(make):
    world = make()
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(world, protocol=protocol))
        assert type(copy) is type(world) and copy == world and copy.__getstate__() == world.__getstate__()
    assert make() == world


def test_unpickled_worlds_answer_identically():
    for make, start, goal in QUERIES:
        world = make()
        copy = pickle.loads(pickle.dumps(world))
        status, cost, nodes, path = answer(world, start, goal)
        assert status == int(wf.SearchStatus.found) and path, (make.__name__, start, goal)
        assert answer(copy, start, goal) == (status, cost, nodes, path)


def test_unpickled_grid_keeps_walls_costs_areas_and_flags():
    grid = edited_grid()
    copy = pickle.loads(pickle.dumps(grid))
    assert not copy.passable((6, 2)) and copy.cost((5, 4)) == 3.5
    assert copy.area((0, 5)) == 3 and copy.flags((8, 0)) == 2 and copy.area((0, 0)) == 0
    assert copy.passable_count() == grid.passable_count() and copy.uniform_cost == grid.uniform_cost
    copy.unblock((6, 2))
    grid.unblock((6, 2))
    assert copy.cost((6, 2)) == 7.0 and copy == grid
    copy.set_flags((0, 0), 1)
    assert copy != grid


def test_unpickled_mesh_keeps_areas_and_flags():
    copy = pickle.loads(pickle.dumps(edited_mesh()))
    assert copy.polygon_count == 3 and copy.area(1) == 5 and copy.flags(2) == 4 and copy.flags(1) == 0


def test_bad_states_are_refused():
    state = list(wf.GridMap(3, 2).__getstate__())
    with pytest.raises(ValueError, match="GridMap"):
        wf.GridMap.__new__(wf.GridMap).__setstate__(tuple(state[:-1]))
    state[3] = state[3][:-1]
    with pytest.raises(ValueError, match="size"):
        wf.GridMap.__new__(wf.GridMap).__setstate__(tuple(state))
    version, mesh_bytes = edited_mesh().__getstate__()
    with pytest.raises(wf.LoadError):
        wf.NavMesh.__new__(wf.NavMesh).__setstate__((version, mesh_bytes[: len(mesh_bytes) // 2]))
    version, x, y, z, kinds = voxel_floor().__getstate__()
    with pytest.raises(ValueError, match="block kind"):
        wf.VoxelWorld.__new__(wf.VoxelWorld).__setstate__((version, x, y, z, b"\x09" * len(kinds)))


def test_pickled_worlds_cross_to_a_spawn_pool():
    jobs = [(pickle.dumps(make()), start, goal) for make, start, goal in QUERIES]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        answers = pool.map(answer_pickled, jobs, chunksize=1)
    assert answers == [answer(make(), start, goal) for make, start, goal in QUERIES]
