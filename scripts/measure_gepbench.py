#!/usr/bin/env python3
"""Measure geotruth on GePBench engine output: coverage, agreement with the engine, defects flagged.

Usage: scripts/measure_gepbench.py RULES.json VQA_DIR [GEOTRUTH] [--seed N]

RULES.json and VQA_DIR/*.jsonl are the public engine's own output (one JSONL file per aspect).
The script prints:

- the questions per template and verdict, and the unsupported ones per template, on the data as
  the engine wrote it;
- agreement with the engine on direction and position questions: the engine's own rule, run by
  the engine on its own numbers, chose each annotated answer, so an `ok` verdict agrees and a
  `wrong` or `invalid` one disagrees; `ambiguous` verdicts are those whose margin is not clear;
- defects planted in a copy of the data (a list of known defects, each with the question or the
  shapes it concerns), and how many of them geotruth flags: a planted wrong answer must not be
  judged `ok`; a planted scene defect must be named by a finding of the expected kind.

Planted defects: a wrong answer to a direction, region, position, counting, size or relation
question (another of its options); a circle or ellipse added tangent to a polygon's edge from
outside (not at a vertex) with a relation question that calls the pair "none of the above"; a
circle added tangent to a sector's arc; a polygon vertex repeated; a declared tangent circle
moved off its ellipse by 5 px; two added ellipses declared tangent 5 px apart.
"""
import collections
import json
import math
import os
import random
import subprocess
import sys
import tempfile

POSITION = {"relative_direction", "half_image", "quarter_image", "absolute_position", "relative_position"}


def load_vqa(directory):
    out = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".jsonl"):
            with open(os.path.join(directory, name)) as f:
                out[name] = [json.loads(line) for line in f if line.strip()]
    return out


def audit(geotruth, rules, vqa, workdir):
    paths = [os.path.join(workdir, "rules.json")]
    with open(paths[0], "w") as f:
        json.dump(rules, f)
    for name, lines in vqa.items():
        paths.append(os.path.join(workdir, name))
        with open(paths[-1], "w") as f:
            f.write("".join(json.dumps(q) + "\n" for q in lines))
    out = os.path.join(workdir, "audit")
    subprocess.run([geotruth, "audit", "--from", "gepbench", *paths, "-o", out], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "verdicts.jsonl")) as f:
        verdicts = {(v["scene"], v["question"]): v for v in map(json.loads, f)}
    with open(os.path.join(out, "scenes.jsonl")) as f:
        findings = {s["id"]: s.get("findings", []) for s in map(json.loads, f) if "id" in s}
    return verdicts, findings


def r4(x):
    return round(x, 4)


def polygon_types(figure):
    """Engine type names of a figure's shapes (as its VQA code names them)."""
    names = []
    for s in figure["shapes"]:
        if s.get("special_info"):
            names.append(s["special_info"])
        elif s["type"] in ("segment", "ray"):
            names.append("line")
        elif s["type"] == "polygon":
            names.append(["", "", "", "triangle", "quadrilateral", "pentagon", "hexagon"][len(s["points"])])
        else:
            names.append(s["type"])
    return names


