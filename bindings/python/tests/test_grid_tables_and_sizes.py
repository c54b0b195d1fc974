"""JPS+'s jump tables and goal bounds (build, save, load, search with them) and agents larger
than one cell, from Python, against the MovingAI scenario's optimal lengths."""

import pytest

import wayfinder as wf


def read_scenario(data_file, name):
    scenario = data_file(f"movingai/{name}.map.scen")
    grid = wf.read_movingai_map(str(scenario)[: -len(".scen")])
    return grid, wf.read_movingai_scenario(str(scenario), max_queries=300)


@pytest.fixture
def arena(data_file):
    return read_scenario(data_file, "dao/arena2")


def test_saved_jump_tables_and_goal_bounds_answer_optimally(data_file, tmp_path):
    # Goal bounds take time quadratic in the passable cells: a small real map (7461 cells).
    grid, queries = read_scenario(data_file, "da2/ht_chantry")
    table, bounds = wf.GridJumpTable(grid), wf.GridGoalBounds(grid, threads=2)
    assert (table.width, table.height) == (grid.width, grid.height) and table.mismatch(grid) is None
    assert bounds.build_threads == 2 and bounds.memory_bytes > 0
    table.save(str(tmp_path / "map.jump"))
    bounds.save(str(tmp_path / "map.bounds"))
    loaded_table = wf.GridJumpTable.load(str(tmp_path / "map.jump"), grid)
    loaded_bounds = wf.GridGoalBounds.load(str(tmp_path / "map.bounds"), grid)
    assert loaded_table.build_seconds == 0 and loaded_table.revision == grid.revision

    plain = wf.GridQuery(grid)
    plain.set_jump_table(loaded_table)
    pruned = wf.GridQuery(grid)
    pruned.set_jump_table(loaded_table)
    pruned.set_goal_bounds(loaded_bounds)
    derived = wf.GridDerivedData()
    derived.jump_table, derived.goal_bounds = loaded_table, loaded_bounds
    batch = wf.solve_batch(grid, [(q.start, q.goal) for q in queries], threads=2,
                           algorithm=wf.GridAlgorithm.jump_point_plus, derived=derived)
    fewer = 0
    for query, batched in zip(queries, batch):
        full = plain.find_path(query.start, query.goal, algorithm=wf.GridAlgorithm.jump_point_plus)
        bounded = pruned.find_path(query.start, query.goal, algorithm=wf.GridAlgorithm.jump_point_plus)
        for result in (full, bounded, batched):
            assert result.found, result.message
            assert result.cost == pytest.approx(query.optimal_length, rel=1e-5, abs=1e-4)
        assert bounded.stats.generated <= full.stats.generated
        fewer += bounded.stats.generated < full.stats.generated
    assert fewer > len(queries) // 2  # the bounds pruned most searches


def test_tables_of_another_map_version_are_refused(arena, tmp_path):
    grid, queries = arena
    table = wf.GridJumpTable(grid)
    table.save(str(tmp_path / "map.jump"))
    (tmp_path / "cut.jump").write_bytes((tmp_path / "map.jump").read_bytes()[:100])
    with pytest.raises(wf.LoadError, match="cut.jump"):
        wf.GridJumpTable.load(str(tmp_path / "cut.jump"), grid)
    with pytest.raises(wf.LoadError):
        wf.GridGoalBounds.load(str(tmp_path / "map.jump"), grid)  # a jump table is not goal bounds
    with pytest.raises(OSError):
        table.save(str(tmp_path / "no" / "such" / "folder.jump"))
    query = wf.GridQuery(grid)
    start = queries[0].start
    grid.set_passable(start, not grid.passable(start))  # the table is now stale
    assert "revision" in table.mismatch(grid)
    with pytest.raises(ValueError):
        query.set_jump_table(table)
    with pytest.raises(wf.LoadError):
        wf.GridJumpTable.load(str(tmp_path / "map.jump"), grid)  # saved for other walls


@pytest.mark.parametrize("algorithm", [wf.GridAlgorithm.astar, wf.GridAlgorithm.jump_point,
                                       wf.GridAlgorithm.jump_point_plus])
def test_two_by_two_agents(arena, algorithm):
    grid, queries = arena
    derived = wf.build_grid_derived_data(grid, algorithm=algorithm, agent_size=2)
    query = wf.GridQuery(grid, derived=derived)
    reference = wf.GridQuery(grid, derived=wf.build_grid_derived_data(grid, algorithm=wf.GridAlgorithm.astar,
                                                                      agent_size=2))
    found = 0
    for q in queries[:150]:
        big = query.find_path(q.start, q.goal, algorithm=algorithm, agent_size=2)
        small = query.find_path(q.start, q.goal, algorithm=wf.GridAlgorithm.astar)
        if not big.found:
            assert big.status in (wf.SearchStatus.invalid_input, wf.SearchStatus.no_path)
            continue
        found += 1
        # The same optimum whichever search; never shorter than a one-cell agent's.
        assert big.cost == pytest.approx(reference.find_path(q.start, q.goal, agent_size=2).cost, rel=1e-9)
        assert big.cost >= small.cost - 1e-9
        # Every cell of the body is passable at every top-left cell of the path.
        for x, y in big.path:
            assert all(grid.passable((x + dx, y + dy)) for dx in (0, 1) for dy in (0, 1))
    assert found > 100


def test_a_body_that_does_not_fit_is_refused():
    grid = wf.parse_movingai_map("type octile\nheight 3\nwidth 5\nmap\n.....\n..@..\n.....\n", "small")
    query = wf.GridQuery(grid)
    assert query.find_path((0, 0), (4, 0), agent_size=1).found
    # A larger agent reads the map's clearance from the derived data; without it, the query says so.
    missing = query.find_path((0, 0), (3, 1), agent_size=2)
    assert missing.status == wf.SearchStatus.invalid_input and "build_grid_derived_data" in missing.message
    query.set_derived_data(wf.build_grid_derived_data(grid, algorithm=wf.GridAlgorithm.astar, agent_size=2))
    refused = query.find_path((1, 0), (3, 1), agent_size=2)
    assert refused.status == wf.SearchStatus.invalid_input and "(2,1)" in refused.message
    stepped = query.begin((0, 0), (3, 1), agent_size=2)
    while stepped == wf.SearchStatus.in_progress:
        stepped = query.step(1)
    assert stepped == wf.SearchStatus.no_path or stepped == wf.SearchStatus.found
    assert query.find_path((0, 0), (3, 1), agent_size=0).status == wf.SearchStatus.invalid_input
