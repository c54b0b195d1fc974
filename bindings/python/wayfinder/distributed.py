"""Batches of grid queries, and goal bounds built in ranges of cells, on a Dask cluster.

    from distributed import Client
    import wayfinder, wayfinder.distributed as wd

    client = Client("tcp://scheduler:8786")  # or Client(LocalCluster(...))
    grid = wayfinder.read_movingai_map("arena2.map")
    results = wd.solve_batch(client, grid, [((1, 1), (200, 180)), ...], algorithm="jump_point")
    bounds = wd.build_goal_bounds(client, grid, ranges=8, path="arena2.bounds")

The world is sent once to every worker (client.scatter with broadcast); the requests travel in
chunks, each chunk one Dask task that runs the module's own solve_batch on its worker, so the
results are those of wayfinder.solve_batch, in request order. The tasks are pure (their results
depend on their arguments only): when a worker dies, the scheduler runs its chunks again on the
others. A request that cannot be run at all (not a pair of cells) gets a RequestFailure, whose
message says why, in its place; a request with cells off the map or blocked gets the usual
invalid_input result; neither fails the batch. docs/python.md, "Batches on a Dask cluster".

Dask is optional: this module imports without it, and its cluster functions then raise
DaskUnavailableError (an ImportError) saying what to install.
"""

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
    """The result of a request that could not be run at all (not a pair of (x, y) cells): it reads
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


def _algorithm_of(algorithm):
    """A GridAlgorithm from itself or its name ("astar", "jump_point_plus", ...)."""
    if isinstance(algorithm, _native.GridAlgorithm):
        return algorithm
    try:
        return getattr(_native.GridAlgorithm, algorithm)
    except (AttributeError, TypeError):
        names = ", ".join(_native.GridAlgorithm.__members__)
        raise ValueError(f"unknown grid algorithm {algorithm!r} (one of: {names})") from None


def _solve_chunk(world, requests, algorithm_name, options, threads):
    """One task: the chunk's results, in its order, as wayfinder.solve_batch gives them. A chunk
    with a malformed request is answered request by request, so only that one fails."""
    algorithm = getattr(_native.GridAlgorithm, algorithm_name)
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


def _check_options(algorithm, options):
    """Raises here, before anything is sent, for options that every request would refuse."""
    try:
        pickle.dumps(options)
    except (TypeError, pickle.PicklingError) as error:
        raise TypeError(f"the options travel to the workers, so they must pickle: {error}") from None
    probe = _native.GridMap(1, 1)
    derived = _native.build_grid_derived_data(probe, algorithm=algorithm)
    _native.solve_batch(probe, [((0, 0), (0, 0))], 1, algorithm=algorithm, derived=derived, **options)


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


def solve_batch(client, world, requests, algorithm=_native.GridAlgorithm.astar, chunk_size=1000, progress=None,
                threads_per_task=1, **options):
    """Answers `requests` ((start, goal) pairs of cells) on `world` (a GridMap) on the Dask
    cluster of `client`; returns what wayfinder.solve_batch(world, requests, algorithm=...,
    **options) returns, in request order, except that a request that is not a pair of cells gets
    a RequestFailure in place of raising.

    algorithm: a GridAlgorithm or its name. chunk_size: requests per task (a task costs the
    scheduler about a millisecond: keep chunks well above that in search time). progress: called
    on this thread as progress(done, total) in requests, as chunks finish. threads_per_task: the
    threads each task searches on (1 suits workers with one thread per core). options: the other
    keywords of wayfinder.solve_batch (diagonal, heuristic, weight, max_expansions, ...), checked
    here before anything is sent. Raises DaskUnavailableError without Dask.
    """
    _require_dask("solve_batch")
    if not isinstance(world, _native.GridMap):
        raise TypeError(f"solve_batch on a cluster takes a GridMap, not {type(world).__name__}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    algorithm = _algorithm_of(algorithm)
    _check_options(algorithm, options)
    requests = list(requests)
    if not requests:
        return []
    world_future = client.scatter(world, broadcast=True, hash=False)
    batch = uuid.uuid4().hex
    chunks = [requests[i:i + chunk_size] for i in range(0, len(requests), chunk_size)]
    futures = [
        client.submit(_solve_chunk, world_future, chunk, algorithm.name, options, threads_per_task, pure=True,
                      key=f"wayfinder-solve-{batch}-{i}")
        for i, chunk in enumerate(chunks)
    ]
    try:
        results = _run(client, futures, [len(chunk) for chunk in chunks], progress)
    finally:
        client.cancel(futures + [world_future])
    return [result for chunk in results for result in chunk]


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