def plant(rules, vqa, rng):
    """A copy of the data with planted defects, and the list of defects."""
    rules = json.loads(json.dumps(rules))
    vqa = {k: [dict(q) for q in v] for k, v in vqa.items()}
    defects = []
    aspect_of = {name: name[:-len(".jsonl")] for name in vqa}
    # Wrong answers: another option of the question.
    by_template = collections.defaultdict(list)
    for name, lines in vqa.items():
        for q in lines:
            by_template[template_of(q["question"])].append((name, q))
    for template, count in [("relative_direction", 30), ("half_image", 30), ("quarter_image", 10),
                            ("absolute_position", 20), ("relative_position", 20), ("counting", 10),
                            ("size_span", 10), ("relation", 10)]:
        pool = by_template.get(template, [])
        for name, q in rng.sample(pool, min(count, len(pool))):
            others = [c for c in q["choices"] if c != q["answer"]]
            if not others:
                continue
            q["answer"] = rng.choice(others)
            defects.append({"kind": "wrong_answer:" + template, "scene": f"gepbench-{q['image_id']}",
                            "question": f"{aspect_of[name]}-{q['question_id']}"})
    relation_file = "relation.jsonl"
    next_id = collections.Counter()
    for q in vqa.get(relation_file, []):
        next_id[q["image_id"]] = max(next_id[q["image_id"]], q["question_id"] + 1)
    # Scene defects, each in its own figure.
    figures = list(range(len(rules)))
    rng.shuffle(figures)
    planted = collections.Counter()
    for i in figures:
        fig = rules[i]
        types = polygon_types(fig)
        polygons = [k for k, s in enumerate(fig["shapes"]) if s["type"] == "polygon" and len(s["points"]) >= 3]
        sectors = [k for k, s in enumerate(fig["shapes"]) if s["type"] == "sector"]
        tangents = [r for r in fig["relations"] if "tangent circle" in r[2]]
        if planted["tangent_edge"] < 15 and polygons and "circle" not in types and "ellipse" not in types:
            k = rng.choice(polygons)
            if types.count(types[k]) != 1:
                continue
            pts = fig["shapes"][k]["points"]
            area = sum(pts[j][0] * pts[(j + 1) % len(pts)][1] - pts[(j + 1) % len(pts)][0] * pts[j][1]
                       for j in range(len(pts)))
            j = rng.randrange(len(pts))
            (x0, y0), (x1, y1) = pts[j], pts[(j + 1) % len(pts)]
            length = math.hypot(x1 - x0, y1 - y0)
            nx, ny = (y1 - y0) / length, -(x1 - x0) / length  # outward for a counter-clockwise polygon
            if area < 0:
                nx, ny = -nx, -ny
            as_ellipse = planted["tangent_edge"] % 2 == 1
            r = 0.04
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            if as_ellipse:  # an axis-aligned ellipse 0.04 × 0.025 (semi-axes), its support along n
                a, b = 0.04, 0.025
                r = math.hypot(a * nx, b * ny)
                shape = {"type": "ellipse", "center": [r4(mx + r * nx), r4(my + r * ny)], "major_axis": 2 * a,
                         "minor_axis": 2 * b, "rotation": 0}
                name = "ellipse"
            else:
                shape = {"type": "ellipse", "center": [r4(mx + r * nx), r4(my + r * ny)], "major_axis": 2 * r,
                         "minor_axis": 2 * r, "rotation": 0, "special_info": "circle"}
                name = "circle"
            fig["shapes"].append(shape)
            new = len(fig["shapes"]) - 1
            qid = next_id[i]
            next_id[i] += 1
            vqa.setdefault(relation_file, []).append({
                "image_id": i, "question_id": qid,
                "question": f"What is the relationship of the {name} to the {types[k]} in the image?",
                "choices": ["tangent", "parallel", "diagonal", "none of the above"], "answer": "none of the above"})
            defects.append({"kind": "tangent_to_edge_called_none", "scene": f"gepbench-{i}",
                            "question": f"relation-{qid}", "shapes": [f"s{new}", f"s{k}"]})
            planted["tangent_edge"] += 1
            continue
        if planted["tangent_arc"] < 10 and sectors:
            k = rng.choice(sectors)
            s = fig["shapes"][k]
            start, end = s["start_angle"] % (2 * math.pi), s["end_angle"] % (2 * math.pi)
            span = (end - start) % (2 * math.pi) or 2 * math.pi
            mid = start + span / 2
            r = 0.04
            d = s["radius"] + r
            fig["shapes"].append({"type": "ellipse", "center": [r4(s["center"][0] + d * math.cos(mid)),
                                                                r4(s["center"][1] + d * math.sin(mid))],
                                  "major_axis": 2 * r, "minor_axis": 2 * r, "rotation": 0, "special_info": "circle"})
            defects.append({"kind": "undeclared_tangent_to_arc", "scene": f"gepbench-{i}",
                            "finding": "undeclared_relation", "shapes": [f"s{k}", f"s{len(fig['shapes']) - 1}"]})
            planted["tangent_arc"] += 1
            continue
        if planted["repeated_vertex"] < 10 and polygons:
            k = rng.choice(polygons)
            pts = fig["shapes"][k]["points"]
            j = rng.randrange(len(pts))
            pts.insert(j + 1, list(pts[j]))
            defects.append({"kind": "repeated_vertex", "scene": f"gepbench-{i}", "finding": "degenerate_shape",
                            "shapes": [f"s{k}"]})
            planted["repeated_vertex"] += 1
            continue
        if planted["tangency_off"] < 10 and tangents:
            a, b, rel = rng.choice(tangents)
            circle = b if fig["shapes"][b].get("special_info") == "circle" else a
            c = fig["shapes"][circle]
            c["major_axis"] = c["minor_axis"] = r4(c["major_axis"] + 2 * 5 / 640 * (1 if "external" in rel else -1))
            defects.append({"kind": "declared_tangency_off", "scene": f"gepbench-{i}",
                            "finding": "declared_relation_false", "shapes": [f"s{a}", f"s{b}"]})
            planted["tangency_off"] += 1
            continue
        if planted["ellipses_off"] < 10 and len(fig["shapes"]) <= 5:
            # Two ellipses on the free right or left edge, declared tangent, 5 px apart.
            x = 0.1 if rng.random() < 0.5 else 0.9
            gap = 5 / 640
            e1 = {"type": "ellipse", "center": [x, 0.3], "major_axis": 0.12, "minor_axis": 0.06, "rotation": math.pi / 2}
            e2 = {"type": "ellipse", "center": [x, r4(0.3 + 0.06 + 0.04 + gap)], "major_axis": 0.08,
                  "minor_axis": 0.05, "rotation": math.pi / 2}
            fig["shapes"] += [e1, e2]
            n = len(fig["shapes"])
            fig["relations"].append([n - 2, n - 1, "external tangent circle"])
            defects.append({"kind": "ellipses_tangency_off", "scene": f"gepbench-{i}",
                            "finding": "declared_relation_false", "shapes": [f"s{n - 2}", f"s{n - 1}"]})
            planted["ellipses_off"] += 1
            continue
    return rules, vqa, defects


