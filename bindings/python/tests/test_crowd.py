"""Crowds from Python: a circle swap on an open floor (everyone arrives, no two agents overlap, no
one leaves the mesh), the same positions on any number of threads on the RecastDemo dungeon,
the reads as numpy arrays (lists without numpy) and bad input refused by name."""

import csv
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import wayfinder as wf


def open_floor(half, cell=2.0):
    """A square floor [-half, half]^2 (y = 0) of cell x cell squares, as OBJ text."""
    cells = int(math.ceil(2 * half / cell))
    lines, faces = [], []
    for j in range(cells + 1):
        for i in range(cells + 1):
            lines.append(f"v {-half + i * cell} 0 {-half + j * cell}")
    for j in range(cells):
        for i in range(cells):
            a = j * (cells + 1) + i + 1
            faces.append(f"f {a} {a + cells + 1} {a + cells + 2} {a + 1}")
    return wf.NavMesh.build(wf.parse_obj_mesh("\n".join(lines + faces) + "\n", "floor"))


def test_a_circle_swap_arrives_without_overlaps():
    mesh = open_floor(8.0)
    crowd = wf.Crowd(mesh)
    count, circle, radius = 12, 5.0, 0.5
    goals = {}
    for k in range(count):
        angle = 2 * math.pi * k / count
        start = (circle * math.cos(angle), 0.0, circle * math.sin(angle))
        agent = crowd.add_agent(start, wf.CrowdAgentSettings(radius=radius, max_speed=3.5))
        crowd.set_target(agent, (-start[0], 0.0, -start[2]))
        goals[agent] = (-start[0], -start[2])
    assert len(crowd) == count and list(crowd.ids()) == sorted(goals)
    worst_penetration = 0.0
    for _ in range(400):
        crowd.update(0.05)
        positions = crowd.positions()
        assert positions.shape == (count, 3) and positions.dtype == np.float64
        assert all(mesh.locate(tuple(p)) is not None for p in positions)  # never off the mesh
        planar = positions[:, [0, 2]]
        gaps = np.linalg.norm(planar[:, None, :] - planar[None, :, :], axis=2) + np.eye(count) * 1e9
        worst_penetration = max(worst_penetration, (2 * radius - gaps.min()) / radius)
        if (crowd.states() == int(wf.CrowdAgentStatus.arrived)).all():
            break
    for _ in range(30):  # time to come to rest (at most max_speed / max_acceleration, under half a second)
        crowd.update(0.05)
    states = crowd.states()
    assert states.dtype == np.uint8 and (states == int(wf.CrowdAgentStatus.arrived)).all(), states
    assert worst_penetration <= 0.01  # as the crowd's own scenarios count an overlap: 1 % of a radius
    for agent, (x, z) in goals.items():
        state = crowd.agent(agent)
        assert math.hypot(state.position[0] - x, state.position[2] - z) <= state.settings.arrival_radius + 1e-9
        assert state.status == wf.CrowdAgentStatus.arrived and state.velocity == (0.0, 0.0)
    assert crowd.velocities().shape == (count, 2) and crowd.time == pytest.approx(0.05 * round(crowd.time / 0.05))


def test_an_agent_crosses_an_off_mesh_link_between_floors():
    # Two floors that do not touch (y = 0 and y = 3) joined by a ladder: the crossing is a timed
    # move with a progress from 0 to 1, and the agent arrives upstairs.
    obj = ("v 0 0 0\nv 0 0 2\nv 4 0 2\nv 4 0 0\nv 6 3 0\nv 6 3 2\nv 10 3 2\nv 10 3 0\n"
           "f 1 2 3 4\nf 5 6 7 8\n")
    mesh = wf.NavMesh.build(wf.parse_obj_mesh(obj, "two floors"))
    mesh.add_off_mesh_link(wf.OffMeshLink((3.8, 0.0, 1.0), (6.2, 3.0, 1.0), radius=0.5))
    settings = wf.CrowdSettings(min_agents_per_thread=1)
    assert settings.min_agents_per_thread == 1 and wf.CrowdSettings().min_agents_per_thread == 256
    with pytest.raises(ValueError, match="min_agents_per_thread"):
        wf.CrowdSettings(min_agents_per_thread=0)
    crowd = wf.Crowd(mesh, settings)
    agent = crowd.add_agent((0.5, 0.0, 1.0), wf.CrowdAgentSettings(radius=0.3, max_speed=1.5))
    crowd.set_target(agent, (9.5, 3.0, 1.0))
    events, progress = [], []
    for _ in range(200):
        crowd.update(0.1)
        state = crowd.agent(agent)
        if state.link_event != wf.CrowdLinkEvent.none:
            events.append(state.link_event)
        if state.link is not None:
            assert state.status == wf.CrowdAgentStatus.on_link
            assert state.link.link == 0 and not state.link.reverse
            progress.append(state.link.progress)
    assert events == [wf.CrowdLinkEvent.started, wf.CrowdLinkEvent.finished]
    assert progress[0] == 0.0 and progress == sorted(progress) and progress[-1] <= 1.0
    state = crowd.agent(agent)
    assert state.status == wf.CrowdAgentStatus.arrived and state.link is None
    assert state.position[1] == pytest.approx(3.0)


