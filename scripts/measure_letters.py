#!/usr/bin/env python3
"""Measures the letter reader (vision/letters.hpp) and, when letters_probe was built with
-DGEOTRUTH_TESSERACT=ON, Tesseract on the same material (docs/vision.md, "Reading letters").

Sets:
  glyphs      drawn glyphs in fonts never used for training (degraded and clean), and in the training
              fonts with fresh seeds: accuracy, the share read confidently and their accuracy, confusions
  tangram     geotruth's own Tangram items rendered clean, sketchy and noisy (--gaussian 12
              --salt-pepper 0.02): letters with their positions known from the scenes
  visonlyqa   VisOnlyQA's val synthetic pictures (read in place from the mirror; nothing is copied
              into the repository): letters per picture as a set, positions after a fitted similarity
  geometry3k  the Geometry3K sample pictures against their annotated points (letters and positions)

Precision and recall are of labels read right and placed right; "confident" reads are the ones the
reader does not mark doubtful. Times are CPU milliseconds (the probe's clock_gettime of the process).
Debian's python3 only.

  scripts/measure_letters.py --build build --out /tmp/letters [--sets glyphs,tangram,visonlyqa,geometry3k]
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys

POINT_LABEL = re.compile(r"^[A-Z][0-9]*'*$")


def run_jsonl(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def pct(a, b):
    return 100.0 * a / b if b else float("nan")


def median(values):
    values = list(values)
    return statistics.median(values) if values else float("nan")


# --- glyphs -------------------------------------------------------------------------------------
def twin_capital(text):
    """Lower-case letters shaped like their capitals are one class of the reader: compare so."""
    return text.upper() if len(text) == 1 and text in "cosuvwxz" else text


def glyph_stats(rows, key=None):
    found = [r for r in rows if r["found"]]
    for r in found:
        if key and key in r:
            r[key]["read"] = twin_capital(r[key]["read"])
    out = {"glyphs": len(rows), "found": len(found)}
    if key is None:
        right = [r for r in found if r["read"] == r["truth"]]
        confident = [r for r in found if not r["doubtful"]]
        out.update(
            accuracy=pct(len(right), len(found)),
            confident_share=pct(len(confident), len(found)),
            confident_accuracy=pct(sum(r["read"] == r["truth"] for r in confident), len(confident)),
            ms_median=median(r["ms"] for r in found),
        )
        bins = {}
        for lo, hi in [(8, 12), (12, 18), (18, 26), (26, 41)]:
            b = [r for r in found if lo <= r["size"] < hi]
            bc = [r for r in b if not r["doubtful"]]
            bins[f"{lo}-{hi - 1}px"] = {
                "accuracy": pct(sum(r["read"] == r["truth"] for r in b), len(b)),
                "confident_share": pct(len(bc), len(b)),
                "confident_accuracy": pct(sum(r["read"] == r["truth"] for r in bc), len(bc)),
            }
        out["by_size"] = bins
        confusions = collections.Counter((r["truth"], r["read"]) for r in found if r["read"] != r["truth"])
        out["confusions"] = [f"{t or '·'}→{p or '·'} {n}" for (t, p), n in confusions.most_common(12)]
        wrong_confident = collections.Counter(
            (r["truth"], r["read"]) for r in found if not r["doubtful"] and r["read"] != r["truth"])
        out["confident_errors"] = [f"{t or '·'}→{p or '·'} {n}" for (t, p), n in wrong_confident.most_common(8)]
    else:
        t = [r for r in found if key in r]
        right = [r for r in t if r[key]["read"] == r["truth"]]
        sure = [r for r in t if r[key]["confidence"] >= 0.9]
        out.update(
            accuracy=pct(len(right), len(t)),
            confident_share=pct(len(sure), len(t)),
            confident_accuracy=pct(sum(r[key]["read"] == r["truth"] for r in sure), len(sure)),
            ms_median=median(r[key]["ms"] for r in t),
        )
        confusions = collections.Counter((r["truth"], r[key]["read"]) for r in t if r[key]["read"] != r["truth"])
        out["confusions"] = [f"{a or '·'}→{b or '·'} {n}" for (a, b), n in confusions.most_common(12)]
    return out


def measure_glyphs(args, probe):
    results = {}
    for name, extra in [("held-out fonts, degraded", ["--fonts", "held-out"]),
                        ("held-out fonts, clean", ["--fonts", "held-out", "--clean"]),
                        ("training fonts, fresh seed, degraded", ["--fonts", "training"])]:
        rows = run_jsonl([probe, "glyphs", "--per-class", str(args.per_class), "--seed", "99"] + extra)
        results[name] = {"geotruth": glyph_stats(rows)}
        if any("tesseract" in r for r in rows):
            results[name]["tesseract"] = glyph_stats(rows, "tesseract")
    return results


# --- pictures -----------------------------------------------------------------------------------
def label_sets(reads, key="label"):
    return [r[key] for r in reads if r[key]]


def match_positions(truth, reads, reach):
    """truth: [(label, x, y)], reads: [(label, x, y, doubtful)]. Each truth letter takes the nearest
    unused read within reach. Returns counts."""
    used = set()
    right = wrong = 0
    confident_right = confident_wrong = doubtful = 0
    for label, x, y in truth:
        best, best_d = None, reach
        for i, (rl, rx, ry, rd) in enumerate(reads):
            d = ((rx - x) ** 2 + (ry - y) ** 2) ** 0.5
            if i not in used and d <= best_d:
                best, best_d = i, d
        if best is None:
            continue
        used.add(best)
        rl, _, _, rd = reads[best]
        if rl == label:
            right += 1
        else:
            wrong += 1
        if rd:
            doubtful += 1
        elif rl == label:
            confident_right += 1
        else:
            confident_wrong += 1
    return {"truth": len(truth), "reads": len(reads), "right": right, "wrong": wrong,
            "confident_right": confident_right, "confident_wrong": confident_wrong, "doubtful": doubtful}


def summarize(counts, times):
    total = collections.Counter()
    for c in counts:
        total.update(c)
    conf = total["confident_right"] + total["confident_wrong"]
    return {
        "pictures": len(counts),
        "letters": total["truth"],
        "precision": pct(total["right"], total["reads"]),
        "recall": pct(total["right"], total["truth"]),
        "confident_accuracy": pct(total["confident_right"], conf),
        "doubtful_share": pct(total["doubtful"], total["right"] + total["wrong"]),
        "ms_median": median(times),
    }


def tangram(args, probe, geotruth):
    out = {}
    base = os.path.join(args.out, "tangram")
    os.makedirs(base, exist_ok=True)
    scenes = os.path.join(base, "items.jsonl")
    styles = {"clean": [], "sketch": ["--style", "sketch"], "noisy": ["--gaussian", "12", "--salt-pepper", "0.02"]}
    for style, flags in styles.items():
        pictures = os.path.join(base, style)
        for level in ["easy", "medium"]:
            subprocess.run([geotruth, "generate", "--family", "tangram", "--level", level, "-n", str(args.n),
                            "--seed", "5", "-o", os.path.join(base, f"{level}.jsonl"), "--render", pictures] + flags,
                           check=True, capture_output=True)
        with open(scenes, "w") as f:
            for level in ["easy", "medium"]:
                f.write(open(os.path.join(base, f"{level}.jsonl")).read())
        files = sorted(os.path.join(pictures, p) for p in os.listdir(pictures) if p.endswith(".png"))
        truth = {t["id"]: t for t in run_jsonl([probe, "truth", scenes, "640", "640"])}
        reads = run_jsonl([probe, "pictures", "--alphabet", args.alphabet] + files)
        ours, tess_boxes, tess_page, times, tess_times = [], [], [], [], []
        for r in reads:
            scene = os.path.splitext(os.path.basename(r["file"]))[0]
            t = truth.get(scene)
            if not t or "labels" not in r:
                continue
            letters = [(l["label"], l["centre"][0], l["centre"][1]) for l in t["letters"]]
            reach = 1.2 * t["font_px"]
            ours.append(match_positions(letters, [(x["label"], x["centre"][0], x["centre"][1], x["doubtful"])
                                                  for x in r["labels"]], reach))
            times.append(r["ms"] + r["ms_paper"])
            if "tesseract" in r:
                tb = r["tesseract"]
                tess_boxes.append(match_positions(letters, [(x["label"], x["box"][0] + x["box"][2] / 2,
                                                             x["box"][1] + x["box"][3] / 2, x["confidence"] < 0.9)
                                                            for x in tb["on_boxes"] if x["label"]], reach))
                tess_page.append(match_positions(letters, [(x["label"], x["box"][0] + x["box"][2] / 2,
                                                            x["box"][1] + x["box"][3] / 2, x["confidence"] < 0.9)
                                                           for x in tb["page"] if x["label"]], reach))
                tess_times.append((tb["ms_on_boxes"], tb["ms_page"]))
        out[style] = {"geotruth": summarize(ours, times)}
        if tess_boxes:
            out[style]["tesseract on the reader's boxes"] = summarize(tess_boxes, [a for a, _ in tess_times])
            out[style]["tesseract on the page"] = summarize(tess_page, [b for _, b in tess_times])
    return out


def fit_similarity(pairs, flip):
    """Least squares px = s*x + tx, py = (-s if flip else s)*y + ty over pairs [((x, y), (px, py))]."""
    n = len(pairs)
    f = -1 if flip else 1
    mx = sum(p[0][0] for p in pairs) / n
    my = sum(p[0][1] for p in pairs) / n
    mpx = sum(p[1][0] for p in pairs) / n
    mpy = sum(p[1][1] for p in pairs) / n
    num = sum((p[0][0] - mx) * (p[1][0] - mpx) + f * (p[0][1] - my) * (p[1][1] - mpy) for p in pairs)
    den = sum((p[0][0] - mx) ** 2 + (p[0][1] - my) ** 2 for p in pairs)
    s = num / den if den else 0
    return lambda x, y: (s * x + mpx - s * mx, f * s * y + mpy - f * s * my)


def placed_reads(truth, labels, flip):
    """How many reads name a point and sit beside it, once the points are mapped to pixels by the
    similarity that puts most named reads within 2.5 label heights of their point (every pair of
    named reads proposes one; the best is refitted on the reads it places)."""
    names = {p: (x, y) for p, x, y in truth}
    named = [(names[l], c, h) for l, c, h, _ in labels if l in names]
    best = []
    for i in range(len(named)):
        for j in range(i + 1, len(named)):
            if named[i][0] == named[j][0]:
                continue
            to_px = fit_similarity([named[i][:2], named[j][:2]], flip)
            inliers = [k for k, (p, c, h) in enumerate(named)
                       if ((to_px(*p)[0] - c[0]) ** 2 + (to_px(*p)[1] - c[1]) ** 2) ** 0.5 <= 2.5 * h + 4]
            if len(inliers) > len(best):
                best = inliers
    if len(best) >= 2:
        to_px = fit_similarity([named[k][:2] for k in best], flip)
        best = [k for k, (p, c, h) in enumerate(named)
                if ((to_px(*p)[0] - c[0]) ** 2 + (to_px(*p)[1] - c[1]) ** 2) ** 0.5 <= 2.5 * h + 4]
    placed, used = 0, set()
    for k in best:
        if named[k][0] not in used:
            placed += 1
            used.add(named[k][0])
    return placed


def score_pictures(pictures, reads, who, flip):
    """pictures: [(file, [(point, x, y)])]. Letters per picture as a multiset, then placed."""
    t_all = r_all = hit = placed_all = confident = confident_right = doubtful = 0
    times = []
    for f, truth in pictures:
        r = reads.get(f)
        if not r or "labels" not in r:
            continue
        if who == "geotruth":
            labels = [(x["label"], x["centre"], x["height"], x["doubtful"]) for x in r["labels"] if x["label"]]
            times.append(r["ms"] + r["ms_paper"])
        else:
            if "tesseract" not in r:
                return None
            key = "on_boxes" if "boxes" in who else "page"
            labels = [(x["label"], [x["box"][0] + x["box"][2] / 2, x["box"][1] + x["box"][3] / 2], x["box"][3],
                       x["confidence"] < 0.9) for x in r["tesseract"][key] if x["label"]]
            times.append(r["tesseract"]["ms_on_boxes" if "boxes" in who else "ms_page"])
        # Only reads that look like point names count: pictures also print lengths, angles, x and y.
        labels = [l for l in labels if POINT_LABEL.match(l[0])]
        names = {p for p, _, _ in truth}
        tc, rc = collections.Counter(p for p, _, _ in truth), collections.Counter(l[0] for l in labels)
        t_all += sum(tc.values())
        r_all += sum(rc.values())
        hit += sum((tc & rc).values())
        placed_all += placed_reads(truth, labels, flip)
        for l, _, _, d in labels:
            if d:
                doubtful += 1
            else:
                confident += 1
                confident_right += l in names
    return {"pictures": len(times), "letters": t_all, "reads": r_all,
            "precision": pct(hit, r_all), "recall": pct(hit, t_all),
            "precision_placed": pct(placed_all, r_all), "recall_placed": pct(placed_all, t_all),
            "confident_precision": pct(confident_right, confident), "doubtful_share": pct(doubtful, confident + doubtful),
            "ms_median": median(times)}


WHO = ["geotruth", "tesseract on the reader's boxes", "tesseract on the page"]


def visonlyqa(args, probe):
    repo = args.visonlyqa
    base = os.path.join(args.out, "visonlyqa")
    os.makedirs(base, exist_ok=True)
    points_of = {}
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", "HEAD", "dataset/val/synthetic_with_text/"],
                             check=True, capture_output=True, text=True).stdout.split()
    for path in listing:
        text = subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], check=True, capture_output=True,
                              text=True).stdout
        for line in text.splitlines():
            item = json.loads(line)
            prompt = item.get("prompt_no_reasoning") or ""
            pts = re.findall(r"Point ([A-Z][0-9]*'*): Position\(x=(-?[0-9.]+), y=(-?[0-9.]+)\)", prompt)
            if pts:
                points_of[item["image_path"]] = [(p, float(x), float(y)) for p, x, y in pts]
    files = []
    for image_path in sorted(points_of):
        target = os.path.join(base, os.path.basename(image_path))
        if not os.path.exists(target):
            data = subprocess.run(["git", "-C", repo, "show", f"HEAD:dataset/val/{image_path}"], check=True,
                                  capture_output=True).stdout
            with open(target, "wb") as f:
                f.write(data)
        files.append((image_path, target))
    reads = {r["file"]: r for r in run_jsonl([probe, "pictures", "--alphabet", args.alphabet] + [t for _, t in files])}
    pictures = [(target, points_of[image_path]) for image_path, target in files]
    results = {}
    for who in WHO:
        scored = score_pictures(pictures, reads, who, flip=True)
        if scored:
            results[who] = scored
    return results


def geometry3k(args, probe):
    """The annotation's point positions are in a frame scaled and shifted from the picture's pixels
    (as the annotators' tool showed it): positions are judged after a fitted similarity too."""
    base = args.geometry3k
    dirs = sorted(d for d in os.listdir(base) if os.path.exists(os.path.join(base, d, "img_diagram.png")))
    pictures = []
    for d in dirs:
        positions = json.load(open(os.path.join(base, d, "logic_form.json"))).get("point_positions", {})
        if positions:
            pictures.append((os.path.join(base, d, "img_diagram.png"), [(p, x, y) for p, (x, y) in positions.items()]))
    reads = {r["file"]: r for r in run_jsonl([probe, "pictures", "--alphabet", args.alphabet] + [f for f, _ in pictures])}
    results = {}
    for who in WHO:
        scored = score_pictures(pictures, reads, who, flip=False)
        if scored:
            results[who] = scored
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="/tmp/geotruth-letters")
    ap.add_argument("--sets", default="glyphs,tangram,visonlyqa,geometry3k")
    ap.add_argument("--per-class", type=int, default=30, help="drawn glyphs per class and set")
    ap.add_argument("--n", type=int, default=20, help="Tangram items per level and style")
    ap.add_argument("--alphabet", default="points", choices=["points", "text"])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--visonlyqa", default=os.path.join(here, "..", "..", ".mirror", "psunlpgroup+VisOnlyQA", "repo"))
    ap.add_argument("--geometry3k", default=os.path.join(here, "..", "..", "shared", "samples", "geometry3k"))
    args = ap.parse_args()
    probe = os.path.join(args.build, "tests", "letters_probe")
    geotruth = os.path.join(args.build, "geotruth")
    os.makedirs(args.out, exist_ok=True)
    report = {}
    sets = args.sets.split(",")
    if "glyphs" in sets:
        report["glyphs"] = measure_glyphs(args, probe)
    if "tangram" in sets:
        report["tangram"] = tangram(args, probe, geotruth)
    if "visonlyqa" in sets and os.path.isdir(args.visonlyqa):
        report["visonlyqa val"] = visonlyqa(args, probe)
    if "geometry3k" in sets and os.path.isdir(args.geometry3k):
        report["geometry3k"] = geometry3k(args, probe)
    json.dump(report, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
