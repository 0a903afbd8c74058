"""Builds the fuzzer's seed corpus (tests/fuzz/corpus/) from the test fixtures, the embedded
dataset and tests/bad_inputs: one file per record, its first byte the source format (0 native,
1 Geometry3K, 2 PGDP, 3 line list, 4 GePBench: rules on one line, then VQA lines, 5 AI2D: one
annotation a line, with its id and questions).

Usage: python3 tests/fuzz/make_seeds.py  (from the project root)"""
import hashlib
import json
import os
import shutil

root = os.getcwd()
out = os.path.join(root, "tests", "fuzz", "corpus")
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
seeds = []


def add(fmt, text):
    data = bytes([fmt]) + (text.encode("utf-8") if isinstance(text, str) else text)
    if len(data) <= 1 << 16:
        seeds.append(data)


def lines(path):
    with open(path, "rb") as f:
        return [l.rstrip(b"\n") for l in f if l.strip()]


fixtures = os.path.join(root, "tests", "fixtures")
for name in ("audit_planted.jsonl", "two_valid_three_bad.jsonl"):
    for l in lines(os.path.join(fixtures, name)):
        add(0, l)
for l in lines(os.path.join(root, "data", "scenes.jsonl")):
    add(0, l)
g3k = json.load(open(os.path.join(fixtures, "geometry3k", "diagram_logic_forms_sample.json")))
for key, problem in g3k.items():
    add(1, json.dumps({key: problem}))
add(1, open(os.path.join(fixtures, "geometry3k", "bad_names.json")).read())
pgdp = json.load(open(os.path.join(fixtures, "pgdp_sample.json")))
for key, item in pgdp.items():
    add(2, json.dumps({key: item}))
add(3, open(os.path.join(fixtures, "linelist_figures.txt")).read())
rules = json.dumps(json.load(open(os.path.join(fixtures, "gepbench", "rules.json"))))
for vqa in ("location.jsonl", "size.jsonl"):
    add(4, rules + "\n" + open(os.path.join(fixtures, "gepbench", vqa)).read())
ai2d = os.path.join(fixtures, "ai2d")
for name in sorted(os.listdir(os.path.join(ai2d, "annotations"))):
    record = json.load(open(os.path.join(ai2d, "annotations", name)))
    record["id"] = name[: -len(".png.json")]
    questions = os.path.join(ai2d, "questions", name)
    if os.path.exists(questions):
        record["questions"] = json.load(open(questions))["questions"]
    add(5, json.dumps(record))
bad = os.path.join(root, "tests", "bad_inputs")
formats = {"geometry3k": 1, "pgdp": 2, "linelist": 3}
for name in sorted(os.listdir(bad)):
    path = os.path.join(bad, name)
    if name.endswith((".md", "expected.json", ".vqa.jsonl")):
        continue
    if ".gepbench." in name:
        rules_text = open(path).read().replace("\n", " ")
        add(4, rules_text + "\n" + open(path[: -len(".json")] + ".vqa.jsonl").read())
        continue
    fmt = next((v for k, v in formats.items() if f".{k}." in name), 0)
    add(fmt, open(path, "rb").read())
for data in seeds:
    with open(os.path.join(out, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)
print(f"{len(seeds)} seeds in {out}")
