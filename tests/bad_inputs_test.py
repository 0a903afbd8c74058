"""Every case in tests/bad_inputs gives the record or error its expected.json names, through
`analyze` and through `audit`: exit 0 or 1, never a signal, never past 30 s.

Usage: bad_inputs_test.py GEOTRUTH BAD_INPUTS_DIR"""
import json
import os
import subprocess
import sys
import tempfile

geotruth, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
expected = json.load(open(os.path.join(folder, "expected.json"), encoding="utf-8"))
failures = 0


def fail(case, what):
    global failures
    failures += 1
    print(f"FAIL: {case}: {what}")


def arguments(case):
    fmt = next((k for k in ("geometry3k", "pgdp", "linelist", "gepbench") if f".{k}." in case), "native")
    args = ["--from", fmt, os.path.join(folder, case)]
    if fmt == "gepbench":
        args.append(os.path.join(folder, case[: -len(".json")] + ".vqa.jsonl"))
    return args


for case, want in sorted(expected.items()):
    try:
        run = subprocess.run([geotruth, "analyze", *arguments(case)], capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        fail(case, "analyze ran past 30 s")
        continue
    if run.returncode < 0:
        fail(case, f"analyze died by signal {-run.returncode}")
        continue
    if run.returncode != want["exit"]:
        fail(case, f"analyze exit {run.returncode}, expected {want['exit']}")
    records = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    if not records:
        fail(case, "no output record")
        continue
    error = records[0].get("error")
    if "pointer" in want:
        if not error:
            fail(case, "expected an error record, got a scene")
        elif error["pointer"] != want["pointer"] or want["message"] not in error["message"]:
            fail(case, f"got {error}, expected pointer {want['pointer']!r} and {want['message']!r}")
    elif error:
        fail(case, f"expected a scene record, got the error {error}")
    for line in run.stderr.decode("utf-8", "replace").splitlines():
        if any(ord(c) < 0x20 and c != "\t" for c in line):
            fail(case, f"a control character in a diagnostic: {line!r}")
    with tempfile.TemporaryDirectory() as out:
        try:
            audit = subprocess.run([geotruth, "audit", *arguments(case), "-o", out], capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            fail(case, "audit ran past 30 s")
            continue
        if audit.returncode not in (0, 1):
            fail(case, f"audit exit {audit.returncode}: {audit.stderr.decode('utf-8', 'replace')[-300:]}")

print(f"bad inputs: {len(expected) - failures} of {len(expected)} cases as expected")
sys.exit(1 if failures else 0)
