#!/usr/bin/env bash
# The wheel (docs/packaging.md): built from the build tree with Debian's pip, setuptools and wheel
# (no build isolation, no index), installed into a fresh venv of Debian's python3 with nothing
# downloaded; then, away from the build tree, `import geotruth` and the venv's `geotruth` (audit,
# count, render: the executable, geotruth-parallel and a module) work and name the build's commit.
# Usage: wheel_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source=$(realpath "$1") build=$(realpath "$2") work=$3
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")
python=/usr/bin/python3
version=$(sed -n 's/^project(geotruth VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")
fail() { echo "FAIL: $*"; echo "wheel: 0 passed, 1 failed"; exit 1; }

start=$(date +%s)
GEOTRUTH_BUILD_DIR="$build" PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$python" -m pip wheel --no-build-isolation --no-deps --no-index -q -w "$work/dist" "$source" >"$work/pip-wheel.log" 2>&1 ||
  { cat "$work/pip-wheel.log"; fail "pip wheel"; }
tag=$("$python" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
wheel="$work/dist/geotruth-$version-$tag-$tag-linux_x86_64.whl"
[ -f "$wheel" ] || fail "no $wheel (made: $(ls "$work/dist"))"
echo "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB, built in $(($(date +%s) - start)) s"
"$python" - "$wheel" "$version" <<'PY' || fail "the wheel's contents"
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
data = f"geotruth-{sys.argv[2]}.data/data/"
want = ["geotruth/__init__.py", "geotruth/__init__.pyi", "geotruth/py.typed", data + "bin/geotruth",
        data + "lib/geotruth/geotruth-parallel", data + "lib/geotruth/geotruth-render.so",
        data + "lib/geotruth/geotruth-vision.so"]
missing = [n for n in want if n not in names]
extension = [n for n in names if n.startswith("geotruth/_geotruth.cpython-") and n.endswith(".so")]
if missing or len(extension) != 1:
    sys.exit(f"missing {missing}, extension {extension}, in {sorted(names)}")
PY

start=$(date +%s)
"$python" -m venv "$work/venv"
PIP_DISABLE_PIP_VERSION_CHECK=1 "$work/venv/bin/pip" install --no-index -q "$wheel" >"$work/pip-install.log" 2>&1 ||
  { cat "$work/pip-install.log"; fail "pip install into a fresh venv"; }
echo "wheel: installed into a fresh venv in $(($(date +%s) - start)) s"

# Away from the build tree: only the venv on PATH, no PYTHONPATH, another working directory.
cd "$work"
run() { env -i HOME="$work" PATH="$work/venv/bin:/usr/bin:/bin" "$@"; }
[ "$(run sh -c 'command -v geotruth')" = "$work/venv/bin/geotruth" ] || fail "geotruth is not the venv's"
[ "$(run geotruth --version)" = "$("$build/geotruth" --version)" ] || fail "the venv's geotruth --version: $(run geotruth --version)"
run geotruth audit "$source/data/scenes.jsonl" -o "$work/audit" >"$work/audit.log" 2>&1 || [ $? -eq 1 ] ||
  { cat "$work/audit.log"; fail "geotruth audit from the venv"; }
[ -s "$work/audit/summary.json" ] || fail "no summary.json from the venv's geotruth audit"
run geotruth count "$source/data/scenes.jsonl" -o "$work/counts.jsonl" || fail "geotruth count from the venv"
head -n 1 "$source/data/scenes.jsonl" >"$work/one.jsonl"
run geotruth render "$work/one.jsonl" -o "$work/render" >/dev/null || fail "geotruth render (its module) from the venv"
ls "$work"/render/*.png >/dev/null || fail "geotruth render drew nothing"
run python -c '
import json, sys, geotruth
print(geotruth.__file__)
assert geotruth.__file__.startswith(sys.argv[1]), geotruth.__file__
scene = json.loads(open(sys.argv[2]).readline())
assert geotruth.count(scene)["letters"] == 4, geotruth.count(scene)
print(geotruth.__version__, geotruth.__commit__)
' "$work/venv/" "$work/one.jsonl" || fail "import geotruth in the venv"
echo "wheel: 1 passed, 0 failed"
