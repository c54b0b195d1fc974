"""Off-mesh links, exact shortest paths (nodes=CorridorNodes.optimal) and stepped mesh and voxel
queries from Python, on the benchmark data where it has answers."""

import csv
import math

import pytest

import wayfinder as wf

# Two 10 x 10 floors that share no edge: the upper one, 4 above, over x in [20, 30].
TWO_FLOORS = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 20 4 0\nv 30 4 0\nv 30 4 10\nv 20 4 10\nf 1 4 3 2\nf 5 8 7 6\n"


def two_floors():
    return wf.NavMesh.build(wf.parse_obj_mesh(TWO_FLOORS, "two floors"))


def test_a_one_way_link_joins_two_floors_one_way():
    mesh = two_floors()
    query = wf.NavMeshQuery(mesh)
    assert query.find_path((1, 0, 5), (29, 4, 5)).status == wf.SearchStatus.no_path
    link = wf.OffMeshLink((21, 4, 5), (9, 0, 5), bidirectional=False, cost=2.0, area=3, flags=4, user_id=17)
    assert mesh.add_off_mesh_link(link) == 0 and mesh.off_mesh_link_count == 1 and mesh.revision == 1
    placed = mesh.off_mesh_link(0)
    assert placed.start_polygon == 1 and placed.end_polygon == 0 and placed.link.user_id == 17
    # A cost below the link's length is raised to it.
    assert placed.cost == pytest.approx(math.hypot(12, 4))
    down = query.find_path((29, 4, 5), (1, 0, 5))
    assert down.found and len(down.links) == 1
    step = down.links[0]
    assert step.link == 0 and not step.reverse
    assert down.path[step.waypoint] == pytest.approx((21, 4, 5)) and down.path[step.waypoint + 1] == pytest.approx((9, 0, 5))
    assert down.cost == pytest.approx(8 + math.hypot(12, 4) + 8)
    assert query.find_path((1, 0, 5), (29, 4, 5)).status == wf.SearchStatus.no_path  # one way only
    # A filter that excludes the link's flags keeps it out of the search.
    no_jumps = wf.AreaFilter()
    no_jumps.exclude_flags = 4
    assert not query.find_path((29, 4, 5), (1, 0, 5), filter=no_jumps).found
    with pytest.raises(IndexError):
        mesh.off_mesh_link(1)
    with pytest.raises(ValueError):
        mesh.add_off_mesh_link(wf.OffMeshLink((50, 0, 50), (1, 0, 1)))  # no mesh near its start
    assert mesh.off_mesh_link_count == 1


def test_a_links_file_is_read_as_the_command_reads_it(tmp_path):
    path = tmp_path / "ladder.links"
    path.write_text("# a ladder up to the other floor\n9 0 5   21 4 5   both radius=0.5 id=3\n")
    links = wf.read_off_mesh_links(str(path))
    assert len(links) == 1 and links[0].bidirectional and links[0].user_id == 3 and links[0].line == 2
    assert links[0].start == (9.0, 0.0, 5.0) and links[0].radius == 0.5 and links[0].cost is None
    mesh = two_floors()
    for link in links:
        mesh.add_off_mesh_link(link)
    query = wf.NavMeshQuery(mesh)
    up, down = query.find_path((1, 0, 5), (29, 4, 5)), query.find_path((29, 4, 5), (1, 0, 5))
    assert up.found and not up.links[0].reverse and down.found and down.links[0].reverse
    # The links stay with the mesh through pickling (the baked file keeps them).
    import pickle
    assert pickle.loads(pickle.dumps(mesh)).off_mesh_link_count == 1
    with pytest.raises(wf.LoadError) as error:
        wf.parse_off_mesh_links("1 2 3 4 5 6\n1 2 3 4 5 sideways\n", "bad.links")
    assert error.value.file == "bad.links" and error.value.line == 2


