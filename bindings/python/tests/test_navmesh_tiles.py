"""Tiled navigation meshes and temporary obstacles from Python: a mesh built from per-tile
geometry, tiles replaced and removed (other tiles keep their polygon ids, references into a
changed tile turn invalid), the tiled .wfnav read back tiled and pickled tiled; with the
navmesh_build library, a level's tiles, the tile cache's obstacles of each kind and area volumes
under a budget (on a worker thread too), and the mesh and cache in one file loaded without the
level rebuilding as the cache in memory does."""

import pickle

import pytest

import wayfinder as wf

with_build = pytest.mark.skipif(not wf.has_navmesh_build, reason="module built without navmesh_build (Recast)")


def square_tile(x, z, area=0, flags=0):
    x0, z0 = 2.0 * x, 2.0 * z
    return wf.MeshGeometry([(x0, 0, z0), (x0 + 2, 0, z0), (x0 + 2, 0, z0 + 2), (x0, 0, z0 + 2)], [[0, 1, 2, 3]],
                           areas=[area], flags=[flags])


def grid():
    return wf.NavMeshTileGrid(tile_width=2.0, tiles_x=2, tiles_z=2, max_polygons_per_tile=4, border_climb=0.5)


def tiled_mesh():
    tiles = [wf.NavMeshTile(x, z, square_tile(x, z, area=1 + x + 2 * z)) for z in range(2) for x in range(2)]
    return wf.NavMesh.build_tiled(grid(), tiles)


def test_a_tiled_mesh_changes_one_tile_at_a_time():
    mesh = tiled_mesh()
    assert mesh.is_tiled and mesh.tile_grid.tiles_x == 2
    infos = mesh.tiles()
    assert [(t.tile_x, t.tile_z, t.first_polygon, t.polygon_count) for t in infos] == [
        (0, 0, 0, 1), (1, 0, 4, 1), (0, 1, 8, 1), (1, 1, 12, 1)]
    assert mesh.area(12) == 4
    query = wf.NavMeshQuery(mesh)
    assert query.find_path((0.5, 0, 0.5), (3.5, 0, 3.5)).status == wf.SearchStatus.found
    kept, replaced = mesh.polygon_ref(0), mesh.polygon_ref(12)
    assert mesh.is_valid(kept) and mesh.polygon_of(replaced) == 12
    revision = mesh.revision
    mesh.replace_tile(1, 1, square_tile(1, 1, area=9))
    assert mesh.revision == revision + 1 and mesh.area(12) == 9
    assert mesh.is_valid(kept) and not mesh.is_valid(replaced) and mesh.polygon_of(replaced) is None
    assert mesh.tile_geometry(1, 1).polygon_areas == [9]
    mesh.remove_tile(1, 1)
    assert len(mesh.tiles()) == 3
    mesh.replace_tile(wf.NavMeshTile(1, 1, square_tile(1, 1)))
    assert len(mesh.tiles()) == 4
    with pytest.raises(IndexError):
        mesh.replace_tile(5, 0, square_tile(0, 0))
    with pytest.raises(ValueError, match="outside the tile"):
        mesh.replace_tile(1, 1, square_tile(0, 0))
    with pytest.raises(ValueError, match="given twice"):
        wf.NavMesh.build_tiled(grid(), [wf.NavMeshTile(0, 0, square_tile(0, 0))] * 2)
    with pytest.raises(ValueError, match="areas and flags"):
        wf.MeshGeometry([(0, 0, 0)], [[0]], areas=[1])


def test_a_tiled_mesh_saved_and_pickled_comes_back_tiled(tmp_path):
    mesh = tiled_mesh()
    mesh.remove_tile(1, 0)
    path = tmp_path / "tiled.wfnav"
    wf.write_navmesh_file(mesh, str(path))
    for loaded in (wf.read_navmesh_file(str(path)), pickle.loads(pickle.dumps(mesh))):
        assert loaded.is_tiled
        assert [(t.tile_x, t.tile_z, t.first_polygon) for t in loaded.tiles()] == [
            (t.tile_x, t.tile_z, t.first_polygon) for t in mesh.tiles()]
        assert loaded == mesh
        loaded.replace_tile(1, 0, square_tile(1, 0))
        assert len(loaded.tiles()) == 4


def obstacle_level():
    # A floor 40 units square, facing up: 3 x 3 tiles of 48 cells.
    return wf.MeshGeometry([(0, 0, 0), (40, 0, 0), (40, 0, 40), (0, 0, 40)], [[0, 3, 2, 1]])


