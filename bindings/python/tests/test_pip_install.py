"""`pip install bindings/python` builds and installs the module from a checkout with what Debian
provides (python3-venv, python3-setuptools, python3-wheel; no package index): here into a fresh
virtual environment, from the build folder these tests run against (WAYFINDER_BUILD_DIR, so the
library is not compiled a second time), and the installed module imports and answers a query."""

import os
import pathlib
import subprocess
import sys

import wayfinder as wf

CHECKOUT_PACKAGE = pathlib.Path(__file__).resolve().parents[1]  # bindings/python
BUILD_DIR = pathlib.Path(wf.__file__).resolve().parents[2]      # <build>/python/wayfinder/__init__.py


def test_pip_installs_the_module_into_a_fresh_virtual_environment(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["WAYFINDER_BUILD_DIR"] = str(BUILD_DIR)
    installed = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                                str(CHECKOUT_PACKAGE)], capture_output=True, text=True, env=env, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    check = ("import wayfinder as wf\n"
             "grid = wf.GridMap(4, 3)\n"
             "print(wf.__file__)\n"
             "print(wf.GridQuery(grid).find_path((0, 0), (3, 2)).path)\n")
    imported = subprocess.run([python, "-c", check], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert imported.returncode == 0, imported.stderr
    module_file, path = imported.stdout.splitlines()
    assert pathlib.Path(module_file).is_relative_to(venv)  # the installed copy, not the build folder's
    assert path == "[(0, 0), (1, 1), (2, 2), (3, 2)]"
