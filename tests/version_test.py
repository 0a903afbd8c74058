"""Which build made an output: `geotruth --version` prints the version and the commit (the checkout's
HEAD, "+modified" when tracked files differed), and summary.json, bands.json and every run's
signature (.run.json) record the same {"version", "commit"}.

Usage: version_test.py GEOTRUTH SOURCE_DIR WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

geotruth, source, work = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
passed = 0


def check(condition, what):
    global passed
    passed += bool(condition)
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)


version = re.search(r"project\(geotruth VERSION ([0-9.]+)", open(os.path.join(source, "CMakeLists.txt")).read())[1]
git = subprocess.run(["git", "-C", source, "rev-parse", "--show-toplevel", "HEAD"], capture_output=True, text=True)
head = None
if git.returncode == 0 and os.path.realpath(git.stdout.split()[0]) == os.path.realpath(source):
    head = git.stdout.split()[1]

for executable in (geotruth, os.path.join(os.path.dirname(geotruth), "geotruth-parallel")):
    line = subprocess.run([executable, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    match = re.fullmatch(r"geotruth ([0-9.]+) \(commit (?:([0-9a-f]{40})(\+modified)?|unknown: not built from a git "
                         r"checkout)\)", line)
    check(match is not None, f"{executable} --version: {line!r}")
    if match:
        check(match[1] == version, f"--version names {match[1]}, CMakeLists.txt {version}")
        check(match[2] == head, f"--version names commit {match[2]}, the checkout is at {head}")
        commit = None if match[2] is None else match[2] + (match[3] or "")
built = {"version": version, "commit": commit}

subprocess.run([geotruth, "audit", os.path.join(source, "data", "scenes.jsonl"), "-o", os.path.join(work, "audit")],
               capture_output=True, check=True)
for name in ("summary.json", "bands.json", ".run.json"):
    file = os.path.join(work, "audit", name)
    if name == ".run.json" and not os.path.exists(file):
        continue
    record = json.load(open(file))
    check(record.get("geotruth") == built, f"{name}: geotruth {record.get('geotruth')}, expected {built}")
subprocess.run([geotruth, "count", os.path.join(source, "data", "scenes.jsonl"), "--shard", "1/2", "-o",
                os.path.join(work, "counts.jsonl")], capture_output=True, check=True)
manifest = json.load(open(os.path.join(work, ".counts.jsonl.run.json")))
check(manifest.get("geotruth") == built, f"a run's signature: geotruth {manifest.get('geotruth')}, expected {built}")

print(f"version: {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
