#!/usr/bin/python3
"""Measure geotruth's picture reader (`import --from picture`, docs/reader.md) on development data.

Usage:
  scripts/measure_reader.py visonlyqa --repo VISONLYQA_REPO [--split val] [--build build] [--json OUT]
  scripts/measure_reader.py tangram [--n 200] [--seed 3] [--build build]
  scripts/measure_reader.py geometry3k [--samples ../shared/samples/geometry3k] [--long-side 151] [--build build]
  scripts/measure_reader.py countshapes --figures DIR [--build build]
  scripts/measure_reader.py gepbench [--level easy] [--n 200] [--seed 3] [--build build]
  scripts/measure_reader.py speed [--build build]

visonlyqa: the pictures of VisOnlyQA's synthetic geometry items (its val split; the test split is
refused: it is kept for checking), read from the picture alone. The `synthetic_with_text` items'
text lists the true points (letters with positions in figure units), lines (as letter sequences) and
circles (centre, radius); the similarity from figure units to pixels is fitted to the letters read
(least squares over rotation, scale and translation, after flipping y, with outliers refitted
away). Printed: precision and recall of letters with their positions (a point the reader names by the
figure's range, its letter written past the picture's edge or not seen, counts as read: "named_by_range"), of
lines as sets of letters ("lines_by_place" matches them by their points' places instead, a misread letter aside)
(the description's lines made maximal: pieces that share a point and are collinear within its
2-decimal rounding are one line, as drawn; where only the rounding merges lines the text lists
apart, either reading is right, the one the picture read matching more; a point the text leaves off
a line but within the rounding of its stroke, between its ends, is on it where the picture reads it so, and a line
the picture reads on past its end, straight within the rounding and along strokes the text draws, runs on as read;
"lines_as_listed" keeps
them apart; the lines read are merged only where a line read in two pieces is one straight line,
and two read at an angle are judged each on its own, "lines_merged_by_two_letters" merging any
two that share two letters, as earlier runs did), of circles (the
texts list one circle at most: circles read that a text lacks but that are centred on a described
point and pass through another, or pass through three, are counted apart, "unlisted_on_points"); and, with the `visonlyqa`
importer, every question answered from the picture alone
(`audit --truth-from picture`): coverage and accuracy per task, against the dataset's label and
against the truth the description decides (`audit` from the text; its ambiguous items left out).

tangram: geotruth's own Tangram items (generate --family tangram --level medium) rendered clean,
with --style sketch and with noise, read back and compared with their scenes (letters within 2 %
of the picture, lines as letter sets, circles), and their four counts (letters, circles, segments,
triangles) compared with the scenes' own.

geometry3k: the sample's pictures against their annotations (letters and positions, registered by
the median offset of the letters read; lines as letter sets, the annotation's pieces made maximal
within 3 px; circles by centre letter).

countshapes: CountShapes' figures (FlorinTulba/Recoded CountShapes/TestFigures, the number in each
name is the answer): triangles + convex quadrilaterals with any vertex from the picture alone.

speed: pictures per CPU-second of `import --from picture --threads 1`-equivalent reading on 640 x 640
Tangram pictures, and the wall-clock gain of 2 threads.
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def number(v):
    if isinstance(v, str):
        if "/" in v:
            p, q = v.split("/")
            return float(p) / float(q)
        return float(v)
    return float(v)


def import_pictures(build, paths, out):
    """Reads pictures with geotruth import --from picture; returns {scene id: scene}."""
    cmd = [os.path.join(build, "geotruth"), "import", "--from", "picture", "-o", out] + paths
    proc = run(cmd)
    if proc.returncode not in (0, 1):
        sys.exit("import --from picture failed: " + proc.stderr)
    scenes = {}
    errors = []
    for record in read_jsonl(out):
        if "error" in record:
            errors.append(record)
        else:
            scenes[record["id"]] = record
    return scenes, errors


def named_by_range(point):
    """Whether the reader named this unlabelled point by the figure's range of letters (its letter
    written past the picture's edge, clipped, or not seen: the evidence says so)."""
    extra = point.get("extra")
    evidence = extra.get("evidence") if isinstance(extra, dict) else None
    letter = evidence.get("letter") if isinstance(evidence, dict) else None
    return isinstance(letter, dict) and "the figure's range" in str(letter.get("from", ""))


def lettered(point, with_range):
    return point.get("label", True) or (with_range and named_by_range(point))


def labelled_points(scene, with_range=False):
    """{letter: (x, y)} of a read scene's labelled points (and, `with_range`, the points the reader
    named by the figure's range, their letters clipped or not seen)."""
    out = {}
    for p in scene.get("points", []):
        if lettered(p, with_range) and "?" not in p["id"] and not p["id"].startswith("_"):
            out[p["id"]] = (number(p["at"][0]), number(p["at"][1]))
    return out


def letter_lines(scene, with_range=False):
    """The read scene's lines as frozensets of their letters (two letters at least)."""
    ids = {p["id"] for p in scene.get("points", []) if lettered(p, with_range) and not p["id"].startswith("_")}
    out = set()
    for line in scene.get("lines", []):
        letters = frozenset(t for t in line["through"] if t in ids)
        if len(letters) >= 2:
            out.add(letters)
    return out


