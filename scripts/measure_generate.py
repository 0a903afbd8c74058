#!/usr/bin/python3
"""Measures `geotruth generate` against the done-when of issue 30, with checks that share no code
with geotruth's: on N items of each family and level, made with seeds drawn at random (printed),

  audit      every question `ok`, no scene finding, no duplicate scene (geotruth audit's summary)
  analyze    no truth ambiguous, none unsupported (geotruth analyze)
  counts     Tangram: letters, circles, segments and triangles formed by letters, counted by brute
             force from the coordinates with exact fractions (drawn pieces merged into maximal
             lines, points on them by exact collinearity and betweenness), equal the answers
  relations  GePBench: every declared tangency, parallel, perpendicular, concentric, inscribed,
             circumscribed, diagonal, diameter, axis, shared edge, similar and symmetric pair holds:
             exactly with fractions where the numbers are rational, else in double precision within
             1e-4 px (ellipses, arcs, star tips, regular polygons: their points are irrational)
  letters    answer letters per question kind pass a chi-square test of uniformity (p >= 0.01)
  duplicates no two scenes with the same geometry
  round trip GePBench: import --from gepbench of the written rules.json + vqa.jsonl gives back
             every shape, relation, question, option and answer
  pictures   the written pictures agree with crosscheck (--image); clean, sketchy and noisy
  speed      items per second with rendering: CPU time per item on one thread, wall time with two
             (against 10 times the engine's 7 items/s easy, 0.3 items/s hard)

Usage: scripts/measure_generate.py [--n 2000] [--seeds 3] [--build build] [--out DIR] [--fast]
Exit 1 when a check fails. /usr/bin/python3, standard library only.
"""
import argparse
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

LEVELS = [("gepbench", "easy"), ("gepbench", "hard"), ("tangram", "easy"), ("tangram", "medium"), ("tangram", "hard")]
ENGINE_RATE = {"easy": 300 / 43.0, "hard": 300 / 989.0}  # items/s of the engine (rules + drawing), issue 30
PICTURE_STYLES = {
    "clean": [],
    "sketch": ["--style", "sketch", "--stroke-width", "3"],
    "noisy": ["--gaussian", "12", "--salt-pepper", "0.02"],
}
FLOAT_TOLERANCE_PX = 1e-4

failures = []


def fail(message):
    failures.append(message)
    print("  FAIL " + message, flush=True)


crashes = Counter()  # processes killed by a signal, by subcommand (each was run again)


def run(cmd, check=True, retries=5):
    """Runs cmd; returns (stdout, stderr, wall seconds, CPU seconds of the child). A process killed
    by a signal (the OpenCV EdgeDrawing heap overflow under the cross-check, docs/vision.md) is
    counted and run again: its outputs are the same, every item depending on the seed alone."""
    for attempt in range(retries + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if p.returncode >= 0 or attempt == retries:
            break
        crashes[cmd[1]] += 1
        print(f"  ({' '.join(cmd[1:3])}: killed by signal {-p.returncode}; run again)", flush=True)
    if check and p.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-3000:]}")
    return p.stdout, p.stderr, wall, cpu


def crosscheck_lines(args, scenes_path, extra):
    """crosscheck over a JSONL file in chunks of 200 scenes (a crash costs one chunk)."""
    lines = [l for l in open(scenes_path) if l.strip()]
    out = []
    for k in range(0, len(lines), 200):
        chunk = scenes_path + f".chunk{k}"
        with open(chunk, "w") as f:
            f.writelines(lines[k:k + 200])
        text, _, _, _ = run([args.geotruth, "crosscheck", chunk] + extra, check=False)
        out += [json.loads(l) for l in text.splitlines()]
        os.remove(chunk)
    return out


