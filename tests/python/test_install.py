"""cmake --install puts a working package into Debian's python3 (here under a DESTDIR)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_installed_package_imports_and_works(tmp_path):
    build = os.environ.get("GEOTRUTH_BUILD_DIR")
    if not build:
        pytest.skip("run by ctest, which names the build directory")
    cmake = os.environ.get("CMAKE_COMMAND", "cmake")
    env = dict(os.environ, DESTDIR=str(tmp_path))
    subprocess.run([cmake, "--install", build, "--component", "python"], check=True, env=env, capture_output=True)
    installed = [p.parent for p in tmp_path.rglob("geotruth/__init__.py")]
    assert len(installed) == 1
    package = installed[0]
    assert {"__init__.py", "__init__.pyi", "py.typed"} <= {p.name for p in package.iterdir()}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(package.parent)
    done = subprocess.run(
        [sys.executable, "-c", "import geotruth; print(geotruth.__file__); "
                               "print(geotruth.count({'id': 'x', 'points': [{'id': 'A', 'at': [0, 0]}]})['letters'])"],
        capture_output=True, text=True, env=env, cwd="/")
    assert done.returncode == 0, done.stderr
    where, letters = done.stdout.split()
    assert Path(where).is_relative_to(tmp_path) and letters == "1"
