#!/usr/bin/env python3
"""Measure geotruth on a VisOnlyQA checkout: import, audit, pictures and scores, per task.

Usage: scripts/measure_visonlyqa.py CHECKOUT [--split val] [--build build] [--out DIR]
                                    [--no-images] [--list N] [--threads N]

CHECKOUT is a copy of psunlpgroup/VisOnlyQA (its dataset/ and results/ folders; read in place,
nothing of it is written anywhere but --out). Debian's python3 and the standard library only.
The script runs, on CHECKOUT/dataset/SPLIT:

- `geotruth import --from visonlyqa`: items per task, importer notes by kind;
- `geotruth audit --from visonlyqa`: verdicts by kind per task, and every label geotruth calls
  wrong or ambiguous with its reasons (the first --list of each task);
- an independent check of the synthetic labels: VisOnlyQA's own generator rule (its
  create_syntheticgeometry.py: a triangle's or quadrilateral's sides are pairs on one line of the
  text, no three corners on one line of the text, the polygon not self-crossing; the estimates'
  ranges), re-run here on the description's numbers, against the annotated labels (does the
  dataset follow its own rule?) and against geotruth's truth (where do the two semantics part?);
- with pictures (unless --no-images): `geotruth crosscheck --from visonlyqa SPLIT --image SPLIT` over
  every item of the split, saying what it did for each kind of item (a text item's picture checked
  against its own scene; a plain item's, the same picture, against the scene of the text item with
  its image_path; an item with no geometry scene, 3D or real, not checked) and, per task, the
  pictures that agree with their scenes (no conflict); the similarity fitted from the figure's units
  to the picture's pixels; letters found; and the disagreements by cause: a circle the text drops
  (the picture draws a whole circle the scene lacks), a letter the cropped picture cuts off, a
  letter missing where the generator puts it, strokes;
- `geotruth score --from visonlyqa` on the published responses (results/model_responses, which
  answer the test split's items), when SPLIT has them: all / audited-ok / corrected accuracy per
  model and task, and the "all items" accuracies against the paper's tables (results/tables).
"""
import argparse
import collections
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile

TABLE_NAMES = {  # file stem → the paper's row name
    "Phi-3.5-vision-instruct": "Phi-3.5-vision", "llava_next_llama3": "LLaVA-Next 8B",
    "llava_next_yi_34b": "LLaVA-Next 34B", "Llama-3.2-11B-Vision-Instruct": "Llama 3.2 11B",
    "Llama-3.2-90B-Vision-Instruct": "Llama 3.2 90B", "molmo-7B-D-0924": "MolMo 7B-D", "molmo-72B-0924": "MolMo 72B",
    "Qwen2-VL-2B-Instruct": "Qwen2-VL-2B", "Qwen2-VL-7B-Instruct": "Qwen2-VL-7B",
    "Qwen2-VL-72B-Instruct": "Qwen2-VL-72B", "InternVL2-4B": "InternVL2-4B", "InternVL2-8B": "InternVL2-8B",
    "InternVL2-26B": "InternVL2-26B", "InternVL2-40B": "InternVL2-40B", "InternVL2-Llama3-76B": "InternVL2-76B",
    "claude-3-5-sonnet-20240620": "Claude 3.5 Sonnet", "gpt-4o-mini-2024-07-18": "GPT-4o-mini",
    "gpt-4o-2024-08-06": "GPT-4o", "gemini-1.5-flash-002": "Gemini 1.5 Flash", "gemini-1.5-pro-002": "Gemini 1.5 Pro",
}
SYNTHETIC_COLUMNS = ["syntheticgeometry__triangle", "syntheticgeometry__quadrilateral", "syntheticgeometry__length",
                     "syntheticgeometry__angle", "syntheticgeometry__area", "3d__size", "3d__angle"]
REAL_COLUMNS = ["geometry__triangle", "geometry__quadrilateral", "geometry__length", "geometry__angle",
                "geometry__area", "geometry__diameter_radius", "chemistry__shape_single", "chemistry__shape_multi",
                "charts__extraction", "charts__intersection"]