def generate_sharded(args, base, out, engine, shards):
    """The run as `shards` processes (--shard k/n), joined by `geotruth merge` as docs/scale.md says.
    Native: out/scenes.jsonl and out/figures; the engine's format: out/gep (scenes.jsonl, rules.json,
    vqa.jsonl, vqa/) and out/gep/figures. Returns (stderr texts, wall, CPU)."""
    errs, wall, cpu = [], 0.0, 0.0
    parts = []
    for k in range(shards):
        part = os.path.join(out, f"shard{k}")
        cmd = base + ["--shard", f"{k}/{shards}"]
        if engine:
            cmd += ["--format", "gepbench", "-o", part, "--render", os.path.join(part, "figures")]
        else:
            cmd += ["-o", part + ".jsonl", "--render", os.path.join(part, "figures")]
        _, err, w, c = run(cmd)
        errs.append(err), parts.append(part)
        wall += w
        cpu += c
    geotruth = base[0]
    if engine:
        gep = os.path.join(out, "gep")
        _, _, w, c = run([geotruth, "merge", *parts, "-o", gep, "--render", os.path.join(gep, "figures")])
    else:
        _, _, w, c = run([geotruth, "merge", *[p + ".jsonl" for p in parts], "-o", os.path.join(out, "scenes.jsonl"),
                          "--render", os.path.join(out, "figures")])
    return errs, wall + w, cpu + c


def num(v):
    return Fraction(v) if not isinstance(v, Fraction) else v


def load(path):
    with open(path) as f:
        return [json.loads(line, parse_float=Fraction) for line in f if line.strip()]


def P(v):
    return (num(v[0]), num(v[1]))


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


# --- chi-square ------------------------------------------------------------------------------------
def chi2_p(counts, k=4):
    n = sum(counts)
    if n == 0:
        return 1.0
    e = n / k
    x = sum((c - e) ** 2 / e for c in counts)
    # Survival function of chi-square with 3 degrees of freedom.
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)


def kind_of(q):
    ask = q.get("ask", "")
    if ask == "count":
        return "count/" + q.get("of", "")
    if ask == "size":
        return "size/" + q.get("measure", "")
    if ask == "reference":
        return "reference/" + q.get("criterion", "")
    if ask == "exists":
        return "exists/absent" if q.get("absent") else "exists"
    return ask


