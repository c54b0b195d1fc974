"""numpy is optional: in an interpreter that cannot import it, the module imports, every world
answers queries with lists of tuples where it would give arrays, and only the calls that take
arrays raise, with an ImportError naming numpy. With numpy, the other tests check the arrays."""

import os
import subprocess
import sys
import textwrap

# Runs in a fresh interpreter in which `import numpy` fails as if numpy were not installed.
WITHOUT_NUMPY = textwrap.dedent("""
    import sys
    sys.modules["numpy"] = None  # makes `import numpy` raise ImportError
    import pytest
    import wayfinder as wf

    grid = wf.parse_movingai_map("type octile\\nheight 3\\nwidth 4\\nmap\\n....\\n.@@.\\n....\\n", "small")
    result = wf.GridQuery(grid).find_path((0, 1), (3, 1), trace=True)
    assert result.found and result.path[0] == (0, 1) and result.path[-1] == (3, 1)
    assert result.path_array == result.path and isinstance(result.path_array, list)
    assert result.path is not result.path_array  # a copy: editing it leaves the result alone
    assert all(isinstance(row, tuple) and len(row) == 3 for row in result.trace) and result.trace
    assert grid.to_costs()[1] == (1.0, float("inf"), float("inf"), 1.0)
    batch = wf.solve_batch(grid, [((0, 0), (3, 2))], threads=1)
    assert batch[0].path_array == batch[0].path

    mesh = wf.NavMesh.build(wf.parse_obj_mesh(
        "v 0 0 0\\nv 10 0 0\\nv 10 0 10\\nv 0 0 10\\nv 20 0 0\\nv 20 0 10\\nf 1 4 3 2\\nf 2 3 6 5\\n", "two"))
    route = wf.NavMeshQuery(mesh).find_path((1, 0, 1), (19, 0, 9), trace=True)
    assert route.found and route.nodes == [0, 1]
    assert route.path_array == [(1.0, 0.0, 1.0), (19.0, 0.0, 9.0)] and len(route.trace[0]) == 4

    world = wf.VoxelWorld(8, 4, 8)
    for x in range(8):
        for z in range(8):
            world.set_block((x, 0, z), wf.BlockKind.solid)
    walk = wf.VoxelQuery(world).find_path((0, 1, 0), (7, 1, 7))
    assert walk.found and walk.path_array == walk.path and walk.path[-1] == (7, 1, 7)

    for call in (lambda: wf.GridMap.from_costs([[1.0]]), lambda: wf.GridMap.from_costs(blocked=[[False]]),
                 lambda: wf.NavMesh.from_arrays([[0, 0, 0]], [0], [1]), lambda: wf.VoxelWorld.from_array([[[1]]])):
        with pytest.raises(ImportError, match="needs numpy"):
            call()
    assert sys.modules["numpy"] is None  # nothing imported numpy behind the test's back
    print("answered without numpy")
""")


def test_everything_but_the_array_constructors_works_without_numpy():
    finished = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY], capture_output=True, text=True,
                              env=os.environ.copy(), timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "answered without numpy"
