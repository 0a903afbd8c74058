#!/usr/bin/python3
"""Measure geotruth's picture cross-check on GePBench engine output: agreement, planted mismatches,
spirals, speed.

Usage: scripts/measure_pictures.py RULES.json VQA_DIR IMAGE_DIR [--geotruth PATH] [--seed N]
                                   [--planted N] [--threads N] [--json OUT]

RULES.json, VQA_DIR/*.jsonl and IMAGE_DIR (<prefix>_<index:08d>.jpg, as the engine names them) are
the public engine's own output (docs/vision.md says how to make it). The script prints:

- agreement: how many pictures `crosscheck --image` finds in agreement with their scenes, for
  pictures without a spiral, and every reason given otherwise, by kind; the share of shapes judged
  `low_contrast`; the wobble and noise it measured per picture;
- planted mismatches, made in a copy of the scenes (the pictures stay as the engine drew them),
  each found when the cross-check names it: a drawn shape removed from the scene (found when an
  extra detection is reported), a circle added where the picture is blank (found when a conflict
  names the circle) and a shape moved 26 px (found when a conflict names the shape);
- spirals: every spiral with a sine term must carry `drawn_differently` in the audit's scene
  findings, and no `not_visible` from the cross-check;
- pictures in the audit: with `audit --image`, a question about a circle planted into the scene
  (absent from the picture) must not be `ok`;
- speed: pictures per CPU-second of `crosscheck --threads 1`, and the wall-clock gain of
  `--threads 2`.
"""
import argparse
import collections
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

UNIT_PX = 640  # the engine draws the unit square at 640 x 640
DOUBTFUL = {"pixel_ambiguous", "low_contrast"}


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, records):
    with open(path, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in records))


def number(v):
    if isinstance(v, str):
        if "/" in v:
            p, q = v.split("/")
            return float(p) / float(q)
        return float(v)
    return float(v)


def outline(shape, steps=240):
    """Points along a native shape's stroke, in frame units (y up), as its picture draws it."""
    t = shape["type"]
    g = dict(shape)
    g.update(shape.get("drawn", {}))
    if t == "polygon":
        pts = [(number(x), number(y)) for x, y in g["points"]]
        out = []
        for i in range(len(pts)):
            (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % len(pts)]
            out += [(x0 + (x1 - x0) * k / 40, y0 + (y1 - y0) * k / 40) for k in range(40)]
        return out
    if t in ("segment", "ray", "line"):
        (x0, y0), (x1, y1) = [(number(x), number(y)) for x, y in g["points"]]
        lo, hi = (0, 1) if t == "segment" else ((0, 3) if t == "ray" else (-3, 3))
        out = [(x0 + (x1 - x0) * s, y0 + (y1 - y0) * s) for s in
               (lo + (hi - lo) * k / steps for k in range(steps + 1))]
        return [p for p in out if -0.01 <= p[0] <= 1.01 and -0.01 <= p[1] <= 1.01]
    if t in ("circle", "ellipse"):
        cx, cy = map(number, g["center"])
        a, b = (number(g["radius"]),) * 2 if t == "circle" else map(number, g["axes"])
        rot = math.radians(number(g.get("rotation", 0)))
        return [(cx + a * math.cos(u) * math.cos(rot) - b * math.sin(u) * math.sin(rot),
                 cy + a * math.cos(u) * math.sin(rot) + b * math.sin(u) * math.cos(rot))
                for u in (2 * math.pi * k / steps for k in range(steps))]
    if t == "sector":
        cx, cy = map(number, g["center"])
        r, s0, s1 = number(g["radius"]), number(g["start_angle"]), number(g["end_angle"])
        sweep = (s1 - s0) % 360 or 360
        arc = [(cx + r * math.cos(math.radians(s0 + sweep * k / steps)),
                cy + r * math.sin(math.radians(s0 + sweep * k / steps))) for k in range(steps + 1)]
        radii = [(cx + (p[0] - cx) * k / 20, cy + (p[1] - cy) * k / 20) for p in (arc[0], arc[-1]) for k in range(20)]
        return arc + radii
    if t == "star":
        cx, cy = map(number, g["center"])
        n, ro, ri = int(number(g["num_points"])), number(g["outer_radius"]), number(g["inner_radius"])
        rot = math.radians(number(g.get("rotation", 0)))
        corners = [(cx + (ro if k % 2 == 0 else ri) * math.cos(rot + math.pi * k / n),
                    cy + (ro if k % 2 == 0 else ri) * math.sin(rot + math.pi * k / n)) for k in range(2 * n)]
        return outline({"type": "polygon", "points": corners})
    if t == "spiral":
        cx, cy = map(number, g["center"])
        a, b, T = number(g["initial_radius"]), number(g["growth_rate"]), number(g["max_theta"])
        e, w, phi = map(number, g.get("sin_params", [0, 0, 0]))
        out = []
        for k in range(steps * 4 + 1):
            th = T * k / (steps * 4)
            r = a + (b + e * math.sin(w * th + phi)) * th
            out.append((cx + r * math.cos(th), cy + r * math.sin(th)))
        return out
    return []


