#!/usr/bin/env python3
"""Measure geotruth's findings on a Geometry3K annotation file against an independent check.

Usage: scripts/measure_geometry3k.py ANNOT.json [GEOTRUTH]

ANNOT.json is Geometry3K's diagram_logic_forms_annot.json (or one of its re-annotations). The
script imports it, runs `analyze`, and recomputes from the positions alone, without geotruth:
the distance of each PointLiesOnLine point to the line through the two named points, and of each
PointLiesOnCircle point to its circle (centre position, radius the lower median of the distances
of the circle's named points, as Geometry3K gives no radius). It prints:

- recall: facts off by more than 5 px that geotruth lists as a conflict naming the point;
- precision: conflicts on such facts that hold within 2 px (independently), over those listed;
- findings that name an empty element;
- maximal lines whose points stray from the line through their extreme points beyond eps_vis;
- the circles counted per diagram against the drawn circles Geometry3K annotates (circle_instances,
  and concentric circles: several radius names on one drawn centre).
"""
import json
import math
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

ON_LINE = re.compile(r"^PointLiesOnLine\((\w+), Line\((\w+), (\w+)\)\)$")
ON_CIRCLE = re.compile(r"^PointLiesOnCircle\((\w+), Circle\((\w+), (\w+)\)\)$")
LINE_KINDS = {"declared_off_line", "line_not_straight", "declared_outside_extent"}
CIRCLE_KINDS = {"declared_off_circle", "wrong_centre"}


def placed(positions, name):
    p = positions.get(name)
    if not p or p[0] is None or (p[0] < 0 and p[1] < 0):
        return None
    return p


def line_distance(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return None if n == 0 else abs(dx * (p[1] - a[1]) - dy * (p[0] - a[0])) / n


def independent_facts(annot):
    """(diagram, kind, point) -> distance in px, from the positions alone."""
    facts = {}
    for did, d in annot.items():
        pos = d.get("point_positions", {})
        circles = defaultdict(list)
        for form in d.get("diagram_logic_forms", []):
            if m := ON_LINE.match(form):
                p, a, b = (placed(pos, x) for x in m.groups())
                if p and a and b and (dist := line_distance(p, a, b)) is not None:
                    key = (did, "line", m.group(1))
                    facts[key] = max(facts.get(key, 0), dist)
            elif m := ON_CIRCLE.match(form):
                circles[(m.group(2), m.group(3))].append(m.group(1))
        for (centre, _), through in circles.items():
            o = placed(pos, centre)
            pts = [(x, placed(pos, x)) for x in through]
            pts = [(x, p) for x, p in pts if p]
            if not o or not pts:
                continue
            radii = sorted(math.dist(p, o) for _, p in pts)
            r = radii[(len(radii) - 1) // 2]
            for x, p in pts:
                key = (did, "circle", x)
                facts[key] = max(facts.get(key, 0), abs(math.dist(p, o) - r))
    return facts


def main():
    annot_path = sys.argv[1]
    geotruth = sys.argv[2] if len(sys.argv) > 2 else "build/geotruth"
    annot = json.load(open(annot_path))
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as scenes:
        subprocess.run([geotruth, "import", "--from", "geometry3k", annot_path, "-o", scenes.name], check=True,
                       stderr=subprocess.DEVNULL)
        out = subprocess.run([geotruth, "analyze", scenes.name], capture_output=True, text=True)
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    print(out.stderr.strip().splitlines()[0])

    listed = set()  # (diagram, kind, point) listed as a conflict
    conflicts = defaultdict(int)
    empty = 0
    bent = []
    circle_counts = {}
    for r in records:
        did = r["id"]
        for f in r.get("conflicts", []) + r.get("doubtful", []) + r.get("notes", []):
            if any(e == "" for e in f.get("elements", [])):
                empty += 1
        for f in r.get("conflicts", []):
            point = f["elements"][0]
            if f["kind"] in LINE_KINDS:
                listed.add((did, "line", point))
                conflicts[(did, "line", point)] += 1
            elif f["kind"] in CIRCLE_KINDS:  # wrong_centre: [centre, circle, the points its facts put on it]
                for named in [point] + f["elements"][2:]:
                    listed.add((did, "circle", named))
                    conflicts[(did, "circle", named)] += 1
        pos = {p["id"]: p.get("at") for p in r["scene"].get("points", [])}
        eps_vis = r["bands"]["eps_vis_px"]
        for line in r["incidence"]["lines"]:
            pts = [pos[x] for x in line["points"] if pos.get(x)]
            if len(pts) < 3:
                continue
            a, b = max(((p, q) for i, p in enumerate(pts) for q in pts[i + 1:]), key=lambda pq: math.dist(*pq))
            off = max(line_distance(p, a, b) or 0 for p in pts)
            if off > eps_vis + 1e-9:
                bent.append((did, line["name"], round(off, 2)))
        circle_counts[did] = len(r["incidence"]["circles"])

    facts = independent_facts(annot)
    for kind in ("line", "circle"):
        gross = [k for k, v in facts.items() if k[1] == kind and v > 5]
        missed = [k for k in gross if k not in listed]
        flagged = [k for k in conflicts if k[1] == kind and k in facts]
        fine = [k for k in flagged if facts[k] <= 2]
        print(f"PointLiesOn{kind.capitalize()} facts off by > 5 px: {len(gross)}, listed: {len(gross) - len(missed)}"
              f" (missed: {sorted(missed)[:10]})")
        print(f"  conflicts on such facts: {len(flagged)}, of which hold within 2 px: {len(fine)}"
              f" ({100 * len(fine) / max(1, len(flagged)):.2f}%)")
    print(f"findings naming an empty element: {empty}")
    print(f"maximal lines bent beyond eps_vis: {len(bent)} {bent[:10]}")
    # The picture's circles as Geometry3K annotates them: its circle_instances (drawn circles, by
    # centre), one more for each further radius name on a drawn centre (concentric circles).
    drawn = {}
    for did, d in annot.items():
        centres = {c for c in d.get("circle_instances", []) if c}
        radii = defaultdict(set)
        for f in d.get("diagram_logic_forms", []):
            if (m := ON_CIRCLE.match(f)) and m.group(2) in centres:
                radii[m.group(2)].add(m.group(3))
        drawn[did] = sum(max(1, len(radii[c])) for c in centres)
    differ = [(did, drawn[did], circle_counts.get(did)) for did in drawn if drawn[did] != circle_counts.get(did)]
    print(f"diagrams whose circle count differs from the annotated drawn circles: {len(differ)} {differ[:12]}")


if __name__ == "__main__":
    main()