def merge_while(lines, joins):
    """Letter sets merged, a pair at a time, while `joins(a, b)` says two are one line. In a fixed
    order (the sets' sorted letters): where merges depend on their order, as collinearity within the
    rounding does, a set's iteration order would change the figures from one run to the next."""
    lines = [set(l) for l in sorted(lines, key=sorted)]
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                if joins(lines[i], lines[j]):
                    lines[i] |= lines.pop(j)
                    changed = True
                    break
            if changed:
                break
    return {frozenset(l) for l in lines}


def merged_lines(lines):
    """Letter sets merged while two share two letters (collinear pieces that touch are one line)."""
    return merge_while(lines, lambda a, b: len(a & b) >= 2)


# VisOnlyQA writes its coordinates to 2 decimals (±0.005 each): a point this close to the line
# through two others may lie on it in the drawn figure.
ROUNDING_SLACK = 0.015
# Hand-clicked annotations (Geometry3K's point positions, in pixels) are precise to a pixel or two.
HAND_SLACK_PX = 3.0


def farthest_pair(pts):
    """The two of the points farthest apart (the first such pair in the points' order)."""
    return max(((p, q) for p in pts for q in pts), key=lambda pq: math.dist(*pq))


def collinear(points, letters, slack):
    """Whether the letters' points all lie within `slack` of the line through the two farthest
    apart (False when one has no position)."""
    if not all(k in points for k in letters):
        return False
    pts = [points[k] for k in letters]
    a, b = farthest_pair(pts)
    length = math.dist(a, b)
    return length > 0 and all(
        abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length <= slack for p in pts)


def maximal_lines(lines, points, slack=ROUNDING_SLACK):
    """A description's lines made maximal: two lines that share a point and whose points all lie
    within `slack` of one straight line (the description's rounding) are one line, as the picture
    draws them ("AB, BE" with B on AE is the line ABE). Lines whose points are not all known stay."""
    return merge_while(merged_lines(lines), lambda a, b: a & b and collinear(points, a | b, slack))


def read_lines_as_drawn(scene, with_range=False):
    """The read scene's lines as letter sets, two that share two letters merged where all their
    letters lie within the picture's tolerance (`extra.picture.tolerance_px`) of one straight line:
    one line the reader read in two pieces. Two lines at an angle that both hold the same two letters
    are two readings, one of them wrong, each judged on its own: merged, a letter misplaced onto a
    second line would fold every line through its neighbours into one (VisOnlyQA 00566noise_1: E and
    M, 8 px apart, both on K–E's line as read, folded 13 lines into one)."""
    picture = (scene.get("extra") or {}).get("picture") or {}
    slack = number(picture.get("tolerance_px", 2.0))
    points = labelled_points(scene, with_range)
    return merge_while(letter_lines(scene, with_range),
                       lambda a, b: len(a & b) >= 2 and collinear(points, a | b, slack))


def lines_as_read_where_unsure(listed, maximal, read):
    """The description's lines where its rounding cannot say how many there are: lines it lists apart
    that merge into one maximal line only within the rounding (B 0.006 units off line AC, at 500 px
    a unit: 3 px) may be one drawn line or several, and the text cannot tell which. Of such a
    group, the reading that the picture read matches more is taken (the maximal line on a tie);
    every other line is as maximal_lines gives it."""
    truth = set()
    for line in maximal:
        pieces = {l for l in listed if l <= line}
        if len(pieces) > 1 and len(pieces & read) > (line in read):
            truth |= pieces
        else:
            truth.add(line)
    return truth


def points_on_lines_as_read_where_unsure(truth_lines, points, read, slack=ROUNDING_SLACK):
    """The truth's lines with the points the rounding may put on them: a point the description
    leaves off line L (G, the crossing of BD and AE, not listed on CF) but that lies within `slack`
    of L's straight line and between L's ends is drawn on L's stroke, and the text cannot say
    whether it lies on L. Where the picture read L with such points (CFG), that reading is the
    truth; every other line stays as it is."""
    def within_rounding(line, k):
        if k not in points or not all(j in points for j in line):
            return False
        pts = [points[j] for j in line]
        a, b = farthest_pair(pts)
        length = math.dist(a, b)
        if length == 0:
            return False
        p = points[k]
        along = ((b[0] - a[0]) * (p[0] - a[0]) + (b[1] - a[1]) * (p[1] - a[1])) / length
        across = abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length
        return across <= slack and 0 < along < length

    out = set()
    for line in truth_lines:
        as_read = [r for r in read if r > line and all(within_rounding(line, k) for k in r - line)]
        out.add(max(as_read, key=len) if as_read else line)
    return out


def lines_run_on_where_unsure(truth_lines, points, read, slack=ROUNDING_SLACK):
    """The truth's lines run on where the rounding cannot say they stop: a line L the picture read
    on past L's end through points the description puts within `slack` of L's straight line (all
    of the read line's points collinear within the rounding), each step between two neighbours
    along it drawn by a line of the description that holds both (VisOnlyQA 00617: F 0.003 units
    off line BE beyond B, and B-F drawn as a piece of line BCF, so the ink runs straight from E
    through B to F). The text cannot tell whether F lies on BE; where the picture read BEF, that
    reading replaces the description's lines it holds. A read line that holds none of the
    description's lines, or lies within one, is judged as it is."""
    def drawn(a, b):
        return any(a in t and b in t for t in truth_lines)

    out = set(truth_lines)
    for r in sorted(read - out, key=sorted):
        if len(r) < 3 or not all(k in points for k in r) or not collinear(points, r, slack):
            continue
        held = {t for t in out if t < r}
        if not held or any(r < t for t in out):
            continue
        pts = {k: points[k] for k in r}
        a, b = farthest_pair(list(pts.values()))
        along = sorted(r, key=lambda k: (b[0] - a[0]) * (pts[k][0] - a[0]) + (b[1] - a[1]) * (pts[k][1] - a[1]))
        if all(drawn(p, q) for p, q in zip(along, along[1:])):
            out = (out - held) | {r}
    return out


