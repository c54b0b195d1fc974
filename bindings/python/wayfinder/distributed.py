"""Batches of grid, navigation mesh and voxel queries, and goal bounds built in ranges of cells,
on a Dask cluster.

    from distributed import Client
    import wayfinder, wayfinder.distributed as wd

    client = Client("tcp://scheduler:8786")  # or Client(LocalCluster(...))
    grid = wayfinder.read_movingai_map("arena2.map")
    results = wd.solve_batch(client, grid, [((1, 1), (200, 180)), ...], algorithm="jump_point")
    mesh_results = wd.solve_batch(client, mesh, [((1.0, 0.0, 2.0), (40.0, 0.0, 9.5)), ...], filter=doors)
    voxel_results = wd.solve_batch(client, world, [((1, 2, 3), (60, 2, 40)), ...], profile=flyer)
    bounds = wd.build_goal_bounds(client, grid, ranges=8, path="arena2.bounds")

The world is sent once to every worker (client.scatter with broadcast; a NavMesh travels as its
.wfnav bytes, a VoxelWorld as its block kinds, a GridMap as its cells: their pickled states); the
requests travel in chunks, each chunk one Dask task that runs the module's own solve_batch (grids)
or a query object per thread (meshes, voxel worlds) on its worker, so the results are those of
wayfinder.solve_batch or of NavMeshQuery.find_path and VoxelQuery.find_path, in request order.
The tasks are pure (their results depend on their arguments only): when a worker dies, the
scheduler runs its chunks again on the others. A request that cannot be run at all (not a pair
of cells or points) gets a RequestFailure, whose message says why, in its place; a request with
cells off the map or blocked (points off the mesh, blocks the agent cannot stand in) gets the
usual invalid_input result; neither fails the batch. docs/python.md, "Batches on a Dask cluster".

Dask is optional: this module imports without it, and its cluster functions then raise
DaskUnavailableError (an ImportError) saying what to install.
"""

import concurrent.futures
import pickle
import uuid

from . import _wayfinder as _native

try:
    import distributed as _dask
except ImportError:  # the rest of wayfinder works without Dask
    _dask = None

__all__ = ["DaskUnavailableError", "RequestFailure", "solve_batch", "build_goal_bounds", "cell_ranges"]


class DaskUnavailableError(ImportError):
    """Raised by the cluster functions when Dask's `distributed` package cannot be imported."""


def _require_dask(call):
    if _dask is None:
        raise DaskUnavailableError(
            f"wayfinder.distributed.{call} needs Dask's distributed package, which cannot be imported "
            "(Debian: apt-get install python3-distributed; pip: pip install distributed)")


class RequestFailure:
    """The result of a request that could not be run at all (not a pair of (x, y) cells, or of
    (x, y, z) points or blocks): it reads
    like a PathResult without a path, status invalid_input, and `message` says what was wrong.
    `request` is the request as given."""

    __slots__ = ("request", "message")

    status = _native.SearchStatus.invalid_input
    reason = _native.StopReason.invalid_input
    cost = 0.0
    found = False
    has_path = False
    trace = None
    stats = None

    def __init__(self, request, message):
        self.request = request
        self.message = message

    @property
    def nodes(self):
        return []

    @property
    def path(self):
        return []

    @property
    def path_array(self):
        return []

    def __reduce__(self):
        return (RequestFailure, (self.request, self.message))

    def __repr__(self):
        return f"RequestFailure({self.request!r}, {self.message!r})"


def _enum_member(kind, value, what):
    """A member of the enumeration `kind` from itself or its name ("astar", "jump_point_plus", ...)."""
    if isinstance(value, kind):
        return value
    try:
        return getattr(kind, value)
    except (AttributeError, TypeError):
        names = ", ".join(kind.__members__)
        raise ValueError(f"unknown {what} {value!r} (one of: {names})") from None


def _algorithm_of(algorithm):
    """A GridAlgorithm from itself or its name."""
    return _enum_member(_native.GridAlgorithm, algorithm, "grid algorithm")


def _solve_chunk(world, requests, algorithm_name, options, threads):
    """One task: the chunk's results, in its order, as wayfinder.solve_batch gives them. A chunk
    with a malformed request is answered request by request, so only that one fails."""
    algorithm = getattr(_native.GridAlgorithm, algorithm_name)
    options = _options_received(options)
    # What the algorithm reads besides the map (JPS+'s jump table, hpa's hierarchy), built per
    # task: linear in the map, small beside a chunk of searches.
    derived = _native.build_grid_derived_data(world, algorithm=algorithm)

    def solve(batch):
        return _native.solve_batch(world, batch, threads, algorithm=algorithm, derived=derived, **options)

    try:
        return solve(requests)
    except (TypeError, ValueError):
        pass
    results = []
    for request in requests:
        try:
            results.append(solve([request])[0])
        except (TypeError, ValueError) as error:
            results.append(RequestFailure(request, f"not a request ((x, y), (x, y)) of cells: {error}"))
    return results


