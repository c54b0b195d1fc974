"""Grids from Python: maps from files and numpy, every algorithm, optimal lengths on a MovingAI
scenario, stepped searches, traces, edits, filters and bad input."""

import math

import numpy as np
import pytest

import wayfinder as wf

ALGORITHM_NAMES = ["bfs", "dijkstra", "astar", "weighted-astar", "greedy", "bidirectional", "ida", "jps", "jps-plus",
                   "crash-right", "crash-left", "crash-auto", "crash-four-way", "divide", "hpa"]

SMALL_MAP = "type octile\nheight 5\nwidth 7\nmap\n.......\n...@...\n...@...\n...@...\n.......\n"


def test_every_algorithm_name_and_enum_member():
    members = {wf.parse_grid_algorithm(name) for name in ALGORITHM_NAMES}
    assert members == set(wf.GridAlgorithm.__members__.values())
    with pytest.raises(ValueError, match="unknown grid algorithm"):
        wf.parse_grid_algorithm("teleport")


def test_every_algorithm_finds_a_path_on_a_small_map():
    grid = wf.parse_movingai_map(SMALL_MAP, "small")
    finder = wf.GridQuery(grid)
    derived = None
    for name in ALGORITHM_NAMES:  # what jps-plus and hpa read, built once
        derived = wf.build_grid_derived_data(grid, algorithm=wf.parse_grid_algorithm(name), derived=derived)
    finder.set_derived_data(derived)
    optimal = finder.find_path((1, 2), (5, 2), algorithm=wf.GridAlgorithm.dijkstra).cost
    for name in ALGORITHM_NAMES:
        result = finder.find_path((1, 2), (5, 2), algorithm=wf.parse_grid_algorithm(name))
        assert result.status == wf.SearchStatus.found, (name, result.message)
        assert result.path[0] == (1, 2) and result.path[-1] == (5, 2)
        assert result.path_array.dtype == np.int32 and result.path_array.shape == (len(result.path), 2)
        if name in ("dijkstra", "astar", "bidirectional", "ida", "jps"):
            assert result.cost == pytest.approx(optimal)
    assert optimal == pytest.approx(4 + 2 * math.sqrt(2))  # up, along the top row around the wall, down


def test_optimal_lengths_on_a_movingai_scenario(data_file):
    scenario = data_file("movingai/dao/arena2.map.scen")
    grid = wf.read_movingai_map(str(scenario)[: -len(".scen")])
    derived = wf.build_grid_derived_data(grid, algorithm=wf.GridAlgorithm.jump_point_plus)
    assert derived.has_jump_table and not derived.has_hierarchy
    finder = wf.GridQuery(grid, derived=derived)
    queries = wf.read_movingai_scenario(str(scenario), max_queries=300)
    assert len(queries) == 300
    for query in queries:
        for algorithm in (wf.GridAlgorithm.astar, wf.GridAlgorithm.jump_point, wf.GridAlgorithm.jump_point_plus):
            result = finder.find_path(query.start, query.goal, algorithm=algorithm)
            assert result.found, result.message
            # The scenario prints its lengths to 5 or 6 significant digits.
            assert result.cost == pytest.approx(query.optimal_length, rel=1e-5, abs=1e-4)


def test_numpy_costs_round_trip_and_terrain():
    costs = np.ones((6, 9), dtype=np.float32)
    costs[2, 1:8] = np.inf
    costs[4, :] = 3.0
    grid = wf.GridMap.from_costs(costs)
    assert (grid.width, grid.height) == (9, 6)
    assert not grid.passable((4, 2)) and grid.passable((0, 2))
    assert grid.cost((5, 4)) == 3.0
    np.testing.assert_array_equal(grid.to_costs(), costs)
    mask = np.zeros((6, 9), dtype=bool)
    mask[0, 0] = True
    assert not wf.GridMap.from_costs(np.ones((6, 9)), blocked=mask).passable((0, 0))
    walls_only = wf.GridMap.from_costs(blocked=mask)
    assert (walls_only.width, walls_only.height) == (9, 6)
    assert not walls_only.passable((0, 0)) and walls_only.passable((1, 0))
    assert walls_only.uniform_cost and walls_only.cost((1, 0)) == 1.0
    result = wf.GridQuery(grid).find_path((0, 0), (8, 5))
    assert result.found and result.cost > 0


