"""The harnesses' formats in and out, through the command line (docs/export.md, docs/score.md).

A generated GePBench set (pictures drawn by generate --render) is exported to each layout and read
back as each harness documents it, with the harness's own readers where Debian has them:
- hf: the imagefolder rules of Hugging Face `datasets` (metadata.jsonl beside the data, a
  `file_name` column naming a file relative to it, one set of columns with one type each), every
  picture decoded by PIL;
- vlmevalkit: the TSV read by pandas as VLMEvalKit's `load` reads it, its mandatory columns
  (index, image, question, answer) and the MCQ ones (A, B, … category), every image resolved as
  VLMEvalKit's ImageBaseDataset resolves it (a short value is another row's index) and decoded;
- lmms-eval: the task's YAML keys (task, dataset_path, dataset_kwargs, test_split, output_type,
  doc_to_visual, doc_to_text, doc_to_target, process_results, metric_list), its functions called on
  each document as lmms-eval calls them.
Then one made-up model's responses are scored natively and from a response file in each harness's
format (lmms-eval's --log_samples JSONL as its evaluation tracker writes it; VLMEvalKit's
predictions as its `dump` writes them: .xlsx through pandas and XlsxWriter, .csv and .tsv quoted;
and an .xlsx written by openpyxl): every accuracy must be the native one. Last, .xlsx files that
inflate past the limit (honestly, and with a lying size in the archive) or are damaged must each
give an error naming the file, never a crash, with bounded memory.

Usage: harness_test.py GEOTRUTH WORK_DIR"""
import base64
import csv
import importlib.util
import io
import json
import os
import random
import resource
import shutil
import struct
import subprocess
import sys
import zipfile

import pandas as pd
import yaml
from PIL import Image

geotruth, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
passed = failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", flush=True)
    return condition


def run(*args, expect=0):
    done = subprocess.run([geotruth, *map(str, args)], capture_output=True, text=True, timeout=600)
    if not check(done.returncode == expect, f"geotruth {' '.join(map(str, args))}: exit {done.returncode}, "
                                            f"expected {expect}\n{done.stderr[-3000:]}"):
        if done.returncode < 0 or expect == 0:
            sys.exit(f"harness_test: {failed} failed")
    return done


def path(*parts):
    return os.path.join(work, *parts)


# A GePBench set with its pictures; its questions, as the native dataset holds them.
dataset, pictures = path("gep.jsonl"), path("pictures")
run("generate", "--family", "gepbench", "--level", "easy", "-n", 6, "--seed", 5, "-o", dataset, "--render", pictures,
    "--image-format", "jpeg")
questions = {}
for line in open(dataset, encoding="utf-8"):
    scene = json.loads(line)
    for q in scene["questions"]:
        questions[(scene["id"], q["id"])] = q
check(len(questions) >= 12, f"the generated set has {len(questions)} questions")
verdicts = {"ok", "wrong", "ambiguous", "invalid", "unsupported"}


def check_row(row, where):
    """A row's ids, options and answer are the native question's."""
    key = (row["scene_id"], row["question_id"])
    if not check(key in questions, f"{where}: {key} is no question of the dataset"):
        return
    q = questions[key]
    check(list(row["options"]) == q["options"], f"{where}: options {row['options']} != {q['options']}")
    check(row["answer"] == q["answer"], f"{where}: answer {row['answer']} != {q['answer']}")
    check(row["verdict"] in verdicts, f"{where}: verdict {row['verdict']}")


