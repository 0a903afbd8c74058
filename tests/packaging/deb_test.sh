#!/usr/bin/env bash
# The Debian package (docs/packaging.md): cpack -G DEB in the build tree makes
# geotruth_<version>_amd64.deb with its dependencies declared; installed with dpkg, it gives
# /usr/bin/geotruth (every subcommand: audit, count, render through its module) naming the build's
# commit, and the Python package for Debian's python3; removed (purged), it leaves nothing. Needs root (CI
# runs as root): skipped (77) otherwise, or when a geotruth package is installed already. One
# install at a time on a machine (flock).
# Usage: deb_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source=$(realpath "$1") build=$(realpath "$2") work=$3
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")
version=$(sed -n 's/^project(geotruth VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")
fail() { echo "FAIL: $*"; echo "deb: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "deb: not root, skipped (dpkg -i needs root; CI runs as root)"; exit 77; }

start=$(date +%s)
(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb="$work/geotruth_${version}_amd64.deb"
[ -f "$deb" ] || fail "no $deb (made: $(ls "$work"))"
echo "deb: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, made in $(($(date +%s) - start)) s"
depends=$(dpkg-deb -f "$deb" Depends)
echo "deb: Depends: $depends"
for needed in libc6 libstdc++6 libtbb12 libopencv-core libopencv-imgproc libopencv-contrib libcairo2 libpng16-16 libjpeg62-turbo \
  libzip4 libxml2 libjemalloc2 libxxhash0 'python3 (>= 3.' 'python3 (<< 3.'; do
  case "$depends" in *"$needed"*) ;; *) fail "Depends has no $needed" ;; esac
done
contents=$(dpkg-deb -c "$deb")
site=$(/usr/bin/python3 -c 'import sys; print(f"/usr/lib/python3.{sys.version_info[1]}/dist-packages")')
for file in ./usr/bin/geotruth ./usr/lib/geotruth/geotruth-parallel ./usr/lib/geotruth/geotruth-render.so \
  ./usr/lib/geotruth/geotruth-vision.so ".$site/geotruth/__init__.py" ".$site/geotruth/__init__.pyi"; do
  grep -q " $file\$" <<<"$contents" || fail "the package has no $file"
done

exec 9>/tmp/geotruth-deb-test.lock
flock 9
if dpkg-query -W -f='${Status}' geotruth 2>/dev/null | grep -q "install ok installed"; then
  echo "deb: a geotruth package is installed on this machine already: left as it is, skipped"
  exit 77
fi
trap 'dpkg --purge geotruth >/dev/null 2>&1 || true' EXIT
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i (every dependency installed?)"; }
cd /
run() { env -i HOME="$work" PATH=/usr/bin:/bin "$@"; }
[ "$(run sh -c 'command -v geotruth')" = /usr/bin/geotruth ] || fail "geotruth is not /usr/bin/geotruth"
line=$(run /usr/bin/geotruth --version)
echo "deb: /usr/bin/geotruth --version: $line"
[ "$line" = "$("$build/geotruth" --version)" ] || fail "/usr/bin/geotruth --version differs from the build's"
if head=$(git -C "$source" rev-parse HEAD 2>/dev/null) && [ "$(realpath "$(git -C "$source" rev-parse --show-toplevel)")" = "$source" ]; then
  case "$line" in *"commit $head"*) ;; *) fail "--version does not name the checkout's commit $head" ;; esac
fi
run /usr/bin/geotruth audit "$source/data/scenes.jsonl" -o "$work/audit" >"$work/audit.log" 2>&1 || [ $? -eq 1 ] ||
  { cat "$work/audit.log"; fail "/usr/bin/geotruth audit"; }
[ -s "$work/audit/summary.json" ] || fail "no summary.json"
run /usr/bin/geotruth count "$source/data/scenes.jsonl" -o "$work/counts.jsonl" || fail "/usr/bin/geotruth count"
head -n 1 "$source/data/scenes.jsonl" >"$work/one.jsonl"
run /usr/bin/geotruth render "$work/one.jsonl" -o "$work/render" >/dev/null || fail "/usr/bin/geotruth render"
ls "$work"/render/*.png >/dev/null || fail "render drew nothing"
for subcommand in analyze count import generate audit merge filter export score render crosscheck; do
  run /usr/bin/geotruth "$subcommand" --help >/dev/null || fail "/usr/bin/geotruth $subcommand --help"
done
run /usr/bin/python3 -c "import geotruth, sys; assert geotruth.__file__.startswith('$site/'), geotruth.__file__; print(geotruth.__version__, geotruth.__commit__)" ||
  fail "import geotruth in Debian's python3"
dpkg --purge geotruth >"$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log"; fail "dpkg --purge geotruth"; }
trap - EXIT
[ ! -e /usr/bin/geotruth ] && [ ! -e /usr/lib/geotruth ] && [ ! -e "$site/geotruth" ] || fail "files left after dpkg -r"
echo "deb: 1 passed, 0 failed"
