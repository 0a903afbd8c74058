#!/usr/bin/env python3
"""Measure geotruth on AI2D annotation files against an independent reading of the same files.

Usage: scripts/measure_ai2d.py DIR [GEOTRUTH]

DIR holds AI2D's annotations (DIR/annotations/<id>.png.json, questions beside in DIR/questions, or
the files themselves). The script imports and audits them with geotruth, then reads the files
again without geotruth, by the conventions of the shared samples' worked answers: a text labelling
a blob is that blob; the nodes are the entities in directed interObjectLinkage relations, the edges
the distinct (origin, destination) pairs, undirected links counted apart; a cycle is a strongly
connected group of more than one node; a food chain a simple path from a node with no incoming
edge to one with no outgoing edge; an arrow's gap the distance between its polygon and the named
entity's polygon (or rectangle). It prints, per diagram and in all:

- scenes whose nodes, edges, undirected links, cycles or food chains disagree with the reading;
- link_detached: linkage arrows with a finding, against all linkage arrows (the bar: under a third);
- arrows confirmed reversed (a head box small against its arrow sits at the origin's end and its
  orientation points toward the origin) and how many of them arrow_reversed names, and
  arrow_reversed findings on arrows not confirmed;
- connectors far from their named entity (gap over 100 px) and how many a finding names;
- every arrow_reversed and link_misassigned finding (diagram, relation, elements, slack), marking
  the reversals the independent reading confirms, to inspect on the coordinates;
- the time per diagram of import + audit.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict


def seg_dist(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0 if n == 0 else max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def inside(p, poly):
    c = False
    for i in range(len(poly)):
        a, b = poly[i], poly[i - 1]
        if (a[1] > p[1]) != (b[1] > p[1]) and p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]):
            c = not c
    return c


def edges(poly):
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))] if len(poly) > 2 else [(poly[0], poly[-1])]


def poly_dist(P, Q):
    if (len(Q) > 2 and any(inside(p, Q) for p in P)) or (len(P) > 2 and any(inside(q, P) for q in Q)):
        return 0.0
    for a, b in edges(P):
        for c, d in edges(Q):
            if cross(c, d, a) * cross(c, d, b) < 0 and cross(a, b, c) * cross(a, b, d) < 0:
                return 0.0
    return min(min(seg_dist(p, c, d) for p in P for c, d in edges(Q)),
               min(seg_dist(q, a, b) for q in Q for a, b in edges(P)))


def rect(r):
    (x0, y0), (x1, y1) = r
    return [[min(x0, x1), min(y0, y1)], [max(x0, x1), min(y0, y1)], [max(x0, x1), max(y0, y1)], [min(x0, x1), max(y0, y1)]]


def graph_figures(directed, undirected):
    """nodes, edges, undirected links, cycles (sizes), food chains."""
    nodes = {x for e in directed for x in e}
    succ = defaultdict(set)
    for o, d in directed:
        succ[o].add(d)
    index, low, stack, on, comps = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    entered = {d for _, d in directed}

    def chains(v, seen):
        return 1 if not succ[v] else sum(chains(w, seen | {w}) for w in succ[v] if w not in seen)

    count = sum(chains(s, {s}) for s in nodes if s not in entered and succ[s])
    return len(nodes), len(directed), len(undirected), sorted(len(c) for c in comps if len(c) > 1), count


def read_annotation(path):
    a = json.load(open(path))
    geom = {k: v["polygon"] for k, v in a.get("blobs", {}).items()}
    geom.update({k: rect(v["rectangle"]) for k, v in a.get("text", {}).items()})
    rel = a.get("relationships", {})
    merged = {}
    for r in rel.values():
        if r["category"] == "intraObjectLabel":
            t, b = r["origin"], r["destination"]
            if b in a.get("text", {}) and t in a.get("blobs", {}):
                t, b = b, t
            if t in a.get("text", {}) and b in a.get("blobs", {}):
                merged.setdefault(t, b)
    node = lambda x: merged.get(x, x)
    directed, undirected, arrows = set(), set(), []
    drawn = defaultdict(list)  # one connection drawn as several arrows: its arrows together
    for r in rel.values():
        if r["category"] == "interObjectLinkage" and r.get("connector") in a.get("arrows", {}):
            o, d = node(r["origin"]), node(r["destination"])
            key = (o, d) if r.get("hasDirectionality") else frozenset((o, d))
            drawn[key].append(a["arrows"][r["connector"]]["polygon"])
    head_of = {}
    for r in rel.values():
        if r["category"] == "arrowHeadTail":
            head_of.setdefault(r["origin"], r["destination"])
    for rid, r in rel.items():
        if r["category"] != "interObjectLinkage" or r["origin"] not in geom or r["destination"] not in geom:
            continue
        o, d = node(r["origin"]), node(r["destination"])
        if o == d:
            continue
        (directed.add((o, d)) if r.get("hasDirectionality") else undirected.add(frozenset((o, d))))
        c = r.get("connector")
        if c not in a.get("arrows", {}):
            continue
        A = a["arrows"][c]["polygon"]
        parts = lambda x: [geom[x]] + [geom[t] for t, b in merged.items() if b == x]
        pieces = drawn[(o, d) if r.get("hasDirectionality") else frozenset((o, d))]
        gaps = [min(poly_dist(P, g) for P in pieces for g in parts(e)) for e in (o, d)]
        head = a.get("arrowHeads", {}).get(head_of.get(c, ""), None)
        arrows.append({"id": rid, "gaps": gaps, "directed": bool(r.get("hasDirectionality")),
                       "reversed": confirmed_reversed(A, head, parts(o), parts(d))})
    return graph_figures(directed, undirected), arrows


def confirmed_reversed(arrow, head, origin, destination):
    """Both signals put the head at the origin. Position (the shared samples' rule, only when the
    head box is small against the arrow: at most half its length): with h the box's centre and t
    the arrow vertex farthest from h, the head is at the origin unless d(h, dest) + d(t, origin) <
    d(h, origin) + d(t, dest). Orientation (-1: unknown, so not confirmed): the origin's centre lies
    farther ahead of the head than the destination's."""
    if not head or head.get("orientation", -1) < 0:
        return False
    (x0, y0), (x1, y1) = head["rectangle"]
    h = ((x0 + x1) / 2, (y0 + y1) / 2)
    length = max(math.dist(p, q) for p in arrow for q in arrow)
    if max(abs(x1 - x0), abs(y1 - y0)) > length / 2:
        return False
    dist = lambda p, parts: min(min(seg_dist(p, c, d) for c, d in edges(g)) if not inside(p, g) else 0 for g in parts)
    t = max(arrow, key=lambda p: math.dist(p, h))
    if dist(h, destination) + dist(t, origin) < dist(h, origin) + dist(t, destination):
        return False
    a = math.radians(head["orientation"])
    centre = lambda parts: (sum(p[0] for p in parts[0]) / len(parts[0]), sum(p[1] for p in parts[0]) / len(parts[0]))
    ahead = lambda c: (c[0] - h[0]) * math.cos(a) + (c[1] - h[1]) * math.sin(a)
    return ahead(centre(origin)) > ahead(centre(destination))


