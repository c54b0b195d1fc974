"""Shared fixtures: where the benchmark data lives (WAYFINDER_DATA_DIR, set by CTest), the
rule that missing data fails the run when WAYFINDER_REQUIRE_DATA=1 (CI) and skips otherwise,
and the data sets several test files read."""

import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def data_dir():
    root = pathlib.Path(os.environ.get("WAYFINDER_DATA_DIR", pathlib.Path(__file__).parents[3] / ".." / "shared" / "data"))
    return root


@pytest.fixture
def data_file(data_dir):
    def find(relative):
        path = data_dir / relative
        if not path.exists():
            if os.environ.get("WAYFINDER_REQUIRE_DATA") == "1":
                pytest.fail(f"{path} not found; WAYFINDER_REQUIRE_DATA=1 requires it")
            pytest.skip(f"{path} not found")
        return path
    return find


@pytest.fixture
def simple_voxel_benchmark(data_file):
    """The voxel benchmark's Simple map (Warframe): its scenario's path and its world."""
    import wayfinder as wf

    scenario = data_file("voxel/warframe/Simple.3dmap.3dscen")
    return scenario, wf.read_voxel_benchmark_map(str(scenario)[: -len(".3dscen")])
