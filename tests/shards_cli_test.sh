#!/usr/bin/env bash
# One sharding, one resume, one merge for every batch subcommand: count, analyze, import, render
# and crosscheck split into shards (given to merge in any order) and merged equal one process byte
# for byte (records, pictures, run manifest); a run killed at a checkpoint resumes to the same
# bytes; merge refuses what is not the complete shards of one finished run, and says why.
set -u
geotruth=$(realpath "$1")
fixtures=$(realpath "$2")
data=$(realpath "$3")
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# 25 scenes: every id of data/ twice, 13 records apart (a repeated id falls in another shard).
{
  cat "$data/scenes.jsonl"
  "$geotruth" generate --family diagram -n 1 --seed 8 2>/dev/null
  cat "$data/scenes.jsonl"
} >scenes.jsonl
cp "$fixtures/geometry3k/diagram_logic_forms_sample.json" annot.json
mkdir one sharded
cp scenes.jsonl annot.json one/
cp scenes.jsonl annot.json sharded/

# run SUBCOMMAND OUT ARGS…: in one/ over everything, in sharded/ as 3 shards (0, 2, 1) merged
# from the shards given in another order; then the two trees must be equal.
whole_and_shards() {
  local name=$1 out=$2
  shift 2
  (cd one && "$geotruth" "$@" --resume >/dev/null 2>&1)
  local whole=$?
  for i in 0 2 1; do
    (cd sharded && "$geotruth" "${@//OUT/$name.$i}" --shard $i/3 --resume >/dev/null 2>&1)
  done
  (cd sharded && "$geotruth" merge $(ls -d "$name".* | sort -r) -o "$out" ${MERGE_ARGS:-} >/dev/null 2>"$name.merge.txt")
  check "$name: merge exit code" 0 $?
  echo "$whole"
}
same() {  # same A B: trees or files equal (hidden files too)
  diff -r "$1" "$2" >/dev/null 2>&1 && echo same || diff -rq "$1" "$2" 2>&1 | head -3
}

code=$(whole_and_shards count counts.jsonl count scenes.jsonl -o OUT)
check "count: one process exit code" 0 "$(tail -1 <<<"$code")"
(cd one && "$geotruth" count scenes.jsonl -o counts.jsonl --resume >/dev/null 2>&1)
check "count: merged = one process" same "$(same one/counts.jsonl sharded/counts.jsonl)"
check "count: merged manifest = one process" same "$(same one/.counts.jsonl.run.json sharded/.counts.jsonl.run.json)"
check "count: the manifest says what wrote it" '"count" "0/1" 25 25' \
  "$(/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(json.dumps(m["subcommand"]), json.dumps(m["shard"]), m["records"]["total"], m["records"]["kept"])' one/.counts.jsonl.run.json)"
"$geotruth" count scenes.jsonl -o plain.jsonl 2>/dev/null
check "count: a run without --resume writes the same records" same "$(same plain.jsonl one/counts.jsonl)"
check "count: ... and no manifest, checkpoint or lock" 0 "$(ls -A | grep -c '^\.plain')"

whole_and_shards analyze analyzed.jsonl analyze scenes.jsonl -o OUT >/dev/null
(cd one && "$geotruth" analyze scenes.jsonl -o analyzed.jsonl --resume >/dev/null 2>&1)
check "analyze: merged = one process" same "$(same one/analyzed.jsonl sharded/analyzed.jsonl)"

whole_and_shards import imported.jsonl import --from geometry3k annot.json -o OUT >/dev/null
(cd one && "$geotruth" import --from geometry3k annot.json -o imported.jsonl --resume >/dev/null 2>&1)
check "import: merged = one process" same "$(same one/imported.jsonl sharded/imported.jsonl)"
check "import: merged manifest = one process" same "$(same one/.imported.jsonl.run.json sharded/.imported.jsonl.run.json)"

whole_and_shards render images render scenes.jsonl -o OUT >/dev/null
(cd one && "$geotruth" render scenes.jsonl -o images --resume >/dev/null 2>&1)
check "render: merged = one process (images, records, manifest)" same "$(same one/images sharded/images)"
check "render: an image for each of the 25 scenes" 25 "$(ls sharded/images/*.png | wc -l)"
check "render: a repeat in another shard named by its place in the whole input" 1 \
  "$(grep -c '"image":"images/tangram-inscribed-triangle-line14.png"}$' sharded/images/records.jsonl)"

MERGE_ARGS="--overlay overlays" whole_and_shards crosscheck checks.jsonl crosscheck scenes.jsonl -o OUT \
  --overlay ov.OUT >/dev/null