def scene_figures(scene):
    directed, undirected = set(), set()
    for l in scene.get("links", []):
        if l["from"] == l["to"]:
            continue
        (directed.add((l["from"], l["to"])) if l.get("directed", True) else undirected.add(frozenset((l["from"], l["to"]))))
    return graph_figures(directed, undirected)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    source, geotruth = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "build/geotruth"
    folder = os.path.join(source, "annotations") if os.path.isdir(os.path.join(source, "annotations")) else source
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    with tempfile.TemporaryDirectory() as tmp:
        scenes_path, out = os.path.join(tmp, "scenes.jsonl"), os.path.join(tmp, "audit")
        start = time.monotonic()
        subprocess.run([geotruth, "import", "--from", "ai2d", source, "-o", scenes_path], check=False)
        subprocess.run([geotruth, "audit", scenes_path, "-o", out, "--no-progress", "--threads", "1"], check=False,
                       stdout=subprocess.DEVNULL)
        elapsed = time.monotonic() - start
        scenes = {s["id"]: s for s in map(json.loads, open(scenes_path)) if "id" in s}
        findings = {r["id"]: r.get("findings", []) for r in map(json.loads, open(os.path.join(out, "scenes.jsonl")))
                    if "id" in r}
    disagree, linkage, detached, confirmed, found, extra_reversed, far, far_named = 0, 0, 0, 0, 0, 0, 0, 0
    listed = []
    for f in files:
        key = f[:-len(".png.json")] if f.endswith(".png.json") else f[:-5]
        reading, arrows = read_annotation(os.path.join(folder, f))
        scene = scenes.get(key)
        mine = scene_figures(scene) if scene else None
        if mine != reading:
            disagree += 1
            print(f"{key}: geotruth {mine} reading {reading} (nodes, edges, undirected, cycles, chains)")
        named = defaultdict(set)
        for fd in findings.get(key, []):
            named[fd["kind"]].add(fd["elements"][0])
        linkage += len(arrows)
        detached += sum(1 for a in arrows if a["id"] in named["link_detached"])
        for a in arrows:
            if a["reversed"]:
                confirmed += 1
                found += a["id"] in named["arrow_reversed"]
            if max(a["gaps"]) > 100:
                far += 1
                far_named += bool(named["link_misassigned"] & {a["id"]} or named["link_detached"] & {a["id"]})
        extra_reversed += len(named["arrow_reversed"] - {a["id"] for a in arrows if a["reversed"]})
        for fd in findings.get(key, []):  # every one, to inspect on the coordinates
            if fd["kind"] in ("arrow_reversed", "link_misassigned"):
                confirmed_mark = "confirmed" if any(a["id"] == fd["elements"][0] and a["reversed"] for a in arrows) else ""
                listed.append(f"  {key} {fd['kind']} {fd['elements']} {fd.get('slack_px')} {confirmed_mark}".rstrip())
    n = max(len(files), 1)
    print(f"diagrams: {len(files)}; graph disagreements: {disagree}")
    print(f"link_detached: {detached} of {linkage} linkage arrows ({100 * detached / max(linkage, 1):.1f}%)")
    print(f"confirmed reversed: {confirmed}, named by arrow_reversed: {found}; arrow_reversed elsewhere: {extra_reversed}")
    print(f"connectors over 100 px from a named entity: {far}, named by a finding: {far_named}")
    print(f"arrow_reversed and link_misassigned findings: {len(listed)}")
    print("\n".join(listed))
    print(f"time: {elapsed:.2f} s for import + audit, {1000 * elapsed / n:.1f} ms per diagram")


if __name__ == "__main__":
    main()
