"""Shared fixtures: where the benchmark data lives (WAYFINDER_DATA_DIR, set by CTest), and the
rule that missing data fails the run when WAYFINDER_REQUIRE_DATA=1 (CI) and skips otherwise."""

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
