#!/usr/bin/env python3
"""scripts/bench's table: each workload of issue 19 timed against its anchor, both run here, now,
as a ratio of medians (CPU time = user + system of the process and its children, from wait4;
wall time where the row is about using cores). Prints one row per workload and exits 1 when a
row misses its target.

Usage: table.py BUILD_DIR [--runs N]   (BUILD_DIR holds geotruth and bench/ with the anchors)
Environment: COUNTSHAPES=/path/to/binary adds the line-list row's anchor: a build of
CountShapes (FlorinTulba/Recoded) whose main reads the figure file named by its first argument
and counts it once (the repository's own main reads a fixed file 100 times)."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = ("startup", "geometry3k", "chords", "linelist", "render", "read", "audit", "generate")
ROOT = os.path.dirname(HERE)


def run(cmd):
    """One run: (wall s, CPU s). posix_spawn, not fork, so the copying of this script's memory is
    not counted in the child's time."""
    devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(shutil.which(cmd[0]) or cmd[0], cmd, os.environ, file_actions=devnull)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1, 3):  # 1: some records are errors; 3: crosscheck found a disagreement
        raise SystemExit("bench: %s exited %d" % (" ".join(cmd), code))
    return wall, usage.ru_utime + usage.ru_stime


def run_pair(cmds):
    """Two commands at once: (wall s until both ended, CPU s of both)."""
    devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    start = time.perf_counter()
    pids = [os.posix_spawn(shutil.which(c[0]) or c[0], c, os.environ, file_actions=devnull) for c in cmds]
    cpu = 0.0
    for pid in pids:
        _, _, usage = os.wait4(pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu


def machine_pair(one_thread, runs, before=None):
    """The machine's own scaling, measured now: two 1-thread runs at once (`one_thread(k)` for k = 0,
    1: its two output places) against one; (throughput ratio, CPU ratio per run), medians."""
    walls1, cpus1, walls2, cpus2 = [], [], [], []
    for _ in range(runs):
        if before:
            before()
        w, c = run(one_thread(0))
        walls1.append(w), cpus1.append(c)
        if before:
            before()
        w, c = run_pair([one_thread(0), one_thread(1)])
        walls2.append(w), cpus2.append(c)
    median = statistics.median
    return 2 * median(walls1) / median(walls2), median(cpus2) / 2 / median(cpus1)


def peak_rss(cmd):
    """Max RSS in MiB, through GNU time: a child of this script would count the script's own
    memory, shared until it execs, in its peak."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True).stderr
    return int(out.strip().splitlines()[-1]) / 1024


def median_of(cmd, runs, before=None):
    """Medians of `runs` runs (wall s, CPU s) and the peak RSS of one more run."""
    walls, cpus = [], []
    for _ in range(runs + 1):
        if before:
            before()
        if len(walls) == runs:
            return statistics.median(walls), statistics.median(cpus), peak_rss(cmd)
        w, c = run(cmd)
        walls.append(w), cpus.append(c)


def two_threads(one, two, pair, target=1.7, cpu_most=None):
    """The cells of a `--threads 2` vs `--threads 1` row from their medians (wall s, CPU s): the wall
    ratio (how much faster) beside the CPU ratio (how much more CPU the two threads use in all), and
    in the anchor's cell what two 1-thread processes at once got on the machine at the time
    (machine_pair): a machine whose two cores do not run two processes at 1.9× cannot run two
    threads at that either."""
    (wall1, cpu1), (wall2, cpu2) = one, two
    speed, cpu = wall1 / wall2, cpu2 / cpu1
    today = "%.2f s wall, %.2f s CPU (1 thread: %.2f s wall, %.2f s CPU)" % (wall2, cpu2, wall1, cpu1)
    anchor = "its own 1-thread run; two 1-thread runs at once: %.2f× the throughput, CPU %.2f× a run" % pair
    goal = "≥ %.1f× wall" % target + ("; CPU ≤ %.2f×" % cpu_most if cpu_most else "")
    return today, anchor, "%.2f× wall, CPU %.2f×" % (speed, cpu), goal, speed >= target and (not cpu_most or
                                                                                             cpu <= cpu_most)


class Table:
    def __init__(self):
        self.rows, self.failed = [], 0

    def row(self, workload, today, anchor, ratio, target, ok):
        self.rows.append((workload, today, anchor, ratio, target, "yes" if ok else "NO"))
        self.failed += not ok
        print("  %s: %s | %s | %s | %s | %s" % self.rows[-1], file=sys.stderr, flush=True)

    def print(self):
        head = ("workload", "geotruth", "anchor (same run)", "ratio", "target", "met")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in self.rows:
            print("| " + " | ".join(r) + " |")


def ms(seconds):
    return "%.1f ms" % (seconds * 1000)


def shared_objects(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", action="append", choices=ROWS,
                        help="run only these rows (repeatable; default: all)")
    args = parser.parse_args()
    want = lambda row: not args.only or row in args.only
    runs = max(3, args.runs)
    gt = os.path.join(args.build, "geotruth")
    anchor = lambda name: os.path.join(args.build, "bench", name)
    work = tempfile.mkdtemp(prefix="geotruth-bench-")
    table = Table()
    path = lambda name: os.path.join(work, name)
    fresh = lambda d: lambda: (shutil.rmtree(path(d), ignore_errors=True), os.makedirs(path(d)))
    try:
        # 1. Start-up: analyze a one-point scene vs reading and writing that line with nlohmann/json.
        if want("startup"):
            with open(path("one.jsonl"), "w") as f:
                f.write('{"id":"t","points":[{"id":"A","at":[1,2]}]}\n')
            _, cpu, rss = median_of([gt, "analyze", path("one.jsonl")], 5 * runs)
            _, anchor_cpu, _ = median_of([anchor("json_anchor"), path("one.jsonl")], 5 * runs)
            ratio = cpu / anchor_cpu
            table.row("start-up: `analyze` of a one-point scene",
                      "%s CPU, %.1f MiB, %d shared objects" % (ms(cpu), rss, shared_objects(gt)),
                      "nlohmann/json read-write: %s" % ms(anchor_cpu), "%.2f×" % ratio, "≤ 3×, ≤ 20 MiB",
                      ratio <= 3 and rss <= 20)

        # 2. Geometry3K, 3,002 diagrams (and 4× that, for memory) vs an independent Python count.
        if want("geometry3k"):
            sample = json.load(open(os.path.join(ROOT, "tests/fixtures/geometry3k/diagram_logic_forms_sample.json")))
            problems = list(sample.values())
            for n, name in ((3002, "g3k.json"), (4 * 3002, "g3k4.json")):
                json.dump({str(i): problems[i % len(problems)] for i in range(n)}, open(path(name), "w"))
            # The band fixed at Geometry3K's default, as the Python count has it (auto would read the file twice).
            count = lambda name: [gt, "count", "--from", "geometry3k", "--mode", "declared", "--eps-num", "1.5",
                                  "--eps-vis", "4", path(name)]
            _, cpu, rss = median_of(count("g3k.json"), runs)
            _, _, rss4 = median_of(count("g3k4.json"), 1)
            python = [sys.executable, os.path.join(HERE, "geometry3k_counts.py"), path("g3k.json")]
            _, py_cpu, _ = median_of(python, runs)
            mine = {r["id"]: r for r in map(json.loads, subprocess.run(count("g3k.json"), capture_output=True,
                                                                           text=True).stdout.splitlines())}
            theirs = [json.loads(l) for l in subprocess.run(python, capture_output=True, text=True).stdout.splitlines()]
            keys = ("letters", "circles", "segments", "triangles")
            agree = sum(all(mine[r["key"]].get(k) == r[k] for k in keys) for r in theirs)
            ratio = py_cpu / cpu
            table.row("Geometry3K file, 3,002 diagrams, `count --mode declared` (band 1.5/4 px)",
                      "%.2f s CPU, %.1f MiB (4× the file: %.1f MiB)" % (cpu, rss, rss4),
                      "Python count: %.2f s (same counts on %d of %d)" % (py_cpu, agree, len(theirs)),
                      "%.1f× faster" % ratio, "≥ 30× faster, memory flat", ratio >= 30 and rss4 <= 1.15 * rss)

        # 3. 1,000 random chords of a 640 px frame, geometric mode vs CGAL's Arrangement_2.
        if want("chords"):
            with open(path("chords.jsonl"), "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "random_chords.py"), "1000", "1"], stdout=f, check=True)
            _, cpu, _ = median_of([gt, "count", "--mode", "geometric", "--max-seconds", "1000", path("chords.jsonl")], runs)
            _, cgal_cpu, _ = median_of([anchor("arrangement_anchor"), path("chords.jsonl")], runs)
            ratio = cpu / cgal_cpu
            table.row("1,000 random chords, `count --mode geometric`", "%.2f s CPU" % cpu,
                      "CGAL Arrangement_2: %.2f s" % cgal_cpu, "%.2f×" % ratio, "≤ 2×", ratio <= 2)

        # 4. Line-list figures vs CountShapes (only when given a binary).
        if want("linelist"):
            countshapes = os.environ.get("COUNTSHAPES")
            for n in (10, 20, 40, 60):
                with open(path("lines%d.txt" % n), "w") as f:
                    subprocess.run([sys.executable, os.path.join(HERE, "line_figure.py"), str(n), "1"], stdout=f, check=True)
                # A small figure is counted in a few milliseconds, mostly process start: as many runs as the start-up row.
                reps = 5 * runs if n <= 20 else runs
                _, cpu, _ = median_of([gt, "count", "--from", "linelist", "--any-vertex", "--quadrilaterals",
                                       path("lines%d.txt" % n)], reps)
                if not countshapes:
                    table.row("line list, %d lines in general position" % n, "%s CPU" % ms(cpu),
                              "CountShapes: not given (set COUNTSHAPES)", "–", "faster", True)
                    continue
                _, cs_cpu, _ = median_of([countshapes, path("lines%d.txt" % n)], reps)
                table.row("line list, %d lines in general position" % n, "%s CPU" % ms(cpu),
                          "CountShapes: %s" % ms(cs_cpu), "%.1f× faster" % (cs_cpu / cpu), "faster", cpu < cs_cpu)

        # 5. render, 200 GePBench scenes: images per CPU-second vs a minimal cairo program; 2 threads.
        if want("render"):
            with open(path("gep.jsonl"), "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "gepbench_scenes.py"), "200", "1"], stdout=f, check=True)
            render = lambda threads, fmt="png", out="img": [gt, "render", path("gep.jsonl"), "-o", path(out),
                                                            "--threads", str(threads), "--format", fmt]
            wall1, cpu1, _ = median_of(render(1), runs, fresh("img"))
            wall2, cpu2, _ = median_of(render(2), runs, fresh("img"))
            _, jpeg_cpu, _ = median_of(render(1, "jpeg"), runs, fresh("img"))
            _, cairo_cpu, _ = median_of([anchor("cairo_anchor"), path("gep.jsonl"), path("cairo")], runs, fresh("cairo"))
            ratio = cairo_cpu / cpu1
            table.row("`render` to PNG, 200 GePBench scenes",
                      "%.0f images/CPU-s (JPEG: %.0f)" % (200 / cpu1, 200 / jpeg_cpu),
                      "cairo program: %.0f images/CPU-s" % (200 / cairo_cpu), "%.2f×" % ratio, "≥ 1×", ratio >= 1)
            pair = machine_pair(lambda k: render(1, out="img%d" % k), runs,
                                lambda: [fresh(d)() for d in ("img0", "img1")])
            table.row("`render --threads 2` vs `--threads 1`", *two_threads((wall1, cpu1), (wall2, cpu2), pair))
            # crosscheck draws each picture and checks it: the same 200 scenes. Its start (loading OpenCV's
            # ~150 shared objects, 0.14 s) is serial: with 100 scenes it was a seventh of a one-thread run,
            # and the row measured the start more than the threads (the start-up row measures that).
            check = lambda threads: [gt, "crosscheck", path("gep.jsonl"), "--threads", str(threads)]
            one = median_of(check(1), runs)[:2]
            two = median_of(check(2), runs)[:2]
            table.row("`crosscheck --threads 2` vs `--threads 1`, 200 GePBench scenes",
                      *two_threads(one, two, machine_pair(lambda k: check(1), runs)))

        # 5b. reading pictures (import --from picture): 200 Tangram pictures of 640 x 640, pictures per
        #     CPU-second on one thread (target: 10, issue 35) and the wall-clock gain of 2 threads.
        if want("read"):
            subprocess.run([gt, "generate", "--family", "tangram", "--level", "medium", "-n", "200", "--seed", "7", "-o",
                            path("tangram.jsonl"), "--render", path("tangram")], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            read = lambda threads: [gt, "import", "--from", "picture", path("tangram"), "-o", path("read.jsonl"),
                                    "--threads", str(threads)]
            wall1, cpu1, _ = median_of(read(1), runs)
            wall2, _, _ = median_of(read(2), runs)
            table.row("`import --from picture`, 200 Tangram pictures 640 × 640", "%.1f pictures/CPU-s" % (200 / cpu1),
                      "10 pictures/CPU-s (issue 35)", "%.2f×" % (200 / cpu1 / 10), "≥ 1×", 200 / cpu1 >= 10)
            table.row("`import --from picture --threads 2` vs `--threads 1`",
                      "%.2f s wall (1 thread: %.2f s)" % (wall2, wall1), "its own 1-thread run",
                      "%.2f×" % (wall1 / wall2), "≥ 1.7×", wall1 / wall2 >= 1.7)

        # 6. audit of 100,000 questions (25,000 scenes): 2 threads vs 1; memory at 4× the data.
        if want("audit"):
            scenes = [json.dumps(s, separators=(",", ":")) for s in tangram_scenes(100000)]
            open(path("audit.jsonl"), "w").write("\n".join(scenes[:25000]) + "\n")
            open(path("audit4.jsonl"), "w").write("\n".join(scenes) + "\n")
            audit = lambda threads, name="audit.jsonl", out="out": [gt, "audit", path(name), "-o", path(out),
                                                                    "--threads", str(threads), "--no-progress"]
            wall1, cpu1, rss1 = median_of(audit(1), runs, fresh("out"))
            wall2, cpu2, rss2 = median_of(audit(2), runs, fresh("out"))
            _, _, rss4 = median_of(audit(2, "audit4.jsonl"), 1, fresh("out"))
            pair = machine_pair(lambda k: audit(1, out="out%d" % k), runs,
                                lambda: [shutil.rmtree(path(d), ignore_errors=True) for d in ("out0", "out1")])
            today, anchor, ratio, goal, ok = two_threads((wall1, cpu1), (wall2, cpu2), pair, cpu_most=1.10)
            table.row("`audit` of 100,000 questions, `--threads 2` vs `--threads 1`",
                      today + "; %.1f MiB (400,000 questions: %.1f MiB)" % (max(rss1, rss2), rss4), anchor, ratio,
                      goal + "; ≤ 32 MiB, flat", ok and max(rss1, rss2, rss4) <= 32)

        # 7. generate: certified GePBench items with their pictures (drawn, encoded, cross-checked) against
        #    ten times the engine's rate, measured with its own settings on this machine kind (issue 30:
        #    rules 25 s + drawing 18 s for 300 easy items, 905 s + 84 s for 300 hard ones).
        if want("generate"):
            for level, n, engine in (("easy", 300, 300 / 43.0), ("hard", 100, 300 / 989.0)):
                gen = lambda threads, out="gen": [gt, "generate", "--family", "gepbench", "--level", level, "-n",
                                                  str(n), "--seed", "1", "-o", path(out + ".jsonl"), "--render",
                                                  path(out + "-img"), "--threads", str(threads)]
                wall1, cpu1, _ = median_of(gen(1), runs, fresh("gen-img"))
                wall2, cpu2, _ = median_of(gen(2), runs, fresh("gen-img"))
                rate = n / wall2
                table.row("`generate --family gepbench --level %s --render`, %d items" % (level, n),
                          "%.1f items/s wall on 2 threads; %.1f ms CPU an item on 1" % (rate, 1000 * cpu1 / n),
                          "the engine: %.2f items/s (rules + drawing)" % engine, "%.1f×" % (rate / engine), "≥ 10×",
                          rate >= 10 * engine)
                pair = machine_pair(lambda k: gen(1, out="gen%d" % k), runs,
                                    lambda: [fresh("gen%d-img" % k)() for k in (0, 1)])
                table.row("`generate --level %s --render --threads 2` vs `--threads 1`" % level,
                          *two_threads((wall1, cpu1), (wall2, cpu2), pair))

    finally:
        shutil.rmtree(work, ignore_errors=True)
    load = os.getloadavg()
    print("machine: %d cores, load average %.2f %.2f %.2f at the end; medians of %d runs (start-up, figures of up to "
          "20 lines: %d)\n"
          % (os.cpu_count(), *load, runs, 5 * runs))
    table.print()
    return 1 if table.failed else 0


def tangram_scenes(n):
    """A triangle with a cevian (4 letters, 6 segments, 3 triangles), four count questions each,
    no two scenes alike (a duplicate scene's id is listed in the summary: memory would follow)."""
    for i in range(n):
        s = i % 97
        ask = lambda qid, of, options, answer: {"id": qid, "ask": "count", "of": of, "options": options,
                                                "answer": answer}
        yield {"id": "g%d" % i,
               "points": [{"id": "A", "at": [200 + i % 241, 50 + (i // 241) % 200]}, {"id": "B", "at": [100, 500]},
                          {"id": "C", "at": [540, 500]}, {"id": "D", "at": ["%d/3" % (960 + 3 * s), 500]}],
               "lines": [{"through": ["A", "B"]}, {"through": ["A", "C"]}, {"through": ["B", "D", "C"]},
                         {"through": ["A", "D"]}],
               "questions": [ask("l", "letters", ["3", "4", "5", "6"], "B"),
                             ask("c", "circles", ["0", "1", "2", "3"], "A"),
                             ask("s", "segments", ["4", "5", "6", "7"], "C"),
                             ask("t", "triangles", ["2", "3", "4", "5"], "B")]}


if __name__ == "__main__":
    sys.exit(main())