def read_imagefolder(data_dir):
    """The rows datasets' imagefolder builder makes of data_dir (its documented rules), with images."""
    metadata = os.path.join(data_dir, "metadata.jsonl")
    if not check(os.path.isfile(metadata), f"{metadata} exists"):
        return []
    rows = [json.loads(line) for line in open(metadata, encoding="utf-8")]
    columns = {k: type(v) for k, v in rows[0].items()}
    for n, row in enumerate(rows):
        check({k: type(v) for k, v in row.items()} == columns, f"{metadata}:{n + 1}: the columns and types of row 1")
        name = row["file_name"]
        check(not os.path.isabs(name) and ".." not in name.split("/"), f"{metadata}:{n + 1}: file_name {name}")
        picture = os.path.join(data_dir, name)
        if check(os.path.isfile(picture), f"{metadata}:{n + 1}: {picture} exists"):
            with Image.open(picture) as image:
                image.load()
                row["image"] = image.convert("RGB")
    names = [row["file_name"] for row in rows]
    check(len(set(names)) == len(names), f"{metadata}: one picture file per row (older datasets key rows by file)")
    return rows


# --- hf ---
run("export", dataset, "--format", "hf", "--image", pictures, "-o", path("hf"), "--records", path("hf.records"))
hf_rows = read_imagefolder(path("hf"))
check(len(hf_rows) == len(questions), f"hf: {len(hf_rows)} rows for {len(questions)} questions")
for n, row in enumerate(hf_rows):
    check_row(row, f"hf row {n}")
    check(row["index"] == n, f"hf row {n}: index {row['index']}")

# --- vlmevalkit ---
run("export", dataset, "--format", "vlmevalkit", "--image", pictures, "-o", path("vlm"), "--name", "GeoTruthGep")
tsv = path("vlm", "GeoTruthGep.tsv")
table = pd.read_csv(tsv, sep="\t")  # VLMEvalKit's load() of a .tsv
texts = pd.read_csv(tsv, sep="\t", dtype=str, keep_default_na=False)  # the same cells as written, to compare
for column in ["index", "image", "question", "answer", "A", "B", "C", "D", "category", "scene_id", "question_id",
               "verdict"]:
    check(column in table.columns, f"vlmevalkit: column {column}")
check(len(table) == len(questions) and table["index"].is_unique, "vlmevalkit: one row per question, unique index")
images = {str(i): str(v) for i, v in zip(table["index"], table["image"])}
for (_, line), (_, text) in zip(table.iterrows(), texts.iterrows()):
    value = images[str(line["index"])]
    if len(value) <= 64:  # ImageBaseDataset: another question's index, whose image is the picture
        check(value in images and len(images[value]) > 64, f"vlmevalkit row {line['index']}: image reference {value}")
        value = images.get(value, "")
    try:
        with Image.open(io.BytesIO(base64.b64decode(value))) as image:
            image.load()
            check(image.size[0] > 0, f"vlmevalkit row {line['index']}: a picture")
    except Exception as e:  # noqa: BLE001
        check(False, f"vlmevalkit row {line['index']}: the image does not decode: {e}")
    options = [text[c] for c in "ABCDEFGH" if c in texts.columns and text[c] != ""]
    check_row({"scene_id": text["scene_id"], "question_id": text["question_id"], "options": options,
               "answer": text["answer"], "verdict": text["verdict"]}, f"vlmevalkit row {line['index']}")


# --- lmms-eval ---
class TaskLoader(yaml.SafeLoader):
    pass


TaskLoader.add_constructor("!function", lambda loader, node: ("function", loader.construct_scalar(node)))
run("export", dataset, "--format", "lmms-eval", "--image", pictures, "-o", path("lmms"), "--name", "geotruth_gep")
task_file = path("lmms", "geotruth_gep.yaml")
task = yaml.load(open(task_file, encoding="utf-8"), Loader=TaskLoader)
for key in ["task", "dataset_path", "dataset_kwargs", "test_split", "output_type", "doc_to_visual", "doc_to_text",
            "doc_to_target", "process_results", "metric_list"]:
    check(key in task, f"lmms-eval: {task_file} has {key}")
check(task["task"] == "geotruth_gep" and task["output_type"] == "generate_until", "lmms-eval: task and output_type")
check(task["dataset_path"] == "imagefolder" and task["test_split"] == "train", "lmms-eval: the imagefolder's split")
spec = importlib.util.spec_from_file_location("utils", path("lmms", "utils.py"))
utils = importlib.util.module_from_spec(spec)
spec.loader.exec_module(utils)