def lines_matched_by_place(true_lines, read_lines, true_px, read_px, tolerance):
    """How many of the true lines a read line matches point for point by place, whatever the
    letters (each point of either within `tolerance` px of a point of the other; one read line to
    one true line): the strokes read, a misread letter aside. For the record beside the lines as
    letter sets, which a missed letter fails."""
    def places(line, px):
        return [px[k] for k in line] if all(k in px for k in line) else None

    read = [places(r, read_px) for r in sorted(read_lines, key=sorted)]
    used, matched = set(), 0
    for t in sorted(true_lines, key=sorted):
        want = places(t, true_px)
        if want is None:
            continue
        for i, got in enumerate(read):
            if i in used or got is None:
                continue
            if all(any(math.dist(p, q) <= tolerance for q in got) for p in want) and \
                    all(any(math.dist(p, q) <= tolerance for p in want) for q in got):
                used.add(i)
                matched += 1
                break
    return matched


LINE_MISS_CAUSES = ("a_letter_missed", "within_a_stroke", "a_point_beside_it", "other")
# A point this many stroke widths off a line at most is beside it (line_miss_cause).
BESIDE_STROKES = 4


def line_miss_cause(line, other_side, letters_missed, pixels, stroke_px):
    """Why a line is on one side only (a true line not read, or a read line not true), for the
    record: "a_letter_missed" when one of its letters is a letter the picture's reading missed or
    placed elsewhere (the line cannot be named right); "within_a_stroke" when it and a line of the
    other side that shares two of its letters differ by points that lie, in the picture, within a
    stroke's width of one straight line through them all (the text keeps a point 1-3 px off a line
    the picture draws straight through it: the picture cannot show which); "a_point_beside_it" when
    they lie within BESIDE_STROKES stroke widths of one (a point a few pixels off a line read on it,
    or on a line read off it: two strokes meeting at its dot at a slight bend, a dot read a pixel or
    two off its place); else "other"."""
    if line & letters_missed:
        return "a_letter_missed"
    sharing = [line | other for other in other_side
               if len(line & other) >= 2 and all(k in pixels for k in line | other)]
    for tolerance, cause in ((stroke_px, "within_a_stroke"), (BESIDE_STROKES * stroke_px, "a_point_beside_it")):
        if any(collinear(pixels, both, tolerance) for both in sharing):
            return cause
    return "other"


def full_circles(scene):
    out = []
    points = {p["id"]: p for p in scene.get("points", [])}
    for c in scene.get("circles", []):
        if c.get("quadrants", "1111") != "1111":
            continue
        centre = c["center"]
        if isinstance(centre, str):
            centre = points[centre]["at"]
        out.append(((number(centre[0]), number(centre[1])), number(c["radius"])))
    return out


def fit_similarity(pairs):
    """Least-squares similarity (scale, rotation, translation) taking src to dst, for pairs
    [((sx, sy), (dx, dy))]: the closed form of Umeyama without reflection."""
    n = len(pairs)
    msx = sum(p[0][0] for p in pairs) / n
    msy = sum(p[0][1] for p in pairs) / n
    mdx = sum(p[1][0] for p in pairs) / n
    mdy = sum(p[1][1] for p in pairs) / n
    a = b = var = 0.0
    for (sx, sy), (dx, dy) in pairs:
        sx, sy, dx, dy = sx - msx, sy - msy, dx - mdx, dy - mdy
        a += sx * dx + sy * dy
        b += sx * dy - sy * dx
        var += sx * sx + sy * sy
    if var == 0:
        return None
    c, s = a / var, b / var  # scale * (cos, sin)

    def apply(p):
        x, y = p[0] - msx, p[1] - msy
        return (c * x - s * y + mdx, s * x + c * y + mdy)

    return apply, math.hypot(c, s)