def settings():
    return wf.AgentSettings(tile_size=48)


@with_build
def test_obstacles_and_volumes_rebuild_their_tiles_under_a_budget():
    level = obstacle_level()
    tile_set = wf.build_navmesh_tiles(level, settings())
    mesh = wf.NavMesh.build_tiled(tile_set.grid, tile_set.tiles)
    cache = wf.NavMeshTileCache(level, settings())
    assert (cache.tiles_x, cache.tiles_z) == (3, 3)
    query = wf.NavMeshQuery(mesh)
    free = query.find_path((1, 0, 20), (39, 0, 20))
    assert free.status == wf.SearchStatus.found
    wall = cache.add_obstacle(wf.BoxObstacle((19, -1, -1), (21, 3, 41)))
    cache.add_obstacle(wf.CylinderObstacle((10, 0, 10), 2.0, 3.0))
    cache.add_obstacle(wf.OrientedBoxObstacle((30, 0, 30), (3, 2, 1), 0.5))
    volume = cache.add_area_volume(wf.AreaVolume([(2, 0, 2), (8, 0, 2), (8, 0, 8), (2, 0, 8)], -1, 1, 5, 0x4))
    assert cache.obstacle_count == 3 and cache.pending_tiles > 1
    first = cache.update(max_tiles=1)
    assert len(first) == 1 and cache.pending_tiles > 0
    for tile in first + cache.update():
        mesh.replace_tile(tile)
    assert cache.pending_tiles == 0
    assert query.find_path((1, 0, 20), (39, 0, 20)).status != wf.SearchStatus.found
    located = mesh.locate((5, 0, 5))
    assert located is not None and mesh.area(located[0]) == 5
    cache.remove_obstacle(wall)
    cache.remove_area_volume(volume)
    cache.use_worker_thread(True)
    assert cache.uses_worker_thread
    while cache.pending_tiles > 0:
        cache.wait_for_worker()
        for tile in cache.update(max_tiles=2):
            mesh.replace_tile(tile)
    assert query.find_path((1, 0, 20), (39, 0, 20)).status == wf.SearchStatus.found
    with pytest.raises(ValueError, match="radius"):
        cache.add_obstacle(wf.CylinderObstacle((1, 0, 1), -1.0, 1.0))
    with pytest.raises(ValueError):
        cache.remove_obstacle(wall)


@with_build
def test_the_mesh_and_its_cache_in_one_file_rebuild_as_in_memory(tmp_path):
    level = obstacle_level()
    tile_set = wf.build_navmesh_tiles(level, settings())
    mesh = wf.NavMesh.build_tiled(tile_set.grid, tile_set.tiles)
    cache = wf.NavMeshTileCache(level, settings())
    path = tmp_path / "level.wfnav"
    wf.write_navmesh_file_with_tile_cache(mesh, cache, str(path))
    loaded_mesh, loaded_cache = wf.read_navmesh_file_with_tile_cache(str(path))
    assert loaded_cache.to_bytes() == cache.to_bytes()
    assert wf.NavMeshTileCache.from_bytes(cache.to_bytes()).to_bytes() == cache.to_bytes()
    pillar = wf.CylinderObstacle((20, 0, 20), 3.0, 2.0)
    for c in (cache, loaded_cache):
        c.add_obstacle(pillar)
    ours, theirs = loaded_cache.update(), cache.update()
    assert [(t.tile_x, t.tile_z, t.geometry.vertices, t.geometry.polygons) for t in ours] == [
        (t.tile_x, t.tile_z, t.geometry.vertices, t.geometry.polygons) for t in theirs]
    for tile in ours:
        loaded_mesh.replace_tile(tile)
    for tile in theirs:
        mesh.replace_tile(tile)
    assert loaded_mesh == mesh
    # The mesh alone in a file has no cache to read.
    wf.write_navmesh_file(mesh, str(path))
    with pytest.raises(wf.LoadError, match="no tile cache section"):
        wf.read_navmesh_file_with_tile_cache(str(path))
    with pytest.raises(wf.LoadError):
        wf.NavMeshTileCache.from_bytes(b"\x01\x00\x00\x00junk")


@pytest.mark.skipif(wf.has_navmesh_build, reason="module built with navmesh_build")
def test_without_navmesh_build_the_cache_says_so():
    with pytest.raises(RuntimeError, match="navmesh_build"):
        wf.NavMeshTileCache(obstacle_level(), settings())