# --- Tangram counts from the coordinates -------------------------------------------------------------
def tangram_counts(scene):
    pts = {p["id"]: (P(p["at"]), p.get("label", True)) for p in scene["points"]}
    letters = [i for i, (_, lab) in pts.items() if lab]
    # Drawn pieces: each line's two ends (the through lists are not used).
    pieces = [(pts[l["through"][0]][0], pts[l["through"][-1]][0]) for l in scene.get("lines", [])]

    def collinear(p, a, b):
        return cross(sub(b, a), sub(p, a)) == 0

    def param(p, a, b):
        d = sub(b, a)
        return dot(sub(p, a), d) / dot(d, d)

    # Maximal lines: collinear pieces that overlap or touch, merged until nothing changes.
    lines = [[a, b, Fraction(0), Fraction(1)] for a, b in pieces]
    merged = True
    while merged:
        merged = False
        for i, j in combinations(range(len(lines)), 2):
            a, b, s0, s1 = lines[i]
            c, d, t0, t1 = lines[j]
            if not (collinear(c, a, b) and collinear(d, a, b)):
                continue
            u0 = param((c[0] + t0 * (d[0] - c[0]), c[1] + t0 * (d[1] - c[1])), a, b)
            u1 = param((c[0] + t1 * (d[0] - c[0]), c[1] + t1 * (d[1] - c[1])), a, b)
            u0, u1 = min(u0, u1), max(u0, u1)
            if u0 > s1 or u1 < s0:
                continue
            lines[i] = [a, b, min(s0, u0), max(s1, u1)]
            del lines[j]
            merged = True
            break
    on = []
    for a, b, s0, s1 in lines:
        on.append({i for i in letters if collinear(pts[i][0], a, b) and s0 <= param(pts[i][0], a, b) <= s1})
    segments = sum(len(s) * (len(s) - 1) // 2 for s in on)

    def share(x, y):
        return any(x in s and y in s for s in on)

    triangles = 0
    for x, y, z in combinations(letters, 3):
        if share(x, y) and share(y, z) and share(x, z) and cross(sub(pts[y][0], pts[x][0]), sub(pts[z][0], pts[x][0])) != 0:
            triangles += 1
    return {"letters": len(letters), "circles": len(scene.get("circles", [])), "segments": segments, "triangles": triangles}


def answered(q):
    letter = q["answer"]
    return q["options"][ord(letter) - ord("A")]


# --- GePBench relations ------------------------------------------------------------------------------
PX = 640


def deg(v):
    return float(num(v)) * math.pi / 180


def polygon_points(shape):
    if shape["type"] == "polygon":
        return [P(p) for p in shape["points"]]
    if shape["type"] == "star":  # tips and notches in double
        c = P(shape["center"])
        n = int(shape["num_points"])
        rot = deg(shape.get("rotation", 0))
        out = []
        for k in range(2 * n):
            r = float(num(shape["outer_radius"] if k % 2 == 0 else shape["inner_radius"]))
            t = rot + math.pi * k / n
            out.append((float(c[0]) + r * math.cos(t), float(c[1]) + r * math.sin(t)))
        return out
    return None


def curve(shape):
    """(centre, a, b, theta) of a circle or ellipse (semi-axes), or None."""
    if shape["type"] == "circle" or (shape["type"] == "ellipse" and num(shape["axes"][0]) == num(shape["axes"][1])):
        r = num(shape["radius"]) if "radius" in shape else num(shape["axes"][0])
        return (P(shape["center"]), r, r, 0.0)
    if shape["type"] == "ellipse":
        return (P(shape["center"]), num(shape["axes"][0]), num(shape["axes"][1]), deg(shape.get("rotation", 0)))
    return None


def straight(shape):
    return shape["type"] in ("segment", "ray", "line")


def ends(shape):
    return P(shape["points"][0]), P(shape["points"][1])


def ellipse_support_gap(c, a, b, th, p, d):
    """|distance from the ellipse's centre to the line p + t d| − support, in frame units (double)."""
    nx, ny = -float(d[1]), float(d[0])
    L = math.hypot(nx, ny)
    nx, ny = nx / L, ny / L
    e1 = (math.cos(th), math.sin(th))
    e2 = (-math.sin(th), math.cos(th))
    support = math.sqrt((float(a) * (nx * e1[0] + ny * e1[1])) ** 2 + (float(b) * (nx * e2[0] + ny * e2[1])) ** 2)
    dist = abs(nx * (float(c[0]) - float(p[0])) + ny * (float(c[1]) - float(p[1])))
    return abs(dist - support)


def ellipse_level(c, a, b, th, x):
    """The first-order distance of x from the ellipse |q − 1| / |∇q| (double)."""
    dx, dy = float(x[0]) - float(c[0]), float(x[1]) - float(c[1])
    u = (dx * math.cos(th) + dy * math.sin(th)) / float(a)
    v = (-dx * math.sin(th) + dy * math.cos(th)) / float(b)
    q = u * u + v * v
    gu, gv = 2 * u / float(a), 2 * v / float(b)
    return abs(q - 1) / math.hypot(gu, gv)


def nearest_on_ellipse(c, a, b, th, x):
    """Least distance from x to the ellipse, by sampling and refining (double)."""
    def dist(t):
        px = float(c[0]) + float(a) * math.cos(t) * math.cos(th) - float(b) * math.sin(t) * math.sin(th)
        py = float(c[1]) + float(a) * math.cos(t) * math.sin(th) + float(b) * math.sin(t) * math.cos(th)
        return math.hypot(px - float(x[0]), py - float(x[1]))
    n = 4000
    best = min(range(n), key=lambda k: dist(2 * math.pi * k / n))
    lo, hi = 2 * math.pi * (best - 1) / n, 2 * math.pi * (best + 1) / n
    for _ in range(100):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if dist(m1) < dist(m2):
            hi = m2
        else:
            lo = m1
    return dist((lo + hi) / 2)


def check_relation(rel, shapes, stats):
    """Checks one declared relation; records (exact?, slack_px) under its type. Returns an error or None."""
    kind = rel["type"]
    a, b = shapes[rel["between"][0]], shapes[rel["between"][1]]

    def record(exact, slack_px):
        stats[kind].append((exact, slack_px))
        if slack_px > FLOAT_TOLERANCE_PX:
            return f"{kind} {a['id']} {b['id']}: off by {slack_px:.3g} px"
        return None

    if kind in ("tangent", "internal_tangent", "external_tangent"):
        for x, y in ((a, b), (b, a)):
            if straight(x) and (curve(y) or y["type"] == "sector"):
                p, q = ends(x)
                d = sub(q, p)
                if y["type"] == "sector":
                    c, r = P(y["center"]), num(y["radius"])
                else:
                    c, r, r2, th = curve(y)
                    if r != r2:
                        return record(False, ellipse_support_gap(c, r, r2, th, p, d) * PX)
                gap2 = cross(sub(c, p), d) ** 2 - r * r * dot(d, d)  # (distance² − r²)·|d|²
                if gap2 != 0:
                    return record(True, abs(math.sqrt(float(cross(sub(c, p), d) ** 2 / dot(d, d))) - float(r)) * PX)
                t = dot(sub(c, p), d) / dot(d, d)  # the contact lies on the drawn piece
                if x["type"] == "segment" and not (0 <= t <= 1) or x["type"] == "ray" and t < 0:
                    return f"tangent {x['id']}: contact outside the drawn piece"
                if y["type"] == "sector":  # and on the arc
                    contact = (p[0] + t * d[0] - c[0], p[1] + t * d[1] - c[1])
                    ang = math.degrees(math.atan2(float(contact[1]), float(contact[0]))) % 360
                    s0, s1 = float(num(y["start_angle"])) % 360, float(num(y["end_angle"])) % 360
                    inside = s0 <= ang <= s1 if s0 <= s1 else ang >= s0 or ang <= s1
                    if not inside:
                        return f"tangent {x['id']}: contact off the arc of {y['id']}"
                return record(True, 0.0)
        ca, cb = curve(a), curve(b)
        if ca and cb:
            if ca[1] == ca[2] and cb[1] == cb[2]:  # two circles
                d2 = dot(sub(ca[0], cb[0]), sub(ca[0], cb[0]))
                ok = d2 in ((ca[1] + cb[1]) ** 2, (ca[1] - cb[1]) ** 2)
                gap = min(abs(math.sqrt(float(d2)) - float(ca[1] + cb[1])), abs(math.sqrt(float(d2)) - abs(float(ca[1] - cb[1]))))
                return record(True, 0.0 if ok else gap * PX)
            circle, ellipse = (ca, cb) if ca[1] == ca[2] else (cb, ca)
            near = nearest_on_ellipse(ellipse[0], ellipse[1], ellipse[2], ellipse[3], circle[0])
            return record(False, abs(near - float(circle[1])) * PX)
        return f"{kind} {a['id']} {b['id']}: no check for these shapes"
    if kind in ("parallel", "perpendicular"):
        da, db = sub(*ends(a)[::-1]), sub(*ends(b)[::-1])
        v = cross(da, db) if kind == "parallel" else dot(da, db)
        return record(True, 0.0 if v == 0 else abs(float(v)) / math.hypot(float(db[0]), float(db[1])) * PX)
    if kind == "concentric":
        d = sub(P(a["center"]), P(b["center"]))
        return record(True, math.hypot(float(d[0]), float(d[1])) * PX)
    if kind in ("circumscribed", "inscribed"):
        outer, inner = (a, b) if kind == "circumscribed" else (b, a)
        if kind == "circumscribed":  # every vertex (a star's tips) on the curve
            c, r, r2, th = curve(outer)
            pts = polygon_points(inner)
            if inner["type"] == "star":
                pts = pts[0::2]
            exact = all(isinstance(x, Fraction) for p in pts for x in p) and r == r2
            if exact:
                worst = max(abs(math.sqrt(float(dot(sub(p, c), sub(p, c)))) - float(r)) for p in pts)
                return record(True, 0.0 if all(dot(sub(p, c), sub(p, c)) == r * r for p in pts) else worst * PX)
            return record(False, max(ellipse_level(c, r, r2, th, p) for p in pts) * PX)
        # inscribed: the curve touches every side from inside
        c, r, r2, th = curve(inner)
        pts = polygon_points(outer)
        sides = [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
        if r == r2:
            gaps = [cross(sub(c, p), sub(q, p)) ** 2 - r * r * dot(sub(q, p), sub(q, p)) for p, q in sides]
            if all(g == 0 for g in gaps):
                return record(True, 0.0)
            return record(True, max(abs(math.sqrt(float(cross(sub(c, p), sub(q, p)) ** 2 / dot(sub(q, p), sub(q, p)))) - float(r)) for p, q in sides) * PX)
        return record(False, max(ellipse_support_gap(c, r, r2, th, p, sub(q, p)) for p, q in sides) * PX)
    if kind == "diagonal":
        pts = polygon_points(b)
        p, q = ends(a)
        idx = [pts.index(x) if x in pts else None for x in (p, q)]
        ok = None not in idx and (idx[0] - idx[1]) % len(pts) not in (0, 1, len(pts) - 1)
        return record(True, 0.0) if ok else f"diagonal {a['id']}: ends not on two opposite corners of {b['id']}"
    if kind in ("diameter", "major_axis", "minor_axis"):
        c, r, r2, th = curve(b)
        p, q = ends(a)
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if kind == "diameter":
            ok = mid == c and dot(sub(p, c), sub(p, c)) == r * r
            return record(True, 0.0 if ok else 1.0)
        half = float(r if kind == "major_axis" else r2)
        e = (math.cos(th), math.sin(th)) if kind == "major_axis" else (-math.sin(th), math.cos(th))
        dx, dy = float(q[0] - p[0]) / 2, float(q[1] - p[1]) / 2
        off = math.hypot(float(mid[0] - c[0]), float(mid[1] - c[1])) + math.hypot(abs(dx) - abs(half * e[0]), abs(dy) - abs(half * e[1]))
        return record(False, off * PX)
    if kind == "shared_edge":
        def edges(s):
            if s["type"] == "polygon":
                pts = [tuple(float(x) for x in p) for p in polygon_points(s)]
                return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
            c = tuple(float(x) for x in P(s["center"]))
            r = float(num(s["radius"]))
            out = []
            for key in ("start_angle", "end_angle"):
                t = deg(s[key])
                out.append((c, (c[0] + r * math.cos(t), c[1] + r * math.sin(t))))
            return out

        def gap(e, f):
            d1 = max(math.dist(e[0], f[0]), math.dist(e[1], f[1]))
            d2 = max(math.dist(e[0], f[1]), math.dist(e[1], f[0]))
            return min(d1, d2)

        best = min(gap(e, f) for e in edges(a) for f in edges(b))
        exact = a["type"] == b["type"] == "polygon"
        return record(exact, best * PX)
    if kind in ("similar", "symmetric"):
        pa, pb = polygon_points(a), polygon_points(b)
        if kind == "similar":  # b_i − b_0 = z (a_i − a_0) for a complex z, some correspondence
            best = math.inf
            for order in (pb, pb[::-1]):
                for shift in range(len(order)):
                    q = order[shift:] + order[:shift]
                    for mirror in (False, True):
                        A = [(x, -y) if mirror else (x, y) for x, y in pa]
                        u, v = sub(A[1], A[0]), sub(q[1], q[0])
                        den = dot(u, u)
                        z = ((v[0] * u[0] + v[1] * u[1]) / den, (v[1] * u[0] - v[0] * u[1]) / den)
                        err = 0
                        for i in range(len(A)):
                            w = sub(A[i], A[0])
                            zw = (z[0] * w[0] - z[1] * w[1], z[0] * w[1] + z[1] * w[0])
                            e = sub(sub(q[i], q[0]), zw)
                            err = max(err, math.hypot(float(e[0]), float(e[1])))
                        best = min(best, err)
            return record(True, best * PX)
        best = math.inf  # b is a reflected across one of a's sides
        for i in range(len(pa)):
            p, q = pa[i], pa[(i + 1) % len(pa)]
            d = sub(q, p)
            refl = []
            for x in pa:
                w = sub(x, p)
                k = 2 * dot(w, d) / dot(d, d)
                refl.append((p[0] + k * d[0] - w[0], p[1] + k * d[1] - w[1]))
            err = max(min(math.hypot(float(r[0] - s[0]), float(r[1] - s[1])) for s in pb) for r in refl)
            best = min(best, err)
        return record(False, best * PX)
    return f"{kind}: not checked"


# --- one family and level ----------------------------------------------------------------------------
def measure(args, family, level, seed):
    print(f"\n== {family} {level}, seed {seed}, {args.n} items", flush=True)
    out = os.path.join(args.out, f"{family}-{level}-{seed}")
    shutil.rmtree(out, ignore_errors=True)  # nothing left from an earlier run
    os.makedirs(out)
    gen = [args.geotruth, "generate", "--family", family, "--level", level, "-n", str(args.n), "--seed", str(seed)]
    row = {"family": family, "level": level, "seed": seed, "n": args.n}
    engine = family == "gepbench"
    figures = os.path.join(out, "gep", "figures") if engine else os.path.join(out, "figures")
    scenes_path = os.path.join(out, "gep", "scenes.jsonl") if engine else os.path.join(out, "scenes.jsonl")
    errs, wall, cpu = generate_sharded(args, gen + ["--threads", str(args.threads)], out, engine, args.shards)
    scenes = load(scenes_path)
    errors = [s for s in scenes if "error" in s]
    row["wall_items_per_s"] = args.n / wall
    rejected = Counter()
    for err in errs:
        for line in err.splitlines():
            parts = line.split(None, 1)
            if line.startswith("  ") and len(parts) == 2 and parts[0].isdigit():
                rejected[parts[1]] += int(parts[0])
    row["candidates"] = sum(int(e.split(" from ")[1].split()[0]) for e in errs if " from " in e)
    print(f"  generate with pictures ({args.shards} shards joined): {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({args.threads} threads): {args.n / wall:.1f} items/s; {row['candidates']} candidates; "
          f"{len(errors)} items without a certified candidate")
    print(f"  rejected or left out, by reason: {dict(rejected.most_common())}")
    if errors:
        fail(f"{family} {level}: {len(errors)} items not made")
    scenes = [s for s in scenes if "error" not in s]

    # audit
    _, _, _, _ = run([args.geotruth, "audit", scenes_path, "-o", os.path.join(out, "audit"), "--no-progress"])
    summary = json.load(open(os.path.join(out, "audit", "summary.json")))
    verdicts = summary["by_verdict"]
    row["questions"] = summary["questions"]
    row["audit_ok"] = verdicts["ok"]
    print(f"  audit: {summary['questions']} questions, verdicts {verdicts}, findings {summary['findings']}, "
          f"duplicate scenes {len(summary['duplicate_scenes'])}")
    if verdicts["ok"] != summary["questions"] or summary["findings"] or summary["duplicate_scenes"]:
        fail(f"{family} {level}: audit not clean")

    # analyze
    analyzed, _, _, _ = run([args.geotruth, "analyze", scenes_path])
    ambiguous = unsupported = truths = 0
    for line in analyzed.splitlines():
        r = json.loads(line)
        for t in r.get("truths", []):
            truths += 1
            ambiguous += bool(t.get("ambiguous"))
            unsupported += not t.get("supported", True)
    print(f"  analyze: {truths} truths, {ambiguous} ambiguous, {unsupported} unsupported")
    row["ambiguous_truths"] = ambiguous
    if ambiguous or unsupported or truths != summary["questions"]:
        fail(f"{family} {level}: analyze marks {ambiguous} truths ambiguous, {unsupported} unsupported")

    # letters per kind (independent chi-square)
    letters = defaultdict(Counter)
    for s in scenes:
        for q in s["questions"]:
            letters[kind_of(q)][q["answer"]] += 1
    worst = min(((chi2_p([c[x] for x in "ABCD"]), k, sum(c.values())) for k, c in letters.items()), default=(1, "", 0))
    row["letters_min_p"] = worst[0]
    print(f"  letters: {len(letters)} kinds; least p = {worst[0]:.3f} ({worst[1]}, {worst[2]} questions)")
    for k, c in letters.items():
        p = chi2_p([c[x] for x in "ABCD"])
        if p < 0.01:
            fail(f"{family} {level}: answer letters of {k} {dict(c)} p = {p:.4f}")

    # duplicates by geometry (ids and questions aside)
    keys = Counter(json.dumps({k: s.get(k) for k in ("shapes", "points", "lines", "circles")}, sort_keys=True, default=str)
                   for s in scenes)
    dups = sum(n - 1 for n in keys.values() if n > 1)
    row["duplicates"] = dups
    if dups:
        fail(f"{family} {level}: {dups} duplicate scenes")

    if family == "tangram":
        wrong = 0
        totals = Counter()
        for s in scenes:
            counts = tangram_counts(s)
            total = sum(counts.values())
            totals["easy" if total <= 15 else "medium" if total <= 30 else "hard"] += 1
            for q in s["questions"]:
                if int(answered(q)) != counts[q["of"]]:
                    wrong += 1
                    if wrong <= 3:
                        print(f"  {s['id']} {q['of']}: answer {answered(q)}, independent count {counts[q['of']]}")
        print(f"  counts: {4 * len(scenes) - wrong} / {4 * len(scenes)} answers equal the independent count; "
              f"difficulty by the independent total {dict(totals)}")
        row["counts_agree"] = 4 * len(scenes) - wrong
        if wrong or set(totals) != {level}:
            fail(f"tangram {level}: {wrong} answers differ from the independent count, difficulties {dict(totals)}")
    else:
        stats = defaultdict(list)
        problems = []
        for s in scenes:
            shapes = {x["id"]: x for x in s["shapes"]}
            for rel in s.get("relations", []):
                e = check_relation(rel, shapes, stats)
                if e:
                    problems.append(f"{s['id']}: {e}")
        held = sum(len(v) for v in stats.values())
        print(f"  relations: {held} declared relations checked, {len(problems)} problems")
        for kind, v in sorted(stats.items()):
            exact = sum(1 for e, sl in v if e and sl == 0)
            print(f"    {kind:16} {len(v):5}  exactly {exact:5}  largest slack {max(sl for _, sl in v):.2g} px")
        row["relations"] = held
        for p in problems[:10]:
            fail(p)
        # round trip through the engine's files
        gep = os.path.join(out, "gep")
        imported, _, _, _ = run([args.geotruth, "import", "--from", "gepbench", os.path.join(gep, "rules.json"),
                                 os.path.join(gep, "vqa.jsonl")])
        back = [json.loads(line, parse_float=Fraction) for line in imported.splitlines()]
        same = sum(1 for x, y in zip(scenes, back)
                   if all(x.get(k) == y.get(k) for k in ("shapes", "relations", "questions", "frame")))
        qs = sum(len(x["questions"]) for x in scenes)
        qsame = sum(1 for x, y in zip(scenes, back) for qx, qy in zip(x["questions"], y.get("questions", []))
                    if qx == qy)
        print(f"  round trip: {same} / {len(scenes)} scenes and {qsame} / {qs} questions with options and answers "
              "come back from rules.json + vqa.jsonl unchanged")
        row["round_trip"] = qsame == qs and same == len(scenes) == len(back)
        if not row["round_trip"]:
            fail(f"gepbench {level}: round trip lost {qs - qsame} questions, {len(scenes) - same} scenes")

    # the written pictures against crosscheck
    image_dir = figures
    if family == "gepbench":  # the engine's names <level>_<image_id>: link them by scene id
        image_dir = os.path.join(out, "by-id")
        os.makedirs(image_dir, exist_ok=True)
        for i, s in enumerate(scenes):
            os.symlink(os.path.join(figures, f"{level}_{i:08d}.png"), os.path.join(image_dir, s["id"] + ".png"))
    agree = sum(1 for r in crosscheck_lines(args, scenes_path, ["--image", image_dir]) if r.get("agree"))
    print(f"  pictures (clean, as written): {agree} / {len(scenes)} agree with crosscheck")
    row["pictures_clean"] = agree / max(1, len(scenes))
    if agree != len(scenes):
        fail(f"{family} {level}: {len(scenes) - agree} clean pictures disagree")
    return row


def styles(args, family, level, seed):
    """Pictures in other styles: certified ones (generate --render with the style) against crosscheck,
    and the symbolic certificate alone (no --render) against crosscheck in each style."""
    n = max(20, args.n // 4)
    out = os.path.join(args.out, f"styles-{family}-{level}-{seed}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    gen = [args.geotruth, "generate", "--family", family, "--level", level, "-n", str(n), "--seed", str(seed)]
    plain = os.path.join(out, "plain.jsonl")
    run(gen + ["-o", plain])
    rows = {}
    for name, opts in PICTURE_STYLES.items():
        # symbolic certificate only, pictures drawn by crosscheck in this style
        results = crosscheck_lines(args, plain, ["--seed", str(seed)] + opts)
        agree = sum(r.get("agree", False) for r in results)
        reasons = Counter(x["kind"] for r in results for x in r.get("reasons", []))
        # certified pictures in this style
        scenes = os.path.join(out, f"{name}.jsonl")
        _, err, _, _ = run(gen + ["-o", scenes, "--render", os.path.join(out, name)] + opts)
        agree2 = sum(r.get("agree", False) for r in crosscheck_lines(args, scenes, ["--image", os.path.join(out, name)]))
        rejected = Counter()
        for line in err.splitlines():
            if "picture:" in line:
                parts = line.split(None, 1)
                rejected[parts[1]] += int(parts[0])
        rows[name] = (agree / len(results), agree2 / n)
        print(f"  {family} {level} {name:6}: symbolic certificate only {agree}/{len(results)} agree "
              f"({dict(reasons.most_common(4))}); with --render {agree2}/{n} agree; pictures rejected while "
              f"generating: {dict(rejected)}")
        need = 1.0 if name == "clean" else 0.97
        if agree2 / n < need:
            fail(f"{family} {level} {name}: {agree2}/{n} certified pictures agree")
    return rows


def speed(args, family, level, seed):
    """CPU time per item on one thread (with pictures), and items per second of wall time on
    --threads (one process each)."""
    n = max(50, args.n // 5)
    out = os.path.join(args.out, f"speed-{family}-{level}-{seed}")
    shutil.rmtree(out, ignore_errors=True)
    cmd = lambda threads: [args.geotruth, "generate", "--family", family, "--level", level, "-n", str(n), "--seed",
                           str(seed), "-o", os.path.join(out, "s.jsonl"), "--render", os.path.join(out, "img"),
                           "--threads", str(threads)]
    _, _, _, cpu = run(cmd(1))
    _, _, wall, _ = run(cmd(args.threads))
    return cpu / n, n / wall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000, help="items per family and level")
    ap.add_argument("--seeds", type=int, default=1, help="random seeds per family and level")
    ap.add_argument("--seed", type=int, action="append", help="use this seed (repeatable) instead of random ones")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--out", default="/tmp/measure-generate")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--shards", type=int, default=4, help="generate each run as this many --shard processes")
    ap.add_argument("--only", help="family:level to measure (e.g. gepbench:easy)")
    ap.add_argument("--fast", action="store_true", help="no styles and no speed rows (for ctest)")
    args = ap.parse_args()
    args.geotruth = os.path.join(args.build, "geotruth")
    seeds = args.seed or [random.SystemRandom().randrange(1, 2**31) for _ in range(args.seeds)]
    print(f"seeds {seeds}; load average {os.getloadavg()}")
    rows = []
    for family, level in LEVELS:
        if args.only and args.only != f"{family}:{level}":
            continue
        for seed in seeds:
            row = measure(args, family, level, seed)
            if not args.fast:
                row["styles"] = styles(args, family, level, seed)
                cpu_item, rate = speed(args, family, level, seed)
                row["cpu_ms_per_item"], row["items_per_s"] = 1000 * cpu_item, rate
                engine = ENGINE_RATE.get(level) if family == "gepbench" else None
                print(f"  speed with pictures: {1000 * cpu_item:.1f} ms CPU per item on one thread "
                      f"({1 / cpu_item:.1f} items/s a core); {rate:.1f} items/s wall with {args.threads} threads "
                      f"(load average {os.getloadavg()[0]:.1f})"
                      + (f"; the engine: {engine:.2f} items/s, 10x = {10 * engine:.1f}: "
                         f"{'met' if rate >= 10 * engine else 'NOT met'}" if engine else ""))
            rows.append(row)
    print(f"\nprocesses killed by a signal and run again: {dict(crashes) or 'none'}")
    print("\nsummary")
    for r in rows:
        print("  " + json.dumps(r, default=str))
    if failures:
        print(f"\n{len(failures)} checks failed")
        return 1
    print("\nevery check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