def function(value):
    check(isinstance(value, tuple) and value[0] == "function" and value[1].startswith("utils."), f"!function {value}")
    return getattr(utils, value[1].split(".", 1)[1])


doc_to_visual, doc_to_text = function(task["doc_to_visual"]), function(task["doc_to_text"])
process_results = function(task["process_results"])
for metric in task["metric_list"]:
    check("metric" in metric and callable(function(metric["aggregation"])), f"lmms-eval: metric {metric}")
documents = read_imagefolder(task["dataset_kwargs"]["data_dir"])
check(len(documents) == len(questions), "lmms-eval: one document per question")
kwargs = dict(task["lmms_eval_specific_kwargs"]["default"])
for n, doc in enumerate(documents):
    check_row(doc, f"lmms-eval document {n}")
    check(isinstance(doc_to_visual(doc)[0], Image.Image), f"lmms-eval document {n}: doc_to_visual gives a picture")
    text = doc_to_text(doc, kwargs)
    check(doc["question"] in text and all(f"{chr(65 + k)}. {o}" in text for k, o in enumerate(doc["options"])),
          f"lmms-eval document {n}: doc_to_text shows the question and its options:\n{text}")
    check(doc[task["doc_to_target"]] == doc["answer"], f"lmms-eval document {n}: the target is the answer")


# --- one model's responses, native and in each harness's format ---
def letter(k):
    return chr(ord("A") + k)


random.seed(7)
responses = {}
for (scene, qid), q in sorted(questions.items()):
    right = ord(q["answer"]) - ord("A")
    pick = right if random.random() < 0.6 else (right + 1) % len(q["options"])
    style = random.randrange(4)
    responses[(scene, qid)] = [
        f"{letter(pick)}",
        f"Looking at the figure, \"{q['options'][pick]}\", so\tthe answer is {letter(pick)}.",
        f"Let me think.\nThe options are listed; I choose ({letter(pick).lower()}).",
        f"Answer: {letter(pick)}, because of the picture, obviously",
    ][style]
native = path("native.jsonl")
with open(native, "w", encoding="utf-8") as out:
    for (scene, qid), text in responses.items():
        out.write(json.dumps({"question_id": f"{scene}/{qid}", "response": text}) + "\n")


def scores(responses_file, expect=0):
    target = responses_file + ".scores.json"
    run("score", dataset, "--responses", responses_file, "--json", target, expect=expect)
    return json.load(open(target, encoding="utf-8"))


def views(model):
    return {k: model[k] for k in ("all", "clean", "corrected", "by_aspect", "by_kind", "by_difficulty")}


reference = scores(native)["models"][0]
check(reference["responses"]["matched"] == len(questions), "native: every response matched")

# lmms-eval --log_samples, as save_results_samples writes each sample (the document popped) ...
samples = path("20250101_samples_geotruth_gep.jsonl")
with open(samples, "w", encoding="utf-8") as out:
    for n, doc in enumerate(documents):
        text = responses[(doc["scene_id"], doc["question_id"])]
        metrics = process_results({k: v for k, v in doc.items() if k != "image"}, [text])
        sample = {"doc_id": n, "target": str(doc["answer"]), "filtered_resps": text, "token_counts": [None],
                  "doc_hash": f"{n:064x}", "input": doc_to_text(doc, kwargs), **metrics}
        out.write(json.dumps(sample, ensure_ascii=False) + "\n")
# ... and as older lmms-eval versions write it: the document kept, the responses in lists.
old_samples = path("old_samples.jsonl")
with open(old_samples, "w", encoding="utf-8") as out:
    for n, doc in enumerate(documents):
        text = responses[(doc["scene_id"], doc["question_id"])]
        kept = {k: v for k, v in doc.items() if k != "image"}
        out.write(json.dumps({"doc_id": n, "doc": kept, "target": doc["answer"], "arguments": [],
                              "resps": [[text]], "filtered_resps": [text]}) + "\n")

