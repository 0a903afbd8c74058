#!/usr/bin/env python3
"""Throughput of geotruth.audit (Python) against geotruth audit (the command) on one file.

Usage: PYTHONPATH=build/python python3 bench/python_audit.py GEOTRUTH_BINARY SCENES.jsonl [THREADS...]

For each thread count, the median of 3 runs of: the command auditing the file into a directory
(verdicts, scenes, summary, report); geotruth.audit(path) consumed to the end; and
geotruth.audit(dicts) over the scenes already loaded with json.loads (loading timed apart).
Wall time, and CPU time (user + system, of the command's process or of this one): on a machine
shared with other work, CPU time is the steadier measure of the work each way costs."""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import geotruth

binary, path, *thread_counts = sys.argv[1:]
thread_counts = [int(t) for t in thread_counts] or [2, 1]


def cpu_seconds():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def median_seconds(run, repeat=3):
    """Median wall and CPU seconds of `repeat` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        begin, cpu = time.perf_counter(), cpu_seconds()
        run()
        walls.append(time.perf_counter() - begin)
        cpus.append(cpu_seconds() - cpu)
    return statistics.median(walls), statistics.median(cpus)


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
        for name, (wall, cpu) in (("geotruth audit", cli), ("geotruth.audit(path)", py_path),
                                  ("geotruth.audit(dicts)", py_dicts)):
            print(f"{threads} thread(s)  {name:22} {wall:6.2f} s wall ({len(scenes) / wall:5.0f} scenes/s,"
                  f" {wall / cli[0]:4.2f}× the command's)  {cpu:6.2f} s CPU ({cpu / cli[1]:4.2f}×)")
