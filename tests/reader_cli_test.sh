#!/usr/bin/env bash
# Reading pictures through the command line (docs/reader.md): import, count and analyze --from
# picture (files and folders, one record per picture, an unreadable file an error record and exit 1,
# the light executable running geotruth-parallel for them), --threads giving the same records, and
# audit/filter --truth-from picture.
set -u
geotruth=$(realpath "$1")
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A triangle ABC with a cevian AD and a circle about O, drawn by geotruth itself.
cat >"$tmp/scenes.jsonl" <<'JSONL'
{"id":"triangle","frame":{"width":640,"height":640},"points":[{"id":"A","at":[100,540]},{"id":"B","at":[540,540]},{"id":"C","at":[320,120]},{"id":"D","at":[430,330]}],"lines":[{"through":["A","B"]},{"through":["B","D","C"]},{"through":["C","A"]},{"through":["A","D"]}],"questions":[{"id":"t","ask":"count","of":"triangles","answer":"3"},{"id":"l","ask":"count","of":"letters","answer":"4"}]}
{"id":"circle","frame":{"width":640,"height":640},"points":[{"id":"O","at":[320,320]},{"id":"P","at":[520,320]}],"circles":[{"center":"O","radius":200}],"lines":[{"through":["O","P"]}]}
JSONL
"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/pics" >/dev/null 2>&1
check "render: two pictures" 2 "$(ls "$tmp/pics" | wc -l)"

"$geotruth" import --from picture "$tmp/pics" -o "$tmp/read.jsonl" 2>"$tmp/import.err"
check "import --from picture: a folder, exit 0" 0 $?
check "import --from picture: one scene per picture" 2 "$(wc -l <"$tmp/read.jsonl")"
check "import --from picture: ids from the file names" 1 "$(grep -c '"id":"triangle"' "$tmp/read.jsonl")"
check "import --from picture: the picture's frame" 2 "$(grep -c '"frame":{"width":640,"height":640,"y":"down"}' "$tmp/read.jsonl")"
check "import --from picture: evidence and band under extra.picture" 2 "$(grep -c '"picture":{"read_by"' "$tmp/read.jsonl")"
check "import --from picture: the circle read" 1 "$(grep -c '"circles":\[{"id":"circle1"' "$tmp/read.jsonl")"
check "import --from picture: four letters read beside the triangle's points" 4 \
  "$(grep '"id":"triangle"' "$tmp/read.jsonl" | grep -o '"letter":{"text"' | wc -l)"
# --overlay: each picture's reading drawn over it, named after its id; only for pictures.
"$geotruth" import --from picture "$tmp/pics" --overlay "$tmp/overlays" -o "$tmp/read_again.jsonl" 2>/dev/null
check "import --from picture --overlay: exit 0" 0 $?
check "import --from picture --overlay: the same scenes" "" "$(cmp "$tmp/read.jsonl" "$tmp/read_again.jsonl")"
check "import --from picture --overlay: a PNG per picture" "circle.png triangle.png" \
  "$(ls "$tmp/overlays" | tr '\n' ' ' | sed 's/ $//')"
check "import --from picture --overlay: PNG files" "PNG" "$(head -c 4 "$tmp/overlays/triangle.png" | tail -c 3)"
"$geotruth" import --from geometry3k "$tmp/scenes.jsonl" --overlay "$tmp/no_overlays" >/dev/null 2>&1
check "import --overlay without --from picture: usage error" 2 $?
# The scenes read are native scenes: analyze reads them back without an error.
"$geotruth" analyze "$tmp/read.jsonl" >/dev/null 2>&1
check "analyze: the scenes read are valid native scenes" 0 $?

# One file, and an unreadable one: an error record in its place, exit 1.
printf 'not a picture' >"$tmp/broken.png"
"$geotruth" import --from picture "$tmp/pics/triangle.png" "$tmp/broken.png" -o "$tmp/two.jsonl" 2>/dev/null
check "import --from picture: an unreadable picture exits 1" 1 $?
check "import --from picture: its error record" 1 "$(grep -c '"error":' "$tmp/two.jsonl")"
check "import --from picture: the other picture read" 1 "$(grep -c '"id":"triangle"' "$tmp/two.jsonl")"

