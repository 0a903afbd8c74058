"""The functions of an lmms-eval task written by `geotruth export --format lmms-eval` (its YAML names them).

Each document is a row of data/metadata.jsonl, loaded by the imagefolder builder: the picture in
"image" (a PIL image), "question", "options", the annotated "answer", the ids "scene_id" and
"question_id", and geotruth's "verdict" and "truth". Score the logged samples (--log_samples) with
`geotruth score DATASET --responses <samples>.jsonl`: it reads the ids process_results logs.
"""


def doc_to_visual(doc):
    return [doc["image"].convert("RGB")]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    """The question, then its options as "A. …" lines, between the task's pre_prompt and its
    post_prompt (open_post_prompt for a question without options)."""
    kwargs = lmms_eval_specific_kwargs or {}
    options = doc.get("options") or []
    lines = [kwargs.get("pre_prompt", "") + doc["question"]]
    lines += [f"{chr(ord('A') + k)}. {option}" for k, option in enumerate(options)]
    return "\n".join(lines) + kwargs.get("post_prompt" if options else "open_post_prompt", "")


def process_results(doc, results):
    """The response with the question's ids, logged by lmms-eval with every sample."""
    response = results[0] if results else ""
    return {"geotruth": {"index": doc["index"], "scene_id": doc["scene_id"], "question_id": doc["question_id"],
                         "verdict": doc["verdict"], "response": response}}


def aggregate(items):
    """The number of responses: geotruth score computes the accuracies from the logged samples."""
    return len(items)
