#!/usr/bin/env bash
# Regressions of crosscheck (and the other batch subcommands) on several inputs: every record names
# its own file and its line there, also with a folder as input; a scene that draws nothing (VisOnlyQA
# 3D items) is "unchecked" with agree null and its reason, counted apart, and no disagreement.
# Fixtures: tests/fixtures/places (our own items; line 2 of each second file is blank, line 3 broken).
set -u
geotruth=$(realpath "$1")
places="$2/places"
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3

# The place of every error record of a JSONL file, "file:line" per line.
error_places() {
  "$py" -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "error" in r: print(r["file"] + ":" + str(r["line"]))' "$1"
}
# A field of every non-error record, one per line (null for JSON null).
field() {
  "$py" -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "error" not in r: print(json.dumps(r.get(sys.argv[2])))' "$1" "$2"
}

first="$places/visonlyqa/3d__size_first.jsonl"
second="$places/visonlyqa/3d__size_second.jsonl"

"$geotruth" crosscheck --from visonlyqa "$first" "$second" -o "$tmp/cc.jsonl" 2>"$tmp/cc.err"
check "crosscheck two files: an error record, exit 1" 1 $?
check "crosscheck two files: the error names the second file and its line" "$second:3" "$(error_places "$tmp/cc.jsonl")"
check "crosscheck two files: one record per item" 5 "$(wc -l <"$tmp/cc.jsonl")"
check "crosscheck: 3D items unchecked" "unchecked unchecked unchecked unchecked" \
  "$(field "$tmp/cc.jsonl" status | tr -d '"' | xargs)"
check "crosscheck: 3D items agree null" "null null null null" "$(field "$tmp/cc.jsonl" agree | xargs)"
check "crosscheck: the reason names the 3D task" 4 "$(grep -c '"reason":"the scene draws nothing: .*3D task' "$tmp/cc.jsonl")"
check "crosscheck: summary counts them apart" 1 \
  "$(grep -c '^crosscheck: 5 records, 0 checked, 0 agree, 0 disagree, 4 unchecked (the scene draws nothing), 1 errors' "$tmp/cc.err")"
check "crosscheck: diagnostic at the second file's line" 1 "$(grep -c "^$second:3: " "$tmp/cc.err")"

# The folder holding both files as the input, with --image (no picture is looked for a scene that
# draws nothing: the folder has none).
"$geotruth" crosscheck --from visonlyqa "$places/visonlyqa" --image "$places/visonlyqa" -o "$tmp/dir.jsonl" 2>/dev/null
check "crosscheck folder: exit 1 (the broken line)" 1 $?
check "crosscheck folder: the error names the second file and its line" "$second:3" \
  "$(error_places "$tmp/dir.jsonl" | sed 's#//*#/#g')"
check "crosscheck folder: no picture errors for unchecked items" 1 "$(grep -c '"error"' "$tmp/dir.jsonl")"

# Unchecked items alone: not a disagreement (exit 0), also when the finished run is asked again.
"$geotruth" crosscheck --from visonlyqa "$first" --image "$tmp/nowhere" -o "$tmp/only.jsonl" 2>/dev/null
check "crosscheck: unchecked only, exit 0" 0 $?
"$geotruth" crosscheck --from visonlyqa "$first" --image "$tmp/nowhere" -o "$tmp/only.jsonl" 2>/dev/null
check "crosscheck: the finished run again, exit 0" 0 $?

# Native JSONL, two files, through crosscheck, count and import.
nfirst="$places/native/first.jsonl"
nsecond="$places/native/second.jsonl"
"$geotruth" crosscheck "$nfirst" "$nsecond" -o "$tmp/ncc.jsonl" 2>/dev/null
check "crosscheck native: the error names the second file and its line" "$nsecond:3" "$(error_places "$tmp/ncc.jsonl")"
check "crosscheck native: line 4 of the second file" 4 "$(grep '"id":"second-4"' "$tmp/ncc.jsonl" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["line"])')"
"$geotruth" count "$nfirst" "$nsecond" >"$tmp/count.jsonl" 2>/dev/null
check "count native: the error names the second file and its line" "$nsecond:3" "$(error_places "$tmp/count.jsonl")"
"$geotruth" import --from visonlyqa "$first" "$second" -o "$tmp/import.jsonl" 2>"$tmp/import.err"
check "import visonlyqa: the error names the second file and its line" "$second:3" "$(error_places "$tmp/import.jsonl")"
"$geotruth" count --from visonlyqa "$places/visonlyqa" >"$tmp/vcount.jsonl" 2>/dev/null
check "count visonlyqa folder: the error names the second file and its line" "$second:3" \
  "$(error_places "$tmp/vcount.jsonl" | sed 's#//*#/#g')"

"$geotruth" audit --from visonlyqa "$places/visonlyqa" -o "$tmp/audit" --no-progress >/dev/null 2>&1
check "audit visonlyqa folder: the error names the second file and its line" "$second:3" \
  "$(error_places "$tmp/audit/scenes.jsonl" | sed 's#//*#/#g')"

# A whole-file import reads the bytes as they are: a blank line (which ends a line list's figure)
# is not lost on the way.
"$geotruth" import --from linelist "$places/linelist_blank_line_ends_figure.txt" -o "$tmp/ll.jsonl" 2>/dev/null
check "import linelist: a blank line ends the figure" 2 "$(wc -l <"$tmp/ll.jsonl")"

finish crosscheck_places
