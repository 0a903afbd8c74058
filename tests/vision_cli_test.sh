#!/usr/bin/env bash
# render and crosscheck through the command line: files named after ids, one record per input
# line, errors in place, exit codes 0 / 1 / 3, overlays, users' images.
set -u
geotruth=$(realpath "$1")
samples="$2"  # ../shared/samples (Geometry3K images); skipped when absent
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/scenes.jsonl" <<'JSONL'
{"id":"three circles/1","frame":{"width":640,"height":640},"circles":[{"id":"c1","center":[200,300],"radius":100},{"id":"c2","center":[380,300],"radius":80},{"id":"c3","center":[450,500],"radius":60}]}
{"id":"ellipse","frame":{"width":1,"height":1,"y":"up"},"shapes":[{"id":"e","type":"ellipse","center":[0.5,0.5],"axes":[0.3,0.15],"rotation":30}]}
not json
{"id":"huge","frame":{"width":1,"height":1},"circles":[{"center":[0.5,0.5],"radius":0.2}]}
JSONL

"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/img" --size 0 --render-size 100000 >"$tmp/render.jsonl" 2>/dev/null
check "render: error records exit 1" 1 $?
"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/img" >"$tmp/render.jsonl" 2>/dev/null
check "render: bad line exit 1" 1 $?
check "render: one record per line" 4 "$(wc -l <"$tmp/render.jsonl")"
check "render: three images" 3 "$(ls "$tmp/img" | wc -l)"
check "render: id made a file name" 1 "$(ls "$tmp/img" | grep -c '^three_circles_1.png$')"
check "render: PNG signature" "89504e47" "$(head -c 4 "$tmp/img/ellipse.png" | od -An -tx1 | tr -d ' \n')"
"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/img2" 2>/dev/null >/dev/null
check "render: same bytes twice" "" "$(cmp "$tmp/img/ellipse.png" "$tmp/img2/ellipse.png")"
# On every core: the same records (in input order), files and bytes as one thread.
"$geotruth" generate -n 60 --seed 4 >"$tmp/many.jsonl" 2>/dev/null
(cd "$tmp" && "$geotruth" render many.jsonl -o one --threads 1 >one.jsonl 2>/dev/null)
(cd "$tmp" && "$geotruth" render many.jsonl -o two --threads 2 >two.jsonl 2>/dev/null)
check "render --threads 2: same records" "" "$(cd "$tmp" && sed 's#"two/#"one/#' two.jsonl | cmp - one.jsonl)"
check "render --threads 2: same files and bytes" "" "$(diff -r "$tmp/one" "$tmp/two")"
check "render --threads 2: every scene drawn" 60 "$(ls "$tmp/two" | wc -l)"
"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/jpg" --format jpeg --quality 70 --style sketch --gaussian 10 2>/dev/null >/dev/null
check "render: JPEG" "ffd8ff" "$(head -c 3 "$tmp/jpg/ellipse.jpg" | od -An -tx1 | tr -d ' \n')"
"$geotruth" render "$tmp/scenes.jsonl" -o "$tmp/x" --color "#12345" >/dev/null 2>&1
check "render: bad colour is a usage error" 2 $?

head -2 "$tmp/scenes.jsonl" | "$geotruth" crosscheck - --overlay "$tmp/ov" >"$tmp/cc.jsonl" 2>/dev/null
check "crosscheck: all agree exit 0" 0 $?
check "crosscheck: two records" 2 "$(grep -c '"agree":true' "$tmp/cc.jsonl")"
check "crosscheck: two overlays" 2 "$(ls "$tmp/ov" | wc -l)"