def dungeon_run(mesh, queries, threads):
    crowd = wf.Crowd(mesh, wf.CrowdSettings(threads=threads))
    for start, goal in queries:
        crowd.set_target(crowd.add_agent(start, wf.CrowdAgentSettings(radius=0.4)), goal)
    reports = [crowd.update(0.1) for _ in range(60)]
    return crowd.positions(), crowd.velocities(), crowd.states(), sum(r.paths_received for r in reports)


def test_the_same_positions_on_one_two_and_four_threads(data_file):
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(data_file("meshes/derived/dungeon_navmesh.obj"))))
    queries = []
    with open(data_file("meshes/derived/dungeon_reference_queries.csv"), newline="") as rows:
        for row in csv.DictReader(rows):
            if row["reachable"] == "1" and len(queries) < 80:
                queries.append(((float(row["sx"]), float(row["sy"]), float(row["sz"])),
                                (float(row["ex"]), float(row["ey"]), float(row["ez"]))))
    one = dungeon_run(mesh, queries, 1)
    assert one[3] >= len(queries)  # every agent got its path (some, a new one after a push)
    assert (one[2] != int(wf.CrowdAgentStatus.idle)).all()
    for threads in (2, 4):
        other = dungeon_run(mesh, queries, threads)
        for a, b in zip(one[:3], other[:3]):
            assert np.array_equal(a, b)  # bit for bit


def test_bad_input_is_refused_by_name():
    mesh = open_floor(4.0)
    with pytest.raises(ValueError, match="threads"):
        wf.CrowdSettings(threads=0)
    with pytest.raises(ValueError, match="time_horizon"):
        wf.CrowdSettings(time_horizon=-1)
    settings = wf.CrowdSettings()
    settings.neighbour_distance = float("nan")
    with pytest.raises(ValueError, match="neighbour_distance"):
        wf.Crowd(mesh, settings)
    with pytest.raises(ValueError, match="radius"):
        wf.CrowdAgentSettings(radius=0)
    crowd = wf.Crowd(mesh)
    with pytest.raises(ValueError):
        crowd.add_agent((100.0, 0.0, 100.0))  # no mesh near
    with pytest.raises(ValueError, match="finite"):
        crowd.add_agent((float("nan"), 0.0, 0.0))
    agent = crowd.add_agent((0.0, 0.0, 0.0))
    with pytest.raises(ValueError):
        crowd.set_target(agent, (100.0, 0.0, 100.0))
    for call in (lambda: crowd.set_target(agent + 1, (1.0, 0.0, 1.0)), lambda: crowd.remove_agent(agent + 1),
                 lambda: crowd.agent(agent + 1), lambda: crowd.teleport(agent + 1, (0.0, 0.0, 0.0))):
        with pytest.raises(KeyError):
            call()
    for dt in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="dt"):
            crowd.update(dt)
    crowd.set_target_velocity(agent, (1.0, 0.0))
    crowd.update(0.1)
    assert crowd.agent(agent).target_kind == wf.CrowdTargetKind.velocity and crowd.agent(agent).velocity[0] > 0
    crowd.settings.threads = 0  # a copy: the crowd's own settings stay as they were checked
    assert crowd.settings.threads == 1
    crowd.remove_agent(agent)
    assert len(crowd) == 0 and crowd.positions().shape == (0, 3) and crowd.ids().shape == (0,)


