#!/usr/bin/env bash
# The command-line contract: records in = records out, exit codes 0 / 1 / 2, --help everywhere.
set -u
geotruth="$1"
fixtures="$2"
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$geotruth" analyze "$fixtures/two_valid_three_bad.jsonl" >"$tmp/out.jsonl" 2>"$tmp/err"
check "analyze exit code with bad records" 1 $?
check "five records out" 5 "$(wc -l <"$tmp/out.jsonl")"
check "three error records" 3 "$(grep -c '"error":' "$tmp/out.jsonl")"
check "NaN named" 1 "$(grep -c "non-finite number 'NaN'" "$tmp/out.jsonl")"
check "unknown label named" 1 "$(grep -c 'unknown point label' "$tmp/out.jsonl")"

head -1 "$fixtures/two_valid_three_bad.jsonl" | "$geotruth" analyze - -o "$tmp/sub/one.jsonl" 2>/dev/null
check "stdin to -o exit code" 0 $?
check "one record written" 1 "$(wc -l <"$tmp/sub/one.jsonl")"
check "no temp file left" 1 "$(ls "$tmp/sub" | wc -l)"

# Normalized output is itself valid input and a fixed point.
scene_of() { /usr/bin/python3 -c 'import json, sys
for line in sys.stdin:
    record = json.loads(line)
    if "scene" in record: print(json.dumps(record["scene"], separators=(",", ":"), ensure_ascii=False))'; }
"$geotruth" analyze "$fixtures/two_valid_three_bad.jsonl" 2>/dev/null | scene_of >"$tmp/normalized.jsonl"
"$geotruth" analyze "$tmp/normalized.jsonl" 2>/dev/null | scene_of >"$tmp/again.jsonl"
check "normalized round trip" "" "$(diff "$tmp/normalized.jsonl" "$tmp/again.jsonl")"
check "two scenes round-tripped" 2 "$(wc -l <"$tmp/again.jsonl")"

# count: one record per scene, importers through --from, exit 1 when a source record is broken.
"$geotruth" count "$fixtures/linelist_figures.txt" --from linelist >"$tmp/counts.jsonl" 2>/dev/null
check "count linelist exit code" 0 $?
check "count linelist records" 3 "$(wc -l <"$tmp/counts.jsonl")"
check "count one-cevian triangles" 1 "$(grep -c '"id":"one-cevian".*"triangles":3' "$tmp/counts.jsonl")"
"$geotruth" import --from geometry3k "$fixtures/geometry3k/diagram_logic_forms_sample.json" -o "$tmp/g3k.jsonl" 2>/dev/null
check "import geometry3k exit code" 0 $?
"$geotruth" count "$tmp/g3k.jsonl" -o "$tmp/g3k_counts.jsonl" 2>/dev/null
check "imported scenes read back" 40 "$(wc -l <"$tmp/g3k_counts.jsonl")"
"$geotruth" count --from geometry3k "$fixtures/geometry3k/diagram_logic_forms_sample.json" 2>/dev/null |
  /usr/bin/python3 -c 'import json,sys; print(sum(json.loads(l)["triangles"] for l in sys.stdin))' >"$tmp/direct"
/usr/bin/python3 -c 'import json,sys; print(sum(json.loads(l)["triangles"] for l in open(sys.argv[1])))' \
  "$tmp/g3k_counts.jsonl" >"$tmp/via_import"
check "count --from equals import then count" "$(cat "$tmp/direct")" "$(cat "$tmp/via_import")"
printf '{"1": [' | "$geotruth" count --from geometry3k - >/dev/null 2>&1
check "broken source exit code" 1 $?
"$geotruth" count "$fixtures/two_valid_three_bad.jsonl" --mode sideways >/dev/null 2>&1
check "bad --mode exit code" 2 $?

# count --list names what it counts: one-cevian (A B, A C, B D C, A D) has the triangles ABD, ADC, ABC.
"$geotruth" count "$fixtures/linelist_figures.txt" --from linelist --list 2>/dev/null |
  /usr/bin/python3 -c 'import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("id") == "one-cevian":
        f = r["figures"]
        print(len(f["segments"]) == r["segments"], len(f["triangles"]) == r["triangles"],
              sorted("".join(sorted(t)) for t in f["triangles"]))' >"$tmp/list"
check "count --list: the triangles by letters" "True True ['ABC', 'ABD', 'ACD']" "$(cat "$tmp/list")"

# VisOnlyQA: a split's folder (fixtures of our own in its format), one scene per item, named by its id.
"$geotruth" import --from visonlyqa "$fixtures/visonlyqa/split" -o "$tmp/voqa.jsonl" 2>/dev/null
check "visonlyqa import exit code" 0 $?
check "visonlyqa one scene per item" 21 "$(wc -l <"$tmp/voqa.jsonl")"
check "visonlyqa plain items paired" 9 "$(grep -c '"scene_from":"text_fixture' "$tmp/voqa.jsonl")"
"$geotruth" audit --from visonlyqa "$fixtures/visonlyqa/split" -o "$tmp/voqa_audit" --no-progress >/dev/null 2>&1
check "visonlyqa audit exit code" 0 $?
check "visonlyqa wrong labels" 2 "$(grep -c '"verdict":"wrong"' "$tmp/voqa_audit/verdicts.jsonl")"
check "visonlyqa unsupported (real, 3D)" 3 "$(grep -c '"verdict":"unsupported"' "$tmp/voqa_audit/verdicts.jsonl")"
"$geotruth" score --from visonlyqa "$fixtures/visonlyqa/split" --responses "$fixtures/visonlyqa/responses/model_responses" \
  --json "$tmp/voqa_scores.json" >/dev/null 2>&1
check "visonlyqa score exit code" 0 $?
check "visonlyqa score models" 4 "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["models"]))' "$tmp/voqa_scores.json")"

# GePBench: rules and VQA files read together.
"$geotruth" count --from gepbench "$fixtures/gepbench/rules.json" "$fixtures/gepbench/size.jsonl" >/dev/null 2>&1
check "gepbench import through count" 0 $?
"$geotruth" audit --from gepbench "$fixtures/gepbench/rules.json" "$fixtures/gepbench/size.jsonl" \
  "$fixtures/gepbench/location.jsonl" -o "$tmp/gep" --no-progress >/dev/null 2>&1
check "gepbench audit exit code" 0 $?

# AI2D: a directory of annotations (questions beside them), a categories list, the audit's findings.
printf '{"food_chain.png": "foodChainsWebs", "series_loop.png": "circuits"}' >"$tmp/categories.json"
"$geotruth" import --from ai2d "$fixtures/ai2d" --categories "$tmp/categories.json" -o "$tmp/ai2d.jsonl" 2>/dev/null
check "ai2d import exit code" 0 $?
check "ai2d: one scene per annotation file" "$(ls "$fixtures/ai2d/annotations" | wc -l)" "$(wc -l <"$tmp/ai2d.jsonl")"
check "ai2d: the category sets the domain" 1 "$(grep -c '"id":"food_chain".*"domain":"food_web"' "$tmp/ai2d.jsonl")"
check "ai2d: links keep the relationship id" 1 "$(grep -c '"id":"T4+A2+B4"\|"id":"B0+A2+T2"' "$tmp/ai2d.jsonl")"
"$geotruth" audit "$tmp/ai2d.jsonl" -o "$tmp/ai2d_audit" --no-progress --eps-num 5 --eps-vis 15 >/dev/null 2>&1
check "ai2d audit exit code" 0 $?
check "ai2d: misassigned arrow named" 1 "$(grep -c '"kind":"link_misassigned","severity":"conflict","elements":\["T0+A0+T2"' "$tmp/ai2d_audit/scenes.jsonl")"
check "ai2d: reversed arrow named" 1 "$(grep -c '"kind":"arrow_reversed","severity":"conflict","elements":\["T0+A0+T1"' "$tmp/ai2d_audit/scenes.jsonl")"
"$geotruth" audit "$tmp/ai2d.jsonl" -o "$tmp/ai2d_auto" --no-progress >/dev/null 2>&1
check "ai2d: the auto band sets a detachment band from the arrow gaps" 1 "$(grep -c '"gap_num_px"' "$tmp/ai2d_auto/bands.json")"
"$geotruth" import --from ai2d "$fixtures/ai2d/annotations/heads.png.json" 2>/dev/null | grep -c '"questions"' >"$tmp/one"
check "ai2d: one file finds its questions beside" 1 "$(cat "$tmp/one")"
"$geotruth" import --from ai2d "$fixtures/ai2d" --categories "$tmp/missing.json" >/dev/null 2>&1
check "ai2d: a missing categories file is a usage error" 2 $?
check "gepbench verdicts" 9 "$(wc -l <"$tmp/gep/verdicts.jsonl")"
check "the rotated-ellipse span is wrong" 1 "$(grep -c '"question":"size-0".*"verdict":"wrong"' "$tmp/gep/verdicts.jsonl")"

# A question's wording, template and options travel from the scene into its verdict record; the
# summary counts unsupported questions per template (native items without one: per kind).
cat >"$tmp/worded.jsonl" <<'SCENE'
{"id":"w","points":[{"id":"A","at":[0,0]}],"questions":[{"id":"q1","ask":"count","of":"letters","options":["1","2"],"answer":"A","text":"How many letters?","template":"count letters"},{"id":"q2","ask":"divine","options":["x","y"],"answer":"B","text":"Which is it?","template":"mystery"},{"id":"q3","ask":"divine","answer":"x"}]}
SCENE
"$geotruth" audit "$tmp/worded.jsonl" -o "$tmp/worded" --no-progress >/dev/null 2>&1
field_of() { /usr/bin/python3 -c 'import json, sys
for line in open(sys.argv[1]):
    v = json.loads(line)
    if v["question"] == sys.argv[2]: print(json.dumps(v.get(sys.argv[3]), separators=(",", ":")))' "$@"; }
check "verdict carries the dataset's text" '"How many letters?"' "$(field_of "$tmp/worded/verdicts.jsonl" q1 text)"
check "verdict carries the options" '["1","2"]' "$(field_of "$tmp/worded/verdicts.jsonl" q1 options)"
check "verdict carries the template" '"mystery"' "$(field_of "$tmp/worded/verdicts.jsonl" q2 template)"
check "no text key when the dataset wrote none" 'null' "$(field_of "$tmp/worded/verdicts.jsonl" q3 text)"
check "unsupported per template (else per kind)" '{"divine":1,"mystery":1}' \
  "$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["unsupported_by_template"], separators=(",", ":")))' "$tmp/worded/summary.json")"

# generate: deterministic bytes, valid input for the other subcommands.
"$geotruth" generate --family diagram -n 50 --seed 9 -o "$tmp/gen1.jsonl" 2>/dev/null
check "generate exit code" 0 $?
"$geotruth" generate --family diagram -n 50 --seed 9 2>/dev/null >"$tmp/gen2.jsonl"
check "generate is deterministic" "" "$(cmp "$tmp/gen1.jsonl" "$tmp/gen2.jsonl")"
"$geotruth" analyze "$tmp/gen1.jsonl" >/dev/null 2>&1
check "generated scenes analyze cleanly" 0 $?
# Certified items: the same bytes on one thread as on all, shards that interleave into the run, the
# engine's files read back into the same questions, and an audit that finds every question ok.
"$geotruth" generate --family gepbench --level hard -n 6 --seed 4 -o "$tmp/gh.jsonl" 2>/dev/null
check "gepbench generate exit code" 0 $?
"$geotruth" generate --family gepbench --level hard -n 6 --seed 4 --threads 1 2>/dev/null >"$tmp/gh1.jsonl"
check "gepbench items: the same bytes on one thread" "" "$(cmp "$tmp/gh.jsonl" "$tmp/gh1.jsonl")"
for k in 0 1 2; do
  "$geotruth" generate --family gepbench --level hard -n 6 --seed 4 --shard "$k/3" -o "$tmp/gh-shard$k.jsonl" 2>/dev/null
done
"$geotruth" merge "$tmp"/gh-shard{2,0,1}.jsonl -o "$tmp/gh-merged.jsonl" 2>/dev/null
check "generate's shards merge into the whole run" "" "$(cmp "$tmp/gh.jsonl" "$tmp/gh-merged.jsonl")"
# The engine's files: image ids count the items of the whole run, so shards leave them to merge.
"$geotruth" generate --family gepbench -n 7 --seed 8 --format gepbench -o "$tmp/ge" --render "$tmp/ge-figs" 2>/dev/null
for k in 0 1; do
  "$geotruth" generate --family gepbench -n 7 --seed 8 --format gepbench -o "$tmp/ge$k" --render "$tmp/ge-figs$k" \
    --shard "$k/2" 2>/dev/null
done
"$geotruth" merge "$tmp/ge0" "$tmp/ge1" -o "$tmp/ge-merged" --render "$tmp/ge-merged-figs" 2>/dev/null
check "merged --format gepbench shards: the engine's files of one run" "" \
  "$(diff -r -x .run.json "$tmp/ge" "$tmp/ge-merged" && diff -r "$tmp/ge-figs" "$tmp/ge-merged-figs")"
check "merged pictures carry the engine's names" "easy_00000000.png easy_00000006.png" \
  "$(cd "$tmp/ge-merged-figs" && ls | sed -n '1p;7p' | tr '\n' ' ' | sed 's/ $//')"
"$geotruth" generate --family gepbench -n 5 --seed 8 --format gepbench -o "$tmp/engine" 2>/dev/null
check "--format gepbench writes the engine's files" "rules.json scenes.jsonl vqa vqa.jsonl" "$(cd "$tmp/engine" && echo *)"
"$geotruth" import --from gepbench "$tmp/engine/rules.json" "$tmp/engine/vqa.jsonl" -o "$tmp/engine-back.jsonl" 2>/dev/null
check "the engine's files import back to the same questions and answers" "same" "$(/usr/bin/python3 -c '
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
print("same" if [x["questions"] for x in a] == [y["questions"] for y in b] and len(a) == 5 else "differ")' \
  "$tmp/engine/scenes.jsonl" "$tmp/engine-back.jsonl")"
"$geotruth" generate --family tangram --level medium -n 5 --seed 2 -o "$tmp/tangram.jsonl" 2>/dev/null
"$geotruth" audit "$tmp/tangram.jsonl" -o "$tmp/tangram-audit" --no-progress >/dev/null 2>&1
check "generated Tangram items: every question ok" "20" "$(/usr/bin/python3 -c '
import json, sys; print(json.load(open(sys.argv[1]))["by_verdict"]["ok"])' "$tmp/tangram-audit/summary.json")"
"$geotruth" generate --family gepbench --level medium -n 1 >/dev/null 2>&1
check "a level the family does not have: exit 2" 2 $?
"$geotruth" generate --family tangram --format gepbench -o "$tmp/tangram-engine" >/dev/null 2>&1
check "the engine's format for another family: exit 2" 2 $?

# One fact, one finding: P declared on A-B lies 2 px off it (ambiguous band): analyze, count and
# audit give the same kind, severity, elements and slack.
cat >"$tmp/off2.jsonl" <<'SCENE'
{"id":"off2","points":[{"id":"A","at":[100,300]},{"id":"P","at":[300,302]},{"id":"B","at":[500,300]}],"lines":[{"through":["A","P","B"]}]}
SCENE
expected='{"kind":"declared_off_line","severity":"doubtful","elements":["P","line A-B"],"slack_px":2.0,"detail":"declared on the line but off it"}'
doubtful_of() { /usr/bin/python3 -c 'import json, sys
print(json.dumps({"doubtful": json.loads(sys.stdin.readline())["doubtful"]}, separators=(",", ":"))[1:-1])'; }
"$geotruth" analyze "$tmp/off2.jsonl" 2>/dev/null | doubtful_of >"$tmp/f_analyze"
"$geotruth" count "$tmp/off2.jsonl" 2>/dev/null | doubtful_of >"$tmp/f_count"
"$geotruth" audit "$tmp/off2.jsonl" -o "$tmp/off2" --no-progress >/dev/null 2>&1
check "analyze: the finding" "\"doubtful\":[$expected]" "$(cat "$tmp/f_analyze")"
check "count: the same finding" "\"doubtful\":[$expected]" "$(cat "$tmp/f_count")"
check "audit: the same finding" 1 "$(grep -cF "$expected" "$tmp/off2/scenes.jsonl")"
check "count: the band in every record" 1 \
  "$("$geotruth" count "$tmp/off2.jsonl" 2>/dev/null | grep -c '"bands":{"eps_num_px":0.5,"eps_vis_px":3.0,"source":"default"}')"
check "audit: the band in the summary" default "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bands"]["source"])' "$tmp/off2/summary.json")"
"$geotruth" count "$tmp/off2.jsonl" --eps-num 2.5 2>/dev/null | grep -o '"source":"option"' >"$tmp/opt"
check "--eps-num: source option, the fact now holds" '"source":"option"' "$(cat "$tmp/opt")"
"$geotruth" count "$tmp/off2.jsonl" --eps-num 4 --eps-vis 3 >/dev/null 2>&1
check "eps_num above eps_vis is a usage error" 2 $?

# --bands auto on a dataset with known noise: every position moved by N(0, 1 px²); P the midpoint
# of A-B, so residuals have σ = √1.5 px and the band is 2.5 σ = 3.06 px, 5 σ = 6.12 px.
/usr/bin/python3 - "$tmp/noisy.jsonl" <<'PY'
import json, math, random, sys
r = random.Random(5)
with open(sys.argv[1], "w") as out:
    for k in range(300):
        pts, lines = [], []
        for f in range(5):
            a = (r.uniform(40, 600), r.uniform(40, 600)); b = (r.uniform(40, 600), r.uniform(40, 600))
            if math.dist(a, b) < 100: continue
            m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            for name, p in (("A", a), ("P", m), ("B", b)):
                pts.append({"id": f"{name}{f}", "at": [round(p[0] + r.gauss(0, 1), 2), round(p[1] + r.gauss(0, 1), 2)]})
            lines.append({"through": [f"A{f}", f"P{f}", f"B{f}"]})
        out.write(json.dumps({"id": f"n{k}", "points": pts, "lines": lines}) + "\n")
PY
"$geotruth" count "$tmp/noisy.jsonl" --bands auto -o "$tmp/noisy_counts.jsonl" 2>"$tmp/noisy_err"
check "auto: exit code" 0 $?
/usr/bin/python3 - "$tmp/noisy_counts.jsonl" >"$tmp/auto" <<'PY'
import json, math, sys
b = json.loads(open(sys.argv[1]).readline())["bands"]
s = math.sqrt(1.5)
print(b["source"], abs(b["eps_num_px"] - 2.5 * s) <= 0.25 * 2.5 * s, abs(b["eps_vis_px"] - 5 * s) <= 0.25 * 5 * s)
PY
check "auto: the band within 25% of the injected noise's" "auto True True" "$(cat "$tmp/auto")"
check "auto: says so on stderr" 1 "$(grep -c '^bands: .*(auto): auto: .* residuals of declared facts' "$tmp/noisy_err")"
"$geotruth" count "$fixtures/two_valid_three_bad.jsonl" --bands auto 2>&1 >/dev/null | grep -o '^bands: .*(default)' >"$tmp/exact"
check "auto on exact scenes: the default" 1 "$(wc -l <"$tmp/exact")"
"$geotruth" count --from geometry3k "$fixtures/geometry3k/diagram_logic_forms_sample.json" 2>&1 >/dev/null | grep -c '^bands: .*(\(auto\|dataset:geometry3k\))' >"$tmp/g3k_band"
check "geometry3k: the band follows the dataset" 1 "$(cat "$tmp/g3k_band")"

"$geotruth" analyze --no-such-flag x >/dev/null 2>&1
check "unknown flag exit code" 2 $?
"$geotruth" >/dev/null 2>&1
check "no subcommand exit code" 2 $?
"$geotruth" --version >/dev/null
check "--version exit code" 0 $?
for sub in analyze count audit filter export render crosscheck import generate merge score; do
  "$geotruth" "$sub" --help >/dev/null
  check "$sub --help" 0 $?
done

# The work limit: a scene past --max-pairs becomes an error record naming the limit, and the
# batch goes on (exit 1, one record per line).
python3 -c '
import json
pts = [{"id": "C", "at": [320, 320]}]
lines = []
for k in range(80):
    pts.append({"id": "P%d" % k, "at": [320 + 300 - k, 20 + 7 * k]})
    lines.append({"through": ["C", "P%d" % k]})
print(json.dumps({"id": "fan80", "points": pts, "lines": lines}))
print(json.dumps({"id": "small", "points": [{"id": "A", "at": [0, 0]}, {"id": "B", "at": [10, 0]}], "lines": [{"through": ["A", "B"]}]}))
' >"$tmp/limit.jsonl"
"$geotruth" count "$tmp/limit.jsonl" --max-pairs 1000 >"$tmp/limit_out.jsonl" 2>/dev/null
check "work limit: exit 1" 1 $?
check "work limit: one record per line" 2 "$(wc -l <"$tmp/limit_out.jsonl")"
check "work limit: the error names the limit" 1 "$(grep -c 'work limit: more than 1000 pairs.*--max-pairs' "$tmp/limit_out.jsonl")"
check "work limit: the next scene is counted" 1 "$(grep -c '"id":"small"' "$tmp/limit_out.jsonl")"
"$geotruth" analyze "$tmp/limit.jsonl" --max-output-bytes 2000 >"$tmp/limit_out2.jsonl" 2>/dev/null
check "work limit: output size names the limit" 1 "$(grep -c 'max-output-bytes' "$tmp/limit_out2.jsonl")"

# score: the table on stdout, JSON with --json; exit 1 when a response row cannot be read, 2
# without --responses.
responses="$fixtures/../../examples/responses"
gep=("$fixtures/gepbench/rules.json" "$fixtures/gepbench/location.jsonl" "$fixtures/gepbench/size.jsonl")
"$geotruth" score --from gepbench "${gep[@]}" --responses "$responses/model_a.jsonl" "$responses/model_b.jsonl" \
  --json "$tmp/scores.json" >"$tmp/scores.txt" 2>/dev/null
check "score exit code" 0 $?
check "score: two models in the JSON" 2 "$(grep -c '"name": "model_' "$tmp/scores.json")"
check "score: the table names the rank changes" 2 "$(grep -c 'model_b .* above model_a' "$tmp/scores.txt")"
{ cat "$responses/model_a.jsonl"; echo 'not json'; } >"$tmp/broken.jsonl"
"$geotruth" score --from gepbench "${gep[@]}" --responses "$tmp/broken.jsonl" >"$tmp/broken.txt" 2>/dev/null
check "score: an unreadable row, exit 1" 1 $?
check "score: the row is named" 1 "$(grep -c 'unreadable: line 9: not a JSON object' "$tmp/broken.txt")"
"$geotruth" score --from gepbench "${gep[@]}" >/dev/null 2>&1
check "score without --responses: exit 2" 2 $?

finish "cli"
