#!/usr/bin/env bash
# The command-line contract: records in = records out, exit codes 0 / 1 / 2, --help everywhere.
set -u
geotruth="$1"
fixtures="$2"
failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: expected '$2', got '$3'"
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}
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
"$geotruth" analyze "$fixtures/two_valid_three_bad.jsonl" 2>/dev/null | grep -v '"error"' |
  sed -e 's/^{"line":[0-9]*,"id":"[^"]*","scene"://' -e 's/}$//' >"$tmp/normalized.jsonl"
"$geotruth" analyze "$tmp/normalized.jsonl" 2>/dev/null |
  sed -e 's/^{"line":[0-9]*,"id":"[^"]*","scene"://' -e 's/}$//' >"$tmp/again.jsonl"
check "normalized round trip" "" "$(diff "$tmp/normalized.jsonl" "$tmp/again.jsonl")"

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

if [ "$failures" -ne 0 ]; then
  echo "cli: $failures checks failed"
  exit 1
fi
echo "cli: all checks passed"