def move(shape, dx, dy):
    s = json.loads(json.dumps(shape))
    shift = lambda p: [number(p[0]) + dx, number(p[1]) + dy]
    for target in (s, s.get("drawn", {})):
        if "points" in target:
            target["points"] = [shift(p) for p in target["points"]]
        if "center" in target:
            target["center"] = shift(target["center"])
    return s


def blank_circle(scene, rng):
    """A circle at least 30 px from every stroke of the scene and inside the picture, or None."""
    points = [p for s in scene.get("shapes", []) for p in outline(s)]
    for _ in range(400):
        r = rng.uniform(0.04, 0.09)
        cx, cy = rng.uniform(r + 0.03, 1 - r - 0.03), rng.uniform(r + 0.03, 1 - r - 0.03)
        clearance = min((abs(math.hypot(x - cx, y - cy) - r) for x, y in points), default=1)
        if clearance * UNIT_PX >= 30:
            return {"id": "planted_circle", "type": "circle", "center": [round(cx, 4), round(cy, 4)],
                    "radius": round(r, 4)}
    return None


def crosscheck(geotruth, scenes_path, image_dir, out_path, threads=1):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = run([geotruth, "crosscheck", scenes_path, "--image", image_dir, "-o", out_path, "--threads", str(threads)])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 3):
        sys.exit(f"crosscheck failed ({p.returncode}): {p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return read_jsonl(out_path), cpu, wall


def conflicts(record):
    return [r for r in record.get("reasons", []) if r["kind"] not in DOUBTFUL]


def names(record):
    return {e for r in conflicts(record) for e in r.get("elements", [])}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rules")
    ap.add_argument("vqa_dir")
    ap.add_argument("image_dir")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--geotruth", default=os.path.join(here, "..", "build", "geotruth"))
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--planted", type=int, default=30, help="mismatches planted of each kind")
    ap.add_argument("--threads", type=int, default=2, help="threads for the speed comparison")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    vqa = sorted(os.path.join(args.vqa_dir, f) for f in os.listdir(args.vqa_dir) if f.endswith(".jsonl"))
    work = tempfile.mkdtemp(prefix="measure_pictures.")
    print(f"(work files in {work})")
    scenes_path = os.path.join(work, "scenes.jsonl")
    p = run([args.geotruth, "import", "--from", "gepbench", args.rules, *vqa, "-o", scenes_path])
    if p.returncode != 0:
        sys.exit(f"import failed: {p.stderr[-2000:]}")
    scenes = read_jsonl(scenes_path)
    figures = {}

    # --- agreement on the pictures as the engine drew them ---
    records, cpu, wall = crosscheck(args.geotruth, scenes_path, args.image_dir, os.path.join(work, "cc.jsonl"))
    by_id = {s["id"]: s for s in scenes}
    plain = [r for r in records if "id" in r and not any(s["type"] == "spiral" for s in by_id[r["id"]]["shapes"])]
    disagree = [r for r in plain if conflicts(r)]
    kinds = collections.Counter(r["kind"] for rec in disagree for r in conflicts(rec))
    shapes = sum(len(by_id[r["id"]]["shapes"]) for r in records if "id" in r)
    faint = sum(1 for r in records if "id" in r for x in r["reasons"] if x["kind"] == "low_contrast")
    wobble = sorted(r["picture"]["wobble_px"] for r in records if "picture" in r)
    noise = sorted(r["picture"]["noise_sigma"] for r in records if "picture" in r)
    errors = [r for r in records if "error" in r]
    figures["pictures"] = len(records)
    figures["errors"] = len(errors)
    figures["without_spiral"] = len(plain)
    figures["disagree_without_spiral"] = len(disagree)
    figures["reasons"] = dict(kinds)
    figures["low_contrast_shapes"] = [faint, shapes]
    figures["cpu_s"], figures["pictures_per_cpu_s"] = round(cpu, 2), round(len(records) / cpu, 1)
    print(f"pictures: {len(records)} ({len(errors)} errors), without a spiral: {len(plain)}")
    print(f"  disagree (a conflict, not a doubtful near-touch or faint stroke): {len(disagree)} "
          f"({100 * len(disagree) / max(1, len(plain)):.1f} %)  {dict(kinds)}")
    print(f"  low_contrast: {faint} of {shapes} shapes ({100 * faint / max(1, shapes):.2f} %)")
    if wobble:
        print(f"  wobble px: median {wobble[len(wobble) // 2]:.2f}, 90th {wobble[int(0.9 * (len(wobble) - 1))]:.2f}; "
              f"noise sigma: median {noise[len(noise) // 2]:.2f}, max {noise[-1]:.2f}")
    for r in disagree[:12]:
        print(f"    {r['id']}: " + "; ".join(f"{x['kind']} {x.get('elements', [])}: {x['detail']}" for x in conflicts(r)))

    # --- spirals ---
    spirals = [(s["id"], sh["id"]) for s in scenes for sh in s["shapes"]
               if sh["type"] == "spiral" and number(sh.get("sin_params", [0])[0]) != 0]
    audit_dir = os.path.join(work, "audit")
    run([args.geotruth, "audit", scenes_path, "-o", audit_dir, "--threads", "1"])
    findings = {s["id"]: s.get("findings", []) for s in read_jsonl(os.path.join(audit_dir, "scenes.jsonl")) if "id" in s}
    with_finding = sum(1 for scene, shape in spirals
                       if any(f["kind"] == "drawn_differently" and shape in f.get("elements", [])
                              for f in findings.get(scene, [])))
    cc = {r["id"]: r for r in records if "id" in r}
    not_visible = sum(1 for scene, shape in spirals
                      if any(x["kind"] in ("not_visible", "not_detected") and shape in x.get("elements", [])
                             for x in cc.get(scene, {}).get("reasons", [])))
    figures["spirals"] = {"with_sine": len(spirals), "drawn_differently": with_finding, "not_visible": not_visible}
    print(f"spirals with a sine term: {len(spirals)}; drawn_differently in the audit: {with_finding}; "
          f"reported not visible / not detected by crosscheck: {not_visible}")

    # --- planted mismatches ---
    candidates = [s for s in scenes if not any(sh["type"] == "spiral" for sh in s["shapes"])]
    planted, expected = [], {}
    for kind in ("removed", "added", "moved"):
        made = 0
        for scene in rng.sample(candidates, len(candidates)):
            if made == args.planted:
                break
            s = json.loads(json.dumps(scene))
            s.pop("questions", None)
            s["relations"] = []
            if kind == "removed":
                if len(s["shapes"]) < 2:
                    continue
                victim = rng.randrange(len(s["shapes"]))
                gone = s["shapes"].pop(victim)
                # A shape lying wholly along the others' strokes leaves no ink to explain.
                rest = [p for sh in s["shapes"] for p in outline(sh)]
                lone = [p for p in outline(gone) if 0 <= p[0] <= 1 and 0 <= p[1] <= 1 and
                        min((math.hypot(p[0] - x, p[1] - y) for x, y in rest), default=1) * UNIT_PX > 15]
                if len(lone) < 60:
                    continue
                target = None
            elif kind == "added":
                c = blank_circle(s, rng)
                if not c:
                    continue
                s["shapes"].append(c)
                target = c["id"]
            else:
                victim = rng.randrange(len(s["shapes"]))
                angle = rng.uniform(0, 2 * math.pi)
                dx, dy = 26 / UNIT_PX * math.cos(angle), 26 / UNIT_PX * math.sin(angle)
                moved = move(s["shapes"][victim], dx, dy)
                if not all(-0.02 <= x <= 1.02 and -0.02 <= y <= 1.02 for x, y in outline(moved)):
                    continue
                s["shapes"][victim] = moved
                target = moved["id"]
            s["id"] = f"{scene['id']}--{kind}"
            planted.append(s)
            expected[s["id"]] = (kind, target)
            made += 1
    planted_dir = os.path.join(work, "planted_images")
    os.makedirs(planted_dir)
    originals = {r["id"]: r.get("image") for r in records if "id" in r}
    for s in planted:
        src = originals[s["id"].split("--")[0]]
        os.symlink(os.path.abspath(src), os.path.join(planted_dir, s["id"] + os.path.splitext(src)[1]))
    planted_path = os.path.join(work, "planted.jsonl")
    write_jsonl(planted_path, planted)
    planted_records, _, _ = crosscheck(args.geotruth, planted_path, planted_dir, os.path.join(work, "planted_cc.jsonl"))
    found = collections.Counter()
    total = collections.Counter(kind for kind, _ in expected.values())
    missed = []
    for r in planted_records:
        kind, target = expected[r["id"]]
        hit = (any(x["kind"] == "extra_detection" for x in r["reasons"]) if kind == "removed"
               else target in names(r))
        found[kind] += hit
        if not hit:
            missed.append(r)
    figures["planted"] = {k: [found[k], total[k]] for k in total}
    print("planted mismatches found: " + ", ".join(f"{k} {found[k]}/{total[k]}" for k in ("removed", "added", "moved")))
    for r in missed[:8]:
        print(f"    missed {r['id']}: " + "; ".join(f"{x['kind']} {x.get('elements', [])}" for x in r["reasons"]))

    # --- pictures in the audit: a planted circle the picture lacks is asked about ---
    asked = []
    for s in planted:
        if expected[s["id"]][0] != "added":
            continue
        q = json.loads(json.dumps(s))
        count = sum(1 for sh in q["shapes"] if sh["type"] == "circle" or sh.get("kind") == "circle")
        q["questions"] = [{"id": "q1", "ask": "count", "of": "circle",
                           "options": [str(count - 1), str(count), str(count + 1), str(count + 2)], "answer": "B"}]
        asked.append(q)
    if asked:
        asked_path = os.path.join(work, "asked.jsonl")
        write_jsonl(asked_path, asked)
        out = os.path.join(work, "audit_image")
        run([args.geotruth, "audit", asked_path, "-o", out, "--image", planted_dir, "--threads", "1"])
        verdicts = read_jsonl(os.path.join(out, "verdicts.jsonl"))
        not_ok = sum(1 for v in verdicts if v.get("verdict") != "ok")
        figures["audit_image_not_ok"] = [not_ok, len(asked)]
        print(f"audit --image: questions about a circle the picture lacks judged not ok: {not_ok}/{len(asked)}")

    # --- speed ---
    _, cpu1, wall1 = crosscheck(args.geotruth, scenes_path, args.image_dir, os.path.join(work, "t1.jsonl"), 1)
    _, cpu2, wall2 = crosscheck(args.geotruth, scenes_path, args.image_dir, os.path.join(work, "t2.jsonl"),
                                args.threads)
    same = open(os.path.join(work, "t1.jsonl")).read() == open(os.path.join(work, "t2.jsonl")).read()
    figures["speed"] = {"pictures_per_cpu_s": round(len(records) / cpu1, 1), "wall_1": round(wall1, 2),
                        f"wall_{args.threads}": round(wall2, 2), "gain": round(wall1 / wall2, 2), "same_output": same}
    print(f"speed: {len(records) / cpu1:.1f} pictures per CPU-second on one thread; {args.threads} threads "
          f"{wall1 / wall2:.2f}x one thread (wall {wall1:.2f} s -> {wall2:.2f} s), records identical: {same}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)


if __name__ == "__main__":
    main()