def test_crowd_reads_are_lists_without_numpy():
    script = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None
        import wayfinder as wf
        mesh = wf.NavMesh.build(wf.parse_obj_mesh("v -5 0 -5\\nv 5 0 -5\\nv 5 0 5\\nv -5 0 5\\nf 1 4 3 2\\n", "floor"))
        crowd = wf.Crowd(mesh)
        a = crowd.add_agent((-3.0, 0.0, 0.0))
        crowd.set_target(a, (3.0, 0.0, 0.0))
        for _ in range(50):
            crowd.update(0.1)
        assert crowd.ids() == [a] and crowd.states() == [int(wf.CrowdAgentStatus.arrived)]
        assert isinstance(crowd.positions(), list) and crowd.positions()[0][0] > 2.8
        assert crowd.velocities() == [(0.0, 0.0)]
        print("crowd without numpy")
    """)
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ.copy(),
                              timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "crowd without numpy"


def test_a_crowd_on_a_grid_crosses_a_door_both_ways():
    grid = wf.GridMap(16, 8)
    for row in (0, 1, 2, 5, 6, 7):
        grid.set_passable((8, row), False)
    for jump_point in (False, True):
        crowd = wf.Crowd(grid, jump_point=jump_point)
        body = wf.CrowdAgentSettings(radius=0.4, max_speed=1.5)
        trips = [((2.5, 0.0, 1.5), (13.5, 0.0, 6.5)), ((2.5, 0.0, 4.5), (13.5, 0.0, 4.5)),
                 ((13.5, 0.0, 1.5), (2.5, 0.0, 6.5)), ((13.5, 0.0, 3.5), (2.5, 0.0, 3.5))]
        ids = []
        for start, goal in trips:
            ids.append(crowd.add_agent(start, body))
            crowd.set_target(ids[-1], goal)
        for _ in range(600):
            crowd.update(0.1)
            for x, _, z in crowd.positions().tolist():
                assert grid.passable((int(math.floor(x)), int(math.floor(z))))
            if all(crowd.agent(i).status == wf.CrowdAgentStatus.arrived for i in ids):
                break
        assert all(crowd.agent(i).status == wf.CrowdAgentStatus.arrived for i in ids)
        for i, (_, goal) in zip(ids, trips):
            x, _, z = crowd.agent(i).position
            assert abs(x - goal[0]) < 0.2 and abs(z - goal[2]) < 0.2


def doorway_grid():
    """24 x 12 cells walled at column 12 but for a door at rows 5 and 6."""
    grid = wf.GridMap(24, 12)
    for row in range(12):
        if row not in (5, 6):
            grid.set_passable((12, row), False)
    return grid


def test_many_agents_share_one_flow_target_and_arrive_without_path_searches():
    grid = doorway_grid()
    crowd = wf.Crowd(grid)
    body = wf.CrowdAgentSettings(radius=0.4, max_speed=1.5)
    ids = [crowd.add_agent((2.5 + (k // 5) * 2.0, 0.0, 1.5 + (k % 5) * 2.0), body) for k in range(10)]
    goals = [(x, y) for y in range(12) for x in range(20, 23)]
    field = crowd.set_flow_target(ids, goals)
    assert isinstance(field, wf.CrowdFlowField)
    assert field.goals == goals and (field.width, field.height) == (24, 12)
    assert field.cost_to_goal(21, 3) == 0.0 and field.cost_to_goal(12, 0) == math.inf
    for i in ids:
        assert crowd.agent(i).target_kind == wf.CrowdTargetKind.flow
    for _ in range(1500):
        report = crowd.update(0.1)
        assert report.paths_started == 0
        for x, _, z in crowd.positions().tolist():
            assert grid.passable((int(math.floor(x)), int(math.floor(z))))
        if all(crowd.agent(i).status == wf.CrowdAgentStatus.arrived for i in ids):
            break
    assert all(crowd.agent(i).status == wf.CrowdAgentStatus.arrived for i in ids)
    for i in ids:
        agent = crowd.agent(i)
        assert agent.path_requests == 0
        assert 20.0 <= agent.position[0] < 23.0
    # The field made once sends a late agent too, by itself.
    late = crowd.add_agent((1.5, 0.0, 10.5), body)
    crowd.set_flow_target(late, field)
    assert crowd.agent(late).target_kind == wf.CrowdTargetKind.flow
    # The centre of the goal cell nearest it: through the door, on column 20.
    assert crowd.agent(late).target in ((20.5, 0.0, 5.5), (20.5, 0.0, 6.5))


def test_bad_flow_targets_are_refused_and_change_nothing():
    grid = doorway_grid()
    grid.set_passable((1, 0), False)
    grid.set_passable((1, 1), False)
    grid.set_passable((0, 1), False)  # cell (0, 0) walled in
    crowd = wf.Crowd(grid)
    free = crowd.add_agent((5.5, 0.0, 5.5))
    shut_in = crowd.add_agent((0.5, 0.0, 0.5))
    with pytest.raises(ValueError, match="outside"):
        crowd.set_flow_target(free, [(24, 3)])
    with pytest.raises(ValueError, match="blocked"):
        crowd.set_flow_target(free, [(12, 0)])
    with pytest.raises(ValueError, match="at least one goal"):
        crowd.set_flow_target(free, [])
    with pytest.raises(TypeError):
        crowd.set_flow_target(free, [(float("nan"), 3.0)])
    with pytest.raises(KeyError):
        crowd.set_flow_target([free, 999], [(22, 6)])
    with pytest.raises(ValueError, match="no goal of the flow field can be reached"):
        crowd.set_flow_target([free, shut_in], [(22, 6)])
    assert crowd.agent(free).target_kind == wf.CrowdTargetKind.none  # nothing changed
    small = wf.Crowd(wf.GridMap(5, 5))
    other = small.set_flow_target(small.add_agent((1.5, 0.0, 1.5)), [(3, 3)])
    with pytest.raises(ValueError, match="another size"):
        crowd.set_flow_target(free, other)
    mesh_crowd = wf.Crowd(open_floor(5.0))
    with pytest.raises(ValueError, match="navigation mesh"):
        mesh_crowd.set_flow_target(mesh_crowd.add_agent((0.0, 0.0, 0.0)), [(1, 1)])
    with pytest.raises(ValueError, match="navigation mesh"):
        mesh_crowd.set_flow_target(0, other)
