"""One answer in every entry point (issue 29): the Python package reaches the verdict the commands do.

The fixture asks "how many labels are left of the chair?" three times. In the first two scenes one
label's centre is 2 px from the chair's centre line (inside the default ambiguous band, 0.5-3 px):
its side flips the count between options A and B, so the question is ambiguous. In the third the
2 px entity is an icon, not a label: no side of it changes the count, and the question is ok.
"""

import json

import geotruth
from conftest import FIXTURES, jsonl

CHAIR = FIXTURES / "chair_count_ambiguous.jsonl"
SCENES = jsonl(CHAIR)
EXPECTED = ["ambiguous", "ambiguous", "ok"]


def test_analyze_and_count_mark_the_truth_ambiguous_where_the_audit_does(cli):
    flags = [v == "ambiguous" for v in EXPECTED]
    assert [geotruth.analyze(s)["truths"][0]["ambiguous"] for s in SCENES] == flags
    assert [geotruth.count(s)["truths"][0]["ambiguous"] for s in SCENES] == flags
    assert [r["truths"][0]["ambiguous"] for r in jsonl(cli("analyze", CHAIR))] == flags
    # The fact says which count the other side gives: 1 for the first scene, 2 for the second.
    facts = [geotruth.analyze(s)["truths"][0]["facts"] for s in SCENES]
    assert [f["alternative"] for f in facts[0] if f["ambiguous"]] == ["1"]
    assert [f["alternative"] for f in facts[1] if f["ambiguous"]] == ["2"]


def test_audit_and_score_give_the_same_verdicts(tmp_path):
    assert [v["verdict"] for v in geotruth.audit(SCENES)] == EXPECTED
    assert [v["verdict"] for v in geotruth.audit(CHAIR)] == EXPECTED
    rows = [{"question_id": f"{s['id']}/n-left", "response": s["questions"][0]["answer"]} for s in SCENES]
    scores = geotruth.score(SCENES, {"model": rows})
    assert scores["verdicts"]["ambiguous"] == 2 and scores["verdicts"]["ok"] == 1
    # The model answered the annotated letter everywhere: right on the one audited-ok item.
    assert json.loads(json.dumps(scores["models"][0]["clean"])) == {"n": 1, "correct": 1, "accuracy": 1.0}
