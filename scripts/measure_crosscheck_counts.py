#!/usr/bin/python3
"""Measure the cross-check's counts (`crosscheck --count-check`, docs/vision.md "Counts").

Usage:
  scripts/measure_crosscheck_counts.py [--n 200] [--seed 3] [--level medium] [--build build] [--threads 2]
                                       [--json OUT]
  scripts/measure_crosscheck_counts.py --visonlyqa VISONLYQA/dataset/val [--n N] [--seed 3] [--build build]

geotruth's own Tangram items (generate --family tangram) are rendered clean, with --style sketch
and with --gaussian 12 -- or, with --visonlyqa, VisOnlyQA's synthetic pictures (pictures none of
geotruth drew, the val split; the test split is refused) with the scenes their text items describe
(`import --from visonlyqa`, one per picture, the first --n) -- and each picture is cross-checked
(--image, --count-check on) against:

- its own scene (an agreeing pair): any count difference found (a count_mismatch finding of the
  counts, conflict or doubtful) is a false difference;
- the scene with one drawn line that holds two or more letters removed: detected when a "segment
  extra" difference names two letters of that line;
- the scene with one letter renamed to a letter it does not use (A -> Q, or the next unused one
  of Q R S T U V W Z): detected when a "letter read otherwise" difference names the new name.

Printed per style: the detection rate of each plant, the false-difference rate on agreeing
pairs, and (for the record) those rates counting conflicts only, with the differences by kind and
severity. A VisOnlyQA text is not always its picture: a letter its picture hides or cuts off is a
true "letter missing", counted here all the same.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

COUNT_DIFFERENCES = ("letter read otherwise", "letter missing", "letter extra", "segment missing",
                     "segment extra", "triangle missing", "triangle extra", "circle missing", "circle extra")
RENAME_TO = "QRSTUVWZ"


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, scenes):
    with open(path, "w") as f:
        for s in scenes:
            f.write(json.dumps(s) + "\n")


def count_differences(record):
    """The count check's differences of one crosscheck record: (difference, elements, severity)."""
    out = []
    for r in record.get("reasons", []):
        if r.get("kind") != "count_mismatch":
            continue
        what = r.get("detail", "").split(":", 1)[0]
        if what in COUNT_DIFFERENCES:
            out.append((what, r.get("elements", []), r.get("severity")))
    return out


def lettered(scene):
    return {p["id"] for p in scene["points"] if p.get("label", True)}


def remove_line(scene, rng):
    """The scene without one line holding two or more letters, and that line's letters; None if none."""
    letters = lettered(scene)
    candidates = [i for i, l in enumerate(scene.get("lines", [])) if len(letters & set(l["through"])) >= 2]
    if not candidates:
        return None, None
    k = rng.choice(candidates)
    planted = json.loads(json.dumps(scene))
    removed = planted["lines"].pop(k)
    return planted, letters & set(removed["through"])


def rename_letter(scene, rng):
    """The scene with one letter renamed to one it does not use, and (old, new)."""
    ids = {p["id"] for p in scene["points"]}
    letters = sorted(lettered(scene))
    new = next((c for c in RENAME_TO if c not in ids), None)
    if not letters or new is None:
        return None, None
    old = "A" if "A" in letters else rng.choice(letters)

    def rename(v):
        if isinstance(v, list):
            return [rename(x) for x in v]
        if isinstance(v, dict):
            return {k: (rename(x) if k != "questions" else x) for k, x in v.items()}
        return new if v == old else v

    planted = json.loads(json.dumps(scene))
    for p in planted["points"]:
        if p["id"] == old:
            p["id"] = new
    for key in ("lines", "circles"):
        if key in planted:
            planted[key] = rename(planted[key])
    return planted, (old, new)