def test_bad_input_raises_clear_errors_or_answers_invalid_input():
    with pytest.raises(ValueError, match="costs must be > 0"):
        wf.GridMap.from_costs(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="2-D"):
        wf.GridMap.from_costs(np.ones(5))
    with pytest.raises(ValueError, match="needs costs, blocked or both"):
        wf.GridMap.from_costs()
    with pytest.raises(ValueError, match="same shape"):
        wf.GridMap.from_costs(np.ones((3, 3)), blocked=np.zeros((3, 4), dtype=bool))
    with pytest.raises(wf.LoadError) as error:
        wf.parse_movingai_map("type octile\nheight x\n", "broken.map")
    assert error.value.file == "broken.map" and error.value.line == 2
    assert isinstance(error.value, ValueError)
    with pytest.raises(wf.LoadError):
        wf.read_movingai_map("/no/such/file.map")
    grid = wf.parse_movingai_map(SMALL_MAP)
    finder = wf.GridQuery(grid)
    outside = finder.find_path((1, 2), (70, 2))
    assert outside.status == wf.SearchStatus.invalid_input and "outside" in outside.message
    with pytest.raises(ValueError, match="max_cost"):
        finder.find_path((1, 2), (5, 2), max_cost=float("nan"))
    with pytest.raises(TypeError):
        finder.find_path((1, 2), (5, 2), algorithm="astar")
    with pytest.raises(ValueError):
        wf.AreaFilter().set_area_cost(64, 1.0)


def test_stepped_search_and_trace_equal_the_whole_query():
    grid = wf.GridMap(64, 64)
    grid.block_rect(wf.GridRect(10, 0, 2, 60))
    finder = wf.GridQuery(grid)
    whole = finder.find_path((0, 0), (63, 10), trace=True)
    assert whole.trace.shape[1] == 3 and whole.trace.shape[0] > whole.stats.expanded
    assert set(np.unique(whole.trace[:, 0])) <= {0.0, 1.0, 2.0}
    assert finder.begin((0, 0), (63, 10)) == wf.SearchStatus.in_progress
    while finder.step(50) == wf.SearchStatus.in_progress:
        pass
    stepped = finder.result()
    assert stepped.path == whole.path and stepped.cost == whole.cost
    assert finder.begin((0, 0), (63, 10)) == wf.SearchStatus.in_progress
    finder.step(5)
    grid.block((40, 40))
    assert finder.step(5) == wf.SearchStatus.world_changed


def test_edits_areas_and_filters():
    grid = wf.parse_movingai_map(SMALL_MAP)
    door = 1
    grid.unblock((3, 2))
    grid.set_flags((3, 2), door)
    assert grid.revision == 2
    finder = wf.GridQuery(grid)
    through = finder.find_path((1, 2), (5, 2))
    monster = finder.find_path((1, 2), (5, 2), filter=wf.AreaFilter().exclude_area(5).set_area_cost(0, 1.0))
    assert through.cost == pytest.approx(4.0) and monster.cost == pytest.approx(4.0)
    blocker = wf.AreaFilter()
    blocker.exclude_flags = door
    around = finder.find_path((1, 2), (5, 2), filter=blocker)
    assert around.found and (3, 2) not in around.path and around.cost > 4.0
    with_jps = finder.find_path((1, 2), (5, 2), filter=blocker, algorithm=wf.GridAlgorithm.jump_point)
    assert with_jps.status == wf.SearchStatus.invalid_input and "cannot use this filter" in with_jps.message
    grid.set_area_rect(wf.GridRect(0, 0, 7, 5), 2)
    pricey = finder.find_path((1, 2), (5, 2), filter=wf.AreaFilter().set_area_cost(2, 2.5))
    assert pricey.cost == pytest.approx(10.0)


def test_a_batch_shares_the_derived_data_it_is_given(data_file):
    scenario = data_file("movingai/dao/arena2.map.scen")
    grid = wf.read_movingai_map(str(scenario)[: -len(".scen")])
    pairs = [(query.start, query.goal) for query in wf.read_movingai_scenario(str(scenario), max_queries=40)]
    refused = wf.solve_batch(grid, pairs[:1], threads=1, algorithm=wf.GridAlgorithm.jump_point_plus)
    assert refused[0].status == wf.SearchStatus.invalid_input
    assert "jump table" in refused[0].message
    derived = wf.build_grid_derived_data(grid, algorithm=wf.GridAlgorithm.hierarchical)
    derived = wf.build_grid_derived_data(grid, algorithm=wf.GridAlgorithm.jump_point_plus, derived=derived)
    assert derived.has_jump_table and derived.has_hierarchy
    finder = wf.GridQuery(grid)
    finder.set_derived_data(derived)
    for algorithm in (wf.GridAlgorithm.jump_point_plus, wf.GridAlgorithm.hierarchical):
        batch = wf.solve_batch(grid, pairs, threads=2, algorithm=algorithm, derived=derived)
        for (start, goal), result in zip(pairs, batch):
            alone = finder.find_path(start, goal, algorithm=algorithm)
            assert result.found and result.status == alone.status
            assert result.cost == alone.cost and result.nodes == alone.nodes
