#!/usr/bin/env python3
"""Anchor for scripts/bench's Geometry3K row: an independent plain-Python count of what
`geotruth count --from geometry3k --mode declared --eps-num 1.5 --eps-vis 4` counts, written from
docs/counting.md's rules, exact like geotruth (positions read as fractions.Fraction):

- letters: point_instances; circles: drawn centres, plus one per further radius a fact names on
  a centre (wrong-centre reconciliation is left out);
- lines: line_instances and PointLiesOnLine facts; pieces sharing two points are one line,
  straightest pair first, unless their ends stray more than eps_vis from the line through their
  two extremes; a declared point more than eps_vis off its line's extremes is not on it; lines
  that then share two points merge under the same rule;
- segments: pairs of letters on one line; triangles: three lines meeting pairwise at letters, not
  all at one.

Usage: geometry3k_counts.py ANNOT.json > counts.jsonl   (one {"key", "letters", ...} per diagram)"""
import itertools
import json
import re
import sys
from fractions import Fraction

EPS_VIS2 = Fraction(16)  # (4 px)²
FACT = re.compile(r"^PointLiesOn(Line|Circle)\((\w+),(Line|Circle)\((\w+)(?:,(\w+))?\)\)$")


def d2(p, q):
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def off_line(p, a, b):
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return cross * cross / d2(a, b)


def straightness(points, at):
    """Squared distance of the point farthest from the line through the two extremes."""
    placed = sorted({p for p in points if at.get(p)})
    if len(placed) < 3:
        return Fraction(0)

    def farthest(origin):
        best, longest = origin, 0
        for p in placed:
            if d2(at[p], at[origin]) > longest:
                best, longest = p, d2(at[p], at[origin])
        return best

    first = farthest(placed[0])
    second = farthest(first)
    if first == second:
        return Fraction(0)
    return max(off_line(at[p], at[first], at[second]) for p in placed)


def counts(problem):
    points = [p for p in problem.get("point_instances", []) if p]
    positions = problem.get("point_positions", {})
    names = points or list(positions)
    order = {name: k for k, name in enumerate(dict.fromkeys(names + list(problem.get("redundant_point_positions", {}))))}
    at = {}
    for name, place in list(positions.items()) + list(problem.get("redundant_point_positions", {}).items()):
        if name in order and name not in at and isinstance(place, list) and len(place) == 2 and place != [-1, -1]:
            at[name] = (Fraction(place[0]), Fraction(place[1]))
    pieces = []  # [a, b, inner]

    def piece(a, b):
        for p in pieces:
            if {p[0], p[1]} == {a, b}:
                return p
        pieces.append([a, b, []])
        return pieces[-1]

    for name in dict.fromkeys(problem.get("line_instances", [])):
        splits = [(name[:k], name[k:]) for k in range(1, len(name)) if name[:k] in order and name[k:] in order]
        if len(splits) == 1 and splits[0][0] != splits[0][1]:
            piece(*splits[0])
    circles = {(c, "") for c in problem.get("circle_instances", []) if c in order}
    for fact in problem.get("diagram_logic_forms", problem.get("diagram_logic_form", [])):
        m = FACT.match(fact.replace(" ", ""))
        if not m or m.group(1) != m.group(3) or not {m.group(2), m.group(4), m.group(5) or m.group(4)} <= set(order):
            continue
        kind, p, a, b = m.group(1), m.group(2), m.group(4), m.group(5) or ""
        if kind == "Line" and b and a != b:
            target = piece(a, b)
            if p not in target[:2] and p not in target[2]:
                target[2].append(p)
        elif kind == "Circle":
            if (a, "") in circles and b:
                circles.discard((a, ""))
            if not any(c == a and r == b for c, r in circles) and not (not b and any(c == a for c, _ in circles)):
                circles.add((a, b))
    pieces = [p for p in pieces if not (at.get(p[0]) and at.get(p[1]) and at[p[0]] == at[p[1]])]
    members = [[p[0]] + p[2] + [p[1]] for p in pieces]
    ends = [[p[0], p[1]] for p in pieces]

    # Pieces sharing two points: straightest pair first, joined while straight within eps_vis.
    sharing = [(i, j) for i, j in itertools.combinations(range(len(pieces)), 2)
               if len(set(members[i]) & set(members[j])) >= 2]
    sharing.sort(key=lambda ij: straightness(ends[ij[0]] + ends[ij[1]], at))
    group = list(range(len(pieces)))
    in_group = {i: [i] for i in range(len(pieces))}

    def root(i):
        while group[i] != i:
            i = group[i]
        return i

    for i, j in sharing:
        a, b = root(i), root(j)
        if a == b:
            continue
        joined = in_group[a] + in_group[b]
        if straightness([e for k in joined for e in ends[k]], at) > EPS_VIS2:
            continue
        group[b] = a
        in_group[a], in_group[b] = joined, []
    lines = [list(g) for g in in_group.values() if g]

    def vertices(line):
        return {m for k in line for m in members[k]}

    def extremes(line):
        placed = [e for k in line for e in ends[k] if at.get(ends[k][0]) and at.get(ends[k][1])]
        if not placed:
            return None
        a, b = at[ends[line[0]][0]], at[ends[line[0]][1]]
        key = lambda e: (at[e][0] - a[0]) * (b[0] - a[0]) + (at[e][1] - a[1]) * (b[1] - a[1])
        return at[min(placed, key=key)], at[max(placed, key=key)]

    # A declared point more than eps_vis off its line is not on it.
    for line in lines:
        span = extremes(line)
        if not span:
            continue
        inner = {p for k in line for p in members[k][1:-1]}
        dropped = {p for p in vertices(line) & inner if at.get(p) and off_line(at[p], *span) > EPS_VIS2}
        for k in line:
            members[k] = [m for m in members[k] if m not in dropped]
    line_points = [vertices(line) for line in lines]

    # Lines that now share two points are one, under the same rule.
    refused = set()
    while True:
        pair = None
        for x, y in itertools.combinations(range(len(lines)), 2):
            if len(line_points[x] & line_points[y]) >= 2 and (lines[x][0], lines[y][0]) not in refused:
                if straightness(line_points[x] | line_points[y], at) <= EPS_VIS2:
                    pair = (x, y)
                    break
                refused.add((lines[x][0], lines[y][0]))
        if not pair:
            break
        x, y = pair
        lines[x] += lines[y]
        line_points[x] |= line_points[y] | vertices(lines[x])
        del lines[y], line_points[y]

    letters = set(points) if points else set(positions)
    on = [pts & letters for pts in line_points]
    segments = sum(len(l) * (len(l) - 1) // 2 for l in on)
    meet = {}
    for x, y in itertools.combinations(range(len(on)), 2):
        shared = on[x] & on[y]
        if shared:
            meet[(x, y)] = max(shared, key=lambda p: order[p])
    triangles = sum(1 for x, y, z in itertools.combinations(range(len(on)), 3)
                    if (x, y) in meet and (x, z) in meet and (y, z) in meet and meet[(x, y)] != meet[(x, z)])
    return {"letters": len(letters), "circles": len(circles), "segments": segments, "triangles": triangles}


annotations = json.load(open(sys.argv[1]), parse_float=Fraction)
for key, problem in annotations.items():
    print(json.dumps({"key": key, **counts(problem)}))