def crosscheck(build, scenes_path, pictures, out_path, threads):
    proc = run([os.path.join(build, "geotruth"), "crosscheck", scenes_path, "--image", pictures, "--count-check", "on",
                "-o", out_path, "--threads", str(threads)])
    if proc.returncode not in (0, 3):
        sys.exit("crosscheck failed (%d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return {r["id"]: r for r in read_jsonl(out_path) if "id" in r}


def rate(hits, n):
    return round(hits / n, 4) if n else None


def plant(scenes, rng):
    """The scenes with one segment removed and with one letter renamed, and what each plant names."""
    segment_plants, rename_plants = {}, {}
    segment_scenes, rename_scenes = [], []
    for s in scenes:
        planted, letters = remove_line(s, rng)
        if planted:
            segment_plants[s["id"]] = letters
            segment_scenes.append(planted)
        planted, names = rename_letter(s, rng)
        if planted:
            rename_plants[s["id"]] = names
            rename_scenes.append(planted)
    return segment_scenes, segment_plants, rename_scenes, rename_plants


def measure_pairs(args, work, label, scenes_path, plants, pictures):
    """Cross-check the agreeing scenes and both plants against `pictures`: the rates of one style."""
    segment_scenes, segment_plants, rename_scenes, rename_plants = plants
    segment_path, rename_path = os.path.join(work, "segment.jsonl"), os.path.join(work, "rename.jsonl")
    write_jsonl(segment_path, segment_scenes)
    write_jsonl(rename_path, rename_scenes)
    agreeing = crosscheck(args.build, scenes_path, pictures, os.path.join(work, label + "-agree.jsonl"), args.threads)
    segments = crosscheck(args.build, segment_path, pictures, os.path.join(work, label + "-segment.jsonl"),
                          args.threads)
    renames = crosscheck(args.build, rename_path, pictures, os.path.join(work, label + "-rename.jsonl"), args.threads)
    false_any = false_conflict = 0
    false_kinds = {}
    for r in agreeing.values():
        found = count_differences(r)
        false_any += bool(found)
        false_conflict += any(sev == "conflict" for _, _, sev in found)
        for what, _, sev in found:
            key = what + " (" + sev + ")"
            false_kinds[key] = false_kinds.get(key, 0) + 1
    seg_any = seg_conflict = 0
    for scene_id, letters in segment_plants.items():
        found = [(sev) for what, els, sev in count_differences(segments.get(scene_id, {}))
                 if what == "segment extra" and len(els) == 2 and set(els) <= letters]
        seg_any += bool(found)
        seg_conflict += "conflict" in found
    ren_any = ren_conflict = 0
    for scene_id, (old, new) in rename_plants.items():
        found = [sev for what, els, sev in count_differences(renames.get(scene_id, {}))
                 if what == "letter read otherwise" and els == [new]]
        ren_any += bool(found)
        ren_conflict += "conflict" in found
    return {
        "agreeing_pairs": len(agreeing),
        "false_difference_rate": rate(false_any, len(agreeing)),
        "false_conflict_rate": rate(false_conflict, len(agreeing)),
        "false_differences_by_kind": false_kinds,
        "segment_removed": {"plants": len(segment_plants), "detected": rate(seg_any, len(segment_plants)),
                            "as_conflict": rate(seg_conflict, len(segment_plants))},
        "letter_renamed": {"plants": len(rename_plants), "detected": rate(ren_any, len(rename_plants)),
                           "as_conflict": rate(ren_conflict, len(rename_plants))},
    }


def visonlyqa_pairs(args, work):
    """VisOnlyQA's synthetic pictures with the scenes their text items describe (one per picture)."""
    split = os.path.normpath(args.visonlyqa)
    if os.path.basename(split) == "test":
        sys.exit("the test split is kept for checking: measure on dataset/val")
    texts = sorted(glob.glob(os.path.join(split, "synthetic_with_text", "text_syntheticgeometry__*.jsonl")))
    if not texts:
        sys.exit("no synthetic_with_text/text_syntheticgeometry__*.jsonl under " + split)
    imported = os.path.join(work, "imported.jsonl")
    proc = run([os.path.join(args.build, "geotruth"), "import", "--from", "visonlyqa", "-o", imported] + texts)
    if proc.returncode not in (0, 1):
        sys.exit("import failed: " + proc.stderr[-2000:])
    scenes, pictures = [], set()
    for s in read_jsonl(imported):
        image = (s.get("extra") or {}).get("image")
        if "id" not in s or not s.get("points") or image in pictures:
            continue
        pictures.add(image)
        scenes.append(s)
    if args.n:
        scenes = scenes[:args.n]
    scenes_path = os.path.join(work, "visonlyqa.jsonl")
    write_jsonl(scenes_path, scenes)
    return scenes, scenes_path, split


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--visonlyqa", metavar="SPLIT_DIR",
                        help="VisOnlyQA's split folder (dataset/val): its synthetic pictures with their texts' scenes "
                             "instead of geotruth's own Tangram items")
    parser.add_argument("--json")
    args = parser.parse_args()
    geotruth = os.path.join(args.build, "geotruth")
    work = tempfile.mkdtemp(prefix="crosscheck-counts-")
    rng = random.Random(args.seed)
    results = {}
    if args.visonlyqa:
        scenes, scenes_path, split = visonlyqa_pairs(args, work)
        results["visonlyqa"] = dict(pictures=len(scenes), **measure_pairs(
            args, work, "visonlyqa", scenes_path, plant(scenes, rng), split))
    else:
        scenes_path = os.path.join(work, "t.jsonl")
        clean_dir = os.path.join(work, "clean")
        proc = run([geotruth, "generate", "--family", "tangram", "--level", args.level, "-n", str(args.n), "--seed",
                    str(args.seed), "-o", scenes_path, "--render", clean_dir])
        if proc.returncode not in (0, 1):
            sys.exit("generate failed: " + proc.stderr)
        scenes = [s for s in read_jsonl(scenes_path) if "id" in s]
        plants = plant(scenes, rng)
        styles = {"clean": None, "sketch": ["--style", "sketch"], "noisy": ["--gaussian", "12"]}
        for style, options in styles.items():
            pictures = clean_dir
            if options:
                pictures = os.path.join(work, style)
                run([geotruth, "render", scenes_path, "-o", pictures, "--seed", "5"] + options)
            results[style] = dict(pictures=len(glob.glob(os.path.join(pictures, "*.png"))),
                                  **measure_pairs(args, work, style, scenes_path, plants, pictures))
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("work files in " + work, file=sys.stderr)


if __name__ == "__main__":
    main()
