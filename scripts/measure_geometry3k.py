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
  and concentric circles: several radius names on one drawn centre; IMP's indexed centres "A0",
  "A1"; a further radius name counts only when a placed point is on it);
- triangles: findings about a triangle with a repeated corner; `count`'s merged-mode triangles
  against a brute force over the letters of analyze's maximal lines (triples pairwise on a line,
  none holding all three, not within eps_num of one line by position), and against a count from
  the positions alone (pieces from line_instances and PointLiesOnLine, a letter on a piece within
  eps_num of it, pieces collinear within eps_num and overlapping joined into one line).
"""
import itertools
import json
import math
import re
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction

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


def scene_point(p):
    """A native scene point's position as floats (coordinates may be written "p/q")."""
    return [float(Fraction(str(x))) for x in p["at"]] if p.get("at") else None


def split_name(name, known):
    splits = [(name[:k], name[k:]) for k in range(1, len(name)) if name[:k] in known and name[k:] in known]
    return splits[0] if len(splits) == 1 else None


def height(a, b, c):
    """The smallest height of triangle abc (0 for a degenerate one)."""
    longest = max(math.dist(a, b), math.dist(b, c), math.dist(a, c))
    twice_area = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
    return 0 if longest == 0 else twice_area / longest


def triangles_on(lines, letters, at, eps):
    """Triples of letters pairwise on a common line, no line holding all three, not within eps of one line."""
    on = defaultdict(set)
    for k, pts in enumerate(lines):
        for p in pts:
            on[p].add(k)
    n = edge = 0  # edge: heights within 0.01 px of eps (eps is printed rounded to 0.001 px)
    for a, b, c in itertools.combinations(sorted(p for p in letters if on[p]), 3):
        if not (on[a] & on[b] and on[b] & on[c] and on[a] & on[c]) or on[a] & on[b] & on[c]:
            continue
        if at.get(a) and at.get(b) and at.get(c):
            h = height(at[a], at[b], at[c])
            edge += abs(h - eps) < 0.01
            if h <= eps:
                continue
        n += 1
    return n, edge


def triangles_from_positions(d, eps):
    """Triangles formed by letters, from the positions alone (no declared incidence)."""
    pos = d.get("point_positions", {})
    letters = [p for p in (d.get("point_instances") or list(pos)) if placed(pos, p)]
    at = {p: placed(pos, p) for p in letters}
    pieces = set()
    for name in d.get("line_instances", []):
        if name and (ends := split_name(name, at)):
            pieces.add(tuple(sorted(ends)))
    for f in d.get("diagram_logic_forms", []):
        if (m := ON_LINE.match(f)) and m.group(2) in at and m.group(3) in at and m.group(2) != m.group(3):
            pieces.add(tuple(sorted((m.group(2), m.group(3)))))
    pieces = [p for p in pieces if at[p[0]] != at[p[1]]]

    def seg_dist(p, a, b):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)

    parent = list(range(len(pieces)))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(pieces)), 2):
        (a, b), (c, e) = sorted(([at[x], at[y]] for x, y in (pieces[i], pieces[j])), key=lambda s: -math.dist(*s))
        if (line_distance(c, a, b) <= eps and line_distance(e, a, b) <= eps and
                min(seg_dist(c, a, b), seg_dist(e, a, b), seg_dist(a, c, e), seg_dist(b, c, e)) <= eps):
            parent[find(i)] = find(j)
    groups, own = defaultdict(set), []
    for i, (a, b) in enumerate(pieces):
        own.append({p for p in letters if seg_dist(at[p], at[a], at[b]) <= eps})
        groups[find(i)] |= own[-1]
    lines = []
    for root, pts in groups.items():  # a chain that bends beyond eps stays its pieces
        a, b = max(itertools.combinations(pts, 2), key=lambda ab: math.dist(at[ab[0]], at[ab[1]]))
        if all(line_distance(at[p], at[a], at[b]) <= eps for p in pts):
            lines.append(pts)
        else:
            lines.extend(own[i] for i in range(len(pieces)) if find(i) == root)
    return triangles_on(lines, letters, at, eps)


def main():
    annot_path = sys.argv[1]
    geotruth = sys.argv[2] if len(sys.argv) > 2 else "build/geotruth"
    annot = json.load(open(annot_path))
    out = subprocess.run([geotruth, "analyze", "--from", "geometry3k", annot_path], capture_output=True, text=True)
    counted = subprocess.run([geotruth, "count", "--from", "geometry3k", annot_path], capture_output=True, text=True)
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    counts = {r["id"]: r for r in map(json.loads, counted.stdout.splitlines()) if "id" in r}
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
        pos = {p["id"]: scene_point(p) for p in r["scene"].get("points", [])}
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
    # centre: "A", or IMP's "A0", "A1" for two about A), one more for each further radius name on a
    # drawn centre that a placed point lies on (concentric circles; one with no placed point
    # cannot be told from the drawn one).
    drawn = {}
    for did, d in annot.items():
        pos = d.get("point_positions", {})
        centres = {c for c in d.get("circle_instances", []) if c}
        radii = defaultdict(set)
        for f in d.get("diagram_logic_forms", []):
            if (m := ON_CIRCLE.match(f)) and m.group(2) in centres and placed(pos, m.group(1)):
                radii[m.group(2)].add(m.group(3))
        drawn[did] = sum(max(1, len(radii[c])) for c in centres)
    differ = [(did, drawn[did], circle_counts.get(did)) for did in drawn if drawn[did] != circle_counts.get(did)]
    print(f"diagrams whose circle count differs from the annotated drawn circles: {len(differ)} {differ[:12]}")
    notes = defaultdict(int)
    for r in records:
        for n in r.get("import_notes", []):
            notes[n["kind"]] += 1
    print(f"import notes: {dict(sorted(notes.items()))}")

    repeated, on_lines, alone = [], [], []
    for r in records:
        did, c = r["id"], counts.get(r["id"], {})
        for f in c.get("conflicts", []) + c.get("doubtful", []) + c.get("notes", []):
            if "triangle" in f["kind"] and len(set(f["elements"])) < len(f["elements"]):
                repeated.append((did, f["elements"]))
        eps = r["bands"]["eps_num_px"]
        at = {p["id"]: scene_point(p) for p in r["scene"].get("points", [])}
        letters = [p["id"] for p in r["scene"].get("points", []) if p.get("label", True)]
        lines = [line["points"] for line in r["incidence"]["lines"]]
        n, edge = triangles_on(lines, letters, at, eps)
        if abs(n - c.get("triangles", 0)) > edge:
            on_lines.append((did, c.get("triangles"), n))
        n, edge = triangles_from_positions(annot[did], eps)
        if abs(n - c.get("triangles", 0)) > edge:
            alone.append((did, c.get("triangles"), n))
    print(f"findings about a triangle with a repeated corner: {len(repeated)} in "
          f"{len({d for d, _ in repeated})} diagrams {repeated[:6]}")
    print(f"triangles: count differs from the brute force on analyze's lines in {len(on_lines)} diagrams {on_lines[:8]}")
    print(f"triangles: count differs from the positions alone in {len(alone)} diagrams (count, positions) "
          f"{sorted(alone, key=lambda x: int(x[0]) if x[0].isdigit() else 0)[:12]}")


if __name__ == "__main__":
    main()