def template_of(text):
    """The template name geotruth gives a question, for choosing what to plant (a few patterns)."""
    t = text
    if "which of the following is directly to" in t or ("which of the following is to the" in t):
        return "relative_direction"
    if "half of the image" in t:
        return "half_image"
    if "quarter of the image" in t:
        return "quarter_image"
    if "located relative to" in t:
        return "relative_position"
    if "located in the image" in t:
        return "absolute_position"
    if t.startswith("How many"):
        return "counting"
    if "horizontal span" in t or "vertical span" in t:
        return "size_span"
    if t.startswith("What is the relationship"):
        return "relation"
    return "other"


def flagged(defect, verdicts, findings):
    if "question" in defect and defect["kind"].startswith("wrong_answer"):
        v = verdicts.get((defect["scene"], defect["question"]))
        return v is not None and v["verdict"] != "ok"
    if defect["kind"] == "tangent_to_edge_called_none":
        v = verdicts.get((defect["scene"], defect["question"]))
        named = any(f["kind"] == "undeclared_relation" and set(defect["shapes"]) <= set(f["elements"]) and
                    "tangent" in f["detail"] for f in findings.get(defect["scene"], []))
        return (v is not None and v["verdict"] != "ok") or named
    return any(f["kind"] == defect["finding"] and set(defect["shapes"]) <= set(f["elements"]) and
               (defect["kind"] != "undeclared_tangent_to_arc" or "tangent" in f["detail"])
               for f in findings.get(defect["scene"], []))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 17
    if "--seed" in sys.argv:
        args.remove(str(seed))
    rules_path, vqa_dir = args[0], args[1]
    geotruth = args[2] if len(args) > 2 else os.path.join(os.path.dirname(__file__), "..", "build", "geotruth")
    with open(rules_path) as f:
        rules = json.load(f)
    vqa = load_vqa(vqa_dir)
    with tempfile.TemporaryDirectory() as work:
        verdicts, findings = audit(geotruth, rules, vqa, work)
    by = collections.Counter((v.get("template", v["kind"]), v["verdict"]) for v in verdicts.values())
    total = len(verdicts)
    unsupported = collections.Counter(v.get("template", v["kind"]) for v in verdicts.values()
                                      if v["verdict"] == "unsupported")
    print(f"questions: {total}; unsupported: {sum(unsupported.values())} "
          f"({100 * sum(unsupported.values()) / max(total, 1):.2f}%)")
    templates = sorted({t for t, _ in by})
    for t in templates:
        counts = {verdict: by[(t, verdict)] for verdict in ("ok", "ambiguous", "wrong", "invalid", "unsupported")}
        print(f"  {t:20} " + "  ".join(f"{k} {n}" for k, n in counts.items()))
    # Questions about a polygon with a repeated vertex (an engine defect, flagged) are set apart.
    degenerate = [v for v in verdicts.values() if v.get("template") in POSITION and v["verdict"] == "invalid" and
                  "repeated vertex" in v["reasons"][0]["detail"]]
    clear = [v for v in verdicts.values() if v.get("template") in POSITION and v["verdict"] != "ambiguous" and
             v not in degenerate]
    agree = sum(v["verdict"] == "ok" for v in clear)
    print(f"direction/position questions with a clear margin: {len(clear)}; agree with the engine: {agree} "
          f"({100 * agree / max(len(clear), 1):.2f}%); ambiguous: "
          f"{sum(v.get('template') in POSITION and v['verdict'] == 'ambiguous' for v in verdicts.values())}; "
          f"about a polygon with a repeated vertex (invalid): {len(degenerate)}")
    for v in clear:
        if v["verdict"] != "ok":
            print("   disagrees:", v["scene"], v["question"], v["verdict"], v["reasons"][0]["detail"][:120])
    planted_rules, planted_vqa, defects = plant(rules, vqa, random.Random(seed))
    with tempfile.TemporaryDirectory() as work:
        p_verdicts, p_findings = audit(geotruth, planted_rules, planted_vqa, work)
    hits = collections.Counter()
    kinds = collections.Counter()
    planted_verdicts = collections.Counter()
    for d in defects:
        kinds[d["kind"]] += 1
        if d["kind"].startswith("wrong_answer"):
            v = p_verdicts.get((d["scene"], d["question"]))
            planted_verdicts[v["verdict"] if v else "missing"] += 1
        if flagged(d, p_verdicts, p_findings):
            hits[d["kind"]] += 1
        else:
            print("   not flagged:", d)
    print(f"planted defects: {len(defects)}; flagged: {sum(hits.values())} "
          f"({100 * sum(hits.values()) / max(len(defects), 1):.1f}%)")
    for k in sorted(kinds):
        print(f"  {k:40} {hits[k]}/{kinds[k]}")
    print("  planted wrong answers judged: " + ", ".join(f"{k} {n}" for k, n in sorted(planted_verdicts.items())))
    natural = collections.Counter(f["kind"] for fs in findings.values() for f in fs if f["severity"] == "conflict")
    print("findings (conflicts) on the data as the engine wrote it: " +
          ", ".join(f"{k} {n}" for k, n in sorted(natural.items())))


if __name__ == "__main__":
    main()
