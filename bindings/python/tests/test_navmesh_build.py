"""Navigation meshes built from level geometry (Recast) from Python: the settings' checks, the
build and its report, and the RecastDemo dungeon built with the default settings answering the
10,000 reference queries of meshes/derived as tests/test_navmesh_build_reference.cpp checks
them: the file's reachability on every query and no found path shorter than the file's
optimal x-z length. A module built without the navmesh_build library runs only the test that
its build calls say so."""

import csv
import math

import pytest

import wayfinder as wf

with_build = pytest.mark.skipif(not wf.has_navmesh_build, reason="module built without navmesh_build (Recast)")

# A found path may be shorter than the file's optimum only by rounding (as the C++ test).
SHORTER_RELATIVE = 1e-6
FILE_ROUNDING = 5e-7


def length_xz(points):
    return sum(math.hypot(b[0] - a[0], b[2] - a[2]) for a, b in zip(points, points[1:]))


@with_build
def test_settings_are_checked_with_the_libraries_reasons():
    settings = wf.AgentSettings()
    assert settings.cell_size == pytest.approx(0.3) and settings.vertices_per_polygon == 6 and settings.tile_size == 0
    assert settings.problem() is None
    with pytest.raises(ValueError, match="cell_size"):
        wf.AgentSettings(cell_size=-1)
    with pytest.raises(ValueError, match="max_slope"):
        wf.AgentSettings(max_slope_degrees=120)
    with pytest.raises(ValueError, match="vertices_per_polygon"):
        wf.AgentSettings(vertices_per_polygon=2)
    settings.agent_radius = float("nan")
    assert "agent_radius" in settings.problem()
    with pytest.raises(ValueError, match="agent_radius"):
        wf.build_navmesh(wf.parse_obj_mesh("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 3 2\n"), settings)


@with_build
def test_a_level_with_no_triangles_and_a_missing_file_are_refused(tmp_path):
    with pytest.raises(wf.LoadError):
        wf.build_navmesh(tmp_path / "missing.obj")
    with pytest.raises(ValueError):
        wf.build_navmesh(wf.parse_obj_mesh("v 0 0 0\nv 1 0 0\n", "points only"))


@with_build
def test_the_dungeon_answers_the_reference_queries(data_file):
    level = data_file("meshes/recastnavigation/dungeon.obj")
    mesh, report = wf.build_navmesh(level)  # a pathlib.Path; str works too
    assert mesh.has_detail_heights
    assert report.polygons == mesh.polygon_count > 0 and report.detail_triangles > 0
    assert report.input_triangles == 10133 and 0 < report.walkable_triangles <= report.input_triangles
    assert report.tiles == 1 and report.grid_width > 0 and report.grid_depth > 0
    # Every way in gives the same mesh: a path, a MeshGeometry, NavMesh.build_from_level.
    assert wf.NavMesh.build_from_level(str(level)) == mesh
    assert wf.build_navmesh(wf.read_obj_mesh(str(level)), wf.AgentSettings())[0] == mesh

    query = wf.NavMeshQuery(mesh)
    checked = found = 0
    with open(data_file("meshes/derived/dungeon_reference_queries.csv"), newline="") as rows:
        for row in csv.DictReader(rows):
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            result = query.find_path(start, goal)
            # Debian's Recast builds the reference's mesh exactly: every answer is the file's.
            assert result.found == (row["reachable"] == "1"), (row["id"], result.status, result.message)
            checked += 1
            if result.found:
                found += 1
                optimum = float(row["optimal_len2d"])
                assert length_xz(result.path) >= optimum * (1 - SHORTER_RELATIVE) - FILE_ROUNDING, row["id"]
                # Waypoints stand on the level's ground: the detail heights, within a voxel.
                for x, y, z in result.path[1:-1]:
                    located = mesh.locate((x, y, z))
                    assert located is not None and abs(mesh.height_at(located[0], x, z) - y) < 1e-6
    assert checked == 10000 and found > 5000


@with_build
def test_a_tiled_build_is_stitched_into_one_mesh(data_file):
    level = str(data_file("meshes/recastnavigation/dungeon.obj"))
    solo, _ = wf.build_navmesh(level)
    tiled, report = wf.build_navmesh(level, wf.AgentSettings(tile_size=32))
    assert report.tiles > 4 and tiled.has_detail_heights
    # Specks at tile borders may add regions; what matters is that the tiles connect: the same
    # reachability as the solo mesh, and lengths within 10 % (as the C++ test).
    assert tiled.region_count >= solo.region_count
    solo_query, tiled_query = wf.NavMeshQuery(solo), wf.NavMeshQuery(tiled)
    compared = 0
    with open(data_file("meshes/derived/dungeon_reference_queries.csv"), newline="") as rows:
        for row in list(csv.DictReader(rows))[::10]:
            start = (float(row["sx"]), float(row["sy"]), float(row["sz"]))
            goal = (float(row["ex"]), float(row["ey"]), float(row["ez"]))
            if tiled.locate(start, 0.5) is None or tiled.locate(goal, 0.5) is None:
                continue
            a, b = solo_query.find_path(start, goal), tiled_query.find_path(start, goal)
            assert a.found == b.found, (row["id"], b.message)
            compared += 1
            if a.found and a.cost >= 1.0:
                assert 1 / 1.1 <= b.cost / a.cost <= 1.1, row["id"]
    assert compared > 500


@pytest.mark.skipif(wf.has_navmesh_build, reason="the module has navmesh_build")
def test_without_navmesh_build_the_calls_say_so(data_file):
    level = str(data_file("meshes/recastnavigation/dungeon.obj"))
    settings = wf.AgentSettings(agent_radius=0.4)  # plain values: nothing can check them
    assert settings.agent_radius == 0.4
    for call in (lambda: wf.build_navmesh(level), lambda: wf.NavMesh.build_from_level(level, settings),
                 settings.problem):
        with pytest.raises(RuntimeError, match="built without the navmesh_build library"):
            call()
