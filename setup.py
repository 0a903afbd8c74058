"""The geotruth wheel: the Python package and the geotruth command, for one CPython (docs/packaging.md).

    pip wheel --no-build-isolation --no-index --no-deps -w dist .

builds the build tree's targets through CMake (scripts/build: the same configuration and tree as
scripts/run and scripts/test, so nothing compiles twice; GEOTRUTH_BUILD_DIR names another tree
already configured) and packs:

- geotruth/ (__init__.py, the type stubs, py.typed) and the extension geotruth/_geotruth*.so;
- geotruth.data/data/bin/geotruth: the command, installed on the environment's PATH (a venv's bin/);
- geotruth.data/data/lib/geotruth/: geotruth-parallel and the modules it loads, where the command
  looks for them (<prefix>/lib/geotruth, src/cli/common.hpp).

The binaries link Debian 12's shared libraries (OpenCV, TBB, cairo, libpng, libjpeg, libzip,
libxml2, jemalloc, xxHash, GMP): the wheel is for the machine's CPython and such a system, not manylinux.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
VERSION = re.search(r"project\(geotruth VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
BUILD = Path(os.environ.get("GEOTRUTH_BUILD_DIR") or ROOT / "build").resolve()
COMMAND = "geotruth"
BESIDE = ["geotruth-parallel", "geotruth-render.so", "geotruth-vision.so"]
EXTENSION = "_geotruth" + sysconfig.get_config_var("EXT_SUFFIX")


def relative(path: Path) -> str:
    # setuptools wants paths relative to the project (pip runs this file from its folder).
    return os.path.relpath(path, ROOT)


class CMakeBuild(build_ext):
    """Builds the command and the extension in the CMake tree and copies the extension in place."""

    def build_extension(self, ext):
        targets = ["--target", "geotruth", "--target", "_geotruth"]
        if "GEOTRUTH_BUILD_DIR" in os.environ:
            subprocess.run(["cmake", "--build", str(BUILD), "--parallel", str(os.cpu_count() or 1)] + targets,
                           check=True)
        else:
            subprocess.run([str(ROOT / "scripts" / "build")] + targets, check=True)
        built = BUILD / "python" / "geotruth" / EXTENSION
        if not built.exists():
            found = sorted(p.name for p in (BUILD / "python" / "geotruth").glob("_geotruth*.so"))
            raise SystemExit(f"geotruth: {built} was not built: the build tree made {found or 'no extension'} "
                             f"(its Python is Debian's python3), and this is {sys.executable} "
                             f"({sys.version.split()[0]}); build the wheel with that python3")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


(BUILD / "wheel").mkdir(parents=True, exist_ok=True)
setup(
    name="geotruth",
    version=VERSION,
    description="Exact ground truth for geometry-perception benchmark items: audit, filter, score, export",
    long_description=(ROOT / "docs" / "packaging.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    python_requires=f"=={sys.version_info.major}.{sys.version_info.minor}.*",
    classifiers=["Operating System :: POSIX :: Linux", "Programming Language :: C++",
                 "Programming Language :: Python :: 3", "Topic :: Scientific/Engineering"],
    packages=["geotruth"],
    package_dir={"": "python"},
    package_data={"geotruth": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("geotruth._geotruth", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    data_files=[("bin", [relative(BUILD / COMMAND)]),
                ("lib/geotruth", [relative(BUILD / name) for name in BESIDE])],
    # setuptools' own build files inside the CMake tree, not beside the sources
    options={"build": {"build_base": relative(BUILD / "wheel")},
             "egg_info": {"egg_base": relative(BUILD / "wheel")}},
    zip_safe=False,
)