def robust_similarity(pairs):
    """The similarity fitted to all pairs, then refitted without those beyond 3 median residuals."""
    if len(pairs) < 2:
        return None
    fit = fit_similarity(pairs)
    if fit is None:
        return None
    for _ in range(2):
        apply, _scale = fit
        residuals = [math.dist(apply(s), d) for s, d in pairs]
        median = sorted(residuals)[len(residuals) // 2]
        kept = [p for p, r in zip(pairs, residuals) if r <= max(3 * median, 4.0)]
        if len(kept) < 2 or len(kept) == len(pairs):
            break
        refit = fit_similarity(kept)
        if refit is None:
            break
        fit, pairs = refit, kept
    return fit


# ---------------------------------------------------------------- VisOnlyQA

POINT = re.compile(r"Point ([A-Z][A-Za-z0-9']*): Position\(x=(-?[0-9.]+), y=(-?[0-9.]+)\)")
LINE = re.compile(r"^Line: (.*)$", re.M)
CIRCLE = re.compile(r"CenterPosition\(x=(-?[0-9.]+), y=(-?[0-9.]+)\), Radius=([0-9.]+)")


def visonlyqa_truths(split_dir):
    """{image path: {points, lines, circles}} from the synthetic_with_text items' texts."""
    truths = {}
    for path in sorted(glob.glob(os.path.join(split_dir, "synthetic_with_text", "text_syntheticgeometry__*.jsonl"))):
        for item in read_jsonl(path):
            text = item["prompt_no_reasoning"] or ""
            points = {m[0]: (float(m[1]), float(m[2])) for m in POINT.findall(text)}
            if not points:
                continue
            line_text = LINE.search(text)
            lines = []
            if line_text:
                lines = [frozenset(tok.strip()) for tok in line_text.group(1).split(",") if tok.strip()]
            circles = [((float(x), float(y)), float(r)) for x, y, r in CIRCLE.findall(text)]
            truths[item["image_path"]] = {"points": points, "lines": lines, "circles": circles}
    return truths


def prf(tp, predicted, actual):
    p = tp / predicted if predicted else 1.0
    r = tp / actual if actual else 1.0
    return p, r


def measure_visonlyqa(args):
    if args.split != "val":
        sys.exit("the test split is kept for checking: measure on val only")
    work = args.work or tempfile.mkdtemp(prefix="reader-voqa-")
    os.makedirs(work, exist_ok=True)
    # The split read in place from the mirror's git history (never copied into the project).
    subprocess.run(["git", "-C", args.repo, "archive", "-o", os.path.join(work, "split.tar"), "HEAD",
                    "dataset/" + args.split], check=True)
    subprocess.run(["tar", "-xf", os.path.join(work, "split.tar"), "-C", work], check=True)
    split_dir = os.path.join(work, "dataset", args.split)
    truths = visonlyqa_truths(split_dir)
    images = sorted(truths)
    if args.limit:
        images = images[: args.limit]
    paths = [os.path.join(split_dir, image) for image in images]
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    scenes, errors = import_pictures(args.build, paths, os.path.join(work, "read.jsonl"))
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
    totals = collections.Counter()
    misses = []
    for image, path in zip(images, paths):
        truth = truths[image]
        scene_id = os.path.splitext(os.path.basename(path))[0]
        scene = scenes.get(scene_id)
        if scene is None:
            totals["unread"] += 1
            continue
        width, height = scene["frame"]["width"], scene["frame"]["height"]
        tol = max(8.0, 0.01 * max(width, height))
        read = labelled_points(scene, with_range=True)
        totals["named_by_range"] += len(read) - len(labelled_points(scene))
        pairs = [((x, -y), read[k]) for k, (x, y) in truth["points"].items() if k in read]
        fit = robust_similarity(pairs)
        if fit is None:
            totals["unregistered"] += 1
            totals["letters_actual"] += len(truth["points"])
            totals["letters_read"] += len(read)
            continue
        apply, scale = fit
        tp = 0
        letters_missed = set()
        for k, (x, y) in truth["points"].items():
            if k in read and math.dist(apply((x, -y)), read[k]) <= tol:
                tp += 1
            else:
                misses.append((scene_id, "letter", k))
                letters_missed.add(k)
        totals["letters_tp"] += tp
        totals["letters_read"] += len(read)
        totals["letters_actual"] += len(truth["points"])
        listed_lines = merged_lines(truth["lines"])
        maximal = maximal_lines(truth["lines"], truth["points"])

        def true_lines_as_read(read_lines):
            """The description's lines, where its rounding cannot tell, as the picture read them."""
            return lines_run_on_where_unsure(points_on_lines_as_read_where_unsure(
                lines_as_read_where_unsure(listed_lines, maximal, read_lines), truth["points"], read_lines),
                truth["points"], read_lines)

        read_lines = read_lines_as_drawn(scene, with_range=True)
        true_lines = true_lines_as_read(read_lines)
        totals["lines_tp"] += len(true_lines & read_lines)
        totals["lines_read"] += len(read_lines)
        totals["lines_actual"] += len(true_lines)
        totals["lines_listed_tp"] += len(listed_lines & read_lines)
        totals["lines_listed"] += len(listed_lines)
        # Read lines merged whenever they share two letters, at an angle or not (the measure of
        # earlier sessions, for comparison).
        by_letters = merged_lines(letter_lines(scene, with_range=True))
        true_by_letters = true_lines_as_read(by_letters)
        totals["lines_by_letters_tp"] += len(true_by_letters & by_letters)
        totals["lines_by_letters_read"] += len(by_letters)
        totals["lines_by_letters_actual"] += len(true_by_letters)
        pixels = {k: apply((x, -y)) for k, (x, y) in truth["points"].items()}
        totals["lines_by_place_tp"] += lines_matched_by_place(true_lines, read_lines, pixels, read, tol)
        stroke = number(((scene.get("extra") or {}).get("picture") or {}).get("stroke_px", 2.0))
        for l in sorted(true_lines - read_lines, key=sorted):
            misses.append((scene_id, "line missed", "".join(sorted(l))))
            totals["lines_missed_" + line_miss_cause(l, read_lines, letters_missed, pixels, stroke)] += 1
        for l in sorted(read_lines - true_lines, key=sorted):
            misses.append((scene_id, "line extra", "".join(sorted(l))))
            totals["lines_extra_" + line_miss_cause(l, true_lines, letters_missed, pixels, stroke)] += 1
        read_circles = full_circles(scene)
        used = set()
        for (cx, cy), r in truth["circles"]:
            centre = apply((cx, -cy))
            radius = r * scale
            match = next((i for i, (c, rr) in enumerate(read_circles)
                          if i not in used and math.dist(c, centre) <= tol and abs(rr - radius) <= tol), None)
            if match is not None:
                used.add(match)
                totals["circles_tp"] += 1
            else:
                misses.append((scene_id, "circle missed", ""))
        totals["circles_read"] += len(read_circles)
        totals["circles_actual"] += len(truth["circles"])
        # VisOnlyQA's texts list one circle at most (236 of 236 val texts with a "Circles:" list
        # one) where the figure may draw several: a circle read that the text lacks, centred on a
        # described point and through another, or through three described points (a circumcircle,
        # 00913's), is counted apart as a likely drawn, unlisted circle.
        described = [apply((x, -y)) for x, y in truth["points"].values()]
        for i, (c, rr) in enumerate(read_circles):
            through = sum(1 for p in described if abs(math.dist(c, p) - rr) <= tol)
            if i not in used and (through >= 3 or through >= 1 and any(math.dist(c, p) <= tol for p in described)):
                totals["circles_unlisted"] += 1
        totals["pictures"] += 1
    out = {"pictures": len(images), "read": len(scenes), "errors": len(errors),
           "cpu_seconds": round(cpu, 2), "pictures_per_cpu_second": round(len(images) / cpu, 2) if cpu else None}
    for what in ("letters", "lines", "circles"):
        p, r = prf(totals[what + "_tp"], totals[what + "_read"], totals[what + "_actual"])
        out[what] = {"precision": round(p, 4), "recall": round(r, 4), "true": totals[what + "_tp"],
                     "read": totals[what + "_read"], "actual": totals[what + "_actual"]}
    circles = out["circles"]
    circles["unlisted_on_points"] = totals["circles_unlisted"]
    circles["precision_with_unlisted"] = round(
        (totals["circles_tp"] + totals["circles_unlisted"]) / totals["circles_read"], 4) if totals["circles_read"] else 1.0
    # The same lines as the description lists them, its collinear pieces apart (the figure of
    # earlier runs, for comparison).
    p, r = prf(totals["lines_listed_tp"], totals["lines_read"], totals["lines_listed"])
    out["lines_as_listed"] = {"precision": round(p, 4), "recall": round(r, 4)}
    p, r = prf(totals["lines_by_letters_tp"], totals["lines_by_letters_read"], totals["lines_by_letters_actual"])
    out["lines_merged_by_two_letters"] = {"precision": round(p, 4), "recall": round(r, 4)}
    # The lines matched by their points' places, a misread letter aside (lines_matched_by_place).
    p, r = prf(totals["lines_by_place_tp"], totals["lines_read"], totals["lines_actual"])
    out["lines_by_place"] = {"precision": round(p, 4), "recall": round(r, 4)}
    # Why the lines on one side only are there (line_miss_cause), for the record.
    out["lines"]["missed_by_cause"] = {c: totals["lines_missed_" + c] for c in LINE_MISS_CAUSES}
    out["lines"]["extra_by_cause"] = {c: totals["lines_extra_" + c] for c in LINE_MISS_CAUSES}
    out["unregistered"] = totals["unregistered"]
    # Points named by the figure's range (their letters clipped at the picture's edge or not seen) count as
    # letters read: the scene names them, and the questions ask about them.
    out["letters"]["named_by_range"] = totals["named_by_range"]
    if not args.no_questions:
        out["questions"] = visonlyqa_questions(args, split_dir, work)
    print(json.dumps(out, indent=1))
    if args.misses:
        for m in misses[: args.misses]:
            print(*m)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


def answered_and_right(verdicts, truth_of):
    """Per task: questions, answered (a truth given, not ambiguous or unsupported) and right (that
    truth equals truth_of(verdict)). Returns {task: {...}} with a total row."""
    rows = collections.defaultdict(collections.Counter)
    for v, task in verdicts:
        for key in (task, "all"):
            row = rows[key]
            row["questions"] += 1
            if v.get("truth") and v["verdict"] not in ("ambiguous", "unsupported", "invalid"):
                row["answered"] += 1
                row["right"] += v["truth"] == truth_of(v)
            else:
                row["not_answered_" + v["verdict"]] += 1
    out = {}
    for key, row in sorted(rows.items()):
        out[key] = dict(row)
        out[key]["coverage"] = round(row["answered"] / row["questions"], 4) if row["questions"] else None
        out[key]["accuracy"] = round(row["right"] / row["answered"], 4) if row["answered"] else None
    return out


def visonlyqa_questions(args, split_dir, work):
    """Every synthetic geometry question of the split answered from its picture alone (audit
    --from visonlyqa --truth-from picture): coverage and accuracy against the dataset's answer, per
    task (triangle, quadrilateral, length, angle, area; the plain and the text items alike)."""
    out_dir = os.path.join(work, "audit")
    inputs = sorted(glob.glob(os.path.join(split_dir, "synthetic*", "*syntheticgeometry__*.jsonl")))
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = run([os.path.join(args.build, "geotruth"), "audit", "--from", "visonlyqa", "-o", out_dir, "--image",
                split_dir, "--truth-from", "picture", "--threads", str(args.threads)] + inputs)
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not os.path.exists(os.path.join(out_dir, "verdicts.jsonl")):
        sys.exit("audit --truth-from picture failed: " + proc.stderr[-2000:])
    # The task is the question's template without its negation (triangle_absent is a triangle question).
    verdicts = [(v, re.sub(r"_(absent|not)$", "", v.get("template") or "unmapped"))
                for v in read_jsonl(os.path.join(out_dir, "verdicts.jsonl"))]
    result = answered_and_right(verdicts, lambda v: v.get("annotated"))
    result["cpu_seconds"] = round((end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime), 2)
    # The same answers against the description's truth (the audit from the text, which decides the
    # figure exactly): the label is wrong on a few items (docs/visonlyqa.md), and a reader is judged
    # by what the figure is. Questions the description leaves ambiguous are left out of this one.
    described_dir = os.path.join(work, "audit-description")
    run([os.path.join(args.build, "geotruth"), "audit", "--from", "visonlyqa", "-o", described_dir, "--threads",
         str(args.threads)] + inputs)
    described = {}
    for v in read_jsonl(os.path.join(described_dir, "verdicts.jsonl")):
        if v.get("truth") and v["verdict"] not in ("ambiguous", "unsupported", "invalid"):
            described[(v["scene"], v["question"])] = v["truth"]
    decided = [(v, task) for v, task in verdicts if (v["scene"], v["question"]) in described]
    result["against_description"] = answered_and_right(
        decided, lambda v: described[(v["scene"], v["question"])])
    return result


# ---------------------------------------------------------------- GePBench


def measure_gepbench(args):
    """GePBench engine items (generate --family gepbench) drawn by geotruth, their counting and
    existence questions answered from the picture alone (audit --truth-from picture) against the
    items' certified answers."""
    work = args.work or tempfile.mkdtemp(prefix="reader-gepbench-")
    os.makedirs(work, exist_ok=True)
    items = os.path.join(work, "g.jsonl")
    pictures = os.path.join(work, "pictures")
    proc = run([os.path.join(args.build, "geotruth"), "generate", "--family", "gepbench", "--level", args.level,
                "-n", str(args.n), "--seed", str(args.seed), "-o", items, "--render", pictures])
    if proc.returncode not in (0, 1):
        sys.exit("generate failed: " + proc.stderr)
    out_dir = os.path.join(work, "audit")
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    run([os.path.join(args.build, "geotruth"), "audit", items, "-o", out_dir, "--image", pictures, "--truth-from",
         "picture", "--threads", str(args.threads)])
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    verdicts = [(v, v["question"].split("-")[0]) for v in read_jsonl(os.path.join(out_dir, "verdicts.jsonl"))
                if v["question"].startswith(("counting", "existence"))]
    result = answered_and_right(verdicts, lambda v: v.get("annotated"))
    result["pictures"] = len(glob.glob(os.path.join(pictures, "*.png")))
    result["cpu_seconds"] = round((end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime), 2)
    print(json.dumps(result, indent=1))
    return result


# ---------------------------------------------------------------- Tangram


def scene_counts(build, scenes_path, extra=()):
    proc = run([os.path.join(build, "geotruth"), "count", scenes_path] + list(extra))
    return {r["id"]: r for r in (json.loads(l) for l in proc.stdout.splitlines() if l.strip()) if "id" in r}


def measure_tangram(args):
    work = tempfile.mkdtemp(prefix="reader-tangram-")
    scenes_path = os.path.join(work, "t.jsonl")
    render_dir = os.path.join(work, "clean")
    proc = run([os.path.join(args.build, "geotruth"), "generate", "--family", "tangram", "--level", args.level,
                "-n", str(args.n), "--seed", str(args.seed), "-o", scenes_path, "--render", render_dir])
    if proc.returncode not in (0, 1):
        sys.exit("generate failed: " + proc.stderr)
    truths = {s["id"]: s for s in read_jsonl(scenes_path) if "id" in s}
    truth_counts = scene_counts(args.build, scenes_path)
    styles = {"clean": None, "sketch": ["--style", "sketch"], "noisy": ["--gaussian", "12"]}
    results = {}
    for style, options in styles.items():
        directory = render_dir
        if options:
            directory = os.path.join(work, style)
            run([os.path.join(args.build, "geotruth"), "render", scenes_path, "-o", directory, "--seed", "5"] + options)
        paths = sorted(glob.glob(os.path.join(directory, "*.png")))
        read_path = os.path.join(work, style + ".jsonl")
        scenes, errors = import_pictures(args.build, paths, read_path)
        read_counts = scene_counts(args.build, read_path)
        totals = collections.Counter()
        for scene_id, truth in truths.items():
            scene = scenes.get(scene_id)
            if scene is None:
                totals["unread"] += 1
                continue
            size = max(number(truth["frame"]["width"]), number(truth["frame"]["height"]))
            tol = 0.02 * size
            true_points = {p["id"]: (number(p["at"][0]), number(p["at"][1])) for p in truth["points"]
                           if p.get("label", True)}
            read = labelled_points(scene)
            tp = sum(1 for k, at in true_points.items() if k in read and math.dist(at, read[k]) <= tol)
            totals["letters_tp"] += tp
            totals["letters_read"] += len(read)
            totals["letters_actual"] += len(true_points)
            true_lines = merged_lines(letter_lines(truth))
            read_lines = read_lines_as_drawn(scene)
            totals["lines_tp"] += len(true_lines & read_lines)
            totals["lines_read"] += len(read_lines)
            totals["lines_actual"] += len(true_lines)
            rc, tc = read_counts.get(scene_id, {}), truth_counts.get(scene_id, {})
            for key in ("letters", "circles", "segments", "triangles"):
                totals["count_" + key] += rc.get(key) == tc.get(key)
            totals["scenes"] += 1
        n = max(1, totals["scenes"])
        result = {"pictures": len(paths), "errors": len(errors)}
        for what in ("letters", "lines"):
            p, r = prf(totals[what + "_tp"], totals[what + "_read"], totals[what + "_actual"])
            result[what] = {"precision": round(p, 4), "recall": round(r, 4)}
        result["counts_equal"] = {k: round(totals["count_" + k] / n, 4)
                                  for k in ("letters", "circles", "segments", "triangles")}
        results[style] = result
    print(json.dumps(results, indent=1))
    return results


# ---------------------------------------------------------------- Geometry3K


def png_idat(data):
    """The image data of a PNG's bytes: its IDAT chunks' payloads joined (still compressed)."""
    at, idat = 8, b""
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + size]
        at += 12 + size
    return idat


