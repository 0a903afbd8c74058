#!/usr/bin/env python3
"""A line-list figure (CountShapes' text format, which `geotruth count --from linelist` reads):
N random lines in general position, each row naming the points where it meets the others, in
order along it. Every two lines meet once and no three at one point, so the figure has C(N, 3)
triangles and C(N, 4) convex quadrilaterals.

Usage: line_figure.py N SEED > figure.txt"""
import itertools
import math
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
lines = []  # (point, direction)
for _ in range(n):
    angle = rng.uniform(0, math.pi)
    lines.append(((rng.uniform(0, 1), rng.uniform(0, 1)), (math.cos(angle), math.sin(angle))))
along = [[] for _ in range(n)]  # (parameter, name) per line
for (i, (p, d)), (j, (q, e)) in itertools.combinations(enumerate(lines), 2):
    det = d[0] * e[1] - d[1] * e[0]
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / det
    u = ((q[0] - p[0]) * d[1] - (q[1] - p[1]) * d[0]) / det
    name = "P%d_%d" % (i, j)
    along[i].append((t, name))
    along[j].append((u, name))
print("# %d lines in general position (bench/line_figure.py %d %d)" % (n, n, seed))
for points in along:
    print(" ".join(name for _, name in sorted(points)))
