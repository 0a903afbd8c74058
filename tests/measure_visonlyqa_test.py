#!/usr/bin/env python3
"""scripts/measure_visonlyqa.py on a tiny checkout in VisOnlyQA's layout, written here.

The split is the hand-made fixture split (tests/fixtures/visonlyqa/split: text items, plain items
sharing their pictures, 3D and real items); its pictures are drawn by `geotruth render` from the
text items' own scenes and put where the items' image_path says, but one picture is left missing.
The figures the script prints are checked against counts made here from the fixture files and the
crosscheck records, not from the script: items per set and what --image did for each, the text
pictures, letters found, agreement, and the missing picture as a cause.

Usage: measure_visonlyqa_test.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    source, build = sys.argv[1], sys.argv[2]
    geotruth = os.path.join(build, "geotruth")
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        split = os.path.join(tmp, "VisOnlyQA", "dataset", "val")
        shutil.copytree(os.path.join(source, "tests", "fixtures", "visonlyqa", "split"), split)
        items = {}  # id → (folder, item)
        for folder in sorted(os.listdir(split)):
            for name in sorted(os.listdir(os.path.join(split, folder))):
                for it in read_jsonl(os.path.join(split, folder, name)):
                    items[it["id"]] = (folder, name, it)
        # The text items' scenes, drawn at their own scale and put where their items look.
        scenes_path = os.path.join(tmp, "scenes.jsonl")
        subprocess.run([geotruth, "import", "--from", "visonlyqa", split, "-o", scenes_path], check=True,
                       capture_output=True)
        scenes = {s["id"]: s for s in read_jsonl(scenes_path) if "id" in s}
        text = {i: s for i, s in scenes.items() if items[i][0] == "synthetic_with_text" and s.get("points")}
        drawn = os.path.join(tmp, "drawn")
        with open(os.path.join(tmp, "text.jsonl"), "w") as f:
            for s in text.values():
                f.write(json.dumps(s) + "\n")
        subprocess.run([geotruth, "render", os.path.join(tmp, "text.jsonl"), "-o", drawn, "--threads", "1"], check=True,
                       capture_output=True)
        paths = sorted({items[i][2]["image_path"] for i in text})
        missing = paths[-1] if len(paths) > 1 else None
        for i in text:
            path = items[i][2]["image_path"]
            if path == missing:
                continue
            os.makedirs(os.path.dirname(os.path.join(split, path)), exist_ok=True)
            shutil.copy(os.path.join(drawn, i + ".png"), os.path.join(split, path))

        out = os.path.join(tmp, "out")
        r = subprocess.run([sys.executable, os.path.join(source, "scripts", "measure_visonlyqa.py"),
                            os.path.join(tmp, "VisOnlyQA"), "--build", build, "--out", out, "--threads", "2"],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}")
        report = r.stdout
        checks = {c.get("id", c.get("key")): c for c in read_jsonl(os.path.join(out, "crosscheck.jsonl"))}
        check(set(checks) == set(items), "crosscheck --image ran over every item of the split")

        # What --image did, per set: counted from the fixture files and the importer's scenes.
        for folder in ("synthetic_with_text", "synthetic", "real"):
            ids = [i for i, v in items.items() if v[0] == folder]
            own = sum(1 for i in ids if scenes[i].get("points") and not scenes[i]["extra"]["visonlyqa"].get("scene_from"))
            shared = sum(1 for i in ids if scenes[i].get("points") and scenes[i]["extra"]["visonlyqa"].get("scene_from"))
            none = sum(1 for i in ids if not scenes[i].get("points"))
            row = f"| {folder} | {len(ids)} | {own} | {shared} | {none} | 0 |"
            check(row in report, f"row {row!r} in the pictures table")
        # Items with no scene (3D, real) are not checked: agree null, status "unchecked" with a reason,
        # and the summary line counts them apart from agreements.
        sceneless = [i for i in items if not scenes[i].get("points")]
        check(len(sceneless) > 0, "the fixture has items with no scene")
        for i in sceneless:
            c = checks[i]
            check(c.get("status") == "unchecked" and "agree" in c and c["agree"] is None and c.get("reason"),
                  f"{i}: unchecked, agree null, with a reason: {c}")
        checked = [c for c in checks.values() if "error" not in c and c.get("status") != "unchecked"]
        agreeing = sum(c.get("agree") is True for c in checked)
        m = re.search(r"crosscheck: (\d+) records, (\d+) checked, (\d+) agree, (\d+) disagree, (\d+) unchecked", report)
        check(m is not None and [int(g) for g in m.groups()] ==
              [len(checks), len(checked), agreeing, len(checked) - agreeing, len(sceneless)],
              f"summary line: {len(checked)} checked, {agreeing} agree, {len(sceneless)} unchecked")
        check(any(v[0] == "synthetic" and scenes[i]["extra"]["visonlyqa"].get("scene_from") for i, v in items.items()),
              "the fixture has plain items that share their text item's picture")

        # The text pictures: agreement and letters, from the records.
        agree = sum(bool(checks[i].get("agree")) for i in text)
        check(f"pictures that agree with their scene: {agree}/{len(text)} " in report, "agreement line")
        letters = [checks[i].get("counts", {}).get("letters", {}) for i in text]
        found = sum(l.get("matched", 0) for l in letters)
        total = sum(1 for i in text if "error" not in checks[i]
                    for p in text[i]["points"] if p.get("label", True) and p.get("at"))
        check(f"letters found: {found} of {total};" in report, f"letters found: {found} of {total}")
        fitted = sum(bool(checks[i].get("mapping", {}).get("fitted")) for i in text)
        check(f"mapping fitted on {fitted}" in report, f"mapping fitted on {fitted}")
        check(fitted >= len([i for i in text if items[i][2]["image_path"] != missing]),
              "every drawn picture gets its mapping")
        if missing:
            lost = sum(1 for i in text if items[i][2]["image_path"] == missing)
            m = re.search(r"\| no picture \| (\d+) \|", report)
            check(m is not None and int(m.group(1)) == lost, f"{lost} pictures missing reported as 'no picture'")
        check("pictures that draw a circle the text drops: " in report, "the circle-drop count")
    if failures:
        print("measure_visonlyqa.py:\n" + "\n".join("- " + f for f in failures))
        print(report if "report" in dir() else "")
        return 1
    print("measure_visonlyqa.py: the tiny checkout's figures hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