def png_shrunk(source, target, long_side):
    """Writes `source` (an 8-bit, non-interlaced PNG) as an RGB PNG `long_side` px on its longer side,
    each pixel the mean of the source pixels whose centres fall in it (alpha over white), and returns
    the scale. Textbook pictures as small as VisOnlyQA's real split (151 px median) from larger ones."""
    data = open(source, "rb").read()
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or interlace or channels is None:
        sys.exit(f"{source}: only 8-bit non-interlaced gray or RGB(A) PNG can be shrunk")
    raw, stride = zlib.decompress(png_idat(data)), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # the PNG filters, undone
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    scale = long_side / max(width, height)
    out_w, out_h = max(1, round(width * scale)), max(1, round(height * scale))
    sums = [[0.0] * (out_w * 3) for _ in range(out_h)]
    counts = [[0] * out_w for _ in range(out_h)]
    for y in range(height):
        oy, row = min(out_h - 1, int((y + 0.5) * scale)), rows[y]
        for x in range(width):
            px = row[x * channels:(x + 1) * channels]
            rgb = [px[0]] * 3 if channels <= 2 else list(px[:3])
            alpha = px[-1] / 255 if channels in (2, 4) else 1
            ox = min(out_w - 1, int((x + 0.5) * scale))
            for k in range(3):
                sums[oy][ox * 3 + k] += rgb[k] * alpha + 255 * (1 - alpha)
            counts[oy][ox] += 1
    body = b"".join(b"\0" + bytes(round(sums[y][i] / max(1, counts[y][i // 3])) for i in range(out_w * 3))
                    for y in range(out_h))

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    with open(target, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", out_w, out_h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b""))
    return scale


def letters_on_their_points(truth, read, tolerance):
    """How many letters read lie on their annotated points, the annotation moved by the median
    offset of the letters both name (Geometry3K's positions are in a crop of the picture). With fewer
    than two letters in common the offset cannot be told from a misplaced letter: None (unregistered,
    nothing counted true)."""
    common = [k for k in truth if k in read]
    if len(common) < 2:
        return None
    dx = sorted(read[k][0] - truth[k][0] for k in common)[len(common) // 2]
    dy = sorted(read[k][1] - truth[k][1] for k in common)[len(common) // 2]
    return sum(1 for k in common if math.dist((truth[k][0] + dx, truth[k][1] + dy), read[k]) <= tolerance)


def measure_geometry3k(args):
    dirs = sorted(d for d in glob.glob(os.path.join(args.samples, "*")) if os.path.isdir(d))
    paths = [os.path.join(d, "img_diagram.png") for d in dirs if os.path.exists(os.path.join(d, "img_diagram.png"))]
    work = tempfile.mkdtemp(prefix="reader-g3k-")
    # --long-side: each picture shrunk first (its annotation's positions with it), as small as the
    # textbook pictures of VisOnlyQA's real split.
    annotations = {os.path.basename(os.path.dirname(p)): os.path.dirname(p) for p in paths}
    scale_of = {}
    if args.long_side:
        shrunk = []
        for path in paths:
            problem = os.path.basename(os.path.dirname(path))
            os.makedirs(os.path.join(work, problem), exist_ok=True)
            target = os.path.join(work, problem, "img_diagram.png")
            scale_of[problem] = png_shrunk(path, target, args.long_side)
            shrunk.append(target)
        paths = shrunk
    scenes, errors = import_pictures(args.build, paths, os.path.join(work, "read.jsonl"))
    totals = collections.Counter()
    for path in paths:
        problem = os.path.basename(os.path.dirname(path))
        annotation = json.load(open(os.path.join(annotations[problem], "logic_form.json")))
        scene = scenes.get(problem)
        if scene is None:
            totals["unread"] += 1
            continue
        scale = scale_of.get(problem, 1.0)
        truth = {k: (v[0] * scale, v[1] * scale) for k, v in annotation["point_positions"].items()}
        read = labelled_points(scene)
        tp = letters_on_their_points(truth, read, max(3, 6 * scale))
        if tp is None:
            totals["unregistered"] += 1
            tp = 0
        else:
            totals["registered_tp"] += tp
            totals["registered_read"] += len(read)
            totals["registered_actual"] += len(truth)
        totals["letters_tp"] += tp
        totals["letters_read"] += len(read)
        totals["letters_actual"] += len(truth)
        # The annotation lists a line's pieces (AB, AM, MB with M on AB): made maximal as drawn,
        # within the 3 px a hand-clicked point is precise to, either reading where that decides.
        listed = {frozenset(l) for l in annotation["line_instances"] if len(l) == 2}
        read_lines = read_lines_as_drawn(scene)
        true_lines = lines_as_read_where_unsure(merged_lines(listed),
                                                maximal_lines(listed, truth, HAND_SLACK_PX * scale), read_lines)
        true_lines = points_on_lines_as_read_where_unsure(true_lines, truth, read_lines, HAND_SLACK_PX * scale)
        true_lines = lines_run_on_where_unsure(true_lines, truth, read_lines, HAND_SLACK_PX * scale)
        totals["lines_tp"] += len(true_lines & read_lines)
        totals["lines_read"] += len(read_lines)
        totals["lines_actual"] += len(true_lines)
        totals["circles_actual"] += sum(1 for c in annotation.get("circle_instances", []) if c)  # "" is none
        totals["circles_read"] += len(full_circles(scene))
    out = {"pictures": len(paths), "errors": len(errors)}
    for what in ("letters", "lines"):
        p, r = prf(totals[what + "_tp"], totals[what + "_read"], totals[what + "_actual"])
        out[what] = {"precision": round(p, 4), "recall": round(r, 4), "true": totals[what + "_tp"],
                     "read": totals[what + "_read"], "actual": totals[what + "_actual"]}
    out["circles"] = {"read": totals["circles_read"], "annotated": totals["circles_actual"]}
    out["unregistered"] = totals["unregistered"]
    # Geometry3K's annotators name every point, drawn letter or not (13, 14, 15, 18 and 20 of the
    # shared sample draw no letter at all, only numbers and variables): the letters of the pictures
    # registered (two letters read at least) tell how well drawn letters are read.
    p, r = prf(totals["registered_tp"], totals["registered_read"], totals["registered_actual"])
    out["letters_on_registered"] = {"precision": round(p, 4), "recall": round(r, 4),
                                    "pictures": len(paths) - totals["unregistered"] - totals["unread"]}
    print(json.dumps(out, indent=1))
    return out


# ---------------------------------------------------------------- CountShapes


def measure_countshapes(args):
    paths = sorted(glob.glob(os.path.join(args.figures, "*.png")))
    rows = []
    for path in paths:
        expected = int(re.search(r"count(\d+)", os.path.basename(path), re.I).group(1))
        proc = run([os.path.join(args.build, "geotruth"), "count", "--from", "picture", "--any-vertex",
                    "--quadrilaterals", path])
        record = next((json.loads(l) for l in proc.stdout.splitlines() if l.strip()), {})
        got = record.get("triangles", 0) + record.get("quadrilaterals", 0) if "error" not in record else None
        rows.append({"figure": os.path.basename(path), "expected": expected, "triangles": record.get("triangles"),
                     "quadrilaterals": record.get("quadrilaterals"), "total": got, "right": got == expected})
    for r in rows:
        print(json.dumps(r))
    print(f"{sum(r['right'] for r in rows)} / {len(rows)} figures counted right")
    return rows


# ---------------------------------------------------------------- speed


def measure_speed(args):
    work = tempfile.mkdtemp(prefix="reader-speed-")
    scenes_path = os.path.join(work, "t.jsonl")
    directory = os.path.join(work, "pictures")
    run([os.path.join(args.build, "geotruth"), "generate", "--family", "tangram", "--level", "medium", "-n",
         str(args.n), "--seed", "7", "-o", scenes_path, "--render", directory, "--size", "640"])
    paths = sorted(glob.glob(os.path.join(directory, "*.png")))
    out = {"pictures": len(paths)}
    for threads in (1, 2):
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.monotonic()
        proc = run([os.path.join(args.build, "geotruth"), "import", "--from", "picture", "--threads", str(threads),
                    "-o", os.path.join(work, f"read{threads}.jsonl")] + paths)
        wall = time.monotonic() - wall
        end = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
        out[f"threads_{threads}"] = {"cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2),
                                     "pictures_per_cpu_second": round(len(paths) / cpu, 1) if cpu else None,
                                     "exit": proc.returncode}
    if out["threads_2"]["wall_seconds"]:
        out["two_threads_speedup"] = round(out["threads_1"]["wall_seconds"] / out["threads_2"]["wall_seconds"], 2)
    print(json.dumps(out, indent=1))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["visonlyqa", "tangram", "geometry3k", "countshapes", "gepbench", "speed"])
    parser.add_argument("--work", default="", help="working folder (default: a new one under the temp dir)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-questions", action="store_true", help="visonlyqa: the read only, no audit")
    parser.add_argument("--build", default="build")
    parser.add_argument("--repo", default="/work/.mirror/psunlpgroup+VisOnlyQA/repo")
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--misses", type=int, default=0, help="print this many misses")
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "samples",
                                                         "geometry3k"))
    parser.add_argument("--figures", default="")
    parser.add_argument("--long-side", type=int, default=0,
                        help="geometry3k: shrink each picture to this many px on its longer side first")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    {"visonlyqa": measure_visonlyqa, "tangram": measure_tangram, "geometry3k": measure_geometry3k,
     "countshapes": measure_countshapes, "gepbench": measure_gepbench, "speed": measure_speed}[args.what](args)


if __name__ == "__main__":
    main()
