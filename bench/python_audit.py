#!/usr/bin/env python3
"""Throughput of geotruth.audit (Python) against geotruth audit (the command) on one file.

Usage: PYTHONPATH=build/python python3 bench/python_audit.py GEOTRUTH_BINARY SCENES.jsonl [THREADS...]

For each thread count, the median of 3 runs of: the command auditing the file into a directory
(verdicts, scenes, summary, report); geotruth.audit(path) consumed to the end; and
geotruth.audit(dicts) over the scenes already loaded with json.loads (loading timed apart)."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import geotruth

binary, path, *thread_counts = sys.argv[1:]
thread_counts = [int(t) for t in thread_counts] or [2, 1]


def median_seconds(run, repeat=3):
    times = []
    for _ in range(repeat):
        begin = time.perf_counter()
        run()
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


begin = time.perf_counter()
with open(path) as f:
    scenes = [json.loads(line) for line in f if line.strip()]
load = time.perf_counter() - begin
questions = sum(len(s.get("questions", [])) for s in scenes)
print(f"{path}: {len(scenes)} scenes, {questions} questions; json.loads of the file: {load:.2f} s")
with tempfile.TemporaryDirectory() as work:
    for threads in thread_counts:
        out = os.path.join(work, f"audit{threads}")

        def command():
            subprocess.run([binary, "audit", path, "-o", out, "--threads", str(threads), "--no-progress"],
                           check=True, capture_output=True)
            subprocess.run(["rm", "-rf", out], check=True)

        def from_path():
            assert sum(1 for _ in geotruth.audit(path, threads=threads)) == questions

        def from_dicts():
            assert sum(1 for _ in geotruth.audit(scenes, threads=threads)) == questions

        cli = median_seconds(command)
        py_path = median_seconds(from_path)
        py_dicts = median_seconds(from_dicts)
        for name, seconds in (("geotruth audit", cli), ("geotruth.audit(path)", py_path),
                              ("geotruth.audit(dicts)", py_dicts)):
            print(f"{threads} thread(s)  {name:22} {seconds:6.2f} s  {len(scenes) / seconds:8.0f} scenes/s"
                  f"  {seconds / cli:5.2f}× the command's time")