def run(cmd, **kw):
    return subprocess.run(cmd, check=False, text=True, capture_output=True, **kw)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


# --- the generator's own rule, independently ------------------------------------------------


def parse_description(prompt):
    points = {n: (float(x), float(y)) for n, x, y in re.findall(r"Point (\S+): Position\(x=(\S+), y=(\S+)\)", prompt)}
    m = re.search(r"\nLine: (.*)\n", prompt)
    lines = [list(run) for run in m.group(1).split(", ")] if m else []
    return points, lines


def on_one_line(names, lines):
    return any(all(n in line for n in names) for line in lines)


def ccw(a, b, c):
    return (c[1] - a[1]) * (b[0] - a[0]) > (b[1] - a[1]) * (c[0] - a[0])


def crossing(p1, p2, p3, p4):
    return ccw(p1, p3, p4) != ccw(p2, p3, p4) and ccw(p1, p2, p3) != ccw(p1, p2, p4)


def generator_exists(corners, points, lines):
    """VisOnlyQA's create_syntheticgeometry.py: sides on lines of the text, no three corners on one."""
    n = len(corners)
    for line in lines:
        if sum(c in line for c in corners) >= 3:
            return False
    if not all(on_one_line([corners[i], corners[(i + 1) % n]], lines) for i in range(n)):
        return False
    if n == 4:
        p = [points[c] for c in corners]
        if crossing(p[0], p[1], p[2], p[3]) or crossing(p[1], p[2], p[3], p[0]):
            return False
    return True


def angle(a, v, b):
    u = (a[0] - v[0], a[1] - v[1])
    w = (b[0] - v[0], b[1] - v[1])
    c = (u[0] * w[0] + u[1] * w[1]) / (math.hypot(*u) * math.hypot(*w))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def area(poly):
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]))) / 2


def nearest(x, options, log):
    key = (lambda o: abs(math.log(x) - math.log(o))) if log else (lambda o: abs(x - o))
    return min(range(len(options)), key=lambda i: key(options[i]))


def generator_label(item, question):
    """The label the generator's rule gives on the description's rounded numbers (letter), or None."""
    points, lines = parse_description(item["prompt_no_reasoning"])
    q = question
    try:
        if q["ask"] == "exists":
            exists = generator_exists(q["vertices"], points, lines)
            return "A" if exists != q.get("absent", False) else "B"
        options = [float(o) for o in q["options"]]
        p = lambda n: points[n]
        if q["of"] == "length_ratio":
            a, b = q["vertices"]
            c, d = q["versus"]
            x = math.dist(p(a), p(b)) / math.dist(p(c), p(d))
            return chr(65 + nearest(x, options, True))
        if q["of"] == "area_ratio":
            x = area([p(n) for n in q["vertices"]]) / area([p(n) for n in q["versus"]])
            return chr(65 + nearest(x, options, True))
        if q["of"] == "angle":
            a, v, b = q["vertices"]
            return chr(65 + nearest(angle(p(a), p(v), p(b)), options, False))
    except (KeyError, ValueError, ZeroDivisionError):
        return None
    return None


# --- tables of the paper -------------------------------------------------------------------


def table_rows(path):
    """Rows of a results/tables/*.txt LaTeX table: name → [numbers]."""
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        line = re.sub(r"\\rowcolor\{[^}]*\}", "", line)
        cells = [c.strip() for c in line.replace("\\\\", "").split("&")]
        if len(cells) < 3:
            continue
        values = []
        for c in cells[1:]:
            try:
                values.append(float(c))
            except ValueError:
                values.append(None)
        rows[cells[0]] = values
    return rows