# VLMEvalKit's predictions: its TSV with a prediction column, without the images, as dump() writes them.
predictions = pd.read_csv(tsv, sep="\t")
predictions["prediction"] = [responses[(str(s), str(q))] for s, q in
                             zip(predictions["scene_id"], predictions["question_id"])]
predictions.pop("image")
xlsx = path("MyModel_GeoTruthGep.xlsx")
with pd.ExcelWriter(xlsx, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as writer:
    predictions.to_excel(writer, index=False)
openpyxl_xlsx = path("MyModel_openpyxl.xlsx")
with pd.ExcelWriter(openpyxl_xlsx, engine="openpyxl") as writer:
    predictions.to_excel(writer, index=False)
predictions.to_csv(path("MyModel_GeoTruthGep.csv"), index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
predictions.to_csv(path("MyModel_GeoTruthGep.tsv"), sep="\t", index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
predictions.to_csv(path("MyModel_minimal.tsv"), sep="\t", index=False, encoding="utf-8")  # pandas' default quoting

for harness_file in [samples, old_samples, xlsx, openpyxl_xlsx, path("MyModel_GeoTruthGep.csv"),
                     path("MyModel_GeoTruthGep.tsv"), path("MyModel_minimal.tsv")]:
    model = scores(harness_file)["models"][0]
    name = os.path.basename(harness_file)
    check(model["responses"]["matched"] == len(questions) and model["responses"]["unreadable"] == 0,
          f"{name}: every row matched ({model['responses']})")
    check(views(model) == views(reference), f"{name}: the accuracies of the native responses\n"
                                            f"{json.dumps(views(model))}\n{json.dumps(views(reference))}")

# --- filter --format and generate --format write the same layouts ---
run("filter", dataset, "--keep", path("kept"), "--reject", path("rejected.jsonl"), "--format", "hf", "--image",
    pictures, "--policy", "lenient")
check(len(read_imagefolder(path("kept"))) == len(hf_rows), "filter --format hf keeps the clean items' rows")
run("generate", "--family", "gepbench", "--level", "easy", "-n", 3, "--seed", 8, "--format", "vlmevalkit", "-o",
    path("generated"), "--name", "Gen")
generated = pd.read_csv(path("generated", "Gen.tsv"), sep="\t")
generated_scenes = [json.loads(line) for line in open(path("generated", "scenes.jsonl"), encoding="utf-8")]
check(len(generated) == sum(len(s["questions"]) for s in generated_scenes) > 0,
      "generate --format vlmevalkit: a row per question of scenes.jsonl")
check(not os.path.exists(path("generated", ".pictures")), "generate --format: its own pictures folder removed")


# --- .xlsx that must be refused: bombs and damaged files ---
def sheet_xml(rows):
    cells = "".join(f'<row r="{r + 1}">' + "".join(f'<c r="{chr(65 + c)}{r + 1}" t="inlineStr"><is><t>{v}</t></is></c>'
                                                   for c, v in enumerate(row)) + "</row>" for r, row in enumerate(rows))
    return ('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f"<sheetData>{cells}</sheetData></worksheet>")


def workbook(file, sheet, extra=None):
    """A minimal workbook (ECMA-376's parts and relationships) with `sheet` as its first sheet."""
    ns = "http://schemas.openxmlformats.org"
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", f'<Types xmlns="{ns}/package/2006/content-types"/>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{ns}/package/2006/relationships"><Relationship Id="r1" '
                                  f'Type="{ns}/officeDocument/2006/relationships/officeDocument" '
                                  'Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{ns}/spreadsheetml/2006/main" xmlns:r="{ns}/officeDocument/'
                                      '2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/>'
                                      "</sheets></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{ns}/package/2006/relationships">'
                                                 f'<Relationship Id="rId1" Type="{ns}/officeDocument/2006/'
                                                 'relationships/worksheet" Target="worksheets/sheet1.xml"/>'
                                                 "</Relationships>")
        if isinstance(sheet, bytes):
            z.writestr("xl/worksheets/sheet1.xml", sheet)
        elif sheet is not None:
            z.writestr("xl/worksheets/sheet1.xml", sheet)
        for name, data in (extra or {}).items():
            z.writestr(name, data)


header = ["index", "scene_id", "question_id", "prediction"]
first = next(iter(responses))
good = path("hand.xlsx")
workbook(good, sheet_xml([header, ["0", first[0], first[1], "B"]]))
model = scores(good, expect=0)["models"][0]
check(model["responses"]["matched"] == 1, "a hand-made workbook (inline strings) is read")

inflated = 64 << 20  # a 64 MiB sheet of empty rows (well-formed XML all through): deflated to about 64 KiB
bomb = path("bomb.xlsx")
workbook(bomb, b'<?xml version="1.0"?><worksheet><sheetData>' + b"<row/>" * (inflated // 6) + b"</sheetData></worksheet>")
print(f"bomb.xlsx: {os.path.getsize(bomb)} bytes inflating to {inflated}", flush=True)

# The same archive declaring a 100-byte sheet: the sizes in its local header and central directory lied.
liar = path("liar.xlsx")
data = bytearray(open(bomb, "rb").read())
name = b"xl/worksheets/sheet1.xml"
for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
    at = data.find(signature)
    while at >= 0:
        if data[at + name_at:at + name_at + len(name)] == name:
            struct.pack_into("<I", data, at + size_at, 100)
        at = data.find(signature, at + 4)
open(liar, "wb").write(bytes(data))

truncated = path("truncated.xlsx")
open(truncated, "wb").write(open(xlsx, "rb").read()[: os.path.getsize(xlsx) // 2])
garbage = path("garbage.xlsx")
open(garbage, "wb").write(bytes(random.Random(3).randrange(256) for _ in range(4096)))
no_workbook = path("no_workbook.xlsx")
with zipfile.ZipFile(no_workbook, "w") as z:
    z.writestr("hello.txt", "not a workbook")
no_sheet = path("no_sheet.xlsx")
workbook(no_sheet, None)
broken_xml = path("broken_xml.xlsx")
workbook(broken_xml, '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1"><v>1</c></row>')
bad_string = path("bad_string.xlsx")
workbook(bad_string, '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="s"><v>7</v></c></row>'
                     "</sheetData></worksheet>")
laughs = path("laughs.xlsx")
entities = "".join(f'<!ENTITY l{k} "' + f"&l{k - 1};" * 10 + '">' for k in range(1, 10))
workbook(laughs, f'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY l0 "ha">{entities}]><worksheet><sheetData>'
                 '<row r="1"><c r="A1" t="inlineStr"><is><t>&l9;</t></is></c></row></sheetData></worksheet>')
no_prediction = path("no_prediction.xlsx")
workbook(no_prediction, sheet_xml([["index", "question_id"], ["0", "q"]]))

for bad in [bomb, liar, truncated, garbage, no_workbook, no_sheet, broken_xml, bad_string, laughs, no_prediction]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([geotruth, "score", dataset, "--responses", bad, "--max-unpacked-bytes", str(16 << 20)],
                          capture_output=True, text=True, timeout=120)
    name = os.path.basename(bad)
    check(done.returncode == 1, f"{name}: exit {done.returncode} (1: a file that could not be read)\n{done.stderr}")
    check(bad in done.stderr, f"{name}: the error names the file:\n{done.stderr}")
    if bad in (bomb, liar):
        check("--max-unpacked-bytes" in done.stderr, f"{name}: refused for the limit of unpacked bytes")
    print(f"{name}: " + " / ".join(l for l in done.stderr.splitlines() if l.startswith("geotruth score:")))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    bound = 1024 if "ASAN_OPTIONS" in os.environ else 300  # MiB; AddressSanitizer's own memory besides
    check(peak < bound * 1024 or peak == before, f"{name}: peak memory {peak} KiB")

print(f"harness formats: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
