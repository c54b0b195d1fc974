"""Wayfinder: pathfinding for games on grids, navigation meshes and voxel worlds.

The names mirror the C++ API (docs/python.md):

    import wayfinder
    grid = wayfinder.read_movingai_map("arena2.map")
    result = wayfinder.GridQuery(grid).find_path((100, 41), (98, 44))
    print(result.status, result.cost, result.path)

Searches release the GIL, so Python threads search in parallel, each with its own query object.
"""

from ._wayfinder import *  # noqa: F401,F403
from ._wayfinder import LoadError  # noqa: F401  (a ValueError with file, line, column, cause)

# Former names of the query objects (every language calls them queries now).
GridPathfinder = GridQuery  # noqa: F405
VoxelPathfinder = VoxelQuery  # noqa: F405

__all__ = [name for name in dir() if not name.startswith("_")]