# The ellipse's scene checked against the circles' picture: it disagrees (exit 3).
sed -n 2p "$tmp/scenes.jsonl" >"$tmp/ellipse.jsonl"
"$geotruth" crosscheck "$tmp/ellipse.jsonl" --image "$tmp/img/three_circles_1.png" >"$tmp/wrong.jsonl" 2>/dev/null
check "crosscheck: disagreement exit 3" 3 $?
check "crosscheck: ellipse not visible there" 1 "$(grep -c '"kind":"not_visible","severity":"conflict","elements":\["e"\]' "$tmp/wrong.jsonl")"
"$geotruth" crosscheck "$tmp/ellipse.jsonl" --image "$tmp/nowhere" >"$tmp/missing.jsonl" 2>/dev/null
check "crosscheck: missing image exit 1" 1 $?
check "crosscheck: missing image is an error record" 1 "$(grep -c '"error":' "$tmp/missing.jsonl")"
"$geotruth" crosscheck "$tmp/ellipse.jsonl" --image "$tmp/scenes.jsonl" >"$tmp/notimage.jsonl" 2>/dev/null
check "crosscheck: not an image named" 1 "$(grep -c 'not an image' "$tmp/notimage.jsonl")"
# A directory of images: <id>.png.
"$geotruth" crosscheck "$tmp/ellipse.jsonl" --image "$tmp/img" >/dev/null 2>&1
check "crosscheck: image found by id" 0 $?

if [ -d "$samples/geometry3k/20" ]; then
  "$geotruth" crosscheck --from geometry3k "$samples/geometry3k/20/logic_form.json" --image "$samples/geometry3k" \
    >"$tmp/g3k.jsonl" 2>/dev/null
  check "crosscheck: Geometry3K sample 20 agrees with its image" 0 $?
  check "crosscheck: Geometry3K image found as <id>/img_diagram.png" 1 "$(grep -c 'img_diagram.png' "$tmp/g3k.jsonl")"
fi
# One fact, one name and slack: two circles declared tangent 2 px apart are doubtful in analyze
# (the declared relation) and in crosscheck (their strokes merge in the picture), with the same
# elements and the same slack.
echo '{"id":"t","frame":{"width":640,"height":640},"shapes":[{"id":"c1","type":"circle","center":[200,320],"radius":100},{"id":"c2","type":"circle","center":[402,320],"radius":100}],"relations":[{"type":"tangent","between":["c1","c2"]}]}' >"$tmp/tangent.jsonl"
same_fact=$(python3 - "$geotruth" "$tmp/tangent.jsonl" <<'PY'
import json, subprocess, sys
g, f = sys.argv[1], sys.argv[2]
run = lambda *a: json.loads(subprocess.run([g, *a, f], capture_output=True, text=True).stdout.splitlines()[0])
a = run("analyze")["doubtful"][0]
c = run("crosscheck")["reasons"][0]
print(a["elements"] == c["elements"], a["slack_px"] == c["slack_px"], c["severity"])
PY
)
check "analyze and crosscheck: same elements and slack for one gap" "True True doubtful" "$same_fact"