def _check_options(algorithm, sent):
    """Raises here, before anything is sent, for options that every request would refuse; `sent`
    are the options as _options_to_send makes them."""
    try:
        pickle.dumps(sent)
    except (TypeError, pickle.PicklingError) as error:
        raise TypeError(f"the options travel to the workers, so they must pickle: {error}") from None
    probe = _native.GridMap(1, 1)
    derived = _native.build_grid_derived_data(probe, algorithm=algorithm)
    _native.solve_batch(probe, [((0, 0), (0, 0))], 1, algorithm=algorithm, derived=derived, **_options_received(sent))


def _run(client, futures, sizes, progress):
    """The futures' results in their order; progress(done, total) after each one, counted in
    `sizes` (what each future stands for)."""
    results = [None] * len(futures)
    index_of = {future.key: i for i, future in enumerate(futures)}
    total = sum(sizes)
    done = 0
    for future, result in _dask.as_completed(futures, with_results=True):
        i = index_of[future.key]
        results[i] = result
        done += sizes[i]
        if progress is not None:
            progress(done, total)
    return results


# The fields of a MovementProfile that Python can set (its costs are C++'s defaults), and the
# picklable forms of the options that are module objects without a pickled state of their own.
_PROFILE_FIELDS = ("agent_height", "agent_width", "walk_directions", "step_height", "jump_height", "jump_distance",
                   "max_fall", "swim", "climb", "fly")


class _FilterState(tuple):
    """An AreaFilter as (area costs, include flags, exclude flags), rebuilt on the workers."""

    def restore(self):
        costs, include, exclude = self
        restored = _native.AreaFilter()
        for area, cost in enumerate(costs):
            restored.set_area_cost(area, cost)
        restored.include_flags = include
        restored.exclude_flags = exclude
        return restored


class _ProfileState(tuple):
    """A MovementProfile as the values of _PROFILE_FIELDS, rebuilt on the workers."""

    def restore(self):
        restored = _native.MovementProfile()
        for field, value in zip(_PROFILE_FIELDS, self):
            setattr(restored, field, value)
        return restored


def _options_to_send(options):
    """The options with an AreaFilter (filter=) and a MovementProfile (profile=) in forms that
    pickle; everything else as given."""
    sent = dict(options)
    chosen = sent.get("filter")
    if isinstance(chosen, _native.AreaFilter):
        costs = tuple(chosen.area_cost(area) for area in range(_native.max_areas))
        sent["filter"] = _FilterState((costs, chosen.include_flags, chosen.exclude_flags))
    profile = sent.get("profile")
    if isinstance(profile, _native.MovementProfile):
        sent["profile"] = _ProfileState(tuple(getattr(profile, field) for field in _PROFILE_FIELDS))
    return sent


def _options_received(options):
    """The inverse of _options_to_send, on a worker."""
    return {name: value.restore() if isinstance(value, (_FilterState, _ProfileState)) else value
            for name, value in options.items()}


def _voxel_algorithm_of(algorithm):
    """A VoxelAlgorithm from itself, its name or None (A*)."""
    if algorithm is None:
        return _native.VoxelAlgorithm.astar
    return _enum_member(_native.VoxelAlgorithm, algorithm, "voxel algorithm")


class _QueryKind:
    """How a batch runs on one kind of world that has no native batch call here: its query
    object, what a request's ends are called, and a world on which to try the options."""

    def __init__(self, name, ends, make_query, probe):
        self.name = name
        self.ends = ends
        self.make_query = make_query
        self.probe = probe


def _mesh_query(mesh, algorithm_name, options):
    return _native.NavMeshQuery(mesh)


def _voxel_query(world, algorithm_name, options):
    query = _native.VoxelQuery(world)
    if algorithm_name == "hierarchical":
        # What hierarchical search reads besides the world, built per task as a grid's derived
        # data is: the agent's hierarchy (seconds on a large world; read-only afterwards).
        profile = options.get("profile") or _native.MovementProfile.walker()
        query.set_hierarchy(_native.VoxelHierarchy(world, profile))
    return query


def _mesh_probe():
    # From OBJ text, which needs no numpy (as this module does not).
    square = _native.NavMesh.build(_native.parse_obj_mesh("v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nf 1 2 3 4\n", "<probe>"))
    return square, ((0.5, 0.0, 0.5), (0.5, 0.0, 0.5))


def _voxel_probe():
    world = _native.VoxelWorld(1, 3, 1)
    world.set_block((0, 0, 0), _native.BlockKind.solid)
    return world, ((0, 1, 0), (0, 1, 0))


