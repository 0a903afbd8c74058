#!/usr/bin/env bash
# One build for both commands: in a fresh clone of the checkout (a copy of its files when it is not
# a git checkout), scripts/run then scripts/test compile each source once, and scripts/run after
# them compiles nothing. A compiler launcher logs the object of every compilation and hands it to
# ccache (which finds this build's objects: scripts/build makes ccache's paths relative to the
# checkout), so the check costs links, not compilations.
# Usage: one_build_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")
fail() { echo "FAIL: $*"; echo "one build: 0 passed, 1 failed"; exit 1; }
if git -C "$source" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git clone -q "$source" "$work/src"
else
  mkdir "$work/src" && tar -C "$source" --exclude='./build*' --exclude=./out -cf - . | tar -C "$work/src" -xf -
fi
cat >"$work/launcher" <<'SH'
#!/bin/sh
# Logs the object each compilation writes (-o), then compiles, through ccache when there is one.
log=${GEOTRUTH_COMPILE_LOG:-/dev/null}
previous=
for argument in "$@"; do
  [ "$previous" = -o ] && echo "$argument" >>"$log"
  previous=$argument
done
if command -v ccache >/dev/null; then exec ccache "$@"; else exec "$@"; fi
SH
chmod +x "$work/launcher"
cd "$work/src"
export CMAKE_CXX_COMPILER_LAUNCHER="$work/launcher"
unset CCACHE_BASEDIR  # scripts/build sets it to the clone
step() {  # step NAME COMMAND…: runs it with its own compile log
  local name=$1; shift
  local start=$(date +%s)
  : >"$work/$name.objects"
  GEOTRUTH_COMPILE_LOG="$work/$name.objects" "$@" >"$work/$name.log" 2>&1 || { tail -n 40 "$work/$name.log"; fail "$*"; }
  # only the project's objects (not CMake's own compiler checks)
  grep -v -e CMakeScratch -e CMakeTmp -e cmTC_ "$work/$name.objects" | sort >"$work/$name.sorted" || true
  echo "$*: $(wc -l <"$work/$name.sorted") compilations, $(($(date +%s) - start)) s"
}
step run scripts/run
step test scripts/test -R '^scene_schema$'
step again scripts/run
[ -s "$work/run.sorted" ] || fail "scripts/run compiled nothing (is the launcher used?)"
[ -s "$work/test.sorted" ] || fail "scripts/test compiled nothing after scripts/run (the tests are built by it)"
twice=$(sort "$work/run.sorted" "$work/test.sorted" | uniq -d)
[ -z "$twice" ] || fail "compiled twice: $(echo "$twice" | head -n 20 | tr '\n' ' ')"
[ ! -s "$work/again.sorted" ] || fail "scripts/run after scripts/test compiled: $(head -n 20 "$work/again.sorted" | tr '\n' ' ')"
echo "one build: scripts/run compiled $(wc -l <"$work/run.sorted") files, scripts/test $(wc -l <"$work/test.sorted") others, none twice"
echo "one build: 1 passed, 0 failed"
rm -rf "$work/src"