(cd one && "$geotruth" crosscheck scenes.jsonl -o checks.jsonl --overlay overlays --resume >/dev/null 2>&1)
check "crosscheck: merged records = one process" same "$(same one/checks.jsonl sharded/checks.jsonl)"
check "crosscheck: merged overlays = one process" same "$(same one/overlays sharded/overlays)"
check "crosscheck: merged manifest = one process" same "$(same one/.checks.jsonl.run.json sharded/.checks.jsonl.run.json)"
(cd sharded && "$geotruth" merge checks.* -o again.jsonl >/dev/null 2>again.txt)
check "crosscheck: merge without --overlay is refused" 2 $?
check "crosscheck: ... and says which option" 1 "$(grep -c 'give merge --overlay' sharded/again.txt)"

# Killed at a checkpoint, resumed: the same bytes as one uninterrupted run.
(GEOTRUTH_KILL_AT=checkpoint exec "$geotruth" render scenes.jsonl -o killed --checkpoint-every 5 --resume >/dev/null 2>&1)
check "render killed at a checkpoint: SIGKILL" 137 $?
check "render killed: no records published" no "$([ -e killed/records.jsonl ] && echo yes || echo no)"
: >killed/planted.png.tmp.4194999  # what a writer killed mid-picture leaves
"$geotruth" render scenes.jsonl -o killed --checkpoint-every 5 --resume >/dev/null 2>resume.txt
check "render resumed: exit code" 0 $?
check "render resumed: says from where" 1 "$(grep -c '^render: resuming after record 5$' resume.txt)"
sed 's#"image":"killed/#"image":"images/#' killed/records.jsonl >killed.records
check "render resumed: the records of one run" same "$(same killed.records one/images/records.jsonl)"
check "render resumed: the images of one run" "" "$(diff -rq -x records.jsonl -x '.*' killed one/images)"
(GEOTRUTH_KILL_AT=checkpoint exec "$geotruth" count scenes.jsonl -o killed.jsonl --checkpoint-every 7 --resume >/dev/null 2>&1)
"$geotruth" count scenes.jsonl -o killed.jsonl --checkpoint-every 7 --resume >/dev/null 2>&1
check "count resumed: the records of one run" same "$(same killed.jsonl one/counts.jsonl)"
check "count resumed: nothing left beside it" ".killed.jsonl.run.json" "$(ls -A | grep '^\.killed\|killed.jsonl.part' | xargs)"
cp one/counts.jsonl before.jsonl
(cd one && "$geotruth" count scenes.jsonl -o counts.jsonl --resume >/dev/null 2>../again.txt)
check "count: resuming a finished run exits as it did" 0 $?
check "count: ... says so" 1 "$(grep -c 'is already complete' again.txt)"
check "count: ... and changes nothing" same "$(same before.jsonl one/counts.jsonl)"
(cd one && "$geotruth" count scenes.jsonl -o counts.jsonl --resume --mode declared >/dev/null 2>../other.txt)
check "count: resuming with other options is refused" 2 $?
check "count: ... and says why" 1 "$(grep -c 'belongs to a run with other inputs or options' other.txt)"

# merge refuses what is not the complete shards of one run.
(cd sharded && "$geotruth" merge count.0 count.2 -o x.jsonl >/dev/null 2>../missing.txt)
check "merge: a missing shard is refused" 2 $?
check "merge: ... named" 1 "$(grep -c 'shard(s) 1/3 missing' missing.txt)"
(cd sharded && "$geotruth" merge count.0 count.1 count.2 count.1 -o x.jsonl >/dev/null 2>../twice.txt)
check "merge: a shard given twice is refused" 1 "$(grep -c 'shard 1/3 is given twice' twice.txt)"
(cd sharded && "$geotruth" merge count.0 count.1 analyze.2 -o x.jsonl >/dev/null 2>../mixed.txt)
check "merge: shards of other runs are refused" 1 "$(grep -c 'analyze.2 is not a shard of the same run' mixed.txt)"
(GEOTRUTH_KILL_AT=checkpoint exec "$geotruth" count scenes.jsonl -o part.1 --shard 1/3 --checkpoint-every 2 \
  >/dev/null 2>&1)
(cd sharded && "$geotruth" merge count.0 ../part.1 count.2 -o x.jsonl >/dev/null 2>../unfinished.txt)
check "merge: an unfinished shard is refused" 1 "$(grep -c 'part.1 is an unfinished run' unfinished.txt)"
(cd sharded && "$geotruth" merge ../scenes.jsonl -o x.jsonl >/dev/null 2>../plain.txt)
check "merge: a file no run wrote is refused" 1 "$(grep -c 'has no run manifest' plain.txt)"
check "merge: nothing written when refused" no "$([ -e sharded/x.jsonl ] && echo yes || echo no)"
"$geotruth" count scenes.jsonl --shard 0/2 >/dev/null 2>stdout.txt
check "--shard to stdout is a usage error" 2 $?
check "... saying to give -o FILE" 1 "$(grep -c 'give -o FILE' stdout.txt)"
"$geotruth" count scenes.jsonl --shard 2/2 -o x.jsonl >/dev/null 2>&1
check "a bad --shard is a usage error" 2 $?

finish "shards cli"
