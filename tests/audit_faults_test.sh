#!/usr/bin/env bash
# Faults leave a clear state: an audit killed at every phase resumes to the bytes of an
# uninterrupted run; a poisoned record inside a batch leaves the others audited; two audits into
# one directory: the second refuses, naming the first; a full disk and /dev/full exit non-zero
# with the reason and leave no temporary file; an input changed in place is refused on --resume.
set -u
geotruth=$(realpath "$1")
bad_inputs=$(realpath -m "$2")  # ../shared/bad-inputs; its cases are skipped when absent
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"

"$geotruth" generate -n 300 --seed 11 >data.jsonl 2>/dev/null
"$geotruth" audit data.jsonl -o clean --threads 2 >/dev/null 2>&1
check "reference run" 0 $?

# Killed at each phase (SIGKILL through the GEOTRUTH_KILL_AT test hook), then resumed.
for phase in checkpoint finishing complete renaming renamed published; do
  rm -rf run
  (GEOTRUTH_KILL_AT=$phase exec "$geotruth" audit data.jsonl -o run --checkpoint-every 50 --threads 2 >/dev/null 2>&1)
  check "killed at $phase: the process died by SIGKILL" 137 $?
  "$geotruth" audit data.jsonl -o run --checkpoint-every 50 --threads 2 --resume >/dev/null 2>"resume-$phase.txt"
  check "killed at $phase: --resume exits 0" 0 $?
  same=yes
  for f in verdicts.jsonl scenes.jsonl flagged.jsonl summary.json; do cmp -s "clean/$f" "run/$f" || same="no ($f)"; done
  check "killed at $phase: resumed outputs equal an uninterrupted run" yes "$same"
  check "killed at $phase: no checkpoint, .part, .tmp or lock left" 0 "$(ls -A run | grep -c '\.part$\|\.tmp$\|^\.checkpoint\|^\.lock$')"
done

# A poisoned record (a zero-area polygon, a repeated link point) at line 201 of 300.
if [ -d "$bad_inputs" ]; then
  for poison in crash-fpe-degenerate-polygon crash-fpe-link-repeated-path-point; do
    { head -200 data.jsonl; cat "$bad_inputs/$poison.jsonl"; tail -n +201 data.jsonl; } >poisoned.jsonl
    rm -rf p
    "$geotruth" audit poisoned.jsonl -o p --checkpoint-every 50 >/dev/null 2>&1
    rc=$?
    [ "$rc" -le 1 ] && rc=ok
    check "$poison inside a batch: exit 0 or 1" ok "$rc"
    check "$poison inside a batch: every record has its line" 301 "$(wc -l <p/scenes.jsonl)"
    audited=$(grep -vc '"error"' p/scenes.jsonl)
    [ "$audited" -ge 300 ] && audited=300  # the poisoned one is audited too where it is legal
    check "$poison inside a batch: the 300 others audited" 300 "$audited"
  done
fi

# Two audits into one directory: the second refuses and names the first. The first is held
# in place deterministically: this shell holds DIR/.lock (flock on fd 9) as a running audit
# would, naming itself.
mkdir -p shared
echo "pid 424242" >shared/.lock
exec 9<>shared/.lock
flock -n 9
"$geotruth" audit data.jsonl -o shared >/dev/null 2>second.txt
check "second audit into a busy directory exits 2" 2 $?
check "second audit names the first" 1 "$(grep -c 'in use by another audit (pid 424242)' second.txt)"
check "second audit wrote nothing" 0 "$(ls shared | wc -l)"
exec 9>&-
"$geotruth" audit data.jsonl -o shared >/dev/null 2>&1
check "once free, the directory takes a run" 0 $?
check "the directory holds that run only" 300 "$(wc -l <shared/scenes.jsonl)"

# An input edited in place (same size) is refused on --resume.
rm -rf edit
cp data.jsonl edit.jsonl
(GEOTRUTH_KILL_AT=checkpoint exec "$geotruth" audit edit.jsonl -o edit --checkpoint-every 50 >/dev/null 2>&1)
sed -i '1s/"id":"\(.\)/"id":"X/' edit.jsonl
"$geotruth" audit edit.jsonl -o edit --resume >/dev/null 2>edit.txt
check "changed input: --resume exits 2" 2 $?
check "changed input: says the content changed" 1 "$(grep -c 'content has changed' edit.txt)"

# Write errors: /dev/full, and a full file system (a small tmpfs, where mounting is allowed).
"$geotruth" analyze data.jsonl >/dev/full 2>full.txt
check "analyze > /dev/full exits 2" 2 $?
check "analyze > /dev/full says why" 1 "$(grep -c 'cannot write standard output: No space left on device' full.txt)"
mkdir full
if mount -t tmpfs -o size=12k tmpfs full 2>/dev/null; then
  "$geotruth" audit data.jsonl -o full/out >/dev/null 2>disk.txt
  check "audit on a full disk exits 2" 2 $?
  check "audit on a full disk says why" 1 "$(grep -c 'No space left on device' disk.txt)"
  check "audit on a full disk leaves no .tmp file" 0 "$(ls -A full/out | grep -c '\.tmp$')"
  umount full
else
  echo "skip: cannot mount a tmpfs here (full-disk case)"
fi

# A directory as input is a usage error.
mkdir adir
"$geotruth" analyze adir >/dev/null 2>dir.txt
check "a directory as input exits 2" 2 $?
check "a directory as input says so" 1 "$(grep -c 'is a directory' dir.txt)"

finish "audit faults"
