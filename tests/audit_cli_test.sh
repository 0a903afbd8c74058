#!/usr/bin/env bash
# audit at scale, through the CLI: a run killed with SIGKILL and resumed, and three shards merged,
# each give byte for byte what one uninterrupted run writes; filter's two policies.
set -u
geotruth="$1"
fixtures="$2"
data="$3"
source "$(dirname "$0")/check.sh"
same_outputs() {  # same_outputs DIR_A DIR_B → "" when every output file is identical
  for f in verdicts.jsonl scenes.jsonl flagged.jsonl summary.json report.html; do
    cmp -s "$1/$f" "$2/$f" || echo "$f differs"
  done
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A dataset with every verdict: generated diagrams, the default dataset and the planted cases.
"$geotruth" generate --family diagram -n 30000 --seed 5 -o "$tmp/generated.jsonl" 2>/dev/null
for i in $(seq 1 50); do cat "$data/scenes.jsonl" "$fixtures/audit_planted.jsonl"; done >"$tmp/mixed.jsonl"
cat "$tmp/generated.jsonl" "$tmp/mixed.jsonl" >"$tmp/dataset.jsonl"
records=$(grep -c . "$tmp/dataset.jsonl")

"$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/whole" --threads 2 >/dev/null 2>&1
check "audit exit code with one broken line per copy" 1 $?
check "one scenes record per input line" "$records" "$(wc -l <"$tmp/whole/scenes.jsonl")"

# Kill -9 once a checkpoint past record 2,000 is on disk, then resume.
"$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/killed" --threads 2 --checkpoint-every 200 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  done_so_far=$(/usr/bin/python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["done"])
except Exception: print(0)' "$tmp/killed/.checkpoint.json" 2>/dev/null)
  [ "${done_so_far:-0}" -ge 2000 ] && break
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null
killed=$?
wait "$pid" 2>/dev/null
check "the run was killed mid-way" 0 "$killed"
check "no final outputs after the kill" "no" "$([ -e "$tmp/killed/summary.json" ] && echo yes || echo no)"
"$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/killed" --resume --threads 2 >/dev/null 2>&1
check "resume exit code" 1 $?
check "killed + resumed = uninterrupted" "" "$(same_outputs "$tmp/whole" "$tmp/killed")"
"$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/killed" --resume >/dev/null 2>&1
check "resuming a finished run changes nothing" "" "$(same_outputs "$tmp/whole" "$tmp/killed")"

# Three shards, merged.
for i in 0 1 2; do
  "$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/shard$i" --shard "$i/3" --threads 1 >/dev/null 2>&1
done
"$geotruth" merge "$tmp/shard0" "$tmp/shard1" "$tmp/shard2" -o "$tmp/merged" >/dev/null 2>&1
check "merge exit code" 0 $?
check "merged shards = one run" "" "$(same_outputs "$tmp/whole" "$tmp/merged")"
"$geotruth" audit "$tmp/dataset.jsonl" -o "$tmp/bad" --shard 3/3 >/dev/null 2>&1
check "bad --shard exit code" 2 $?

# filter: strict keeps only all-ok scenes, lenient also ambiguous and unsupported ones.
"$geotruth" filter "$fixtures/audit_planted.jsonl" --keep "$tmp/strict_keep.jsonl" --reject "$tmp/strict_reject.jsonl" \
  >/dev/null 2>&1
check "filter exit code with a broken line" 1 $?
check "strict keeps" 1 "$(wc -l <"$tmp/strict_keep.jsonl")"
check "strict rejects (with the broken line)" 10 "$(wc -l <"$tmp/strict_reject.jsonl")"
check "kept lines are the input bytes" "$(head -1 "$fixtures/audit_planted.jsonl")" "$(cat "$tmp/strict_keep.jsonl")"
"$geotruth" filter "$fixtures/audit_planted.jsonl" --keep "$tmp/lenient_keep.jsonl" \
  --reject "$tmp/lenient_reject.jsonl" --policy lenient >/dev/null 2>&1
check "lenient keeps ok, ambiguous, unsupported" 3 "$(wc -l <"$tmp/lenient_keep.jsonl")"
check "rejected lines keep their reasons" 1 "$(grep -c '"id":"wrong-segments".*wrong_answer' "$tmp/lenient_reject.jsonl")"

# One answer in every command (issue 29): "how many labels are left of the chair?" whose count an
# ambiguous label (2 px from the chair's centre line) moves to another option is ambiguous in
# analyze, count, audit, filter and score; the control (the 2 px entity is an icon, not a label:
# the count cannot change) is ok everywhere. Expected, scene by scene: ambiguous, ambiguous, ok.
chair="$fixtures/chair_count_ambiguous.jsonl"
flags() { /usr/bin/python3 -c 'import json, sys
print(" ".join(str(t["ambiguous"]).lower() for l in sys.stdin if l.strip() for t in json.loads(l)["truths"]))'; }
check "analyze: ambiguous truths" "true true false" "$("$geotruth" analyze "$chair" 2>/dev/null | flags)"
check "count: ambiguous truths" "true true false" "$("$geotruth" count "$chair" 2>/dev/null | flags)"
"$geotruth" audit "$chair" -o "$tmp/chair" --no-progress >/dev/null 2>&1
check "audit exit code" 0 $?
check "audit: verdicts" "ambiguous ambiguous ok" \
  "$(/usr/bin/python3 -c 'import json, sys
print(" ".join(json.loads(l)["verdict"] for l in open(sys.argv[1])))' "$tmp/chair/verdicts.jsonl")"
check "audit: the reason names the label" 2 "$(grep -c 'ambiguous_fact.*left_of (plant, chair)' "$tmp/chair/verdicts.jsonl")"
"$geotruth" filter "$chair" --keep "$tmp/chair_keep.jsonl" --reject "$tmp/chair_reject.jsonl" >/dev/null 2>&1
check "filter (strict): only the control kept" '"id":"chair-icon-2px"' "$(grep -o '"id":"chair-icon-2px"' "$tmp/chair_keep.jsonl")"
check "filter (strict): two rejected" 2 "$(wc -l <"$tmp/chair_reject.jsonl")"
printf '%s\n' '{"question_id":"chair-left-2px/n-left","response":"B"}' '{"question_id":"chair-right-2px/n-left","response":"A"}' \
  '{"question_id":"chair-icon-2px/n-left","response":"A"}' >"$tmp/chair_model.jsonl"
"$geotruth" score "$chair" --responses "$tmp/chair_model.jsonl" --json "$tmp/chair_scores.json" >/dev/null 2>&1
check "score exit code" 0 $?
check "score: verdicts" "2 1" "$(/usr/bin/python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["verdicts"]; print(v["ambiguous"], v["ok"])' "$tmp/chair_scores.json")"

finish "audit cli"
