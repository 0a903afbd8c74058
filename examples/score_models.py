"""Worked example: how much do wrong and ambiguous items change two models' scores?

Imports the public GePBench sample in tests/fixtures/gepbench (the engine's rules.json and two of
its VQA files), audits it, and scores two small made-up model-output files (examples/responses/:
model_a keyed by "<scene>/<question>", model_b by GePBench's own image_id and question_id) on
all items, on the items geotruth audits as ok, and with geotruth's truth where the annotated
answer is wrong. Run it from anywhere once the package is importable:

    PYTHONPATH=build/python python3 examples/score_models.py
"""

from collections import Counter
from pathlib import Path

import geotruth

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "tests" / "fixtures" / "gepbench"


def main() -> None:
    files = [SAMPLE / "rules.json", SAMPLE / "location.jsonl", SAMPLE / "size.jsonl"]
    scenes = list(geotruth.import_records("gepbench", files))
    print(f"imported {len(scenes)} scenes from {SAMPLE}")

    verdicts = list(geotruth.audit(scenes))
    counts = Counter(v["verdict"] for v in verdicts)
    print(f"audited {len(verdicts)} questions: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    for v in verdicts:
        if v["verdict"] != "ok":
            why = "; ".join(r["detail"] for r in v["reasons"])
            print(f"  {v['scene']}/{v['question']}: {v['verdict']} ({why})")
    print()

    responses = {path.stem: path for path in sorted((HERE / "responses").glob("*.jsonl"))}
    scores = geotruth.score(scenes, responses)
    print(geotruth.score_table(scores), end="")


if __name__ == "__main__":
    main()