def finetuned_rows(path):
    """Fine-tuned tables: (block, model, Original|Fine-tuned) → [numbers]."""
    rows, block, model = {}, None, None
    if not os.path.exists(path):
        return rows
    for line in open(path):
        cells = [c.strip() for c in line.replace("\\\\", "").split("&")]
        if len(cells) < 4:
            continue
        if "Eval-" in cells[0]:
            block = re.search(r"\{(Eval-[^}]*)\}", cells[0]).group(1) if "{" in cells[0] else cells[0]
        m = re.search(r"\}\{([^}]*)\}$", cells[1]) or re.match(r"(.+)", cells[1])
        if cells[1] and "Random" not in cells[1]:
            model = re.sub(r".*\{", "", cells[1]).rstrip("}") if "{" in cells[1] else cells[1]
        kind = cells[2]
        if kind not in ("Original", "Fine-tuned"):
            continue
        values = []
        for c in cells[3:]:
            try:
                values.append(float(c))
            except ValueError:
                values.append(None)
        rows[(block, model, kind)] = values
    return rows


def cause_of(reason):
    """The cause a conflict of a picture's check names (the docs' words)."""
    d = reason["detail"]
    if d.startswith("a circle the scene does not draw"):
        return "a circle the text drops"
    if "cut off by the picture's edge" in d:
        return "a letter the cropped picture cuts off"
    if reason["kind"] == "not_detected" and "letter" in d:
        return "a letter missing where the generator puts it"
    if reason["kind"] == "count_mismatch":
        return None  # a sum of the others
    if reason["kind"] == "picture_unavailable":
        return "no picture"
    return "strokes (" + reason["kind"] + ")"


