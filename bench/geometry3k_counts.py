#!/usr/bin/env python3
"""Anchor for scripts/bench's Geometry3K row: an independent, plain-Python count of what
`geotruth count --from geometry3k --mode declared` counts, from the declared facts alone:
letters (point_instances), circles (drawn centres, plus one per further radius a fact names on a
centre), segments (pairs of letters on one line: line_instances and PointLiesOnLine facts, lines
sharing two points merged) and triangles (triples of letters pairwise on a line, not all on one).
It does not check positions (geotruth also refuses facts its positions contradict), so a few
diagrams differ; the bench reports how many agree.

Usage: geometry3k_counts.py ANNOT.json > counts.jsonl   (one {"key", "letters", ...} per diagram)"""
import itertools
import json
import re
import sys

FACT = re.compile(r"^PointLiesOn(Line|Circle)\((\w+),\s*(Line|Circle)\((\w+)(?:,\s*(\w+))?\)\)$")


def split(name, points):
    splits = [(name[:k], name[k:]) for k in range(1, len(name)) if name[:k] in points and name[k:] in points]
    return splits[0] if len(splits) == 1 and splits[0][0] != splits[0][1] else None


def counts(problem):
    points = [p for p in problem.get("point_instances", []) if p]
    known = set(points) | set(problem.get("redundant_point_positions", {}))
    lines = []  # sets of points
    for name in dict.fromkeys(problem.get("line_instances", [])):
        ends = name and split(name, known)
        if ends:
            lines.append(set(ends))
    circles = {(c, "") for c in problem.get("circle_instances", []) if c in known}
    for fact in problem.get("diagram_logic_forms", problem.get("diagram_logic_form", [])):
        m = FACT.match(fact.replace(" ", ""))
        if not m or m.group(1) != m.group(3):
            continue
        kind, p, a, b = m.group(1), m.group(2), m.group(4), m.group(5) or ""
        if not {p, a, b or a} <= known:
            continue
        if kind == "Line" and b and a != b:
            line = next((l for l in lines if {a, b} <= l), None)
            if line is None:
                lines.append({a, b, p})
            else:
                line.add(p)
        elif kind == "Circle":
            if (a, "") in circles and b:
                circles.discard((a, ""))
            if not any(c == a and r == b for c, r in circles) and not (not b and any(c == a for c, _ in circles)):
                circles.add((a, b))
    merged = True
    while merged:  # lines that share two points are one
        merged = False
        for i, j in itertools.combinations(range(len(lines)), 2):
            if len(lines[i] & lines[j]) >= 2:
                lines[i] |= lines.pop(j)
                merged = True
                break
    letters = set(points)
    on = [l & letters for l in lines]
    segments = sum(len(l) * (len(l) - 1) // 2 for l in on)
    pairs = {frozenset(p) for l in on for p in itertools.combinations(sorted(l), 2)}
    triangles = 0
    for a, b, c in itertools.combinations(sorted(letters), 3):
        if {frozenset((a, b)), frozenset((b, c)), frozenset((a, c))} <= pairs and not any({a, b, c} <= l for l in on):
            triangles += 1
    return {"letters": len(letters), "circles": len(circles), "segments": segments, "triangles": triangles}


for key, problem in json.load(open(sys.argv[1])).items():
    print(json.dumps({"key": key, **counts(problem)}))