_QUERY_KINDS = {
    _native.NavMesh: _QueryKind("mesh", "(x, y, z) points", _mesh_query, _mesh_probe),
    _native.VoxelWorld: _QueryKind("voxel", "(x, y, z) blocks", _voxel_query, _voxel_probe),
}


def _answer_requests(kind, world, requests, algorithm_name, options):
    """The results of `requests` on one query object, in order; a request that cannot be run gets
    a RequestFailure."""
    query = kind.make_query(world, algorithm_name, options)
    if algorithm_name is not None:
        options = dict(options, algorithm=getattr(_native.VoxelAlgorithm, algorithm_name))
    results = []
    for request in requests:
        try:
            start, goal = request
            results.append(query.find_path(start, goal, **options))
        except (TypeError, ValueError) as error:
            results.append(RequestFailure(request, f"not a request ({kind.ends}): {error}"))
    return results


def _solve_query_chunk(world, requests, kind_name, algorithm_name, options, threads):
    """One task on a mesh or voxel world: the chunk's results in its order, on `threads` query
    objects, each answering a contiguous slice (the searches release the GIL)."""
    kind = next(kind for kind in _QUERY_KINDS.values() if kind.name == kind_name)
    options = _options_received(options)
    if threads <= 1 or len(requests) < 2:
        return _answer_requests(kind, world, requests, algorithm_name, options)
    step = -(-len(requests) // threads)
    slices = [requests[i:i + step] for i in range(0, len(requests), step)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(slices)) as pool:
        parts = pool.map(lambda part: _answer_requests(kind, world, part, algorithm_name, options), slices)
        return [result for part in parts for result in part]


def _check_query_options(kind, algorithm_name, options):
    """Raises here, before anything is sent, for options every request would refuse (an unknown
    keyword, a value of the wrong type), or that do not pickle."""
    if options.get("trace"):
        raise ValueError("batches do not record traces; use the query object's find_path(trace=True)")
    sent = _options_to_send(options)
    try:
        pickle.dumps(sent)
    except (TypeError, pickle.PicklingError) as error:
        raise TypeError(f"the options travel to the workers, so they must pickle: {error}") from None
    world, (start, goal) = kind.probe()
    query = kind.make_query(world, None, options)
    if algorithm_name is not None:
        options = dict(options, algorithm=getattr(_native.VoxelAlgorithm, algorithm_name))
    query.find_path(start, goal, **options)
    return sent


def _submit_chunks(client, world, requests, chunk_size, progress, name, task, *arguments):
    """Scatters the world to every worker, submits one pure task per chunk of requests,
    task(world, chunk, *arguments), and returns the results in request order."""
    world_future = client.scatter(world, broadcast=True, hash=False)
    batch = uuid.uuid4().hex
    chunks = [requests[i:i + chunk_size] for i in range(0, len(requests), chunk_size)]
    futures = [
        client.submit(task, world_future, chunk, *arguments, pure=True, key=f"wayfinder-{name}-{batch}-{i}")
        for i, chunk in enumerate(chunks)
    ]
    try:
        results = _run(client, futures, [len(chunk) for chunk in chunks], progress)
    finally:
        client.cancel(futures + [world_future])
    return [result for chunk in results for result in chunk]


def solve_batch(client, world, requests, algorithm=None, chunk_size=1000, progress=None, threads_per_task=1,
                **options):
    """Answers `requests` ((start, goal) pairs) on `world` on the Dask cluster of `client`, in
    request order; a request that is not a pair of ends gets a RequestFailure in place of raising.

    world: a GridMap (requests of (x, y) cells), a NavMesh ((x, y, z) points) or a VoxelWorld
    ((x, y, z) blocks). The results are what the module gives on one machine:
    wayfinder.solve_batch(world, requests, algorithm=..., **options) on a grid,
    NavMeshQuery(world).find_path(start, goal, **options) on a mesh and
    VoxelQuery(world).find_path(start, goal, algorithm=..., **options) in a voxel world, for each
    request.

    algorithm: on a grid a GridAlgorithm or its name (default astar); in a voxel world a
    VoxelAlgorithm or its name (default astar; hierarchical builds the agent's VoxelHierarchy once
    per task); meshes take none (their corridor is options' nodes=). chunk_size: requests per task
    (a task costs the scheduler about a millisecond: keep chunks well above that in search time).
    progress: called on this thread as progress(done, total) in requests, as chunks finish.
    threads_per_task: the threads each task searches on (1 suits workers with one thread per
    core). options: the other keywords of those calls (a grid's diagonal, heuristic, weight; a
    mesh's nodes, weight, height_tolerance, snap_distance; a voxel agent's profile, weight; and
    filter, max_expansions, max_cost, max_time, return_partial, partial_when_unreachable), checked
    here before anything is sent. An AreaFilter (filter=) and a MovementProfile (profile=) travel
    as their values. Raises DaskUnavailableError without Dask.
    """
    _require_dask("solve_batch")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    kind = _QUERY_KINDS.get(type(world))
    if kind is None and not isinstance(world, _native.GridMap):
        raise TypeError("solve_batch on a cluster takes a GridMap, a NavMesh or a VoxelWorld, "
                        f"not {type(world).__name__}")
    if kind is None:
        grid_algorithm = _algorithm_of(_native.GridAlgorithm.astar if algorithm is None else algorithm)
        sent = _options_to_send(options)
        _check_options(grid_algorithm, sent)
        requests = list(requests)
        if not requests:
            return []
        return _submit_chunks(client, world, requests, chunk_size, progress, "solve", _solve_chunk,
                              grid_algorithm.name, sent, threads_per_task)
    if kind.name == "mesh":
        if algorithm is not None:
            raise TypeError("mesh batches take no algorithm: choose the corridor with nodes=CorridorNodes....")
        algorithm_name = None
    else:
        algorithm_name = _voxel_algorithm_of(algorithm).name
    sent = _check_query_options(kind, algorithm_name, options)
    requests = list(requests)
    if not requests:
        return []
    return _submit_chunks(client, world, requests, chunk_size, progress, f"solve-{kind.name}", _solve_query_chunk,
                          kind.name, algorithm_name, sent, threads_per_task)


def cell_ranges(grid, ranges):
    """[first, last) ranges of cell ids (y * width + x) covering `grid`: `ranges` of them of
    about equal size when it is a number, or `ranges` itself (a list of pairs)."""
    cells = grid.width * grid.height
    if isinstance(ranges, int):
        if ranges < 1:
            raise ValueError(f"ranges must be at least 1, got {ranges}")
        cuts = [cells * i // ranges for i in range(ranges + 1)]
        return [(cuts[i], cuts[i + 1]) for i in range(ranges) if cuts[i] < cuts[i + 1]] or [(0, cells)]
    return [(int(first), int(last)) for first, last in ranges]


def _check_cover(pairs, cells):
    """Raises ValueError, before any task runs, unless the ranges cover the cells once each (the
    merge checks the parts again, with the same words)."""
    covered = 0
    for first, last in sorted(pair for pair in pairs if pair[0] != pair[1]):
        if not 0 <= first <= last <= cells:
            raise ValueError(f"the cells [{first}, {last}) are not a range of this map's {cells} cells")
        if first < covered:
            raise ValueError(f"the ranges overlap (the cells [{first}, {min(covered, last)}) are in two)")
        if first > covered:
            raise ValueError(f"the cells [{covered}, {first}) are in no range")
        covered = last
    if covered < cells:
        raise ValueError(f"the cells [{covered}, {cells}) are in no range (the map has {cells} cells)")


def _build_part(grid, first, last, threads):
    """One task: the goal bounds of the cells [first, last)."""
    return _native.GridGoalBoundsPart(grid, first, last, threads=threads)


def build_goal_bounds(client, grid, ranges=None, path=None, progress=None, threads_per_task=1):
    """Builds the goal bounds of `grid` (a GridMap) on the Dask cluster of `client`, one task per
    range of cells, and merges the parts here: the result is equal to wayfinder.GridGoalBounds(grid)
    (its to_bytes() and file are byte for byte the same). Returns the GridGoalBounds, also saved to
    `path` when given.

    ranges: how many ranges of about equal cell count (default: four per worker), or a list of
    (first, last) pairs, which must cover the cells once (the merge raises ValueError naming the
    cells missing or overlapping). progress: progress(done, total) in ranges. Raises
    DaskUnavailableError without Dask.
    """
    _require_dask("build_goal_bounds")
    if not isinstance(grid, _native.GridMap):
        raise TypeError(f"build_goal_bounds takes a GridMap, not {type(grid).__name__}")
    if ranges is None:
        ranges = 4 * max(1, len(client.scheduler_info()["workers"]))
    pairs = cell_ranges(grid, ranges)
    _check_cover(pairs, grid.width * grid.height)
    grid_future = client.scatter(grid, broadcast=True, hash=False)
    batch = uuid.uuid4().hex
    futures = [
        client.submit(_build_part, grid_future, first, last, threads_per_task, pure=True,
                      key=f"wayfinder-goal-bounds-{batch}-{i}")
        for i, (first, last) in enumerate(pairs)
    ]
    try:
        parts = _run(client, futures, [1] * len(futures), progress)
    finally:
        client.cancel(futures + [grid_future])
    bounds = _native.GridGoalBounds.merge(parts, grid)
    if path is not None:
        bounds.save(str(path))
    return bounds
