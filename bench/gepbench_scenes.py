#!/usr/bin/env python3
"""GePBench-style scenes for scripts/bench: 2-8 shapes placed at random on the unit canvas like
the public engine places them (4-decimal numbers), some built in a relation with an earlier shape
(tangent segments and circles, squares inscribed in or around circles, parallel segments, similar
copies), with a count, a location, a size and a relation question each.

Usage: gepbench_scenes.py N SEED > scenes.jsonl"""
import json
import math
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)


def pt(x, y):
    return [round(x, 4), round(y, 4)]


def scene(i):
    shapes, circles = [], []
    for j in range(rng.randint(2, 8)):
        sid = "s%d" % j
        x, y = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)
        r, th = rng.uniform(0.03, 0.2), rng.uniform(0, 2 * math.pi)
        free = lambda: pt(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9))

        def box(w, h):
            return [pt(x + u * w / 2 * math.cos(th) - v * h / 2 * math.sin(th),
                       y + u * w / 2 * math.sin(th) + v * h / 2 * math.cos(th))
                    for u, v in [(-1, -1), (1, -1), (1, 1), (-1, 1)]]

        kind = rng.choice(["square", "circle", "ellipse", "segment", "triangle", "rectangle", "line",
                           "tangent", "inscribed", "parallel", "similar"])
        if kind == "tangent" and circles:
            cx, cy, cr = rng.choice(circles)
            gap = rng.choice([0, 0, 0.002, 0.02])
            px, py = cx + (cr + gap) * math.cos(th), cy + (cr + gap) * math.sin(th)
            dx, dy = -math.sin(th), math.cos(th)
            shapes.append({"id": sid, "type": "segment",
                           "points": [pt(px - 0.2 * dx, py - 0.2 * dy), pt(px + 0.2 * dx, py + 0.2 * dy)]})
        elif kind == "inscribed" and circles:
            cx, cy, cr = rng.choice(circles)
            shapes.append({"id": sid, "type": "polygon", "kind": "square", "points": [
                pt(cx + cr * math.cos(th + a * math.pi / 2), cy + cr * math.sin(th + a * math.pi / 2)) for a in range(4)]})
        elif kind == "parallel" and shapes and shapes[-1]["type"] == "segment":
            (ax, ay), (bx, by) = shapes[-1]["points"]
            off = rng.uniform(-0.2, 0.2)
            shapes.append({"id": sid, "type": "segment", "points": [pt(ax + off, ay - off / 2), pt(bx + off, by - off / 2)]})
        elif kind == "similar" and shapes and shapes[-1]["type"] == "polygon":
            s, c, sn = rng.uniform(0.5, 1.5), math.cos(th), math.sin(th)
            shapes.append({"id": sid, "type": "polygon", "points": [
                pt(0.5 + s * (c * (px - 0.5) - sn * (py - 0.5)), 0.5 + s * (sn * (px - 0.5) + c * (py - 0.5)))
                for px, py in shapes[-1]["points"]]})
        elif kind == "square":
            shapes.append({"id": sid, "type": "polygon", "kind": "square", "points": box(2 * r, 2 * r)})
        elif kind == "rectangle":
            shapes.append({"id": sid, "type": "polygon", "kind": "rectangle", "points": box(2 * r, r)})
        elif kind == "ellipse":
            shapes.append({"id": sid, "type": "ellipse", "center": pt(x, y), "axes": [round(r, 4), round(r / 2, 4)],
                           "rotation": round(math.degrees(th), 4)})
        elif kind == "segment":
            shapes.append({"id": sid, "type": "segment", "points": [pt(x, y), free()]})
        elif kind == "line":
            shapes.append({"id": sid, "type": "line", "points": [pt(x, y), free()]})
        elif kind == "triangle":
            shapes.append({"id": sid, "type": "polygon", "points": [pt(x, y), free(), free()]})
        else:
            shapes.append({"id": sid, "type": "circle", "center": pt(x, y), "radius": round(r, 4)})
            circles.append((round(x, 4), round(y, 4), round(r, 4)))
    questions = [
        {"id": "c", "ask": "count", "of": "circle", "options": ["0", "1", "2", "3"], "answer": "B"},
        {"id": "l", "ask": "location", "of": "s0", "options": ["upper left", "upper right", "lower left", "lower right"],
         "answer": "C"},
        {"id": "w", "ask": "size", "of": "s0", "measure": "width", "options": ["0.05", "0.2", "0.35", "0.5"], "answer": "B"},
        {"id": "r", "ask": "relation", "between": ["s0", "s1"],
         "options": ["tangent", "parallel", "intersecting", "none of the above"], "answer": "D"},
    ]
    return {"id": "g%d" % i, "frame": {"width": 1, "height": 1, "y": "up"}, "shapes": shapes, "questions": questions}


for i in range(n):
    print(json.dumps(scene(i), separators=(",", ":")))