# A reading past the scene's work limit (--max-seconds) is that picture's error record naming the
# limit; the batch goes on. Ten lettered dots joined each to each cost far more than a microsecond.
python3 - >"$tmp/k10.jsonl" <<'PY'
import json, math
points = [{"id": chr(65 + i), "at": [round(320 + 250 * math.cos(i * math.pi / 5)), round(320 + 250 * math.sin(i * math.pi / 5))]} for i in range(10)]
lines = [{"through": [chr(65 + i), chr(65 + j)]} for i in range(10) for j in range(i + 1, 10)]
print(json.dumps({"id": "k10", "frame": {"width": 640, "height": 640}, "points": points, "lines": lines}))
PY
"$geotruth" render "$tmp/k10.jsonl" -o "$tmp/k10" >/dev/null 2>&1
"$geotruth" import --from picture --max-seconds 0.000001 "$tmp/k10/k10.png" "$tmp/broken.png" -o "$tmp/limited.jsonl" 2>/dev/null
check "import --from picture --max-seconds: exit 1" 1 $?
check "import --from picture --max-seconds: a record per picture" 2 "$(wc -l <"$tmp/limited.jsonl")"
check "import --from picture --max-seconds: the reading past it an error record naming the limit" 1 \
  "$(grep '"file":"[^"]*k10.png"' "$tmp/limited.jsonl" | grep -c 'work limit: this scene took more than 1e-06 CPU-s (--max-seconds)')"
"$geotruth" import --from picture "$tmp/k10/k10.png" -o "$tmp/unlimited.jsonl" 2>/dev/null
check "import --from picture: the same picture read within the default limit" 1 "$(grep -c '"id":"k10"' "$tmp/unlimited.jsonl")"

# count --from picture: the counts of the picture; --threads 2 gives the records of one thread.
"$geotruth" count --from picture "$tmp/pics/triangle.png" --any-vertex --quadrilaterals >"$tmp/count.jsonl" 2>/dev/null
check "count --from picture: exit 0" 0 $?
check "count --from picture: four letters" 1 "$(grep -c '"letters":4' "$tmp/count.jsonl")"
check "count --from picture: three triangles formed by letters" 1 "$(grep -c '"triangles":3' "$tmp/count.jsonl")"
check "count --from picture: the band is the picture's" 1 "$(grep -c '"source":"picture"' "$tmp/count.jsonl")"
check "count --from picture: the picture's band says why" 1 \
  "$(grep -c '"source":"picture","reason":"read from the picture: strokes' "$tmp/count.jsonl")"
"$geotruth" count --from picture "$tmp/pics/triangle.png" 2>&1 >/dev/null | grep -q "^bands: each picture's own"
check "count --from picture: the run's band line names the pictures' own" 0 $?
"$geotruth" count --from picture "$tmp/pics" --threads 1 >"$tmp/one.jsonl" 2>/dev/null
"$geotruth" count --from picture "$tmp/pics" --threads 2 >"$tmp/two_threads.jsonl" 2>/dev/null
check "count --from picture --threads 2: the same records" "" "$(cmp "$tmp/one.jsonl" "$tmp/two_threads.jsonl")"

# audit --truth-from picture: the items' questions answered from their pictures; every verdict
# says its truth's source.
"$geotruth" audit "$tmp/scenes.jsonl" -o "$tmp/audit" --image "$tmp/pics" --truth-from picture >/dev/null 2>&1
check "audit --truth-from picture: exit 0" 0 $?
check "audit --truth-from picture: verdicts from the picture" 2 "$(grep -c '"truth_source":"picture"' "$tmp/audit/verdicts.jsonl")"
check "audit --truth-from picture: the triangles counted on the picture" 1 \
  "$(grep '"question":"t"' "$tmp/audit/verdicts.jsonl" | grep -c '"verdict":"ok"')"
check "audit --truth-from picture: each scene's band is its picture's, with why" 2 \
  "$(grep -c '"bands":{[^}]*"source":"picture","reason":"read from the picture' "$tmp/audit/scenes.jsonl")"
check "audit --truth-from picture: the summary gives the pictures' bands" 2 \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["picture_bands"]["scenes"])' "$tmp/audit/summary.json")"
"$geotruth" audit "$tmp/scenes.jsonl" -o "$tmp/audit2" >/dev/null 2>&1
check "audit: truths from the description say so" 2 "$(grep -c '"truth_source":"description"' "$tmp/audit2/verdicts.jsonl")"
check "audit: scenes judged at the run's band have no band of their own" 0 "$(grep -c '"bands"' "$tmp/audit2/scenes.jsonl")"
"$geotruth" audit "$tmp/scenes.jsonl" -o "$tmp/audit3" --truth-from picture >/dev/null 2>&1
check "audit --truth-from picture without --image: usage error" 2 $?
# An item with only questions and a picture (VisOnlyQA's real files) is answered from its picture.
printf '%s\n' '{"id":"triangle","questions":[{"id":"l","ask":"count","of":"letters","answer":"4"}]}' >"$tmp/bare.jsonl"
"$geotruth" audit "$tmp/bare.jsonl" -o "$tmp/audit4" --image "$tmp/pics" >/dev/null 2>&1
check "audit --image: an item without a description read from its picture" 1 \
  "$(grep -c '"truth_source":"picture"' "$tmp/audit4/verdicts.jsonl")"
# A flagged item read from its picture: the reading drawn over the picture beside the report.
printf '%s\n' '{"id":"triangle","questions":[{"id":"w","ask":"count","of":"triangles","answer":"5"}]}' >"$tmp/wrong.jsonl"
"$geotruth" audit "$tmp/wrong.jsonl" -o "$tmp/audit5" --image "$tmp/pics" >/dev/null 2>&1
check "audit --image: a wrong answer from the picture" 1 "$(grep -c '"verdict":"wrong"' "$tmp/audit5/verdicts.jsonl")"
check "audit --image: its reading drawn over the picture" 1 "$(ls "$tmp/audit5/overlays" | grep -c '^triangle.*\.png$')"
check "audit --image: the scene's line names the overlay and its truth's source" 1 \
  "$(grep '"truth_source":"picture"' "$tmp/audit5/scenes.jsonl" | grep -c '"overlay":')"
check "audit --image: a scene read from its picture is not counted as checked against it" "absent" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("pictures", "absent"))' "$tmp/audit5/summary.json")"
finish reader_cli
