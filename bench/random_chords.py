#!/usr/bin/env python3
"""N random chords of a 640 px frame for scripts/bench's geometric row: each chord joins two
points drawn uniformly on the frame's border (on two different sides, two decimals), so almost
every pair of chords that can cross does. One scene, ends labelled P<i> and Q<i>.

Usage: random_chords.py N SEED > chords.jsonl
The same file is the input of bench/arrangement_anchor (CGAL's Arrangement_2)."""
import json
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
SIZE = 64000  # hundredths of a pixel


def on_side(side):
    t = rng.randrange(1, SIZE)  # not a corner
    return [(t, 0), (SIZE, t), (t, SIZE), (0, t)][side]


def decimal(hundredths):
    return "%d.%02d" % divmod(hundredths, 100)


points, lines = [], []
for i in range(n):
    first, second = rng.sample(range(4), 2)
    for name, side in (("P%d" % i, first), ("Q%d" % i, second)):
        x, y = on_side(side)
        points.append('{"id":"%s","at":[%s,%s]}' % (name, decimal(x), decimal(y)))
    lines.append('{"through":["P%d","Q%d"]}' % (i, i))
print('{"id":"chords-%d","frame":{"width":640,"height":640},"points":[%s],"lines":[%s]}'
      % (n, ",".join(points), ",".join(lines)))
