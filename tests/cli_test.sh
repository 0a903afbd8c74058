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

# GePBench: rules and VQA files read together.
"$geotruth" count --from gepbench "$fixtures/gepbench/rules.json" "$fixtures/gepbench/size.jsonl" >/dev/null 2>&1
check "gepbench import through count" 0 $?
"$geotruth" audit --from gepbench "$fixtures/gepbench/rules.json" "$fixtures/gepbench/size.jsonl" \
  "$fixtures/gepbench/location.jsonl" -o "$tmp/gep" --no-progress >/dev/null 2>&1
check "gepbench audit exit code" 0 $?
check "gepbench verdicts" 9 "$(wc -l <"$tmp/gep/verdicts.jsonl")"
check "the rotated-ellipse span is wrong" 1 "$(grep -c '"question":"size-0".*"verdict":"wrong"' "$tmp/gep/verdicts.jsonl")"

# generate: deterministic bytes, valid input for the other subcommands.
"$geotruth" generate --family diagram -n 50 --seed 9 -o "$tmp/gen1.jsonl" 2>/dev/null
check "generate exit code" 0 $?
"$geotruth" generate --family diagram -n 50 --seed 9 2>/dev/null >"$tmp/gen2.jsonl"
check "generate is deterministic" "" "$(cmp "$tmp/gen1.jsonl" "$tmp/gen2.jsonl")"
"$geotruth" analyze "$tmp/gen1.jsonl" >/dev/null 2>&1
check "generated scenes analyze cleanly" 0 $?
"$geotruth" generate --family gepbench -n 1 >/dev/null 2>&1
check "unbuilt family exit code" 2 $?

"$geotruth" analyze --no-such-flag x >/dev/null 2>&1
check "unknown flag exit code" 2 $?
"$geotruth" >/dev/null 2>&1
check "no subcommand exit code" 2 $?
"$geotruth" --version >/dev/null
check "--version exit code" 0 $?
for sub in analyze count audit filter render crosscheck import generate merge; do
  "$geotruth" "$sub" --help >/dev/null
  check "$sub --help" 0 $?
done

finish "cli"
