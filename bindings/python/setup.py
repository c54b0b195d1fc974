"""Builds the native part of the wayfinder package with the project's CMake (pyproject.toml).

The module is the CMake target wayfinder_python; this file only asks CMake for it and puts the
built library into the package. By default CMake configures a build of its own in setuptools'
temporary folder, with the tests, tools, benchmarks and other bindings left out, for the
interpreter that runs the install. WAYFINDER_BUILD_DIR names an already configured build folder
instead (absolute, or relative to the repository's root, e.g. build/release): it is only built (target wayfinder_python), never configured again,
so its settings stay as they are. CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs, as for CMake.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parents[1]  # the repository's root, whose CMakeLists.txt builds everything


def project_version():
    text = (SOURCE / "CMakeLists.txt").read_text()
    return re.search(r"project\(wayfinder VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, extension):
        configured = os.environ.get("WAYFINDER_BUILD_DIR")
        if configured:
            build = (SOURCE / configured).resolve()  # an absolute path stays as it is
        else:
            build = pathlib.Path(self.build_temp).resolve() / "cmake"
            subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            f"-DPython3_EXECUTABLE={sys.executable}", "-DWAYFINDER_BUILD_PYTHON=ON",
                            "-DWAYFINDER_BUILD_TESTS=OFF", "-DWAYFINDER_BUILD_TOOLS=OFF",
                            "-DWAYFINDER_BUILD_BENCHMARKS=OFF", "-DWAYFINDER_BUILD_C_API=OFF",
                            "-DWAYFINDER_BUILD_CSHARP=OFF", "-DWAYFINDER_INSTALL=OFF"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "wayfinder_python"], check=True)
        built = sorted((build / "python" / "wayfinder").glob("_wayfinder*.so"))
        if len(built) != 1:
            sys.exit(f"{build}: CMake built no wayfinder module (are pybind11-dev and python3-dev installed?)")
        target = pathlib.Path(self.get_ext_fullpath(extension.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(version=project_version(), packages=["wayfinder"], package_data={"wayfinder": ["__init__.pyi", "py.typed"]},
      ext_modules=[Extension("wayfinder._wayfinder", sources=[])],
      cmdclass={"build_ext": CMakeBuild})