def pictures_report(items, scenes, checks):
    """What crosscheck --image did for every item, and the text items' pictures against their scenes."""
    print("## pictures (crosscheck --image)\n")
    print("| set | items | checked against a geometry scene | the text item's scene (shared picture) | "
          "no geometry scene (not checked) | no record |\n|---|---|---|---|---|---|")
    # (an item whose picture is missing or unreadable has an error record and counts where its scene does)
    by_set = collections.defaultdict(collections.Counter)
    twins = [0, 0]  # plain items whose verdict equals their text item's, of those compared
    for item_id, (folder, task, it) in sorted(items.items()):
        scene, c = scenes.get(item_id), checks.get(item_id)
        row = by_set[folder]
        row["items"] += 1
        if c is None:
            row["none"] += 1
        elif c.get("status") == "unchecked" or not (scene and scene.get("points")):
            row["no scene"] += 1  # crosscheck says "unchecked" (agree null): the scene draws nothing
        elif scene.get("extra", {}).get("visonlyqa", {}).get("scene_from"):
            row["shared"] += 1
            twin = checks.get(scene["extra"]["visonlyqa"]["scene_from"])
            if twin is not None:
                twins[1] += 1
                twins[0] += twin.get("agree") == c.get("agree")
        else:
            row["own"] += 1
    for folder, row in sorted(by_set.items()):
        print(f"| {folder} | {row['items']} | {row['own']} | {row['shared']} | {row['no scene']} | {row['none']} |")
    for folder in ("synthetic_with_text", "synthetic", "real"):
        if folder not in by_set:
            print(f"| {folder} | 0 (the split has no {folder}/ folder) | | | | |")
    print(f"\nplain items (the text items' pictures, checked against the scenes taken from them): "
          f"{twins[0]}/{twins[1]} with the same agreement as their text item. Items with no geometry scene "
          f"(3D, real) have nothing to check a picture against: their records say \"unchecked\" and are not "
          f"counted.\n")
    text = [c for i, c in checks.items() if items.get(i, (None,))[0] == "synthetic_with_text"
            and scenes.get(i, {}).get("points")]
    if not text:
        return
    mapped = [c["mapping"] for c in text if c.get("mapping", {}).get("fitted")]
    agree = sum(bool(c.get("agree")) for c in text)
    letters = [c.get("counts", {}).get("letters", {}) for c in text if "error" not in c]
    found, total = sum(l.get("matched", 0) for l in letters), sum(l.get("symbolic", 0) for l in letters)
    every = sum(l.get("matched", 0) == l.get("symbolic", 0) for l in letters)
    causes = collections.Counter()
    only = collections.Counter()
    for c in text:
        mine = set(filter(None, (cause_of(r) for r in c.get("reasons", []) if r.get("severity") == "conflict")))
        if "error" in c:
            mine.add("no picture" if c["error"].get("message", "").startswith("no picture") else "error")
        causes.update(mine)
        if len(mine) == 1:
            only.update(mine)
    print(f"text items' pictures: {len(text)}; mapping fitted on {len(mapped)}")
    if mapped:
        res = sorted(m["residual_px"] for m in mapped)
        scale = sorted(m["px_per_unit"] for m in mapped)
        print(f"residual median {res[len(res) // 2]:.2f} px, 90th percentile {res[int(0.9 * (len(res) - 1))]:.2f} px, "
              f"largest {res[-1]:.2f} px; largest single dot {max(m['worst_px'] for m in mapped):.2f} px; "
              f"scale {scale[0]:.0f}–{scale[-1]:.0f} px per unit (median {scale[len(scale) // 2]:.0f})")
    print(f"letters found: {found} of {total}; {every} of {len(letters)} pictures read with every letter found")
    print(f"**pictures that agree with their scene: {agree}/{len(text)} ({100 * agree / len(text):.1f} %)**\n")
    print("| disagreeing pictures, by cause (a picture may have several) | pictures | only this cause |\n|---|---|---|")
    for cause, n in causes.most_common():
        print(f"| {cause} | {n} | {only[cause]} |")
    print(f"\npictures that draw a circle the text drops: {causes['a circle the text drops']}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("--split", default="val")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--no-images", action="store_true")
    ap.add_argument("--list", type=int, default=10, help="wrong/ambiguous labels listed per task")
    ap.add_argument("--threads", type=int, default=0, help="crosscheck's worker threads (0: all cores)")
    args = ap.parse_args()
    geotruth = os.path.join(args.build, "geotruth")
    split_dir = os.path.join(args.checkout, "dataset", args.split)
    out = args.out or tempfile.mkdtemp(prefix="measure_visonlyqa_")
    os.makedirs(out, exist_ok=True)
    print(f"# VisOnlyQA {args.split}: {split_dir}\n(outputs in {out})\n")

    # Items, by task, as the dataset files list them.
    items = {}
    for folder in ("synthetic_with_text", "synthetic", "real"):
        d = os.path.join(split_dir, folder)
        if os.path.isdir(d):
            for name in sorted(os.listdir(d)):
                if name.endswith(".jsonl"):
                    for it in read_jsonl(os.path.join(d, name)):
                        items[it["id"]] = (folder, name[:-6], it)

    # 1. import
    scenes_path = os.path.join(out, "scenes.jsonl")
    r = run([geotruth, "import", "--from", "visonlyqa", split_dir, "-o", scenes_path])
    print("## import\n\n" + r.stderr.strip() + "\n")
    scenes = {s["id"]: s for s in read_jsonl(scenes_path) if "id" in s}
    notes = collections.Counter(n["kind"] for s in scenes.values() for n in s.get("extra", {}).get("import_notes", []))
    print("importer notes: " + ", ".join(f"{k} {v}" for k, v in sorted(notes.items())) + "\n")
    by_task = collections.defaultdict(list)
    for item_id, (folder, task, _) in items.items():
        by_task[(folder, task)].append(item_id)

    # 2. audit (with the pictures)
    audit_dir = os.path.join(out, "audit")
    r = run([geotruth, "audit", "--from", "visonlyqa", split_dir, "-o", audit_dir])
    print("## audit\n\n" + "\n".join(l for l in r.stderr.splitlines() if not l.startswith("\r"))[-2000:] + "\n")
    verdicts = {v["scene"]: v for v in read_jsonl(os.path.join(audit_dir, "verdicts.jsonl"))}
    audited = {s["id"]: s for s in read_jsonl(os.path.join(audit_dir, "scenes.jsonl")) if "id" in s}

    # 3. pictures: crosscheck --image over every item of the split
    checks = {}
    if not args.no_images:
        cc_path = os.path.join(out, "crosscheck.jsonl")
        cmd = [geotruth, "crosscheck", "--from", "visonlyqa", split_dir, "--image", split_dir, "-o", cc_path]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        r = run(cmd)
        print("## crosscheck --image\n\n" + "\n".join(l for l in r.stderr.splitlines() if not l.startswith("\r"))[-1000:] + "\n")
        # A check's record names its item by "id"; an error record (no picture) by "key".
        checks = {c.get("id", c.get("key")): c for c in read_jsonl(cc_path) if "id" in c or "key" in c}

    print("| set | task | items | ok | wrong | ambiguous | invalid | unsupported | pictures agree | generator rule = label | geotruth = generator rule |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    flagged_lists = []
    totals = collections.Counter()
    for (folder, task), ids in sorted(by_task.items()):
        counts = collections.Counter(verdicts[i]["verdict"] for i in ids if i in verdicts)
        pictures = agree = 0
        rule_label = rule_n = rule_geotruth = rule_geotruth_n = 0
        for i in ids:
            scene = scenes.get(i)
            if i in checks and scene and scene.get("points") and checks[i].get("status") != "unchecked":
                pictures += 1
                agree += bool(checks[i].get("agree"))
            if folder != "real" and scene and scene.get("points") and "syntheticgeometry" in task:
                q = scene["questions"][0]
                text_item = items.get(scene["extra"]["visonlyqa"].get("scene_from", i), (None, None, None))[2] or items[i][2]
                label = generator_label(text_item, q)
                if label is not None:
                    rule_n += 1
                    rule_label += label == q.get("answer")
                    v = verdicts.get(i)
                    if v and v["verdict"] in ("ok", "wrong") and v["truth"]:
                        rule_geotruth_n += 1
                        rule_geotruth += v["truth"] == label
        for k, n in counts.items():
            totals[k] += n
        totals["items"] += len(ids)
        totals["pictures"] += pictures
        totals["agree"] += agree
        pic = f"{agree}/{pictures}" if pictures else "-"
        rule = f"{rule_label}/{rule_n}" if rule_n else "-"
        rule2 = f"{rule_geotruth}/{rule_geotruth_n}" if rule_geotruth_n else "-"
        print(f"| {folder} | {task} | {len(ids)} | {counts['ok']} | {counts['wrong']} | {counts['ambiguous']} | "
              f"{counts['invalid']} | {counts['unsupported']} | {pic} | {rule} | {rule2} |")
        listed = [verdicts[i] for i in ids if i in verdicts and verdicts[i]["verdict"] in ("wrong", "ambiguous")]
        if listed:
            flagged_lists.append((folder, task, listed))
    print(f"\ntotal: {totals['items']} items; " + ", ".join(f"{totals[k]} {k}" for k in
          ("ok", "wrong", "ambiguous", "invalid", "unsupported")) +
          (f"; pictures agreeing with their scenes: {totals['agree']}/{totals['pictures']}"
           f" ({100 * totals['agree'] / totals['pictures']:.1f} %)" if totals["pictures"] else "") + "\n")

    print("## labels geotruth calls wrong or ambiguous\n")
    for folder, task, listed in flagged_lists:
        print(f"### {folder}/{task}: {len(listed)}\n")
        for v in listed[: args.list]:
            reasons = "; ".join(f"{r['kind']}: {r['detail']}" for r in v["reasons"])
            print(f"- {v['scene']} ({v['verdict']}, annotated {v['annotated']}, truth {v['truth'] or '-'}): "
                  f"{v.get('text', '')} — {reasons}")
        print()

    if checks:
        pictures_report(items, scenes, checks)

    # 4. score
    responses = os.path.join(args.checkout, "results", "model_responses")
    if not os.path.isdir(responses):
        print("## score\n\nno results/model_responses in the checkout\n")
        return
    score_json = os.path.join(out, "scores.json")
    r = run([geotruth, "score", "--from", "visonlyqa", split_dir, "--responses", responses, "--json", score_json])
    if r.returncode not in (0, 1) or not os.path.exists(score_json):
        print("## score\n\n" + r.stderr[-2000:])
        return
    scores = json.load(open(score_json))
    matched = sum(m["responses"]["matched"] for m in scores["models"])
    unreadable = sum(m["responses"]["unreadable"] for m in scores["models"])
    print(f"## score\n\n{len(scores['models'])} models, {matched} rows matched to items, {unreadable} rows whose "
          f"prompt or y_true is not their item's (rows are matched by order)\n")
    if unreadable > matched / 2:
        print(f"(the published responses answer another split than {args.split}: no scores)\n")
        return
    print("| model | task | all items | audited ok | corrected |\n|---|---|---|---|---|")
    for m in scores["models"]:
        for task, views in sorted(m.get("by_task", {}).items()):
            if views["all"]["n"] == 0:
                continue
            cells = [f"{views[k]['correct']}/{views[k]['n']}" + (
                f" {100 * views[k]['accuracy']:.1f}%" if views[k]["accuracy"] is not None else "")
                for k in ("all", "clean", "corrected")]
            print(f"| {m['name']} | {task} | " + " | ".join(cells) + " |")
    print("\nrank changes: " + (str(len(scores["rank_changes"])) if scores["rank_changes"] else "none"))
    for c in scores["rank_changes"][:20]:
        print(f"- {c['scope']}, {c['view']}: {c['models'][1]} above {c['models'][0]}")
    # Against the paper's tables ("all items", percent to one decimal).
    tables = os.path.join(args.checkout, "results", "tables")
    checks = []
    synth = table_rows(os.path.join(tables, "synthetic", "prompt=no_reasoning,metric=accuracy.txt"))
    real = table_rows(os.path.join(tables, "real", "prompt=no_reasoning,metric=accuracy.txt"))
    fine = finetuned_rows(os.path.join(tables, "finetuned", "fine-tuned--prompt=no_reasoning,metric=accuracy.txt"))
    fine_text = finetuned_rows(os.path.join(tables, "finetuned", "fine-tuned-with-text--prompt=no_reasoning,metric=accuracy.txt"))
    by_name = {m["name"]: m for m in scores["models"]}

    def acc(model, task):
        v = model.get("by_task", {}).get(task)
        return None if not v or not v["all"]["n"] else round(100 * v["all"]["correct"] / v["all"]["n"], 1)

    for stem, row_name in TABLE_NAMES.items():
        m = by_name.get(stem)
        if not m:
            continue
        for table, columns in ((synth, SYNTHETIC_COLUMNS), (real, REAL_COLUMNS)):
            row = table.get(row_name)
            if row:
                for col, task in enumerate(columns):
                    if col < len(row) and row[col] is not None and acc(m, task) is not None:
                        checks.append((row_name, task, row[col], acc(m, task)))
    for (block, model, kind), row in list(fine.items()) + list(fine_text.items()):
        stem = next((s for s, n in TABLE_NAMES.items() if n == model), None)
        if not stem or kind != "Fine-tuned":
            continue
        text = (block, model, kind) in fine_text and "with Text" in (block or "")
        m = by_name.get(f"{stem} (fine-tuned with text)" if text else f"{stem} (fine-tuned)")
        if not m:
            continue
        if "Real" in (block or ""):
            columns = REAL_COLUMNS[:5]
        elif text:
            columns = ["text_" + c if c.startswith("synthetic") else "text_" + c for c in SYNTHETIC_COLUMNS]
        else:
            columns = SYNTHETIC_COLUMNS
        for col, task in enumerate(columns):
            if col < len(row) and row[col] is not None and acc(m, task) is not None:
                checks.append((f"{model} fine-tuned" + (" with text" if text else ""), task, row[col], acc(m, task)))
    differ = [c for c in checks if abs(c[2] - c[3]) > 0.05]
    print(f"\n## against the paper's tables\n\n{len(checks)} cells (model × task) compared: "
          f"{len(checks) - len(differ)} equal, {len(differ)} differ")
    for name, task, paper, ours in differ:
        print(f"- {name} / {task}: paper {paper}, geotruth {ours}")


if __name__ == "__main__":
    main()