# crosscheck on every core: the records and overlays of one thread, in input order.
"$geotruth" render "$tmp/many.jsonl" -o "$tmp/many_img" --format jpeg --style sketch --gaussian 8 >/dev/null 2>&1
(cd "$tmp" && "$geotruth" crosscheck many.jsonl --image many_img --threads 1 --overlay ov1 >cc1.jsonl 2>/dev/null)
(cd "$tmp" && "$geotruth" crosscheck many.jsonl --image many_img --threads 2 --overlay ov2 >cc2.jsonl 2>/dev/null)
check "crosscheck --threads 2: same records" "" "$(cd "$tmp" && sed 's#"ov2/#"ov1/#' cc2.jsonl | cmp - cc1.jsonl)"
check "crosscheck --threads 2: same overlays" "" "$(diff -r "$tmp/ov1" "$tmp/ov2")"
check "crosscheck: every record says how the picture was read" 60 "$(grep -c '"style":"wobble [0-9.]* px (auto' "$tmp/cc1.jsonl")"

# A picture cut short is an error record naming the file, not a verdict.
mkdir -p "$tmp/cut"
head -c 5000 "$tmp/jpg/ellipse.jpg" >"$tmp/cut/ellipse.jpg"
"$geotruth" crosscheck "$tmp/ellipse.jsonl" --image "$tmp/cut" >"$tmp/cut.jsonl" 2>/dev/null
check "crosscheck: truncated JPEG exit 1" 1 $?
check "crosscheck: truncated JPEG is an error record naming it" 1 "$(grep -c '"error":.*cut/ellipse.jpg: a damaged or truncated JPEG' "$tmp/cut.jsonl")"

# The GePBench engine names its pictures <prefix>_<index:08d>.jpg: found for gepbench-<index>.
mkdir -p "$tmp/engine"
cp "$tmp/jpg/ellipse.jpg" "$tmp/engine/easy_00000007.jpg"
sed 's/"id":"ellipse"/"id":"gepbench-7"/' "$tmp/ellipse.jsonl" >"$tmp/gep.jsonl"
"$geotruth" crosscheck "$tmp/gep.jsonl" --image "$tmp/engine" >"$tmp/gep_cc.jsonl" 2>/dev/null
check "crosscheck: the engine's picture name found" 1 "$(grep -c 'engine/easy_00000007.jpg' "$tmp/gep_cc.jsonl")"

# audit --image and filter --image: a circle the scene has and the picture lacks.
mkdir -p "$tmp/pics"
echo '{"id":"two","frame":{"width":640,"height":640},"circles":[{"id":"a","center":[200,300],"radius":100},{"id":"b","center":[450,300],"radius":80}]}' >"$tmp/two.jsonl"
"$geotruth" render "$tmp/two.jsonl" -o "$tmp/pics" >/dev/null 2>&1
echo '{"id":"two","frame":{"width":640,"height":640},"circles":[{"id":"a","center":[200,300],"radius":100},{"id":"b","center":[450,300],"radius":80},{"id":"c","center":[320,560],"radius":50}],"questions":[{"id":"q1","ask":"count","of":"circles","options":["2","3","4","5"],"answer":"B"},{"id":"q2","ask":"count","of":"letters","options":["0","1","2","3"],"answer":"A"}]}' >"$tmp/three.jsonl"
"$geotruth" audit "$tmp/three.jsonl" -o "$tmp/au" --threads 1 >/dev/null 2>&1
check "audit without --image: the count is ok" 1 "$(grep -c '"question":"q1".*"verdict":"ok"' "$tmp/au/verdicts.jsonl")"
"$geotruth" audit "$tmp/three.jsonl" -o "$tmp/aui" --image "$tmp/pics" --threads 1 >/dev/null 2>&1
check "audit --image: the count of circles is ambiguous" 1 "$(grep -c '"question":"q1".*"verdict":"ambiguous".*"kind":"not_visible"' "$tmp/aui/verdicts.jsonl")"
check "audit --image: the count of letters stays ok" 1 "$(grep -c '"question":"q2".*"verdict":"ok"' "$tmp/aui/verdicts.jsonl")"
check "audit --image: the overlay is written and named" 1 "$(ls "$tmp/aui/overlays" | grep -c '^two.png$')"
check "audit --image: the summary counts the pictures" "1 1 1" "$(python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['pictures']; print(p['scenes'], p['with_findings'], p['questions_decided'])" "$tmp/aui/summary.json")"
check "audit --image: the report shows the overlay" 1 "$(grep -c 'overlays/two.png' "$tmp/aui/report.html")"
"$geotruth" filter "$tmp/three.jsonl" --keep "$tmp/keep.jsonl" --reject "$tmp/reject.jsonl" --image "$tmp/pics" >/dev/null 2>&1
check "filter --image: rejected for its picture" "0 1" "$(wc -l <"$tmp/keep.jsonl") $(grep -c not_visible "$tmp/reject.jsonl")"
mkdir -p "$tmp/nopics"
"$geotruth" audit "$tmp/three.jsonl" -o "$tmp/aun" --image "$tmp/nopics" --threads 1 >/dev/null 2>&1
check "audit --image: a missing picture is a finding, the count not ok" "1 1" "$(grep -c picture_unavailable "$tmp/aun/scenes.jsonl") $(grep -c '"question":"q1".*"verdict":"ambiguous"' "$tmp/aun/verdicts.jsonl")"

finish "vision cli"