def test_exact_paths_have_the_optimal_lengths(data_file):
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(data_file("meshes/derived/dungeon_navmesh.obj"))))
    query = wf.NavMeshQuery(mesh)
    checked = 0
    with open(data_file("meshes/derived/dungeon_reference_queries.csv"), newline="") as rows:
        for row in list(csv.DictReader(rows))[::10]:
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            result = query.find_path(start, goal, nodes=wf.CorridorNodes.optimal)
            assert result.found == (row["reachable"] == "1"), (row["id"], result.message)
            if not result.found or not row["optimal_len2d"]:
                continue
            optimum = float(row["optimal_len2d"])
            assert abs(result.cost - optimum) / max(optimum, 1.0) <= 1e-6, row["id"]
            # nodes: the polygons the path crosses, from the start's to the goal's.
            assert result.nodes[0] == mesh.locate(start)[0] and result.nodes[-1] == mesh.locate(goal)[0]
            walked = sum(math.hypot(b[0] - a[0], b[2] - a[2]) for a, b in zip(result.path, result.path[1:]))
            assert walked == pytest.approx(result.cost, rel=1e-9)
            # Never longer than the corridor search's path, which it is the optimum of.
            assert result.cost <= float(row["detour_len2d"]) * (1 + 1e-6) + 5e-7
            checked += 1
    assert checked > 500


def test_exact_paths_refuse_a_mesh_with_links():
    mesh = two_floors()
    mesh.add_off_mesh_link(wf.OffMeshLink((9, 0, 5), (21, 4, 5)))
    refused = wf.NavMeshQuery(mesh).find_path((1, 0, 5), (29, 4, 5), nodes=wf.CorridorNodes.optimal)
    assert refused.status == wf.SearchStatus.invalid_input and refused.message


@pytest.mark.parametrize("nodes", [wf.CorridorNodes.edge_points, wf.CorridorNodes.optimal])
def test_stepped_mesh_queries_end_as_whole_ones(data_file, nodes):
    mesh = wf.NavMesh.build(wf.read_obj_mesh(str(data_file("meshes/derived/dungeon_navmesh.obj"))))
    stepped, whole = wf.NavMeshQuery(mesh), wf.NavMeshQuery(mesh)
    most_steps = 0
    with open(data_file("meshes/derived/dungeon_reference_queries.csv"), newline="") as rows:
        for row in list(csv.DictReader(rows))[:200]:
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            status, steps = stepped.begin(start, goal, nodes=nodes), 0
            while status == wf.SearchStatus.in_progress:
                status, steps = stepped.step(2), steps + 1
            result, expected = stepped.result(), whole.find_path(start, goal, nodes=nodes)
            assert status == result.status == expected.status
            assert result.cost == expected.cost and result.nodes == expected.nodes and result.path == expected.path
            assert stepped.stats().expanded == expected.stats.expanded
            most_steps = max(most_steps, steps)
    assert most_steps > 5  # the searches were spread over steps


def test_stepped_voxel_queries_end_as_whole_ones(simple_voxel_benchmark):
    scenario, world = simple_voxel_benchmark
    stepped = wf.VoxelQuery(world, wf.MovementProfile.flyer())
    for query in wf.read_voxel_scenario(str(scenario), max_queries=30):
        status = stepped.begin(query.start, query.goal)
        steps = 0
        while status == wf.SearchStatus.in_progress:
            status, steps = stepped.step(50), steps + 1
        result = stepped.result()
        assert status == wf.SearchStatus.found and result.found
        assert result.cost == pytest.approx(query.optimal_length, abs=1e-6)
        assert result.path[0] == query.start and result.path[-1] == query.goal
        assert steps >= 1 and stepped.stats().expanded > 0
    # Before any begin, step says so rather than searching nothing.
    fresh = wf.VoxelQuery(world, wf.MovementProfile.flyer())
    assert fresh.step(10) == wf.SearchStatus.invalid_input
